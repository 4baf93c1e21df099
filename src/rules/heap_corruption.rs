//! `heap-corruption`: an allocator, the stack protector or Julia's GC detected corrupted
//! memory and aborted, or the process crashed inside allocator or GC-marking code.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::julia;
use crate::messages::{self, MessageKind};
use crate::model::*;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "heap-corruption",
    title: "a runtime check found corrupted heap or stack memory",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** Aborts raised by memory-consistency checks, and crashes inside the
code that runs them:

- glibc malloc's checks: `free(): double free detected in tcache 2`, `double free or
  corruption (out)`, `free(): invalid pointer`, `munmap_chunk(): invalid pointer`,
  `corrupted size vs. prev_size`, `malloc(): corrupted top size`, `malloc_consolidate(): …`,
  and glibc's internal malloc assertions (``malloc.c:…: sysmalloc: Assertion `…' failed``);
- the stack protector: `*** stack smashing detected ***: terminated` (`__stack_chk_fail`);
- glibc's `_FORTIFY_SOURCE` checks: `*** longjmp causes uninitialized stack frame ***` (a
  `longjmp` to a frame that has returned; `__longjmp_chk`) and `*** buffer overflow detected
  ***` (`__chk_fail`, which says it even in a core, where there is no stderr), fortified
  `FD_SET`/`FD_CLR`/`FD_ISSET`'s `*** bit out of range 0 - FD_SETSIZE on fd_set ***` (a
  descriptor of 1024 or more; `__fdelt_chk`, which a core shows too), and fortified
  printf's `*** %n in writable segment detected ***` (a format string with `%n` in writable
  memory: one built at run time or taken from input, a format-string bug; glibc reports it
  through `__libc_fatal`, so a core, without stderr, does not show it);
- Julia's GC: `GC error (probable corruption)` (`gc_dump_queue_and_abort`);
- as a heuristic, a SIGSEGV inside glibc malloc internals (`_int_malloc`, `_int_free`,
  `malloc_consolidate`, `unlink_chunk`, …, or a static helper inlined into one, such as
  `arena_for_chunk` in `free` reading the arena of a chunk whose size word has the
  NON_MAIN_ARENA bit set by mistake) or inside Julia's mark phase (`gc_mark_outrefs`,
  `gc_mark_loop_*`, `jl_datatype_layout` reading a garbage type tag); not when the faulting
  instruction reads through a NULL base register (a NULL pointer in the collector's own data,
  `null-dereference`'s finding). A fault in `gc_mark_stack` (the walk over a task's GC frames)
  is a probable corrupt GC frame; it is an error, not a heuristic, when the GC's mark-bit
  write hit the header of a "root" in read-only memory (code or `.rodata`: no Julia object
  lives there), and it then leads over `write-to-readonly`'s finding on the same write.

The finding quotes the message with its line, names the frame that detected it (`_int_free`)
and the culprit: the first frame outside libc, the allocator and the runtime
(`buffer_release at src/glibc-abort.c:10`), which is where the bad `free()` was called or the
overrun function returned.

**Why it matters** These aborts are the program's own memory errors caught late: a double or
invalid free, a write past the end of a heap block into the next chunk's header, a write after
free, or a local buffer overrun. The culprit frame is where the corruption was *noticed*; the
corrupting write may be elsewhere, which is what AddressSanitizer, valgrind or an rr watchpoint
on the damaged word finds.

**Example** `glibc-abort.gdb.txt`: `free(): double free detected in tcache 2` on stderr, frames
`malloc_printerr` ← `_int_free` ← `__GI___libc_free` ← `buffer_release (b=…) at
src/glibc-abort.c:10`. `stack-chk.gdb.txt`: `*** stack smashing detected ***: terminated`,
`__stack_chk_fail` called from `copy_name`.

**Known false positives** The message-based findings are exact. The SIGSEGV heuristics can
also fire when a bad pointer is handed to `free()`/`realloc()` (not a corrupted heap, but a
misuse of the allocator all the same), and a crash in Julia's mark phase can come from a bad
GC root (a corrupted GC frame or a wrong pgcstack) rather than from a damaged heap object. An
ordinary NULL or wild dereference in user code is never reported here, nor a SIGSEGV/SIGBUS
that `$_siginfo` shows was sent (`si_code` <= 0): a signal sent from outside stops a thread
inside `malloc`/`free` as often as the program spends its time there. Nor when the dump shows
that the instruction at pc cannot have raised it (`x/i $pc` shows a `test`, a register move, a
conditional jump; or, with the memory map, every address it touches is mapped with the access
it makes): the signal then came from elsewhere even when `$_siginfo` is not in the dump."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[
        Sample::File("sample-traces/glibc-abort.gdb.txt"),
        Sample::File("sample-traces/lldb/glibc-abort.lldb.txt"),
        Sample::File("sample-traces/stack-chk.gdb.txt"),
        Sample::File("sample-traces/synthetic/julia-gc-error.julia.txt"),
    ],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

