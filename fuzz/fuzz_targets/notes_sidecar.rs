//! Notes sidecars: any bytes as a `.tracecheck-notes.json`, parsed, placed against a real
//! report (so anchors that point nowhere are exercised) and listed as `note --list` does.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use tracecheck::analyze::InputReport;

fn report() -> &'static InputReport {
    static R: OnceLock<InputReport> = OnceLock::new();
    R.get_or_init(|| {
        let text = include_str!("../../sample-traces/threads-crash.gdb.txt");
        tracecheck::analyze::analyze("threads-crash.gdb.txt", tracecheck::input::parse(text), &Default::default())
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(f) = tracecheck::notes::parse(text, std::path::Path::new("fuzz.json")) else { return };
    let ir = report();
    let _ = tracecheck::notes::list_lines(&f, ir);
    for n in &f.notes {
        let _ = tracecheck::notes::resolve(n, ir);
    }
    let _ = serde_json::to_string(&f);
});
