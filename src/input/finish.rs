//! Finishing a parse: the crashed thread of each stop, the architecture, generic register
//! names, the typed text fields, the limit notes.

use super::*;
use std::borrow::Cow;

impl Builder {
    pub(super) fn finish_lines(mut self, ends_with_newline: bool) -> Parsed {
        // A trailing newline does not make an extra line.
        if ends_with_newline {
            self.diag.lines_total = self.diag.lines_total.saturating_sub(1);
            self.diag.lines_recognized = self.diag.lines_recognized.saturating_sub(1);
        }
        self.finish()
    }

    pub(super) fn finish(mut self) -> Parsed {
        let last = self.diag.lines_total;
        self.end_frame_cont(last + 1);
        self.flush_locals();
        // A paste that ends at gdb's pager prompt: the text before it is the last line.
        if let Some(head) = self.pager_head.take() {
            let n = self.diag.lines_total;
            if !self.line(&head, n) {
                self.diag.lines_recognized = self.diag.lines_recognized.saturating_sub(1);
                self.unrecognized(&head, n);
            }
        }
        if let Some(p) = self.pending_print.take() {
            self.finish_print(p);
        }
        lldb::flush_pending_frame(&mut self);
        julia::finish(&mut self);
        // Abort text printed before a stop that never got a reason line (the program's stderr,
        // then `(gdb) bt` with no `Program received signal`): it explains the last stop, when
        // that stop holds frames and nothing came after it.
        if !self.pending_messages.is_empty()
            && let Some(st) = self.trace.stops.last_mut()
            && st.reason.kind == StopKind::Unknown
            && st.threads.iter().any(|t| !t.frames.is_empty())
            && self.pending_messages.first().is_some_and(|m| m.span.first <= st.span.first.max(1))
        {
            let msgs = std::mem::take(&mut self.pending_messages);
            st.messages.splice(0..0, msgs);
        }
        // Nothing but the program's abort text and the shell's verdict on it (`malloc():
        // unaligned tcache chunk detected`, then `Aborted (core dumped)` or fish's `terminated
        // by signal SIGABRT`): the process died of that signal, explained by that text. glibc's
        // heap checks, libstdc++'s terminate and assert() always abort.
        if self.trace.stops.is_empty() && !self.pending_messages.is_empty() {
            use crate::messages::{MessageKind as K, classify};
            let verdict = self.pending_messages.iter().find_map(|m| {
                let t = m.text.trim();
                super::shell::shell_verdict_signal(t).or_else(|| super::shell::shell_job_signal(t)).or_else(|| {
                    super::shell::script_job_report(t)
                        .and_then(|d| crate::model::signals::from_description(d.trim_end_matches('.')))
                        .and_then(crate::model::signals::signo)
                })
            });
            let aborts = self.pending_messages.iter().any(|m| {
                matches!(
                    classify(m.text.trim()),
                    Some(K::HeapCorruption | K::UncaughtException | K::Assertion | K::StackSmashing | K::FortifyFail)
                )
            });
            if aborts
                || verdict.is_some()
                    && self.pending_messages.iter().any(|m| crate::messages::is_abort_message(m.text.trim()))
            {
                let signo = verdict.unwrap_or(6);
                let first = self.pending_messages.first().map(|m| m.span).unwrap_or_default();
                let reason = StopReason {
                    kind: StopKind::Signal,
                    signo: Some(signo),
                    signal: crate::model::signals::name(signo).map(Into::into),
                    span: first,
                    ..Default::default()
                };
                let si = self.push_stop(reason);
                let msgs = std::mem::take(&mut self.pending_messages);
                self.trace.stops[si].messages = msgs;
            }
        }
        // A lone `p $_siginfo._sifields._sigfault.si_addr` is the fault address when the kernel
        // reported a page fault (si_code > 0, not SI_KERNEL), as a whole `p $_siginfo` is.
        for (si, a) in std::mem::take(&mut self.printed_si_addr) {
            if let Some(r) = self.trace.stops.get_mut(si).map(|s| &mut s.reason)
                && r.address.is_none()
                && r.si_code.is_some_and(|c| c > 0 && c != crate::model::signals::SI_KERNEL)
                && r.signo.is_some_and(crate::model::signals::has_fault_address)
            {
                r.address = Some(Address(a));
            }
        }
        // gdb's `info proc mappings` of a core lists the NT_FILE note: file-backed mappings
        // only, without a Perms column. Each row is true, but the stacks, the heap and every
        // anonymous mapping are missing, so together they are no map of the process: an address
        // in none of them is not thereby unmapped. They are kept as single regions (as lldb's
        // `memory region` rows are).
        if self.formats_has(Format::Core)
            && !self.trace.mappings.is_empty()
            && self.trace.mappings.iter().all(|m| m.perms.is_none() && m.path.as_deref().is_some_and(|p| !p.is_empty()))
        {
            let rows = std::mem::take(&mut self.trace.mappings);
            self.trace.regions.extend(rows);
        }
        self.finish_limits();
        let mut formats = Vec::new();
        for f in Format::ALL {
            if self.formats & (1 << (f as u8)) != 0 {
                formats.push(f);
            }
        }
        self.trace.formats = formats;
        for si in 0..self.trace.stops.len() {
            let loc = self.stop_location.get(si).cloned().flatten();
            let stop = &mut self.trace.stops[si];
            // A reader may have known it already (lldb's `EXC_BREAKPOINT` is the program's own
            // trap instruction by definition).
            stop.reason.trap_shown = stop.reason.trap_shown || trap_instruction_shown(stop);
            // A backtrace without a stop line (`bt` of a core whose banner was not pasted): a
            // signal handler's frame above `<signal handler called>` names the fault or abort it
            // was called for (`crash (sig=6, …)`).
            if stop.reason.kind == StopKind::Unknown
                && let Some(signo) = stop.threads.iter().find_map(|t| {
                    let tramp = t.frames.iter().position(|f| f.signal_handler)?;
                    // (The frames' typed arguments are attached after this pass: read them here.)
                    let args = t.frames.get(tramp.checked_sub(1)?)?.args.as_deref()?;
                    arg_facts(args).int_args.iter().find_map(|(name, v)| {
                        let named =
                            matches!(&**name, "sig" | "signo" | "signum" | "sig_num" | "signal" | "sig_no" | "signr");
                        (named && (1..=64).contains(v)).then_some(*v as i32)
                    })
                })
                // Only a fault or an abort: a handler of another signal may have stopped for a
                // reason of its own.
                && matches!(signo, 4 | 6 | 7 | 8 | 11)
            {
                stop.reason.kind = StopKind::Signal;
                stop.reason.signo = Some(signo);
                stop.reason.signal = crate::model::signals::name(signo).map(Into::into);
            }
            pick_crashed_thread(stop, loc);
            // A breakpoint, watchpoint or non-fault signal stops a thread; nothing crashed.
            if stop.reason.is_non_crash() {
                let had_current = stop.threads.iter().any(|t| t.current);
                for t in &mut stop.threads {
                    if std::mem::take(&mut t.crashed) && !had_current {
                        t.current = true;
                    }
                }
            }
        }
        type_text_fields(&mut self.trace);
        self.trace.mappings.sort_by_key(|m| (m.start, m.end));
        self.trace.mappings.dedup_by(|a, b| a.start == b.start && a.end == b.end);
        if self.trace.arch == Arch::Unknown {
            self.trace.arch = infer_arch(&self.trace);
        }
        // A Go crash header's `pc=` (`[signal SIGSEGV: … pc=0x482d90]`, `PC=0x…`) is the
        // crashing thread's pc when no register dump was printed.
        if self.formats_has(Format::Go) {
            let pc_name = self.trace.arch.pc_register();
            for si in 0..self.trace.stops.len() {
                let Some(pc) = self.stop_location.get(si).cloned().flatten().and_then(|l| l.pc) else { continue };
                let st = &mut self.trace.stops[si];
                let Some(ti) = st.threads.iter().position(|t| t.crashed) else { continue };
                let set = st.threads[ti].registers.entry(0).or_default();
                if set.regs.is_empty() {
                    let span = st.reason.span;
                    set.span = span;
                    set.set(Register { name: pc_name.into(), value: Some(pc), natural: None, span });
                }
            }
        }
        if self.trace.arch == Arch::X86_64 {
            rename_generic_registers(&mut self.trace);
        }
        if self.dropped_frames > 0 {
            let msg = format!(
                "{} frames beyond the limit of {} per thread were dropped",
                self.dropped_frames, self.limits.max_frames_per_thread
            );
            self.note(None, msg);
        }
        if self.dropped_registers > 0 {
            // Not subject to the cap on notes: it says the result is partial.
            self.diag.notes.push(Note {
                line: None,
                message: format!(
                    "{}{} register lines beyond {} distinct names in one frame were ignored",
                    stream::LIMIT_NOTE,
                    self.dropped_registers,
                    crate::model::MAX_REGISTERS
                ),
            });
        }
        Parsed { trace: self.trace, diagnostics: self.diag }
    }
}

