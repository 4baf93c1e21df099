//! Crash reports printed by the tool a program ran under or by a framework's own handler, read
//! as a handler's report (`Format::Handler`, one stop):
//!
//! DynamoRIO's report of an application's fault, and of its own (or a client's) crash:
//!
//! ```text
//! <Application /path/prog (20114).  Application exception at PC 0x9a1d52f0.
//! Signal 11 delivered to application as default action.
//! Callstack:
//!         0x9a1d52f0   </usr/lib/system/libdyld.dylib+0x12f0>
//! >
//! <Application /usr/bin/sar (7102).  Cache Simulator Tracer internal crash at PC 0x00007f1b2cf1fc4f.  Please report …
//! Received SIGSEGV at pc 0x00007f1b2cf1fc4f in thread 7102
//! Base: 0x00007f1b2ce4f000
//! Registers:eax=0x0000000000000000 ebx=0x… ecx=0x… edx=0x…
//!         r8 =0x0000000000000000 …
//! ```
//!
//! AMReX's handler (`Segfault`, `See Backtrace.0 file for details`) and its `Backtrace.N` file
//! (` 3: ./prog() [0x4b1c3e]` rows, each followed by addr2line's `function at file:line`);
//! Envoy's backtrace handler (`[ts][tid][critical][backtrace] [file:line] Caught Aborted, suspect
//! faulting address 0x…`, `thr<N> #K 0x… name` rows); and a backtrace resolved with
//! `addr2line -Cfpi` after an abort message (`addr: 0x…`, `function at file:line`, ` (inlined by)
//! …`, `?? ??:0`, `#####` rules between the blocks).

use super::Builder;
use super::handlers::{HandlerMode, start};
use super::lexemes::parse_hex;
use crate::model::*;

const AMREX: &str = "AMReX's signal handler (Backtrace file)";

