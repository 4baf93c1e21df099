//! Crashes found by fuzzing (`fuzz/`) and by the adversarial suite, each with its
//! minimized input inline: the parse (and every rule and renderer) must not panic.

use tracecheck::analyze::{Report, analyze};

fn survives(bytes: &[u8]) {
    let parsed = tracecheck::input::parse_bytes(bytes);
    let report = Report { inputs: vec![analyze("regression", parsed, &Default::default())] };
    let mut sink = Vec::new();
    tracecheck::report::text::write(&report, &Default::default(), &mut sink).expect("text");
    tracecheck::report::json::write(&report, &mut sink).expect("json");
    tracecheck::report::markdown::write(&report, &Default::default(), &mut sink).expect("markdown");
    // And the streaming path, on the same bytes.
    let s = tracecheck::input::parse_reader(bytes, &Default::default()).expect("read");
    let _ = analyze("regression", s.parsed, &Default::default());
}

/// fuzz `runtime_text` (crash-778648ec…): a Go goroutine header, then an lldb stop line
/// (a new stop), then the goroutine's location line: the Go parser indexed the new stop's
/// threads with the old stop's thread index (index out of bounds in `go::location`).
#[test]
fn go_location_after_an_lldb_stop_line() {
    let mut input = b"SIGSEGV: segmentation violation\nPC=0x0 m=0 sigcode=1 addr=0x0\n\ngoroutine 1 [running]:\n".to_vec();
    input.extend_from_slice(b"fata\x0agoroutine 2 [fo e\x00\x00\x00dle)]:\x0ar).\x0a(lldb) s launch\x0a81pped\x0a* thread #1, name = 'ul, stop reason = s= 0x0\x0aruntiin()\x0a\x09cbruntime/.go:363 +0xd0xc\x01\x00\x00\x00\x00\x00\x00\x00");
    survives(&input);
}

/// fuzz `dwarf_symbolize` (crash-6b0b93e7…, the seed binary itself): looking up address
/// `0xffffffffffffffff` overflowed inside addr2line (`probe + 1`), a panic in debug builds
/// (`tracecheck symbolize -e BIN 0xffffffffffffffff`, or a register holding all ones).
#[test]
fn symbolizing_the_last_address() {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/dwarf_symbolize/seed-crash-g-O1");
    let m = tracecheck::symbolize::dwarf::ElfModule::from_bytes(&p, std::fs::read(&p).expect("seed binary")).expect("ELF");
    assert!(m.symbol_info(u64::MAX).is_ok());
}
