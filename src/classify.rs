//! Address-space classification: what kind of memory a value points into.
//!
//! With `info proc mappings` (or a core's file notes) the answer comes from the mapping that
//! holds the value. Without them, the usual Linux layouts for x86-64 and AArch64 give a
//! best guess that is always labelled heuristic.

use crate::model::*;
use serde::Serialize;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RegionKind {
    /// 0 .. 4 KiB: a NULL pointer plus a field offset.
    ZeroPage,
    /// Below 64 KiB (and not the zero page): almost certainly not a pointer.
    SmallInteger,
    /// Not a canonical address on this architecture.
    NonCanonical,
    /// Executable file-backed mapping.
    Code,
    /// Read-only file-backed data (`.rodata`, RELRO).
    ReadOnlyData,
    /// Writable file-backed data (`.data`, `.bss`).
    WritableData,
    /// `[heap]` (brk heap).
    Heap,
    /// A thread's stack.
    Stack,
    /// Anonymous writable memory: malloc arenas, GC pools, thread stacks of other threads.
    Anonymous,
    /// Anonymous executable memory: JIT code.
    Jit,
    /// `[vdso]`, `[vvar]`, `[vsyscall]`.
    Special,
    /// Inside no mapping although mappings were printed.
    Unmapped,
    /// Kernel half of the address space.
    Kernel,
    /// Cannot tell (no mappings and no heuristic applies).
    Unknown,
}

impl RegionKind {
    pub fn name(self) -> &'static str {
        match self {
            RegionKind::ZeroPage => "zero page",
            RegionKind::SmallInteger => "small integer",
            RegionKind::NonCanonical => "non-canonical",
            RegionKind::Code => "code",
            RegionKind::ReadOnlyData => "read-only data",
            RegionKind::WritableData => "writable data",
            RegionKind::Heap => "heap",
            RegionKind::Stack => "stack",
            RegionKind::Anonymous => "anonymous",
            RegionKind::Jit => "anonymous executable (JIT?)",
            RegionKind::Special => "kernel-provided",
            RegionKind::Unmapped => "unmapped",
            RegionKind::Kernel => "kernel address",
            RegionKind::Unknown => "unknown",
        }
    }
    /// Could a valid data pointer have this kind?
    pub fn is_pointer_like(self) -> bool {
        matches!(
            self,
            RegionKind::Code
                | RegionKind::ReadOnlyData
                | RegionKind::WritableData
                | RegionKind::Heap
                | RegionKind::Stack
                | RegionKind::Anonymous
                | RegionKind::Jit
                | RegionKind::Special
        )
    }
    pub fn is_writable_memory(self) -> bool {
        matches!(self, RegionKind::WritableData | RegionKind::Heap | RegionKind::Anonymous | RegionKind::Stack)
    }
}

/// The answer for one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Class {
    pub kind: RegionKind,
    /// The file of the mapping (basename shown by `Display`).
    pub path: Option<Sym>,
    /// Offset of the value from the start of its mapping.
    pub offset: Option<u64>,
    /// A symbol the debugger printed next to the value (`main+16`), typed at input time.
    pub symbol: Option<SymbolRef>,
    /// Derived from address-layout heuristics, not from printed mappings.
    pub heuristic: bool,
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.name())?;
        // A guess (no mappings printed) is marked `?`; the report says once why
        // (`analyze::missing_evidence`), instead of a note on every value.
        if self.heuristic {
            f.write_str("?")?;
        }
        if let Some(p) = &self.path {
            let base = p.rsplit('/').next().unwrap_or(p);
            if !base.starts_with('[') || self.kind == RegionKind::Special {
                write!(f, " ({base})")?;
            }
        }
        if let Some(s) = &self.symbol {
            write!(f, " <{s}>")?;
        }
        Ok(())
    }
}

