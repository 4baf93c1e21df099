//! What lldb prints differently from gdb, read to the same conclusions: trap instructions
//! without siginfo, GCC clone suffixes, inlined library helpers, glibc's internal allocator
//! names, fault addresses that contradict a guess, and a backtrace the stack protector's
//! overflow cut short. Each input is cut from a recording in `sample-traces/crashers`
//! (lldb 14, `regenerate.sh --lldb`); the look-alike negative controls are the same text
//! edited where a comment says so.

use tracecheck::analyze::analyze;

/// The rules that fired and the culprit's function.
fn read(text: &str) -> (Vec<&'static str>, Option<String>) {
    let parsed = tracecheck::input::parse(text);
    let r = analyze("t", parsed, &Default::default());
    let rules = r.findings.iter().map(|f| f.rule).collect();
    let culprit = r.culprits.first().cloned().flatten().and_then(|c| {
        let st = r.parsed.trace.stops.first()?;
        let th = st.threads.iter().find(|t| *t.id == *c.thread)?;
        Some(th.frames.get(c.frame_position()?)?.function_name().to_string())
    });
    (rules, culprit)
}

const INT3_STOP: &str = "\
(lldb) run
Process 6332 stopped
* thread #1, name = 'sigtrap-int3', stop reason = signal SIGTRAP
    frame #0: 0x0000555555555147 sigtrap-int3`settle(v=3) at sigtrap-int3.c:9:14
(lldb) bt all
* thread #1, name = 'sigtrap-int3', stop reason = signal SIGTRAP
  * frame #0: 0x0000555555555147 sigtrap-int3`settle(v=3) at sigtrap-int3.c:9:14
    frame #1: 0x000055555555516e sigtrap-int3`main(argc=1, argv=0x00007fffffffed78) at sigtrap-int3.c:15:5
(lldb) disassemble --frame
sigtrap-int3`settle:
    0x555555555139 <+0>:  pushq  %rbp
    0x55555555513a <+1>:  movq   %rsp, %rbp
    0x55555555513d <+4>:  movl   %edi, -0x4(%rbp)
    0x555555555140 <+7>:  cmpl   $0x2, -0x4(%rbp)
    0x555555555144 <+11>: jle    0x555555555147            ; <+14> at sigtrap-int3.c:9:14
    0x555555555146 <+13>: int3   
->  0x555555555147 <+14>: movl   -0x4(%rbp), %edx
    0x55555555514a <+17>: movl   %edx, %eax
";

#[test]
fn an_int3_before_the_pc_makes_lldbs_sigtrap_a_crash() {
    let (_, culprit) = read(INT3_STOP);
    assert_eq!(culprit.as_deref(), Some("settle"));
    // `int $0x3` (two bytes, cd 03) ending at the pc: the same trap.
    let two = INT3_STOP
        .replace("0x555555555146 <+13>: int3   ", "0x555555555145 <+12>: int    $0x3")
        .replace("0x555555555144 <+11>: jle    0x555555555147            ; <+14> at sigtrap-int3.c:9:14\n", "");
    assert_eq!(read(&two).1.as_deref(), Some("settle"), "{two}");
}

#[test]
fn a_sigtrap_without_a_trap_instruction_stays_a_debugger_stop() {
    // Edited: the instruction before the pc is a `nop`, not `int3` (a SIGTRAP sent with kill,
    // or a single step): no crash, no culprit.
    let nop = INT3_STOP.replace("int3   ", "nop    ");
    assert_eq!(read(&nop).1, None);
    // Edited: the `int3` is not the instruction right before the pc (it ends a byte short).
    let apart = INT3_STOP.replace("0x555555555146 <+13>: int3   ", "0x555555555145 <+12>: int3   ");
    assert_eq!(read(&apart).1, None);
    // No disassembly at all: nothing shows a trap instruction.
    let bare = INT3_STOP.split("(lldb) disassemble").next().unwrap();
    assert_eq!(read(bare).1, None);
}

fn throw_stop(frame7: &str) -> String {
    format!(
        "\
(lldb) run
terminate called after throwing an instance of 'std::invalid_argument'
  what():  stoi
Process 4242 stopped
* thread #2, name = 'cpp-thread-thro', stop reason = signal SIGABRT
    frame #0: 0x00007ffff7e5eeec libc.so.6`__pthread_kill_implementation(threadid=<unavailable>, signo=6, no_tid=<unavailable>) at pthread_kill.c:44:76
