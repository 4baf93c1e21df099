//! Lines that report a crash from outside the process: the kernel log (`dmesg`,
//! `journalctl -k`) and `strace`.
//!
//! ```text
//! [ 8123.456789] crash[30211]: segfault at 18 ip 000055d1c3a0b219 sp 00007ffd5c2e1f90 error 4 in crash[55d1c3a0b000+1000] likely on CPU 1 (core 1, socket 0)
//! [ 8123.456811] Code: 00 00 … <48> 8b 40 18 …
//! traps: parser[41770] general protection fault ip:5599f3c01259 sp:7ffcb1a4e1e8 error:0 in parser[5599f3c01000+1000]
//! crash[7690]: unhandled level 3 translation fault (11) at 0x0000000000000018, esr 0x…, in crash[aaaad1c10000+1000]
//! pc : 0000aaaad1c10a70           (then lr, sp, `x29: … x28: … x27: …` rows)
//!
//! --- SIGSEGV {si_signo=SIGSEGV, si_code=SEGV_MAPERR, si_addr=0x18} ---
//!  > build/crash(session_len+0x10) [0x1219]          (strace -k)
//! +++ killed by SIGSEGV (core dumped) +++
//! ```
//!
//! A fault line is a signal stop: signal, fault address, pc and sp (as `rip`/`rsp`, or `pc`/`sp`
//! on AArch64), and frame 0 in the named module. strace's signal line gives the signal,
//! `si_code` and `si_addr`; `-k` stack lines are frames; the syscalls before it are kept as
//! messages (what the program did last).

use super::Builder;
use super::lexemes::parse_hex;
use crate::model::*;

#[derive(Default, Clone)]
pub(crate) struct KernelState {
    /// An AArch64 register dump is being read (after `unhandled … fault`).
    pub arm_regs: bool,
    /// strace -k frames go to this thread; next frame index.
    pub strace_thread: Option<usize>,
    pub strace_index: u32,
    /// A kernel oops is being read: its thread and next frame index (`None` outside one).
    pub oops: Option<(usize, u32)>,
    /// Past the oops's `Call Trace:` (a later register block is the user-space entry's).
    pub oops_in_trace: bool,
    /// Inside a KASAN report's `Allocated by task N:` / `Freed by task N:` stack: its rows are
    /// not the faulting task's frames.
    pub kasan_side: bool,
    /// A KASAN report named the function that made the bad access (frame 0): the trace's rows
    /// before that function again are KASAN's own reporting.
    pub kasan_skip: Option<Box<str>>,
}

/// Reads one line. Returns whether it was a kernel or strace line.
pub(crate) fn line(b: &mut Builder, l: &str, n: u32) -> bool {
    let t = l.trim();
    if let Some(r) = strip_kernel_prefix(t) {
        return kernel_line(b, r.trim(), n);
    }
    // A multi-line message's continuation, which the journal (and some dmesg pastes) print
    // indented without the prefix: KASAN's `which belongs to the cache kmalloc-192 of size
    // 192`, `192-byte region [ffff…, ffff…)`.
    if b.kernel.oops.is_some()
        && l.starts_with(' ')
        && (t.starts_with("which belongs to the ")
            || t.contains("-byte region [")
            || t.starts_with("The buggy address "))
    {
        b.add_message(t, n);
        return true;
    }
    strace_line(b, t, n)
}

/// `[ 8123.456789] rest`, `Dec 01 09:14:22 host kernel: rest` -> `rest`.
fn strip_kernel_prefix(t: &str) -> Option<&str> {
    // `dmesg -r` / /dev/kmsg keep the log level in front: `<4>[ 8812.302911] rest`.
    let t = match t.strip_prefix('<').and_then(|r| r.split_once('>')) {
        Some((lvl, rest)) if !lvl.is_empty() && lvl.len() <= 3 && lvl.bytes().all(|c| c.is_ascii_digit()) => rest,
        _ => t,
    };
    if let Some(r) = t.strip_prefix('[')
        && let Some((ts, rest)) = r.split_once(']')
        && let Some((secs, frac)) = ts.trim().split_once('.')
        && !secs.is_empty()
        && secs.bytes().all(|c| c.is_ascii_digit())
        && frac.bytes().all(|c| c.is_ascii_digit())
    {
        return Some(rest);
    }
    if let Some(p) = t.find(" kernel: ") {
        return Some(&t[p + 9..]);
    }
    // The journal's blank kernel line: `Mar 04 09:12:44 vmhost kernel:`.
    if t.len() > 16 && t.ends_with(" kernel:") && t.as_bytes()[3] == b' ' && t.as_bytes()[9] == b':' {
        return Some("");
    }
    // Other journal lines about the same crash (`Dec 01 09:14:23 host systemd[1]: x.service:
    // Main process exited, code=dumped, status=11/SEGV`): `Mmm dd hh:mm:ss host ident[pid]: …`.
    if t.len() > 16
        && t.is_char_boundary(16)
        && t.as_bytes()[3] == b' '
        && t.as_bytes()[9] == b':'
        && t.as_bytes()[12] == b':'
        && t[..3].bytes().all(|c| c.is_ascii_alphabetic())
        && let Some((_, rest)) = t[16..].split_once(' ')
        && rest.split_once(": ").is_some_and(|(ident, _)| !ident.contains(' ') && ident.ends_with(']'))
    {
        return Some(rest);
    }
    // A bare `traps:` / `comm[pid]: segfault at` line (dmesg without timestamps).
    if t.starts_with("traps: ") || t.contains("]: segfault at ") || t.contains("]: unhandled ") {
        return Some(t);
    }
    None
}

fn hex_word(w: &str) -> Option<u64> {
    let w = w.trim_end_matches(',');
    if w.is_empty() || w.len() > 16 || !w.bytes().all(|c| c.is_ascii_hexdigit()) {
        return parse_hex(w);
    }
    u64::from_str_radix(w, 16).ok()
}

/// `comm[pid]` -> `(comm, pid)`.
fn comm_pid(w: &str) -> Option<(&str, &str)> {
    let w = w.trim_end_matches(':');
    let (comm, rest) = w.rsplit_once('[')?;
    let pid = rest.strip_suffix(']')?;
    (!comm.is_empty() && pid.bytes().all(|c| c.is_ascii_digit())).then_some((comm, pid))
}

/// `in crash[55d1c3a0b000+1000]` -> `crash`.
fn module_of(t: &str) -> Option<&str> {
    let p = t.find(" in ")?;
    let w = t[p + 4..].split_whitespace().next()?;
    let (m, _) = w.trim_end_matches(',').rsplit_once('[')?;
    (!m.is_empty()).then_some(m)
}

