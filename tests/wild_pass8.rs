//! The classes of error the eighth pass over public crash reports found (docs/corpus.md,
//! "Eighth pass"): reports written by a tool or a runtime with no debugger (Breakpad's
//! `minidump_stackwalk`, Ruby's `[BUG]`, Cygwin's stackdump), KASAN, HWASan's tag mismatches,
//! Helgrind, Go's checkptr and sweeper, Rust's foreign-exception abort and allocation failure,
//! abort text with only the shell's verdict, Julia's `ReadOnlyMemoryError` and CUDA.jl's illegal
//! address, valgrind's inlined rows. Each with a look-alike control where the old behaviour was
//! right and must stay. The inputs are short pieces in the shapes of `tests/wild/posted/`
//! (RECONSTRUCTED there, values our own); the full inputs are checked by `tests/wild_corpus.rs`.

#[path = "common/wild_read.rs"]
mod wild_read;
use wild_read::{read, unread};

fn stop0(r: &wild_read::Read) -> &tracecheck::model::Stop {
    &r.report.parsed.trace.stops[0]
}

fn frame_names(r: &wild_read::Read) -> Vec<String> {
    stop0(r)
        .crashed_thread()
        .map(|t| t.frames.iter().map(|f| f.function_name().to_string()).collect())
        .unwrap_or_default()
}

fn pcs(r: &wild_read::Read) -> Vec<Option<u64>> {
    stop0(r).crashed_thread().map(|t| t.frames.iter().map(|f| f.pc.map(|a| a.0)).collect()).unwrap_or_default()
}

const BREAKPAD: &str = "\
Operating system: Linux
                  0.0.0 Linux 3.16.0-4-686-pae #1 SMP Debian 3.16.43-2 i686
CPU: x86
     GenuineIntel family 6 model 23 stepping 10
     2 CPUs

Crash reason:  SIGSEGV
Crash address: 0x1a8

Thread 0 (crashed)
 0  viewer + 0x52a1f4
    eip = 0x0857a1f4   esp = 0xbf8e31c0   ebp = 0xbf8e31d8   eax = 0x00000000
    Found by: given as instruction pointer in context
 1  viewer + 0x52741b
    eip = 0x0857741c   esp = 0xbf8e31e0   ebp = 0xbf8e3248
    Found by: previous frame's frame pointer
";

#[test]
fn breakpad_stackwalk_is_one_fault_with_frames_registers_and_pcs() {
    let r = read(BREAKPAD);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops.len(), 1);
    let st = stop0(&r);
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(st.reason.address.map(|a| a.0), Some(0x1a8));
    assert_eq!(r.report.parsed.trace.arch, tracecheck::model::Arch::X86);
    assert_eq!(&*st.crashed_thread().unwrap().id, "0");
    // Each frame's pc is its own instruction pointer row (the offset Breakpad prints for a
    // caller is one less).
    assert_eq!(pcs(&r), vec![Some(0x0857a1f4), Some(0x0857741c)]);
    assert_eq!(st.registers().and_then(|s| s.get("eax")), Some(0));
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // Look-alike: a SIGABRT's `Crash address: 0x0` is no fault address; the culprit is past libc.
    let t = "\
Crash reason:  SIGABRT
Crash address: 0x0

Thread 0 (crashed)
 0  libc.so.6!raise [raise.c : 26 + 0x12]
    rip = 0x00007f3a1c042476   rsp = 0x00007ffd2b1a8fe0
    Found by: given as instruction pointer in context
 1  libc.so.6!abort [abort.c : 79 + 0x5]
    rip = 0x00007f3a1c0287f3   rsp = 0x00007ffd2b1a8ff0
    Found by: stack scanning
 2  renderd!ConfigStore::Require(char const*) [config.cc : 88 + 0x5]
    rip = 0x000055e8c01b2a17   rsp = 0x00007ffd2b1a9120
    Found by: stack scanning
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGABRT"));
    assert_eq!(stop0(&r).reason.address, None);
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("ConfigStore::Require"));
    let f = &stop0(&r).crashed_thread().unwrap().frames[2];
    assert_eq!((f.file.as_deref(), f.line), (Some("config.cc"), Some(88)));
    // Look-alike: an issue template's `Operating system:` line opens no report, and what
    // follows it is not taken for the header's details.
    let r = read(
        "Operating system: Linux
Version: 2.4.1
",
    );
    assert!(r.report.parsed.trace.stops.is_empty());
    assert_eq!(unread(&r), vec!["Version: 2.4.1".to_string()]);
}