/// A SIGTRAP with no `si_code` printed whose frame-#0 disassembly shows the trap instruction:
/// `int3` (`int $0x3`) immediately before the marked pc (x86 reports the pc after it), or `brk`
/// at the marked pc (AArch64 reports the `brk` itself). The marked instruction (`=>`, `->`)
/// is the pc, and the one before it must end exactly there (`int3` at pc - 1, `int $0x3` at
/// pc - 2).
fn trap_instruction_shown(stop: &Stop) -> bool {
    let r = &stop.reason;
    let sigtrap = r.signal.as_deref() == Some("SIGTRAP") || r.signo == Some(5);
    if r.kind != StopKind::Signal || !sigtrap || r.si_code.is_some() {
        return false;
    }
    let mnemonic = |i: &Instruction| {
        let t = i.text.trim_start();
        let m = t.split_whitespace().next().unwrap_or("");
        let operands = t[m.len()..].trim();
        (m.to_ascii_lowercase(), operands.to_string())
    };
    let insns = &stop.disassembly;
    let Some(cur) = insns.iter().position(|i| i.current && i.frame == 0) else { return false };
    let (m, _) = mnemonic(&insns[cur]);
    if m == "brk" {
        return true;
    }
    let Some(prev) = cur.checked_sub(1).map(|p| &insns[p]) else { return false };
    let (pm, ops) = mnemonic(prev);
    // `int3` is one byte (cc), `int $0x3` two (cd 03).
    let len = match (pm.as_str(), ops.as_str()) {
        ("int3", _) => 1,
        ("int", "$0x3" | "3" | "0x3" | "3h") => 2,
        _ => return false,
    };
    prev.frame == 0 && prev.address.0.checked_add(len) == Some(insns[cur].address.0)
}