/// What a register value is, computed once by [`annotate_register`] and formatted by every
/// renderer (text, JSON, markdown, TUI): no renderer parses an annotation back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Annotation {
    /// Zero.
    Null,
    /// Below 0x10000: an integer more likely than a pointer.
    SmallInteger,
    /// -1, -128, …: an integer, not a kernel address.
    SmallNegative(i64),
    /// An address: its region, module, the symbol the debugger printed (name and offset) and
    /// whether it rests on layout heuristics.
    Region(Class),
}

impl Annotation {
    /// The region colour to draw it in.
    pub fn kind(&self) -> RegionKind {
        match self {
            Annotation::Null => RegionKind::ZeroPage,
            Annotation::SmallInteger | Annotation::SmallNegative(_) => RegionKind::SmallInteger,
            Annotation::Region(c) => c.kind,
        }
    }
    /// The annotation with the symbol first (`<sym+off> code (mod)`), for narrow panes where
    /// the symbol matters most when the text is cut (a guess keeps its order, so its
    /// `[guess: …]` mark stays last).
    pub fn symbol_first(&self) -> String {
        match self {
            Annotation::Region(c) if c.symbol.is_some() && !c.heuristic => {
                let rest = Class { symbol: None, ..c.clone() };
                format!("<{}> {rest}", c.symbol.as_ref().map(ToString::to_string).unwrap_or_default())
            }
            a => a.to_string(),
        }
    }
}

impl fmt::Display for Annotation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Annotation::Null => f.write_str("null"),
            Annotation::SmallInteger => f.write_str("small integer"),
            Annotation::SmallNegative(v) => write!(f, "small negative integer ({v})"),
            Annotation::Region(c) => c.fmt(f),
        }
    }
}

/// The annotation of a register value: what it points into, plus the symbol gdb printed
/// next to it. `None` for registers that are not addresses (flags, segments, system
/// registers: [`crate::arch`]) and for values nothing is known about.
pub fn annotate_register(r: &Register, c: &Classifier<'_>, arch: Arch) -> Option<Annotation> {
    let v = r.value?;
    if crate::arch::never_address(&r.name, arch) {
        return None;
    }
    if v < 0x10000 {
        // Registers hold integers as often as pointers: say "small integer", not "zero page".
        return Some(if v == 0 { Annotation::Null } else { Annotation::SmallInteger });
    }
    if (v as i64) < 0 && (v as i64) > -0x10000 {
        return Some(Annotation::SmallNegative(v as i64));
    }
    let mut class = c.classify(v);
    class.symbol = r.natural.as_ref().and_then(|n| n.symbol()).cloned();
    if class.kind == RegionKind::Unknown && class.symbol.is_none() {
        return None;
    }
    Some(Annotation::Region(class))
}

/// Classifies values against one trace.
pub struct Classifier<'a> {
    trace: &'a Trace,
    /// Highest code address of the main program seen in frames (PIE range), for telling the
    /// program image from the brk heap that follows it when no mappings were printed.
    pie_code_hi: Option<u64>,
    /// The same for a non-PIE AArch64 image (0x400000 up): data and the brk heap follow its
    /// code, so a value above every frame's pc there is not known to be code.
    image_code_hi: Option<u64>,
    /// Stack pointers of all threads (any stop), for telling stacks apart from other
    /// anonymous memory.
    sps: std::borrow::Cow<'a, [u64]>,
}

/// What [`Classifier::new`] gathers from every frame and register set of a trace. Gathering
/// it walks the whole trace (a few ms on a 60 MB `thread apply all bt full`), so a caller
/// that classifies again and again against the same trace (the TUI, at every frame it draws)
/// computes it once with [`TraceFacts::of`] and uses [`Classifier::with_facts`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceFacts {
    pie_code_hi: Option<u64>,
    image_code_hi: Option<u64>,
    sps: Vec<u64>,
}

