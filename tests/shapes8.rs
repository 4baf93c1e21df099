//! Faults the eighth round of new crash shapes found (`sample-traces/crashers`, issue #11):
//! i386 aborts, libstdc++'s and glibc's own checks, Go panics and system-stack aborts, lldb's
//! JIT and huge-frame stops. Each is read from its real recording (gdb 13, lldb 14), with
//! look-alike negative controls: the same text edited where a comment says so, or another real
//! recording that resembles it.

mod common;

#[path = "common/crash_read.rs"]
mod crash_read;
use crash_read::{message, read, read_text, text};

/// lldb unwinds JIT code without CFI by its frame pointer, which is main's: main is skipped
/// and frame #1 is libc's start routine. Its `main=(prog\`main at …)` argument names the
/// function the nameless frame returns into.
#[test]
fn the_start_routines_main_argument_names_the_skipped_main() {
    for name in ["jit-null.lldb.txt", "jit-garbage.lldb.txt"] {
        assert_eq!(read(name).culprit.as_deref(), Some("main"), "{name}");
    }
    // gdb unwinds through main: the culprit is its frame, as before.
    assert_eq!(read("jit-null.gdb.txt").culprit.as_deref(), Some("main"));
    // Look-alike: the nameless frame's caller is a function of the program's (not the start
    // routine, which calls nothing but main): nothing is named for it.
    let t = text("jit-null.lldb.txt").replace("libc.so.6`__libc_start_call_main(", "libc.so.6`run_callbacks(");
    assert_ne!(t, text("jit-null.lldb.txt"));
    assert_ne!(read_text(&t).culprit.as_deref(), Some("main"));
}

/// Without mappings (lldb), a fault next to sp in a frame whose frame pointer is 64 MiB above
/// sp: that one frame took the stack (a huge alloca), and the finding says which.
#[test]
fn one_huge_frame_without_mappings() {
    let r = read("huge-alloca.lldb.txt");
    let m = message(&r, "stack-overflow");
    assert!(m.contains("rbp = 0x7fffffffec50 is 0x4000030 bytes above it: render allocated a frame"), "{m}");
    // Look-alike: the same stop with rbp a few words above sp (an ordinary frame): the stack
    // still ran out next to sp, but no frame is blamed for its size.
    let t = text("huge-alloca.lldb.txt").replace("rbp = 0x00007fffffffec50", "rbp = 0x00007ffffbffec60");
    assert_ne!(t, text("huge-alloca.lldb.txt"));
    let r = read_text(&t);
    assert!(!message(&r, "stack-overflow").contains("allocated a frame"));
}

/// i386: every abort goes through the vDSO's `__kernel_vsyscall` (frame #0), and glibc's
/// `__assert_fail_base.cold` is an outlined part of the assert machinery: neither is the
/// culprit.
#[test]
fn i386_abort_machinery_is_not_the_culprit() {
    let r = read("i386-stack-smash.gdb.txt");
    assert_eq!(r.culprit.as_deref(), Some("greet"));
    assert!(message(&r, "heap-corruption").contains("stack smashing detected on return from greet"));
    assert_eq!(read("i386-assert.gdb.txt").culprit.as_deref(), Some("ring_used"));
    assert_eq!(read("i386-assert.lldb.txt").culprit.as_deref(), Some("ring_used"));
    // Look-alike: a program function's own `.cold` part is the program's.
    let t = text("i386-assert.gdb.txt").replace(" in ring_used (", " in ring_used.cold (");
    assert_ne!(t, text("i386-assert.gdb.txt"));
    assert_eq!(read_text(&t).culprit.as_deref(), Some("ring_used.cold"));
}