/// Marks the thread a stop happened on, when no stop line named it: the one whose frame 0 is
/// the printed stop location, else `info threads`' current one, else the only one, else 1.
pub(super) fn pick_crashed_thread(stop: &mut Stop, loc: Option<GdbOwnedLocation>) {
    if stop.threads.iter().any(|t| t.crashed) {
        return;
    }
    if !matches!(
        stop.reason.kind,
        StopKind::Signal | StopKind::Breakpoint | StopKind::Watchpoint | StopKind::RuntimeError
    ) {
        return;
    }
    let frame0 = |t: &Thread| t.frames.first().filter(|f| f.index == 0).cloned();
    let by_loc = loc.as_ref().and_then(|loc| {
        // Threads can share a pc (workers in the same loop): `info threads`' current one first.
        let at_pc = |pc: u64, t: &Thread| frame0(t).is_some_and(|f| f.pc == Some(Address(pc)));
        let by_pc = loc.pc.and_then(|pc| {
            (stop.threads.iter().position(|t| t.current && at_pc(pc, t)))
                .or_else(|| stop.threads.iter().position(|t| at_pc(pc, t)))
        });
        by_pc.or_else(|| {
            let same_fn = |t: &Thread| frame0(t).is_some_and(|f| f.function.is_some() && f.function == loc.function);
            let exact = |t: &Thread| frame0(t).is_some_and(|f| f.file == loc.file && f.line == loc.line);
            stop.threads.iter().position(|t| same_fn(t) && exact(t)).or_else(|| stop.threads.iter().position(same_fn))
        })
    });
    let pick = by_loc
        .or_else(|| stop.threads.iter().position(|t| t.current))
        .or(if stop.threads.len() == 1 { Some(0) } else { None })
        .or_else(|| stop.threads.iter().position(|t| &*t.id == "1"));
    match pick {
        Some(i) => {
            stop.threads[i].crashed = true;
            // The stop location is frame #0: it heads a backtrace that starts at #1 (the
            // location line was the first line of the backtrace the user pasted).
            if stop.threads[i].frames.first().is_none_or(|f| f.index > 0)
                && let Some(loc) = loc
            {
                stop.threads[i].frames.insert(0, location_frame(loc));
            }
        }
        None => {
            // Only the stop location was printed (a core without `bt`).
            if let Some(loc) = loc {
                let span = loc.span;
                stop.threads.push(Thread {
                    id: "1".into(),
                    crashed: true,
                    frames: vec![location_frame(loc)],
                    span,
                    ..Default::default()
                });
            }
        }
    }
}