/// The first line of one of these reports. `t` is trimmed.
pub(crate) fn opening(b: &mut Builder, t: &str, n: u32) -> bool {
    // DynamoRIO: `<Application PATH (PID).  Application exception at PC 0x….` or `…  NAME
    // internal crash at PC 0x….  Please report this at URL.  Program aborted.`
    if let Some(r) = t.strip_prefix("<Application ")
        && let Some(p) = r.find(" exception at PC 0x").or_else(|| r.find(" internal crash at PC 0x"))
    {
        let internal = r[p..].starts_with(" internal crash");
        let pc =
            r[p..].split("PC ").nth(1).and_then(|x| parse_hex(x.trim_end_matches(|c: char| !c.is_ascii_hexdigit())));
        let desc = if internal {
            "DynamoRIO's report of its own (or a client's) crash"
        } else {
            "DynamoRIO's report of an application exception"
        };
        start(b, 0, desc, n);
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::DynamoRio;
        b.handlers.next_index = 0;
        b.handlers.named_pc = pc;
        return true;
    }
    // DynamoRIO's announcement of the run: `<Starting application /path (20114)>`.
    if t.starts_with("<Starting application ") && t.ends_with(")>") {
        b.add_message(t, n);
        return true;
    }
    // AMReX: `See Backtrace.0 file for details`, after the handler's name of the signal.
    if let Some(r) = t.strip_prefix("See Backtrace.").and_then(|r| r.strip_suffix(" file for details"))
        && !r.is_empty()
        && r.bytes().all(|c| c.is_ascii_digit() || c == b'.')
    {
        let before = b.diag.lines_unrecognized;
        let mut signo = 0;
        for (word, no) in [("Segfault", 11), ("Erroneous arithmetic operation", 8), ("Abort", 6), ("Interrupted", 2)] {
            b.reclaim_decoration(n, word);
            if b.diag.lines_unrecognized < before {
                signo = no;
                break;
            }
        }
        start(b, signo, AMREX, n);
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::Amrex;
        return true;
    }
    // The `Backtrace.N` file pasted alone: its advice paragraph opens it.
    if t.starts_with("=== If no file names and line numbers are shown below, one can run") {
        // The file after the handler's own lines (`See Backtrace.0 file for details`, then the
        // job launcher's and the shell's lines, `cat Backtrace.0`) belongs to the same stop.
        let open =
            b.handlers.open && b.stop.is_some_and(|si| b.trace.stops[si].reason.description.as_deref() == Some(AMREX));
        if !open {
            start(b, 0, AMREX, n);
        }
        b.handlers.mode = HandlerMode::Amrex;
        b.handlers.advice = true;
        b.add_message(t, n);
        return true;
    }
    // Envoy's backtrace handler: `Caught Aborted, suspect faulting address 0x…`.
    if let Some(rest) = envoy_rest(t)
        && let Some(r) = rest.strip_prefix("Caught ")
        && let Some((desc, addr)) = r.split_once(", suspect faulting address ")
        && let Some(sig) = crate::model::signals::from_description(desc)
        && let Some(signo) = crate::model::signals::signo(sig)
    {
        start(b, signo, "Envoy's backtrace handler", n);
        // Only a fault has an address; for a signal that was sent (SIGABRT from abort()) the
        // handler prints si_addr, which holds the sender's pid and uid.
        if crate::model::signals::has_fault_address(signo) {
            let si = b.ensure_stop();
            b.trace.stops[si].reason.address = parse_hex(addr.trim()).map(Address);
        }
        b.add_message(rest, n);
        b.handlers.mode = HandlerMode::Envoy;
        b.handlers.next_index = 0;
        return true;
    }
    // radare2's debugger session: `Process with PID 8122 started...` (then its start-up lines,
    // `[0x…]> dc`, `[+] SIGNAL 11 errno=0 addr=(nil) code=1 ret=0`, `dbt` rows).
    if b.handlers.mode == HandlerMode::None
        && let Some(pid) = t.strip_prefix("Process with PID ").and_then(|r| r.strip_suffix(" started..."))
        && !pid.is_empty()
        && pid.bytes().all(|c| c.is_ascii_digit())
    {
        b.add_message(t, n);
        b.handlers.mode = HandlerMode::Radare2;
        return true;
    }
    if r2_signal(t).is_some() {
        b.handlers.mode = HandlerMode::Radare2;
        return radare2_line(b, t, n);
    }
    // An IDE's copied call stack (CLion's "Copy Stack") after an abort message: rows
    // `function 0x00007ffff4a8a99b` or `function file.cpp:1575`, no frame numbers.
    if b.handlers.mode == HandlerMode::None
        && b.stop.is_none()
        && ide_row(t).is_some_and(|(_, where_)| matches!(where_, IdeWhere::Pc(_)))
        && b.pending_messages.iter().any(|m| crate::messages::is_abort_message(m.text.trim()))
    {
        start(b, 6, "an IDE's copied call stack", n);
        b.handlers.mode = HandlerMode::IdeStack;
        b.handlers.next_index = 0;
        return ide_line(b, t, n);
    }
    // `addr2line -Cfpi` blocks after an abort message: `addr: 0x000000000049c1aa`.
    if b.handlers.mode == HandlerMode::None
        && let Some(a) = t.strip_prefix("addr: 0x")
        && !a.is_empty()
        && a.bytes().all(|c| c.is_ascii_hexdigit())
        && b.pending_messages.iter().any(|m| crate::messages::is_abort_message(m.text.trim()))
    {
        start(b, 6, "a backtrace resolved with addr2line", n);
        b.handlers.mode = HandlerMode::Addr2line;
        b.handlers.next_index = 0;
        b.handlers.named_pc = parse_hex(&t["addr: ".len()..]);
        return true;
    }
    false
}

/// One line inside a report `opening` started (`t` trimmed; blank lines come here too).
pub(crate) fn line(b: &mut Builder, l: &str, t: &str, n: u32) -> bool {
    match b.handlers.mode {
        HandlerMode::DynamoRio => dynamorio_line(b, t, n),
        HandlerMode::Amrex => amrex_line(b, l, t, n),
        HandlerMode::Addr2line => addr2line_line(b, t, n),
        HandlerMode::Envoy => envoy_line(b, t, n),
        HandlerMode::Radare2 => radare2_line(b, t, n),
        HandlerMode::IdeStack => ide_line(b, t, n),
        _ => false,
    }
}

fn end(b: &mut Builder) -> bool {
    b.handlers.mode = HandlerMode::None;
    false
}

fn put_frame(b: &mut Builder, n: u32, pc: u64, function: Option<&str>, module: Option<&str>) {
    let index = b.handlers.next_index;
    b.handlers.next_index += 1;
    let function = function.filter(|f| !f.is_empty()).map(|f| b.intern(f));
    let module = module.filter(|m| !m.is_empty()).map(|m| b.intern(m.rsplit(['/', '\\']).next().unwrap_or(m)));
    let ti = b.current_thread();
    b.put_frame(
        ti,
        Frame { index, pc: Some(Address(pc)), function, module, span: Span::line(n), ..Default::default() },
    );
}

