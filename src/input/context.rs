//! The context panes gdb extensions print at every stop (PEDA, pwndbg, GEF): a heading per
//! pane, then registers, disassembly and stack words in the extension's own layout.
//!
//! ```text
//! [----------------------------------registers-----------------------------------]
//! RAX: 0x6486d8 --> 0x64b2e0 (0x000000000064b2e0)
//! R8 : 0x0
//! [-------------------------------------code-------------------------------------]
//! => 0x422b16 <value_load+278>:    call   0x430fd0 <value_class_of>
//! [------------------------------------stack-------------------------------------]
//! 0000| 0x7fffff7fef70 --> 0x65f830 --> 0x64c150
//! Legend: code, data, rodata, value
//! Stopped reason: SIGSEGV
//! ```
//!
//! ```text
//! LEGEND: STACK | HEAP | CODE | DATA | RWX | RODATA
//! ──────────[ REGISTERS ]──────────
//! *RBX  0x7ffff7a89740 ◂— 0x7ffff7a89740
//! ──────────[ DISASM ]─────────────
//!  ► 0x7ffff7b1e9fc <pthread_kill+300>    mov    r13d, eax
//! ──────────[ STACK ]──────────────
//! 00:0000│ rsp 0x7fffffffd4e0 ◂— 0x0
//! ```
//!
//! Register rows are read only inside a registers pane, instructions only inside a code pane:
//! the same shapes elsewhere are not theirs.

use super::Builder;
use super::gdb::GdbInsnLine;
use super::lexemes::parse_hex;

#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) enum Pane {
    #[default]
    None,
    Registers,
    Code,
    /// Stack words, the backtrace pane, threads, source: kept as read, not modelled.
    Other,
}

/// A pane heading: `[----registers----]`, `────[ REGISTERS ]────`, `──── registers ────`
/// (GEF), or a bare rule of dashes that closes the last pane. `Some(name)` (empty for a rule).
fn heading(t: &str) -> Option<String> {
    let rule = |c: char| matches!(c, '-' | '─' | '━' | '═' | '[' | ']' | ' ');
    let dashes = t.chars().filter(|&c| matches!(c, '-' | '─' | '━' | '═')).count();
    if dashes < 10 {
        return None;
    }
    let name: String = t.chars().filter(|&c| !rule(c)).collect();
    if !name.chars().all(|c| c.is_ascii_alphabetic() || c == '/' || c == '_') {
        return None;
    }
    let name = name.to_ascii_lowercase();
    // Only the panes PEDA, pwndbg and GEF draw: other tools draw dashed headings too
    // (compiletest's `--- stdout -----`, `--- stderr -----`), and a pane swallows what follows.
    const PANES: &[&str] = &[
        "",
        "registers",
        "regs",
        "code",
        "disasm",
        "disassembly",
        "stack",
        "backtrace",
        "trace",
        "threads",
        "source",
        "extra",
        "memory",
        "expressions",
        "ghidra",
        "args",
        "arguments",
        "legend",
        "heap",
        "last_signal",
    ];
    PANES.contains(&name.as_str()).then_some(name)
}

pub(crate) fn line(b: &mut Builder, l: &str, n: u32) -> bool {
    let t = l.trim();
    if let Some(name) = heading(t) {
        b.context = match name.as_str() {
            "registers" | "regs" => Pane::Registers,
            "code" | "disasm" | "disassembly" => Pane::Code,
            "" => Pane::None,
            _ => Pane::Other,
        };
        return true;
    }
    if t.starts_with("LEGEND: STACK | HEAP | CODE") || t.starts_with("Legend: code, data, rodata") {
        return true;
    }
    if let Some(sig) = t.strip_prefix("Stopped reason: ") {
        let _ = sig;
        b.add_message(t, n);
        b.context = Pane::None;
        return true;
    }
    match b.context {
        Pane::None => false,
        Pane::Registers => match register_row(l) {
            Some((name, v)) => {
                b.put_register(&name, Some(v), None, n);
                true
            }
            None => {
                b.context = Pane::None;
                false
            }
        },
        Pane::Code => {
            if t == "↓" || t.is_empty() {
                return true;
            }
            match super::gdb::insn_line(t).or_else(|| pwndbg_insn(t)) {
                Some(i) => {
                    b.put_insn(i, n);
                    true
                }
                None => {
                    b.context = Pane::None;
                    false
                }
            }
        }
        Pane::Other => {
            // Stack words (`0000| 0x7fff… --> …`, `00:0000│ rsp 0x7fff… ◂— 0x0`) and the
            // like: kept as messages of the stop.
            if t.is_empty() {
                return true;
            }
            b.add_message(t, n);
            true
        }
    }
}