/// A kernel oops: `BUG: kernel NULL pointer dereference, address: 0000000000000008` (or
/// `BUG: unable to handle page fault for address: …`), `RIP: 0010:f+0x1c/0x90 [mod]`, the
/// register rows (`RAX: … RBX: …`, `RSP: 0018:ffffb2c1… EFLAGS: 00010246`), `Call Trace:` with
/// ` f+0x3a/0x70 [mod]` rows (`? ` rows are the unwinder's guesses, not frames). The oops is a
/// stop (the task is killed as by SIGSEGV) whose thread 1 holds the RIP frame and the trace.
fn oops_line(b: &mut Builder, r: &str, n: u32) -> bool {
    let t = r.trim();
    if kasan_line(b, t, n) {
        return true;
    }
    let bug = t
        .strip_prefix("BUG: kernel NULL pointer dereference, address: ")
        .or_else(|| t.strip_prefix("BUG: unable to handle page fault for address: "))
        .or_else(|| t.strip_prefix("BUG: unable to handle kernel paging request at "))
        .or_else(|| t.strip_prefix("BUG: unable to handle kernel NULL pointer dereference at "));
    // x86-64's #GP oops: `general protection fault, probably for non-canonical address
    // 0x3f0b2ac19e55d104: 0000 [#1] SMP NOPTI` (the kernel decoded the address from the faulting
    // instruction; a #GP has no fault address of its own, hence SI_KERNEL), or without one.
    let gp = t.strip_prefix("general protection fault").filter(|r| r.starts_with(',') || r.starts_with(':')).map(|r| {
        r.strip_prefix(", probably for non-canonical address ")
            .and_then(|a| a.split_once(':'))
            .map(|(a, _)| a)
            .unwrap_or("")
    });
    // ARM, AArch64 and POWER: `Unable to handle kernel paging request at virtual address
    // ffffffc0122003a8`, `Unable to handle kernel NULL pointer dereference at virtual address
    // 00000008`, ppc64's `Unable to handle kernel paging request for data at address 0x…`.
    let arm_bug = t.strip_prefix("Unable to handle kernel ").and_then(|r| {
        r.split_once(" at virtual address ")
            .or_else(|| r.split_once(" for data at address "))
            .or_else(|| r.split_once(" for instruction fetch at address "))
            .map(|(_, a)| a.split_whitespace().next().unwrap_or(""))
    });
    // An oops whose fault line was not printed (or not pasted): `Internal error: Oops: 96000044
    // [#3] PREEMPT SMP` (ARM, AArch64), `Oops: Kernel access of bad area, sig: 11 [#1]` (POWER).
    let bare = (b.kernel.oops.is_none()
        && (t.starts_with("Internal error: Oops") || t.starts_with("Oops: Kernel access of bad area")))
    .then_some("");
    if let Some(a) = bug.or(gp).or(arm_bug).or(bare) {
        b.saw(Format::Kernel);
        let reason = StopReason {
            kind: StopKind::Signal,
            signo: Some(11),
            signal: Some("SIGSEGV".into()),
            address: hex_word(a.trim()).map(Address),
            si_code: gp.map(|_| 128),
            description: Some(format!("kernel oops: {t}").into()),
            span: Span::line(n),
            ..Default::default()
        };
        b.new_stop(reason, Some("1"));
        let ti = b.current_thread();
        b.kernel.oops = Some((ti, 0));
        b.kernel.oops_in_trace = false;
        b.add_message(t, n);
        if b.trace.arch == Arch::Unknown && (bug.is_some() || gp.is_some()) {
            b.trace.arch = Arch::X86_64;
        }
        return true;
    }
    let Some((ti, next)) = b.kernel.oops else { return false };
    if t.starts_with("---[ end trace") {
        b.kernel.oops = None;
        b.add_message(t, n);
        return true;
    }
    if let Some(rest) = t.strip_prefix("#PF: error_code(") {
        if rest.contains("not-present page") {
            let si = b.ensure_stop();
            b.trace.stops[si].reason.si_code = Some(1);
        }
        b.add_message(t, n);
        return true;
    }
    // `CPU: 3 PID: 40211 Comm: kworker/3:2 Tainted: …`: the task.
    if t.starts_with("CPU: ")
        && let Some((_, c)) = t.split_once(" Comm: ")
    {
        let comm = c.split_whitespace().next().unwrap_or("");
        let si = b.ensure_stop();
        if let Some(th) = b.trace.stops[si].threads.get_mut(ti) {
            th.name = Some(comm.into());
        }
        b.add_message(t, n);
        return true;
    }
    if let Some(loc) = t.strip_prefix("RIP: ")
        && !b.kernel.oops_in_trace
    {
        // `0010:foo_ring_free+0x1c/0x90 [foo]`
        let loc = loc.split_once(':').map(|(_, l)| l).unwrap_or(loc);
        if let Some(f) = trace_frame(b, loc, 0, n) {
            b.put_frame(ti, f);
            b.kernel.oops = Some((ti, next.max(1)));
        }
        return true;
    }
    if t == "Call Trace:" || t == "Call trace:" || t == "Backtrace:" {
        b.kernel.oops_in_trace = true;
        return true;
    }
    if oops_arch_line(b, t, ti, next, n) {
        return true;
    }
    // The machine, the code bytes around RIP, the segment and control registers.
    if [
        "Hardware name: ",
        "Code: ",
        "FS: ",
        "CS: ",
        "CR2: ",
        "DR0: ",
        "DR3: ",
        "DR6: ",
        "PKRU: ",
        "Modules linked in: ",
        "Internal error: ",
        "Oops: ",
        "Mem abort info:",
        "Data abort info:",
        "ESR = ",
        "EC = ",
        "SET = ",
        "EA = ",
        "FSC = ",
        "ISV = ",
        "CM = ",
        "ISS = ",
        "ISS2 = ",
        "swapper pgtable: ",
        "user pgtable: ",
        "Workqueue: ",
        "note: ",
        "Flags: ",
        "Control: ",
        "Register r",
        "Process ",
        "Instruction dump:",
        "Faulting instruction address: ",
        "REGS: ",
        "MSR: ",
        "CFAR: ",
        "task: ",
        "Kernel panic - not syncing: ",
        "8<--- cut here ---",
        "LE SMP ",
        "BE SMP ",
        "PGD ",
    ]
    .iter()
    .any(|p| t.starts_with(p))
    {
        b.add_message(t, n);
        return true;
    }
    if t.starts_with("RIP: ")
        || t.starts_with("RIP  [<")
        || t.starts_with("RSP <")
        || matches!(t, "<TASK>" | "</TASK>" | "<IRQ>" | "</IRQ>" | "<EOI>" | "<NMI>" | "<EOE>")
    {
        return true;
    }
    // The page-table walk (`[ffffffc0122003a8] pgd=…, p4d=…`, `[82c1a4b0] *pgd=00000000`) and the
    // hex rows under `Instruction dump:`.
    if t.starts_with('[') && (t.contains("pgd=") || t.contains("*pgd"))
        || t.split_whitespace().count() >= 4
            && t.split_whitespace().all(|w| {
                let w = w.trim_start_matches('<').trim_end_matches('>').trim_start_matches('(').trim_end_matches(')');
                w.len() == 8 && w.bytes().all(|c| c.is_ascii_hexdigit())
            })
    {
        b.add_message(t, n);
        return true;
    }
    if t.starts_with("? ") {
        return true;
    }
    // Register rows: `RAX: 0000… RBX: 0000… RCX: 0000…`, `RSP: 0018:ffffb2c1c3e9fd90 EFLAGS: 00010246`.
    let words: Vec<&str> = t.split_whitespace().collect();
    if words.len() >= 2 && words.len().is_multiple_of(2) && words.chunks(2).all(|c| reg_name(c[0]).is_some()) {
        if b.kernel.oops_in_trace {
            // The user-space registers at the syscall entry, not the faulting kernel frame's.
            b.add_message(t, n);
            return true;
        }
        let si = b.ensure_stop();
        b.thread = Some(ti).filter(|&x| x < b.trace.stops[si].threads.len());
        for c in words.chunks(2) {
            let name = reg_name(c[0]).unwrap_or_default();
            let v = c[1].rsplit(':').next().and_then(|x| u64::from_str_radix(x, 16).ok());
            b.put_register(&name, v, None, n);
        }
        return true;
    }
    if let Some(f) = trace_frame(b, t, next, n) {
        // AArch64's `Call trace:` starts with the function of `pc :` again (x86's starts
        // with the caller of RIP's): one frame.
        let si = b.ensure_stop();
        let again = b.trace.arch == Arch::Aarch64
            && next == 1
            && b.trace.stops[si].threads.get(ti).and_then(|th| th.frames.first()).and_then(|f0| f0.function.as_deref())
                == f.function.as_deref();
        if !again {
            b.put_frame(ti, f);
            b.kernel.oops = Some((ti, next + 1));
        }
        return true;
    }
    false
}