(lldb) bt all
* thread #2, name = 'cpp-thread-thro', stop reason = signal SIGABRT
  * frame #0: 0x00007ffff7e5eeec libc.so.6`__pthread_kill_implementation(threadid=<unavailable>, signo=6, no_tid=<unavailable>) at pthread_kill.c:44:76
    frame #1: 0x00007ffff7e0ffb2 libc.so.6`__GI_raise(sig=6) at raise.c:26:13
    frame #2: 0x00007ffff7dfa472 libc.so.6`__GI_abort at abort.c:79:7
    frame #3: 0x00007ffff7e9d919 libstdc++.so.6`___lldb_unnamed_symbol5163 + 137
    frame #4: 0x00007ffff7ea8e1a libstdc++.so.6`___lldb_unnamed_symbol5726 + 10
    frame #5: 0x00007ffff7ea8e85 libstdc++.so.6`std::terminate() + 21
    frame #6: 0x00007ffff7ea90d8 libstdc++.so.6`__cxa_throw + 72
    {frame7}
    frame #8: 0x00005555555552a3 cpp-thread-throw`worker(void*) + 19
"
    )
}

#[test]
fn a_gcc_clone_suffix_is_not_an_argument_list() {
    // LLVM's demangler prints the `.cold` part of a C++ function after its signature.
    let cxx =
        "frame #7: 0x0000555555555135 cpp-thread-throw`parse_port(char const*) (.cold) at cpp-thread-throw.cpp:13:63";
    assert_eq!(read(&throw_stop(cxx)).1.as_deref(), Some("parse_port"));
    // A C function's `.cold` part with a source line: the function the debug info names.
    let c = "frame #7: 0x0000555555555135 cpp-thread-throw`parse_port.cold at cpp-thread-throw.cpp:13:63";
    assert_eq!(read(&throw_stop(c)).1.as_deref(), Some("parse_port"));
    let chain = "frame #7: 0x0000555555555135 cpp-thread-throw`parse_port.isra.0.cold at cpp-thread-throw.cpp:13:63";
    assert_eq!(read(&throw_stop(chain)).1.as_deref(), Some("parse_port"));
    // Without a source line the symbol is all there is: kept as printed.
    let bare = "frame #7: 0x0000555555555135 cpp-thread-throw`parse_port.cold + 12";
    assert_eq!(read(&throw_stop(bare)).1.as_deref(), Some("parse_port.cold"));
    // A dot that is no clone suffix (a Go-style package path) is part of the name.
    let go = "frame #7: 0x0000555555555135 cpp-thread-throw`main.parse at main.go:13:6";
    assert_eq!(read(&throw_stop(go)).1.as_deref(), Some("main.parse"));
}

const FORTIFY_STOP: &str = "\
(lldb) run
*** buffer overflow detected ***: terminated
Process 3482 stopped
* thread #1, name = 'fortify-strcpy', stop reason = signal SIGABRT
    frame #0: 0x00007ffff7e5eeec libc.so.6`__pthread_kill_implementation(threadid=<unavailable>, signo=6, no_tid=<unavailable>) at pthread_kill.c:44:76