#[test]
fn ruby_bug_report_blames_the_frame_below_the_trampoline() {
    let t = "\
/app/lib/fastxml.rb:12: [BUG] Segmentation fault at 0x0000000000000000
ruby 3.2.2 (2023-03-30 revision e51014f9c0) [x86_64-linux]

-- Machine register context ------------------------------------------------
 RIP: 0x00007f91c2a18df2 RBP: 0x00007ffe5c1d2a70 RSP: 0x00007ffe5c1d2a20
 RAX: 0x0000000000000000 RBX: 0x00007f91c2c30020 RCX: 0x0000000000000000

-- C level backtrace information -------------------------------------------
/opt/ruby/lib/libruby.so.3.2(rb_vm_bugreport) /tmp/ruby-3.2.2/vm_dump.c:1080
/opt/ruby/lib/libruby.so.3.2(rb_bug_for_fatal_signal+0xf0) [0x7f91c6cd61c0] /tmp/ruby-3.2.2/error.c:813
/opt/ruby/lib/libruby.so.3.2(sigsegv+0x4b) [0x7f91c6e2df9b] /tmp/ruby-3.2.2/signal.c:964
/lib64/libc.so.6(__restore_rt+0x0) [0x7f91c697b9a0]
/app/lib/fastxml.so(Init_fastxml+0x3a2) [0x7f91c2a18df2] /app/ext/fastxml.c:211
/opt/ruby/lib/libruby.so.3.2(dln_load+0x124) [0x7f91c6c42d24] /tmp/ruby-3.2.2/dln.c:472
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    assert_eq!(st.reason.address.map(|a| a.0), Some(0));
    assert_eq!(st.registers().and_then(|s| s.get("rip")), Some(0x7f91c2a18df2));
    let th = st.crashed_thread().unwrap();
    assert_eq!(
        frame_names(&r),
        vec!["rb_vm_bugreport", "rb_bug_for_fatal_signal", "sigsegv", "__restore_rt", "Init_fastxml", "dln_load"]
    );
    assert!(th.frames[3].signal_handler);
    assert_eq!((th.frames[4].file.as_deref(), th.frames[4].line), (Some("/app/ext/fastxml.c"), Some(211)));
    assert_eq!(r.culprit.as_deref(), Some("Init_fastxml"));
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // Look-alike: a fault a page past a mapping is no NULL pointer (and the bare libpthread
    // row after the handler is the trampoline).
    let t = "\
/app/lib/db.rb:35: [BUG] Segmentation fault at 0x007fd1e4c28000
-- C level backtrace information -------------------------------------------
/opt/ruby/lib/libruby.so.2.4(rb_vm_bugreport+0x5b8) [0x7fd1f0f8f188] vm_dump.c:684
/opt/ruby/lib/libruby.so.2.4(sigsegv+0x5f) [0x7fd1f0f0b2af] signal.c:907
/lib64/libpthread.so.0 [0x3ebf20f7e0]
/app/lib/db.so(hook_scan_dynsym+0x6a) [0x7fd1e6a7258a] hook_elf.c:288
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.address.map(|a| a.0), Some(0x7fd1e4c28000));
    assert!(stop0(&r).crashed_thread().unwrap().frames[2].signal_handler);
    assert_eq!(r.culprit.as_deref(), Some("hook_scan_dynsym"));
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    // Look-alike: an issue title's `[BUG]` is no Ruby report.
    for title in ["[BUG] login page crashes on submit", "Title: [BUG] login page crashes on submit"] {
        let r = read(&format!("{title}\n"));
        assert!(r.report.parsed.trace.stops.is_empty(), "{title}");
    }
}

