//! Faults the sixth round of new crash shapes found (`sample-traces/crashers`, issue #11), each
//! read from its real recording (gdb 13 and lldb 14), with look-alike negative controls: the
//! same text edited where a comment says so, or another real recording that resembles it.

mod common;

#[path = "common/crash_read.rs"]
mod crash_read;
use crash_read::{Read, read_text};

fn read(name: &str) -> Read {
    let (text, _) = common::parse_sample(&format!("crashers/{name}"));
    read_text(&text)
}

/// x86-64's alignment check (EFLAGS.AC) raises SIGBUS with si_code BUS_ADRALN and si_addr 0
/// whatever the address: the 0 is no fault address, and `mov (%rdi),%eax` with rdi =
/// 0x55555555804d read a valid (misaligned) address. gdb 13 prints the siginfo; lldb 14 says
/// `illegal alignment`.
#[test]
fn an_alignment_check_sigbus_is_no_null_dereference() {
    for name in ["ac-flag-misaligned.gdb.txt", "ac-flag-misaligned.lldb.txt"] {
        let r = read(name);
        assert!(!r.rules.contains(&"null-dereference"), "{name}: {:?}", r.messages);
        assert!(!r.rules.contains(&"wild-pointer"), "{name}: {:?}", r.messages);
        assert_eq!(r.culprit.as_deref(), Some("field_at"), "{name}");
    }
    // Look-alike: the same stop as a page fault at 0 (SIGSEGV, SEGV_MAPERR, si_addr 0), where
    // the kernel's address is the fault address: a NULL dereference.
    let (text, _) = common::parse_sample("crashers/ac-flag-misaligned.gdb.txt");
    let segv = text
        .replace("received signal SIGBUS, Bus error.", "received signal SIGSEGV, Segmentation fault.")
        .replace("si_signo = 7, si_errno = 0, si_code = 1,", "si_signo = 11, si_errno = 0, si_code = 1,");
    assert_ne!(segv, text);
    let r = read_text(&segv);
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
}

/// A fault inside glibc's `free` in a static helper gdb and lldb print as frames of their own
/// (`arena_for_chunk` inlined into `__GI___libc_free`): a crash inside the allocator, caused by
/// the caller's mismatched `delete` of a `new[]` block.
#[test]
fn a_fault_in_a_helper_inlined_into_free_is_a_crash_inside_the_allocator() {
    for name in ["cpp-delete-mismatch.gdb.txt", "cpp-delete-mismatch.lldb.txt"] {
        let r = read(name);
        let i = r.rules.iter().position(|&x| x == "heap-corruption").unwrap_or_else(|| panic!("{name}: {:?}", r.rules));
        assert!(r.messages[i].contains("__GI___libc_free, in arena_for_chunk inlined into it"), "{}", r.messages[i]);
        assert!(r.messages[i].contains("drop_row"), "{}", r.messages[i]);
        assert_eq!(r.culprit.as_deref(), Some("drop_row"));
    }
    // Look-alikes: a NULL source inside libc's memcpy and a NULL string inside strcmp under
    // qsort are faults in libc, not in the allocator.
    for name in ["memcpy-null-src.gdb.txt", "memcpy-null-src.lldb.txt", "qsort-strcmp-null.gdb.txt"] {
        let r = read(name);
        assert!(!r.rules.contains(&"heap-corruption"), "{name}: {:?}", r.messages);
        assert!(r.rules.contains(&"null-dereference"), "{name}: {:?}", r.rules);
    }
    // The same free() frames, but frame #0 not inlined into it: gdb prints an outer frame with
    // its own address (`#1 0x… in arena_for_chunk`), i.e. a function of its own that free did
    // not contain. Nothing says the fault is inside the allocator then.
    let (text, _) = common::parse_sample("crashers/cpp-delete-mismatch.gdb.txt");
    let split = text.replace("#2  __GI___libc_free (mem=", "#2  0x00007ffff7ab6f27 in __GI___libc_free (mem=").replace(
        "#1  arena_for_chunk (ptr=0x55555556aea8)",
        "#1  0x00007ffff7ab6f32 in arena_for_chunk (ptr=0x55555556aea8)",
    );
    assert_ne!(split, text);
    let r = read_text(&split);
    assert!(!r.rules.contains(&"heap-corruption"), "{:?}", r.messages);
}