(lldb) bt all
* thread #1, name = 'fortify-strcpy', stop reason = signal SIGABRT
  * frame #0: 0x00007ffff7e5eeec libc.so.6`__pthread_kill_implementation(threadid=<unavailable>, signo=6, no_tid=<unavailable>) at pthread_kill.c:44:76
    frame #1: 0x00007ffff7e0ffb2 libc.so.6`__GI_raise(sig=6) at raise.c:26:13
    frame #2: 0x00007ffff7dfa472 libc.so.6`__GI_abort at abort.c:79:7
    frame #3: 0x00007ffff7e5342f libc.so.6`__libc_message(action=do_abort, fmt=\"*** %s ***: terminated\\n\") at libc_fatal.c:156:5
    frame #4: 0x00007ffff7eec212 libc.so.6`__GI___fortify_fail(msg=\"buffer overflow detected\") at fortify_fail.c:26:5
    frame #5: 0x00007ffff7eead20 libc.so.6`__GI___chk_fail at chk_fail.c:28:3
    frame #6: 0x00007ffff7eea555 libc.so.6`__stpcpy_chk(dest=<unavailable>, src=<unavailable>, destlen=<unavailable>) at stpcpy_chk.c:31:5
    frame #7: 0x00005555555551ae fortify-strcpy`set_tag [inlined] strcpy(__src=<unavailable>, __dest=<unavailable>) at string_fortified.h:79:10
    frame #8: 0x00005555555551a9 fortify-strcpy`set_tag(p=0x00005555555592a0, tag=<unavailable>) at fortify-strcpy.c:15:5
    frame #9: 0x000055555555509f fortify-strcpy`main(argc=1, argv=0x00007fffffffed78) at fortify-strcpy.c:22:5
";

#[test]
fn an_inlined_toolchain_header_helper_is_not_the_culprit() {
    assert_eq!(read(FORTIFY_STOP).1.as_deref(), Some("set_tag"));
    // A compiler intrinsic inlined into the program's function.
    let sse = FORTIFY_STOP.replace(
        "strcpy(__src=<unavailable>, __dest=<unavailable>) at string_fortified.h:79:10",
        "_mm_load_ps(__P=0x0000555555559041) at xmmintrin.h:927:10",
    );
    assert_eq!(read(&sse).1.as_deref(), Some("set_tag"));
    // Edited: the inlined helper comes from the program's own header: it is the culprit.
    let own = FORTIFY_STOP.replace(
        "strcpy(__src=<unavailable>, __dest=<unavailable>) at string_fortified.h:79:10",
        "tag_copy(dst=<unavailable>) at tags.h:12:5",
    );
    assert_eq!(read(&own).1.as_deref(), Some("tag_copy"));
}

#[test]
fn glibcs_internal_free_in_a_static_binary_is_the_allocator() {
    let t = "\
(lldb) run
free(): double free detected in tcache 2
Process 4100 stopped
* thread #1, name = 'static-double-f', stop reason = signal SIGABRT
    frame #0: 0x000000000041783b static-double-free`__pthread_kill_implementation.constprop.0 + 267
(lldb) bt all
* thread #1, name = 'static-double-f', stop reason = signal SIGABRT
  * frame #0: 0x000000000041783b static-double-free`__pthread_kill_implementation.constprop.0 + 267
    frame #1: 0x00000000004086b2 static-double-free`raise + 18
    frame #2: 0x00000000004011ec static-double-free`abort + 211
    frame #3: 0x000000000041246f static-double-free`__libc_message + 607
    frame #4: 0x000000000041824a static-double-free`malloc_printerr + 26
    frame #5: 0x000000000041a483 static-double-free`_int_free + 2515
    frame #6: 0x000000000041c99d static-double-free`__free + 109
    frame #7: 0x000000000040167d static-double-free`handle(text=\"a,b,c,d,e\") at static-double-free.c:21:5
    frame #8: 0x000000000040169b static-double-free`main at static-double-free.c:27:5
";
    assert_eq!(read(t).1.as_deref(), Some("handle"));
}

/// A legal recursion `depth` frames deep that faults at `fault` (lldb's `fault address:`).
fn deep_stop(depth: u32, fault: &str, rsp: &str) -> String {
    let mut t = format!(
        "(lldb) run\nProcess 3098 stopped\n* thread #1, name = 'deep-legal-5000', stop reason = signal SIGSEGV: invalid address (fault address: {fault})\n(lldb) bt all\n* thread #1, name = 'deep-legal-5000', stop reason = signal SIGSEGV: invalid address (fault address: {fault})\n"
    );
    for i in 0..depth {
        let star = if i == 0 { "  * " } else { "    " };
        t.push_str(&format!(
            "{star}frame #{i}: 0x{:016x} deep-legal-5000`depth_sum(n=0x000055555556cb10, depth={}) at deep-legal-5000.c:16:12\n",
            if i == 0 { 0x55555555516d_u64 } else { 0x555555555199 },
            4999 - i.min(4999)
        ));
    }
    t.push_str(&format!("(lldb) register read\nGeneral Purpose Registers:\n       rax = 0x0000000000000000\n       rsp = {rsp}\n       rip = 0x000055555555516d\n"));
    t
}

