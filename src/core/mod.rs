//! ELF core files: reads a core (kernel-written or gdb's `gcore`) with `object` into a
//! [`CoreFile`] — every thread's registers (NT_PRSTATUS), the signal (NT_SIGINFO), the
//! file mappings (NT_FILE), auxv (NT_AUXV), the command line (NT_PRPSINFO) and the memory
//! of its PT_LOAD segments — and then, in [`trace`], into the same [`crate::model::Trace`]
//! the gdb parser builds, unwound and symbolized.
//!
//! x86-64 and AArch64 little-endian 64-bit cores and i386 (ELFCLASS32, EM_386) cores are
//! read; an i386 core's notes have their 32-bit layouts (`elf_prstatus` with the i386
//! `user_regs_struct`, `elf_prpsinfo`, `siginfo_t`, NT_FILE and auxv of 4-byte words). A
//! truncated core still gives what its surviving bytes hold; what was lost is said in
//! [`CoreFile::notes`].

pub mod go;
pub mod memory;
pub mod regs;
pub mod trace;

use object::elf;
use object::read::elf::{FileHeader, ProgramHeader};
use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;

pub use memory::CoreMemory;
pub use trace::{CoreOptions, read_core_trace};

/// Errors of the core reader: the input cannot be read as a core at all.
#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    #[error("cannot open {path}: {source}")]
    Open { path: String, source: std::io::Error },
    #[error("not an ELF file")]
    NotElf,
    #[error("an ELF file but not a core (e_type {0})")]
    NotCore(u16),
    #[error("ELF header is damaged: {0}")]
    BadHeader(String),
    #[error("cores of machine {0} are not supported (x86-64, AArch64 and i386 are)")]
    UnsupportedMachine(u16),
}

impl CoreError {
    /// A stable name for logs and tests.
    pub fn name(&self) -> &'static str {
        match self {
            CoreError::Open { .. } => "open",
            CoreError::NotElf => "not-elf",
            CoreError::NotCore(_) => "not-core",
            CoreError::BadHeader(_) => "bad-header",
            CoreError::UnsupportedMachine(_) => "unsupported-machine",
        }
    }
}

/// The bytes of a core: memory-mapped from a file, or owned (tests, stdin).
pub enum CoreBytes {
    Mapped(memmap2::Mmap),
    Owned(Vec<u8>),
}

impl Deref for CoreBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            CoreBytes::Mapped(m) => m,
            CoreBytes::Owned(v) => v,
        }
    }
}

impl CoreBytes {
    pub fn open(path: &Path) -> Result<CoreBytes, CoreError> {
        let f = crate::fsutil::open_regular(path)
            .map_err(|e| CoreError::Open { path: path.display().to_string(), source: e })?;
        // SAFETY: read-only map; the core is not expected to change while it is read.
        let m = unsafe { memmap2::Mmap::map(&f) }
            .map_err(|e| CoreError::Open { path: path.display().to_string(), source: e })?;
        Ok(CoreBytes::Mapped(m))
    }
}

/// `e_type == ET_CORE`: the test for "this input is a core", whatever the file name.
pub fn is_core(bytes: &[u8]) -> bool {
    bytes.len() >= 18 && bytes.starts_with(b"\x7fELF") && elf_type(bytes) == Some(elf::ET_CORE.0)
}

fn elf_type(b: &[u8]) -> Option<u16> {
    let v = [*b.get(16)?, *b.get(17)?];
    Some(if b.get(5) == Some(&2) { u16::from_be_bytes(v) } else { u16::from_le_bytes(v) })
}

/// The architectures a core can be of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoreArch {
    X86_64,
    Aarch64,
    /// 32-bit x86 (ELFCLASS32, EM_386).
    I386,
}

impl CoreArch {
    /// The size of an address (and of the words of the 32-bit notes): 4 on i386, else 8.
    pub fn word(self) -> usize {
        if self == CoreArch::I386 { 4 } else { 8 }
    }
}

/// One PT_LOAD segment: `[vaddr, vaddr+memsz)`, of which `filesz` bytes are in the file
/// at `offset` (fewer when the core is truncated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub vaddr: u64,
    pub memsz: u64,
    pub offset: u64,
    pub filesz: u64,
    pub flags: u32,
}

impl Segment {
    /// `r-xp` from the PF_* flags.
    pub fn perms(&self) -> String {
        let f = self.flags;
        format!(
            "{}{}{}p",
            if f & elf::PF_R.0 != 0 { 'r' } else { '-' },
            if f & elf::PF_W.0 != 0 { 'w' } else { '-' },
            if f & elf::PF_X.0 != 0 { 'x' } else { '-' }
        )
    }
}

