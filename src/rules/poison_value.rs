//! `poison-value`: a register or the fault address holds a well-known fill or poison pattern
//! (allocator junk, debug-heap fill, an overflow payload, a sentinel).
//!
//! The pattern table ([`fill_of`], [`fill_near`]) is shared with `corrupt-backtrace`, which
//! calls frames made of a fill a smashed stack.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::fills::{Fill, Fit, Meaning, allocator, fill_near, fill_of};
use crate::insn::{self, Access};
use crate::model::signals::SI_KERNEL;
use crate::model::*;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "poison-value",
    title: "a register or the fault address holds a fill or poison pattern",
    maturity: Maturity::Stable,
    default_severity: Severity::Warning,
    explanation: r#"**What it flags** A value in the crashed thread's frame-0 registers, or the fault
address, that is a well-known fill pattern rather than real data:

| Pattern | Written by | Reading |
|---|---|---|
| `0xa5a5…` | glibc `MALLOC_PERTURB_=165` on `free()`; jemalloc `opt.junk` on allocation | freed (glibc) or never-initialised (jemalloc) heap memory |
| `0x5a5a…` | glibc `MALLOC_PERTURB_=165` on `malloc()` (165 ^ 0xff); jemalloc `opt.junk` on free | never-initialised (glibc) or freed (jemalloc) heap memory |
| `0xbbbb…` | Julia `MEMDEBUG` builds, freed big objects | freed GC object |
| `0xcccc…` | MSVC `/RTC` uninitialised stack (also `int3` padding) | uninitialised local |
| `0xcdcd…`, `0xdddd…`, `0xfdfd…` | MSVC debug heap: fresh allocation, freed block, guard bytes | uninitialised, freed, out of bounds |
| `0xfeeefeee`, `0xbaadf00d` | Windows `HeapFree` fill, `LocalAlloc` uninitialised | freed, uninitialised |
| `0xdeadbeef` (also `0xdeadbeefdeadbeef`, zero- or sign-extended) | conventional sentinel | a value someone marked as dead |
| `0x4141…` (`'AAAA'`) | overflow test payloads | a buffer overflow wrote over it |
| `0xdead0000000000xx` | Linux `POISON_POINTER_DELTA` (`LIST_POISON1`/`2`), copied by user-space list code | a pointer poisoned on purpose when its object was unlinked |

The finding says which of these applies and, when the value is what faulted (the base register
of the faulting access, the fault address, the return address a `ret` popped, the pc), that it
is the root cause: `read through rax = 0xa5a5a5a5a5a5a5a5 in peer_port, a 0xa5 fill (glibc
MALLOC_PERTURB_=165 free fill): probable use-after-free`. The allocator is taken from the
mapped libraries (jemalloc when `libjemalloc` is mapped, else glibc).

**Why it matters** A fill pattern in a pointer register means the pointer was loaded from
memory that the allocator or the runtime had already written over: freed, never initialised,
or overrun. The crash site is where the damage showed, not where it happened; the pattern tells
which kind of damage to look for.

**Example** `poison.gdb.txt`: `MALLOC_PERTURB_=165`, a 1.5 KB object is freed and then read;
`mov 0x8(%rax),%eax` faults with `rax = 0xa5a5a5a5a5a5a5a5`.