#[test]
fn a_deep_legal_recursion_faulting_far_from_sp_is_no_stack_overflow() {
    let (rules, _) = read(&deep_stop(1500, "0x0", "0x00007ffffffd7b50"));
    assert!(!rules.contains(&"stack-overflow"), "{rules:?}");
    // Edited: the same recursion faulting 8 bytes below rsp, as a push into the guard page
    // does: the stack ran out.
    let (rules, _) = read(&deep_stop(1500, "0x7fffff7fefd8", "0x00007fffff7fefe0"));
    assert!(rules.contains(&"stack-overflow"), "{rules:?}");
}

const JUMP_STOP: &str = "\
(lldb) run
Process 13247 stopped
* thread #1, name = 'cyclic-smash-ca', stop reason = signal SIGSEGV: invalid address (fault address: 0x616861616167)
    frame #0: 0x0000616861616167
(lldb) bt all
* thread #1, name = 'cyclic-smash-ca', stop reason = signal SIGSEGV: invalid address (fault address: 0x616861616167)
  * frame #0: 0x0000616861616167
(lldb) register read
General Purpose Registers:
       rbp = 0x00007fffffffec30
       rsp = 0x00007fffffffec00
       rip = 0x0000616861616167
";

#[test]
fn a_fault_at_the_pc_itself_is_a_bad_pc_without_mappings() {
    let (rules, _) = read(JUMP_STOP);
    assert!(rules.contains(&"bad-pc"), "{rules:?}");
    // Edited: the fault is a data access elsewhere; nothing says the pc is not code.
    let data = JUMP_STOP.replace("(fault address: 0x616861616167)", "(fault address: 0x616861610000)");
    let (rules, _) = read(&data);
    assert!(!rules.contains(&"bad-pc"), "{rules:?}");
    // Edited: a printed region says the pc's page is executable: the fault address cannot
    // overrule it.
    let mapped = format!(
        "{JUMP_STOP}(lldb) memory region $pc\n[0x0000616861616000-0x0000616861617000) r-x /tmp/jit PT_LOAD[1]\n"
    );
    let (rules, _) = read(&mapped);
    assert!(!rules.contains(&"bad-pc"), "{rules:?}");
}

const NULL_INDEX_STOP: &str = "\
(lldb) run
Process 5200 stopped
* thread #1, name = 'null-array-inde', stop reason = signal SIGSEGV: invalid address (fault address: 0x27140)
    frame #0: 0x0000555555555190 null-array-index`cell(t=0x0000000000000000, i=40000) at null-array-index.c:10:22
(lldb) bt all
* thread #1, name = 'null-array-inde', stop reason = signal SIGSEGV: invalid address (fault address: 0x27140)
  * frame #0: 0x0000555555555190 null-array-index`cell(t=0x0000000000000000, i=40000) at null-array-index.c:10:22
    frame #1: 0x0000555555555077 null-array-index`main(argc=<unavailable>, argv=<unavailable>) at null-array-index.c:17:5
(lldb) register read
General Purpose Registers:
       rdi = 0x0000000000000000
       rsi = 0x0000000000009c40
       rsp = 0x00007fffffffec58
       rip = 0x0000555555555190  null-array-index`cell + 0 at null-array-index.c:10:22
(lldb) disassemble --frame
null-array-index`cell:
->  0x555555555190 <+0>: movl   0x40(%rdi,%rsi,4), %eax
    0x555555555194 <+4>: retq   
";