pub(super) fn location_frame(loc: GdbOwnedLocation) -> Frame {
    Frame {
        index: 0,
        pc: loc.pc.map(Address),
        function: loc.function,
        args: loc.args,
        file: loc.file,
        line: loc.line,
        module: loc.module,
        span: loc.span,
        ..Default::default()
    }
}

pub(super) fn merge_frame(old: &mut Frame, f: Frame) {
    if f.pc.is_some() {
        old.pc = f.pc;
    }
    if f.function.is_some() {
        old.function = f.function;
    }
    if f.args.is_some() {
        old.args = f.args;
    }
    if f.file.is_some() {
        old.file = f.file;
        old.line = f.line;
    }
    if f.module.is_some() {
        old.module = f.module;
    }
    old.inlined |= f.inlined;
    old.signal_handler |= f.signal_handler;
    if f.locals.is_some() && old.locals.is_none() {
        old.locals = f.locals;
    }
}

/// `p $pc` before any register dump is stored as `pc`; on x86-64 it is `rip`.
pub(super) fn rename_generic_registers(t: &mut Trace) {
    for s in &mut t.stops {
        for th in &mut s.threads {
            for set in th.registers.values_mut() {
                let x = &crate::arch::x86_64::TABLE;
                for (generic, real) in [("pc", x.pc), ("sp", x.sp), ("fp", x.fp)] {
                    if let Some(i) = set.regs.iter().position(|r| &*r.name == generic) {
                        if set.reg(real).is_some() {
                            set.regs.remove(i);
                        } else {
                            set.regs[i].name = Arc::from(real);
                        }
                    }
                }
            }
        }
    }
}

/// The thread number at the start of `2 (Thread 0x… (LWP 5))]`.
pub(super) fn thread_id_prefix(r: &str) -> &str {
    let d = r.bytes().take_while(|b| b.is_ascii_digit() || *b == b'.').count();
    &r[..d]
}

/// `name = value` as `info locals` prints it (also C++ `this`, `std::x`, `<anon>`).
pub(super) fn is_local_line(l: &str) -> bool {
    let Some(p) = l.find(" = ") else { return false };
    let name = &l[..p];
    !name.is_empty()
        && name.len() < 200
        && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_' || c == '<' || c == '$')
        && !name.contains(['(', '"', '\t', '#'])
}

/// The start of a value: what follows a `warning:` gdb printed in place of a local's value.
pub(super) fn looks_like_value(l: &str) -> bool {
    let t = l.trim_start();
    t.starts_with(['{', '<', '"', '@', '\'', '-', '['])
        || t.starts_with("0x")
        || t.starts_with(|c: char| c.is_ascii_digit())
}

/// Whether `b` holds a `{` or `}` (what `memchr2(b'{', b'}', b).is_some()` says): one SSE2
/// pass (the last 16 bytes overlapping) for 16 bytes or more, a byte loop below. On every
/// `bt full` local of a big transcript, where memchr2's call and set-up cost more than the
/// short scan (10 M instructions on a 10 MB transcript).
#[inline]
pub(super) fn has_brace(b: &[u8]) -> bool {
    #[cfg(target_arch = "x86_64")]
    if b.len() >= 16 {
        use std::arch::x86_64::*;
        // SAFETY: SSE2 is part of x86-64; every load reads 16 bytes inside `b`.
        unsafe {
            #[inline(always)]
            unsafe fn flags(p: *const u8) -> __m128i {
                unsafe {
                    let v = _mm_loadu_si128(p.cast());
                    _mm_or_si128(
                        _mm_cmpeq_epi8(v, _mm_set1_epi8(b'{' as i8)),
                        _mm_cmpeq_epi8(v, _mm_set1_epi8(b'}' as i8)),
                    )
                }
            }
            return super::lexemes::sse2_any(b, b.len(), |p| flags(p));
        }
    }
    b.iter().any(|&c| c == b'{' || c == b'}')
}

