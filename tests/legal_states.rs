//! Legal programs stopped by a SIGSEGV sent from outside: nothing is wrong with their state,
//! and the rules must stay quiet or say why their evidence is weak. The inputs are cut from
//! real gdb 13 transcripts that `sample-traces/legal/regenerate.sh` records (node's JIT,
//! python3); the look-alikes are the same text edited where a comment says so.

use tracecheck::analyze::analyze;
use tracecheck::model::Severity;

/// Cut from node running `busy.js` (V8 JIT code in an anonymous rwx mapping at the pc; gdb
/// cannot unwind it and guesses frames from stack words).
const NODE_JIT: &str = "\
Thread 1 \"node\" received signal SIGSEGV, Segmentation fault.
0x00007fffd00060ab in ?? ()
(gdb) bt
#0  0x00007fffd00060ab in ?? ()
#1  0x000012ddc7ec11f9 in ?? ()
#2  0x000033c453324431 in ?? ()
#3  0x000012ddc7ec11f9 in ?? ()
#4  0x0000000000000002 in ?? ()
#5  0x000009e965b02ae9 in ?? ()
#6  0x000012ddc7ec11f9 in ?? ()
#7  0x00007fffffffd9d0 in ?? ()
#8  0x00000000018cfd1c in Builtins_InterpreterEntryTrampoline ()
Backtrace stopped: previous frame inner to this frame (corrupt stack?)
(gdb) info registers
rbp            0x7fffffffd958      0x7fffffffd958
rsp            0x7fffffffd928      0x7fffffffd928
rip            0x7fffd00060ab      0x7fffd00060ab
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 0, _sifields = {_pad = {5899, 0 <repeats 27 times>}, _kill = {si_pid = 5899, si_uid = 0}, _sigfault = {si_addr = 0x170b, _addr_lsb = 0}}}
(gdb) info proc mappings
process 5871
Mapped address spaces:

          Start Addr           End Addr       Size     Offset  Perms  objfile
            0x400000           0xb6f000   0x76f000        0x0  r--p   /usr/bin/node
            0xb72000          0x25fe000  0x1a8c000   0x772000  r-xp   /usr/bin/node
       0x9e965b00000      0x9e965b40000    0x40000        0x0  rw-p   
      0x12ddc7ec0000     0x12ddc7f00000    0x40000        0x0  rw-p   
      0x33c453300000     0x33c453340000    0x40000        0x0  rw-p   
      0x7fffd0003000     0x7fffd003f000    0x3c000        0x0  rwxp   
      0x7ffffffde000     0x7ffffffff000    0x21000        0x0  rw-p   [stack]
";

fn findings(text: &str) -> Vec<(&'static str, Severity, String)> {
    let r = analyze("t", tracecheck::input::parse(text), &Default::default());
    r.findings.iter().map(|f| (f.rule, f.severity, f.message.clone())).collect()
}

#[test]
fn garbage_frames_above_jit_code_are_the_unwinders_guess_not_a_corrupt_stack() {
    let f = findings(NODE_JIT);
    assert_eq!(f.len(), 1, "{f:#?}");
    let (rule, sev, msg) = &f[0];
    assert_eq!((*rule, *sev), ("corrupt-backtrace", Severity::Info));
    assert!(msg.contains("could only guess the caller of #0 ??"), "{msg}");
    assert!(msg.contains("0x7fffd0003000-0x7fffd003f000"), "{msg}");
    assert!(msg.ends_with("this alone is no evidence of a corrupt stack"), "{msg}");
    assert!(!msg.contains("followed a corrupt return address"), "{msg}");
}

#[test]
fn garbage_frames_above_code_of_a_file_are_still_a_corrupt_backtrace() {
    // Edited: frame #0's code is in node's own file mapping (a symbol-less function of the
    // binary, which has unwind information): the garbage above it is the old warning.
    let t = NODE_JIT
        .replace("0x00007fffd00060ab in ?? ()", "0x00000000018c0010 in ?? ()")
        .replace("rip            0x7fffd00060ab      0x7fffd00060ab", "rip            0x18c0010      0x18c0010");
    let f = findings(&t);
    assert_eq!(f.len(), 1, "{f:#?}");
    let (rule, sev, msg) = &f[0];
    assert_eq!((*rule, *sev), ("corrupt-backtrace", Severity::Warning));
    assert!(msg.contains("the unwinder followed a corrupt return address above #0 ??"), "{msg}");
}