fn dynamorio_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if t.is_empty() {
        return end(b);
    }
    // `Signal 11 delivered to application as default action.`
    if let Some(r) = t.strip_prefix("Signal ").and_then(|r| r.split_once(" delivered to application"))
        && let Ok(signo) = r.0.parse::<i32>()
    {
        set_signal(b, signo);
        b.add_message(t, n);
        return true;
    }
    // `Received SIGSEGV at pc 0x… in thread 7102`.
    if let Some(r) = t.strip_prefix("Received ")
        && let Some((sig, rest)) = r.split_once(" at pc ")
        && let Some(signo) = crate::model::signals::signo(sig)
    {
        set_signal(b, signo);
        if let Some(pc) = rest.split_whitespace().next().and_then(parse_hex) {
            b.handlers.named_pc = Some(pc);
        }
        b.add_message(t, n);
        return true;
    }
    if t == "Callstack:" {
        return true;
    }
    // `0x9a1d52f0   </usr/lib/system/libdyld.dylib+0x12f0>`, `0x… <not in a module>`.
    if let Some((pc, rest)) = t.split_once(char::is_whitespace)
        && let Some(pc) = parse_hex(pc).filter(|_| pc.starts_with("0x"))
        && let Some(m) = rest.trim().strip_prefix('<').and_then(|m| m.strip_suffix('>'))
    {
        let module = m.rsplit_once('+').map(|(m, _)| m).filter(|m| m.contains('/') || m.contains('.'));
        put_frame(b, n, pc, None, module);
        return true;
    }
    // The report's closing `>`, and the internal crash's last line `0x… 0x…>` (stack words).
    if t == ">" || t.ends_with('>') && t.trim_end_matches('>').split_whitespace().all(|w| parse_hex(w).is_some()) {
        b.handlers.mode = HandlerMode::None;
        return true;
    }
    if t.starts_with("Base: 0x") || t.starts_with("version ") && t.contains('.') {
        b.add_message(t, n);
        return true;
    }
    // The options line: `-no_dynamic_options -client_lib '…' -code_api -stack_size 56K …`.
    if t.starts_with('-') && t.split_whitespace().filter(|w| w.starts_with('-')).count() >= 2 {
        b.add_message(t, n);
        return true;
    }
    // `Registers:eax=0x… ebx=0x…`, `esi=0x…`, `r8 =0x…`, `eflags=0x…`.
    let body = t.strip_prefix("Registers:").unwrap_or(t).replace(" =", "=");
    let pairs: Vec<(&str, &str)> = body.split_whitespace().filter_map(|w| w.split_once('=')).collect();
    if !pairs.is_empty()
        && pairs.len() == body.split_whitespace().count()
        && pairs
            .iter()
            .all(|(k, v)| !k.is_empty() && k.bytes().all(|c| c.is_ascii_alphanumeric()) && v.starts_with("0x"))
    {
        for (k, v) in pairs {
            // 64-bit values under the 32-bit names: DynamoRIO names x86-64's registers so.
            let wide = v.len() > 10;
            if wide && b.trace.arch == Arch::Unknown {
                b.trace.arch = Arch::X86_64;
            }
            let name = match (wide, k) {
                (true, "eflags") => "eflags".to_string(),
                (true, k) if k.len() == 3 && k.starts_with('e') => format!("r{}", &k[1..]),
                _ => k.to_string(),
            };
            b.put_register(&name, parse_hex(v), None, n);
        }
        if let Some(pc) = b.handlers.named_pc
            && b.trace.arch == Arch::X86_64
        {
            b.put_register("rip", Some(pc), None, n);
        }
        return true;
    }
    end(b)
}

fn set_signal(b: &mut Builder, signo: i32) {
    let si = b.ensure_stop();
    let r = &mut b.trace.stops[si].reason;
    r.signo = Some(signo);
    r.signal = crate::model::signals::name(signo).map(Into::into);
}

