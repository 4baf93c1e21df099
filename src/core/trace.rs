//! From a [`CoreFile`] to the trace model: the same [`Trace`] the gdb parser builds
//! (`formats: ["core"]`), with threads unwound by CFI, frames symbolized with their
//! inlined calls, registers per frame, mappings, and the process memory attached for the
//! rules. Everything that went wrong on the way becomes a diagnostic note.

use super::memory::{CoreMemory, MappedModule};
use super::regs;
use super::{CoreArch, CoreBytes, CoreError, CoreFile, FileMapping, Segment};
use crate::model::*;
use crate::model::{Diagnostics, Note, Parsed};
use crate::symbolize::dwarf::{DwarfSymbols, SymbolOptions};
use crate::symbolize::symbolize_trace_until;
use crate::unwind::{UnwindArch, unwind};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// How to read a core.
#[derive(Clone, Debug)]
pub struct CoreOptions {
    pub symbols: SymbolOptions,
    /// Physical frames unwound per thread at most.
    pub max_frames: usize,
    /// Stop each backtrace at `main`, as gdb does (`set backtrace past-main off`).
    pub stop_at_main: bool,
    /// Symbolization stops at this instant (`--symbolize-timeout`).
    pub symbolize_deadline: Option<std::time::Instant>,
}

/// Physical frames unwound at most in the crashed thread.
const CRASHED_THREAD_FRAMES: usize = 8192;

impl Default for CoreOptions {
    fn default() -> Self {
        CoreOptions {
            symbols: SymbolOptions { system_debug_dir: true, ..Default::default() },
            max_frames: 512,
            stop_at_main: true,
            symbolize_deadline: None,
        }
    }
}

/// Opens, reads, unwinds and symbolizes a core file.
pub fn read_core_trace(path: &Path, opts: &CoreOptions) -> Result<Parsed, CoreError> {
    let bytes = Arc::new(CoreBytes::open(path)?);
    let core = super::parse(bytes)?;
    Ok(core_to_trace(&core, &path.display().to_string(), opts))
}

/// The code at `pc` is the kernel's sigreturn trampoline (`__restore_rt`: `mov $0xf,%rax;
/// syscall` on x86-64, `mov x8, #139; svc #0` on AArch64): the return address of a signal
/// handler, gdb's `<signal handler called>`.
fn is_sigreturn_code(mem: &dyn MemorySource, arch: CoreArch, pc: u64) -> bool {
    match arch {
        // i386: `mov $0xad,%eax; int $0x80` (rt_sigreturn) or `pop %eax; mov $0x77,%eax;
        // int $0x80` (sigreturn), as the vDSO's and glibc's restorers are written.
        CoreArch::I386 => {
            let mut b = [0u8; 8];
            let n = mem.read(pc, &mut b);
            (n >= 7 && b[..7] == [0xb8, 0xad, 0x00, 0x00, 0x00, 0xcd, 0x80])
                || (n == 8 && b == [0x58, 0xb8, 0x77, 0x00, 0x00, 0x00, 0xcd, 0x80])
        }
        CoreArch::X86_64 => {
            let mut b = [0u8; 9];
            mem.read(pc, &mut b) == 9 && b == [0x48, 0xc7, 0xc0, 0x0f, 0x00, 0x00, 0x00, 0x0f, 0x05]
        }
        CoreArch::Aarch64 => {
            let mut b = [0u8; 8];
            mem.read(pc, &mut b) == 8 && b == [0x68, 0x11, 0x80, 0xd2, 0x01, 0x00, 0x00, 0xd4]
        }
    }
}

fn note(notes: &mut Vec<Note>, m: impl Into<String>) {
    notes.push(Note { line: None, message: m.into() });
}

/// The build-id of the ELF image mapped at `start`, read from process memory.
pub fn build_id_in_memory(mem: &dyn MemorySource, start: u64) -> Option<Vec<u8>> {
    build_id_in_memory_checked(mem, start).ok().flatten()
}