**Known false positives** Only exact patterns are flagged: all eight bytes equal (a known fill
byte), a known 32-bit word repeated, or a 32-bit word zero- or sign-extended. The values 0, -1,
`0x0101…`, `0x8080…`, `0x7f7f…`, `0x5555…`, `0x3333…` and `0x0f0f…` are bit-twiddling
constants (string functions, popcount) and are never flagged in ordinary registers; other
repeated-byte words are flagged only when they are what faulted, as heuristic. A fill that only
sits in a register the fault did not use (a bit-reversal mask `0xcccc…`, a scrambling key
`0xa5a5…`, a word of `'A'` padding: legal constants) raises no finding of its own; it is named
beside a fill that faulted (`also in rbx`) or a return address the backtrace shows as one
(frame #1's pc `0x4141414141414141`: a `ret` would land in the pattern). A 32-bit value
(`0x00000000deadbeef`, `0x00000000a5a5a5a5`) may be an ordinary integer, so it is heuristic and
skipped when the mappings show it is a valid pointer. Partial patterns (`0x00005a5a5a5a5a5a`)
are not flagged. `MALLOC_PERTURB_` takes any byte, so `0xa5`/`0x5a` are assumed to come from the
common setting 165; with another setting the free and allocation fills swap or differ. A
`0xdead…` pointer (`noncanonical.gdb.txt`) is a convention, not an allocator fill: it is
reported at info level, as heuristic, because it tells the reader the object was deliberately
poisoned (use after unlink), while `noncanonical-address` reports the fault itself. Statically
linked jemalloc (Rust's `tikv-jemallocator`) is not detected, so its junk is described with
glibc's reading."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[
        Sample::File("sample-traces/noncanonical.gdb.txt"),
        Sample::File("sample-traces/poison.gdb.txt"),
        Sample::File("sample-traces/smashed-stack.gdb.txt"),
    ],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

/// General-purpose registers worth checking, per architecture (from [`crate::arch`]).
fn is_gpr(arch: Arch, name: &str) -> bool {
    match (crate::arch::table(arch), arch) {
        (Some(t), _) => t.is_general(name),
        (None, Arch::Unknown) => crate::arch::x86_64::TABLE.is_general(name),
        (None, _) => !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric()),
    }
}

/// The role a value plays in the crash.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Role {
    /// Base or index register of the faulting memory access.
    Base {
        reg: String,
        access: Access,
    },
    FaultAddress,
    /// The word a faulting `ret` pops.
    ReturnAddress {
        reg: String,
    },
    /// The pc the backtrace gives an outer frame (the return address the unwinder found):
    /// control would return into the pattern.
    CallerPc {
        index: u32,
    },
    /// The pc itself (jumped to the pattern) or the target register of an indirect call.
    Target {
        reg: String,
    },
    Register {
        reg: String,
    },
}

impl Role {
    fn faulting(&self) -> bool {
        !matches!(self, Role::Register { .. })
    }
}