/// A file mapping from NT_FILE.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileMapping {
    pub start: u64,
    pub end: u64,
    /// Byte offset in the file.
    pub offset: u64,
    pub path: String,
}

/// One thread of the core.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreThread {
    pub lwp: u32,
    /// `pr_cursig`: the signal this thread was stopped with.
    pub cursig: u16,
    /// Registers in gdb's `info registers` order, with gdb's names.
    pub regs: Vec<(&'static str, u64)>,
}

/// The signal that killed the process (NT_SIGINFO).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SigInfo {
    pub signo: i32,
    pub errno: i32,
    pub code: i32,
    /// `si_addr` for fault signals (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP).
    pub addr: Option<u64>,
}

/// Everything read from a core.
pub struct CoreFile {
    pub arch: CoreArch,
    pub threads: Vec<CoreThread>,
    pub siginfo: Option<SigInfo>,
    pub files: Vec<FileMapping>,
    pub auxv: Vec<(u64, u64)>,
    pub segments: Vec<Segment>,
    /// `pr_psargs` (what gdb prints as "Core was generated by").
    pub command: Option<String>,
    /// `pr_fname`.
    pub program: Option<String>,
    /// What was damaged or missing.
    pub notes: Vec<String>,
    pub bytes: Arc<CoreBytes>,
}

const NT_PRSTATUS: u32 = 1;
const NT_PRPSINFO: u32 = 3;
const NT_AUXV: u32 = 6;
const NT_SIGINFO: u32 = 0x5349_4749;
const NT_FILE: u32 = 0x4649_4c45;

fn u16_at(b: &[u8], o: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(o..o + 2)?.try_into().ok()?))
}
fn u32_at(b: &[u8], o: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(o..o + 4)?.try_into().ok()?))
}
fn u64_at(b: &[u8], o: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(o..o + 8)?.try_into().ok()?))
}
fn cstr(b: &[u8]) -> String {
    let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
    String::from_utf8_lossy(&b[..end]).trim_end().to_string()
}

/// Reads a core. `Err` only when the input is not a core at all (or of another machine);
/// damage inside a core becomes [`CoreFile::notes`].
pub fn parse(bytes: Arc<CoreBytes>) -> Result<CoreFile, CoreError> {
    let data: &[u8] = &bytes;
    if !data.starts_with(b"\x7fELF") {
        return Err(CoreError::NotElf);
    }
    match elf_type(data) {
        Some(t) if t == elf::ET_CORE.0 => {}
        Some(t) => return Err(CoreError::NotCore(t)),
        None => return Err(CoreError::BadHeader("file ends inside the ELF header".into())),
    }
    if data.get(5) != Some(&elf::ELFDATA2LSB.0) {
        return Err(CoreError::BadHeader("only little-endian cores are read".into()));
    }
    let mut notes = Vec::new();
    let mut core = CoreFile {
        arch: CoreArch::X86_64,
        threads: Vec::new(),
        siginfo: None,
        files: Vec::new(),
        auxv: Vec::new(),
        segments: Vec::new(),
        command: None,
        program: None,
        notes: Vec::new(),
        bytes: bytes.clone(),
    };
    let truncated_segments = match data.get(4) {
        Some(&c) if c == elf::ELFCLASS64.0 => {
            let header = elf::FileHeader64::<object::LittleEndian>::parse(data)
                .map_err(|e| CoreError::BadHeader(e.to_string()))?;
            let machine = header.e_machine(object::LittleEndian);
            core.arch = if machine == elf::EM_X86_64 {
                CoreArch::X86_64
            } else if machine == elf::EM_AARCH64 {
                CoreArch::Aarch64
            } else {
                return Err(CoreError::UnsupportedMachine(machine.0));
            };
            read_segments(header, data, &mut core, &mut notes)
        }
        Some(&c) if c == elf::ELFCLASS32.0 => {
            let header = elf::FileHeader32::<object::LittleEndian>::parse(data)
                .map_err(|e| CoreError::BadHeader(e.to_string()))?;
            let machine = header.e_machine(object::LittleEndian);
            if machine != elf::EM_386 {
                return Err(CoreError::UnsupportedMachine(machine.0));
            }
            core.arch = CoreArch::I386;
            read_segments(header, data, &mut core, &mut notes)
        }
        _ => return Err(CoreError::BadHeader("the ELF class is neither 32- nor 64-bit".into())),
    };
    if truncated_segments > 0 {
        notes.push(format!("the core is truncated: {truncated_segments} memory segments are missing bytes at their end; reads there fail"));
    }
    if core.threads.is_empty() {
        notes.push("the core holds no thread (NT_PRSTATUS) notes".into());
    }
    core.segments.sort_by_key(|s| s.vaddr);
    core.notes.append(&mut notes);
    Ok(core)
}