/// [`build_id_in_memory`], saying why a damaged header in memory was not followed (the
/// numbers come from the core: nothing may overflow).
pub fn build_id_in_memory_checked(mem: &dyn MemorySource, start: u64) -> Result<Option<Vec<u8>>, String> {
    let mut eh = [0u8; 64];
    let got = mem.read(start, &mut eh);
    if got < 52 || !eh.starts_with(b"\x7fELF") || !matches!(eh[4], 1 | 2) {
        return Ok(None);
    }
    // ELFCLASS32 (i386) or ELFCLASS64: the header's fields and a program header's size.
    let wide = eh[4] == 2;
    if wide && got != 64 {
        return Ok(None);
    }
    let field = |r: std::ops::Range<usize>| eh.get(r).map(|b| b.iter().rev().fold(0u64, |a, &x| (a << 8) | x as u64));
    let fields = if wide {
        (field(32..40), field(54..56), field(56..58))
    } else {
        (field(28..32), field(42..44), field(44..46))
    };
    let (Some(phoff), Some(phentsize), Some(phnum)) = fields else {
        return Ok(None);
    };
    if phentsize < if wide { 56 } else { 32 } || phnum > 256 {
        return Ok(None);
    }
    let Some(ph_at) = start.checked_add(phoff) else {
        return Err(format!(
            "the ELF header in memory at {start:#x} puts its program headers at offset {phoff:#x}, past the end of \
             the address space; its build-id is not read"
        ));
    };
    // (phentsize and phnum are 16-bit values: the product fits.)
    let mut ph = vec![0u8; (phentsize * phnum) as usize];
    if mem.read(ph_at, &mut ph) != ph.len() {
        return Ok(None);
    }
    Ok(build_id_in_phdrs(mem, start, &ph, phentsize as usize, wide))
}

/// The NT_GNU_BUILD_ID note among the PT_NOTEs of program headers `ph` of the image at
/// `start`.
fn build_id_in_phdrs(mem: &dyn MemorySource, start: u64, ph: &[u8], phentsize: usize, wide: bool) -> Option<Vec<u8>> {
    // p_vaddr and p_filesz: 8-byte fields at 16 and 32 (Elf64_Phdr), 4-byte at 8 and 16 (Elf32_Phdr).
    let (w, vaddr_at, filesz_at) = if wide { (8, 16, 32) } else { (4, 8, 16) };
    let rd = |b: &[u8], o: usize| -> u64 {
        b.get(o..o + w).map(|x| x.iter().rev().fold(0u64, |a, &c| (a << 8) | c as u64)).unwrap_or(0)
    };
    let entries: Vec<&[u8]> = ph.chunks(phentsize).collect();
    let min_load = entries.iter().filter(|e| e.first() == Some(&1)).map(|e| rd(e, vaddr_at) & !0xfff).min()?;
    let bias = start.wrapping_sub(min_load);
    for e in entries {
        if u32::from_le_bytes(e.get(0..4)?.try_into().ok()?) != 4 {
            continue;
        }
        let size = rd(e, filesz_at).min(4096) as usize;
        let mut n = vec![0u8; size];
        let got = mem.read(bias.wrapping_add(rd(e, vaddr_at)), &mut n);
        let mut b = &n[..got];
        while b.len() >= 12 {
            let namesz = u32::from_le_bytes(b[0..4].try_into().ok()?) as usize;
            let descsz = u32::from_le_bytes(b[4..8].try_into().ok()?) as usize;
            let ty = u32::from_le_bytes(b[8..12].try_into().ok()?);
            let ds = (12 + namesz).div_ceil(4) * 4;
            let de = ds + descsz;
            if de > b.len() {
                break;
            }
            if ty == 3 && b.get(12..12 + namesz.min(3)) == Some(b"GNU") {
                return Some(b[ds..de].to_vec());
            }
            let next = de.div_ceil(4) * 4;
            if next >= b.len() {
                break;
            }
            b = &b[next..];
        }
    }
    None
}