impl TraceFacts {
    pub fn of(trace: &Trace) -> TraceFacts {
        let sp = trace.arch.sp_register();
        let mut sps: Vec<u64> = trace
            .stops
            .iter()
            .flat_map(|s| s.threads.iter())
            .flat_map(|t| t.registers.values())
            .filter_map(|r| r.get(sp))
            // A stack pointer below 64 KiB (a small integer, the zero page) is a wild one
            // (`stack-pointer-wild`): no stack is there, so nothing near it is guessed to be.
            .filter(|&v| v >= 0x10000)
            .collect();
        sps.sort_unstable();
        sps.dedup();
        let pcs = || {
            trace
                .stops
                .iter()
                .flat_map(|s| s.threads.iter())
                .flat_map(|t| t.frames.iter())
                .filter_map(|f| f.pc.map(|a| a.0))
        };
        let pie_code_hi = pcs().filter(|pc| Classifier::in_pie_range(trace.arch, *pc)).max();
        let image_code_hi = match trace.arch {
            Arch::Aarch64 => pcs().filter(|pc| (0x400000..0x1_0000_0000).contains(pc)).max(),
            // x86-64: only frames with a source line, whose pcs are real code (gdb also prints
            // frames unwound from garbage, `runtime[scavenger]` at a .bss address, above a Go
            // `runtime.mcall`); without debug information the whole range is taken for code.
            Arch::X86_64 | Arch::Unknown => trace
                .stops
                .iter()
                .flat_map(|s| s.threads.iter())
                .flat_map(|t| t.frames.iter())
                .filter(|f| f.file.is_some())
                .filter_map(|f| f.pc.map(|a| a.0))
                .filter(|pc| (0x40_0000..0x100_0000).contains(pc))
                .max(),
            _ => None,
        };
        TraceFacts { pie_code_hi, image_code_hi, sps }
    }
}

impl<'a> Classifier<'a> {
    pub fn new(trace: &'a Trace) -> Self {
        let TraceFacts { pie_code_hi, image_code_hi, sps } = TraceFacts::of(trace);
        Classifier { trace, pie_code_hi, image_code_hi, sps: std::borrow::Cow::Owned(sps) }
    }

    /// The same classifier as [`Classifier::new`], from facts gathered earlier from this
    /// same trace (`TraceFacts::of(trace)`); nothing is walked.
    pub fn with_facts(trace: &'a Trace, facts: &'a TraceFacts) -> Self {
        Classifier {
            trace,
            pie_code_hi: facts.pie_code_hi,
            image_code_hi: facts.image_code_hi,
            sps: std::borrow::Cow::Borrowed(&facts.sps),
        }
    }

    pub fn has_mappings(&self) -> bool {
        !self.trace.mappings.is_empty()
    }

    pub fn is_canonical(&self, v: u64) -> bool {
        match self.trace.arch {
            // 48-bit user/kernel halves (5-level paging allows 57 bits; user space rarely uses it).
            Arch::X86_64 | Arch::Unknown => {
                let top = v >> 47;
                top == 0 || top == (1 << 17) - 1
            }
            Arch::Aarch64 => {
                // Ignore the top byte (TBI) for user pointers; bits 48..56 must match bit 55.
                let t = (v >> 48) & 0xff;
                t == 0 || t == 0xff
            }
            _ => true,
        }
    }

    /// Classifies a value; `symbol` is what the debugger printed next to it, if anything.
    pub fn classify(&self, v: u64) -> Class {
        let mut c = Class { kind: RegionKind::Unknown, path: None, offset: None, symbol: None, heuristic: false };
        if v < 0x1000 {
            c.kind = RegionKind::ZeroPage;
            return c;
        }
        if !self.is_canonical(v) {
            c.kind = RegionKind::NonCanonical;
            return c;
        }
        if let Some(m) = self.trace.mapping_for(v) {
            c.path = m.path.clone();
            c.offset = Some(v - m.start.0);
            c.kind = self.kind_of_mapping(m, v);
            return c;
        }
        if v < 0x10000 {
            c.kind = RegionKind::SmallInteger;
            return c;
        }
        if self.has_mappings() {
            c.kind = if self.is_kernel(v) { RegionKind::Kernel } else { RegionKind::Unmapped };
            return c;
        }
        if let Some(lib) = self.trace.library_for(v) {
            c.kind = RegionKind::Code;
            c.path = Some(lib.path.clone());
            c.offset = lib.from.map(|f| v - f.0);
            return c;
        }
        c.heuristic = true;
        c.kind = self.guess(v);
        c
    }