#[test]
fn cygwin_stackdump_registers_and_frames_are_read() {
    let t = "\
Exception: STATUS_ACCESS_VIOLATION at rip=0010040B7A2
rax=0000000000000000 rbx=00000006000A1C20 rcx=0000000000000001
r8 =0000000000000001 r9 =000000000000003C r10=0000000600095D60
rbp=00000000FFFFC4E0 rsp=00000000FFFFC3F0
program=C:\\tools\\spa\\bin\\spaclient.exe, pid 9184, thread main
cs=0033 ds=002B es=002B fs=0053 gs=002B ss=002B
Stack trace:
Frame        Function    Args
000FFFFC4E0  0010040B7A2 (0003F89D37F, 00100420750, 0004FBC51B2, 000FFFFC600)
000FFFFC560  0010040D785 (000FFFFCBF0, 00000000000, 00000000000, 00000000000)
End of stack trace
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.reason.signal.as_deref(), Some("SIGSEGV"));
    let regs = st.registers().unwrap();
    assert_eq!(regs.get("rip"), Some(0x10040b7a2));
    assert_eq!(regs.get("r8"), Some(1));
    assert_eq!(regs.get("rsp"), Some(0xffffc3f0));
    assert_eq!(pcs(&r), vec![Some(0x10040b7a2), Some(0x10040d785)]);
    // 32-bit: `eip=`, `program=` at the end of a register row.
    let t = "\
Exception: STATUS_ACCESS_VIOLATION at eip=6112A40E
eax=611C8C02 ebx=611C8C02 ecx=0000005C edx=00D2AD60 esi=00000002 edi=00000009
ebp=00000004 esp=00D2ACD0 program=C:\\cygwin\\bin\\git.exe, pid 3512, thread unknown (0x1A2C)
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.arch, tracecheck::model::Arch::X86);
    assert_eq!(stop0(&r).registers().and_then(|s| s.get("esp")), Some(0xd2acd0));
    // The console lines alone are one stop; an unrelated `[main]` log line is not Cygwin's.
    let r = read(
        "      1 [main] mudd 6120 exception::handle: Exception: STATUS_ACCESS_VIOLATION\n    611 [main] mudd 6120 open_stackdumpfile: Dumping stack trace to mudd.exe.stackdump\n",
    );
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops.len(), 1);
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGSEGV"));
    let r = read("      3 [main] mudd 6120 started listening on port 4201\n");
    assert!(r.report.parsed.trace.stops.is_empty());
}

#[test]
fn kasan_report_names_its_class_and_the_function_that_made_the_access() {
    let t = "\
[  812.400131] BUG: KASAN: slab-out-of-bounds in qfs_usage_copy+0x1c4/0x3a0 [qfs]
[  812.400150] Read of size 256 at addr ffff88810a6d3c00 by task qfsctl/22931
[  812.400198] Call Trace:
[  812.400203]  <TASK>
[  812.400209]  dump_stack_lvl+0x4a/0x6f
[  812.400266]  kasan_report+0xd4/0x160
[  812.400277]  ? qfs_usage_copy+0x1c4/0x3a0 [qfs]
[  812.400306]  memcpy+0x23/0x80
[  812.400315]  qfs_usage_copy+0x1c4/0x3a0 [qfs]
[  812.400333]  qfs_ioctl_usage+0x9d/0x4e0 [qfs]
[  812.400402]  </TASK>
[  812.400410] Allocated by task 22931:
[  812.400416]  kasan_save_stack+0x22/0x50
[  812.400433]  qfs_alloc_usage+0x81/0x4e0 [qfs]
[  812.400449] The buggy address belongs to the object at ffff88810a6d3c00
                which belongs to the cache kmalloc-192 of size 192
[  812.400494] >ffff88810a6d3c80: 00 00 00 00 00 00 00 00 fc fc fc fc fc fc fc fc
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.checker.as_ref().and_then(|c| c.kind), Some("heap-buffer-overflow"));
    assert_eq!(st.reason.address.map(|a| a.0), Some(0xffff88810a6d3c00));
    // KASAN's own reporting frames and the allocation stack are not the faulting task's.
    assert_eq!(frame_names(&r), vec!["qfs_usage_copy", "qfs_ioctl_usage"]);
    assert_eq!(r.culprit.as_deref(), Some("qfs_usage_copy"));
    assert!(r.rules.contains(&"heap-buffer-overflow"), "{:?}", r.rules);
    // A NULL-based access under KASAN is a #GP on its shadow; KASAN decodes the range.
    let gp = "\
[  214.771203] general protection fault, probably for non-canonical address 0xdffffc0000000006: 0000 [#1] PREEMPT SMP KASAN
[  214.771980] KASAN: null-ptr-deref in range [0x0000000000000030-0x0000000000000037]
[  214.773390] RIP: 0010:hop_send_link+0x32/0x2a0
";
    let r = read(gp);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.address.map(|a| a.0), Some(0x30));
    assert!(r.rules.contains(&"null-dereference"), "{:?}", r.rules);
    assert!(!r.rules.contains(&"noncanonical-address"), "{:?}", r.rules);
    // Look-alike: the same #GP without KASAN's line is a non-canonical address.
    let r = read(&gp.lines().filter(|l| !l.contains("KASAN: null")).map(|l| format!("{l}\n")).collect::<String>());
    assert!(r.rules.contains(&"noncanonical-address"), "{:?}", r.rules);
    assert!(!r.rules.contains(&"null-dereference"), "{:?}", r.rules);
}