/// Reads the program headers of a 32- or 64-bit core: its PT_LOAD segments and the notes of
/// its PT_NOTE segments. Returns how many segments are cut short by the end of the file.
fn read_segments<Elf: FileHeader<Endian = object::LittleEndian>>(
    header: &Elf,
    data: &[u8],
    core: &mut CoreFile,
    notes: &mut Vec<String>,
) -> usize {
    let endian = object::LittleEndian;
    let phdrs: &[Elf::ProgramHeader] = match header.program_headers(endian, data) {
        Ok(p) => p,
        Err(e) => {
            notes.push(format!("program headers are unreadable ({e}): no threads, no memory"));
            &[]
        }
    };
    let len = data.len() as u64;
    let mut truncated_segments = 0usize;
    for ph in phdrs {
        let t = ph.p_type(endian);
        if t == elf::PT_LOAD {
            let offset: u64 = ph.p_offset(endian).into();
            let filesz: u64 = ph.p_filesz(endian).into();
            let vaddr: u64 = ph.p_vaddr(endian).into();
            // A segment cannot run past the end of the address space: `vaddr + memsz` and
            // `vaddr + filesz` must not overflow anywhere later.
            let room = u64::MAX - vaddr;
            let avail = len.saturating_sub(offset).min(filesz).min(room);
            if avail < filesz {
                truncated_segments += 1;
            }
            let memsz: u64 = ph.p_memsz(endian).into();
            if memsz > room {
                notes.push(format!(
                    "a segment at {vaddr:#x} claims {memsz:#x} bytes, past the end of the address space; it was cut"
                ));
            }
            core.segments.push(Segment {
                vaddr,
                memsz: memsz.min(room),
                offset,
                filesz: avail,
                flags: ph.p_flags(endian).0,
            });
        } else if t == elf::PT_NOTE {
            let off = usize::try_from(Into::<u64>::into(ph.p_offset(endian))).unwrap_or(usize::MAX);
            let size = usize::try_from(Into::<u64>::into(ph.p_filesz(endian))).unwrap_or(usize::MAX);
            let Some(nb) = data.get(off..off.saturating_add(size).min(data.len())) else {
                notes.push("the note segment lies beyond the end of the file (truncated core): no threads".into());
                continue;
            };
            if nb.len() < size {
                notes.push(format!(
                    "the note segment is cut short ({} of {} bytes): later threads may be missing",
                    nb.len(),
                    size
                ));
            }
            read_notes(core, nb, notes);
        }
    }
    truncated_segments
}

fn read_notes(core: &mut CoreFile, mut b: &[u8], notes: &mut Vec<String>) {
    // Nhdr: namesz, descsz, type; name and desc padded to 4 bytes.
    while b.len() >= 12 {
        let (Some(namesz), Some(descsz), Some(ty)) = (u32_at(b, 0), u32_at(b, 4), u32_at(b, 8)) else { break };
        let name_end = 12usize.saturating_add(namesz as usize);
        let desc_start = name_end.div_ceil(4) * 4;
        let desc_end = desc_start.saturating_add(descsz as usize);
        if desc_end > b.len() {
            notes.push(format!("a note (type {ty:#x}) is cut short; notes after it are lost"));
            break;
        }
        let name = &b[12..name_end.min(b.len())];
        let desc = &b[desc_start..desc_end];
        if name.starts_with(b"CORE") {
            read_note(core, ty, desc, notes);
        }
        let next = desc_end.div_ceil(4) * 4;
        b = b.get(next..).unwrap_or(&[]);
    }
}

