//! The culprit must not depend on the path that read the crash (issue #11): what an lldb
//! transcript shows when lldb's unwinder falls short of gdb's, read to gdb's culprit. Each input
//! is a recording in `sample-traces/crashers` (lldb 14, `regenerate.sh --lldb`); the look-alike
//! negative controls are the same text edited where a comment says so.

mod common;
use tracecheck::analyze::analyze;

fn transcript(name: &str) -> String {
    std::fs::read_to_string(common::samples_dir().join("crashers").join(name)).unwrap()
}

/// The rules that fired and the culprit's function (a frame's, or the function a culprit
/// names without a frame).
fn read(text: &str) -> (Vec<&'static str>, Option<String>, Option<&'static str>) {
    let parsed = tracecheck::input::parse(text);
    let r = analyze("t", parsed, &Default::default());
    let rules = r.findings.iter().map(|f| f.rule).collect();
    let c = r.culprits.last().cloned().flatten();
    let named_by = c.as_ref().and_then(|c| c.named_by_message.as_ref().map(|m| m.source));
    let culprit = c.and_then(|c| {
        if let Some(m) = &c.named_by_message {
            return Some(m.function.clone());
        }
        let st = r.parsed.trace.stops.last()?;
        let th = st.threads.iter().find(|t| *t.id == *c.thread)?;
        Some(th.frames.get(c.frame_position()?)?.function_name().to_string())
    });
    (rules, culprit, named_by)
}

/// printf-bad-string: `report_user` ends in `jmp printf`, so lldb shows main under printf; the
/// listing of main (frame #3) shows its direct call to report_user before the return address.
#[test]
fn a_tail_call_is_read_from_the_callers_listing() {
    let t = transcript("printf-bad-string.lldb.txt");
    let (rules, culprit, by) = read(&t);
    assert_eq!(culprit.as_deref(), Some("report_user"));
    assert!(by.is_some_and(|b| b.contains("tail call")), "{by:?}");
    assert!(rules.contains(&"null-dereference"), "{rules:?}");
    // Look-alike: without main's listing nothing shows the call: main.
    let cut = &t[..t.find("(lldb) frame select 3").unwrap()];
    assert_eq!(read(cut).1.as_deref(), Some("main"));
    // Look-alike (edited): a call through a PLT stub whose frame inside has another name (an
    // IFUNC's implementation) is no tail call.
    let stub = t.replace("; report_user at printf-bad-string.c:11:5", "; symbol stub for: printf");
    assert_ne!(stub, t);
    assert_eq!(read(&stub).1.as_deref(), Some("main"));
    // Look-alike (edited): the call names the function of the frame inside (an ordinary call).
    let plain = t.replace("; report_user at printf-bad-string.c:11:5", "; __printf at printf.c:28");
    assert_eq!(read(&plain).1.as_deref(), Some("main"));
}

/// musl-stack-smash: lldb's backtrace ends at static musl's `__stack_chk_fail`, stopped at
/// its first instruction (`hlt`); `memory read -fA $sp` names the return address at [sp].
#[test]
fn a_return_address_at_sp_is_frame_one_at_a_functions_entry() {
    let t = transcript("musl-stack-smash.lldb.txt");
    let (rules, culprit, _) = read(&t);
    assert_eq!(culprit.as_deref(), Some("copy_tag"));
    assert!(rules.contains(&"heap-corruption"), "{rules:?}");
    // Look-alike (edited): frame #0 past its first instruction may have pushed anything: the
    // word at [sp] is not known to be a return address.
    let inside = t.replace("->  0x401560 <+0>: hlt", "->  0x401560 <+4>: hlt");
    assert_ne!(inside, t);
    assert_eq!(read(&inside).1, None);
    // Without the annotated read (`-fA`), the word is a bare number: no frame.
    let bare = &t[..t.find("(lldb) memory read -s8 -fA").unwrap()];
    assert_eq!(read(bare).1, None);
}