const HWASAN_HEAD: &str = "\
==412==ERROR: HWAddressSanitizer: tag-mismatch on address 0xffff8a31c070 at pc 0xffff8a2e5514
READ of size 8 at 0xffff8a31c070 tags: 3e/00 (ptr/mem) in thread T0
    #0 0xffff8a2e5514 in session_lookup /src/cache.c:311:16
    #1 0xffff8a2e6a08 in cache_get /src/cache.c:402:9

";

#[test]
fn hwasan_tag_mismatch_is_classed_by_what_follows_it() {
    let uaf = format!(
        "{HWASAN_HEAD}[0xffff8a31c060,0xffff8a31c080) is a small unallocated heap chunk; size: 32 offset: 16
0xffff8a31c070 is located 16 bytes inside of 24-byte region [0xffff8a31c060,0xffff8a31c078)
freed by thread T0 here:
    #0 0xffff8b4a1d0c in free (/usr/lib/llvm-17/lib/clang/17/lib/linux/libclang_rt.hwasan-aarch64.so+0x21d0c)
    #1 0xffff8a2e5f88 in session_drop /src/cache.c:358:3

Memory tags around the buggy address (one tag corresponds to 16 bytes):
=>0xfffefa31c000: 00  00  00  00  00  00 [00] 00  00  00  00  00  00  00  00  00
Registers where the failure occurred (pc 0xffff8a2e5514):
    x0  3e00ffff8a31c060  x1  0000000000000010
SUMMARY: HWAddressSanitizer: tag-mismatch /src/cache.c:311:16 in session_lookup
"
    );
    let r = read(&uaf);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).checker.as_ref().and_then(|c| c.kind), Some("use-after-free"));
    assert_eq!(stop0(&r).registers().and_then(|s| s.get("x1")), Some(0x10));
    assert_eq!(frame_names(&r), vec!["session_lookup", "cache_get"]);
    assert!(r.rules.contains(&"use-after-free"), "{:?}", r.rules);
    let over = format!(
        "{HWASAN_HEAD}0xffff8a31c070 is located 0 bytes to the right of 16-byte region [0xffff8a31c060,0xffff8a31c070)
allocated by thread T0 here:
    #0 0xffff8b4a1a84 in malloc (/usr/lib/llvm-17/lib/clang/17/lib/linux/libclang_rt.hwasan-aarch64.so+0x21a84)
"
    );
    let r = read(&over);
    assert_eq!(stop0(&r).checker.as_ref().and_then(|c| c.kind), Some("heap-buffer-overflow"));
    let stack = format!(
        "{HWASAN_HEAD}Address 0xffff8a31c070 is located in stack of thread T0
Previously allocated frames:
  record_addr:0xffff9b0284b8 record:0x2a00aaaad0c21f20 in main /src/win.c:36
"
    );
    let r = read(&stack);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).checker.as_ref().and_then(|c| c.kind), Some("stack-buffer-overflow"));
    // Look-alike: a tag mismatch with nothing after it names no class.
    let r = read(HWASAN_HEAD);
    assert_eq!(stop0(&r).checker.as_ref().and_then(|c| c.kind), None);
    assert!(!r.rules.iter().any(|x| x.contains("overflow") || *x == "use-after-free"), "{:?}", r.rules);
}