fn read_note(core: &mut CoreFile, ty: u32, d: &[u8], notes: &mut Vec<String>) {
    // The 32-bit layouts (i386) differ from the 64-bit ones in their word size and offsets.
    let w = core.arch.word();
    let word = |o: usize| if w == 4 { u32_at(d, o).map(u64::from) } else { u64_at(d, o) };
    match ty {
        NT_PRSTATUS => {
            // elf_prstatus: siginfo (12), pr_cursig (2, padded), pr_sigpend and pr_sighold
            // (words), pr_pid; after four pids, four timevals (two words each), pr_reg.
            let cursig = u16_at(d, 12).unwrap_or(0);
            let (pid_at, reg_at) = if w == 4 { (24, 72) } else { (32, 112) };
            let lwp = u32_at(d, pid_at).unwrap_or(0);
            match regs::from_prstatus(core.arch, d.get(reg_at..).unwrap_or(&[])) {
                Some(regs) => core.threads.push(CoreThread { lwp, cursig, regs }),
                None => notes
                    .push(format!("thread LWP {lwp}: NT_PRSTATUS is too short ({} bytes) for its registers", d.len())),
            }
        }
        NT_PRPSINFO => {
            // elf_prpsinfo: pr_fname[16] and pr_psargs[80] after the ids (16-bit uid/gid on
            // i386, 32-bit on the 64-bit ABIs).
            let fname_at = if w == 4 { 28 } else { 40 };
            if let Some(b) = d.get(fname_at..fname_at + 96) {
                core.program = Some(cstr(&b[..16]));
                core.command = Some(cstr(&b[16..]));
            }
        }
        // gcore writes one per thread: the first belongs to the thread that got the signal.
        NT_SIGINFO if core.siginfo.is_none() => {
            if let (Some(signo), Some(errno), Some(code)) = (u32_at(d, 0), u32_at(d, 4), u32_at(d, 8)) {
                let signo = signo as i32;
                let code = code as i32;
                // si_addr is meaningful for fault signals raised by the kernel (si_code > 0);
                // it follows the three ints, aligned to a word.
                let fault = matches!(signo, 4 | 5 | 7 | 8 | 11) && code > 0;
                let addr_at = if w == 4 { 12 } else { 16 };
                core.siginfo =
                    Some(SigInfo { signo, errno: errno as i32, code, addr: if fault { word(addr_at) } else { None } });
            }
        }
        NT_AUXV => {
            for i in 0..d.len() / (2 * w) {
                if let (Some(k), Some(v)) = (word(i * 2 * w), word(i * 2 * w + w)) {
                    if k == 0 {
                        break;
                    }
                    core.auxv.push((k, v));
                }
            }
        }
        NT_FILE => {
            // count, page size, then (start, end, page offset) per file, then the names.
            let (Some(count), Some(page)) = (word(0), word(w)) else { return };
            let entry = 3 * w;
            let count = count.min((d.len() / entry) as u64) as usize;
            let names_at = 2 * w + count * entry;
            let mut names = d.get(names_at..).unwrap_or(&[]).split(|&c| c == 0);
            for i in 0..count {
                let o = 2 * w + i * entry;
                let (Some(s), Some(e), Some(pg)) = (word(o), word(o + w), word(o + 2 * w)) else { break };
                let path = names.next().map(|n| String::from_utf8_lossy(n).into_owned()).unwrap_or_default();
                core.files.push(FileMapping { start: s, end: e, offset: pg.wrapping_mul(page), path });
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_not_a_core() {
        assert_eq!(parse(Arc::new(CoreBytes::Owned(b"hello".to_vec()))).err().map(|e| e.name()), Some("not-elf"));
        let mut exe = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
        exe.extend_from_slice(&[3, 0]); // ET_DYN
        assert_eq!(parse(Arc::new(CoreBytes::Owned(exe))).err().map(|e| e.name()), Some("not-core"));
        let mut cut = b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
        cut.extend_from_slice(&[4, 0, 62, 0]); // ET_CORE, x86-64, then nothing
        assert_eq!(parse(Arc::new(CoreBytes::Owned(cut))).err().map(|e| e.name()), Some("bad-header"));
        assert!(!is_core(b"\x7fELF"));
        // A 32-bit core of another machine (ARM, 40) is refused by name; a cut 32-bit header
        // is a bad header.
        let mut arm = b"\x7fELF\x01\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
        arm.extend_from_slice(&[4, 0, 40, 0, 1, 0, 0, 0]);
        arm.resize(52, 0);
        assert_eq!(parse(Arc::new(CoreBytes::Owned(arm))).err().map(|e| e.name()), Some("unsupported-machine"));
        let mut cut32 = b"\x7fELF\x01\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
        cut32.extend_from_slice(&[4, 0, 3, 0]);
        assert_eq!(parse(Arc::new(CoreBytes::Owned(cut32))).err().map(|e| e.name()), Some("bad-header"));
    }

    /// The 32-bit note layouts: an i386 core with one thread, its signal, command line, auxv
    /// and one file mapping, built note by note (offsets of `elf_prstatus`, `elf_prpsinfo`,
    /// `siginfo_t` and NT_FILE as the i386 kernel and gdb write them).
    #[test]
    fn i386_notes_are_read_in_their_32_bit_layouts() {
        fn note(ty: u32, desc: &[u8]) -> Vec<u8> {
            let mut n = Vec::new();
            n.extend_from_slice(&5u32.to_le_bytes());
            n.extend_from_slice(&(desc.len() as u32).to_le_bytes());
            n.extend_from_slice(&ty.to_le_bytes());
            n.extend_from_slice(b"CORE\0\0\0\0");
            n.extend_from_slice(desc);
            n.resize(n.len().div_ceil(4) * 4, 0);
            n
        }
        let w = |v: u32| v.to_le_bytes();
        let mut prstatus = vec![0u8; 144];
        prstatus[12..14].copy_from_slice(&11u16.to_le_bytes()); // pr_cursig
        prstatus[24..28].copy_from_slice(&w(4242)); // pr_pid
        prstatus[72 + 12 * 4..72 + 13 * 4].copy_from_slice(&w(0x0804_96e4)); // eip
        prstatus[72 + 15 * 4..72 + 16 * 4].copy_from_slice(&w(0xffff_dcf4)); // esp
        let mut psinfo = vec![0u8; 124];
        psinfo[28..32].copy_from_slice(b"prog");
        psinfo[44..54].copy_from_slice(b"./prog arg");
        let mut siginfo = vec![0u8; 128];
        siginfo[0..4].copy_from_slice(&w(11));
        siginfo[8..12].copy_from_slice(&w(1)); // SEGV_MAPERR
        siginfo[12..16].copy_from_slice(&w(0x10));
        let auxv: Vec<u8> = [33u32, 0xf7ff_c000, 6, 4096, 0, 0].iter().flat_map(|v| w(*v)).collect();
        let mut file: Vec<u8> = [1u32, 1, 0x0804_8000, 0x0804_9000, 0x1000].iter().flat_map(|v| w(*v)).collect();
        file.extend_from_slice(b"/bin/prog\0");
        let mut notes = note(NT_PRPSINFO, &psinfo);
        notes.extend(note(NT_PRSTATUS, &prstatus));
        notes.extend(note(NT_SIGINFO, &siginfo));
        notes.extend(note(NT_AUXV, &auxv));
        notes.extend(note(NT_FILE, &file));
        // ELF32 header (52 bytes), one PT_NOTE program header (32 bytes), then the notes.
        let mut b = b"\x7fELF\x01\x01\x01\0\0\0\0\0\0\0\0\0".to_vec();
        b.extend_from_slice(&4u16.to_le_bytes()); // ET_CORE
        b.extend_from_slice(&3u16.to_le_bytes()); // EM_386
        b.extend_from_slice(&w(1));
        b.extend_from_slice(&w(0)); // e_entry
        b.extend_from_slice(&w(52)); // e_phoff
        b.extend_from_slice(&w(0)); // e_shoff
        b.extend_from_slice(&w(0)); // e_flags
        for h in [52u16, 32, 1, 40, 0, 0] {
            b.extend_from_slice(&h.to_le_bytes());
        }
        for v in [4u32, 84, 0, 0, notes.len() as u32, 0, 4, 1] {
            b.extend_from_slice(&w(v));
        }
        b.extend_from_slice(&notes);
        let core = parse(Arc::new(CoreBytes::Owned(b))).expect("an i386 core");
        assert_eq!(core.arch, CoreArch::I386);
        assert_eq!(core.threads.len(), 1);
        let t = &core.threads[0];
        assert_eq!((t.lwp, t.cursig), (4242, 11));
        assert!(t.regs.contains(&("eip", 0x0804_96e4)) && t.regs.contains(&("esp", 0xffff_dcf4)));
        assert_eq!(core.siginfo, Some(SigInfo { signo: 11, errno: 0, code: 1, addr: Some(0x10) }));
        assert_eq!(core.program.as_deref(), Some("prog"));
        assert_eq!(core.command.as_deref(), Some("./prog arg"));
        assert_eq!(core.auxv, vec![(33, 0xf7ff_c000), (6, 4096)]);
        assert_eq!(
            core.files,
            vec![FileMapping { start: 0x0804_8000, end: 0x0804_9000, offset: 0x1000, path: "/bin/prog".into() }]
        );
        assert!(core.notes.is_empty(), "{:?}", core.notes);
    }
}