/// libstdc++'s own precondition checks (`_GLIBCXX_ASSERTIONS`) quote the condition with `'`,
/// not glibc's `` ` ``: `Assertion '__n < this->size()' failed.`
#[test]
fn libstdcxx_assertions_are_assertions() {
    for name in ["cpp-glibcxx-assert.gdb.txt", "cpp-glibcxx-assert.lldb.txt"] {
        let r = read(name);
        assert!(message(&r, "assertion-failure").contains("assertion `__n < this->size()` failed"), "{name}");
        assert_eq!(r.culprit.as_deref(), Some("last_score"), "{name}");
    }
    // Look-alike: the same line not ending in `failed.` is no assertion message; the
    // `std::__glibcxx_assert_fail` frame alone still says a library check failed.
    let t = text("cpp-glibcxx-assert.gdb.txt").replace("Assertion '__n < this->size()' failed.", "Assertion '__n' ok.");
    assert_ne!(t, text("cpp-glibcxx-assert.gdb.txt"));
    let r = read_text(&t);
    let m = message(&r, "assertion-failure");
    assert!(m.starts_with("libstdc++'s precondition check (_GLIBCXX_ASSERTIONS) failed in last_score"), "{m}");
    // And a program without the library's check frame or message stays quiet.
    assert!(!read("cpp-string-null.gdb.txt").rules.contains(&"assertion-failure"));
}

/// glibc's fortified printf refuses a `%n` in a writable format string
/// (`*** %n in writable segment detected ***`): a format-string bug, said so.
#[test]
fn fortify_percent_n_is_a_format_string_bug() {
    let r = read("fortify-percent-n.gdb.txt");
    let m = message(&r, "heap-corruption");
    assert!(m.starts_with("format string with %n in writable memory in a printf call from report"), "{m}");
    // Look-alike: fortify's buffer overflow keeps its own diagnosis.
    let r = read("fortify-strcpy.gdb.txt");
    assert!(message(&r, "heap-corruption").contains("buffer overflow detected by a fortified libc call"));
}

/// A Go panic nothing recovered (`panic: assignment to entry in nil map`, no signal) is the
/// diagnosis; with GOTRACEBACK=crash the debugger's SIGABRT stop is on the runtime's system
/// stack, and the report names the goroutine's function.
#[test]
fn go_panics_and_system_stack_aborts() {
    for name in ["go-nil-map.gdb.txt", "go-nil-map.lldb.txt"] {
        let r = read(name);
        let m = message(&r, "panic");
        assert!(m.contains("goroutine 1 panicked in main.(*Index).add"), "{name}: {m}");
        assert!(m.contains("`panic: assignment to entry in nil map`"), "{name}: {m}");
        assert_eq!(r.culprit.as_deref(), Some("main.(*Index).add"), "{name}");
    }
    // gdb unwinds past runtime.morestack into garbage (runtime.newproc, the data symbol
    // runtime[scavenger]): the frames outer to the stack switch are not the goroutine's.
    for name in ["go-stack-exceeded.gdb.txt", "go-stack-exceeded.lldb.txt"] {
        assert_eq!(read(name).culprit.as_deref(), Some("main.depth"), "{name}");
    }
    // Look-alikes: a panic a fault caused (`[signal SIGSEGV …]`) is the fault's; a deadlock
    // is no panic; a C program printing `panic: ` is no Go panic.
    let r = read_text(&common::parse_sample("go/traceback-crash.txt").0);
    assert!(!r.rules.contains(&"panic"), "{:?}", r.messages);
    assert!(read("go-deadlock.gdb.txt").rules.is_empty());
    let t = text("sigpipe-write.gdb.txt").replace("(gdb) bt\n", "panic: disk full\n(gdb) bt\n");
    assert_ne!(t, text("sigpipe-write.gdb.txt"));
    assert!(!read_text(&t).rules.contains(&"panic"));
}

/// lldb 14 names a C++ function with internal linkage `::last_score(…)`; gdb `last_score`.
#[test]
fn lldb_global_namespace_prefix() {
    assert_eq!(read("cpp-string-null.lldb.txt").culprit.as_deref(), Some("config_dir"));
    assert_eq!(read("cpp-string-null.gdb.txt").culprit.as_deref(), Some("config_dir"));
}

