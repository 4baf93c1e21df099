//! Register provenance and the callee-saved checks from what a transcript itself shows
//! (issue #11): its `disassemble` listings (gdb AT&T and Intel, `/r` bytes, lldb's `->`
//! marker), `info frame` and `x/` dumps, without `--exe` or a core. The binary path (with
//! `--exe`) must name the same instruction.

mod common;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Each finding of `rule`: its message and evidence lines joined.
fn findings(args: &[&Path], rule: &str) -> Vec<String> {
    let out = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--format", "json", "--fail-on", "never"])
        .args(args)
        .output()
        .expect("run tracecheck");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    v["inputs"][0]["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|f| f["rule"] == rule)
        .map(|f| {
            let mut t = f["message"].as_str().unwrap_or("").to_string();
            for e in f["evidence"].as_array().into_iter().flatten() {
                t.push('\n');
                t.push_str(e["text"].as_str().unwrap_or(""));
            }
            t
        })
        .collect()
}

fn crasher(name: &str) -> PathBuf {
    common::samples_dir().join("crashers").join(format!("{name}.gdb.txt"))
}

/// The evidence line that starts with `prefix`.
fn line_with<'a>(texts: &'a [String], prefix: &str) -> Option<&'a str> {
    texts.iter().flat_map(|t| t.lines()).find(|l| l.starts_with(prefix))
}

#[test]
fn writer_named_from_gdb_intel_listings() {
    let f = findings(&[&crasher("julia-r13-intel")], "pinned-register");
    let l = line_with(&f, "r13 was last written").unwrap_or_else(|| panic!("{f:#?}"));
    assert_eq!(
        l,
        "r13 was last written at run_pass_manager+0x8: `mov    r13,rsi` (frame #2); not written since by \
         julia_module_callback_4212 (frame #0), jlcapi_module_callback_4213 (frame #1), which pass it on (from the \
         transcript's disassembly: julia_module_callback_4212 (frame #0): 6 instructions from its entry to the pc; \
         jlcapi_module_callback_4213 (frame #1): 4 instructions from its entry to the pc; run_pass_manager (frame #2): \
         7 instructions from its entry to the pc)"
    );
}

#[test]
fn writer_named_from_lldb_listings() {
    let t = common::samples_dir().join("lldb/julia-trampoline-frames.lldb.txt");
    let f = findings(&[&t], "pinned-register");
    let l = line_with(&f, "r13 was last written").unwrap_or_else(|| panic!("{f:#?}"));
    assert!(l.starts_with("r13 was last written at run_pass_manager+0x8: `movq   %rsi, %r13` (frame #2)"), "{l}");
    assert!(l.contains("from the transcript's disassembly"), "{l}");
}

#[test]
fn a_frame_whose_code_is_not_shown_is_where_the_walk_stops() {
    // The founding transcript shows frames #0 and #1 whole, and no code of frame #2.
    let t = common::samples_dir().join("julia-trampoline-bad-r13.gdb.txt");
    let f = findings(&[&t], "pinned-register");
    let l = line_with(&f, "r13 is not written").unwrap_or_else(|| panic!("{f:#?}"));
    assert!(
        l.starts_with(
            "r13 is not written in julia_module_callback_4212 (frame #0), jlcapi_module_callback_4213 (frame #1) \
             before their pc: inherited from run_pass_manager (frame #2) (from the transcript's disassembly"
        ),
        "{l}"
    );
    assert!(!f.iter().any(|t| t.contains("last written")), "{f:#?}");
    // lldb's `disassemble --pc` shows nothing before the pc: nothing is claimed.
    let t = common::samples_dir().join("lldb/julia-trampoline-bad-r13.lldb.txt");
    let f = findings(&[&t], "pinned-register");
    assert!(!f.iter().any(|t| t.contains("written")), "{f:#?}");
}

#[test]
fn callee_saved_slots_from_transcript_memory() {
    // A callee that returned: its save slot from its `disassemble /r` prologue, the slot's
    // word from `x/8gx $sp-64`.
    let f = findings(&[&crasher("push-slot-overrun")], "callee-saved-changed");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(
        f[0].contains(
            "mix_rows saves r12 at CFA-24 (at mix_rows+0x1: `push   %r12`), and that saved copy, at 0x7fffffffec28 \
             below the caller's sp, holds 0x0 in the x/ dump"
        ),
        "{}",
        f[0]
    );
    assert!(f[0].contains("fold_table+0x5 `mov    0x8(%r12),%rsi` read through it without faulting"), "{}", f[0]);
    // A live frame: `info frame` says where r12 is saved, `x/8gx $sp` shows it.
    let f = findings(&[&crasher("live-slot-smash")], "callee-saved-changed");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(
        f[0].starts_with(
            "scan_rows (frame #0) saved fold_table's r12 at 0x7fffffffec38, and that saved copy now holds 0x0, which \
             fold_table (frame #1) cannot have had at the call: fold_table+0x5 `mov    0x10(%r12),%rdx`"
        ),
        "{}",
        f[0]
    );
    // The look-alikes: the same saves, nothing overwritten.
    for c in ["push-slot-ok", "live-slot-ok"] {
        assert!(findings(&[&crasher(c)], "callee-saved-changed").is_empty(), "{c}");
    }
}