pub(super) fn brace_depth(s: &str) -> i32 {
    // Outside strings only `"`, `{` and `}` count; inside, a backslash skips the next byte
    // and `"` closes. On x86-64, 16 bytes at a time with SSE2: outside a string the braces
    // before the first `"` of a block are counted at once, inside one the walk jumps to the
    // next `"` or backslash; the last < 16 bytes (and everything elsewhere) go through
    // `brace_depth_from`.
    let b = s.as_bytes();
    let (mut d, mut in_str, mut i) = (0i32, false, 0usize);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        #[inline(always)]
        fn eq_mask(v: __m128i, c: u8) -> u32 {
            // SAFETY: SSE2 is part of x86-64.
            unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))) as u32 }
        }
        while i + 16 <= b.len() {
            // SAFETY: SSE2 is part of x86-64; the load reads b[i..i + 16].
            let v = unsafe { _mm_loadu_si128(b.as_ptr().add(i).cast()) };
            let quote = eq_mask(v, b'"');
            if in_str {
                let stop = quote | eq_mask(v, b'\\');
                if stop == 0 {
                    i += 16;
                    continue;
                }
                let p = stop.trailing_zeros() as usize;
                if quote & (1 << p) != 0 {
                    in_str = false;
                    i += p + 1;
                } else {
                    i += p + 2;
                }
            } else {
                let (open, close) = (eq_mask(v, b'{'), eq_mask(v, b'}'));
                if quote == 0 {
                    d += open.count_ones() as i32 - close.count_ones() as i32;
                    i += 16;
                    continue;
                }
                let p = quote.trailing_zeros();
                let before = (1u32 << p) - 1;
                d += (open & before).count_ones() as i32 - (close & before).count_ones() as i32;
                in_str = true;
                i += p as usize + 1;
            }
        }
    }
    brace_depth_from(b, i, d, in_str)
}

/// The walk of [`brace_depth`] from byte `i` on, with depth `d` and string state `in_str`
/// so far: eight bytes without a `"`, `{`, `}` (in a string: `"`, backslash) are stepped
/// over at once (SWAR; each byte test is exact), the rest byte by byte.
fn brace_depth_from(b: &[u8], mut i: usize, mut d: i32, mut in_str: bool) -> i32 {
    let n = b.len();
    while i < n {
        while i + 8 <= n {
            let x = u64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
            let m = if in_str {
                swar_eq(x, b'"') | swar_eq(x, b'\\')
            } else {
                swar_eq(x, b'"') | swar_eq(x, b'{') | swar_eq(x, b'}')
            };
            if m != 0 {
                i += (m.trailing_zeros() / 8) as usize;
                break;
            }
            i += 8;
        }
        let Some(&c) = b.get(i) else { break };
        if in_str {
            if c == b'\\' {
                i += 2;
                continue;
            }
            if c == b'"' {
                in_str = false;
            }
        } else {
            match c {
                b'"' => in_str = true,
                b'{' => d += 1,
                b'}' => d -= 1,
                _ => {}
            }
        }
        i += 1;
    }
    d
}

/// 0x80 in each byte of `x` equal to `c`, 0 elsewhere (exact per byte: no carry crosses
/// bytes).
#[inline(always)]
pub(super) fn swar_eq(x: u64, c: u8) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let t = x ^ (0x0101_0101_0101_0101 * c as u64);
    !(((t & LOW7) + LOW7) | t) & !LOW7
}

pub(crate) fn fill_signal(reason: &mut StopReason, signal: &str, desc: &str) {
    let (name, no) = if let Ok(no) = signal.parse::<i32>() {
        (crate::model::signals::name(no).map(str::to_string), Some(no))
    } else {
        (Some(signal.to_string()), crate::model::signals::signo(signal))
    };
    reason.signal = name.map(|s| Arc::from(s.as_str()));
    reason.signo = no;
    if !desc.is_empty() {
        reason.description = Some(desc.into());
    }
}