/// KASAN's report: `BUG: KASAN: slab-out-of-bounds in f+0x1c4/0x3a0 [mod]`, `Read of size 256
/// at addr ffff88810a6d3c00 by task qfsctl/22931`, the faulting task's `Call Trace:`, then
/// `Allocated by task N:` / `Freed by task N:` stacks (not the faulting task's frames), the
/// object (`The buggy address belongs to the object at …`, `which belongs to the cache …`) and
/// the shadow rows. Under KASAN a NULL-based access is a #GP on KASAN's shadow of it (`general
/// protection fault, probably for non-canonical address 0xdffffc0000000006`), which KASAN
/// decodes: `KASAN: null-ptr-deref in range [0x0000000000000030-0x0000000000000037]`.
fn kasan_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if let Some(r) = t.strip_prefix("BUG: KASAN: ") {
        let (class, loc) = r.split_once(" in ").unwrap_or((r, ""));
        // Before 4.x: `… in f+0x…/0x… at addr ffff8803f1814460`.
        let (loc, addr) = match loc.split_once(" at addr ") {
            Some((l, a)) => (l, hex_word(a.trim())),
            None => (loc, None),
        };
        let kind = match class {
            c if c.starts_with("stack-out-of-bounds") => Some("stack-buffer-overflow"),
            c if c.ends_with("out-of-bounds") => Some("heap-buffer-overflow"),
            c if c.contains("use-after-free") => Some("use-after-free"),
            c if c.starts_with("double-free") => Some("double-free"),
            c if c.starts_with("invalid-free") || c.starts_with("wild-memory-access") => Some("invalid-access"),
            c if c.starts_with("null-ptr-deref") => Some("null-dereference"),
            _ => None,
        };
        b.saw(Format::Kernel);
        let reason = StopReason {
            kind: StopKind::RuntimeError,
            address: addr.map(Address),
            description: Some(t.into()),
            span: Span::line(n),
            ..Default::default()
        };
        let si = b.new_stop(reason, Some("1"));
        b.trace.stops[si].checker = Some(CheckerReport {
            tool: "KASAN".into(),
            kind,
            text: r.into(),
            access: None,
            summary: None,
            at_system_call: false,
            span: Span::line(n),
        });
        let ti = b.current_thread();
        b.trace.stops[si].threads[ti].crashed = true;
        b.kernel.oops = Some((ti, 0));
        b.kernel.oops_in_trace = false;
        b.kernel.kasan_side = false;
        // The function KASAN names is where the bad access was made: frame 0 (the trace that
        // follows starts in KASAN's own reporting).
        if let Some(f) = trace_frame(b, loc, 0, n) {
            b.kernel.kasan_skip = f.function.as_deref().map(Into::into);
            b.put_frame(ti, f);
            b.kernel.oops = Some((ti, 1));
        }
        b.add_message(t, n);
        if b.trace.arch == Arch::Unknown {
            b.trace.arch = Arch::X86_64;
        }
        return true;
    }
    // `KASAN: null-ptr-deref in range [0x0000000000000030-0x0000000000000037]` after the #GP.
    if let Some(r) = t.strip_prefix("KASAN: ")
        && let Some(si) = b.stop
        && b.kernel.oops.is_some()
    {
        if let Some(range) = r.strip_prefix("null-ptr-deref in range [")
            && let Some((lo, _)) = range.split_once('-')
            && let Some(lo) = hex_word(lo)
        {
            let reason = &mut b.trace.stops[si].reason;
            // The #GP was on KASAN's shadow; the access itself was to this range.
            reason.address = Some(Address(lo));
            reason.si_code = None;
        }
        b.add_message(t, n);
        return true;
    }
    let Some((_, next)) = b.kernel.oops else { return false };
    let is_kasan = b.stop.and_then(|si| b.trace.stops[si].checker.as_ref()).is_some_and(|c| &*c.tool == "KASAN");
    if !is_kasan {
        return false;
    }
    // The faulting task's trace up to the function KASAN named: `dump_stack_lvl`,
    // `print_report`, `kasan_report`, `kasan_check_range`, the instrumented `memcpy`.
    if b.kernel.oops_in_trace
        && !b.kernel.kasan_side
        && let Some(skip) = b.kernel.kasan_skip.clone()
        && !t.starts_with("? ")
        && let Some(f) = trace_frame(b, t, next, n)
    {
        if f.function.as_deref() == Some(&*skip) {
            b.kernel.kasan_skip = None;
        }
        return true;
    }
    // `Read of size 256 at addr ffff88810a6d3c00 by task qfsctl/22931`, `Write of size 8 by task …`.
    if (t.starts_with("Read of size ") || t.starts_with("Write of size ") || t.starts_with("Read at addr "))
        && t.contains(" by task ")
    {
        let si = b.ensure_stop();
        if let Some((_, a)) = t.split_once(" at addr ")
            && let Some(a) = a.split_whitespace().next().and_then(hex_word)
        {
            b.trace.stops[si].reason.address = Some(Address(a));
        }
        if let Some(c) = b.trace.stops[si].checker.as_mut() {
            c.access = Some(t.into());
        }
        return true;
    }
    if t.starts_with("Allocated by task ")
        || t.starts_with("Freed by task ")
        || t.starts_with("Last potentially related work creation:")
        || t.starts_with("Second to last potentially related work creation:")
        || t == "Allocated:"
        || t == "Freed:"
    {
        b.kernel.kasan_side = true;
        b.add_message(t, n);
        return true;
    }
    if t.starts_with("The buggy address ")
        || t.starts_with("which belongs to the ")
        || t.contains("-byte region [")
        || t.starts_with("Memory state around the buggy address")
        || t.starts_with("Object at ")
        || t.starts_with("page:")
        || t.starts_with("flags:")
        || t.starts_with("raw: ")
        || t.starts_with("page dumped because")
        || t.starts_with("(stack is not available)")
        || t.starts_with("PID = ")
        || t.starts_with("Pointer tag: ")
        || t.starts_with("Disabling lock debugging due to kernel taint")
    {
        b.kernel.kasan_side = true;
        b.add_message(t, n);
        return true;
    }
    // Shadow rows: `ffff88810a6d3b80: fc fc …`, `>ffff88810a6d3c80: 00 00 …`, and the caret.
    let row = t.trim_start_matches('>');
    let shadow = row.split_once(": ").is_some_and(|(addr, bytes)| {
        addr.len() >= 8
            && addr.bytes().all(|c| c.is_ascii_hexdigit())
            && bytes.split_whitespace().all(|w| w.len() == 2 && w.bytes().all(|c| c.is_ascii_hexdigit()))
    });
    if shadow || !t.is_empty() && t.bytes().all(|c| c == b'^' || c == b' ') {
        return true;
    }
    if b.kernel.kasan_side {
        // The allocation and free stacks' rows.
        if t.starts_with("? ") || trace_frame(b, t, next, n).is_some() {
            return true;
        }
    }
    false
}