/// A function as addr2line -C prints it, without its parameter list:
/// `amrex::BLBackTrace::handler(int)` → `amrex::BLBackTrace::handler`.
fn without_params(f: &str) -> &str {
    let f = f.trim();
    if !f.ends_with(')') {
        return f;
    }
    let mut depth = 0i32;
    for (i, c) in f.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    // `operator()`, `operator()(int) const`: the call operator's own `()`.
                    let head = &f[..i];
                    return if i == 0 || head.ends_with("operator") { f } else { head };
                }
            }
            _ => {}
        }
    }
    f
}

/// addr2line's `function at file:line` (`?? ??:0` when it knows nothing).
fn located(b: &mut Builder, r: &str) -> Option<(Option<Sym>, Option<Sym>, Option<u32>)> {
    if r == "?? ??:0" || r == "??:0" {
        return Some((None, None, None));
    }
    let (f, loc) = r.rsplit_once(" at ")?;
    let (file, ln) = loc.rsplit_once(':')?;
    let line = match ln {
        "?" => None,
        x => Some(x.parse::<u32>().ok()?),
    };
    if file.is_empty() || f.is_empty() || file.contains(char::is_whitespace) {
        return None;
    }
    let function = (f != "??").then(|| b.intern(without_params(f)));
    let file = (file != "??").then(|| b.intern(file));
    Some((function, file, line.filter(|&x| x > 0)))
}

fn amrex_line(b: &mut Builder, l: &str, t: &str, n: u32) -> bool {
    if t.is_empty() {
        b.handlers.advice = false;
        return true;
    }
    if t.starts_with("=== ") {
        b.handlers.advice = true;
        b.add_message(t, n);
        return true;
    }
    if b.handlers.advice && l.starts_with(' ') {
        b.add_message(t, n);
        return true;
    }
    b.handlers.advice = false;
    // ` 3: ./prog() [0x4b1c3e]`, ` 2: /lib64/libpthread.so.0(+0xf5f0) [0x7f2c1a4d35f0]`.
    if let Some((num, rest)) = t.split_once(": ")
        && let Ok(index) = num.parse::<u32>()
        && let Some((head, pc)) = rest.rsplit_once(" [")
        && let Some(pc) = pc.strip_suffix(']').and_then(parse_hex)
    {
        let module = head.split('(').next().unwrap_or(head).trim();
        let function = head
            .split_once('(')
            .map(|(_, s)| s.trim_end_matches(')'))
            .map(|s| s.rsplit_once('+').map_or(s, |(s, _)| s))
            .filter(|s| !s.is_empty());
        b.handlers.next_index = index;
        put_frame(b, n, pc, function, Some(module));
        // The kernel's return into the handler: the unnamed libc/libpthread row after it.
        let si = b.ensure_stop();
        let ti = b.current_thread();
        let frames = &mut b.trace.stops[si].threads[ti].frames;
        let k = frames.len();
        if k >= 2
            && function.is_none()
            && (module.contains("/libpthread") || module.contains("/libc."))
            && frames[k - 2].function.as_deref().is_some_and(|f| f.ends_with("BLBackTrace::handler"))
        {
            frames[k - 1].signal_handler = true;
        }
        return true;
    }
    // addr2line's line under a row: `    Flame::advance_species(double, double) at /path/Advance.cpp:241`.
    if l.starts_with(' ')
        && let Some((function, file, line)) = located(b, t)
    {
        let si = b.ensure_stop();
        let ti = b.current_thread();
        if let Some(f) = b.trace.stops[si].threads[ti].frames.last_mut() {
            if function.is_some() {
                f.function = function;
            }
            f.file = file.or(f.file.take());
            f.line = line.or(f.line);
        }
        return true;
    }
    end(b)
}