#[test]
fn a_null_base_past_the_zero_page_needs_the_kernels_unmapped_word() {
    let (rules, _) = read(NULL_INDEX_STOP);
    assert!(rules.contains(&"null-dereference"), "{rules:?}");
    // Edited: `invalid permissions` (SEGV_ACCERR): the address is mapped, so a NULL base plus
    // an index landing there is not shown to be a NULL dereference without mappings.
    let accerr = NULL_INDEX_STOP.replace("invalid address", "invalid permissions for mapped object");
    let (rules, _) = read(&accerr);
    assert!(!rules.contains(&"null-dereference"), "{rules:?}");
    // Edited: the base register is not NULL: the address is a real pointer plus an index.
    let based = NULL_INDEX_STOP.replace("rdi = 0x0000000000000000", "rdi = 0x0000000000017100");
    let (rules, _) = read(&based);
    assert!(!rules.contains(&"null-dereference"), "{rules:?}");
}

const SMASH_STOP: &str = "\
(lldb) run
label a-label-longer-than-eight-bytes
*** stack smashing detected ***: terminated
Process 3578 stopped
* thread #1, name = 'gcc-stack-smash', stop reason = signal SIGABRT
    frame #0: 0x00007ffff7e5eeec libc.so.6`__pthread_kill_implementation(threadid=<unavailable>, signo=6, no_tid=<unavailable>) at pthread_kill.c:44:76
(lldb) bt all
* thread #1, name = 'gcc-stack-smash', stop reason = signal SIGABRT
  * frame #0: 0x00007ffff7e5eeec libc.so.6`__pthread_kill_implementation(threadid=<unavailable>, signo=6, no_tid=<unavailable>) at pthread_kill.c:44:76
    frame #1: 0x00007ffff7e0ffb2 libc.so.6`__GI_raise(sig=6) at raise.c:26:13
    frame #2: 0x00007ffff7dfa472 libc.so.6`__GI_abort at abort.c:79:7
    frame #3: 0x00007ffff7e5342f libc.so.6`__libc_message(action=do_abort, fmt=\"*** %s ***: terminated\\n\") at libc_fatal.c:156:5
    frame #4: 0x00007ffff7eec212 libc.so.6`__GI___fortify_fail(msg=\"stack smashing detected\") at fortify_fail.c:26:5
    frame #5: 0x00007ffff7eec1f0 libc.so.6`__stack_chk_fail at stack_chk_fail.c:24:3
    frame #6: 0x00005555555551b7 gcc-stack-smash-o0`copy_label(in=\"a-label-longer-than-eight-bytes\") at gcc-stack-smash-o0.c:11:1
";

#[test]
fn a_backtrace_ending_where_the_canary_failed_is_cut_by_the_overflow() {
    let (rules, culprit) = read(SMASH_STOP);
    assert!(rules.contains(&"corrupt-backtrace"), "{rules:?}");
    assert_eq!(culprit.as_deref(), Some("copy_label"));
    // Edited: the caller and the thread's entry follow (the overflow stopped at the canary,
    // as in gcc-stack-smash-o3): the backtrace is whole.
    let whole = format!(
        "{SMASH_STOP}    frame #7: 0x00005555555551e2 gcc-stack-smash-o0`main at gcc-stack-smash-o0.c:16:5\n    frame #8: 0x00007ffff7dfb24a libc.so.6`__libc_start_call_main at libc_start_call_main.h:58:16\n"
    );
    let (rules, _) = read(&whole);
    assert!(!rules.contains(&"corrupt-backtrace"), "{rules:?}");
}

/// The whole parse: frames of the first stop's thread 1, and the lines not understood.
/// A frame's function, file and line.
type FrameRow = (String, Option<String>, Option<u32>);

fn frames_and_unread(text: &str) -> (Vec<FrameRow>, Vec<String>) {
    let p = tracecheck::input::parse(text);
    let frames = p.trace.stops.last().and_then(|s| s.threads.first()).map(|t| {
        t.frames.iter().map(|f| (f.function_name().to_string(), f.file.as_deref().map(String::from), f.line)).collect()
    });
    (frames.unwrap_or_default(), p.diagnostics.unrecognized.iter().map(|u| u.text.clone()).collect())
}

