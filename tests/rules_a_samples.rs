//! Every sample trace through the ABI rules of the `rules-a` set: exactly these fire, with these
//! key message parts, and nothing else of the set fires (the negative controls stay quiet).

use tracecheck::rules::{self, Finding, Selection};

/// The rules this table is about.
const IDS: &[&str] = &[
    "pinned-register",
    "callee-saved-changed",
    "bad-pc",
    "noncanonical-address",
    "write-to-readonly",
    "stack-overflow",
    "stack-misaligned",
    "stack-pointer-wild",
];

/// sample → [(rule, [substrings of the message])]. Samples not listed: none of `IDS` fires.
/// (rule id, substrings its message must contain)
type Expect = (&'static str, &'static [&'static str]);

const EXPECTED: &[(&str, &[Expect])] = &[
    (
        "julia-trampoline-bad-r13.gdb.txt",
        &[(
            "pinned-register",
            &[
                "r13 = 0x5555555593b0 (heap)",
                "equals rsi",
                "not a pgcstack in julia_module_callback_4212",
                "[r13+0] = 0x555555557dd0 points into read-only data, not the stack",
            ],
        )],
    ),
    (
        "null-fnptr.gdb.txt",
        &[(
            "bad-pc",
            &["pc = 0x0: call through a NULL function pointer", "[sp] = 0x5555555551a7 is stream_fill+49 (frame #1)"],
        )],
    ),
    (
        "noncanonical.gdb.txt",
        &[("noncanonical-address", &["rax = 0xdead000000000000 is non-canonical", "accesses 0xdead000000000008"])],
    ),
    ("poison.gdb.txt", &[("noncanonical-address", &["rax = 0xa5a5a5a5a5a5a5a5 is non-canonical"])]),
    ("smashed-stack.gdb.txt", &[("noncanonical-address", &["`ret` returns to [rsp] = 0x4141414141414141"])]),
    ("write-rodata.gdb.txt", &[("write-to-readonly", &["write to 0x555555556004", "read-only data", "in upcase"])]),
    (
        "stack-overflow.gdb.txt",
        &[(
            "stack-overflow",
            &[
                "fault address 0x7fffff7fe108 is 0xef8 bytes below the stack",
                "[stack]",
                "walk recurses 2074 frames deep",
            ],
        )],
    ),
    (
        "misaligned-sse.gdb.txt",
        &[("stack-misaligned", &["rsp = 0x7fffffffec18 is 8 mod 16 at the call from call_misaligned (frame #1)"])],
    ),
];

fn findings(name: &str) -> Vec<Finding> {
    let path = format!("{}/sample-traces/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let parsed = tracecheck::input::parse_bytes(&bytes);
    let sel = Selection { only: IDS.iter().map(|s| s.to_string()).collect(), skip: vec![] };
    rules::run(&parsed.trace, &sel)
}

#[test]
fn every_sample_fires_exactly_the_expected_abi_rules() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-traces");
    let mut samples: Vec<String> = std::fs::read_dir(dir)
        .expect("sample-traces")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".gdb.txt"))
        .collect();
    samples.sort();
    assert!(samples.len() >= 18, "{samples:?}");
    for (name, _) in EXPECTED {
        assert!(samples.iter().any(|s| s == name), "{name} missing");
    }
    for s in &samples {
        let got = findings(s);
        let want: &[Expect] = EXPECTED.iter().find(|(n, _)| n == s).map(|(_, w)| *w).unwrap_or(&[]);
        let got_ids: Vec<&str> = got.iter().map(|f| f.rule).collect();
        let want_ids: Vec<&str> = want.iter().map(|(r, _)| *r).collect();
        assert_eq!(got_ids, want_ids, "{s}: {got:#?}");
        for (f, (_, parts)) in got.iter().zip(want) {
            for p in *parts {
                assert!(f.message.contains(p), "{s}: {:?} lacks {p:?}", f.message);
            }
            assert!(!f.message.ends_with('.'), "{s}: {}", f.message);
            assert!(f.message.chars().next().is_some_and(|c| !c.is_uppercase()), "{s}: {}", f.message);
            assert!(!f.evidence.is_empty() && !f.next_steps.is_empty(), "{s}: {f:#?}");
        }
    }
}

#[test]
fn founding_case_ranks_pinned_register_first_of_all_rules() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-traces/julia-trampoline-bad-r13.gdb.txt");
    let parsed = tracecheck::input::parse_bytes(&std::fs::read(path).expect("sample"));
    let all = rules::run(&parsed.trace, &Selection::default());
    assert_eq!(all.first().map(|f| f.rule), Some("pinned-register"), "{all:#?}");
    let f = &all[0];
    assert!(f.evidence.iter().any(|e| e.text.contains(
        "jlcapi_module_callback_4213 (C ABI, frame #1) calls julia_module_callback_4212 (specsig, expects pgcstack in r13, frame #0) without setting r13"
    )));
}