fn addr2line_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if t.is_empty() {
        return end(b);
    }
    if t.len() >= 8 && t.bytes().all(|c| c == b'#') {
        return true;
    }
    if let Some(a) = t.strip_prefix("addr: ").and_then(parse_hex) {
        b.handlers.named_pc = Some(a);
        return true;
    }
    let inlined = t.strip_prefix("(inlined by) ");
    if let Some((function, file, line)) = located(b, inlined.unwrap_or(t)) {
        let Some(pc) = b.handlers.named_pc else { return end(b) };
        let index = b.handlers.next_index;
        b.handlers.next_index += 1;
        let si = b.ensure_stop();
        let ti = b.current_thread();
        // An `(inlined by)` line is the caller the previous function was inlined into.
        if inlined.is_some()
            && let Some(prev) = b.trace.stops[si].threads[ti].frames.last_mut()
        {
            prev.inlined = true;
        }
        // The first unresolved row after a handler's frames (a function named for a signal or
        // a handler: `sigabrt_action`, `segv_handler`) is the kernel's return into it.
        let after_handler = function.is_none()
            && b.trace.stops[si].threads[ti].frames.iter().any(|f| {
                f.function.as_deref().is_some_and(|x| {
                    let x = x.to_ascii_lowercase();
                    x.contains("sig") || x.contains("handler")
                })
            })
            && !b.trace.stops[si].threads[ti].frames.iter().any(|f| f.signal_handler);
        let k = b.put_frame(
            ti,
            Frame { index, pc: Some(Address(pc)), function, file, line, span: Span::line(n), ..Default::default() },
        );
        if after_handler && let Some(f) = b.trace.stops[si].threads[ti].frames.get_mut(k) {
            f.signal_handler = true;
        }
        return true;
    }
    end(b)
}

/// The message of an Envoy backtrace log line: `[2018-11-26 20:24:56.347][000163][critical]
/// [backtrace] [bazel-out/…/backtrace.h:125] Caught Aborted, …` → `Caught Aborted, …`.
fn envoy_rest(t: &str) -> Option<&str> {
    let r = t.strip_prefix('[')?;
    let (head, rest) = r.split_once("] [")?;
    if !head.ends_with("][backtrace") || head.matches("][").count() < 3 {
        return None;
    }
    let (_, msg) = rest.split_once("] ")?;
    Some(msg)
}

fn envoy_line(b: &mut Builder, t: &str, n: u32) -> bool {
    let Some(r) = envoy_rest(t) else { return end(b) };
    // `Backtrace thr<163> obj</lib/…/libc.so.6> (If unsymbolized, use tools/stack_decode.py):`,
    // `thr<163> obj</usr/lib/…/libstdc++.so.6>`: the module of the rows that follow.
    let r2 = r.strip_prefix("Backtrace ").unwrap_or(r);
    if let Some(x) = r2.strip_prefix("thr<")
        && let Some((_, rest)) = x.split_once("> ")
    {
        if let Some(m) = rest.strip_prefix("obj<").and_then(|m| m.split_once('>')).map(|(m, _)| m) {
            b.handlers.module = Some(m.into());
            b.add_message(r, n);
            return true;
        }
        // `thr<163> #0 0x7f51c2a06fcf (unknown)`, `thr<1> #3 0x… Envoy::Server::run()`.
        if let Some(row) = rest.strip_prefix('#')
            && let Some((_, row)) = row.split_once(' ')
            && let Some((pc, what)) = row.split_once(' ').or(Some((row, "")))
            && let Some(pc) = parse_hex(pc)
        {
            let what = what.trim();
            let function = (!what.is_empty() && what != "(unknown)").then_some(what);
            let module = b.handlers.module.clone();
            put_frame(b, n, pc, function, module.as_deref());
            return true;
        }
    }
    if r.starts_with("end backtrace") {
        b.add_message(r, n);
        b.handlers.mode = HandlerMode::None;
        return true;
    }
    end(b)
}

/// radare2's report of a signal: `[+] SIGNAL 11 errno=0 addr=(nil) code=1 ret=0` → (signo,
/// address unless `(nil)`, si_code).
fn r2_signal(t: &str) -> Option<(i32, Option<u64>, Option<i32>)> {
    let r = t.strip_prefix("[+] SIGNAL ")?;
    let mut w = r.split_whitespace();
    let signo = w.next()?.parse::<i32>().ok().filter(|s| (1..=64).contains(s))?;
    let mut addr = None;
    let mut code = None;
    let mut errno = false;
    for kv in w {
        match kv.split_once('=') {
            Some(("errno", _)) => errno = true,
            Some(("addr", v)) => addr = parse_hex(v),
            Some(("code", v)) => code = v.parse::<i32>().ok(),
            Some(("ret", _)) => {}
            _ => return None,
        }
    }
    errno.then_some((signo, addr, code))
}

/// A radare2 prompt: `[0x7f9a2be041fd]> dbt`.
fn r2_prompt(t: &str) -> bool {
    t.strip_prefix("[0x")
        .and_then(|r| r.split_once("]>"))
        .is_some_and(|(h, _)| !h.is_empty() && h.bytes().all(|c| c.is_ascii_hexdigit()))
}

