//! `DUMP=path cargo test --test dump -- --ignored --nocapture` prints the snapshot rendering
//! of any file: a debugging aid for parser work.
mod common;

#[test]
#[ignore]
fn dump() {
    let Some(paths) = std::env::var_os("DUMP") else { return };
    for p in std::env::split_paths(&paths) {
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let parsed = tracecheck::input::parse_bytes(&bytes);
        println!("==== {}\n{}", p.display(), common::render(&parsed));
    }
}