#[test]
fn helgrind_race_is_a_data_race_and_its_announcements_are_not_the_error_stack() {
    let t = "\
==22017== ---Thread-Announcement------------------------------------------
==22017== 
==22017== Thread #3 was created
==22017==    at 0x4A0B9F3: clone (clone.S:76)
==22017==    by 0x1092F4: start_workers (counter_mt.c:58)
==22017== 
==22017== ----------------------------------------------------------------
==22017== 
==22017== Possible data race during write of size 4 at 0x10C014 by thread #3
==22017== Locks held: none
==22017==    at 0x109229: bump_counter (counter_mt.c:31)
==22017==    by 0x10927E: worker (counter_mt.c:42)
==22017== 
==22017== This conflicts with a previous read of size 4 by thread #2
==22017== Locks held: none
==22017==    at 0x109220: bump_counter (counter_mt.c:31)
==22017==  Address 0x10c014 is 0 bytes inside data symbol \"hits\"
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.checker.as_ref().and_then(|c| c.kind), Some("data-race"));
    assert_eq!(st.reason.address.map(|a| a.0), Some(0x10c014));
    assert_eq!(frame_names(&r), vec!["bump_counter", "worker"]);
    assert_eq!(r.culprit.as_deref(), Some("bump_counter"));
    assert!(r.rules.contains(&"data-race"), "{:?}", r.rules);
    // The same pasted without the `==PID==` prefixes.
    let bare: String = t.lines().map(|l| format!("{}\n", l.strip_prefix("==22017== ").unwrap_or(""))).collect();
    let r = read(&bare);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(frame_names(&r), vec!["bump_counter", "worker"]);
    assert!(r.rules.contains(&"data-race"), "{:?}", r.rules);
    // Look-alikes: a clean run, and an API misuse report, are no race.
    let r = read(
        "==8811== Helgrind, a thread error detector\n==8811== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 12 from 12)\n",
    );
    assert!(r.rules.is_empty(), "{:?}", r.rules);
    let r = read(
        "==5120== Thread #9: pthread_cond_{timed}wait called with un-held mutex\n==5120==    by 0x40F1A2: drain_loop (drain.c:211)\n",
    );
    assert!(!r.rules.contains(&"data-race"), "{:?}", r.rules);
}

#[test]
fn sanitizer_frames_without_pc_tsan_null_files_and_lock_order_notes() {
    let t = "\
==24406==ERROR: AddressSanitizer: alloc-dealloc-mismatch (operator new [] vs operator delete) on 0x602000021a90
#0   in operator delete(void*, unsigned long) (/usr/lib/x86_64-linux-gnu/libasan.so.3+0xc37f0)
#1   in pvdata::Scalar::releaseValue() lib/api/Scalar.cpp:412
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(frame_names(&r), vec!["operator delete(void*, unsigned long)", "pvdata::Scalar::releaseValue()"]);
    assert_eq!(r.culprit.as_deref(), Some("pvdata::Scalar::releaseValue()"));
    assert!(r.rules.contains(&"invalid-access"), "{:?}", r.rules);
    let t = "\
WARNING: ThreadSanitizer: lock-order-inversion (potential deadlock) (pid=40921)
  Cycle in lock order graph: M118 (0x55d0c2a1e0a0) => M119 (0x55d0c2a1e0e0) => M118

  Mutex M119 acquired here while holding mutex M118 in main thread:
    #0 pthread_mutex_lock <null> (libtsan.so.0+0x5271c)
    #1 render_frame() /home/mk/tiles/src/render.cpp:412 (tiles+0x9117ba)

    Hint: use TSAN_OPTIONS=second_deadlock_stack=1 to get more informative warning message
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(frame_names(&r), vec!["pthread_mutex_lock", "render_frame()"]);
    // The sanitizer runtime's own library is not the program.
    assert_eq!(r.culprit.as_deref(), Some("render_frame()"));
    // A lock-order warning is no race and no fault.
    assert!(r.rules.is_empty(), "{:?}", r.rules);
}

