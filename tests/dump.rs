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

/// `DUMP=… cargo test --test dump culprits -- --ignored --nocapture`: culprit frame and
/// crash line of each file.
#[test]
#[ignore]
fn culprits() {
    let Some(paths) = std::env::var_os("DUMP") else { return };
    for p in std::env::split_paths(&paths) {
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let parsed = tracecheck::input::parse_bytes(&bytes);
        let Some(stop) = parsed.trace.main_stop() else { continue };
        let c = tracecheck::analyze::culprit(stop);
        let th = stop.crashed_thread();
        let f = c.as_ref().and_then(|c| th.and_then(|t| t.frames.get(c.position)));
        println!(
            "{}: culprit #{} {} | crash line {}",
            p.display(),
            c.as_ref().map(|c| c.index).unwrap_or(0),
            f.map(|f| f.function_name()).unwrap_or("-"),
            tracecheck::analyze::crash_line(stop).unwrap_or_default()
        );
    }
}