/// Cut from `cpp-noexcept-throw.lldb.txt`: a `main=` argument whose summary names the
/// inlined chain at `main`'s pc, one location a line.
const MULTILINE_ARG: &str = "\
(lldb) bt all
* thread #1, name = 'cpp-noexcept-th', stop reason = signal SIGABRT
  * frame #0: 0x00007ffff7aa8eec libc.so.6`__pthread_kill_implementation(threadid=<unavailable>, signo=6, no_tid=<unavailable>) at pthread_kill.c:44:76
    frame #8: 0x0000555555555326 cpp-noexcept-throw`main at cpp-noexcept-throw.cpp:18:25
    frame #9: 0x00007ffff7a4524a libc.so.6`__libc_start_call_main(main=(cpp-noexcept-throw`main [inlined] std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::_M_local_data() at cpp-noexcept-throw.cpp:16
cpp-noexcept-throw`main [inlined] std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::basic_string(char const*, std::allocator<char> const&) at basic_string.h:635:21
cpp-noexcept-throw`main at cpp-noexcept-throw.cpp:17:36), argc=1, argv=0x00007fffffffed78) at libc_start_call_main.h:58:16
    frame #10: 0x0000555555555131 cpp-noexcept-throw`_start + 33
";

#[test]
fn a_frame_whose_argument_summary_spans_lines_is_one_frame() {
    let (frames, unread) = frames_and_unread(MULTILINE_ARG);
    assert!(unread.is_empty(), "{unread:?}");
    let names: Vec<&str> = frames.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["__pthread_kill_implementation", "main", "__libc_start_call_main", "_start"]);
    // Its location is its own (`libc_start_call_main.h:58`), not the argument's first line.
    assert_eq!((frames[2].1.as_deref(), frames[2].2), (Some("libc_start_call_main.h"), Some(58)));
    // The same summary as the last line of the input: read at the end.
    let cut = MULTILINE_ARG.lines().take(7).collect::<Vec<_>>().join("\n");
    let (frames, unread) = frames_and_unread(&cut);
    assert!(unread.is_empty(), "{unread:?}");
    assert_eq!(frames.last().map(|f| f.0.as_str()), Some("__libc_start_call_main"));
}

#[test]
fn an_open_parenthesis_in_a_string_or_char_argument_opens_nothing() {
    // Look-alike: `(` inside a string or character argument is no unbalanced summary; the
    // next frame line is read as a frame of its own, not glued on.
    let t = "\
(lldb) bt
* thread #1, name = 'p', stop reason = signal SIGSEGV: invalid address (fault address: 0x0)
  * frame #0: 0x0000555555555155 p`parse(s=\"f(x\", open='(') at p.c:3:5
    frame #1: 0x0000555555555199 p`main at p.c:9:3
";
    let (frames, unread) = frames_and_unread(t);
    assert!(unread.is_empty(), "{unread:?}");
    let names: Vec<&str> = frames.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["parse", "main"]);
    assert_eq!(frames[0].2, Some(3));
}

#[test]
fn lldbs_own_remarks_and_tables_are_read() {
    // Cut from `go-nil.lldb.txt`, `inline-chain-o3.lldb.txt`, `avx2-null.lldb.txt` and the
    // register reads of every x86-64 lldb recording.
    let t = "\
(lldb) process handle SIGURG -s false -n false -p true
This version of LLDB has no plugin for the language \"go\". Inspection of frame variables will be limited.
NAME         PASS   STOP   NOTIFY
===========  =====  =====  ======
SIGURG       true   false  false
(lldb) continue
Process 17633 resuming
Process 17633 stopped
* thread #1, name = 'avx2-null', stop reason = signal SIGSEGV: invalid address (fault address: 0x0)
    frame #0: 0x0000555555555150 avx2-null`sum8(p=0x0000000000000000) at avx2-null.c:12:9
   11  	    __m256 s = _mm256_loadu_ps(p);
-> 12  	    s = _mm256_add_ps(s, s);
    	        ^
   13  	    return s;
   14  	}
   15
