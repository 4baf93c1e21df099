//! A frame pointer changed under its function (`callee-saved-changed`, issue #11): a callee
//! overran a buffer onto its saved rbp (not its return address), returned normally, and the
//! caller then accessed a local through the bad rbp (`saved-rbp-overwrite`) or ran `leave`
//! with it (`leave-wild-rsp`). Read from the real lldb 14 recordings of
//! `sample-traces/crashers` (lldb's `disassemble --frame` shows the caller from its entry; the
//! gdb transcripts, the `--exe` path and the cores are checked by `tests/crash_corpus.rs`),
//! with look-alikes: the same text edited where a comment says so. The gdb transcripts of the
//! same cases show frame #0 from its entry too (`disassemble`), with the returned callee's code
//! (`disassemble parse_header`) and its dead frame (`x/8gx $sp-64`): read the same way.

mod common;

#[path = "common/crash_read.rs"]
mod crash_read;
use crash_read::{Read, read_text, text};

fn message<'r>(r: &'r Read, rule: &str) -> Option<&'r str> {
    r.rules.iter().position(|&x| x == rule).map(|i| r.messages[i].as_str())
}

#[test]
fn a_frame_pointer_below_sp_after_a_call_is_the_callee_s_doing() {
    for name in ["saved-rbp-overwrite.lldb.txt", "leave-wild-rsp.lldb.txt"] {
        let r = read_text(&text(name));
        let m = message(&r, "callee-saved-changed").unwrap_or_else(|| panic!("{name}: {:?}", r.messages));
        assert!(m.contains("rbp = 0x3fff12345000 is not handle's frame pointer"), "{name}: {m}");
        assert!(m.contains("handle+0x1: `movq   %rsp, %rbp`"), "{name}: {m}");
        assert!(m.contains("`call parse_header` at handle+0x13"), "{name}: {m}");
        // The callee's code is not in the transcript: nothing is claimed about its save.
        assert!(m.contains("parse_header's code is not shown"), "{name}: {m}");
        assert_eq!(r.culprit.as_deref(), Some("handle"), "{name}");
    }
}

#[test]
fn look_alikes_stay_quiet() {
    let t = text("saved-rbp-overwrite.lldb.txt");
    let quiet = |edited: &str, why: &str| {
        assert_ne!(edited, t, "{why}: the edit did not apply");
        let r = read_text(edited);
        assert!(message(&r, "callee-saved-changed").is_none(), "{why}: {:?}", r.messages);
    };
    // rbp a valid frame pointer (above sp, in the stack): the frame is sound.
    quiet(&t.replace("rbp = 0x00003fff12345000", "rbp = 0x00007fffffffec10"), "rbp above sp");
    // The function writes rbp after its prologue (rbp used as a general register).
    quiet(&t.replace("movq   %rax, %rdi\n", "movq   %rax, %rbp\n"), "rbp written after the prologue");
    // No frame-pointer prologue: rbp is an ordinary callee-saved register there.
    quiet(&t.replace("movq   %rsp, %rbp", "movq   %rdi, %rbx"), "no frame pointer set up");
    // The listing starts after the function's entry: whether rbp was written before is unknown.
    let cut: String =
        t.lines().filter(|l| !l.contains("<+0>:") && !l.contains("<+1>:")).map(|l| format!("{l}\n")).collect();
    quiet(&cut, "listing not from the entry");
}