/// The lines of an oops that depend on the architecture: AArch64's `pc : f+0x24/0x64`, `lr :`,
/// `sp :` and `x29: … x28: …` rows; 32-bit ARM's `PC is at f+0x1c/0x380`, `pc : [<…>]    lr :
/// [<…>]    psr: …`, `r10: …  r9 : …` rows and `[<…>] (f) from [<…>] (g+0x…/0x…)` trace rows;
/// POWER's `NIP:  … LR: … CTR: …`, `GPR00: …` rows, `NIP [addr] f+0x…/0x…` and `[sp] [pc]
/// f+0x…/0x… (unreliable)` trace rows; old x86's `IP: [<addr>] f+0x…/0x… [mod]`, `RIP:
/// 0010:[<addr>]  [<addr>] f+…` and `[<addr>] f+0x…/0x…` trace rows.
fn oops_arch_line(b: &mut Builder, t: &str, ti: usize, next: u32, n: u32) -> bool {
    let set_arch = |b: &mut Builder, a: Arch| {
        if b.trace.arch == Arch::Unknown {
            b.trace.arch = a;
        }
    };
    let frame0 = |b: &mut Builder, loc: &str, pc: Option<u64>| -> bool {
        if b.kernel.oops_in_trace || next > 0 {
            return false;
        }
        match trace_frame(b, loc.trim(), 0, n) {
            Some(mut f) => {
                f.pc = pc.map(Address);
                if let Some(pc) = pc {
                    let name = match b.trace.arch {
                        Arch::Ppc64 | Arch::Arm | Arch::Aarch64 => "pc",
                        Arch::X86 => "eip",
                        _ => "rip",
                    };
                    b.put_register(name, Some(pc), None, n);
                }
                b.put_frame(ti, f);
                b.kernel.oops = Some((ti, 1));
                true
            }
            None => false,
        }
    };
    // AArch64.
    if let Some(loc) = t.strip_prefix("pc : ")
        && !loc.starts_with("[<")
    {
        set_arch(b, Arch::Aarch64);
        if !frame0(b, loc, None) {
            b.add_message(t, n);
        }
        return true;
    }
    if t.starts_with("lr : ") && !t.starts_with("lr : [<") || t.starts_with("LR is at ") {
        b.add_message(t, n);
        return true;
    }
    if let Some(v) = t.strip_prefix("sp : ").filter(|v| !v.contains("  ")) {
        set_arch(b, Arch::Aarch64);
        if let Some(x) = hex_word(v.trim()) {
            b.put_register("sp", Some(x), None, n);
        }
        return true;
    }
    if t.starts_with('x') && t.as_bytes().get(1).is_some_and(u8::is_ascii_digit) && !b.kernel.oops_in_trace {
        let si = b.ensure_stop();
        b.thread = Some(ti).filter(|&x| x < b.trace.stops[si].threads.len());
        if arm_regs(b, t, n) {
            set_arch(b, Arch::Aarch64);
            return true;
        }
    }
    // 32-bit ARM.
    if let Some(loc) = t.strip_prefix("PC is at ") {
        set_arch(b, Arch::Arm);
        if !frame0(b, loc, None) {
            b.add_message(t, n);
        }
        return true;
    }
    if t.starts_with("pc : [<") || t.starts_with("sp : ") || arm32_regs(t).is_some() {
        set_arch(b, Arch::Arm);
        let si = b.ensure_stop();
        b.thread = Some(ti).filter(|&x| x < b.trace.stops[si].threads.len());
        for (name, v) in arm32_regs(t).unwrap_or_default() {
            if name == "pc"
                && let Some(f) = b.trace.stops[si].threads.get_mut(ti).and_then(|th| th.frames.first_mut())
                && f.pc.is_none()
            {
                f.pc = Some(Address(v));
            }
            b.put_register(name, Some(v), None, n);
        }
        return true;
    }
    // `[<c019e5f8>] (update_vsyscall) from [<c018ecd8>] (timekeeping_update+0xe4/0x258)`: the
    // frame named first, then its caller (the next row names the caller again).
    if let Some(r) = t.strip_prefix("[<")
        && let Some((_, r)) = r.split_once(">] (")
        && let Some((name, rest)) = r.split_once(')')
        && rest.trim_start().starts_with("from [<")
    {
        let name = name.split('+').next().unwrap_or(name);
        let si = b.ensure_stop();
        let dup = next == 1
            && b.trace.stops[si].threads.get(ti).and_then(|th| th.frames.first()).and_then(|f| f.function.as_deref())
                == Some(name);
        if !dup && !name.is_empty() && !name.contains(' ') {
            let f = Frame { index: next, function: Some(b.intern(name)), span: Span::line(n), ..Default::default() };
            b.put_frame(ti, f);
            b.kernel.oops = Some((ti, next + 1));
        }
        return true;
    }
    // POWER.
    if t.starts_with("NIP:  ") || t.starts_with("NIP: ") {
        set_arch(b, Arch::Ppc64);
        let w: Vec<&str> = t.split_whitespace().collect();
        let si = b.ensure_stop();
        b.thread = Some(ti).filter(|&x| x < b.trace.stops[si].threads.len());
        for c in w.chunks(2) {
            if let [k, v] = c
                && let Some(x) = hex_word(v)
            {
                let name = match *k {
                    "NIP:" => "pc",
                    "LR:" => "lr",
                    "CTR:" => "ctr",
                    _ => continue,
                };
                b.put_register(name, Some(x), None, n);
            }
        }
        return true;
    }
    if let Some(r) = t.strip_prefix("GPR")
        && let Some((base, vals)) = r.split_once(':')
        && let Ok(base) = base.parse::<u32>()
    {
        set_arch(b, Arch::Ppc64);
        let si = b.ensure_stop();
        b.thread = Some(ti).filter(|&x| x < b.trace.stops[si].threads.len());
        for (i, v) in vals.split_whitespace().enumerate() {
            if let Some(x) = hex_word(v) {
                b.put_register(&format!("r{}", base + i as u32), Some(x), None, n);
            }
        }
        return true;
    }
    if let Some(r) = t.strip_prefix("NIP [").or_else(|| t.strip_prefix("IP: [<"))
        && let Some((a, loc)) = r.split_once(']')
    {
        if t.starts_with("NIP") {
            set_arch(b, Arch::Ppc64);
        }
        let pc = hex_word(a.trim_end_matches('>'));
        if !frame0(b, loc.trim(), pc) {
            b.add_message(t, n);
        }
        return true;
    }
    if t.starts_with("LR [") {
        b.add_message(t, n);
        return true;
    }
    // Old x86: `RIP: 0010:[<ffffffffc0952d99>]  [<ffffffffc0952d99>] f+0x19/0x240 [mod]`.
    if let Some(r) = t.strip_prefix("RIP: ").and_then(|r| r.split_once(":[<")).map(|(_, r)| r)
        && let Some((a, rest)) = r.split_once(">]")
        && let Some(loc) = rest.trim_start().strip_prefix("[<").and_then(|x| x.split_once(">]")).map(|(_, l)| l)
    {
        let pc = hex_word(a);
        let si = b.ensure_stop();
        let has0 = b.trace.stops[si].threads.get(ti).is_some_and(|th| !th.frames.is_empty());
        if has0 {
            if let Some(pc) = pc {
                b.put_register("rip", Some(pc), None, n);
                if let Some(f) = b.trace.stops[si].threads.get_mut(ti).and_then(|th| th.frames.first_mut())
                    && f.pc.is_none()
                {
                    f.pc = Some(Address(pc));
                }
            }
        } else if !frame0(b, loc.trim(), pc) {
            b.add_message(t, n);
        }
        return true;
    }
    // Trace rows with addresses: POWER's `[sp] [pc] f+0x…/0x… (unreliable)`, old x86's
    // `[<pc>] f+0x…/0x… [mod]` (`? ` guesses excepted).
    if b.kernel.oops_in_trace && t.starts_with('[') {
        let (pc, loc) = if let Some(r) = t.strip_prefix("[<") {
            let Some((a, loc)) = r.split_once(">]") else { return false };
            (hex_word(a), loc.trim())
        } else {
            let mut parts = t.splitn(3, ']');
            let (Some(_sp), Some(pc), Some(loc)) = (parts.next(), parts.next(), parts.next()) else { return false };
            (hex_word(pc.trim().trim_start_matches('[')), loc.trim())
        };
        if loc.starts_with("? ") {
            return true;
        }
        let loc = loc.strip_suffix("(unreliable)").unwrap_or(loc).trim();
        if let Some(mut f) = trace_frame(b, loc, next, n) {
            f.pc = pc.map(Address);
            b.put_frame(ti, f);
            b.kernel.oops = Some((ti, next + 1));
            return true;
        }
    }
    false
}

