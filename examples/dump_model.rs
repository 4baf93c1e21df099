//! A debugging aid for parser work: prints the snapshot rendering of any transcript (the
//! same text `tests/snapshots/` holds), or with `--culprits` each file's culprit frame and
//! crash line.
//!
//! `cargo run --example dump_model -- [--culprits] FILE...`
#[path = "../tests/common/mod.rs"]
mod common;

fn main() {
    let mut culprits = false;
    for a in std::env::args().skip(1) {
        if a == "--culprits" {
            culprits = true;
            continue;
        }
        let bytes = match std::fs::read(&a) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{a}: {e}");
                std::process::exit(2);
            }
        };
        let parsed = tracecheck::input::parse_bytes(&bytes);
        if !culprits {
            println!("==== {a}\n{}", common::render(&parsed));
            continue;
        }
        let Some(stop) = parsed.trace.main_stop() else { continue };
        let c = tracecheck::analyze::culprit(stop);
        let th = stop.crashed_thread();
        let f = c.as_ref().and_then(|c| th.and_then(|t| t.frames.get(c.position)));
        println!(
            "{a}: culprit #{} {} | crash line {}",
            c.as_ref().map(|c| c.index).unwrap_or(0),
            f.map(|f| f.function_name()).unwrap_or("-"),
            tracecheck::analyze::crash_line(stop).unwrap_or_default()
        );
    }
}