/// Builds the trace from a parsed core.
pub fn core_to_trace(core: &CoreFile, name: &str, opts: &CoreOptions) -> Parsed {
    let mut notes: Vec<Note> = Vec::new();
    for n in &core.notes {
        note(&mut notes, n.clone());
    }
    let (arch, uarch) = match core.arch {
        CoreArch::X86_64 => (Arch::X86_64, UnwindArch::X86_64),
        CoreArch::Aarch64 => (Arch::Aarch64, UnwindArch::Aarch64),
        CoreArch::I386 => (Arch::X86, UnwindArch::I386),
    };
    let raw = CoreMemory::new(core.bytes.clone(), core.segments.clone(), Vec::new(), name.to_string());
    let mut sym = DwarfSymbols::new(opts.symbols.clone());
    // Paths in first-mapping order, with the build-id each had in the process.
    let mut paths: Vec<&str> = Vec::new();
    for f in &core.files {
        if !paths.contains(&f.path.as_str()) {
            paths.push(&f.path);
        }
    }
    for p in &paths {
        if let Some(first) = core.files.iter().find(|f| f.path == *p && f.offset == 0) {
            match build_id_in_memory_checked(&raw, first.start) {
                Ok(Some(id)) => sym.expect_build_id(p, id),
                Ok(None) => {}
                Err(why) => note(&mut notes, format!("{p}: {why}")),
            }
        }
    }
    let mut modules: Vec<MappedModule> = Vec::new();
    for p in &paths {
        let Some(m) = sym.module(p) else { continue };
        for f in core.files.iter().filter(|f| f.path == *p) {
            if let Some(v) = m.offset_to_vaddr(f.offset) {
                modules.push(MappedModule {
                    start: f.start,
                    end: f.end,
                    bias: f.start.wrapping_sub(v),
                    module: m.clone(),
                });
            }
        }
    }
    // The vDSO (i386's `__kernel_vsyscall`, through which every system call and so every
    // abort goes): its image is in the core, at AT_SYSINFO_EHDR; its symbols and CFI are read
    // from there, as gdb's `symbol-file-from-memory` does.
    let vdso = if core.arch == CoreArch::I386 { vdso_module(core, &raw) } else { None };
    if let Some(v) = &vdso {
        modules.push(v.clone());
    }
    // No NT_FILE note (qemu-user and some embedded cores): a non-PIE executable given with
    // `--exe` can still be placed, since it loads at its own addresses (bias 0).
    if core.files.is_empty() {
        for exe in &opts.symbols.exes {
            let Some(m) = sym.module(&exe.to_string_lossy()) else { continue };
            let fixed = m.loads.iter().filter(|l| l.memsz > 0).map(|l| l.vaddr).min().is_some_and(|v| v >= 0x10000);
            if !fixed {
                note(
                    &mut notes,
                    format!(
                        "{}: no NT_FILE note and the binary is position-independent; its load address is unknown, so it is not used for symbols",
                        exe.display()
                    ),
                );
                continue;
            }
            for l in m.loads.iter().filter(|l| l.memsz > 0) {
                modules.push(MappedModule {
                    start: l.vaddr,
                    end: l.vaddr.saturating_add(l.memsz),
                    bias: 0,
                    module: m.clone(),
                });
            }
            note(
                &mut notes,
                format!(
                    "{}: the core has no NT_FILE note; placed the non-PIE executable at its link addresses",
                    exe.display()
                ),
            );
        }
    }
    let mem = CoreMemory::new(core.bytes.clone(), core.segments.clone(), modules.clone(), name.to_string());
    let dwarf_nums = regs::dwarf_numbers(core.arch);
    // The crashed thread's `x/6i $pc`, decoded on a helper thread while the DWARF is inflated
    // (iced-x86 builds its decoder's and formatter's tables first: about 6.5 M instructions
    // off the main thread; docs/performance.md, "3f"). Used below only when frame #0's pc
    // turns out to be the one decoded here.
    let early_disassembly = core
        .threads
        .first()
        .and_then(|t| t.regs.iter().find(|r| r.0 == "rip"))
        .map(|r| r.1)
        .filter(|_| core.arch == CoreArch::X86_64 && crate::threads::second_core())
        .and_then(|pc| {
            let m = CoreMemory::new(core.bytes.clone(), core.segments.clone(), modules.clone(), name.to_string());
            std::thread::Builder::new()
                .name("disassemble".into())
                .stack_size(crate::threads::HELPER_STACK)
                .spawn(move || (pc, crate::provenance::disassemble_from(&m, pc, "1")))
                .ok()
        });

    let mut stop = Stop::default();
    let snapshot = is_snapshot(core, &mem);
    if let Some(si) = core.siginfo {
        stop.reason.kind = StopKind::Signal;
        stop.reason.signo = Some(si.signo);
        stop.reason.signal = crate::model::signals::name(si.signo).map(Arc::from);
        stop.reason.si_code = Some(si.code);
        stop.reason.address = si.addr.map(Address);
        stop.reason.description = crate::model::signals::description(si.signo).map(Into::into);
    } else if let Some(t) = core.threads.iter().find(|t| t.cursig != 0) {
        stop.reason.kind = StopKind::Signal;
        stop.reason.signo = Some(t.cursig as i32);
        stop.reason.signal = crate::model::signals::name(t.cursig as i32).map(Arc::from);
        stop.reason.description = crate::model::signals::description(t.cursig as i32).map(Into::into);
    }
    if snapshot {
        stop.reason.kind = StopKind::Snapshot;
    }
    // Every thread is unwound first, so that the modules hear which addresses will be looked
    // up before the first lookup (their compressed DWARF is then inflated once).
    let unwound: Vec<_> = core
        .threads
        .iter()
        .enumerate()
        .map(|(i, ct)| {
            let mut regs0 = vec![None; uarch.slots()];
            for (n, dw) in &dwarf_nums {
                if let Some(v) = ct.regs.iter().find(|r| r.0 == *n) {
                    regs0[*dw as usize] = Some(v.1);
                }
            }
            // The crashed thread (the first) goes deeper: a runaway recursion in library code
            // (Rust's drop glue for a long list) has the program's frame thousands of frames
            // down, where gdb's backtrace reaches it.
            let max = if i == 0 { opts.max_frames.max(CRASHED_THREAD_FRAMES) } else { opts.max_frames };
            let mut u = unwind(uarch, regs0, &modules, &mem, max);
            // A Go thread that died in the runtime on the system stack: the goroutine it ran
            // holds the code that failed, and the runtime's message (`super::go`).
            let mut message = None;
            if i == 0
                && core.arch == CoreArch::X86_64
                && let Some(g) = super::go::follow_goroutine(
                    &u,
                    ct.regs.iter().find(|r| r.0 == "fs_base").map(|r| r.1),
                    &modules,
                    &mem,
                    max.saturating_sub(u.frames.len()),
                )
            {
                u.frames.truncate(g.keep);
                u.frames.extend(g.unwound.frames);
                u.stopped = g.unwound.stopped;
                message = g.message;
            }
            (u, message)
        })
        .collect();
    let (unwound, go_messages): (Vec<_>, Vec<_>) = unwound.into_iter().unzip();
    for text in go_messages.into_iter().flatten() {
        let mut m = crate::model::Message::new(format!("fatal error: {text}"), Span::default());
        m.from_memory = true;
        crate::messages::typed(&mut m);
        stop.messages.push(m);
    }
    plan_lookups(&modules, &unwound, &core.threads, (&mem, core.arch, &dwarf_nums, opts.stop_at_main));
    for ((i, ct), u) in core.threads.iter().enumerate().zip(unwound) {
        let mut th = Thread {
            id: (i + 1).to_string().into(),
            lwp: Some(ct.lwp as u64),
            crashed: i == 0 && !snapshot,
            current: i == 0,
            ..Default::default()
        };
        if core.arch == CoreArch::X86_64 {
            th.handle = ct.regs.iter().find(|r| r.0 == "fs_base").map(|r| r.1).filter(|&v| v != 0).map(Address);
        }
        th.backtrace_stopped = u.stopped.map(Into::into);
        let mut index: u32 = 0;
        'frames: for (k, uf) in u.frames.iter().enumerate() {
            // Registers of this physical frame, in gdb's order.
            let mut set = RegisterSet { unwind: Some(uf.method), ..Default::default() };
            for (n, v0) in &ct.regs {
                let v = match dwarf_nums.iter().find(|d| d.0 == *n) {
                    Some((_, dw)) => uf.regs.get(*dw as usize).copied().flatten(),
                    None => Some(*v0),
                };
                let v = if core.arch == CoreArch::Aarch64 && *n == "pc" { Some(uf.pc) } else { v };
                if let Some(v) = v {
                    set.regs.push(Register {
                        name: Arc::from(*n),
                        value: Some(v),
                        natural: Some(regs::natural(core.arch, n, v).into()),
                        span: Span::default(),
                    });
                }
            }
            if k > 0 {
                set.recovered = uf
                    .recovered
                    .iter()
                    .filter_map(|dw| dwarf_nums.iter().find(|d| d.1 == *dw).map(|d| Arc::from(d.0)))
                    .collect();
                if core.arch == CoreArch::Aarch64 {
                    set.recovered.push(Arc::from("pc"));
                }
            }
            // glibc's __restore_rt may carry no signal-frame CFI mark: know it by its code.
            if uf.signal_trampoline || (k > 0 && is_sigreturn_code(&mem, core.arch, uf.pc)) {
                th.frames.push(Frame { index, pc: Some(Address(uf.pc)), signal_handler: true, ..Default::default() });
                th.registers.insert(index, set);
                index += 1;
                continue;
            }
            // A function that ended in a tail call left no frame: its caller's return address
            // follows a direct call to it, while the frame inside is another function's.
            // gdb shows it as a tail-call frame (from DWARF call sites); so does the core.
            if core.arch == CoreArch::X86_64
                && k > 0
                && !u.frames[k - 1].signal_trampoline
                && let Some(jmp_end) = tail_caller(&mem, uf.pc, u.frames[k - 1].pc)
                && let Some(m) = modules.iter().find(|m| jmp_end > m.start && jmp_end <= m.end)
                && let Ok(Some(si)) = m.module.symbol_info((jmp_end - 1).wrapping_sub(m.bias))
                && !si.frames.is_empty()
            {
                let n = si.frames.len();
                for (j, sf) in si.frames.iter().enumerate() {
                    th.frames.push(Frame {
                        index,
                        pc: if j == 0 { Some(Address(jmp_end)) } else { None },
                        function: sf.display_function.as_deref().map(Arc::from),
                        file: sf.display_file.as_deref().map(Arc::from),
                        line: sf.line,
                        inlined: j + 1 < n,
                        ..Default::default()
                    });
                    th.registers.insert(index, set.clone());
                    index += 1;
                }
            }
            let probe = if uf.exact_pc { uf.pc } else { uf.pc.wrapping_sub(1) };
            let m = modules.iter().find(|m| probe >= m.start && probe < m.end);
            let info = m.and_then(|m| match m.module.symbol_info(probe.wrapping_sub(m.bias)) {
                Ok(i) => i,
                Err(e) => {
                    note(&mut notes, e.to_string());
                    None
                }
            });
            // gdb hides the inlined functions entered exactly at the stop pc (it shows the
            // caller at the call site): do the same for the crashed thread's frame #0, so that the core and a live
            // transcript name the same function.
            let info = match (k, m, info) {
                (0, Some(m), Some(mut si)) if th.crashed && si.frames.len() > 1 => {
                    let before = m.module.symbol_info(probe.wrapping_sub(m.bias).wrapping_sub(1)).ok().flatten();
                    let keep = inlined_levels_kept(&si.frames, before.as_ref().map(|b| &b.frames[..]).unwrap_or(&[]));
                    let n = si.frames.len();
                    si.frames.drain(..n - keep);
                    Some(si)
                }
                (_, _, info) => info,
            };
            let module_path: Option<Sym> =
                core.files.iter().find(|f| probe >= f.start && probe < f.end).map(|f| Arc::from(f.path.as_str()));
            let mut is_main = false;
            match info {
                Some(info) if !info.frames.is_empty() => {
                    let n = info.frames.len();
                    for (j, sf) in info.frames.iter().enumerate() {
                        let file: Option<Sym> = sf.display_file.as_deref().map(Arc::from);
                        th.frames.push(Frame {
                            index,
                            pc: if j == 0 { Some(Address(uf.pc)) } else { None },
                            function: sf.display_function.as_deref().map(Arc::from),
                            file: file.clone(),
                            line: sf.line,
                            column: None,
                            module: if file.is_none() { module_path.clone() } else { None },
                            // Every level but the outermost was inlined into the next one (the model's meaning).
                            inlined: j + 1 < n,
                            ..Default::default()
                        });
                        th.registers.insert(index, set.clone());
                        index += 1;
                        if j == n - 1 && sf.display_function.as_deref() == Some("main") {
                            is_main = true;
                        }
                    }
                }
                other => {
                    let function = other.and_then(|i| i.symbol).map(|s| Arc::from(s.name.as_str()));
                    is_main = function.as_deref() == Some("main");
                    th.frames.push(Frame {
                        index,
                        pc: Some(Address(uf.pc)),
                        function,
                        module: module_path,
                        ..Default::default()
                    });
                    th.registers.insert(index, set);
                    index += 1;
                }
            }
            if is_main && opts.stop_at_main {
                if k + 1 < u.frames.len() {
                    // gdb's `backtrace past-main off`: frames above main are not shown.
                    th.backtrace_stopped = None;
                }
                break 'frames;
            }
        }
        stop.threads.push(th);
    }
    let mut trace = Trace { formats: vec![Format::Core], arch, ..Default::default() };
    trace.core_command = core.command.clone().map(Into::into);
    trace.program = core.program.clone().map(Into::into);
    // Mappings: NT_FILE entries (with perms from their segment), then anonymous segments.
    // (`a - vaddr`, not `vaddr + memsz`: a segment may sit at the very last address.)
    let perms_at =
        |a: u64| core.segments.iter().find(|s| a >= s.vaddr && a - s.vaddr < s.memsz.max(1)).map(|s| s.perms());
    // A file page the process never wrote (text, read-only data) is not dumped (gdb's gcore
    // and the kernel both skip it): its permissions are those of the file's load segment
    // that maps it, when the file is here (a core segment, when there is one, wins).
    let file_perms = |f: &FileMapping| {
        let m = modules.iter().find(|m| m.start == f.start && m.end == f.end)?;
        let flags = m.module.offset_flags(f.offset)?;
        Some(Segment { vaddr: 0, memsz: 0, offset: 0, filesz: 0, flags }.perms())
    };
    for f in &core.files {
        trace.mappings.push(Mapping {
            start: Address(f.start),
            end: Address(f.end),
            offset: f.offset,
            perms: perms_at(f.start).or_else(|| file_perms(f)).map(Into::into),
            path: Some(Arc::from(f.path.as_str())),
            span: Span::default(),
        });
    }
    for s in &core.segments {
        let covered = core.files.iter().any(|f| f.start < s.vaddr + s.memsz && s.vaddr < f.end);
        if !covered && s.memsz > 0 {
            let is_vdso = vdso.as_ref().is_some_and(|v| v.start == s.vaddr);
            trace.mappings.push(Mapping {
                start: Address(s.vaddr),
                end: Address(s.vaddr + s.memsz),
                offset: 0,
                perms: Some(s.perms().into()),
                path: is_vdso.then(|| Arc::from("[vdso]")),
                span: Span::default(),
            });
        }
    }
    trace.mappings.sort_by_key(|m| (m.start, m.end));
    match core.arch {
        CoreArch::X86_64 => {
            let early = early_disassembly.and_then(|h| h.join().ok());
            stop.disassembly = match (early, crate::provenance::crashed_pc(&stop)) {
                (Some((pc, d)), Some((p, "1"))) if pc == p => d,
                _ => crate::provenance::disassemble_at_pc(&mem, &stop),
            };
        }
        CoreArch::Aarch64 => stop.disassembly = crate::provenance_a64::disassemble_at_pc_a64(&mem, &stop),
        CoreArch::I386 => {
            let pc = stop.crashed_thread().and_then(|th| Some((th.registers.get(&0)?.get("eip")?, th.id.clone())));
            if let Some((pc, id)) = pc {
                stop.disassembly = crate::provenance::disassemble_from_bits(&mem, pc, &id, 32);
            }
        }
    }
    trace.stops.push(stop);
    trace.memory = Some(TraceMemory::new(mem));
    symbolize_trace_until(&mut trace, &sym, &mut notes, opts.symbolize_deadline);
    if core.arch == CoreArch::X86_64 {
        note(&mut notes, "AVX-512 mask registers (k0-k7) and vector registers are not read from the core's XSAVE note");
    }
    let mut seen = BTreeMap::new();
    notes.retain(|n| seen.insert(n.message.clone(), ()).is_none());
    Parsed { trace, diagnostics: Diagnostics { notes, ..Default::default() } }
}