/// 32-bit ARM register rows: `pc : [<c019e614>]    lr : [<c018ecd8>]    psr: 000f0193`,
/// `sp : c0d01d2c  ip : 00000000  fp : 00000000`, `r10: 00002a1f  r9 : c0e13340  r8 : ffffffff`.
fn arm32_regs(t: &str) -> Option<Vec<(&'static str, u64)>> {
    let mut out = Vec::new();
    let mut rest = t;
    while !rest.is_empty() {
        let (name, after) = rest.split_once(':')?;
        let after = after.trim_start();
        let end = after.find(' ').unwrap_or(after.len());
        let v = hex_word(after[..end].trim_start_matches("[<").trim_end_matches(">]"))?;
        const NAMES: &[&str] =
            &["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "sp", "lr", "pc", "ip", "fp", "psr"];
        let name = NAMES.iter().find(|x| **x == name.trim())?;
        let name = match *name {
            "ip" => "r12",
            "fp" => "r11",
            "psr" => "cpsr",
            x => x,
        };
        out.push((name, v));
        rest = after[end..].trim_start();
    }
    (!out.is_empty()).then_some(out)
}

/// `RAX:` → `rax`, `R08:` → `r8`, `EFLAGS:` → `eflags`; other words are not register names.
fn reg_name(w: &str) -> Option<String> {
    let k = w.strip_suffix(':')?;
    const X86: &[&str] = &[
        "RAX", "RBX", "RCX", "RDX", "RSI", "RDI", "RBP", "RSP", "R08", "R09", "R10", "R11", "R12", "R13", "R14", "R15",
        "EFLAGS", "ORIG_RAX",
    ];
    if !X86.contains(&k) {
        return None;
    }
    let lower = k.to_ascii_lowercase();
    Some(match lower.strip_prefix("r0") {
        Some(d) => format!("r{d}"),
        None => lower,
    })
}

/// `foo_hw_teardown+0x3a/0x70 [foo]`, `process_one_work+0x16f/0x350`.
fn trace_frame(b: &mut Builder, t: &str, index: u32, n: u32) -> Option<Frame> {
    let (sym, module) = match t.split_once(' ') {
        Some((s, m)) => (s, m.trim().strip_prefix('[').and_then(|m| m.strip_suffix(']'))),
        None => (t, None),
    };
    let (name, off) = sym.split_once('+')?;
    let (o, len) = off.split_once('/')?;
    if name.is_empty() || !o.starts_with("0x") || !len.starts_with("0x") || name.contains(['(', ')', ' ']) {
        return None;
    }
    Some(Frame {
        index,
        function: Some(b.intern(name)),
        module: module.map(|m| b.intern(m)),
        span: Span::line(n),
        ..Default::default()
    })
}

fn kernel_line(b: &mut Builder, r: &str, n: u32) -> bool {
    // An empty log line (a report's blank separator through the journal's `kernel: ` prefix).
    if r.trim().is_empty() {
        return true;
    }
    if oops_line(b, r, n) {
        return true;
    }
    // x86: `comm[pid]: segfault at 18 ip … sp … error 4 in mod[base+size]`
    if let Some((head, rest)) = r.split_once(": segfault at ")
        && let Some((comm, pid)) = comm_pid(head)
    {
        let mut w = rest.split_whitespace();
        let addr = w.next().and_then(hex_word);
        let mut ip = None;
        let mut sp = None;
        while let Some(k) = w.next() {
            match k {
                "ip" => ip = w.next().and_then(hex_word),
                "sp" => sp = w.next().and_then(hex_word),
                _ => {}
            }
        }
        fault(
            b,
            Fault { comm, pid, signal: "SIGSEGV", code: None, addr, pc: ip, sp, module: module_of(rest), arm: false },
            r,
            n,
        );
        return true;
    }
    // x86: `traps: comm[pid] general protection fault ip:… sp:… error:0 in mod[…]`,
    // `traps: comm[pid] trap divide error ip:…`.
    if let Some(r2) = r.strip_prefix("traps: ")
        && let Some((head, rest)) = r2.split_once(' ')
        && let Some((comm, pid)) = comm_pid(head)
    {
        let (signal, code) = if rest.starts_with("general protection") {
            ("SIGSEGV", Some(128))
        } else if rest.starts_with("trap divide error") {
            ("SIGFPE", Some(1))
        } else if rest.starts_with("trap invalid opcode") {
            ("SIGILL", Some(2))
        } else if rest.starts_with("trap int3") {
            ("SIGTRAP", Some(128))
        } else if rest.starts_with("trap stack segment") || rest.starts_with("trap alignment check") {
            ("SIGBUS", Some(128))
        } else {
            ("SIGSEGV", None)
        };
        let field = |k: &str| rest.split_whitespace().find_map(|w| w.strip_prefix(k)).and_then(hex_word);
        let (ip, sp) = (field("ip:"), field("sp:"));
        fault(b, Fault { comm, pid, signal, code, addr: None, pc: ip, sp, module: module_of(rest), arm: false }, r, n);
        return true;
    }
    // AArch64: `comm[pid]: unhandled level 3 translation fault (11) at 0x18, esr 0x…, in mod[…]`
    if let Some((head, rest)) = r.split_once(": unhandled ")
        && let Some((comm, pid)) = comm_pid(head)
    {
        let signo: Option<i32> =
            rest.split_once(" (").and_then(|(_, x)| x.split_once(')')).and_then(|(x, _)| x.parse().ok());
        let signal = match signo {
            Some(7) => "SIGBUS",
            Some(4) => "SIGILL",
            _ => "SIGSEGV",
        };
        let addr = rest.split_once(") at ").and_then(|(_, x)| x.split_whitespace().next()).and_then(hex_word);
        fault(
            b,
            Fault { comm, pid, signal, code: None, addr, pc: None, sp: None, module: module_of(rest), arm: true },
            r,
            n,
        );
        b.kernel.arm_regs = true;
        return true;
    }
    if r.starts_with("Code: ") || r.starts_with("CPU: ") || r.starts_with("Hardware name: ") {
        b.add_message(r, n);
        return true;
    }
    if let Some(v) = r.strip_prefix("pstate: ") {
        b.add_message(r, n);
        if let Some(x) = v.split_whitespace().next().and_then(hex_word) {
            b.put_register("pstate", Some(x), None, n);
        }
        return true;
    }
    // AArch64 register rows: `pc : 0000aaaa…`, `x29: 0000ffff… x28: 0000… x27: …`, `x9 : …`.
    if b.kernel.arm_regs && arm_regs(b, r, n) {
        return true;
    }
    // A supervisor's word on the crash (PostgreSQL's postmaster: `LOG:  server process (PID
    // 87311) was terminated by signal 11: Segmentation fault`): the signal of the stop the
    // backend's backtrace will fill, when nothing else named it.
    if let Some((_, sig)) = r.split_once(" was terminated by signal ")
        && let Some((no, desc)) = sig.split_once(": ")
        && let Ok(no) = no.trim().parse::<i32>()
    {
        let no = crate::model::signals::from_number_and_description(no, desc);
        let si = b.ensure_stop();
        let reason = &mut b.trace.stops[si].reason;
        if reason.signo.is_none() && matches!(reason.kind, StopKind::Unknown) {
            reason.kind = StopKind::Signal;
            reason.signo = Some(no);
            reason.signal = crate::model::signals::name(no).map(Into::into);
            reason.description = Some(desc.trim().into());
        }
    }
    // systemd's note on the same crash, and other kernel lines, are messages.
    b.add_message(r, n);
    true
}

fn arm_regs(b: &mut Builder, r: &str, n: u32) -> bool {
    let mut pairs = Vec::new();
    let mut rest = r;
    while !rest.is_empty() {
        let Some((name, after)) = rest.split_once(':') else { return false };
        let name = name.trim();
        let after = after.trim_start();
        let val_end = after.find(' ').unwrap_or(after.len());
        let Some(v) = hex_word(&after[..val_end]) else { return false };
        if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric()) {
            return false;
        }
        pairs.push((name, v));
        rest = after[val_end..].trim_start();
    }
    if pairs.is_empty() {
        return false;
    }
    for (name, v) in pairs {
        let name = if name == "lr" { "x30" } else { name };
        b.put_register(name, Some(v), None, n);
    }
    true
}