    fn is_kernel(&self, v: u64) -> bool {
        match self.trace.arch {
            Arch::Aarch64 => v >> 48 == 0xffff,
            _ => v >> 47 == (1 << 17) - 1,
        }
    }

    fn kind_of_mapping(&self, m: &Mapping, v: u64) -> RegionKind {
        let path = m.path.as_deref().unwrap_or("");
        if path == "[stack]" || path.starts_with("[stack:") {
            return RegionKind::Stack;
        }
        if path == "[heap]" {
            return RegionKind::Heap;
        }
        if path.starts_with('[') {
            return RegionKind::Special;
        }
        let exec = m.executable();
        let write = m.writable();
        let anon = path.is_empty()
            || path.starts_with("/memfd:")
            || path.starts_with("/dev/zero")
            || path.contains("(deleted)") && path.contains("/memfd");
        if anon {
            // A thread stack: the mapping holds some thread's stack pointer. An executable one
            // too when it is writable (`rwxp`): a program linked with `-z execstack` (GNU C
            // nested functions' trampolines, old assembly) has every thread stack executable.
            let holds_sp = self.sps.iter().any(|&sp| sp >= m.start.0 && sp < m.end.0) && m.contains(v);
            if exec == Some(true) && !(holds_sp && write == Some(true)) {
                return RegionKind::Jit;
            }
            if holds_sp {
                return RegionKind::Stack;
            }
            return RegionKind::Anonymous;
        }
        match (exec, write) {
            (Some(true), _) => RegionKind::Code,
            (Some(false), Some(false)) => RegionKind::ReadOnlyData,
            (Some(false), Some(true)) => RegionKind::WritableData,
            // Old gdb without a Perms column: guess from the offset (first mapping of a file is
            // usually its ELF header and text for non-PIE; cannot tell reliably).
            _ => {
                if self
                    .trace
                    .libraries
                    .iter()
                    .any(|l| matches!((l.from, l.to), (Some(f), Some(t)) if f.0 <= v && v < t.0))
                {
                    RegionKind::Code
                } else {
                    RegionKind::WritableData
                }
            }
        }
    }

    fn in_pie_range(arch: Arch, v: u64) -> bool {
        match arch {
            Arch::Aarch64 => (0xaaaa_0000_0000..0xaaac_0000_0000).contains(&v),
            _ => (0x5555_5555_0000..0x5655_5556_0000).contains(&v),
        }
    }

    /// In the program's image (code, then data) or in the brk heap right after it, judged
    /// from the highest code address seen in a frame.
    fn guess_pie(&self, v: u64) -> RegionKind {
        match self.pie_code_hi {
            // Code pages end near the highest frame pc; data and bss follow within a few pages.
            Some(hi) if v <= (hi | 0xfff) => RegionKind::Code,
            Some(hi) if v <= (hi | 0xfff) + 0x3000 => RegionKind::WritableData,
            Some(_) => RegionKind::Heap,
            None => RegionKind::Unknown,
        }
    }

