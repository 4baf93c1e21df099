//! Faults a program's own signal handler caught before it ended the process.
//!
//! A program that installs a SIGSEGV handler (to log, then `abort()`) stops in the debugger at
//! the handler's SIGABRT: frame #0 is `abort`'s `pthread_kill`, the handler is below
//! `<signal handler called>`, and the real fault is the frame above the trampoline. The rules
//! reason about frame #0 and the stop's signal, so they run on a *view* of such a stop: the
//! crashed thread starts at the interrupted frame (renumbered from 0, with its registers if the
//! transcript has them), and the stop's reason is the fault the handler reported — its signal
//! from the handler's `sig=11` argument or the `psiginfo`/`strsignal` line, its address and
//! `si_code` from the `psiginfo` line (`fatal: Segmentation fault (Address not mapped to
//! object [0x28])`) or an address printed beside the signal's name. Findings made on the view
//! are mapped back to the real frame numbers and say which handler caught the fault.

use crate::model::signals::{SEGV_ACCERR, SEGV_MAPERR};
use crate::model::*;
use crate::roles::interrupted_frame;
use std::collections::BTreeMap;

/// One stop replaced by its handled-fault view.
pub(crate) struct View {
    pub stop: usize,
    pub thread: String,
    /// gdb's number of the interrupted frame: view frame `n` is real frame `n + offset`.
    pub offset: u32,
    /// `on_fault (frame #4) caught SIGSEGV …` evidence, with the lines it rests on.
    pub evidence: String,
    pub span: Option<Span>,
}

const FAULT_SIGNALS: &[(&str, &str, i32)] = &[
    ("Segmentation fault", "SIGSEGV", 11),
    ("Bus error", "SIGBUS", 7),
    ("Illegal instruction", "SIGILL", 4),
    ("Floating point exception", "SIGFPE", 8),
    ("Arithmetic exception", "SIGFPE", 8),
];

/// The signal a handler frame received, from its typed arguments (`sig=11`, `signum=11`).
fn handler_signo(f: &Frame) -> Option<i32> {
    f.int_args()
        .iter()
        .find(|(k, _)| matches!(&**k, "sig" | "signum" | "signo" | "signal" | "signr" | "sign"))
        .and_then(|(_, v)| i32::try_from(*v).ok())
}

/// What a handler's message line says: signal, si_code, address.
struct Reported {
    signo: i32,
    si_code: Option<i32>,
    address: Option<u64>,
    span: Span,
}

fn reported(stop: &Stop) -> Option<Reported> {
    // Typed at input time (`messages::fault_report`): psiginfo's `prefix: Segmentation fault
    // (Address not mapped to object [0x28])`, a strsignal line, Rust's guard-page handler.
    // The last one: a handler that recovered from an earlier fault (siglongjmp) reported that
    // one too, before the fault that ended the process.
    stop.messages.iter().rev().find_map(|m| {
        let r = m.fault?;
        Some(Reported { signo: r.signo, si_code: r.si_code, address: r.address, span: m.span })
    })
}

fn signal_name(signo: i32) -> &'static str {
    FAULT_SIGNALS.iter().find(|s| s.2 == signo).map(|s| s.1).unwrap_or("signal")
}

/// x86-64: the kernel's `rt_sigframe` is at the trampoline frame's sp: `struct ucontext` (304
/// bytes: flags, link, stack, sigcontext, the kernel's 8-byte sigmask) then `siginfo_t`. The
/// siginfo is filled only for SA_SIGINFO handlers; the sigcontext always has the trap number,
/// error code and cr2 (page faults: trap 14, cr2 the address; #GP: trap 13).
fn siginfo_words(trace: &Trace, th: &Thread, tramp: usize) -> Option<(i32, i32, u64)> {
    if trace.arch != Arch::X86_64 {
        return None;
    }
    let uc = th.registers.get(&th.frames[tramp].index)?.get("rsp")?;
    let si = uc.checked_add(304)?;
    let w0 = trace.read_u64(si)?;
    let w1 = trace.read_u64(si + 8)?;
    let addr = trace.read_u64(si + 16)?;
    let (signo, code) = ((w0 & 0xffff_ffff) as i32, (w1 & 0xffff_ffff) as i32);
    if FAULT_SIGNALS.iter().any(|f| f.2 == signo) && ((1..=9).contains(&code) || code == 128) {
        return Some((signo, code, addr));
    }
    // The siginfo of another signal (SIGUSR2 from `raise`, SI_TKILL; a SIGCHLD): this frame
    // was pushed for it, not for a trap, and the sigcontext's trap number and cr2 are the
    // thread's last trap's, however long ago (a fault a handler recovered from).
    if (1..=64).contains(&signo) && !FAULT_SIGNALS.iter().any(|f| f.2 == signo) && (-7..=9).contains(&code) {
        return None;
    }
    let sc = uc + 40;
    let err = trace.read_u64(sc + 152)?;
    let trapno = trace.read_u64(sc + 160)?;
    let cr2 = trace.read_u64(sc + 176)?;
    match trapno {
        14 => Some((11, if err & 1 != 0 { SEGV_ACCERR } else { SEGV_MAPERR }, cr2)),
        13 => Some((11, crate::model::signals::SI_KERNEL, 0)),
        _ => None,
    }
}