struct Fault<'a> {
    comm: &'a str,
    pid: &'a str,
    signal: &'a str,
    code: Option<i32>,
    addr: Option<u64>,
    pc: Option<u64>,
    sp: Option<u64>,
    module: Option<&'a str>,
    arm: bool,
}

fn fault(b: &mut Builder, f: Fault<'_>, text: &str, n: u32) {
    b.saw(Format::Kernel);
    let reason = StopReason {
        kind: StopKind::Signal,
        signal: Some(b.intern(f.signal)),
        signo: crate::model::signals::signo(f.signal),
        si_code: f.code,
        address: f.addr.map(Address),
        span: Span::line(n),
        ..Default::default()
    };
    let si = b.new_stop(reason, Some(f.pid));
    b.select_thread(f.pid);
    let ti = b.current_thread();
    b.trace.stops[si].threads[ti].name = Some(f.comm.into());
    b.trace.stops[si].threads[ti].crashed = true;
    if let Some(pc) = f.pc {
        // The x86 handlers print these lines (AArch64 prints a register dump instead).
        let (pcn, spn) = ("rip", "rsp");
        b.put_register(pcn, Some(pc), None, n);
        if let Some(sp) = f.sp {
            b.put_register(spn, Some(sp), None, n);
        }
    }
    let frame = Frame {
        index: 0,
        pc: f.pc.map(Address),
        module: f.module.map(|m| b.intern(m)),
        span: Span::line(n),
        ..Default::default()
    };
    if f.pc.is_some() || f.module.is_some() {
        b.put_frame(ti, frame);
    }
    let _ = f.arm;
    b.add_message(text, n);
    b.kernel = KernelState { arm_regs: f.arm, ..Default::default() };
}