/// Architecture from register names, else from instruction syntax.
pub(super) fn infer_arch(t: &Trace) -> Arch {
    // Register names, most distinctive first (`r13`, `pc`, `lr` and `sp` exist on several).
    let names: FxHashSet<&str> = t
        .stops
        .iter()
        .flat_map(|s| s.threads.iter())
        .flat_map(|th| th.registers.values())
        .flat_map(|set| set.regs.iter())
        .map(|r| &*r.name)
        .collect();
    let has = |n: &str| names.contains(n);
    if has("pswm") || has("pswa") {
        return Arch::S390x;
    }
    if has("msr") && (has("ctr") || has("xer") || has("cr")) {
        return Arch::Ppc64;
    }
    if has("eip") || (has("eax") && !has("rax")) {
        return Arch::X86;
    }
    if has("rip") || has("rax") || has("rsp") || has("eflags") {
        return Arch::X86_64;
    }
    if has("x0") || has("x20") || has("x29") || has("x30") || has("cpsr") {
        return Arch::Aarch64;
    }
    if has("ra") && (has("a0") || has("t0") || has("gp") || has("tp")) {
        return Arch::Riscv64;
    }
    if has("r13") && !has("lr") && !has("cpsr") {
        return Arch::X86_64;
    }
    // Instruction syntax: 64-bit registers anywhere mean x86-64 (32-bit names appear in
    // x86-64 code too).
    let insns = || t.stops.iter().flat_map(|s| s.disassembly.iter()).map(|i| &*i.text);
    if insns().any(|t| t.contains("%r") || t.contains("rip") || t.contains("qword ptr") || t.contains("xmm")) {
        return Arch::X86_64;
    }
    if insns().any(|t| t.contains("%e") || t.contains("dword ptr [e")) {
        return Arch::X86;
    }
    if insns().any(|t| {
        t.contains(" x0") || t.contains(", x") || t.starts_with("ldr") || t.starts_with("stp") || t.starts_with("bl ")
    }) {
        return Arch::Aarch64;
    }
    // A library's or source file's path that names the architecture: Debian's multiarch
    // directories (`/lib/aarch64-linux-gnu/libLLVM-14.so.1`) and glibc's per-architecture
    // sources (`../sysdeps/unix/sysv/linux/i386/clone.S`).
    const TRIPLES: &[(&str, Arch)] = &[
        ("/aarch64-linux-gnu/", Arch::Aarch64),
        ("/x86_64-linux-gnu/", Arch::X86_64),
        ("/i386-linux-gnu/", Arch::X86),
        ("/riscv64-linux-gnu/", Arch::Riscv64),
        ("/powerpc64le-linux-gnu/", Arch::Ppc64),
        ("/s390x-linux-gnu/", Arch::S390x),
        ("/sysv/linux/aarch64/", Arch::Aarch64),
        ("/sysv/linux/x86_64/", Arch::X86_64),
        ("/sysv/linux/i386/", Arch::X86),
    ];
    let paths = || {
        t.stops
            .iter()
            .flat_map(|s| s.threads.iter())
            .flat_map(|th| th.frames.iter())
            .flat_map(|f| [f.module.as_deref(), f.file.as_deref()])
            .flatten()
    };
    for p in paths() {
        if let Some((_, a)) = TRIPLES.iter().find(|(d, _)| p.contains(d)) {
            return *a;
        }
    }
    // Addresses above 2^47 with 0x7f… are x86-64 user space; AArch64 user space is 0xffff….
    for s in &t.stops {
        for th in &s.threads {
            for f in &th.frames {
                if let Some(pc) = f.pc {
                    if (0x7f00_0000_0000..0x8000_0000_0000).contains(&pc.0)
                        || (0x5500_0000_0000..0x5700_0000_0000).contains(&pc.0)
                    {
                        return Arch::X86_64;
                    }
                    if (0xffff_0000_0000..0x1_0000_0000_0000).contains(&pc.0) {
                        return Arch::Aarch64;
                    }
                }
            }
        }
    }
    Arch::Unknown
}

/// `Backtrace stopped: …` as a typed reason.
pub(super) fn backtrace_stop(r: &str) -> BacktraceStop {
    if let Some(a) = r.strip_prefix("Cannot access memory at address ") {
        return lexemes::parse_hex(a.trim()).map_or(BacktraceStop::Other, |addr| BacktraceStop::Memory(Address(addr)));
    }
    if r.contains("corrupt stack") { BacktraceStop::CorruptStack } else { BacktraceStop::Other }
}