    /// Layout heuristics for Linux when no mappings were printed.
    fn guess(&self, v: u64) -> RegionKind {
        if self.sps.iter().any(|&sp| v.abs_diff(sp) < 8 << 20) {
            return RegionKind::Stack;
        }
        match self.trace.arch {
            Arch::Aarch64 => {
                if (0xffff_f000_0000..0x1_0000_0000_0000).contains(&v) {
                    RegionKind::Stack
                } else if Self::in_pie_range(Arch::Aarch64, v) {
                    self.guess_pie(v)
                } else if (0xffff_0000_0000..0xffff_f000_0000).contains(&v) {
                    RegionKind::Anonymous
                } else if (0x400000..0x1_0000_0000).contains(&v) {
                    // A non-PIE image: its code ends somewhere above the highest frame pc in
                    // it, then come its data, bss and the brk heap (a static binary under
                    // qemu-user, whose gdbstub prints no mappings).
                    match self.image_code_hi {
                        Some(hi) if v > (hi | 0xfff) => RegionKind::Unknown,
                        _ => RegionKind::Code,
                    }
                } else {
                    RegionKind::Unknown
                }
            }
            _ => {
                // Stack pointers are usually printed (handled above, with ASLR or not); the
                // fixed range is the no-ASLR layout gdb runs programs with.
                if (0x7fff_ff00_0000..0x8000_0000_0000).contains(&v) {
                    RegionKind::Stack
                } else if (0x7f00_0000_0000..0x7fff_ff00_0000).contains(&v) {
                    RegionKind::Anonymous
                } else if Self::in_pie_range(Arch::X86_64, v) {
                    // PIE image and the brk heap right after it.
                    self.guess_pie(v)
                } else if (0x40_0000..0x100_0000).contains(&v) {
                    // A non-PIE image: code up to the highest frame pc with a source line,
                    // then its read-only data, data and bss (a static Go binary's runtime.g0).
                    match self.image_code_hi {
                        Some(hi) if v > (hi | 0xfff) => RegionKind::Unknown,
                        _ => RegionKind::Code,
                    }
                } else {
                    RegionKind::Unknown
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_are_typed_and_formatted_once() {
        let reg = |name: &str, v: u64, natural: &str| Register {
            name: name.into(),
            value: Some(v),
            natural: Some(natural.into()),
            span: Span::default(),
        };
        let t = crate::input::parse(
            "(gdb) info proc mappings\n          Start Addr           End Addr       Size     Offset  Perms  objfile\n      0x555555554000     0x555555555000     0x1000        0x0  r-xp   /tmp/prog\n",
        )
        .trace;
        let c = Classifier::new(&t);
        let a = annotate_register(&reg("rip", 0x555555554139, "0x555555554139 <main+16>"), &c, Arch::X86_64).unwrap();
        let Annotation::Region(class) = &a else { panic!("{a:?}") };
        assert_eq!(class.kind, RegionKind::Code);
        let sym = class.symbol.as_ref().unwrap();
        assert_eq!((&*sym.name, sym.offset), ("main", Some(16)));
        assert_eq!(a.to_string(), "code (prog) <main+16>");
        assert_eq!(a.symbol_first(), "<main+16> code (prog)");
        assert_eq!(a.kind(), RegionKind::Code);
        assert_eq!(annotate_register(&reg("rax", 0, "0"), &c, Arch::X86_64), Some(Annotation::Null));
        assert_eq!(annotate_register(&reg("rax", 7, "7"), &c, Arch::X86_64).unwrap().to_string(), "small integer");
        assert_eq!(
            annotate_register(&reg("rax", (-2i64) as u64, "-2"), &c, Arch::X86_64),
            Some(Annotation::SmallNegative(-2))
        );
        // System registers are never addresses (qemu's AArch64 set).
        assert_eq!(annotate_register(&reg("SCTLR", 0x555555554139, ""), &c, Arch::Aarch64), None);
        assert_eq!(annotate_register(&reg("eflags", 0x246, "[ PF ZF IF ]"), &c, Arch::X86_64), None);
    }

    fn trace_with_maps() -> Trace {
        let text = "\
(gdb) info proc mappings
process 1
Mapped address spaces:

          Start Addr           End Addr       Size     Offset  Perms  objfile
      0x555555554000     0x555555555000     0x1000        0x0  r--p   /tmp/t
      0x555555555000     0x555555556000     0x1000     0x1000  r-xp   /tmp/t
      0x555555557000     0x555555558000     0x1000     0x2000  rw-p   /tmp/t
      0x555555559000     0x55555557a000    0x21000        0x0  rw-p   [heap]
      0x7ffff7d80000     0x7ffff7d90000    0x10000        0x0  rw-p   
      0x7ffff7fc0000     0x7ffff7fc1000     0x1000        0x0  r-xp   
      0x7ffffffde000     0x7ffffffff000    0x21000        0x0  rw-p   [stack]
";
        let mut t = crate::input::parse(text).trace;
        t.arch = Arch::X86_64;
        t
    }

    #[test]
    fn with_mappings() {
        let t = trace_with_maps();
        let c = Classifier::new(&t);
        assert_eq!(c.classify(0x18).kind, RegionKind::ZeroPage);
        assert_eq!(c.classify(0x555555555139).kind, RegionKind::Code);
        assert_eq!(c.classify(0x555555554100).kind, RegionKind::ReadOnlyData);
        assert_eq!(c.classify(0x555555557010).kind, RegionKind::WritableData);
        assert_eq!(c.classify(0x5555555592a0).kind, RegionKind::Heap);
        assert_eq!(c.classify(0x7fffffffe700).kind, RegionKind::Stack);
        assert_eq!(c.classify(0x7ffff7d80010).kind, RegionKind::Anonymous);
        assert_eq!(c.classify(0x7ffff7fc0010).kind, RegionKind::Jit);
        assert_eq!(c.classify(0x4141414141414141).kind, RegionKind::NonCanonical);
        assert_eq!(c.classify(0x2a00).kind, RegionKind::SmallInteger);
        assert_eq!(c.classify(0x600000000000).kind, RegionKind::Unmapped);
        let cl = c.classify(0x555555555139);
        assert_eq!(cl.offset, Some(0x139));
        assert_eq!(cl.to_string(), "code (t)");
        assert!(!cl.heuristic);
    }

    #[test]
    fn heuristics_are_labelled() {
        let t = Trace { arch: Arch::X86_64, ..Default::default() };
        let c = Classifier::new(&t);
        let cl = c.classify(0x7fffffffe700);
        assert_eq!(cl.kind, RegionKind::Stack);
        assert!(cl.heuristic);
        assert!(cl.to_string().ends_with('?'), "{cl}");
        assert_eq!(c.classify(0xffff_8000_0000_0000 - 1).kind, RegionKind::NonCanonical);
    }

    #[test]
    fn aarch64_non_pie_image_is_code_only_up_to_the_frames() {
        // The frames of sample-traces/crashers/a64-x20-ok.gdb.txt (a static binary under
        // qemu-user: no mappings); x20 there is a valid pgcstack in .data at 0x490050.
        let t = crate::input::parse(
            "(gdb) bt\n#0  0x00000000004006f0 in jl_module_info_count ()\n#1  0x00000000004008fc in julia_module_callback_4212 ()\n#2  0x00000000004007e0 in main ()\n",
        )
        .trace;
        let t = Trace { arch: Arch::Aarch64, ..t };
        let c = Classifier::new(&t);
        assert_eq!(c.classify(0x4008e4).kind, RegionKind::Code);
        assert_eq!(c.classify(0x400ff0).kind, RegionKind::Code);
        assert_eq!(c.classify(0x490050).kind, RegionKind::Unknown);
        // Without a frame in the image, the range is still taken for code.
        let bare = Trace { arch: Arch::Aarch64, ..Default::default() };
        let c = Classifier::new(&bare);
        assert_eq!(c.classify(0x490050).kind, RegionKind::Code);
        // x86-64 keeps its guess.
        let x86 = Trace { arch: Arch::X86_64, ..t.clone() };
        let c = Classifier::new(&x86);
        assert_eq!(c.classify(0x490050).kind, RegionKind::Code);
    }
}