/// `RAX: 0x6486d8 --> …` / `R8 : 0x0` (PEDA), ` RAX  0x0` / `*RBX  0x7ffff7a89740 ◂— …`
/// (pwndbg, `*` marks a changed register), `$rax   : 0x0` (GEF).
fn register_row(l: &str) -> Option<(String, u64)> {
    let t = l.trim_start_matches([' ', '*']).trim_start_matches('$');
    let name_len = t.bytes().take_while(|c| c.is_ascii_alphanumeric()).count();
    if !(2..=8).contains(&name_len) || !t.as_bytes()[0].is_ascii_alphabetic() {
        return None;
    }
    let name = &t[..name_len];
    let rest = t[name_len..].trim_start();
    let rest = rest.strip_prefix(':').map(str::trim_start).unwrap_or(rest);
    let word = rest.split_whitespace().next()?;
    if !word.starts_with("0x") {
        return None;
    }
    Some((name.to_ascii_lowercase(), parse_hex(word)?))
}

/// pwndbg's ` ► 0x7ffff7b1e9fc <pthread_kill+300>    mov    r13d, eax` (no colon after the
/// location; `►` marks the pc).
fn pwndbg_insn(t: &str) -> Option<GdbInsnLine<'_>> {
    let (current, r) = match t.strip_prefix('►') {
        Some(r) => (true, r.trim_start()),
        None => (false, t),
    };
    let (addr, rest) = r.split_once(char::is_whitespace)?;
    if !addr.starts_with("0x") {
        return None;
    }
    let address = parse_hex(addr)?;
    let rest = rest.trim_start();
    let (location, text) = match rest.strip_prefix('<').and_then(|x| x.split_once('>')) {
        Some((loc, text)) => (Some(loc), text.trim()),
        None => (None, rest.trim()),
    };
    if text.is_empty() {
        return None;
    }
    Some(GdbInsnLine { current, address, location, text })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peda_panes() {
        let t = "Program received signal SIGSEGV, Segmentation fault.

 [----------------------------------registers-----------------------------------]
RAX: 0x6486d8 --> 0x64b2e0 (0x000000000064b2e0)
RSP: 0x7fffff7fef70 
RIP: 0x422b16 (<value_load+278>:\tcall   0x430fd0 <value_class_of>)
R8 : 0x0 
EFLAGS: 0x10246 (carry PARITY adjust ZERO sign trap INTERRUPT direction overflow)
[-------------------------------------code-------------------------------------]
   0x422b13 <value_load+275>:\tmov    rsi,r13
=> 0x422b16 <value_load+278>:\tcall   0x430fd0 <value_class_of>
[------------------------------------stack-------------------------------------]
0000| 0x7fffff7fef70 --> 0x65f830 --> 0x64c150 --> 0x64b2e0 (0x000000000064b2e0)
[------------------------------------------------------------------------------]
Legend: code, data, rodata, value
Stopped reason: SIGSEGV
0x0000000000422b16 in value_load (vm=0x649110) at runtime/value.c:412
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let stop = &p.trace.stops[0];
        let regs = &stop.threads[0].registers[&0];
        assert_eq!((regs.get("rsp"), regs.get("rip"), regs.get("r8")), (Some(0x7fffff7fef70), Some(0x422b16), Some(0)));
        assert_eq!(regs.get("eflags"), Some(0x10246));
        assert!(stop.disassembly.iter().any(|i| i.current && i.address.0 == 0x422b16));
    }

    #[test]
    fn pwndbg_panes() {
        let t = "LEGEND: STACK | HEAP | CODE | DATA | RWX | RODATA
───────────────[ REGISTERS ]───────────────
 RAX  0x0
*RBX  0x7ffff7a89740 ◂— 0x7ffff7a89740
*R8   0x7fffffffd5a0 ◂— 0x20 /* ' ' */
*RSP  0x7fffffffd4e0 ◂— 0x0
────────────────[ DISASM ]─────────────────
 ► 0x7ffff7b1e9fc <pthread_kill+300>    mov    r13d, eax
   0x7ffff7b1e9ff <pthread_kill+303>    neg    r13d
    ↓
";
        let p = crate::input::parse(t);
        assert_eq!(p.diagnostics.lines_unrecognized, 0, "{:?}", p.diagnostics.unrecognized);
        let stop = &p.trace.stops[0];
        let regs = &stop.threads[0].registers[&0];
        assert_eq!(
            (regs.get("rax"), regs.get("rsp"), regs.get("r8")),
            (Some(0), Some(0x7fffffffd4e0), Some(0x7fffffffd5a0))
        );
        let cur: Vec<_> = stop.disassembly.iter().filter(|i| i.current).collect();
        assert_eq!(cur.len(), 1);
        assert_eq!(&*cur[0].text, "mov    r13d, eax");
    }

    #[test]
    fn look_alikes() {
        // Register shapes outside a registers pane are not registers.
        let p = crate::input::parse("RAX: 0x10\n");
        assert!(p.trace.stops.iter().all(|s| s.threads.iter().all(|t| t.registers.is_empty())));
        assert_eq!(heading("-- not a heading --"), None);
        assert_eq!(heading("[------ stack 1 ------]"), None);
        // Another tool's dashed heading is no pane (it would swallow a crash report).
        assert_eq!(heading("--- stdout -------------------------------"), None);
        assert_eq!(heading("--- stderr -------------------------------"), None);
        assert_eq!(heading("──────────[ BACKTRACE ]──────────").as_deref(), Some("backtrace"));
        assert!(pwndbg_insn("► nothing").is_none());
        assert!(register_row("x: 0x1").is_none());
    }
}