// ---- strace --------------------------------------------------------------------------

/// `[pid 30093] `, `30093 `, and `12:00:01.123456 ` prefixes -> (pid, rest).
fn strace_prefix(t: &str) -> (Option<&str>, &str) {
    let mut pid = None;
    let mut r = t;
    if let Some(x) = r.strip_prefix("[pid ")
        && let Some((p, rest)) = x.split_once(']')
    {
        pid = Some(p.trim());
        r = rest.trim_start();
    } else {
        let d = r.bytes().take_while(u8::is_ascii_digit).count();
        if d > 0 && r[d..].starts_with(' ') {
            pid = Some(&r[..d]);
            r = r[d..].trim_start();
        }
    }
    // A timestamp (`-t`, `-tt`, `-ttt`).
    let w = r.split(' ').next().unwrap_or("");
    if !w.is_empty() && w.bytes().all(|c| c.is_ascii_digit() || c == b':' || c == b'.') && w.contains(['.', ':']) {
        r = r[w.len()..].trim_start();
    }
    (pid, r)
}

fn strace_line(b: &mut Builder, t: &str, n: u32) -> bool {
    let (pid, r) = strace_prefix(t);
    if let Some(inner) = r.strip_prefix("--- ").and_then(|x| x.strip_suffix(" ---")) {
        let Some((sig, fields)) = inner.split_once(' ') else { return false };
        if !sig.starts_with("SIG") {
            return false;
        }
        b.saw(Format::Strace);
        let mut reason = StopReason {
            kind: StopKind::Signal,
            signal: Some(b.intern(sig)),
            signo: crate::model::signals::signo(sig),
            span: Span::line(n),
            ..Default::default()
        };
        let body = fields.trim_start_matches('{').trim_end_matches('}');
        for kv in body.split(", ") {
            let Some((k, v)) = kv.split_once('=') else { continue };
            match k {
                "si_code" => reason.si_code = crate::model::signals::si_code_value(v).or_else(|| v.parse().ok()),
                "si_addr" => reason.address = if v == "NULL" { Some(Address(0)) } else { parse_hex(v).map(Address) },
                _ => {}
            }
        }
        let id = pid.unwrap_or("1");
        b.new_stop(reason, Some(id));
        b.select_thread(id);
        let ti = b.current_thread();
        let si = b.ensure_stop();
        b.trace.stops[si].threads[ti].crashed = true;
        b.add_message(r, n);
        b.kernel.strace_thread = Some(ti);
        b.kernel.strace_index = 0;
        return true;
    }
    if r.starts_with("+++ ") && r.ends_with(" +++") {
        b.saw(Format::Strace);
        b.add_message(r, n);
        return true;
    }
    // strace -k: ` > /path/mod(func+0x10) [0x1219]`
    if let Some(x) = r.strip_prefix("> ")
        && let Some(ti) = b.kernel.strace_thread
    {
        let x = x.trim();
        let (head, _off) = x.rsplit_once(" [").unwrap_or((x, ""));
        let (module, func) = match head.split_once('(') {
            Some((m, f)) => (m, f.trim_end_matches(')')),
            None => (head, ""),
        };
        let func = func.split_once('+').map(|(f, _)| f).unwrap_or(func);
        let idx = b.kernel.strace_index;
        b.kernel.strace_index += 1;
        let f = Frame {
            index: idx,
            function: (!func.is_empty()).then(|| b.intern(func)),
            module: Some(b.intern(module)),
            span: Span::line(n),
            ..Default::default()
        };
        b.put_frame(ti, f);
        return true;
    }
    // A syscall line: `name(args) = ret`, `<... name resumed>…`, `… <unfinished ...>`.
    if is_syscall(r) {
        b.saw(Format::Strace);
        b.add_message(r, n);
        return true;
    }
    false
}

