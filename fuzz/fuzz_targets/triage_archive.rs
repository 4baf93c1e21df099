//! `tracecheck triage` on a zip archive of CI logs: the bytes are written to a file, listed
//! (`sources::enumerate`: members, sizes, the expansion limits), each member read with the
//! bomb limits (`sources::load`) and analysed (`analyze_bytes`: parse, rules, crash records
//! and signatures). Small limits so the size and ratio checks are reached. Must never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tracecheck::triage::{self, sources};

fuzz_target!(|data: &[u8]| {
    thread_local! {
        static PATH: std::path::PathBuf =
            std::env::temp_dir().join(format!("tracecheck-fuzz-triage-{}.zip", std::process::id()));
    }
    let path = PATH.with(|p| p.clone());
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let limits = sources::ReadLimits {
        max_input_bytes: 1 << 20,
        max_zip_ratio: 50,
        max_zip_total: 4 << 20,
        max_zip_members: 64,
    };
    let opts = triage::TriageOptions { limits, ..Default::default() };
    let (items, _skipped) = sources::enumerate(&[path.display().to_string()], &mut std::io::empty(), &limits);
    for item in items.iter().take(16) {
        if let Ok(loaded) = sources::load(item, &limits) {
            let _ = triage::analyze_bytes(&item.display, &loaded.bytes, &opts);
        }
    }
});