/// What a detector's text says happened (its detail, typed at input time).
fn diagnosis(kind: MessageKind, detail: Option<MessageDetail>) -> &'static str {
    match (kind, detail) {
        (MessageKind::StackSmashing, _) => "stack smashing",
        (MessageKind::GcCorruption, _) => "GC heap corruption",
        (_, Some(MessageDetail::DoubleFreeOrCorruption)) => "double free or heap corruption",
        (_, Some(MessageDetail::DoubleFree)) => "double free",
        (_, Some(MessageDetail::InvalidFree)) => "invalid free",
        _ => "heap metadata corruption",
    }
}

/// Functions of glibc's malloc (without `__GI_` prefixes).
fn is_allocator_fn(name: &str) -> bool {
    let n = name.trim_start_matches("__GI_").trim_start_matches("__GI___").trim_start_matches('_');
    matches!(
        n,
        "int_free"
            | "int_malloc"
            | "int_realloc"
            | "int_memalign"
            | "int_free_merge_chunk"
            | "int_free_create_chunk"
            | "int_free_maybe_consolidate"
            | "malloc_consolidate"
            | "unlink_chunk"
            | "sysmalloc"
            | "tcache_get"
            | "tcache_put"
            | "tcache_get_n"
            | "tcache_double_free_verify"
            | "libc_free"
            | "libc_malloc"
            | "libc_realloc"
            | "libc_calloc"
            | "libc_memalign"
            | "munmap_chunk"
            | "malloc"
            | "free"
            | "realloc"
            | "calloc"
            | "cfree"
            | "malloc_printerr"
    )
}

/// The allocator frame the fault is in: frame #0 when it is an allocator function, else the
/// first allocator function that every frame above it is inlined into (glibc's static helpers,
/// `arena_for_chunk`, `heap_for_ptr`, `tcache_get`, …, inlined into `free`/`malloc`, which
/// gdb and lldb print as frames of their own with the same pc).
fn allocator_frame<'f>(top: &[&'f Frame]) -> Option<&'f Frame> {
    let p = top.iter().position(|f| is_allocator_fn(f.function_name()))?;
    // Helpers inlined into it, or (an allocator without debug info: static musl's
    // `__libc_free` calling `get_meta`) functions it called, also without debug info: the
    // allocator calls no code of the program.
    let undebugged = top[p].file.is_none() && top[..p].iter().all(|f| f.file.is_none() && f.function.is_some());
    top[..p].iter().all(|f| f.inlined || undebugged).then_some(top[p])
}