/// `gettid()                                = 7883`, `mprotect(0x…, 4096, PROT_READ) = 0`,
/// `openat(AT_FDCWD, "x", O_RDONLY) = -1 ENOENT (No such file or directory)`,
/// `<... futex resumed>) = ?`, `clock_nanosleep(…, <unfinished ...>`.
fn is_syscall(r: &str) -> bool {
    if r.starts_with("<... ") && r.contains(" resumed>") {
        return true;
    }
    let name_len = r.bytes().take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'_').count();
    if name_len == 0 || !r[name_len..].starts_with('(') || r.as_bytes()[0].is_ascii_digit() {
        return false;
    }
    if r.ends_with("<unfinished ...>") {
        return true;
    }
    let Some(p) = r.rfind(") = ").or_else(|| {
        // `)` then padding spaces then `= `
        let q = r.rfind("= ")?;
        r[..q].trim_end().ends_with(')').then_some(r[..q].trim_end().len() - 1)
    }) else {
        return false;
    };
    let ret = r[p + 1..].trim_start().strip_prefix("= ").unwrap_or("").split_whitespace().next().unwrap_or("");
    ret == "?"
        || ret.parse::<i64>().is_ok()
        || ret.strip_prefix("0x").is_some_and(|h| !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use crate::model::*;

    #[test]
    fn kernel_oops() {
        let t = "[ 5123.448812] BUG: kernel NULL pointer dereference, address: 0000000000000008
[ 5123.448852] #PF: error_code(0x0000) - not-present page
[ 5123.448886] CPU: 3 PID: 40211 Comm: kworker/3:2 Tainted: G           OE      6.8.0-45-generic #45-Ubuntu
[ 5123.448931] RIP: 0010:foo_ring_free+0x1c/0x90 [foo]
[ 5123.448969] RSP: 0018:ffffb2c1c3e9fd90 EFLAGS: 00010246
[ 5123.448982] RAX: 0000000000000000 RBX: 0000000000000000 RCX: 0000000000000000
[ 5123.449010] R10: 0000000000000000 R11: 0000000000000000 R12: ffff9d3a58c40000
[ 5123.449063] Call Trace:
[ 5123.449069]  <TASK>
[ 5123.449147]  ? foo_ring_free+0x1c/0x90 [foo]
[ 5123.449160]  foo_hw_teardown+0x3a/0x70 [foo]
[ 5123.449188]  process_one_work+0x16f/0x350
[ 5123.449200] RIP: 0033:0x7f82b7b2986d
[ 5123.449210] RSP: 002b:00007fffc73e6e58 EFLAGS: 00000246 ORIG_RAX: 0000000000000139
[ 5123.449268]  </TASK>
[ 5123.449412] ---[ end trace 0000000000000000 ]---
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0);
        let stop = &p.trace.stops[0];
        assert_eq!(
            (stop.reason.signo, stop.reason.address, stop.reason.si_code),
            (Some(11), Some(Address(8)), Some(1))
        );
        let th = stop.crashed_thread().unwrap();
        assert_eq!(th.name.as_deref(), Some("kworker/3:2"));
        let names: Vec<&str> = th.frames.iter().map(|f| f.function.as_deref().unwrap_or("")).collect();
        assert_eq!(names, ["foo_ring_free", "foo_hw_teardown", "process_one_work"]);
        assert_eq!(th.frames[0].module.as_deref(), Some("foo"));
        assert_eq!(th.registers[&0].get("rsp"), Some(0xffffb2c1c3e9fd90));
        assert_eq!(th.registers[&0].get("r12"), Some(0xffff9d3a58c40000));
        assert!(super::reg_name("R08:").is_some_and(|r| r == "r8"));
        assert!(super::reg_name("Oops:").is_none());
    }

    #[test]
    fn kernel_gp_oops_with_log_levels() {
        // `dmesg -r`'s `<4>` level before the timestamp; a #GP names the decoded address.
        let t = "<4>[ 8812.302911] general protection fault, probably for non-canonical address 0x3f0b2ac19e55d104: 0000 [#1] SMP NOPTI
<4>[ 8812.302931] Hardware name: Example Corp S2600/S2600, BIOS 2.1 03/04/2022
<4>[ 8812.302934] RIP: 0010:kmem_cache_alloc_trace+0x9b/0x2a0
<4>[ 8812.302945] Code: 49 8b 00 <48> 8b 1c 08
<4>[ 8812.302953] RAX: 3f0b2ac19e55d0e4 RBX: 0000000000000cc0 RCX: 0000000000000020
<4>[ 8812.302965] FS:  00007f8b11ffb6c0(0000) GS:ffff8e496f800000(0000) knlGS:0000000000000000
<4>[ 8812.302973] Call Trace:
<4>[ 8812.303006]  devmon_open+0x4a/0x1d0 [devmon]
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0);
        let stop = &p.trace.stops[0];
        assert_eq!(
            (stop.reason.signo, stop.reason.address, stop.reason.si_code),
            (Some(11), Some(Address(0x3f0b2ac19e55d104)), Some(128))
        );
        let names: Vec<&str> = stop.threads[0].frames.iter().map(|f| f.function.as_deref().unwrap_or("")).collect();
        assert_eq!(names, ["kmem_cache_alloc_trace", "devmon_open"]);
        // Without an address: a stop with none.
        let p = crate::input::parse("[ 1.5] general protection fault: 0000 [#1] SMP PTI\n");
        assert_eq!((p.trace.stops[0].reason.signo, p.trace.stops[0].reason.address), (Some(11), None));
        // Not a level: `<abcd>` stays text.
        assert_eq!(super::strip_kernel_prefix("<abcd>[ 1.0] x"), None);
    }

    #[test]
    fn kernel_and_strace_lines_give_a_stop() {
        let p = crate::input::parse(
            "[  77.000001] demo[4242]: segfault at 28 ip 0000563e2a40117f sp 00007ffe0a3b1c28 error 4 in demo[563e2a400000+3000] likely on CPU 1 (core 1, socket 0)\n",
        );
        let s = &p.trace.stops[0];
        assert_eq!((s.reason.signal.as_deref(), s.reason.address), (Some("SIGSEGV"), Some(Address(0x28))));
        let r = s.registers().expect("registers");
        assert_eq!((r.get("rip"), r.get("rsp")), (Some(0x563e2a40117f), Some(0x7ffe0a3b1c28)));
        assert_eq!(s.threads[0].frames[0].module.as_deref(), Some("demo"));

        let p = crate::input::parse(
            "openat(AT_FDCWD, \"x\", O_RDONLY)        = -1 ENOENT (No such file or directory)
--- SIGBUS {si_signo=SIGBUS, si_code=BUS_ADRERR, si_addr=0x7f00deadb000} ---
+++ killed by SIGBUS (core dumped) +++
",
        );
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let s = &p.trace.stops[0];
        assert_eq!((s.reason.signal.as_deref(), s.reason.address), (Some("SIGBUS"), Some(Address(0x7f00deadb000))));
        assert_eq!(s.reason.code_name(), Some("BUS_ADRERR"));
    }
}