#[test]
fn go_checkptr_is_an_invalid_access_and_the_sweepers_zombie_is_heap_corruption() {
    let t = "\
fatal error: checkptr: pointer arithmetic result points to invalid allocation

goroutine 31204 [running]:
runtime.throw({0x5c7beb7?, 0x178d719?})
\tGOROOT/src/runtime/panic.go:1047 +0x5d fp=0xc00412ae28 sp=0xc00412adf8 pc=0x1753bfd
runtime.checkptrArithmetic(0xc008e21980?, {0x0, 0x0, 0xc00412aeb0?})
\tGOROOT/src/runtime/checkptr.go:69 +0xaa fp=0xc00412ae58 sp=0xc00412ae28 pc=0x171e52a
github.com/hashkit/fnvx.Sum32Seed({0xc008e21980, 0x40, 0x40}, 0x0)
\texternal/com_github_hashkit_fnvx/fnv32.go:88 +0x90 fp=0xc00412aec0 sp=0xc00412ae58 pc=0x52b2290
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).checker.as_ref().and_then(|c| c.kind), Some("invalid-access"));
    assert_eq!(r.culprit.as_deref(), Some("github.com/hashkit/fnvx.Sum32Seed"));
    assert!(r.rules.contains(&"invalid-access"), "{:?}", r.rules);
    // Look-alike: a misaligned conversion is no access outside an object.
    let r = read(&t.replace("pointer arithmetic result points to invalid allocation", "misaligned pointer conversion"));
    assert!(!r.rules.contains(&"invalid-access"), "{:?}", r.rules);
    let z = "\
runtime: marked free object in span 0x7f3e2c1a5b28, elemsize=16 freeindex=0 (bad use of unsafe.Pointer? try -d=checkptr)
0xc000412000 alloc marked
0xc0004129a0 free  marked   zombie
0x000000c0004129a0:  0x000000c0004129a0  0x0000000000c1a7e8 
0xc0004129c0 free  unmarked
fatal error: found pointer to free object

goroutine 4 gp=0xc000007a40 m=5 mp=0xc000100008 [running]:
runtime.throw({0x9c1a23?, 0xc0004129b0?})
\t/usr/local/go/src/runtime/panic.go:1023 +0x5c fp=0xc000059d88 sp=0xc000059d58 pc=0x43c5bc
";
    let r = read(z);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops.len(), 1);
    assert!(r.rules.contains(&"heap-corruption"), "{:?}", r.rules);
    // Look-alike: the runtime's locking check is no heap damage.
    let r = read(
        "fatal error: sync: unlock of unlocked mutex\n\ngoroutine 27 [running]:\nsync.fatal({0x6c2e1d?, 0x0?})\n\t/usr/local/go/src/runtime/panic.go:1061 +0x18\n",
    );
    assert!(!r.rules.contains(&"heap-corruption"), "{:?}", r.rules);
}

#[test]
fn rust_foreign_exception_and_allocation_failure() {
    let r = read("fatal runtime error: Rust cannot catch foreign exceptions\n[1]    20417 abort      ./ffi_demo\n");
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGABRT"));
    let f = r.report.findings.iter().find(|f| f.rule == "uncaught-exception").expect("uncaught-exception");
    assert!(f.message.contains("foreign exception unwound into Rust"), "{}", f.message);
    // Look-alike: another fatal runtime error is no uncaught exception.
    let r = read("fatal runtime error: failed to initiate panic, error 5\n[1]    20417 abort      ./ffi_demo\n");
    assert!(!r.rules.contains(&"uncaught-exception"), "{:?}", r.rules);
    // The allocation failure glued to the shell's verdict is read as both.
    let r = read("memory allocation of 18446744073709551553 bytes failedAborted (core dumped)\n");
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let st = stop0(&r);
    assert_eq!(st.reason.signal.as_deref(), Some("SIGABRT"));
    let texts: Vec<&str> = st.messages.iter().map(|m| m.text.as_ref()).collect();
    assert_eq!(texts, vec!["memory allocation of 18446744073709551553 bytes failed", "Aborted (core dumped)"]);
    assert!(!r.rules.contains(&"heap-corruption"), "{:?}", r.rules);
    // Look-alike: a program's own sentence starting the same way stays unread.
    let r = read("memory allocation of the pool failed after retries\n");
    assert_eq!(unread(&r).len(), 1);
}

#[test]
fn abort_text_with_only_the_shells_verdict_is_a_stop() {
    let r = read(
        "tcache_thread_shutdown(): unaligned tcache chunk detected\nfish: “/usr/libexec/wlc …” terminated by signal SIGABRT (Abort)\n",
    );
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(r.report.parsed.trace.stops.len(), 1);
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGABRT"));
    assert!(r.rules.contains(&"heap-corruption"), "{:?}", r.rules);
    let r = read("free(): invalid pointer\nfish: Job 1, './a' terminated by signal SIGABRT (Abort)\n");
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"heap-corruption"), "{:?}", r.rules);
    // Look-alikes: the verdict alone, or a panic that exits without a signal, makes no stop.
    let r = read("Aborted (core dumped)\n");
    assert!(r.report.parsed.trace.stops.is_empty());
    let r = read("thread 'main' panicked at src/main.rs:3:5:\nboom\n");
    assert!(r.report.parsed.trace.stops.iter().all(|s| s.reason.signo.is_none()));
}

