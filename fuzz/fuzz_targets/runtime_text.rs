//! Julia / Go / lldb runtime output: the same parser entry, seeded with runtime-shaped
//! prefixes so the fuzzer starts inside those dialects' states.
#![no_main]
use libfuzzer_sys::fuzz_target;

const PREFIXES: &[&str] = &[
    "[4053] signal 11 (1): Segmentation fault\nin expression starting at none:1\n",
    "ERROR: LoadError: boom\nStacktrace:\n",
    "SIGSEGV: segmentation violation\nPC=0x0 m=0 sigcode=1 addr=0x0\n\ngoroutine 1 [running]:\n",
    "(lldb) bt\n* thread #1, name = 'a', stop reason = signal SIGSEGV\n",
    "(rr) when\nCurrent event: 1\n",
];

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let mut input = PREFIXES[sel as usize % PREFIXES.len()].as_bytes().to_vec();
    input.extend_from_slice(rest);
    let parsed = tracecheck::input::parse_bytes(&input);
    let _ = tracecheck::rules::run(&parsed.trace, &Default::default());
});