/// Whether the core is a snapshot of a process that had not crashed, written by a debugger
/// (gdb's `gcore`, `generate-core-file`): no signal at all; a signal the kernel never dumps a
/// core for (gcore's SIGSTOP, a SIGINT or SIGUSR1 gdb stopped at), which only a debugger's core
/// can carry; or a kernel-raised SIGTRAP with no trap instruction at the pc (x86 `int3` ending
/// there, AArch64 `brk` at it): a debugger's breakpoint or single step, whose `int3` gdb takes
/// out of memory before it writes the core. A program's own `int3` or `brk`, and every fault
/// signal, is a crash as before.
fn is_snapshot(core: &CoreFile, mem: &CoreMemory) -> bool {
    use crate::model::MemorySource;
    let (signo, code) = match core.siginfo {
        Some(si) => (si.signo, Some(si.code)),
        None => match core.threads.iter().find(|t| t.cursig != 0) {
            Some(t) => (t.cursig as i32, None),
            None => return true,
        },
    };
    // The signals whose default action writes a core: SIGQUIT, SIGILL, SIGTRAP, SIGABRT,
    // SIGBUS, SIGFPE, SIGSEGV, SIGXCPU, SIGXFSZ, SIGSYS.
    if !matches!(signo, 3 | 4 | 5 | 6 | 7 | 8 | 11 | 24 | 25 | 31) {
        return true;
    }
    if signo != 5 || code.is_none_or(|c| c <= 0) {
        return false;
    }
    let Some(t) = core.threads.first() else { return false };
    let reg = |n: &str| t.regs.iter().find(|r| r.0 == n).map(|r| r.1);
    match core.arch {
        CoreArch::X86_64 | CoreArch::I386 => {
            let Some(pc) = reg("rip").or_else(|| reg("eip")) else { return false };
            let mut b = [0u8; 1];
            // `int3` (cc) or `int $3` (cd 03) just before the pc: the program's own trap.
            let mut b2 = [0u8; 2];
            let own = (pc.checked_sub(1).is_some_and(|a| mem.read(a, &mut b) == 1) && b[0] == 0xcc)
                || (pc.checked_sub(2).is_some_and(|a| mem.read(a, &mut b2) == 2) && b2 == [0xcd, 0x03]);
            // An unreadable pc says nothing: kept as a crash.
            !own && mem.read(pc, &mut b) == 1
        }
        CoreArch::Aarch64 => {
            let Some(pc) = reg("pc") else { return false };
            let mut w = [0u8; 4];
            mem.read(pc, &mut w) == 4 && u32::from_le_bytes(w) & 0xffe0_001f != 0xd420_0000
        }
    }
}