#[test]
fn gdb_disassemble_from_the_entry_shows_it_too() {
    for (name, slot) in
        [("saved-rbp-overwrite.gdb.txt", "0x7fffffffebe0"), ("leave-wild-rsp.gdb.txt", "0x7fffffffec00")]
    {
        let r = read_text(&text(name));
        let m = message(&r, "callee-saved-changed").unwrap_or_else(|| panic!("{name}: {:?}", r.messages));
        assert!(m.contains("rbp = 0x3fff12345000 is not handle's frame pointer"), "{name}: {m}");
        assert!(m.contains("handle+0x1: `mov    %rsp,%rbp`"), "{name}: {m}");
        assert!(m.contains("`call parse_header` at handle+0x13"), "{name}: {m}");
        // `disassemble parse_header` shows its `push %rbp`, and `x/8gx $sp-64` its dead frame.
        assert!(m.contains("parse_header saves rbp at its entry"), "{name}: {m}");
        let r2 = tracecheck::analyze::analyze("t", tracecheck::input::parse(&text(name)), &Default::default());
        let f = r2.findings.iter().find(|f| f.rule == "callee-saved-changed").expect("finding");
        let slot_text = format!("parse_header's saved rbp slot at {slot} holds 0x3fff12345000");
        assert!(f.evidence.iter().any(|e| e.text == slot_text), "{name}: {:?}", f.evidence);
        assert_eq!(r.culprit.as_deref(), Some("handle"), "{name}");
    }
}

#[test]
fn gdb_look_alikes_stay_quiet() {
    let t = text("saved-rbp-overwrite.gdb.txt");
    let quiet = |edited: &str, why: &str| {
        assert_ne!(edited, t, "{why}: the edit did not apply");
        let r = read_text(edited);
        assert!(message(&r, "callee-saved-changed").is_none(), "{why}: {:?}", r.messages);
    };
    // rbp a valid frame pointer (above sp, in the stack): the frame is sound.
    quiet(
        &t.replace(
            "rbp            0x3fff12345000      0x3fff12345000",
            "rbp            0x7fffffffec10      0x7fffffffec10",
        ),
        "rbp above sp",
    );
    // The function writes rbp after its prologue (rbp used as a general register).
    quiet(&t.replace("<+16>:\tmov    %rax,%rdi", "<+16>:\tmov    %rax,%rbp"), "rbp written after the prologue");
    // No frame-pointer prologue: rbp is an ordinary callee-saved register there.
    quiet(&t.replacen("<+1>:\tmov    %rsp,%rbp", "<+1>:\tmov    %rdi,%rbx", 1), "no frame pointer set up");
    // The listing starts after the function's entry: whether rbp was written before is unknown.
    let cut: String =
        t.lines().filter(|l| !l.contains("<+0>:") && !l.contains("<+1>:")).map(|l| format!("{l}\n")).collect();
    quiet(&cut, "listing not from the entry");
}

/// The same listing as gdb's `x/11i $pc-24` prints it (`0x555555555184 <handle+0>:` rows,
/// rewritten from the real `disassemble` block of `saved-rbp-overwrite.gdb.txt`): from the
/// entry it shows the prologue as well; from `$pc-23` (no `<handle+0>` row) it does not.
#[test]
fn gdb_x_i_from_the_entry_shows_it_and_from_after_it_does_not() {
    let t = text("saved-rbp-overwrite.gdb.txt");
    let a = t.find("(gdb) disassemble\n").expect("disassemble");
    let b = t.find("(gdb) disassemble parse_header").expect("disassemble parse_header");
    let rows: Vec<String> = t[a..b]
        .lines()
        .filter(|l| l.contains(" <+"))
        .map(|l| {
            let (mark, rest) = l.split_at(3);
            let (addr, insn) = rest.split_once(' ').expect("address");
            let addr = format!("0x{}", addr.trim_start_matches("0x").trim_start_matches('0'));
            format!("{mark}{addr} {}", insn.replace("<+", "<handle+"))
        })
        .collect();
    assert_eq!(rows.len(), 11, "{rows:?}");
    let with = |cmd: &str, rows: &[String]| format!("{}(gdb) {cmd}\n{}\n{}", &t[..a], rows.join("\n"), &t[b..]);
    let r = read_text(&with("x/11i $pc-24", &rows));
    let m = message(&r, "callee-saved-changed").unwrap_or_else(|| panic!("{:?}", r.messages));
    assert!(m.contains("handle+0x1: `mov    %rsp,%rbp`"), "{m}");
    let r = read_text(&with("x/10i $pc-23", &rows[1..]));
    assert!(message(&r, "callee-saved-changed").is_none(), "{:?}", r.messages);
}