fn kernel_siginfo_signo(trace: &Trace, th: &Thread, tramp: usize) -> Option<i32> {
    let (signo, code, _) = siginfo_words(trace, th, tramp)?;
    (FAULT_SIGNALS.iter().any(|f| f.2 == signo) && code != 0).then_some(signo)
}

/// The fault's si_code and address from the signal frame, when it holds `signo`.
fn kernel_siginfo(trace: &Trace, th: &Thread, tramp: usize, signo: i32) -> Option<(i32, u64)> {
    let (s, code, addr) = siginfo_words(trace, th, tramp)?;
    (s == signo && code != 0).then_some((code, addr))
}

/// The trace the rules see, with each handled-fault stop replaced by its view; `None` when no
/// stop is one.
pub(crate) fn view(trace: &Trace) -> Option<(Trace, Vec<View>)> {
    let mut views = Vec::new();
    let mut out: Option<Trace> = None;
    for (si, stop) in trace.stops.iter().enumerate() {
        let Some(ti) = stop.crashed_thread_index() else { continue };
        let th = &stop.threads[ti];
        let Some(pos) = interrupted_frame(stop, th) else { continue };
        let Some(tramp) = th.frames.iter().position(|f| f.signal_handler) else { continue };
        // The view starts at the frame that was interrupted (the one just outer to the
        // trampoline), whatever it is: its registers and instruction are the fault's. The
        // culprit (the first frame of the program's from there) is the view's own: a runaway
        // recursion in library code (Rust's drop glue) faulted thousands of frames above it.
        let pos =
            if pos > tramp + 1 && th.frames.get(tramp + 1).is_some_and(|f| f.pc.is_some()) { tramp + 1 } else { pos };
        // The handler: the frame just below the trampoline.
        let handler = tramp.checked_sub(1).map(|h| &th.frames[h]);
        let rep = reported(stop);
        // Rust's stack-overflow handler is a SIGSEGV handler (its name says so in a core, where
        // the message is not).
        let rust_guard = handler.is_some_and(|h| h.function_name().contains("stack_overflow::"));
        let signo = handler
            .and_then(handler_signo)
            .or(rep.as_ref().map(|r| r.signo))
            .or(rust_guard.then_some(11))
            .or_else(|| kernel_siginfo_signo(trace, th, tramp));
        let Some(signo) = signo.filter(|s| FAULT_SIGNALS.iter().any(|f| f.2 == *s)) else { continue };
        let mut rep = rep.filter(|r| r.signo == signo);
        let mut source = "the handler's report";
        // A core has no stderr, but the kernel's signal frame holds the siginfo the handler got.
        if rep.is_none()
            && let Some((code, addr)) = kernel_siginfo(trace, th, tramp, signo)
        {
            rep = Some(Reported { signo, si_code: Some(code), address: Some(addr), span: Span::default() });
            source = "the kernel's signal frame";
        }
        let offset = th.frames[pos].index;
        let t = out.get_or_insert_with(|| trace.clone());
        let vstop = &mut t.stops[si];
        let mut r = StopReason {
            kind: StopKind::Signal,
            signal: Some(Sym::from(signal_name(signo))),
            signo: Some(signo),
            span: stop.reason.span,
            ..Default::default()
        };
        if let Some(rp) = &rep {
            r.address = rp.address.map(Address);
            r.si_code = rp.si_code;
            r.span = rp.span;
            // An address in no mapping was not mapped: that is SEGV_MAPERR by definition.
            if r.si_code.is_none()
                && signo == 11
                && let Some(a) = rp.address
                && !trace.mappings.is_empty()
                && trace.mapping_for(a).is_none()
            {
                r.si_code = Some(SEGV_MAPERR);
            }
        }
        r.fault_source = Some((source, rep.as_ref().map(|r| r.span).filter(|s| *s != Span::default())));
        vstop.reason = r;
        // Frame-0 things (disassembly at pc, x/ of $sp) were printed in the handler's frame.
        vstop.disassembly.retain(|i| th.frames[pos].pc.is_some_and(|pc| pc == i.address));
        let vth = &mut vstop.threads[ti];
        vth.frames = vth.frames.split_off(pos);
        for f in &mut vth.frames {
            f.index -= offset;
        }
        let regs = std::mem::take(&mut vth.registers);
        vth.registers =
            regs.into_iter().filter(|(k, _)| *k >= offset).map(|(k, v)| (k - offset, v)).collect::<BTreeMap<_, _>>();
        let hname = handler
            .map(|h| format!("{} (frame #{})", h.function_name(), h.index))
            .unwrap_or_else(|| "a handler".into());
        let what = match rep.as_ref().and_then(|r| r.address) {
            Some(a) => format!("{} at {a:#x}", signal_name(signo)),
            None => signal_name(signo).to_string(),
        };
        views.push(View {
            stop: si,
            thread: th.id.to_string(),
            offset,
            evidence: format!(
                "the program's own signal handler {hname} caught {what} in frame #{offset} and ended the process: the fault is below <signal handler called>"
            ),
            span: rep.map(|r| r.span).filter(|s| *s != Span::default()),
        });
    }
    out.map(|t| (t, views))
}