/// glibc's `FATAL: exception not rethrown`: pthread_cancel unwinds a thread with a forced-unwind
/// exception and a `catch (...)` swallowed it.
#[test]
fn a_swallowed_forced_unwind_names_the_catch_all() {
    for name in ["pthread-cancel-catchall.gdb.txt", "pthread-cancel-catchall.lldb.txt"] {
        let r = read(name);
        let i = r.rules.iter().position(|&x| x == "uncaught-exception").unwrap_or_else(|| panic!("{name}"));
        assert!(r.messages[i].contains("catch (...) that did not rethrow in read_command"), "{}", r.messages[i]);
        assert!(r.messages[i].contains("FATAL: exception not rethrown"), "{}", r.messages[i]);
        assert_eq!(r.culprit.as_deref(), Some("read_command"));
    }
    // Look-alikes: a handler that ends its thread with pthread_exit (a forced unwind that nothing
    // catches, then the main thread's own abort), and the program's own fatal() + abort().
    for name in ["handler-pthread-exit.gdb.txt", "abort-custom.gdb.txt", "bare-abort.gdb.txt"] {
        let r = read(name);
        assert!(!r.rules.contains(&"uncaught-exception"), "{name}: {:?}", r.messages);
    }
    // A `terminate called without an active exception` keeps its own explanation.
    let r = read("cpp-terminate-noactive.gdb.txt");
    let i = r.rules.iter().position(|&x| x == "uncaught-exception").expect("fires");
    assert!(!r.messages[i].contains("forced-unwind"), "{}", r.messages[i]);
}

