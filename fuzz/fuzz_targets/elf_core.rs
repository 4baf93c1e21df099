//! ELF cores: the bytes as a core file, read, unwound and turned into a trace, then every
//! rule and the text renderer. Must never panic, hang or allocate without bound.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::sync::Arc;
use tracecheck::core::{self, CoreBytes, CoreOptions};
use tracecheck::symbolize::dwarf::SymbolOptions;

fuzz_target!(|data: &[u8]| {
    let bytes = Arc::new(CoreBytes::Owned(data.to_vec()));
    let Ok(cf) = core::parse(bytes) else { return };
    // No file system look-ups: module paths named by NT_FILE resolve under a sysroot that
    // does not exist.
    let opts = CoreOptions {
        symbols: SymbolOptions { sysroot: Some("/nonexistent-fuzz-sysroot".into()), system_debug_dir: false, ..Default::default() },
        ..Default::default()
    };
    let parsed = core::trace::core_to_trace(&cf, "fuzz.core", &opts);
    let ir = tracecheck::analyze::analyze("fuzz.core", parsed, &Default::default());
    let report = tracecheck::analyze::Report { inputs: vec![ir] };
    let mut sink = Vec::new();
    let _ = tracecheck::report::text::write(&report, &Default::default(), &mut sink);
});