/// `#n` frame references in a sentence written on the view, renumbered to gdb's frame numbers
/// (`#n + offset`). A `#` that follows a letter or digit (`&#35;`, `C#1`) is not a frame number.
fn renumber(text: &str, offset: u32) -> String {
    if offset == 0 || !text.contains('#') {
        return text.to_string();
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 8);
    let mut last = 0;
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'#' && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'&')) {
            let start = i + 1;
            let mut end = start;
            while end < b.len() && b[end].is_ascii_digit() {
                end += 1;
            }
            if end > start
                && end - start <= 6
                && let Ok(n) = text[start..end].parse::<u32>()
            {
                out.push_str(&text[last..start]);
                out.push_str(&n.saturating_add(offset).to_string());
                last = end;
            }
            i = end.max(i + 1);
            continue;
        }
        i += 1;
    }
    out.push_str(&text[last..]);
    out
}

/// Maps findings made on the view back to the real frame numbers, with the handler evidence.
pub(crate) fn map_back(findings: &mut [Finding], views: &[View]) {
    for f in findings {
        let Some(v) = views.iter().find(|v| f.stop == Some(v.stop)) else { continue };
        if f.thread.as_deref() == Some(v.thread.as_str()) {
            f.frame = f.frame.map(|n| n + v.offset);
            // The rules wrote the view's frame numbers into their sentences too ("after #2 ??"):
            // say gdb's numbers, as the frame field does.
            f.message = renumber(&f.message, v.offset);
            for e in &mut f.evidence {
                e.text = renumber(&e.text, v.offset);
            }
        }
        f.evidence.push(Evidence { text: v.evidence.clone(), lines: v.span });
    }
}

#[cfg(test)]
mod tests {
    use super::renumber;

    #[test]
    fn frame_numbers_in_sentences_follow_the_view_offset() {
        assert_eq!(renumber("backtrace stopped after #2 ??: corrupt", 10), "backtrace stopped after #12 ??: corrupt");
        assert_eq!(renumber("frames #0–#3 have pc 0x41", 5), "frames #5–#8 have pc 0x41");
        assert_eq!(renumber("at frame #0", 0), "at frame #0");
        // Not frame numbers: an HTML entity, a word with a '#', a bare '#'.
        assert_eq!(renumber("&#35; C#1 # x", 4), "&#35; C#1 # x");
    }
}