fn radare2_line(b: &mut Builder, t: &str, n: u32) -> bool {
    if t.is_empty() {
        return true;
    }
    if let Some((signo, addr, code)) = r2_signal(t) {
        start(b, signo, "radare2's debugger", n);
        let si = b.ensure_stop();
        let r = &mut b.trace.stops[si].reason;
        r.si_code = code;
        // `addr=(nil)` is how it prints no address (also for a general-protection fault).
        if addr.is_some_and(|a| a != 0) {
            r.address = addr.map(Address);
        }
        b.handlers.mode = HandlerMode::Radare2;
        b.handlers.next_index = 0;
        b.add_message(t, n);
        return true;
    }
    // `[+] signal 11 aka SIGSEGV received 0`.
    if t.strip_prefix("[+] signal ").is_some_and(|r| r.contains(" aka SIG") && r.contains(" received ")) {
        b.add_message(t, n);
        return true;
    }
    if r2_prompt(t) {
        // A new command: the rows of `dbt` that follow are numbered from 0.
        b.handlers.next_index = 0;
        return true;
    }
    // Start-up lines: `= attach 8122 8122`, `bin.baddr 0x00400000`, `Using 0x400000`, `asm.bits 64`.
    if t.starts_with("= attach ")
        || t.starts_with("bin.baddr 0x")
        || t.strip_prefix("Using 0x").is_some_and(|r| r.bytes().all(|c| c.is_ascii_hexdigit()))
        || t.strip_prefix("asm.bits ").is_some_and(|r| r.bytes().all(|c| c.is_ascii_digit()))
    {
        b.add_message(t, n);
        return true;
    }
    // `dbt` rows: `1  0x41d5894955418f69  0`, `0  0x0040052b sp: 0x0  0[sym.foo]  rip sym.foo+31`.
    if b.handlers.open {
        let mut w = t.split_whitespace();
        if let (Some(num), Some(pc)) = (w.next(), w.next())
            && let Ok(index) = num.parse::<u32>()
            && let Some(pc) = parse_hex(pc).filter(|_| pc.starts_with("0x"))
        {
            let function = t
                .split_once('[')
                .and_then(|(_, r)| r.split_once(']'))
                .map(|(s, _)| s.strip_prefix("sym.").unwrap_or(s))
                .filter(|s| !s.is_empty());
            b.handlers.next_index = index;
            put_frame(b, n, pc, function, None);
            return true;
        }
    }
    end(b)
}

enum IdeWhere<'a> {
    Pc(u64),
    Line(&'a str, u32),
}

/// A row of an IDE's copied stack: `__GI_raise 0x00007ffff4a33866`, `Table::~Table table.cpp:1575`.
fn ide_row(t: &str) -> Option<(&str, IdeWhere<'_>)> {
    let (name, last) = t.rsplit_once(' ')?;
    let name = name.trim();
    if name.is_empty()
        || name.starts_with(['#', '[', '=', '-'])
        || name.ends_with([':', '=', ','])
        || name.contains("  ")
    {
        return None;
    }
    if let Some(h) = last.strip_prefix("0x")
        && h.len() >= 8
        && let Some(pc) = parse_hex(last)
    {
        return Some((name, IdeWhere::Pc(pc)));
    }
    let (file, line) = last.rsplit_once(':')?;
    let line = line.parse::<u32>().ok()?;
    let ext = file.rsplit_once('.').map(|(_, e)| e)?;
    (!ext.is_empty() && ext.len() <= 4 && ext.bytes().all(|c| c.is_ascii_alphanumeric()))
        .then_some((name, IdeWhere::Line(file, line)))
}

fn ide_line(b: &mut Builder, t: &str, n: u32) -> bool {
    let Some((name, where_)) = ide_row(t) else { return end(b) };
    let function = (name != "<unknown>").then(|| b.intern(without_params(name)));
    let index = b.handlers.next_index;
    b.handlers.next_index += 1;
    let ti = b.current_thread();
    let (pc, file, line) = match where_ {
        IdeWhere::Pc(pc) => (Some(Address(pc)), None, None),
        IdeWhere::Line(f, l) => (None, Some(b.intern(f)), Some(l)),
    };
    b.put_frame(ti, Frame { index, pc, function, file, line, span: Span::line(n), ..Default::default() });
    true
}
