//! gdb / rr transcripts: parse, run every rule, render all formats. Must never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let parsed = tracecheck::input::parse_bytes(data);
    let sel = tracecheck::rules::Selection::default();
    let ir = tracecheck::analyze::analyze("fuzz", parsed, &sel);
    let report = tracecheck::analyze::Report { inputs: vec![ir] };
    let mut sink = Vec::new();
    let _ = tracecheck::report::json::write(&report, &mut sink);
    sink.clear();
    let _ = tracecheck::report::text::write(&report, &Default::default(), &mut sink);
    sink.clear();
    let _ = tracecheck::report::markdown::write(&report, &Default::default(), &mut sink);
});