/// Parses, once, the text the rules need typed: each message's kind and parts, the symbols in
/// printed values and a Julia `ERROR:` description; each frame's arguments (C strings with
/// what they say, decimal integers, NULL pointers, `0x… <sym>`) are typed by [`arg_facts`]
/// on their first read (`Frame::arg_facts`): a rule looks at a few frames of a
/// `thread apply all bt`, and typing every frame was a third of a big transcript's parse.
/// Each thread's frame list is cut to its length first (a `Vec` grown by pushes holds up to
/// twice its frames; the TUI keeps the model of a big file, see docs/tui.md).
pub(super) fn type_text_fields(trace: &mut Trace) {
    for stop in &mut trace.stops {
        for m in &mut stop.messages {
            crate::messages::typed(m);
        }
        // A signal stop whose report names no signal (a program's own handler printed the
        // frames): the handler's psiginfo line says which fault it was.
        if stop.reason.kind == StopKind::Signal
            && stop.reason.signo.is_none()
            && let Some(f) = stop.messages.iter().find_map(|m| m.fault.filter(|f| f.signo != 0))
        {
            let r = &mut stop.reason;
            r.signo = Some(f.signo);
            r.signal = crate::model::signals::name(f.signo).map(Into::into);
            r.si_code = r.si_code.or(f.si_code);
            r.address = r.address.or(f.address.map(Address));
        }
        if stop.reason.kind == StopKind::RuntimeError
            && let Some(d) = stop.reason.description.as_deref()
        {
            stop.reason.julia_error = Some(crate::messages::julia_error(d));
        }
        for p in &mut stop.printed {
            p.symbols = addr_symbols(&p.value);
            p.shows_si_addr = p.value.contains("si_addr");
            p.words = lexemes::hex_numbers(&p.value);
        }
        for th in &mut stop.threads {
            th.frames.shrink_to_fit();
            for f in &mut th.frames {
                if f.args.is_some() {
                    f.arg_facts = ArgFactsCell::typed_by(arg_facts);
                }
            }
        }
    }
}

/// The typed facts of one argument list (a frame's `args`): its C strings with what they
/// say, and, from one walk over its parts, the integer, NULL and entry-value arguments, and
/// every `0x… <sym>`. Each vector holds exactly its items.
pub fn arg_facts(a: &str) -> ArgFacts {
    let mut strings = Vec::new();
    lexemes::string_args_into(a, &mut strings);
    let string_args = exact(strings.drain(..).map(|(n, v)| StringArg {
        name: n.into(),
        detail: crate::messages::detail(&v),
        text: match v {
            Cow::Borrowed(v) => v.into(),
            Cow::Owned(v) => v.into_boxed_str(),
        },
    }));
    // One walk over the list gives the integer, NULL and entry-value arguments.
    let mut t = lexemes::TypedArgs::default();
    lexemes::typed_args_into(a, &mut t);
    ArgFacts {
        string_args,
        int_args: exact(t.ints.iter().map(|&(n, v)| (Sym::from(n), v))),
        null_args: exact(t.nulls.iter().map(|&n| Sym::from(n))),
        entry_values: exact(t.entry_values.drain(..)),
        arg_symbols: exact(addr_symbols(a).into_iter()),
        fn_args: fn_args(a),
        this_ptr: this_pointer(a),
    }
}