/// AT_SYSINFO_EHDR: where the kernel mapped the vDSO.
const AT_SYSINFO_EHDR: u64 = 33;

/// The vDSO as a module: its ELF image read from the core segment that holds it (at most
/// 64 KiB), placed at its runtime address. `None` without the auxv entry, the segment, or an
/// ELF image there.
fn vdso_module(core: &CoreFile, mem: &CoreMemory) -> Option<MappedModule> {
    use crate::model::MemorySource;
    let base = core.auxv.iter().find(|(k, _)| *k == AT_SYSINFO_EHDR)?.1;
    let seg = core.segments.iter().find(|s| base >= s.vaddr && base - s.vaddr < s.memsz)?;
    let len = (seg.vaddr + seg.memsz - base).min(64 << 10) as usize;
    let mut image = vec![0u8; len];
    let n = mem.read(base, &mut image);
    image.truncate(n);
    if !image.starts_with(b"\x7fELF") {
        return None;
    }
    let module = crate::symbolize::dwarf::ElfModule::from_bytes(Path::new("[vdso]"), image).ok()?;
    let first = module.loads.iter().filter(|l| l.memsz > 0).map(|l| l.vaddr).min()?;
    Some(MappedModule {
        start: base,
        end: base.saturating_add(n as u64),
        bias: base.wrapping_sub(first),
        module: Arc::new(module),
    })
}