(lldb) register read
General Purpose Registers:
       rax = 0x0000000000000000
       rip = 0x00005555555551b1  inline-chain-o3`total_weight + 33 [inlined] branch_weight + 7 at inline-chain-o3.c:11:88
  inline-chain-o3`total_weight + 26 [inlined] tree_weight + 3 at inline-chain-o3.c:12:73
  inline-chain-o3`total_weight + 23 at inline-chain-o3.c:18:14
    rflags = 0x0000000000010216

16 registers were unavailable.
";
    let (frames, unread) = frames_and_unread(t);
    assert!(unread.is_empty(), "{unread:?}");
    assert_eq!(frames.len(), 1);
    let p = tracecheck::input::parse(t);
    assert_eq!(p.trace.stops[0].threads[0].registers.get(&0).and_then(|r| r.get("rip")), Some(0x5555555551b1));
    // A number alone is program output unless it closes a source listing; and the remark's
    // words elsewhere are not lldb's.
    let t2 = "\
(lldb) run
Process 1 launched: '/tmp/p' (x86_64)
15
   15
16 registers were unavailable
NAME PASS
";
    let (_, unread) = frames_and_unread(t2);
    assert_eq!(unread, ["15", "   15", "16 registers were unavailable", "NAME PASS"]);
}

#[test]
fn a_stop_shown_after_gdb_remote_shows_its_disassembly() {
    // Cut from `a64-x20-ok.lldb.txt` (qemu-user's gdb stub).
    let t = "\
(lldb) gdb-remote 23990
Process 1 stopped
* thread #1, stop reason = signal SIGTRAP
    frame #0: 0x0000000000400580 a64-x20-ok`_start
a64-x20-ok`_start:
->  0x400580 <+0>:  nop    
    0x400584 <+4>:  mov    x29, #0x0
";
    let p = tracecheck::input::parse(t);
    assert!(p.diagnostics.unrecognized.is_empty(), "{:?}", p.diagnostics.unrecognized);
    let d = &p.trace.stops[0].disassembly;
    assert_eq!(d.len(), 2);
    assert_eq!(d[0].location.as_deref(), Some("_start+0"));
}

#[test]
fn a_panics_own_backtrace_in_a_debugger_session_is_read_and_not_kept() {
    // Cut from `rust-drop-panic.gdb.txt`: the panic hook's backtrace is the program's stderr;
    // the debugger's backtrace of the abort that follows is the one kept.
    let t = "\
(gdb) run
thread 'main' (836) panicked at src/rust-drop-panic.rs:11:13:
flush failed with 3 pending writes
stack backtrace:
   0:     0x555555591f2a - std[e28293b1aa0f68bd]::backtrace_rs::backtrace::libunwind::trace
                               at /rustc/59807616e1fa2540724bfbac14d7976d7e4a3860/library/std/src/../../backtrace/src/backtrace/libunwind.rs:117:9
  16:     0x55555556869e - <rust_drop_panic::FlushOnDrop as core::ops::drop::Drop>::drop::hcffcb84ca7a496b6
                               at ./src/rust-drop-panic.rs:11:13
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.
wrote 3 records

Program received signal SIGABRT, Aborted.
(gdb) bt
#0  __pthread_kill_implementation (threadid=<optimized out>, signo=signo@entry=6, no_tid=no_tid@entry=0) at ./nptl/pthread_kill.c:44
#1  0x00007ffff7e3ef4f in __pthread_kill_internal (signo=6, threadid=<optimized out>) at ./nptl/pthread_kill.c:78
";
    let p = tracecheck::input::parse(t);
    let unread: Vec<&str> = p.diagnostics.unrecognized.iter().map(|u| u.text.as_str()).collect();
    // The program's own line after the backtrace is not Rust's.
    assert_eq!(unread, ["wrote 3 records"]);
    assert_eq!(p.trace.stops.len(), 1);
    let names: Vec<&str> = p.trace.stops[0].threads[0].frames.iter().map(|f| f.function_name()).collect();
    assert_eq!(names, ["__pthread_kill_implementation", "__pthread_kill_internal"]);
    // The same report on its own (no debugger) is the only backtrace there is: its frames are kept.
    let alone = t.split("wrote 3 records").next().unwrap().replace("(gdb) run\n", "");
    let p = tracecheck::input::parse(&alone);
    let names: Vec<&str> = p.trace.stops[0].threads[0].frames.iter().map(|f| f.function_name()).collect();
    assert_eq!(
        names,
        [
            "std::backtrace_rs::backtrace::libunwind::trace",
            "<rust_drop_panic::FlushOnDrop as core::ops::drop::Drop>::drop"
        ]
    );
}