/// glibc's malloc message written right after the program's unflushed output, on one line
/// (`ZZZ…Zmunmap_chunk(): invalid pointer`): the message quoted is glibc's alone.
#[test]
fn a_glibc_message_glued_to_program_output() {
    let r = read("coro-small-stack.gdb.txt");
    let m = message(&r, "heap-corruption");
    assert!(m.ends_with("(\"munmap_chunk(): invalid pointer\")"), "{}", &m[..m.len().min(300)]);
    assert!(!m.contains("ZZZ"));
    // Look-alike: glibc's older `*** Error in `./prog': free(): invalid pointer` keeps its
    // prefix (the program name is part of the message).
    let t = "*** Error in `./prog': free(): invalid pointer: 0x0000000001e4c010 ***\n\
             Program received signal SIGABRT, Aborted.\n\
             #0  0x00007ffff7a42428 in raise () from /lib/x86_64-linux-gnu/libc.so.6\n\
             #1  0x00007ffff7a4402a in abort () from /lib/x86_64-linux-gnu/libc.so.6\n\
             #2  0x0000000000400a1b in main () at t.c:9\n";
    let r = read_text(t);
    assert!(message(&r, "heap-corruption").contains("*** Error in `./prog': free(): invalid pointer"));
}

/// The new shapes whose rules stay quiet: SIGFPE of INT_MIN / -1 (not a division by zero),
/// SIGXCPU, SIGPIPE, SIGILL of a real instruction the CPU lacks, a Go deadlock.
#[test]
fn quiet_new_shapes() {
    for name in [
        "sigfpe-intmin.gdb.txt",
        "i386-intmin-div.gdb.txt",
        "sigxcpu-limit.gdb.txt",
        "sigpipe-write.gdb.txt",
        "sigill-cpu-feature.gdb.txt",
        "go-deadlock.lldb.txt",
    ] {
        let r = read(name);
        assert!(r.rules.is_empty(), "{name}: {:?}", r.messages);
    }
    assert_eq!(read("sigfpe-intmin.gdb.txt").culprit.as_deref(), Some("average"));
    assert_eq!(read("sigill-cpu-feature.lldb.txt").culprit.as_deref(), Some("release_tiles"));
}

/// gccgo's runtime (libgo) follows the C ABI and keeps g in thread-local storage: r14 is an
/// ordinary register there, whatever it holds. (A core of gccgo-nil raised pinned-register on
/// libgo's own `runtime.*` frames.)
#[test]
fn gccgo_keeps_no_g_in_r14() {
    // gccgo-nil's transcript with r14 = 0 and a `runtime.main` frame below main.main (what
    // makes a Go runtime present): libgo is mapped, so r14 is not checked.
    let t = text("gccgo-nil.gdb.txt")
        .replace("r14            0x7ffff7de1a40      140737351916096", "r14            0x0                 0")
        .replace(
            "#1  0x00005555555587d6 in main.main () at src/gccgo-nil.go:25\n(gdb) info registers",
            "#1  0x00005555555587d6 in main.main () at src/gccgo-nil.go:25\n\
             #2  0x00007ffff6f2b1c0 in runtime.main () from /usr/lib/x86_64-linux-gnu/libgo.so.21\n\
             (gdb) info registers",
        );
    assert_ne!(t, text("gccgo-nil.gdb.txt"));
    let r = read_text(&t);
    assert!(!r.rules.contains(&"pinned-register"), "{:?}", r.messages);
    assert!(r.rules.contains(&"null-dereference"));
    // Look-alike: the same without libgo anywhere (a gc-compiled Go program, whose ABIInternal
    // functions keep g in r14): r14 = 0 is not a g.
    let gc = t.replace("libgo.so", "libother.so");
    assert!(read_text(&gc).rules.contains(&"pinned-register"), "{:?}", read_text(&gc).messages);
}