/// The end of the tail-call `jmp` through which the function its caller called directly left
/// the stack to the function `inner_pc` is in: `ret` follows a direct `call T` (e8), `T` is a
/// function's start (its FDE) that does not hold `inner_pc`, and `T` contains a `jmp` to the
/// inner function's start, directly or through a PLT stub (`jmp *GOT(%rip)`, whose GOT slot
/// holds that start). `None` otherwise (an ordinary call, or nothing to tell).
fn tail_caller(mem: &CoreMemory, ret: u64, inner_pc: u64) -> Option<u64> {
    use crate::model::MemorySource;
    use iced_x86::{Code, Decoder, DecoderOptions};
    let mut b = [0u8; 5];
    if mem.read(ret.checked_sub(5)?, &mut b) != 5 || b[0] != 0xe8 {
        return None;
    }
    let t = ret.wrapping_add(i32::from_le_bytes([b[1], b[2], b[3], b[4]]) as i64 as u64);
    let (fs, fe) = mem.function_range(t)?;
    if fs != t || (fs..fe).contains(&inner_pc) || fe - fs > 0x4000 {
        return None;
    }
    let (inner_start, _) = mem.function_range(inner_pc)?;
    let mut code = vec![0u8; (fe - fs) as usize];
    if mem.read(fs, &mut code) != code.len() {
        return None;
    }
    // A PLT stub's target: `[endbr64] [bnd] jmp *disp(%rip)`, through its GOT slot.
    let via_plt = |target: u64| {
        let mut s = [0u8; 11];
        let n = mem.read(target, &mut s);
        let mut i = if n >= 4 && s[..4] == [0xf3, 0x0f, 0x1e, 0xfa] { 4 } else { 0 };
        if s.get(i) == Some(&0xf2) {
            i += 1;
        }
        if n < i + 6 || s[i] != 0xff || s[i + 1] != 0x25 {
            return None;
        }
        let disp = i32::from_le_bytes([s[i + 2], s[i + 3], s[i + 4], s[i + 5]]) as i64 as u64;
        let slot = target.wrapping_add((i + 6) as u64).wrapping_add(disp);
        let mut w = [0u8; 8];
        (mem.read(slot, &mut w) == 8).then(|| u64::from_le_bytes(w))
    };
    let mut d = Decoder::with_ip(64, &code, fs, DecoderOptions::NONE);
    while d.can_decode() {
        let insn = d.decode();
        if matches!(insn.code(), Code::Jmp_rel32_64 | Code::Jmp_rel8_64) {
            let target = insn.near_branch64();
            if !(fs..fe).contains(&target) && (target == inner_start || via_plt(target) == Some(inner_start)) {
                return Some(insn.next_ip());
            }
        }
    }
    None
}