/// The value of a `this=0x…` argument (`Cls::m (this=0x0, n=2)`), split at the list's
/// top-level commas.
fn this_pointer(args: &str) -> Option<u64> {
    let mut depth = 0i32;
    let mut start = 0usize;
    let mut fields: Vec<&str> = Vec::new();
    for (i, c) in args.bytes().enumerate() {
        match c {
            b'(' | b'{' | b'[' | b'<' => depth += 1,
            b')' | b'}' | b']' | b'>' => depth = (depth - 1).max(0),
            b',' if depth == 0 => {
                fields.push(&args[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    fields.push(&args[start..]);
    let v = fields.iter().find_map(|a| a.trim().strip_prefix("this="))?;
    let hex = v.trim().strip_prefix("0x")?;
    let end = hex.find(|c: char| !c.is_ascii_hexdigit()).unwrap_or(hex.len());
    if end == 0 || !hex[end..].trim().is_empty() {
        return None;
    }
    u64::from_str_radix(&hex[..end], 16).ok()
}

/// The function-pointer arguments of a list and the functions they name: gdb's
/// `main=main@entry=0x555555555139 <main>` or `cb=0x401126 <handler>` (a symbol without an
/// offset), lldb's `main=(prog\`main at prog.c:9:1)`.
fn fn_args(a: &str) -> Vec<(Sym, Sym)> {
    let mut out = Vec::new();
    for part in a.split(", ") {
        let Some((name, value)) = part.split_once('=') else { continue };
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            continue;
        }
        let function = if let Some(inner) = value.strip_prefix('(').and_then(|v| v.strip_suffix(')')) {
            // lldb: `(module`function at file:line:col)` or `(module`function)`
            inner.split_once('`').map(|(_, f)| f.split(" at ").next().unwrap_or(f))
        } else {
            // gdb: `[name@entry=]0x… <function>`, no `+offset`
            value.rsplit_once(" <").and_then(|(_, f)| f.strip_suffix('>')).filter(|f| !f.contains('+'))
        };
        if let Some(f) = function.filter(|f| !f.is_empty() && !f.contains(char::is_whitespace)) {
            out.push((Sym::from(name), Sym::from(f)));
        }
    }
    out
}

/// A `Vec` holding exactly these items. `collect` from a `Vec`'s `into_iter` may reuse the
/// source's allocation (grown by pushes, with room to spare, and sized for the source's
/// bigger items), which the model would then keep for every frame.
fn exact<T>(items: impl ExactSizeIterator<Item = T>) -> Vec<T> {
    let mut v = Vec::with_capacity(items.len());
    v.extend(items);
    v
}

/// `addr_symbols` with typed addresses.
fn addr_symbols(text: &str) -> Vec<(Address, SymbolRef)> {
    crate::model::symbols::addr_symbols(text).into_iter().map(|(a, s)| (Address(a), s)).collect()
}

#[cfg(test)]
mod brace_depth_tests {
    use super::{brace_depth, has_brace};
    use proptest::prelude::*;

    /// `has_brace` says what memchr2 says: every byte value at every position, short and long.
    #[test]
    fn has_brace_matches_memchr2() {
        for len in [0, 1, 7, 15, 16, 17, 31, 32, 33, 47] {
            for filler in [b'a', b' ', b'{', b'}'] {
                for pos in 0..len {
                    for v in 0..=255u8 {
                        let mut line = vec![filler; len];
                        line[pos] = v;
                        assert_eq!(has_brace(&line), memchr::memchr2(b'{', b'}', &line).is_some(), "{line:?}");
                    }
                }
            }
        }
    }

    /// `brace_depth` as it was before the SWAR steps: one byte at a time.
    fn brace_depth_ref(s: &str) -> i32 {
        let mut d = 0;
        let mut in_str = false;
        let mut esc = false;
        for b in s.bytes() {
            if in_str {
                if esc {
                    esc = false;
                } else if b == b'\\' {
                    esc = true;
                } else if b == b'"' {
                    in_str = false;
                }
                continue;
            }
            match b {
                b'"' => in_str = true,
                b'{' => d += 1,
                b'}' => d -= 1,
                _ => {}
            }
        }
        d
    }

    #[test]
    fn real_locals() {
        for (s, d) in [
            ("snapshot = {id = 194, label = 0x5558 \"bench\", origin = {x = 194, y = -194}}", 0),
            ("buf = \"even-branch\\000\\000\\\"{\\000\"", 0),
            ("v = {a = 1, b = {", 2),
            ("}}", -2),
            ("s = \"}}}}}}}}}}}}}}}}\\", 0),
            ("x = \"abc\\", 0),
        ] {
            assert_eq!(brace_depth(s), d, "{s}");
            assert_eq!(brace_depth_ref(s), d, "{s}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]
        #[test]
        fn same_as_byte_walk(v in proptest::collection::vec(proptest::sample::select(
            &["{", "}", "\"", "\\", "\\\"", "a", "        ", "x = ", "é", "\\000", "{}", "\"}\""][..]), 0..40)) {
            let s = v.concat();
            prop_assert_eq!(brace_depth(&s), brace_depth_ref(&s));
        }
    }
}

#[cfg(test)]
mod fn_args_tests {
    use super::fn_args;

    #[test]
    fn gdb_and_lldb_function_pointer_arguments() {
        // lldb 14 (crashers/jit-null.lldb.txt) and gdb 13.
        let l = fn_args("main=(jit-null`main at jit-null.c:9:1), argc=1, argv=0x00007fffffffed88");
        assert_eq!(l.len(), 1);
        assert_eq!((&*l[0].0, &*l[0].1), ("main", "main"));
        let g = fn_args("main=main@entry=0x555555555139 <main>, argc=argc@entry=1, argv=0x7fffffffe4a8");
        assert_eq!(g.iter().map(|(a, f)| (&**a, &**f)).collect::<Vec<_>>(), [("main", "main")]);
        // Not a function: an offset into one, a string, a data pointer without a symbol.
        assert!(fn_args("p=0x401136 <table+16>, s=0x4020 \"text\", q=0x7ffff7fbf000").is_empty());
    }
}