/// Builds crashers with `regenerate.sh --cores` (their binaries and cores) into a temp dir.
fn build(cases: &[&str]) -> Option<PathBuf> {
    if !common::require_tools(&["gcc", "gdb", "bash"]) {
        return None;
    }
    let dir = common::scratch_root().join(format!("tracecheck-provenance-text-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new("bash")
        .arg(common::samples_dir().join("crashers/regenerate.sh"))
        .arg("--cores")
        .arg(&dir)
        .args(cases)
        .output()
        .expect("regenerate.sh");
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    Some(dir)
}

#[test]
fn transcript_and_binary_paths_agree() {
    let Some(dir) = build(&["julia-r13-intel", "push-slot-overrun", "live-slot-smash"]) else { return };
    let exe = Path::new("--exe");
    // The same writer, by the same label, from the Intel text and from the machine code.
    let t = crasher("julia-r13-intel");
    let text = findings(&[&t], "pinned-register");
    let bin = findings(&[exe, &dir.join("julia-r13-intel"), &t], "pinned-register");
    let core = findings(&[exe, &dir.join("julia-r13-intel"), &dir.join("julia-r13-intel.core")], "pinned-register");
    let head =
        |v: &[String]| line_with(v, "r13 was last written").and_then(|l| l.split(':').next()).map(str::to_string);
    assert_eq!(head(&text).as_deref(), Some("r13 was last written at run_pass_manager+0x8"));
    assert_eq!(head(&text), head(&bin), "{bin:#?}");
    assert_eq!(head(&text), head(&core), "{core:#?}");
    assert!(!line_with(&bin, "r13 was last written").unwrap_or("").contains("transcript's disassembly"));
    // The callee's save slot: from its shown prologue, from its CFI (with --exe and in the core).
    let t = crasher("push-slot-overrun");
    for f in [
        findings(&[&t], "callee-saved-changed"),
        findings(&[exe, &dir.join("push-slot-overrun"), &t], "callee-saved-changed"),
        findings(&[exe, &dir.join("push-slot-overrun"), &dir.join("push-slot-overrun.core")], "callee-saved-changed"),
    ] {
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].contains("saves r12 at CFA-24 (at mix_rows+0x1: `push   %r12`)"), "{}", f[0]);
        assert!(f[0].contains("r12 last written at fold_table+0x2: `mov    %rdi,%r12`"), "{}", f[0]);
    }
    // A live frame's slot: from `info frame`, from the CFI.
    let t = crasher("live-slot-smash");
    for f in [
        findings(&[&t], "callee-saved-changed"),
        findings(&[exe, &dir.join("live-slot-smash"), &t], "callee-saved-changed"),
        findings(&[exe, &dir.join("live-slot-smash"), &dir.join("live-slot-smash.core")], "callee-saved-changed"),
    ] {
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].starts_with("scan_rows (frame #0) saved fold_table's r12 at 0x"), "{}", f[0]);
        assert!(f[0].contains("that saved copy now holds 0x0"), "{}", f[0]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// AArch64 (qemu-aarch64 + gdb-multiarch): the founding shape. The walk goes back from the
/// faulting store through x20 in frame #0, through the trampoline that does not set x20, to
/// the C caller's `mov x20, x1`; the reads of x20 between that write and the call (`mov x0,
/// x20`, `mov x1, x20`, the `stp x19, x20` save) are not writes.
#[test]
fn writer_named_from_gdb_aarch64_listings() {
    let f = findings(&[&crasher("a64-x20-stale")], "pinned-register");
    let l = line_with(&f, "x20 was last written").unwrap_or_else(|| panic!("{f:#?}"));
    assert_eq!(
        l,
        "x20 was last written at run_pass_manager+0x14: `mov\tx20, x1` (frame #2); not written since by \
         julia_module_callback_4212 (frame #0), jlcapi_module_callback_4213 (frame #1), which pass it on (from the \
         transcript's disassembly: julia_module_callback_4212 (frame #0): 6 instructions from its entry to the pc; \
         jlcapi_module_callback_4213 (frame #1): 3 instructions from its entry to the pc; run_pass_manager (frame #2): \
         12 instructions from its entry to the pc)"
    );
}

/// The same from lldb attached to qemu's gdbstub: lldb's AArch64 listings (`fp`/`lr` names,
/// `; symbol at file:line` comments, hex immediates) give the same writer.
#[test]
fn writer_named_from_lldb_aarch64_listings() {
    let t = common::samples_dir().join("crashers/a64-x20-stale.lldb.txt");
    let f = findings(&[&t], "pinned-register");
    let l = line_with(&f, "x20 was last written").unwrap_or_else(|| panic!("{f:#?}"));
    assert!(
        l.starts_with(
            "x20 was last written at run_pass_manager+0x14: `mov    x20, x1` (frame #2); not written since by \
             julia_module_callback_4212 (frame #0), jlcapi_module_callback_4213 (frame #1), which pass it on"
        ),
        "{l}"
    );
    assert!(l.ends_with("run_pass_manager (frame #2): 12 instructions from its entry to the pc)"), "{l}");
    // The register-set heading of a gdb-remote target (`general:`) is read, not listed as not
    // understood.
    let text = std::fs::read_to_string(&t).expect("transcript");
    let p = tracecheck::input::parse(&text);
    let odd: Vec<&str> = p.diagnostics.unrecognized.iter().map(|u| u.text.as_str()).collect();
    assert!(text.contains("\ngeneral:\n") && !odd.contains(&"general:"), "{odd:?}");
    assert!(findings(&[&common::samples_dir().join("crashers/a64-x20-ok.lldb.txt")], "pinned-register").is_empty());
}

/// The look-alike: the good trampoline writes x20 (pgcstack) just before its call; the rule
/// stays quiet and the text walk names that write, not a stale one.
#[test]
fn aarch64_register_written_just_before_the_call_is_not_stale() {
    assert!(findings(&[&crasher("a64-x20-ok")], "pinned-register").is_empty());
    let text = std::fs::read_to_string(crasher("a64-x20-ok")).expect("a64-x20-ok transcript");
    let parsed = tracecheck::input::parse(&text);
    let stop = parsed.trace.main_stop().expect("a stop");
    let th = stop.crashed_thread().expect("crashed thread");
    use tracecheck::provenance::Origin;
    use tracecheck::provenance_text::{ShownA64, code_before, register_origin};
    // Recorded with `disassemble /r`: gdb 13 prints each instruction's word, which is decoded
    // with yaxpeax-arm as the binary path does.
    let shown: Vec<ShownA64> = code_before::<ShownA64>(stop, 0x4008d8).expect("the trampoline's listing").insns;
    assert_eq!(shown.len(), 8);
    assert!(shown.iter().all(|d| d.machine.is_some() && d.a64.is_some()));
    assert_eq!((shown[5].address, shown[5].text), (0x4008cc, "mov\tx20, x0"));
    assert_eq!(shown[5].machine.as_ref().map(|m| m.text.as_str()), Some("mov x20, x0"));
    let (o, covers) = register_origin::<ShownA64>(stop, th, "x20", 32).expect("an origin");
    match o {
        Origin::Written { pos, label, text, through, .. } => {
            assert_eq!((pos, label.as_str(), text), (2, "jlcapi_module_callback_4213+0x14", "mov\tx20, x0".into()));
            let names: Vec<&str> = through.iter().map(|(_, n)| n.as_str()).collect();
            assert_eq!(names, ["jl_module_info_count", "julia_module_callback_4212"]);
        }
        _ => panic!("x20 is written in the trampoline"),
    }
    assert_eq!(covers.iter().map(|c| (c.count, c.from_entry)).collect::<Vec<_>>(), [(4, true), (8, true), (8, true)]);
    // x19 too (saved by the trampoline's stp, then `mov x19, x0`).
    let (o, _) = register_origin::<ShownA64>(stop, th, "x19", 32).expect("an origin");
    assert!(matches!(o, Origin::Written { pos: 2, ref label, .. } if label == "jlcapi_module_callback_4213+0xc"));
    // The frame #0 listing cut to what `x/6i $pc` shows (nothing before the pc): no claim.
    let only_x = &text[..text.find("(gdb) disassemble").expect("disassemble")];
    let parsed = tracecheck::input::parse(only_x);
    let stop = parsed.trace.main_stop().expect("a stop");
    assert!(register_origin::<ShownA64>(stop, stop.crashed_thread().unwrap(), "x20", 32).is_none());
}

/// The AArch64 text decoder agrees with yaxpeax-arm (the binary path's decoder) on which
/// general registers each instruction writes, over real machine code: a static AArch64 C
/// program (its libc included) as objdump prints it (the libopcodes syntax gdb prints).
#[test]
fn aarch64_text_writes_agree_with_yaxpeax_on_real_code() {
    if !common::require_tools(&["aarch64-linux-gnu-gcc", "aarch64-linux-gnu-objdump"]) {
        return;
    }
    let dir = common::scratch_root().join(format!("tracecheck-a64-text-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let exe = dir.join("a64-null-o2");
    let src = common::samples_dir().join("crashers/src/a64-null-o2.c");
    let out = Command::new("aarch64-linux-gnu-gcc")
        .args(["-O2", "-static", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("aarch64-linux-gnu-gcc");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = Command::new("aarch64-linux-gnu-objdump").arg("-d").arg(&exe).output().expect("objdump");
    assert!(out.status.success());
    let listing = String::from_utf8_lossy(&out.stdout);
    let (mut checked, mut unknown, mut bad) = (0usize, 0usize, Vec::<String>::new());
    let mut seen = std::collections::BTreeSet::new();
    for line in listing.lines() {
        // `  400580:\td280001d \tmov\tx29, #0x0                   \t// #0`
        let mut parts = line.splitn(3, '\t');
        let (Some(addr), Some(word), Some(text)) = (parts.next(), parts.next(), parts.next()) else { continue };
        let Some(addr) = addr.trim().strip_suffix(':').and_then(|a| u64::from_str_radix(a, 16).ok()) else { continue };
        let Ok(word) = u32::from_str_radix(word.trim(), 16) else { continue };
        let Some(d) = tracecheck::provenance_a64::decode_word(word.to_le_bytes(), addr) else { continue };
        let want = tracecheck::provenance_a64::written(&d.insn);
        checked += 1;
        match tracecheck::insn::A64Text::parse(text).and_then(|t| t.written()) {
            None => unknown += 1,
            Some(got) if got != want => {
                let m = text.split_whitespace().next().unwrap_or("").to_string();
                if seen.insert(m) {
                    bad.push(format!("{text}: text {got:?}, yaxpeax {want:?} ({})", d.text));
                }
            }
            Some(_) => {}
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked > 50_000, "only {checked} instructions");
    assert!(bad.is_empty(), "{} disagreements:\n{}", bad.len(), bad.join("\n"));
    assert!(unknown * 500 < checked, "{unknown} of {checked} instruction texts not understood");
}

/// Honesty on AArch64: the same real transcript with frame #2's listing cut to the six
/// instructions after `mov x20, x1` (as a `x/7i $pc-24` would show them) says only that x20
/// is not written in the instructions shown; without frame #2's listing at all, that it is
/// inherited from frame #2.
#[test]
fn aarch64_listing_cut_short_says_only_what_it_shows() {
    use tracecheck::provenance::Origin;
    use tracecheck::provenance_text::{ShownA64, register_origin};
    let text = std::fs::read_to_string(crasher("a64-x20-stale")).expect("a64-x20-stale transcript");
    let head = "Dump of assembler code for function run_pass_manager:\n";
    let at = text.find(head).expect("frame #2's listing") + head.len();
    let writer = text[at..].find("mov\tx20, x1\n").expect("the writer") + at;
    let cut_at = writer + text[writer..].find('\n').unwrap() + 1;
    let cut = format!("{}{}", &text[..at], &text[cut_at..]);
    let parsed = tracecheck::input::parse(&cut);
    let stop = parsed.trace.main_stop().expect("a stop");
    let th = stop.crashed_thread().expect("crashed thread");
    let (o, covers) = register_origin::<ShownA64>(stop, th, "x20", 32).expect("an origin");
    assert!(matches!(o, Origin::NotInShown { pos: 2, shown: 6, ref through } if through.len() == 2));
    assert_eq!(covers.iter().map(|c| (c.count, c.from_entry)).collect::<Vec<_>>(), [(6, true), (3, true), (6, false)]);
    // Without frame #2's listing: inherited from frame #2.
    let none = &text[..text.find("(gdb) frame 2\n").expect("frame 2")];
    let parsed = tracecheck::input::parse(none);
    let stop = parsed.trace.main_stop().expect("a stop");
    let (o, _) = register_origin::<ShownA64>(stop, stop.crashed_thread().unwrap(), "x20", 32).expect("an origin");
    assert!(matches!(o, Origin::NotFound { pos: 2, ref through } if through.len() == 2));
}