/// Tells each module which of its addresses the frames and the symbolize stage will look up
/// (the frames' pcs, and the register values and frame pcs it describes), before the first
/// lookup. A hint only ([`crate::symbolize::dwarf::ElfModule::plan`]): missing an address costs
/// time, not results.
fn plan_lookups(
    modules: &[MappedModule],
    unwound: &[crate::unwind::Unwound],
    threads: &[super::CoreThread],
    ctx: (&CoreMemory, CoreArch, &[(&'static str, u16)], bool),
) {
    let (mem, arch, dwarf_nums, stop_at_main) = ctx;
    let mut wanted: Vec<(usize, u64)> = Vec::new();
    let module_of = |a: u64| modules.iter().position(|m| a >= m.start && a < m.end);
    let mut add = |a: u64| {
        if a < 0x1000 {
            return;
        }
        if let Some(i) = module_of(a) {
            wanted.push((i, a.wrapping_sub(modules[i].bias)));
        }
    };
    for (u, ct) in unwound.iter().zip(threads) {
        for (k, uf) in u.frames.iter().enumerate() {
            // The registers of this frame as the thread loop below gives them.
            for (n, v0) in &ct.regs {
                let v = match dwarf_nums.iter().find(|d| d.0 == *n) {
                    Some((_, dw)) => uf.regs.get(*dw as usize).copied().flatten(),
                    None => Some(*v0),
                };
                if let Some(v) = v {
                    add(v);
                }
            }
            if uf.signal_trampoline || (k > 0 && is_sigreturn_code(mem, arch, uf.pc)) {
                continue;
            }
            let probe = if uf.exact_pc { uf.pc } else { uf.pc.wrapping_sub(1) };
            add(probe);
            add(uf.pc);
            // The loop stops at main (gdb's `backtrace past-main off`).
            let is_main = module_of(probe).is_some_and(|i| {
                let m = &modules[i];
                m.module.symbol_name(probe.wrapping_sub(m.bias)).is_some_and(|(name, _)| name == "main")
            });
            if stop_at_main && is_main {
                break;
            }
        }
    }
    let mut done: Vec<*const crate::symbolize::dwarf::ElfModule> = Vec::new();
    for m in modules {
        let key = Arc::as_ptr(&m.module);
        if done.contains(&key) {
            continue;
        }
        done.push(key);
        let mut vaddrs: Vec<u64> =
            wanted.iter().filter(|(i, _)| Arc::ptr_eq(&modules[*i].module, &m.module)).map(|w| w.1).collect();
        vaddrs.sort_unstable();
        vaddrs.dedup();
        m.module.plan(&vaddrs);
    }
}

/// How many levels of the inlined chain at a stop pc (`at`, innermost first) gdb shows: an
/// inlined level whose block does not also hold the previous byte (`before`, the chain at
/// pc - 1) is entered at this pc, and gdb's `skip_inline_frames` hides it and every level
/// inside it. Levels are matched by function name from the outermost one in; the physical
/// function is always kept.
fn inlined_levels_kept(at: &[crate::symbolize::SourceFrame], before: &[crate::symbolize::SourceFrame]) -> usize {
    let same = at
        .iter()
        .rev()
        .zip(before.iter().rev())
        .take_while(|(a, b)| a.function.is_some() && a.function == b.function)
        .count();
    same.clamp(1, at.len())
}

#[cfg(test)]
mod inline_skip_tests {
    use super::inlined_levels_kept;
    use crate::symbolize::SourceFrame;

    fn chain(names: &[&str]) -> Vec<SourceFrame> {
        names.iter().map(|n| SourceFrame { function: Some(n.to_string()), ..Default::default() }).collect()
    }

    #[test]
    fn inlined_levels_entered_at_the_pc_are_hidden() {
        // lto-o3-omitfp: the pc is the first byte of the inlined mix (in slot_hash); the byte
        // before belongs to table_digest itself.
        let at = chain(&["mix", "slot_hash", "table_digest"]);
        assert_eq!(inlined_levels_kept(&at, &chain(&["table_digest"])), 1);
        // Inside slot_hash already, entering mix: slot_hash stays.
        assert_eq!(inlined_levels_kept(&at, &chain(&["slot_hash", "table_digest"])), 2);
        // In the middle of mix: everything stays.
        assert_eq!(inlined_levels_kept(&at, &at), 3);
        // The previous byte is another function (pc at a function's first byte).
        assert_eq!(inlined_levels_kept(&at, &chain(&["other"])), 1);
        assert_eq!(inlined_levels_kept(&at, &[]), 1);
    }
}