struct Hit {
    role: Role,
    value: u64,
    fill: Fill,
    offset: i64,
    span: Option<Span>,
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    let arch = cx.trace.arch;
    let alloc = allocator(cx.trace);
    for (si, stop) in cx.stops() {
        let r = &stop.reason;
        if !matches!(
            r.kind,
            StopKind::Signal | StopKind::Breakpoint | StopKind::Watchpoint | StopKind::Snapshot | StopKind::Unknown
        ) {
            continue;
        }
        let th = stop.crashed_thread();
        let regs = stop.registers();
        let is_fault = r.kind == StopKind::Signal && matches!(r.signo, Some(4) | Some(7) | Some(11));
        let mut hits: Vec<Hit> = Vec::new();
        let reg_val = |name: &str| cx.reg0(stop, name).and_then(|x| x.value.map(|v| (v, x.span)));

        if is_fault {
            // The fault address (SIGSEGV/SIGBUS only: SIGABRT's si_addr is the sender's pid).
            if let Some(a) = r.address.filter(|a| !(r.si_code == Some(SI_KERNEL) && a.0 == 0))
                && let Some((fill, offset)) = fill_near(a.0, arch, alloc)
            {
                let span = stop.printed.iter().find(|p| p.shows_si_addr).map(|p| p.span).or(Some(r.span));
                hits.push(Hit { role: Role::FaultAddress, value: a.0, fill, offset, span });
            }
            if let Some(i) = cx.fault_insn(stop) {
                let d = insn::decode(&i.text);
                if let (Some(m), Some(access)) = (&d.mem, d.access) {
                    for reg in [&m.base, &m.index].into_iter().flatten() {
                        if let Some((v, span)) = reg_val(reg)
                            && let Some(fill) = fill_of(v, arch, alloc)
                        {
                            hits.push(Hit {
                                role: Role::Base { reg: reg.clone(), access },
                                value: v,
                                fill,
                                offset: 0,
                                span: Some(span),
                            });
                        }
                    }
                }
                if let Some(t) = &d.indirect_target
                    && let Some((v, span)) = reg_val(t)
                    && let Some(fill) = fill_of(v, arch, alloc)
                {
                    hits.push(Hit {
                        role: Role::Target { reg: t.clone() },
                        value: v,
                        fill,
                        offset: 0,
                        span: Some(span),
                    });
                }
                if matches!(d.mnemonic.as_str(), "ret" | "retq") {
                    let sp = arch.sp_register();
                    if let Some((spv, _)) = reg_val(sp)
                        && let Some(w) = stop.read_u64(spv)
                        && let Some(fill) = fill_of(w, arch, alloc)
                    {
                        let span = stop.memory.iter().find(|m| m.read_u64(spv).is_some()).map(|m| m.span);
                        hits.push(Hit {
                            role: Role::ReturnAddress { reg: sp.to_string() },
                            value: w,
                            fill,
                            offset: 0,
                            span,
                        });
                    }
                }
            }
            // The first outer frame's pc: a return address the unwinder read from the stack.
            if let Some(f) = th.and_then(|t| t.frames.iter().skip(1).find(|f| !f.inlined && !f.signal_handler))
                && let Some(pc) = f.pc
                && let Some(fill) = fill_of(pc.0, arch, alloc).filter(|f| f.fit == Fit::Exact && f.known)
                && !hits.iter().any(|h| matches!(h.role, Role::ReturnAddress { .. }) && h.value == pc.0)
            {
                hits.push(Hit {
                    role: Role::CallerPc { index: f.index },
                    value: pc.0,
                    fill,
                    offset: 0,
                    span: Some(f.span),
                });
            }
            if let Some(pc) = cx.pc(stop)
                && let Some(fill) = fill_of(pc, arch, alloc)
            {
                let span = regs.and_then(|s| s.reg(arch.pc_register())).map(|x| x.span);
                hits.push(Hit {
                    role: Role::Target { reg: arch.pc_register().to_string() },
                    value: pc,
                    fill,
                    offset: 0,
                    span,
                });
            }
        }
        // Every other general-purpose register of frame 0.
        if let Some(set) = regs {
            for reg in &set.regs {
                let Some(v) = reg.value else { continue };
                if !is_gpr(arch, &reg.name) || hits.iter().any(|h| role_reg(&h.role) == Some(&*reg.name)) {
                    continue;
                }
                // gdb resolved it to a symbol: a real address.
                if reg.natural.as_ref().is_some_and(|n| n.symbol().is_some()) {
                    continue;
                }
                if let Some(fill) = fill_of(v, arch, alloc) {
                    // Unknown repeated bytes only count when they faulted.
                    if !fill.known {
                        continue;
                    }
                    hits.push(Hit {
                        role: Role::Register { reg: reg.name.to_string() },
                        value: v,
                        fill,
                        offset: 0,
                        span: Some(reg.span),
                    });
                }
            }
        }
        // A 32-bit or prefix match that the mappings show to be a valid pointer is a pointer.
        hits.retain(|h| {
            if h.fill.fit == Fit::Exact {
                return true;
            }
            let c = cx.classifier.classify(h.value);
            // Keep it unless the mappings (not a layout guess) say it points into memory.
            !c.kind.is_pointer_like() || c.heuristic
        });
        // A fill that merely sits in a register the fault did not use is no evidence about
        // this crash: legal code keeps such constants (bit-reversal masks 0xcccc…, a
        // scrambling key 0xa5a5…, a word of 'A' padding). It only counts beside one that faulted.
        if !hits.iter().any(|h| h.role.faulting()) {
            continue;
        }
        let Some(best) = hits
            .iter()
            .enumerate()
            .min_by_key(|(i, h)| (!h.role.faulting(), h.fill.fit != Fit::Exact, !h.fill.known, *i))
            .map(|(i, _)| i)
        else {
            continue;
        };
        let h = &hits[best];
        let func =
            th.and_then(|t| t.frames.first()).map(|f| f.function_name().to_string()).unwrap_or_else(|| "??".into());
        let what = describe(&h.fill);
        let mut msg = match &h.role {
            Role::Base { reg, access } => {
                let verb = match access {
                    Access::Read => "read",
                    Access::Write => "write",
                    Access::ReadWrite => "access",
                };
                format!("{verb} through {reg} = {:#x} in {func}, {what}", h.value)
            }
            Role::FaultAddress if h.offset == 0 => format!("fault address {:#x} in {func} is {what}", h.value),
            Role::FaultAddress => {
                let base = h.value.wrapping_sub(h.offset as u64);
                let sign = if h.offset < 0 { '-' } else { '+' };
                format!(
                    "fault address {:#x} in {func} is {base:#x} {sign} {:#x}, {what}",
                    h.value,
                    h.offset.unsigned_abs()
                )
            }
            Role::ReturnAddress { reg } => format!("ret in {func} pops {:#x} from [{reg}], {what}", h.value),
            Role::CallerPc { index } => {
                format!("the return address of frame #{index} (the caller of {func}) is {:#x}, {what}", h.value)
            }
            Role::Target { reg } => format!("{reg} = {:#x} in {func}: control reached {what}", h.value),
            Role::Register { reg } => format!("{reg} = {:#x} in {func} is {what}", h.value),
        };
        msg.push_str(": ");
        msg.push_str(if h.fill.fit == Fit::Prefix {
            "the pointer was poisoned on purpose, probably when its object was unlinked"
        } else {
            h.fill.meaning.conclusion()
        });
        let others: Vec<String> = hits
            .iter()
            .enumerate()
            .filter(|(i, o)| {
                *i != best
                    && o.fill.name == h.fill.name
                    && role_reg(&o.role).is_some()
                    && role_reg(&o.role) != role_reg(&h.role)
            })
            .filter_map(|(_, o)| role_reg(&o.role).map(str::to_string))
            .collect();
        if !others.is_empty() {
            msg.push_str(&format!(" (also in {})", others.join(", ")));
        }
        let mut f = Finding::new(&RULE, msg).at(si, th, Some(0));
        // (severity, heuristic, rank): what faulted outranks what merely sits in a register;
        // a 32-bit value, an unknown byte, or a sentinel is a weaker reading.
        let solid = h.fill.known && h.fill.fit == Fit::Exact;
        let (severity, heuristic, rank) = match (h.role.faulting(), h.fill.fit) {
            (_, Fit::Prefix) => (Severity::Info, true, 20),
            (true, _) if solid => (Severity::Error, false, 70),
            (true, _) => (Severity::Warning, true, 60),
            (false, _) if solid && h.fill.meaning != Meaning::Sentinel => (Severity::Warning, false, 30),
            (false, _) => (Severity::Info, true, 10),
        };
        f.severity = severity;
        f.heuristic = heuristic;
        f = f.rank(rank);
        for o in &hits {
            if let Some(reg) = role_reg(&o.role)
                && !f.registers.iter().any(|r| r == reg)
            {
                f = f.register(reg);
            }
            let label = match &o.role {
                Role::Base { reg, .. } | Role::Target { reg } | Role::Register { reg } => {
                    format!("{reg} = {:#x}", o.value)
                }
                Role::FaultAddress => format!("fault address {:#x}", o.value),
                Role::ReturnAddress { reg } => format!("[{reg}] = {:#x} (return address)", o.value),
                Role::CallerPc { index } => format!("frame #{index} pc = {:#x} (return address)", o.value),
            };
            f = f.evidence(format!("{label}: {}, {}", o.fill.name, o.fill.source), o.span);
        }
        if let Some(i) = cx.fault_insn(stop) {
            f = f.evidence(format!("faulting instruction: {}", i.text), Some(i.span));
        }
        // Where else the transcript shows the same pattern: printed values and memory dumps.
        let hex = format!("{:#x}", h.value);
        for p in stop.printed.iter().filter(|p| p.words.contains(&h.value)).take(2) {
            let expr = p.expr.as_deref().map(|e| format!("p {e}")).unwrap_or_else(|| "printed value".into());
            f = f.evidence(format!("{expr} = {}", p.value.trim()), Some(p.span));
        }
        if h.fill.fit == Fit::Exact {
            for m in stop.memory.iter().filter(|m| m.unit == 8 && m.words.contains(&h.value)).take(2) {
                let n = m.words.iter().filter(|w| **w == h.value).count();
                let expr = m
                    .expr
                    .as_deref()
                    .map(|e| format!("x/{}gx {e}", m.words.len()))
                    .unwrap_or_else(|| format!("memory at {}", m.address));
                f = f.evidence(format!("{expr}: {n} of {} words are {hex}", m.words.len()), Some(m.span));
            }
        }
        match h.fill.meaning {
            Meaning::Freed | Meaning::Uninitialised | Meaning::Guard => {
                f = f.step(
                    "rerun under valgrind or with -fsanitize=address to see where the block was freed or allocated",
                );
                f = f.step("rr: watch -l <the field the pointer came from>, then reverse-continue to the write");
            }
            Meaning::Overflow => {
                f = f.step("x/32gx $sp");
                f = f.step("info frame");
                f = f.step("rerun with -fsanitize=address or -fstack-protector-all to catch the overflowing write");
            }
            Meaning::Sentinel | Meaning::Unknown => {
                f = f.step("rr: watch -l <the field the value came from>, then reverse-continue to the write");
            }
        }
        out.push(f);
    }
}