#[test]
fn julia_readonly_memory_error_cuda_illegal_address_and_invalid_instruction() {
    let t = "\
ERROR: LoadError: ReadOnlyMemoryError()
Stacktrace:
 [1] unsafe_store!
   @ ./pointer.jl:180 [inlined]
 [2] fill_header!(buf::Vector{UInt8}, hdr::MapHeader)
   @ MapFiles ~/.julia/packages/MapFiles/k3QzX/src/header.jl:47
in expression starting at /home/dv/work/run_maps.jl:12
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"write-to-readonly"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("fill_header!"));
    // Look-alike: a checked BoundsError touched no memory.
    let r = read(
        &t.replace("ReadOnlyMemoryError()", "BoundsError: attempt to access 3-element Vector{Int64} at index [4]"),
    );
    assert!(!r.rules.contains(&"write-to-readonly") && !r.rules.contains(&"invalid-access"), "{:?}", r.rules);
    let r = read(
        "ERROR: LoadError: CUDA error: an illegal memory access was encountered (code 700, ERROR_ILLEGAL_ADDRESS)\nStacktrace:\n  [1] throw_api_error(res::CUDA.cudaError_enum)\n    @ CUDA ~/.julia/packages/CUDA/Tl08O/lib/cudadrv/libcuda.jl:27\n",
    );
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert!(r.rules.contains(&"invalid-access"), "{:?}", r.rules);
    let r = read(
        "Invalid instruction at 0x7f2e9b4d12ac: 0x62, 0xf1, 0xfd, 0x48, 0x6f, 0x05\n\n[3107] signal (4.2): Illegal instruction\nin expression starting at /w/test/runtests.jl:14\nstencil_apply! at /w/src/stencil.jl:61\n",
    );
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    assert_eq!(stop0(&r).reason.signal.as_deref(), Some("SIGILL"));
    assert!(stop0(&r).messages.iter().any(|m| m.text.starts_with("Invalid instruction at 0x7f2e9b4d12ac")));
    // An instruction the CPU lacks in real code is no execution of data.
    assert!(!r.rules.contains(&"bad-pc"), "{:?}", r.rules);
    assert_eq!(r.culprit.as_deref(), Some("stencil_apply!"));
}

#[test]
fn valgrind_rows_of_one_address_are_inlined_and_std_header_code_is_library() {
    let t = "\
==31877== Mismatched free() / delete / delete []
==31877==    at 0x484BB6F: operator delete(void*, unsigned long) (vg_replace_malloc.c:935)
==31877==    by 0x1C81A4: operator() (unique_ptr.h:85)
==31877==    by 0x1C81A4: ~unique_ptr (unique_ptr.h:361)
==31877==    by 0x1C81A4: scope::Segment::append_samples(float const*, unsigned long) (segment.cpp:142)
==31877==    by 0x1B0F21: scope::Session::feed_analog() (session.cpp:988)
";
    let r = read(t);
    assert!(unread(&r).is_empty(), "{:?}", unread(&r));
    let th = stop0(&r).crashed_thread().unwrap();
    assert_eq!(th.frames.iter().map(|f| f.inlined).collect::<Vec<_>>(), vec![false, true, true, false, false]);
    assert_eq!(r.culprit.as_deref(), Some("scope::Segment::append_samples(float const*, unsigned long)"));
    assert!(r.rules.contains(&"invalid-access"), "{:?}", r.rules);
    // Look-alike: the program's own real function in a file of that name is the program's.
    let r = read(
        "==31877== Mismatched free() / delete / delete []\n==31877==    at 0x484BB6F: operator delete(void*, unsigned long) (vg_replace_malloc.c:935)\n==31877==    by 0x1C81A4: table_grow (hashtable.h:85)\n==31877==    by 0x1B0F21: main (main.c:9)\n",
    );
    assert_eq!(r.culprit.as_deref(), Some("table_grow"));
}