/// Go's runtime raises SIGABRT on itself after `fatal error: concurrent map writes`
/// (GOTRACEBACK=crash): the debugger's stop is in runtime frames on the system stack, and the
/// goroutine that failed is in the report before it. Its culprit is the abort's, and the map
/// race is a data race.
#[test]
fn a_go_runtime_abort_takes_its_reports_culprit() {
    for name in ["go-concurrent-map.gdb.txt", "go-concurrent-map.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.culprit.as_deref(), Some("main.count"), "{name}");
        let i = r.rules.iter().position(|&x| x == "data-race").unwrap_or_else(|| panic!("{name}: {:?}", r.rules));
        assert!(r.messages[i].contains("concurrent map writes\") in main.count"), "{}", r.messages[i]);
        assert_eq!(r.rules.iter().filter(|&&x| x == "data-race").count(), 1, "one finding per input");
    }
    // Look-alikes: the Go nil dereference the debugger stops at (no abort, no map) keeps its
    // frame culprit and no race; an abort in runtime frames with no Go report before it keeps
    // the frame culprit (nothing to borrow).
    let r = read("go-nil.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("main.secondVal"));
    assert!(!r.rules.contains(&"data-race"));
    let (text, _) = common::parse_sample("crashers/go-concurrent-map.gdb.txt");
    let start = text.find("fatal error: concurrent map writes").expect("report");
    let end = text.find("\nThread 4 \"go-concurrent-m\" received signal SIGABRT").expect("stop");
    let no_report = format!("{}{}", &text[..start], &text[end..]);
    let r = read_text(&no_report);
    assert_ne!(r.culprit.as_deref(), Some("main.count"));
    assert!(!r.rules.contains(&"data-race"), "{:?}", r.messages);
    // Another fatal error of the runtime (a deadlock) before the same abort: the culprit is
    // still the report's, but no race.
    let deadlock =
        text.replace("fatal error: concurrent map writes", "fatal error: all goroutines are asleep - deadlock!");
    let r = read_text(&deadlock);
    assert_eq!(r.culprit.as_deref(), Some("main.count"));
    assert!(!r.rules.contains(&"data-race"), "{:?}", r.messages);
}

/// Process memory holding a few bytes of code, with the function extents a module's CFI
/// would give (or none).
struct Code {
    base: u64,
    bytes: Vec<u8>,
    ranges: Vec<(u64, u64)>,
}

impl tracecheck::model::MemorySource for Code {
    fn read(&self, addr: u64, buf: &mut [u8]) -> usize {
        let Some(off) = addr.checked_sub(self.base).map(|o| o as usize).filter(|&o| o < self.bytes.len()) else {
            return 0;
        };
        let n = buf.len().min(self.bytes.len() - off);
        buf[..n].copy_from_slice(&self.bytes[off..off + n]);
        n
    }
    fn describe(&self) -> String {
        "test code".into()
    }
    fn function_range(&self, pc: u64) -> Option<(u64, u64)> {
        self.ranges.iter().copied().find(|&(s, e)| pc >= s && pc < e)
    }
}

/// glibc's `_longjmp_unwind` is `mov %rsp,%rsi; jmp __pthread_cleanup_upto` (a tail call),
/// and `__longjmp_cancel`, right after it, ends with `mov %r9,%rbp; jmp *%rdx`. The walk of
/// the callee that noreturn-longjmp-null's core showed ran on past the tail call into the next
/// function and blamed it for writing rbp ("writes rbp without saving it"), a false
/// callee-saved-changed. A function's code ends at its FDE's end, or at a jump out of it.
#[test]
fn a_callee_walk_stops_at_the_end_of_the_function() {
    use tracecheck::provenance::{CalleeEffect, callee_effect, decode_function, gpr};
    let base = 0x1000u64;
    // 0x1000 mov %rsp,%rsi; 0x1003 jmp 0x2000 (rel32 = 0xff8);
    // 0x1008 (next function) mov %r9,%rbp; ret
    let bytes = vec![0x48, 0x89, 0xe6, 0xe9, 0xf8, 0x0f, 0x00, 0x00, 0x4c, 0x89, 0xcd, 0xc3];
    let trace_with = |ranges: Vec<(u64, u64)>| tracecheck::model::Trace {
        memory: Some(tracecheck::model::TraceMemory::new(Code { base, bytes: bytes.clone(), ranges })),
        ..Default::default()
    };
    let rbp = gpr("rbp").unwrap();
    // With the FDE's extent [0x1000, 0x1008): two instructions, rbp untouched.
    let t = trace_with(vec![(0x1000, 0x1008), (0x1008, 0x100c)]);
    let code = decode_function(&t, base, 50).expect("decodes");
    assert_eq!(code.iter().map(|d| d.address).collect::<Vec<_>>(), [0x1000, 0x1003]);
    assert!(callee_effect(&code, rbp).is_none());
    // Without CFI, the jump's target past the code decoded does not prove a tail call; a
    // backward jump before the function's start does.
    let back = {
        let mut b = bytes.clone();
        b[4..8].copy_from_slice(&(-0x108i32).to_le_bytes()); // jmp 0x0f00
        b
    };
    let t = tracecheck::model::Trace {
        memory: Some(tracecheck::model::TraceMemory::new(Code { base, bytes: back, ranges: vec![] })),
        ..Default::default()
    };
    let code = decode_function(&t, base, 50).expect("decodes");
    assert_eq!(code.len(), 2, "stops at the jump out");
    // Look-alike: a function that really writes rbp without saving it, inside its own extent,
    // is still found.
    let t = trace_with(vec![(0x1008, 0x100c)]);
    let code = decode_function(&t, 0x1008, 50).expect("decodes");
    assert!(matches!(callee_effect(&code, rbp), Some(CalleeEffect::Clobbers(0x1008, _))));
}

/// Legal constants that look like fills, live in registers at an unrelated NULL read:
/// bit-reversal masks (0xcccc… in rdi, which reads as MSVC's /RTC fill), a scrambling key
/// 0xa5a5… (glibc's MALLOC_PERTURB_ fill byte) and a word of 'A' padding in the scratch r11
/// (ARM's frame pointer, x86-64's scratch). None of them faulted.
#[test]
fn fill_like_constants_in_registers_the_fault_did_not_use_are_no_finding() {
    for name in ["fill-patterns-legal.gdb.txt", "fill-patterns-legal.lldb.txt"] {
        let r = read(name);
        assert_eq!(r.rules, ["null-dereference"], "{name}: {:?}", r.messages);
        assert_eq!(r.culprit.as_deref(), Some("score"));
    }
    // Look-alike: the same stop where the NULL base register holds the 0xa5 fill instead (a
    // pointer read from freed memory under MALLOC_PERTURB_): the fill faulted, a finding.
    let (text, _) = common::parse_sample("crashers/fill-patterns-legal.gdb.txt");
    let faulted = text.replacen(
        "r10            0x0                 0",
        "r10            0xa5a5a5a5a5a5a5a5  -6510615555426900571",
        1,
    );
    assert_ne!(faulted, text);
    let r = read_text(&faulted);
    let i = r.rules.iter().position(|&x| x == "poison-value").unwrap_or_else(|| panic!("{:?}", r.rules));
    assert!(r.messages[i].contains("read through r10 = 0xa5a5a5a5a5a5a5a5"), "{}", r.messages[i]);
    // Look-alike: 'A' padding in rbp, the frame pointer a smashed frame restores, with the
    // caller's return address 0x4141… (tests/wild/gdb/repeat.txt, a real overflow).
    let (text, _) = common::parse_sample("../tests/wild/gdb/repeat.txt");
    let r = read_text(&text);
    assert!(r.rules.contains(&"stack-buffer-overflow"), "{:?}", r.rules);
    let i = r.rules.iter().position(|&x| x == "poison-value").expect("fires");
    assert!(r.messages[i].contains("return address of frame #1"), "{}", r.messages[i]);
    // The same 'A' word in x86-64's r11 alone: no overflow.
    let r11_only = text.replace(
        "rbp            0x4141414141414141  0x4141414141414141",
        "rbp            0x7fffffffebb0      0x7fffffffebb0\nr11            0x4141414141414141  4702111234474983745",
    );
    let r11_only = r11_only.replace("0x4141414141414141 in ?? ()", "0x0000555555555301 in main ()");
    let r = read_text(&r11_only);
    assert!(!r.rules.contains(&"stack-buffer-overflow"), "{:?}", r.messages);
}

/// The text reader of x86-64 instructions took every mnemonic starting with `movs` for the
/// string move `movs`, which writes only rsi/rdi (and rcx with `rep`): `movslq %eax,%rdx`
/// (AT&T) and `movsxd rdx,eax` (Intel), sign-extending moves, were read as not writing rdx,
/// so register provenance from a transcript's disassembly could skip the real writer.
#[test]
fn sign_extending_moves_write_their_destination_and_string_moves_do_not() {
    use tracecheck::insn::X86Text;
    let w = |t: &str, r: &str| X86Text::parse(t).and_then(|x| x.writes(r));
    assert_eq!(w("movslq %eax,%rdx", "rdx"), Some(true));
    assert_eq!(w("movsxd rdx,eax", "rdx"), Some(true));
    assert_eq!(w("movsbl (%rsi),%eax", "rax"), Some(true));
    assert_eq!(w("movsbl (%rsi),%eax", "rsi"), Some(false));
    // Look-alikes: the string moves themselves.
    assert_eq!(w("movsb %ds:(%rsi),%es:(%rdi)", "rdx"), Some(false));
    assert_eq!(w("movsb %ds:(%rsi),%es:(%rdi)", "rdi"), Some(true));
    assert_eq!(w("rep movsq %ds:(%rsi),%es:(%rdi)", "rcx"), Some(true));
    assert_eq!(w("movsl %ds:(%rsi),%es:(%rdi)", "rsi"), Some(true));
}

/// glibc's own assertion in `pthread_mutex_lock` (a mutex restored from a snapshot taken while
/// it was locked) is glibc checking what the program passed it, not the program's assert: the
/// finding says so and names the caller.
#[test]
fn a_glibc_internal_assertion_names_the_broken_object_and_the_caller() {
    for name in ["mutex-owner-assert.gdb.txt", "mutex-owner-assert.lldb.txt"] {
        let r = read(name);
        let i = r.rules.iter().position(|&x| x == "assertion-failure").unwrap_or_else(|| panic!("{name}"));
        assert!(
            r.messages[i].starts_with("glibc's internal assertion `mutex->__data.__owner == 0` failed"),
            "{}",
            r.messages[i]
        );
        assert!(r.messages[i].contains("a pthread object"), "{}", r.messages[i]);
        assert!(r.messages[i].contains("the call came from bump"), "{}", r.messages[i]);
        assert_eq!(r.culprit.as_deref(), Some("bump"));
    }
    // Look-alikes: the program's own assert (clang-thread-assert, musl's format in
    // musl-assert) stays the program's.
    for name in ["clang-thread-assert.gdb.txt", "musl-assert.gdb.txt"] {
        let r = read(name);
        let i = r.rules.iter().position(|&x| x == "assertion-failure").unwrap_or_else(|| panic!("{name}"));
        assert!(!r.messages[i].contains("glibc's internal"), "{name}: {}", r.messages[i]);
    }
}