fn role_reg(r: &Role) -> Option<&str> {
    match r {
        Role::Base { reg, .. } | Role::Target { reg } | Role::Register { reg } => Some(reg),
        Role::FaultAddress | Role::ReturnAddress { .. } | Role::CallerPc { .. } => None,
    }
}

/// `a 0xa5 fill (glibc MALLOC_PERTURB_=165 free fill)`.
fn describe(f: &Fill) -> String {
    match f.fit {
        Fit::Prefix => format!("a {} ({})", f.name, f.source),
        _ if !f.known => format!("a {} of no known origin", f.name),
        _ => format!("{} {} ({})", article(&f.name), f.name, f.source),
    }
}

fn article(name: &str) -> &'static str {
    if name.starts_with('\'') { "an" } else { "a" }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fills::Allocator;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    const G: Allocator = Allocator::Glibc;
    const X: Arch = Arch::X86_64;

    #[test]
    fn patterns() {
        let f = fill_of(0xa5a5a5a5a5a5a5a5, X, G).unwrap();
        assert_eq!((f.fit, f.meaning, f.known), (Fit::Exact, Meaning::Freed, true));
        assert_eq!(fill_of(0xa5a5a5a5a5a5a5a5, X, Allocator::Jemalloc).unwrap().meaning, Meaning::Uninitialised);
        assert_eq!(fill_of(0x5a5a5a5a5a5a5a5a, X, Allocator::Jemalloc).unwrap().meaning, Meaning::Freed);
        assert_eq!(fill_of(0x4141414141414141, X, G).unwrap().name, "'AAAA…' (0x41) fill");
        assert_eq!(fill_of(0xdeadbeefdeadbeef, X, G).unwrap().fit, Fit::Exact);
        assert_eq!(fill_of(0x00000000deadbeef, X, G).unwrap().fit, Fit::Low32);
        assert_eq!(fill_of(0xffffffffdeadbeef, X, G).unwrap().fit, Fit::Low32);
        assert_eq!(fill_of(0x00000000a5a5a5a5, X, G).unwrap().name, "32-bit 0xa5 fill");
        assert_eq!(fill_of(0xfeeefeeefeeefeee, X, G).unwrap().meaning, Meaning::Freed);
        assert_eq!(fill_of(0xbaadf00d, X, G).unwrap().meaning, Meaning::Uninitialised);
        assert_eq!(fill_of(0xcdcdcdcdcdcdcdcd, X, G).unwrap().meaning, Meaning::Uninitialised);
        assert_eq!(fill_of(0xdddddddddddddddd, X, G).unwrap().meaning, Meaning::Freed);
        assert_eq!(fill_of(0xfdfdfdfdfdfdfdfd, X, G).unwrap().meaning, Meaning::Guard);
        assert_eq!(fill_of(0xbbbbbbbbbbbbbbbb, X, G).unwrap().meaning, Meaning::Freed);
        assert_eq!(fill_of(0xcccccccccccccccc, X, G).unwrap().meaning, Meaning::Uninitialised);
        assert_eq!(fill_of(0xdead000000000000, X, G).unwrap().fit, Fit::Prefix);
        assert_eq!(fill_of(0xdead000000000100, X, G).unwrap().fit, Fit::Prefix);
        // An unknown repeated byte is a pattern, but not a known one.
        assert!(!fill_of(0x4242424242424242, X, G).unwrap().known);
        // 32-bit x86: the 32-bit word is the whole register.
        assert_eq!(fill_of(0xa5a5a5a5, Arch::X86, G).unwrap().fit, Fit::Exact);
    }

    #[test]
    fn not_patterns() {
        for v in [
            0u64,
            u64::MAX,
            0xffffffff,
            0x0101010101010101,
            0x8080808080808080,
            0x7f7f7f7f7f7f7f7f,
            0xfefefefefefefeff,
            0x5555555555555555,
            0x3333333333333333,
            0x0f0f0f0f0f0f0f0f,
            0x2a,
            0xa5,
            0x00005a5a5a5a5a5a,
            0x7fffffffe950,
            0x5555555592a0,
            0xdeadbeef00000000,
            0xdead000012340000,
        ] {
            assert_eq!(fill_of(v, X, G), None, "{v:#x}");
        }
    }

    #[test]
    fn near_patterns() {
        let (f, off) = fill_near(0x4141414141414149, X, G).unwrap();
        assert_eq!((f.name.as_str(), off), ("'AAAA…' (0x41) fill", 8));
        let (f, off) = fill_near(0xa5a5a5a5a5a5a5ad, X, G).unwrap();
        assert_eq!((f.meaning, off), (Meaning::Freed, 8));
        assert_eq!(fill_near(0xa5a5a5a5a5a5a59d, X, G).map(|x| x.1), Some(-8));
        assert_eq!(fill_near(0x4141414141414141, X, G).map(|x| x.1), Some(0));
        assert_eq!(fill_near(0x7fffffffe950, X, G), None);
        assert_eq!(fill_near(0x18, X, G), None);
    }

    #[test]
    fn fires_on_use_after_free_sample() {
        let f = run_rule_on_sample(&RULE, "poison.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "read through rax = 0xa5a5a5a5a5a5a5a5 in peer_port, a 0xa5 fill (glibc MALLOC_PERTURB_=165 free fill): probable use-after-free"
        );
        assert_eq!(f[0].severity, Severity::Error);
        assert!(!f[0].heuristic);
        assert_eq!(f[0].registers, vec!["rax"]);
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.text.starts_with("rax = 0xa5a5a5a5a5a5a5a5") && e.lines == Some(Span::line(15))),
            "{:#?}",
            f[0].evidence
        );
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.text == "p c->peer = (struct peer *) 0xa5a5a5a5a5a5a5a5" && e.lines == Some(Span::line(57)))
        );
        assert!(f[0].evidence.iter().any(|e| e.text.contains("mov    0x8(%rax),%eax")));
    }

    #[test]
    fn fires_on_smashed_stack_sample() {
        let f = run_rule_on_sample(&RULE, "smashed-stack.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "ret in copy_name pops 0x4141414141414141 from [rsp], an 'AAAA…' (0x41) fill (the usual overflow test payload): a buffer overflow wrote over this value (also in rbp)"
        );
        assert_eq!(f[0].severity, Severity::Error);
        assert_eq!(f[0].registers, vec!["rbp"]);
        assert!(f[0].evidence.iter().any(|e| e.text == "x/8gx $sp: 8 of 8 words are 0x4141414141414141"));
    }

    #[test]
    fn noncanonical_sample_is_info_heuristic() {
        let f = run_rule_on_sample(&RULE, "noncanonical.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Info);
        assert!(f[0].heuristic);
        assert!(
            f[0].message.starts_with("read through rax = 0xdead000000000000 in list_find, a 0xdead… poison pointer"),
            "{}",
            f[0].message
        );
    }

    #[test]
    fn quiet_on_null_and_abort_samples() {
        for s in [
            "null-field.gdb.txt",
            "glibc-abort.gdb.txt",
            "rust-panic.gdb.txt",
            "c-r13-plain.gdb.txt",
            "stack-chk.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }

    const JEMALLOC_UAF: &str = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555139 in get (s=0x7ffff7a0c000) at t.c:4
(gdb) info registers
rax            0x5a5a5a5a5a5a5a5a  6510615555426900570
rbx            0x7fffffffe818      140737488349208
rip            0x555555555139      0x555555555139 <get+16>
(gdb) x/i $pc
=> 0x555555555139 <get+16>:\tmov    0x10(%rax),%rdx
(gdb) info sharedlibrary
From                To                  Syms Read   Shared Object Library
0x00007ffff7fc5090  0x00007ffff7fee335  Yes         /lib64/ld-linux-x86-64.so.2
0x00007ffff7f30000  0x00007ffff7f90000  Yes         /usr/lib/x86_64-linux-gnu/libjemalloc.so.2
";

    #[test]
    fn jemalloc_free_junk() {
        let f = run_rule(&RULE, JEMALLOC_UAF);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "read through rax = 0x5a5a5a5a5a5a5a5a in get, a 0x5a fill (jemalloc opt.junk free fill): probable use-after-free"
        );
    }

    #[test]
    fn a_fill_only_in_an_unrelated_register_is_quiet_and_one_that_faulted_fires() {
        let t = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000555555555139 in get (s=0x0) at t.c:4
(gdb) info registers
rax            0x0                 0
rcx            0x8080808080808080  -9187201950435737472
rdx            0x101010101010101   72340172838076673
r8             0xffffffffffffffff  -1
r9             0xdddddddddddddddd  -2459565876494606883
rip            0x555555555139      0x555555555139 <get+16>
(gdb) x/i $pc
=> 0x555555555139 <get+16>:\tmov    0x10(%rax),%rdx
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 1, _sifields = {_sigfault = {si_addr = 0x10}}}
";
        // r9's 0xdd… played no part in the NULL read: legal code keeps such constants
        // (crashers/fill-patterns-legal), so it is no evidence about this crash.
        assert!(run_rule(&RULE, t).is_empty());
        // The same fill in the faulting base register: a finding, with r9 named beside it.
        let faulted = t
            .replace("rax            0x0                 0", "rax            0xdddddddddddddddd  -2459565876494606883")
            .replace("si_addr = 0x10", "si_addr = 0x0");
        let f = run_rule(&RULE, &faulted);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "read through rax = 0xdddddddddddddddd in get, a 0xdd fill (MSVC debug heap fill of freed blocks): probable use-after-free (also in r9)"
        );
        assert_eq!(f[0].severity, Severity::Error);
    }

    #[test]
    fn fault_address_near_pattern_and_abort_alias() {
        let t = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000aaaaaaaa0a14 in get (s=0x0) at t.c:4
(gdb) p $_siginfo
$1 = {si_signo = 11, si_errno = 0, si_code = 1, _sifields = {_sigfault = {si_addr = 0xcdcdcdcdcdcdcdd5}}}
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "fault address 0xcdcdcdcdcdcdcdd5 in get is 0xcdcdcdcdcdcdcdcd + 0x8, a 0xcd fill (MSVC debug heap fill of new allocations): use of uninitialised memory"
        );
        // SIGABRT: si_addr is the sender's pid, never an address (even if it looked like one).
        let abrt = t
            .replace("SIGSEGV, Segmentation fault", "SIGABRT, Aborted")
            .replace("si_signo = 11", "si_signo = 6")
            .replace("si_code = 1", "si_code = -6");
        assert!(run_rule(&RULE, &abrt).is_empty());
    }

    #[test]
    fn thirty_two_bit_value_that_is_a_mapped_pointer_is_not_poison() {
        let t = "\
Program received signal SIGSEGV, Segmentation fault.
0x0000000000401139 in get (s=0x0) at t.c:4
(gdb) info registers
rbx            0xdeadbeef          3735928559
rip            0x401139            0x401139 <get+16>
(gdb) x/i $pc
=> 0x401139 <get+16>:\tmov    0x10(%rbx),%rdx
(gdb) info proc mappings
process 1
Mapped address spaces:

          Start Addr           End Addr       Size     Offset  Perms  objfile
            0x400000           0x402000     0x2000        0x0  r-xp   /tmp/t
          0xdead0000         0xdeaf0000    0x20000        0x0  rw-p   
";
        assert!(run_rule(&RULE, t).is_empty());
        let unmapped = t.replace("0xdead0000         0xdeaf0000", "0xd0000000         0xd0010000");
        let f = run_rule(&RULE, &unmapped);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].severity, Severity::Warning);
        assert!(f[0].heuristic);
    }
}