/// Julia's GC mark/sweep functions.
fn is_gc_mark_fn(name: &str) -> bool {
    [
        "gc_mark",
        "gc_sweep",
        "_jl_gc_collect",
        "jl_gc_collect",
        "ijl_gc_collect",
        "gc_scan",
        "gc_push_root",
        "gc_try_setmark",
        "gc_queue",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

/// Julia runtime functions that may sit between a fault and the mark loop
/// (`jl_datatype_layout` inlined into `gc_mark_outrefs`).
fn is_julia_runtime_fn(name: &str) -> bool {
    ["jl_", "ijl_", "gc_", "_jl_"].iter().any(|p| name.starts_with(p))
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    for (si, stop) in cx.stops() {
        if let Some(f) = detected(cx, si, stop) {
            out.push(f);
        } else if let Some(f) = crash_inside(cx, si, stop) {
            out.push(f);
        }
    }
}

/// A detector's message or frame.
fn detected(cx: &RuleContext<'_>, si: usize, stop: &Stop) -> Option<Finding> {
    let th = stop.crashed_thread();
    let frames: &[Frame] = th.map(|t| t.frames.as_slice()).unwrap_or(&[]);
    // The message line, when the program's stderr is in the transcript.
    let msg = stop.messages.iter().find_map(|m| {
        let kind = m.kind?;
        match kind {
            MessageKind::HeapCorruption | MessageKind::StackSmashing | MessageKind::GcCorruption => Some((kind, m)),
            MessageKind::Assertion if m.assertion.as_ref().is_some_and(messages::is_malloc_assertion) => {
                Some((MessageKind::HeapCorruption, m))
            }
            _ => None,
        }
    });
    // The detector frame: it also carries the text when stderr was not captured.
    // `__stack_chk_fail` is what the overrun function called; `__fortify_fail` is below it.
    let stack_chk = frames.iter().find(|f| matches!(f.function_name(), "__stack_chk_fail" | "__stack_chk_fail_local"));
    let detector = frames.iter().filter(|f| stack_chk.is_none_or(|s| std::ptr::eq(*f, s))).find_map(|f| {
        let name = f.function_name();
        let arg = |name: &str| f.string_arg(name).map(|a| (a.text.to_string(), a.detail));
        let (kind, text) = match name {
            "malloc_printerr" => (MessageKind::HeapCorruption, arg("str")),
            "__malloc_assert" => (MessageKind::HeapCorruption, arg("assertion")),
            "__stack_chk_fail" | "__stack_chk_fail_local" => (
                MessageKind::StackSmashing,
                Some(("stack smashing detected".to_string(), Some(MessageDetail::StackCanary))),
            ),
            "__longjmp_chk" | "____longjmp_chk" | "longjmp_chk" => (
                MessageKind::StackSmashing,
                Some(("longjmp causes uninitialized stack frame".to_string(), Some(MessageDetail::LongjmpCheck))),
            ),
            n if n.ends_with("__fortify_fail") => {
                let m = arg("msg")?;
                if !matches!(
                    m.1,
                    Some(
                        MessageDetail::StackCanary
                            | MessageDetail::FortifyOverflow
                            | MessageDetail::FortifyPercentN
                            | MessageDetail::FortifyFdSet
                    )
                ) {
                    return None;
                }
                (MessageKind::StackSmashing, Some(m))
            }
            // glibc's fortified FD_SET/FD_CLR/FD_ISSET bound (its own message, no `__chk_fail`).
            "__fdelt_chk" | "__fdelt_warn" => (
                MessageKind::StackSmashing,
                Some(("bit out of range 0 - FD_SETSIZE on fd_set".to_string(), Some(MessageDetail::FortifyFdSet))),
            ),
            // glibc's handler for every failed `__*_chk` bound (fortified memcpy, strcpy,
            // sprintf, read, …): it reports "buffer overflow detected" and nothing else, so
            // the frame says it when neither stderr nor its caller's argument is there (a core).
            n if n == "__chk_fail" || n.ends_with("___chk_fail") => (
                MessageKind::StackSmashing,
                Some(("buffer overflow detected".to_string(), Some(MessageDetail::FortifyOverflow))),
            ),
            "gc_dump_queue_and_abort" | "gc_assert_datatype_fail" => (MessageKind::GcCorruption, None),
            _ => return None,
        };
        Some((kind, text, f))
    });
    let (kind, text, detail) = match (msg, &detector) {
        (Some((k, m)), _) => (k, m.text.to_string(), m.detail),
        (None, Some((k, Some((t, d)), _))) => (*k, t.clone(), *d),
        (None, Some((k, None, _))) => (*k, String::new(), None),
        (None, None) => return None,
    };
    let what = diagnosis(kind, detail);
    let culprit = cx.named_culprit(stop).map(|(_, f)| f);
    let quoted = if text.is_empty() { String::new() } else { format!(" (\"{text}\")") };
    // The allocator frame that ran the check (innermost allocator function below the reporter).
    let checker = frames.iter().find(|f| is_allocator_fn(f.function_name()) && f.function_name() != "malloc_printerr");
    let longjmp = detail == Some(MessageDetail::LongjmpCheck);
    let fortify = detail == Some(MessageDetail::FortifyOverflow);
    let message = match (kind, culprit) {
        (MessageKind::StackSmashing, c) if longjmp => format!(
            "longjmp to a stack frame that no longer exists{}: the jmp_buf was filled by setjmp in a function that has since returned (or it was overwritten); glibc's _FORTIFY_SOURCE check in __longjmp_chk stopped it{quoted}",
            c.map(|c| format!(", in a call from {}", c.location())).unwrap_or_default()
        ),
        (MessageKind::StackSmashing, c) if detail == Some(MessageDetail::FortifyPercentN) => format!(
            "format string with %n in writable memory{}: glibc's _FORTIFY_SOURCE printf refused it (a format string built at run time or taken from input: a format-string bug, pass the text as an argument to a constant \"%s\" instead){quoted}",
            c.map(|c| format!(" in a printf call from {}", c.location())).unwrap_or_default()
        ),
        (MessageKind::StackSmashing, c) if detail == Some(MessageDetail::FortifyFdSet) => format!(
            "file descriptor out of fd_set's range{}: FD_SET/FD_CLR/FD_ISSET was given a descriptor of FD_SETSIZE (1024) or more (or a negative one), and glibc's _FORTIFY_SOURCE check (__fdelt_chk) stopped the write past the fd_set; select() cannot watch it: use poll() or epoll{quoted}",
            c.map(|c| format!(" in {}", c.location())).unwrap_or_default()
        ),
        (MessageKind::StackSmashing, c) if fortify => format!(
            "buffer overflow detected by a fortified libc call{}: a string or memory function (…_chk) was asked to write past the end of its destination{quoted}",
            c.map(|c| format!(" in {}", c.location())).unwrap_or_default()
        ),
        (MessageKind::StackSmashing, Some(c)) => {
            format!(
                "stack smashing detected on return from {}: a local buffer overran the stack canary{quoted}",
                c.location()
            )
        }
        (MessageKind::StackSmashing, None) => {
            format!("stack smashing detected: a local buffer overran the stack canary{quoted}")
        }
        (MessageKind::GcCorruption, Some(c)) => {
            format!(
                "the Julia GC found a corrupted object while marking{quoted}; the collection was entered from {}",
                c.location()
            )
        }
        (MessageKind::GcCorruption, None) => format!("the Julia GC found a corrupted object while marking{quoted}"),
        (_, Some(c)) if what == "double free" => {
            format!("double free: {} freed a block that was already free{quoted}", c.location())
        }
        (_, Some(c)) if what == "invalid free" => format!(
            "invalid free in {}: the pointer is not one malloc returned, or its chunk header was overwritten{quoted}",
            c.location()
        ),
        (_, Some(c)) => format!("{what} detected by glibc malloc in a call from {}{quoted}", c.location()),
        (_, None) => format!("{what} detected by glibc malloc{quoted}"),
    };
    let mut f = Finding::new(&RULE, message).at(si, th, culprit.map(|c| c.index)).rank(80);
    if let Some((_, m)) = msg {
        f = f.evidence(format!("stderr: {}", m.text), Some(m.span));
    }
    if let Some((_, _, d)) = &detector {
        f = f.evidence(format!("detector: #{} {}", d.index, d.location()), Some(d.span));
    }
    if let Some(c) = checker {
        f = f.evidence(format!("allocator frame: #{} {}", c.index, c.location()), Some(c.span));
    }
    if let Some(c) = culprit {
        f = f.evidence(format!("culprit: #{} {}", c.index, c.location()), Some(c.span));
    }
    // What the freed pointer is, when the allocator printed it (`free(): invalid pointer:
    // 0x7ffd…`, tcmalloc's `Attempt to free invalid pointer 0x6e69…`).
    if what == "invalid free"
        && let Some((_, m)) = msg
        && let Some(v) = m.pointer
    {
        let bytes = v.to_le_bytes();
        if v > 0xffff_ffff && bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
            let text: String = bytes.iter().map(|b| *b as char).collect();
            f = f.evidence(
                format!("the freed pointer {v:#x} is the bytes \"{text}\": text stored where the pointer was (a string or buffer overran it)"),
                Some(m.span),
            );
        } else if cx.classifier.classify(v).kind == crate::classify::RegionKind::Stack
            // x86-64 Linux puts the main thread's stack just below 0x7ffffffff000 (ASLR moves it
            // by at most 16 GiB), far above the heap and the libraries' mappings.
            || matches!(cx.trace.arch, Arch::X86_64 | Arch::Unknown) && (0x7ffc_0000_0000..0x7fff_ffff_f000).contains(&v)
        {
            f = f.evidence(
                format!(
                    "the freed pointer {v:#x} looks like a stack address: the address of a local was passed to free"
                ),
                Some(m.span),
            );
        }
    }
    // Julia's `!!! ERROR in jl_ -- ABORTING !!!` says more than its `Allocations:` summary.
    let runtime_line = stop
        .messages
        .iter()
        .find(|m| m.detail == Some(MessageDetail::RuntimeAbortBanner))
        .or_else(|| stop.messages.iter().find(|m| m.detail == Some(MessageDetail::AllocationSummary)));
    if let Some(m) = runtime_line {
        f = f.evidence(m.text.to_string(), Some(m.span));
    }
    f = match kind {
        MessageKind::StackSmashing => {
            f.step("rerun with -fsanitize=address to catch the overflowing write").step("info frame")
        }
        MessageKind::GcCorruption => f
            .step("rerun with --check-bounds=yes and a smaller --heap-size-hint to make the corruption show sooner")
            .step("rr record, then watch the corrupted object's type tag and reverse-continue"),
        _ => f.step("rerun under valgrind or with -fsanitize=address to see the first bad write or free"),
    };
    if let Some(c) = culprit {
        f = f.step(format!("frame {}", c.index)).step("info locals");
    }
    Some(f)
}

/// A word in a memory dump of the stop whose type bits (`w & ~15`) equal a frame-0 register
/// that does not point anywhere (non-canonical, kernel or unmapped): the header the GC read
/// its garbage type from. `(address, word, register, span)`.
fn garbage_header(cx: &RuleContext<'_>, stop: &Stop, th: &Thread) -> Option<(u64, u64, String, Span)> {
    use crate::classify::RegionKind;
    let regs = th.registers.get(&0)?;
    let bad: Vec<(&str, u64)> = regs
        .regs
        .iter()
        .filter_map(|r| Some((&*r.name, r.value?)))
        .filter(|(_, v)| *v >= 0x10000 && v & 0xf == 0)
        .filter(|(_, v)| {
            matches!(
                cx.classifier.classify(*v).kind,
                RegionKind::NonCanonical | RegionKind::Kernel | RegionKind::Unmapped
            )
        })
        .collect();
    for m in &stop.memory {
        if m.unit != 8 {
            continue;
        }
        for (i, &w) in m.words.iter().enumerate() {
            if let Some((name, _)) = bad.iter().find(|(_, v)| w & !0xf == *v) {
                return Some((m.address.0.wrapping_add(8 * i as u64), w, name.to_string(), m.span));
            }
        }
    }
    None
}

/// A SIGSEGV/SIGBUS inside glibc malloc or Julia's mark phase (heuristic).
fn crash_inside(cx: &RuleContext<'_>, si: usize, stop: &Stop) -> Option<Finding> {
    let r = &stop.reason;
    // A signal some process sent (si_code <= 0) stops a thread inside malloc as often as the
    // program spends its time there: no fault of the allocator.
    if r.kind != StopKind::Signal || !matches!(r.signo, Some(11) | Some(7)) || r.is_sent() {
        return None;
    }
    // The same without `$_siginfo`: the instruction at pc could not have faulted (a `test`,
    // a `push` to a mapped stack), so the signal came from elsewhere.
    if cx.signal_not_from_insn(stop) {
        return None;
    }
    let th = stop.crashed_thread()?;
    let top: Vec<&Frame> = th.frames.iter().filter(|f| !f.signal_handler).take(8).collect();
    let f0 = *top.first()?;
    // A stack access (recursion that overflowed inside malloc) is stack-overflow's business.
    let sp = cx.reg0(stop, cx.trace.arch.sp_register()).and_then(|x| x.value);
    if let (Some(a), Some(sp)) = (r.address, sp)
        && a.0.abs_diff(sp) < 0x10000
    {
        return None;
    }
    let culprit = cx.named_culprit(stop).map(|(_, f)| f);
    // The faulting instruction read through a NULL base: a NULL pointer in the collector's own
    // bookkeeping (null-dereference's finding), not an object's garbage type tag.
    let null_base = cx
        .fault_insn(stop)
        .and_then(|i| crate::insn::decode(&i.text).mem)
        .and_then(|m| m.base)
        .is_some_and(|b| cx.reg0(stop, &b).and_then(|r| r.value) == Some(0));
    let (message, evidence_frame) = if let Some(p) = top.iter().position(|f| is_gc_mark_fn(f.function_name())) {
        if null_base {
            return None;
        }
        // Frames above the mark loop must be the runtime too (by name, or by a source file in
        // Julia's tree such as work-stealing-queue.h inlined into gc_mark_and_steal).
        if !top[..p]
            .iter()
            .all(|f| is_julia_runtime_fn(f.function_name()) || julia::role(f) == julia::FrameRole::Runtime)
        {
            return None;
        }
        let gc = top[p];
        // The real function at pc (`info symbol $pc`, or the core's ELF symbols) when gdb's
        // debug-info name is not it (a shifted DWARF, docs/julia.md).
        let real = julia::elf_symbol_any(cx.trace, stop, th, 0).map(|(n, _)| n).filter(|n| *n != f0.function_name());
        let at = match real {
            Some(n) => format!("{n} (bt: {})", f0.function_name()),
            None => f0.function_name().to_string(),
        };
        // gc_mark_stack walks a task's GC frames (jl_gcframe_t: nroots, prev, roots): a fault
        // there is a bad GC frame, not an object's header.
        let what = if real.unwrap_or(f0.function_name()).starts_with("gc_mark_stack") {
            "probable corrupt GC frame: a jl_gcframe_t on the task's GC stack (pushed by compiled code or JL_GC_PUSH) with a garbage nroots, prev or root"
        } else {
            "probable heap corruption, an object with a garbage type tag"
        };
        // The mark function by the ELF symbol table when gdb's name for it is from a DWARF
        // that does not describe this code and it is frame #0's physical function.
        let in_chain0 = top[p].index <= th.frames.get(julia::inline_chain(th, 0).1).map_or(0, |f| f.index);
        let marking = match real {
            Some(n) if in_chain0 => n,
            _ => gc.function_name(),
        };
        let mut m = format!(
            "crash ({}) in {at} while Julia's GC was marking ({marking}): {what}",
            r.signal.as_deref().unwrap_or("SIGSEGV"),
        );
        if let Some(c) = culprit {
            m.push_str(&format!("; the collection was entered from {}", c.location()));
        }
        (m, gc)
    } else if let Some(alloc) = allocator_frame(&top) {
        // The allocator function itself, or a helper inlined into it (`arena_for_chunk` in
        // `__GI___libc_free`): gdb and lldb print the inlined helper as frame #0.
        let inner = if std::ptr::eq(alloc, f0) {
            String::new()
        } else if f0.inlined {
            format!(", in {} inlined into it", f0.function_name())
        } else {
            format!(", in {}, which it called", f0.function_name())
        };
        let mut m = format!(
            "crash ({}) inside the allocator ({}{inner}): probable heap metadata corruption, or a bad pointer passed to it",
            r.signal.as_deref().unwrap_or("SIGSEGV"),
            alloc.function_name()
        );
        if let Some(c) = culprit {
            m.push_str(&format!("; called from {}", c.location()));
        }
        (m, alloc)
    } else {
        return None;
    };
    // The GC, walking a task's GC frames, set mark bits in the header of a "root" that lies
    // in code or read-only data (the kernel refused the write): that root is no object, so a
    // GC frame is corrupt. Not a guess any more: this finding leads, as an error, and
    // write-to-readonly's finding on the same write is its symptom.
    let root_in_readonly = cx.fault_insn(stop).zip(r.address).and_then(|(i, a)| {
        let (gcfn, obj) = julia::gc_mark_header_write(cx.trace, stop, th, &i.text, a.0)?;
        let m = cx.trace.mapping_for(a.0).filter(|m| m.writable() == Some(false))?;
        let denied = stop.reason.si_code == Some(crate::model::signals::SEGV_ACCERR);
        (julia::is_gc_frame_walk(gcfn) && denied).then(|| (obj, a.0, m.path.clone(), m.perms.clone(), m.span))
    });
    let mut f = Finding::new(&RULE, message).at(si, Some(th), Some(f0.index)).rank(55);
    f.severity = Severity::Warning;
    f.heuristic = true;
    if let Some((obj, hdr, path, perms, span)) = root_in_readonly {
        f.severity = Severity::Error;
        f.heuristic = false;
        f.message = f.message.replacen("probable corrupt GC frame", "corrupt GC frame", 1);
        f = f.rank(70).evidence(
            format!(
                "the GC wrote mark bits into the header {hdr:#x} of the root {obj:#x}, which lies in a {} mapping ({}): no Julia object lives there, so the root came from a garbage GC frame",
                perms.as_deref().unwrap_or("read-only"),
                path.as_deref().map(|p| p.rsplit('/').next().unwrap_or(p)).unwrap_or("anonymous")
            ),
            Some(span),
        );
    }
    f = f.evidence(format!("#{} {}", f0.index, f0.location()), Some(f0.span));
    if !std::ptr::eq(evidence_frame, f0) {
        f = f.evidence(format!("#{} {}", evidence_frame.index, evidence_frame.location()), Some(evidence_frame.span));
    }
    if let Some(c) = culprit {
        f = f.evidence(format!("culprit: #{} {}", c.index, c.location()), Some(c.span));
    }
    if is_gc_mark_fn(evidence_frame.function_name()) {
        // Julia's mark phase: the object's header word (type tag) is what went bad. When a dump
        // shows a header whose type bits are the garbage "type" a register holds, name it.
        if let Some((addr, w, reg, span)) = garbage_header(cx, stop, th) {
            f = f
                .evidence(
                    format!(
                        "the header at {addr:#x} = {w:#x} holds the garbage type {:#x} = {reg} (low bits {:#x}: GC mark bits set while marking): the corrupted object is at {:#x}",
                        w & !0xf,
                        w & 0xf,
                        addr.wrapping_add(8)
                    ),
                    Some(span),
                )
                .step(format!("rr: watch -l *(long *){addr:#x}, then reverse-continue to the write that overwrote this header"));
        }
        if f.message.contains("corrupt GC frame") {
            f = f.step("walk the GC frames of the task: p *((jl_task_t *)ijl_get_current_task())->gcstack, then follow ->prev; nroots >> 2 is the root count (bit 0: roots are indirect), a count above a few hundred or a prev outside the stack is the bad frame")
                .step("rr record, then watch -l the bad frame's nroots word and reverse-continue to the code that pushed it (a JL_GC_PUSH in C, or a hand-built frame)");
        }
        f = f
            .step("find the object being marked (a register or gc_mark_outrefs's new_obj) and x/2gx OBJ - 8: its header (type tag, low bits = GC mark bits)")
            .step("rr record, then watch -l *(long *)(OBJ - 8) and reverse-continue to the write that overwrote the tag")
            .step("JULIA_GC_NO_GENERATIONAL=1, JULIA_GC_ALLOC_POOL / JULIA_GC_ALLOC_OTHER (force collections at chosen allocations) and JULIA_GC_WAIT_FOR_DEBUGGER=1 in a build with WITH_GC_DEBUG_ENV=1; a GC_VERIFY build (src/options.h) checks the heap after each collection")
            .step("rerun with a small --heap-size-hint and --gcthreads=1 (serial marking) to make the corruption show sooner and deterministically; --check-bounds=yes for out-of-bounds writes in Julia code");
    } else {
        f = f
            .step("rerun under valgrind or with -fsanitize=address (C), or --check-bounds=yes (Julia)")
            .step("x/4gx the object being scanned");
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn gc_crash_through_a_null_base_is_not_a_garbage_tag() {
        // JuliaLang/julia#53350's shape: the mark thread indexes a NULL array; the GC-crash
        // heuristic stays quiet (null-dereference says what happened).
        let t = "Program terminated with signal SIGSEGV, Segmentation fault.
#0  0x00007f4a1c3e2fa6 in gc_should_mark (ptls=0x7f49a8000b70) at /julia/src/gc.c:2865
#1  0x00007f4a1c3e30b9 in gc_mark_loop_parallel (ptls=0x7f49a8000b70, master=0) at /julia/src/gc.c:2896
#2  0x00007f4a1c3d468a in jl_gc_mark_threadfun (arg=0x5581c4b21d20) at /julia/src/partr.c:138
(gdb) x/i $pc
=> 0x7f4a1c3e2fa6 <gc_should_mark+166>:\tmov    (%rax,%rdx,8),%rdi
(gdb) p $rax
$3 = 0
";
        assert!(run_rule(&RULE, t).is_empty());
        // The same crash through a non-NULL wild base is still the GC heuristic's.
        assert_eq!(run_rule(&RULE, &t.replace("$3 = 0", "$3 = 0xe000000000000000")).len(), 1);
    }

    #[test]
    fn fires_on_double_free_sample() {
        let f = run_rule_on_sample(&RULE, "glibc-abort.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "double free: buffer_release at src/glibc-abort.c:10 freed a block that was already free (\"free(): double free detected in tcache 2\")"
        );
        assert_eq!(f[0].frame, Some(8));
        assert_eq!(f[0].severity, Severity::Error);
        let ev: Vec<(&str, Option<u32>)> =
            f[0].evidence.iter().map(|e| (e.text.as_str(), e.lines.map(|l| l.first))).collect();
        assert_eq!(
            ev,
            vec![
                ("stderr: free(): double free detected in tcache 2", Some(4)),
                ("detector: #5 malloc_printerr at ./malloc/malloc.c:5662", Some(15)),
                ("allocator frame: #6 _int_free at ./malloc/malloc.c:4469", Some(16)),
                ("culprit: #8 buffer_release at src/glibc-abort.c:10", Some(18)),
            ]
        );
    }

    #[test]
    fn fires_on_stack_chk_sample() {
        let f = run_rule_on_sample(&RULE, "stack-chk.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "stack smashing detected on return from copy_name at src/smashed-stack.c:13: a local buffer overran the stack canary (\"*** stack smashing detected ***: terminated\")"
        );
        assert_eq!(f[0].frame, Some(7));
        assert!(
            f[0].evidence.iter().any(|e| e.text == "detector: #6 __stack_chk_fail at ./debug/stack_chk_fail.c:24"
                && e.lines == Some(Span::line(16))),
            "{:#?}",
            f[0].evidence
        );
    }

    #[test]
    fn null_dereference_is_not_heap_corruption() {
        for s in [
            "null-field.gdb.txt",
            "null-fnptr.gdb.txt",
            "threads-crash.gdb.txt",
            "c-r13-plain.gdb.txt",
            "poison.gdb.txt",
            "smashed-stack.gdb.txt",
            "assert-fail.gdb.txt",
            "rust-panic.gdb.txt",
            "cpp-uncaught.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }

    #[test]
    fn detector_frame_without_stderr() {
        // Only `bt` pasted: the text comes from malloc_printerr's argument.
        let t = "\
Program received signal SIGABRT, Aborted.
(gdb) bt
#0  __pthread_kill_implementation (threadid=<optimized out>, signo=signo@entry=6, no_tid=no_tid@entry=0) at ./nptl/pthread_kill.c:44
#1  0x00007ffff7e10fb2 in __GI_raise (sig=sig@entry=6) at ../sysdeps/posix/raise.c:26
#2  0x00007ffff7dfb472 in __GI_abort () at ./stdlib/abort.c:79
#3  0x00007ffff7e5442f in __libc_message (action=action@entry=do_abort, fmt=fmt@entry=0x7ffff7f6f459 \"%s\\n\") at ../sysdeps/posix/libc_fatal.c:156
#4  0x00007ffff7e6986a in malloc_printerr (str=str@entry=0x7ffff7f72098 \"corrupted size vs. prev_size\") at ./malloc/malloc.c:5662
#5  0x00007ffff7e6a2a1 in unlink_chunk (p=p@entry=0x5555555596b0, av=0x7ffff7fa8c60 <main_arena>) at ./malloc/malloc.c:1628
#6  0x00007ffff7e6bb0c in _int_free (av=0x7ffff7fa8c60 <main_arena>, p=0x555555559290, have_lock=<optimized out>) at ./malloc/malloc.c:4577
#7  0x00007ffff7e6df5f in __GI___libc_free (mem=<optimized out>) at ./malloc/malloc.c:3385
#8  0x0000555555555190 in table_drop (t=0x5555555592a0) at src/t.c:31
#9  0x00005555555551d0 in main () at src/t.c:40
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "heap metadata corruption detected by glibc malloc in a call from table_drop at src/t.c:31 (\"corrupted size vs. prev_size\")"
        );
        assert!(f[0].evidence.iter().any(|e| e.text == "allocator frame: #5 unlink_chunk at ./malloc/malloc.c:1628"));
    }

    #[test]
    fn chk_fail_frame_without_stderr_or_arguments() {
        // A core's backtrace: no stderr, no argument values; `__chk_fail` alone says a
        // fortified call overflowed its destination (issue #11: fortify-strcpy's core).
        let t = "\
Program received signal SIGABRT, Aborted.
(gdb) bt
#0  0x00007ffff7e5eeec in __pthread_kill_implementation ()
#1  0x00007ffff7e0ffb2 in __GI_raise ()
#2  0x00007ffff7dfa472 in __GI_abort ()
#3  0x00007ffff7e5342f in __libc_message ()
#4  0x00007ffff7eec212 in __GI___fortify_fail ()
#5  0x00007ffff7eead20 in __GI___chk_fail ()
#6  0x00007ffff7eea555 in __stpcpy_chk ()
#7  0x00005555555551ae in set_tag (p=0x5555555592a0, tag=0x555555556008) at src/fortify-strcpy.c:15
#8  0x000055555555509f in main () at src/fortify-strcpy.c:22
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message
                .starts_with("buffer overflow detected by a fortified libc call in set_tag at src/fortify-strcpy.c:15"),
            "{}",
            f[0].message
        );
        assert!(f[0].evidence.iter().any(|e| e.text == "detector: #5 __GI___chk_fail"), "{:#?}", f[0].evidence);
    }

    #[test]
    fn malloc_assertion_is_heap_corruption() {
        let t = "\
t: malloc.c:2379: sysmalloc: Assertion `(old_top == initial_top (av) && old_size == 0) || ((unsigned long) (old_size) >= MINSIZE && prev_inuse (old_top) && ((unsigned long) old_end & (pagesize - 1)) == 0)' failed.

Program received signal SIGABRT, Aborted.
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(f[0].message.starts_with("heap metadata corruption detected by glibc malloc"), "{}", f[0].message);
    }

    // Synthetic, shaped on seed 004 (Julia 1.12 BacksolveAdjoint crash, second comment) and on
    // gc_dump_queue_and_abort in Julia's src/gc-stock.c: the text is what that function
    // prints; the frame lines follow Julia's `name at file:line` crash format (reference §3.5).
    // Line numbers other than those quoted in the seed are made up.
    const JULIA_GC_ERROR: &str = "\
GC error (probable corruption)
Allocations: 48611241 (Pool: 48593405; Big: 17836); GC: 112
Array{Float32, 1}

thread 0 ptr queue:
~~~~~~~~~~ ptr queue top ~~~~~~~~~~
~~~~~~~~~~ ptr queue bottom ~~~~~~~~~~

[70211] signal 6 (-6): Aborted
in expression starting at /tmp/repro.jl:40
pthread_kill at /lib/x86_64-linux-gnu/libc.so.6 (unknown line)
raise at /lib/x86_64-linux-gnu/libc.so.6 (unknown line)
abort at /lib/x86_64-linux-gnu/libc.so.6 (unknown line)
gc_dump_queue_and_abort at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:1960
gc_mark_outrefs at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:2356 [inlined]
gc_mark_loop_serial_ at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:2500
_jl_gc_collect at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:3074
ijl_gc_collect at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:3400
ijl_gc_small_alloc at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:776
copy at ./array.jl:356 [inlined]
augmented_primal at /root/.julia/packages/LuxLib/Xq1bR/src/impl/matmul.jl:276
Allocations: 48611241 (Pool: 48593405; Big: 17836); GC: 112
";

    #[test]
    fn julia_gc_error_abort() {
        let f = run_rule(&RULE, JULIA_GC_ERROR);
        assert_eq!(f.len(), 1, "{f:#?}");
        // Which frame is the culprit (Base's `copy at ./array.jl` or the package frame above it)
        // is analyze::is_machinery's call; this rule only reports it.
        let (head, culprit) = f[0].message.split_once("; the collection was entered from ").expect("culprit named");
        assert_eq!(head, "the Julia GC found a corrupted object while marking (\"GC error (probable corruption)\")");
        assert!(
            ["copy at ./array.jl:356", "augmented_primal at /root/.julia/packages/LuxLib/Xq1bR/src/impl/matmul.jl:276"]
                .contains(&culprit),
            "{culprit}"
        );
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.text == "stderr: GC error (probable corruption)" && e.lines == Some(Span::line(1)))
        );
        assert!(f[0].evidence.iter().any(|e| e.text.starts_with("detector: #3 gc_dump_queue_and_abort")));
    }

    // Synthetic, the SIGSEGV form from seed 004: `jl_datatype_layout julia.h:1523` ←
    // `gc_mark_outrefs gc-stock.c:2356` ← … ← `ijl_gc_small_alloc gc-stock.c:776` ← `copy
    // ./array.jl:356` ← `augmented_primal LuxLib/src/impl/matmul.jl:276`.
    const JULIA_GC_SEGV: &str = "\
[70211] signal 11 (1): Segmentation fault
in expression starting at /tmp/repro.jl:40
jl_datatype_layout at /cache/build/builder/julia-release-1-dot-12/src/julia.h:1523 [inlined]
gc_mark_outrefs at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:2356 [inlined]
gc_mark_loop_serial_ at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:2500
gc_mark_loop_serial at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:2523
_jl_gc_collect at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:3074
ijl_gc_collect at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:3400
ijl_gc_small_alloc at /cache/build/builder/julia-release-1-dot-12/src/gc-stock.c:776
copy at ./array.jl:356 [inlined]
augmented_primal at /root/.julia/packages/LuxLib/Xq1bR/src/impl/matmul.jl:276
Allocations: 48611241 (Pool: 48593405; Big: 17836); GC: 112
";

    #[test]
    fn julia_segv_in_gc_mark_is_heuristic() {
        let f = run_rule(&RULE, JULIA_GC_SEGV);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert!(
            f[0].message.starts_with(
                "crash (SIGSEGV) in jl_datatype_layout while Julia's GC was marking (gc_mark_outrefs): probable heap corruption, an object with a garbage type tag; the collection was entered from "
            ),
            "{}",
            f[0].message
        );
        assert!(f[0].heuristic);
        assert_eq!(f[0].severity, Severity::Warning);
        // A SIGSEGV in ordinary Julia code (seed 001's deserializer crash) is not GC corruption.
        let other = "\
signal (11): Segmentation fault
in expression starting at none:1
jl_deserialize_value_singleton at /cache/build/default-amdci5-5/julialang/julia-release-1-dot-8/src/dump.c:1941 [inlined]
jl_deserialize_value at /cache/build/default-amdci5-5/julialang/julia-release-1-dot-8/src/dump.c:2160
";
        assert!(run_rule(&RULE, other).is_empty());
    }

    #[test]
    fn segv_in_malloc_internals() {
        let t = "\
Program received signal SIGSEGV, Segmentation fault.
_int_malloc (av=av@entry=0x7ffff7fa8c60 <main_arena>, bytes=bytes@entry=40) at ./malloc/malloc.c:4289
(gdb) bt
#0  _int_malloc (av=av@entry=0x7ffff7fa8c60 <main_arena>, bytes=bytes@entry=40) at ./malloc/malloc.c:4289
#1  0x00007ffff7e6e0c2 in __GI___libc_malloc (bytes=40) at ./malloc/malloc.c:3329
#2  0x00005555555551b9 in node_new (key=3) at src/t.c:12
#3  0x0000555555555230 in main () at src/t.c:30
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 1, _sifields = {_sigfault = {si_addr = 0x4141414141414151}}}
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "crash (SIGSEGV) inside the allocator (_int_malloc): probable heap metadata corruption, or a bad pointer passed to it; called from node_new at src/t.c:12"
        );
        assert!(f[0].heuristic);
    }
}