/// Cut from python3 running `busy.py` (three hashing threads; the main thread in the
/// interpreter loop, symbol-less frames of the stripped binary).
const PYTHON: &str = "\
Thread 1 \"python3\" received signal SIGSEGV, Segmentation fault.
0x00000000005cfb3d in ?? ()
(gdb) bt
#0  0x00000000005cfb3d in ?? ()
#1  0x00000000005e4575 in ?? ()
#2  0x000000000052ee24 in _PyEval_EvalFrameDefault ()
#3  0x00000000005236bb in PyEval_EvalCode ()
#4  0x0000000000647d97 in ?? ()
#5  0x00000000006456ef in ?? ()
#6  0x0000000000651770 in ?? ()
#7  0x00000000006514bb in _PyRun_SimpleFileObject ()
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 0, _sifields = {_pad = {24354, 0 <repeats 27 times>}, _kill = {si_pid = 24354, si_uid = 0}, _sigfault = {si_addr = 0x5f22, _addr_lsb = 0}}}
";

#[test]
fn an_interpreter_killed_from_outside_raises_nothing() {
    let r = analyze("t", tracecheck::input::parse(PYTHON), &Default::default());
    assert!(r.findings.is_empty(), "{:#?}", r.findings);
    assert_eq!(r.parsed.trace.stops[0].reason.address, None);
}

/// Cut from `java Busy.java` under gdb (OpenJDK 17): the JVM's start-up probe reads address 0
/// on purpose from a generated stub, and its own SIGSEGV handler continues it; gdb stops first.
const JVM_PROBE: &str = "\
Thread 2 \"java\" received signal SIGSEGV, Segmentation fault.
[Switching to Thread 0x7ffff691f6c0 (LWP 5748)]
0x00007fffe093862d in ?? ()
(gdb) bt
#0  0x00007fffe093862d in ?? ()
#1  0x0000000000000202 in ?? ()
#2  0x00007fffe0938724 in ?? ()
#3  0x00007ffff7d11610 in ?? () from /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
#4  0x00007ffff691e3f0 in ?? ()
#5  0x00007ffff792d14a in VM_Version::get_processor_features() () from /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
(gdb) info registers
rsi            0x0                 0
rsp            0x7ffff691e2d8      0x7ffff691e2d8
rip            0x7fffe093862d      0x7fffe093862d
(gdb) x/i $pc
=> 0x7fffe093862d:\tmov    (%rsi),%eax
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 1, _sifields = {_pad = {0 <repeats 28 times>}, _sigfault = {si_addr = 0x0, _addr_lsb = 0}}}
(gdb) info proc mappings
process 5721
Mapped address spaces:

          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x7fffe0938000     0x7fffe0ba8000   0x270000        0x0  rwxp   
      0x7ffff6824000     0x7ffff6920000    0xfc000        0x0  rw-p   
      0x7ffff6a00000     0x7ffff6c51000   0x251000        0x0  r--p   /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
      0x7ffff6c51000     0x7ffff79a4000   0xd53000   0x251000  r-xp   /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so
";

#[test]
fn a_null_read_in_jvm_generated_code_is_the_jvms_business() {
    let f = findings(JVM_PROBE);
    let nd: Vec<_> = f.iter().filter(|f| f.0 == "null-dereference").collect();
    assert_eq!(nd.len(), 1, "{f:#?}");
    assert_eq!(nd[0].1, Severity::Info);
    assert!(nd[0].2.contains("the JVM (libjvm.so), which handles SIGSEGV in its generated code itself"), "{}", nd[0].2);
    assert!(f.iter().all(|f| f.1 != Severity::Error), "{f:#?}");
}

#[test]
fn the_same_null_read_without_a_managed_runtime_is_a_null_dereference() {
    // Edited: no libjvm.so mapped and the process not named `java` (a program's own JIT, as
    // `jit-null` in the crash corpus).
    let t = JVM_PROBE
        .replace("/usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so", "/usr/lib/libtool.so")
        .replace("Thread 2 \"java\"", "Thread 2 \"tool\"");
    let f = findings(&t);
    let nd: Vec<_> = f.iter().filter(|f| f.0 == "null-dereference").collect();
    assert_eq!(nd.len(), 1, "{f:#?}");
    assert_eq!(nd[0].1, Severity::Error);
    assert!(!nd[0].2.contains("JVM"), "{}", nd[0].2);
    // And with the JVM loaded but the fault in libjvm.so's own code (a symbol): a JVM bug.
    let t = JVM_PROBE
        .replace(
            "0x00007fffe093862d in ?? ()",
            "0x00007ffff6c52000 in JVM_Foo () from /usr/lib/jvm/java-17-openjdk-amd64/lib/server/libjvm.so",
        )
        .replace(
            "rip            0x7fffe093862d      0x7fffe093862d",
            "rip            0x7ffff6c52000      0x7ffff6c52000",
        )
        .replace("=> 0x7fffe093862d:", "=> 0x7ffff6c52000:");
    let f = findings(&t);
    let nd: Vec<_> = f.iter().filter(|f| f.0 == "null-dereference").collect();
    assert_eq!(nd.len(), 1, "{f:#?}");
    assert_eq!(nd[0].1, Severity::Error);
}
