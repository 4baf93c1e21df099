//! ELF modules with their DWARF: opening a binary (memory-mapped), finding its separate
//! debug file (`DIR/.build-id/xx/rest.debug`, `.gnu_debuglink`), its symbol table, its
//! CFI sections for the unwinder, and addr2line lookups.
//!
//! Nothing is parsed before it is needed: opening a module reads the ELF headers only;
//! its addr2line `Context` (unit ranges) is built at the first lookup, and each unit's
//! lines and functions when an address inside it is first asked for. [`DwarfSymbols`]
//! caches one [`ElfModule`] per module path and implements [`SymbolSupplier`].

use super::demangle::{demangle, gdb_function_name, gdb_function_name_at};
use super::lazy::LazyDwarf;
use super::{NearKind, NearSymbol, SourceFrame, SymbolInfo, SymbolSupplier, SymbolizeError};
use memmap2::Mmap;
use object::{Object, ObjectSection, ObjectSegment, ObjectSymbol, SymbolKind};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The reader every module uses, borrowing the module's bytes: `'a` is the borrow of the
/// [`ElfModule`] it came from, so nothing read through it can outlive the module.
pub type Slice<'a> = gimli::EndianSlice<'a, gimli::RunTimeEndian>;

/// What the module keeps internally: its own bytes, valid as long as the module (see
/// [`ElfModule`]'s safety note). Never handed out with this lifetime.
type StaticSlice = Slice<'static>;

/// A PT_LOAD segment of a module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadSegment {
    pub vaddr: u64,
    pub memsz: u64,
    pub offset: u64,
    pub filesz: u64,
    /// `PF_X | PF_W | PF_R` bits.
    pub flags: u32,
}

/// One ELF symbol (text symbols only).
#[derive(Clone, Debug)]
struct ElfSym {
    address: u64,
    size: u64,
    /// The symbol table's name, or a PLT stub's synthesized `name@plt` ([`plt_symbols`]).
    name: std::borrow::Cow<'static, str>,
    /// The `STT_FILE` symbol before a local symbol (what binutils prints as its file).
    file: Option<&'static str>,
    /// A PLT stub's synthesized name: gdb's, not in the symbol table (addr2line's
    /// [`ElfModule::symbol_name`] passes over it, as binutils does).
    plt: bool,
}

/// An allocated section of a module: where it is and whether it holds code.
#[derive(Debug)]
struct SectionSpan {
    name: String,
    address: u64,
    size: u64,
    exec: bool,
}

/// What names an address outside code: the allocated sections (sorted by address) and the
/// data-object symbols (sorted by address, each with its size).
#[derive(Debug, Default)]
struct DataMap {
    sections: Vec<SectionSpan>,
    objects: Vec<(u64, u64, String)>,
}

impl DataMap {
    fn read(file: &[u8], symbol_sources: &[&[u8]]) -> DataMap {
        let mut m = DataMap::default();
        if let Ok(o) = object::File::parse(file) {
            for sec in o.sections() {
                let flags = sec.flags();
                let (alloc, exec) = match flags {
                    object::SectionFlags::Elf { sh_flags, .. } => {
                        (sh_flags.contains(object::elf::SHF_ALLOC), sh_flags.contains(object::elf::SHF_EXECINSTR))
                    }
                    _ => (sec.address() != 0, sec.kind() == object::SectionKind::Text),
                };
                if !alloc || sec.size() == 0 {
                    continue;
                }
                let Ok(name) = sec.name() else { continue };
                m.sections.push(SectionSpan { name: name.to_string(), address: sec.address(), size: sec.size(), exec });
            }
        }
        m.sections.sort_by_key(|s| s.address);
        for d in symbol_sources {
            let Ok(o) = object::File::parse(*d) else { continue };
            for s in o.symbols().chain(o.dynamic_symbols()) {
                if s.kind() == SymbolKind::Data
                    && s.is_definition()
                    && s.size() > 0
                    && s.address() != 0
                    && let Ok(name) = s.name()
                {
                    m.objects.push((s.address(), s.size(), demangle(name).into_owned()));
                }
            }
            if !m.objects.is_empty() {
                break;
            }
        }
        m.objects.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        m.objects.dedup_by_key(|o| o.0);
        m
    }

    /// The allocated section holding `vaddr`.
    fn section(&self, vaddr: u64) -> Option<&SectionSpan> {
        let i = self.sections.partition_point(|s| s.address <= vaddr);
        self.sections[..i].iter().rev().find(|s| vaddr - s.address < s.size)
    }

    /// The data object holding `vaddr` inside its size.
    fn object(&self, vaddr: u64) -> Option<(u64, &str)> {
        let i = self.objects.partition_point(|o| o.0 <= vaddr);
        // Objects do not nest in practice; look back a few for an enclosing larger one.
        self.objects[..i].iter().rev().take(8).find(|o| vaddr - o.0 < o.1).map(|o| (o.0, o.2.as_str()))
    }
}

/// A section's address and bytes (borrowed from the module, `'a`).
#[derive(Clone, Copy, Debug)]
pub struct SectionData<'a> {
    pub address: u64,
    pub data: &'a [u8],
}

/// The sections the unwinder needs (borrowed from the module, `'a`).
#[derive(Clone, Copy, Debug, Default)]
pub struct CfiSections<'a> {
    pub eh_frame: Option<SectionData<'a>>,
    pub eh_frame_hdr: Option<SectionData<'a>>,
    pub debug_frame: Option<SectionData<'a>>,
    pub text: Option<SectionData<'a>>,
    pub got: Option<SectionData<'a>>,
}

/// An opened ELF file with its (possibly separate) debug information.
///
/// Safety of the internal `'static` slices: every slice points into `maps` (memory maps,
/// whose addresses do not move when the `Mmap` value moves), `owned` (boxed bytes of
/// [`Self::from_bytes`]) or the inflated buffers of `dwarf` (allocated once, see
/// [`super::lazy`]). `ctx` (which holds slices of `dwarf`) is dropped first, `dwarf` next,
/// `owned` and `maps` last (field order). No slice leaves the module with a `'static` lifetime: every public accessor
/// ([`Self::cfi`], [`Self::dwarf`], [`Self::dwarf_for_one_pass`], [`Self::new_context`],
/// the symbol names) ties what it returns to the `&self` borrow, so keeping one after the
/// module is dropped does not compile:
///
/// ```compile_fail,E0505
/// use tracecheck::symbolize::dwarf::ElfModule;
/// let m = ElfModule::open(std::path::Path::new("/proc/self/exe"), &[]).unwrap();
/// let text: &[u8] = m.cfi().text.unwrap().data;
/// drop(m);
/// println!("{}", text.len()); // use after free: rejected
/// ```
///
/// ```compile_fail,E0505
/// use tracecheck::symbolize::dwarf::ElfModule;
/// let m = ElfModule::open(std::path::Path::new("/proc/self/exe"), &[]).unwrap();
/// let dwarf = m.dwarf_for_one_pass().unwrap();
/// let ctx = m.new_context().unwrap().unwrap();
/// drop(m);
/// println!("{:?} {:?}", dwarf.debug_info.units().next().is_ok(), ctx.find_location(0).is_ok());
/// ```
///
/// The same code without the `drop` compiles (so the two above fail for the lifetime, not a
/// typo):
///
/// ```no_run
/// use tracecheck::symbolize::dwarf::ElfModule;
/// let m = ElfModule::open(std::path::Path::new("/proc/self/exe"), &[]).unwrap();
/// let text: &[u8] = m.cfi().text.unwrap().data;
/// let dwarf = m.dwarf_for_one_pass().unwrap();
/// let ctx = m.new_context().unwrap().unwrap();
/// println!("{} {:?} {:?}", text.len(), dwarf.debug_info.units().next().is_ok(), ctx.find_location(0).is_ok());
/// drop(m);
/// ```
/// Frames found by walking a unit once for all its planned addresses, by DWARF address, and
/// the units walked so.
type UnitFrames = (HashMap<u64, Vec<super::batch::OwnedFrame>>, Vec<usize>);

pub struct ElfModule {
    ctx: Mutex<Option<Result<addr2line::Context<StaticSlice>, String>>>,
    /// The DWARF sections, each read (and inflated) on first use.
    dwarf: Option<LazyDwarf>,
    /// `.debug_aranges` as sorted (begin, end, unit offset), read at the first lookup.
    aranges: std::sync::OnceLock<Vec<(u64, u64, usize, u64)>>,
    /// The units' start offsets in `.debug_aranges`, sorted (for [`Self::plan`]).
    unit_starts: std::sync::OnceLock<Vec<usize>>,
    /// What [`Self::symbol_info`] answered, by address.
    answers: Mutex<HashMap<u64, Option<SymbolInfo>>>,
    /// The DWARF addresses [`Self::plan`] was told of (sorted, distinct): the first lookup in a
    /// unit walks the unit once for all of them ([`Self::planned_in_unit`]).
    planned: Mutex<Vec<u64>>,
    /// Frames found that way, by DWARF address, and the units walked so.
    unit_frames: Mutex<UnitFrames>,
    /// Line-table sequences of the units looked up so far, by line-program offset, for
    /// gdb's line (many registers and stack words land in one big unit).
    line_seqs: Mutex<HashMap<usize, Arc<Vec<Vec<super::batch::LineRow>>>>>,
    /// How far the DWARF's addresses lie below the code they describe (0 for a consistent
    /// file), measured at the first lookup: [`Self::dwarf_shift`].
    shift: std::sync::OnceLock<u64>,
    /// Built at the first symbol lookup (sorting tens of thousands of symbols is not free,
    /// and a binary with full DWARF may never need them).
    symbols: std::sync::OnceLock<Vec<ElfSym>>,
    /// Allocated sections and data-object symbols, for addresses outside code (read at the
    /// first such lookup).
    data: std::sync::OnceLock<DataMap>,
    /// Where the symbols come from: the binary, then its debug file.
    symbol_sources: Vec<&'static [u8]>,
    cfi: CfiSections<'static>,
    file_data: &'static [u8],
    /// The binary as given.
    pub path: PathBuf,
    /// Where the DWARF came from, when not from `path` itself.
    pub debug_path: Option<PathBuf>,
    pub build_id: Option<Vec<u8>>,
    pub loads: Vec<LoadSegment>,
    /// An `ET_EXEC` file (not PIE, not a shared object): it can only be loaded at its
    /// segments' own addresses.
    pub fixed_address: bool,
    pub machine: object::Architecture,
    pub little_endian: bool,
    /// What was missing or odd, for diagnostics.
    pub notes: Vec<String>,
    // Kept alive for the slices above; never read directly.
    _owned: Vec<Box<[u8]>>,
    _maps: Vec<Mmap>,
}

impl std::fmt::Debug for ElfModule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ElfModule").field("path", &self.path).field("debug_path", &self.debug_path).finish()
    }
}

/// Options shared by the DWARF symbolizer and the core reader.
#[derive(Clone, Debug, Default)]
pub struct SymbolOptions {
    /// Executables and shared libraries given with `--exe`.
    pub exes: Vec<PathBuf>,
    /// Prefix for module paths recorded in a core or transcript.
    pub sysroot: Option<PathBuf>,
    /// Roots of separate debug files (`.build-id/xx/rest.debug`, debuglink names).
    pub debug_dirs: Vec<PathBuf>,
    /// Also search `/usr/lib/debug` (gdb's default debug-file-directory).
    pub system_debug_dir: bool,
}

impl SymbolOptions {
    fn all_debug_dirs(&self) -> Vec<PathBuf> {
        let mut v = self.debug_dirs.clone();
        if self.system_debug_dir {
            match &self.sysroot {
                Some(s) => v.push(s.join("usr/lib/debug")),
                None => v.push(PathBuf::from("/usr/lib/debug")),
            }
        }
        v
    }
}

fn map_file(path: &Path) -> Result<Mmap, SymbolizeError> {
    let f = crate::fsutil::open_regular(path)
        .map_err(|e| SymbolizeError::Open { path: path.display().to_string(), source: e })?;
    // SAFETY: the file is mapped read-only; like every debugger we assume it is not
    // truncated underneath us while tracecheck runs.
    unsafe { Mmap::map(&f) }.map_err(|e| SymbolizeError::Open { path: path.display().to_string(), source: e })
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// `DIR/.build-id/xx/rest.debug` for a build-id.
pub fn build_id_path(dir: &Path, id: &[u8]) -> Option<PathBuf> {
    let (first, rest) = id.split_first()?;
    Some(dir.join(".build-id").join(format!("{first:02x}")).join(format!("{}.debug", hex(rest))))
}

fn has_dwarf(obj: &object::File<'_>) -> bool {
    obj.section_by_name(".debug_info").map(|s| s.size() > 0).unwrap_or(false)
}

impl ElfModule {
    /// Opens `path` and finds its debug information (`debug_dirs` are searched for a
    /// separate debug file when the binary itself has no `.debug_info`).
    pub fn open(path: &Path, debug_dirs: &[PathBuf]) -> Result<ElfModule, SymbolizeError> {
        let map = map_file(path)?;
        // SAFETY: see the type's safety note; `map` moves into `maps` in `from_data`.
        let data: &'static [u8] = unsafe { std::slice::from_raw_parts(map.as_ptr(), map.len()) };
        Self::from_data(path, data, vec![map], Vec::new(), debug_dirs, super::cache::dir())
    }

    /// Reads an ELF image held in memory (fuzzing, tests). `name` is only used in messages;
    /// no separate debug file is searched for.
    pub fn from_bytes(name: &Path, bytes: Vec<u8>) -> Result<ElfModule, SymbolizeError> {
        let b = bytes.into_boxed_slice();
        // SAFETY: the box's heap buffer does not move when the box moves into `owned`,
        // which outlives every use (type's safety note).
        let data: &'static [u8] = unsafe { std::slice::from_raw_parts(b.as_ptr(), b.len()) };
        Self::from_data(name, data, Vec::new(), vec![b], &[], None)
    }

    fn from_data(
        path: &Path,
        data: &'static [u8],
        mut maps: Vec<Mmap>,
        owned: Vec<Box<[u8]>>,
        debug_dirs: &[PathBuf],
        cache: Option<&Path>,
    ) -> Result<ElfModule, SymbolizeError> {
        let obj = object::File::parse(data)
            .map_err(|e| SymbolizeError::NotObject { path: path.display().to_string(), message: e.to_string() })?;
        let mut notes = Vec::new();
        let build_id = obj.build_id().ok().flatten().map(|b| b.to_vec());
        let loads = obj
            .segments()
            .map(|s| {
                let (offset, filesz) = s.file_range();
                let flags = match s.flags() {
                    object::SegmentFlags::Elf { p_flags, .. } => p_flags.0,
                    _ => 0,
                };
                // Clamped so that `vaddr + memsz`, `vaddr + filesz` and `offset + filesz`
                // cannot overflow (a damaged file may claim anything).
                let vaddr = s.address();
                let room = u64::MAX - vaddr;
                let filesz = filesz.min(room).min((data.len() as u64).saturating_sub(offset));
                LoadSegment { vaddr, memsz: s.size().min(room), offset, filesz, flags }
            })
            .collect();
        let section = |o: &object::File<'static>, name: &str| -> Option<SectionData<'static>> {
            let s = o.section_by_name(name)?;
            let d = s.data().ok()?;
            Some(SectionData { address: s.address(), data: d })
        };
        // `.debug_frame` may be compressed (SHF_COMPRESSED: Go links its DWARF compressed):
        // it is inflated here, once, into a buffer the module keeps (at most 64 MiB).
        let mut owned = owned;
        let mut inflated = |o: &object::File<'static>, name: &str| -> Option<SectionData<'static>> {
            let s = o.section_by_name(name)?;
            let range = s.compressed_file_range().ok()?;
            if range.format == object::CompressionFormat::None {
                return section(o, name);
            }
            if range.uncompressed_size > 64 << 20 {
                return None;
            }
            let b = s.uncompressed_data().ok()?.into_owned().into_boxed_slice();
            // SAFETY: the box's heap buffer does not move when the box moves into `owned`,
            // which outlives every use (type's safety note).
            let data: &'static [u8] = unsafe { std::slice::from_raw_parts(b.as_ptr(), b.len()) };
            owned.push(b);
            Some(SectionData { address: s.address(), data })
        };
        let debug_frame = inflated(&obj, ".debug_frame");
        let mut cfi = CfiSections {
            eh_frame: section(&obj, ".eh_frame"),
            eh_frame_hdr: section(&obj, ".eh_frame_hdr"),
            debug_frame,
            text: section(&obj, ".text"),
            got: section(&obj, ".got"),
        };
        let little_endian = obj.is_little_endian();
        let machine = obj.architecture();

        // Find the DWARF: the binary itself, else a separate debug file.
        let mut debug_path = None;
        let mut dbg_obj: Option<object::File<'static>> = None;
        // The debug file's bytes (in `maps`), for its symbol table.
        let mut debug_data: Option<&'static [u8]> = None;
        if !has_dwarf(&obj) {
            match find_debug_file(path, &obj, debug_dirs) {
                Some((p, m)) => {
                    // SAFETY: as above; `m` moves into `maps`.
                    let d: &'static [u8] = unsafe { std::slice::from_raw_parts(m.as_ptr(), m.len()) };
                    maps.push(m);
                    match object::File::parse(d) {
                        Ok(o) => {
                            let id = o.build_id().ok().flatten();
                            if let (Some(a), Some(b)) = (&build_id, id)
                                && a.as_slice() != b
                            {
                                notes.push(format!(
                                    "{}: debug file {} has build-id {}, not {}; not used",
                                    path.display(),
                                    p.display(),
                                    hex(b),
                                    hex(a)
                                ));
                            }
                            if !notes.iter().any(|n| n.contains("not used")) {
                                debug_path = Some(p);
                                dbg_obj = Some(o);
                                debug_data = Some(d);
                            }
                        }
                        Err(e) => {
                            notes.push(format!("{}: debug file {} is not readable: {e}", path.display(), p.display()))
                        }
                    }
                }
                None => notes.push(format!(
                    "{} has no debug info and no separate debug file was found{}; names come from its symbol table",
                    path.display(),
                    build_id.as_ref().map(|b| format!(" (build-id {})", hex(b))).unwrap_or_default()
                )),
            }
        }
        let dwarf_src = dbg_obj.as_ref().filter(|o| has_dwarf(o)).or(if has_dwarf(&obj) { Some(&obj) } else { None });
        // Nothing is read or inflated here: each section on its first use (see `lazy`).
        let dwarf = match dwarf_src {
            Some(o) => match LazyDwarf::new(o, cache) {
                Ok(d) => Some(d),
                Err(e) => {
                    notes.push(SymbolizeError::Dwarf { path: path.display().to_string(), message: e }.to_string());
                    None
                }
            },
            None => None,
        };
        if cfi.debug_frame.is_none()
            && let Some(o) = &dbg_obj
        {
            cfi.debug_frame = inflated(o, ".debug_frame").filter(|s| !s.data.is_empty());
        }
        let mut symbol_sources = vec![data];
        symbol_sources.extend(debug_data);
        Ok(ElfModule {
            ctx: Mutex::new(None),
            dwarf,
            aranges: std::sync::OnceLock::new(),
            unit_starts: std::sync::OnceLock::new(),
            answers: Mutex::new(HashMap::new()),
            planned: Mutex::new(Vec::new()),
            unit_frames: Mutex::new((HashMap::new(), Vec::new())),
            line_seqs: Mutex::new(HashMap::new()),
            symbols: std::sync::OnceLock::new(),
            shift: std::sync::OnceLock::new(),
            data: std::sync::OnceLock::new(),
            symbol_sources,
            cfi,
            file_data: data,
            path: path.to_path_buf(),
            debug_path,
            build_id,
            loads,
            fixed_address: obj.kind() == object::ObjectKind::Executable,
            machine,
            little_endian,
            notes,
            _owned: owned,
            _maps: maps,
        })
    }

    /// Whether DWARF was found (in the binary or a separate file).
    pub fn has_debug_info(&self) -> bool {
        self.dwarf.is_some()
    }

    /// The DWARF sections with the module's internal lifetime; private, see the type's
    /// safety note.
    fn dwarf_static(&self) -> Option<gimli::Dwarf<StaticSlice>> {
        let mut d = self.dwarf.as_ref()?.full().ok()?;
        d.populate_abbreviations_cache(gimli::AbbreviationsCacheStrategy::Duplicates);
        Some(d)
    }

    /// The DWARF sections, to build more contexts (one per thread in batch mode). They
    /// borrow the module.
    pub fn dwarf(&self) -> Option<gimli::Dwarf<Slice<'_>>> {
        self.dwarf_static()
    }

    /// The DWARF sections without the shared-abbreviations cache, for a single pass over
    /// the units (batch lookups parse each unit once, so the cache's pass over every unit
    /// header would be wasted). They borrow the module.
    pub fn dwarf_for_one_pass(&self) -> Option<gimli::Dwarf<Slice<'_>>> {
        self.dwarf.as_ref()?.full().ok()
    }

    /// CFI sections for the unwinder (borrowing the module).
    pub fn cfi(&self) -> &CfiSections<'_> {
        &self.cfi
    }

    /// The ELF virtual address for a file offset (through the PT_LOAD that maps it).
    ///
    /// Mappings start at a segment's page-aligned offset, and two segments may share a
    /// page (text right after read-only data), so a segment that starts exactly there wins.
    pub fn offset_to_vaddr(&self, off: u64) -> Option<u64> {
        let page = 0xfff;
        let loads = || self.loads.iter().filter(|l| l.memsz > 0);
        loads()
            .find(|l| l.offset & !page == off)
            .or_else(|| {
                loads().find(|l| {
                    let start = l.offset & !page;
                    off >= start && off < l.offset.saturating_add(l.filesz.max(1))
                })
            })
            .and_then(|l| (off - (l.offset & !page)).checked_add(l.vaddr & !page))
    }

    /// The `PF_*` flags of the load segment that maps file offset `off` (a page offset, as
    /// NT_FILE and `info proc mappings` give it): how the loader mapped that page.
    pub fn offset_flags(&self, off: u64) -> Option<u32> {
        let page = 0xfff;
        let loads = || self.loads.iter().filter(|l| l.memsz > 0);
        loads()
            .find(|l| l.offset & !page == off)
            .or_else(|| {
                loads().find(|l| {
                    let start = l.offset & !page;
                    off >= start && off < l.offset.saturating_add(l.filesz.max(1))
                })
            })
            .map(|l| l.flags)
    }

    /// Reads file bytes at a virtual address (code and read-only data of the module).
    pub fn read_vaddr(&self, vaddr: u64, buf: &mut [u8]) -> usize {
        for l in &self.loads {
            if vaddr >= l.vaddr && vaddr < l.vaddr + l.filesz {
                let Some(off) = (vaddr - l.vaddr).checked_add(l.offset).and_then(|o| usize::try_from(o).ok()) else {
                    continue;
                };
                let avail = usize::try_from(l.vaddr + l.filesz - vaddr).unwrap_or(usize::MAX);
                let n = buf.len().min(avail);
                if let Some(src) = off.checked_add(n).and_then(|end| self.file_data.get(off..end)) {
                    buf[..n].copy_from_slice(src);
                    return n;
                }
            }
        }
        0
    }

    /// The text symbols, sorted by address (read at the first call).
    fn symbols(&self) -> &[ElfSym] {
        self.symbols.get_or_init(|| {
            for d in &self.symbol_sources {
                if let Ok(o) = object::File::parse(*d) {
                    let v = collect_symbols(&o);
                    if !v.is_empty() {
                        return v;
                    }
                }
            }
            Vec::new()
        })
    }

    /// What names an address that lies in an allocated section without code (`.rodata`,
    /// `.data`, `.bss`, …): the data object holding it inside its size, else the section
    /// (`.rodata+0x1c20 in prog`). `None` for code addresses and addresses in no section.
    /// Never the nearest function below, which would name read-only data `<_fini+7200>`.
    pub fn data_symbol(&self, vaddr: u64) -> Option<NearSymbol> {
        let map = self.data.get_or_init(|| DataMap::read(self.file_data, &self.symbol_sources));
        let sec = map.section(vaddr)?;
        if sec.exec {
            return None;
        }
        if let Some((address, name)) = map.object(vaddr) {
            return Some(NearSymbol { name: name.to_string(), address, kind: NearKind::Data });
        }
        let module = self.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Some(NearSymbol { name: sec.name.clone(), address: sec.address, kind: NearKind::Section { module } })
    }

    /// The nearest text symbol at or below `vaddr` (inside its size when it has one).
    pub fn nearest_symbol(&self, vaddr: u64) -> Option<NearSymbol> {
        let symbols = self.symbols();
        let i = symbols.partition_point(|s| s.address <= vaddr);
        let s = symbols[..i].iter().rev().find(|s| s.size == 0 || vaddr - s.address < s.size)?;
        // (`s.address <= vaddr` here; `address + size` can pass the end of the address space.)
        if s.size == 0 && symbols.get(i).is_none() && vaddr - s.address > 0x10000 {
            return None;
        }
        Some(NearSymbol { name: gdb_function_name(&s.name), address: s.address, kind: NearKind::Code })
    }

    /// The raw (mangled) symbol name at `vaddr`, for addr2line's fallback.
    /// With the symbol's source file name when the symbol table has one (local symbols).
    /// Like binutils, the nearest symbol at or below, whatever its size (padding after a
    /// function is attributed to it).
    pub fn symbol_name(&self, vaddr: u64) -> Option<(&str, Option<&str>)> {
        let symbols = self.symbols();
        let i = symbols.partition_point(|s| s.address <= vaddr);
        let s = symbols[..i].iter().rev().find(|s| !s.plt)?;
        Some((&s.name, s.file))
    }

    /// [`Self::symbol_name`] for many addresses (sorted ascending) at once. Unless the
    /// sorted table is already built, this is one pass over the symbol table, much
    /// cheaper than building the table when there are few addresses to look up.
    pub fn symbol_names(&self, addrs: &[u64]) -> Vec<Option<(&str, Option<&str>)>> {
        if self.symbols.get().is_some() {
            return addrs.iter().map(|&a| self.symbol_name(a)).collect();
        }
        for d in &self.symbol_sources {
            let Ok(o) = object::File::parse(*d) else { continue };
            // best[j]: the nearest symbol in (addrs[j - 1], addrs[j]]: (address, size, name, file).
            type Best = Option<(u64, u64, &'static str, Option<object::SymbolIndex>)>;
            let mut best: Vec<Best> = vec![None; addrs.len()];
            let any = text_symbols(&o, |s, file| {
                let (address, size) = (s.address(), s.size());
                let Some(b) = best.get_mut(addrs.partition_point(|&a| a < address)) else { return };
                // Names are read only for symbols that may win.
                let wins = match b {
                    None => true,
                    Some(c) => {
                        c.0 < address || (c.0 == address && (size > c.1 || (size == c.1 && c.2.starts_with('_'))))
                    }
                };
                if !wins {
                    return;
                }
                let Some(name) = symbol_name_of(s) else { return };
                match b {
                    Some(c) if c.0 == address && !preferred((size, name), (c.1, c.2)) => {}
                    _ => *b = Some((address, size, name, file)),
                }
            });
            if !any {
                continue;
            }
            let mut last = None;
            return best
                .into_iter()
                .map(|b| {
                    if b.is_some() {
                        last = b;
                    }
                    last.map(|(_, _, name, file)| (name, file_name_of(&o, file)))
                })
                .collect();
        }
        vec![None; addrs.len()]
    }

    /// A fresh addr2line context over this module's DWARF (for another thread). It borrows
    /// the module.
    pub fn new_context(&self) -> Option<Result<addr2line::Context<Slice<'_>>, SymbolizeError>> {
        let d = self.dwarf()?;
        Some(addr2line::Context::from_dwarf(d).map_err(|e| self.dwarf_err(e)))
    }

    /// The context kept in `ctx`, with the internal lifetime (private).
    fn new_context_static(&self) -> Option<Result<addr2line::Context<StaticSlice>, SymbolizeError>> {
        let d = self.dwarf_static()?;
        Some(addr2line::Context::from_dwarf(d).map_err(|e| self.dwarf_err(e)))
    }

    fn dwarf_err(&self, e: gimli::Error) -> SymbolizeError {
        SymbolizeError::Dwarf { path: self.path.display().to_string(), message: e.to_string() }
    }

    /// Function, inline chain, file and line for a module address.
    pub fn symbol_info(&self, vaddr: u64) -> Result<Option<SymbolInfo>, SymbolizeError> {
        // A core asks for many addresses twice (a frame's pc, then the same value in a
        // register or as the next frame's return address).
        if let Some(known) = self.answers.lock().unwrap_or_else(|p| p.into_inner()).get(&vaddr) {
            return Ok(known.clone());
        }
        let answer = self.symbol_info_uncached(vaddr)?;
        self.answers.lock().unwrap_or_else(|p| p.into_inner()).insert(vaddr, answer.clone());
        Ok(answer)
    }

    fn symbol_info_uncached(&self, vaddr: u64) -> Result<Option<SymbolInfo>, SymbolizeError> {
        if let Some(symbol) = self.data_symbol(vaddr) {
            return Ok(Some(SymbolInfo { frames: Vec::new(), symbol: Some(symbol) }));
        }
        // The unit that `.debug_aranges` names for the address is read alone (and the
        // sections only as far as it needs); the whole-file context is built (once) only for
        // the addresses that this cannot answer: no unit or several, a reference to a later
        // unit, damaged DWARF. Each address takes the first way that answers, whatever was
        // asked before it.
        // DWARF addresses, where the debug info is not where the code is (`dwarf_shift`).
        let dv = vaddr.wrapping_sub(self.dwarf_shift());
        let mut frames = self.frames_in_one_unit(dv).unwrap_or_default();
        let mut guard = self.ctx.lock().unwrap_or_else(|p| p.into_inner());
        if frames.is_empty() {
            if guard.is_none()
                && let Some(c) = self.new_context_static()
            {
                *guard = Some(c.map_err(|e| e.to_string()));
            }
            if let Some(ctx) = guard.as_ref() {
                let ctx = ctx
                    .as_ref()
                    .map_err(|m| SymbolizeError::Dwarf { path: self.path.display().to_string(), message: m.clone() })?;
                frames = source_frames_with(ctx, dv, true, &|u, a| self.gdb_line_cached(u, a))
                    .map_err(|e| self.dwarf_err(e))?;
            }
        }
        drop(guard);
        let symbol = self.nearest_symbol(vaddr);
        if let (Some(last), Some(sym)) = (frames.last_mut(), &symbol)
            && last.function.is_none()
        {
            last.function = Some(sym.name.clone());
            last.raw_function = Some(sym.name.clone());
            last.display_function = Some(sym.name.clone());
        }
        if frames.is_empty() && symbol.is_none() {
            return Ok(None);
        }
        Ok(Some(SymbolInfo { frames, symbol }))
    }
}

impl ElfModule {
    /// How far this module's DWARF addresses lie below the code they describe: 0 for a
    /// consistent file. A tool that rewrites an ELF file after linking may move its loadable
    /// sections and update the symbol tables, relocations and CFI but not `.debug_*` (the
    /// Julia 1.13.1 runtime in the ace-jax-coupling 0.2.0 wheel: every DWARF address is
    /// 0x2000 below the code, so gdb's `bt` names the wrong functions; docs/julia.md). The
    /// subprograms of the first units are matched by name with the ELF symbol table; a shift
    /// that at least 8 matches and 80% of them agree on is used for every DWARF lookup (and
    /// noted by [`Self::shift_note`]).
    pub fn dwarf_shift(&self) -> u64 {
        *self.shift.get_or_init(|| {
            if self.aranges_agree_with_code() {
                return 0;
            }
            self.measure_dwarf_shift().unwrap_or(0)
        })
    }

    /// Whether `.debug_aranges` already shows the DWARF where the code is: at least
    /// [`ARANGES_AGREE_MIN`] ranges, and nine in ten of them, begin exactly where a function
    /// begins by the text symbols or by `.eh_frame_hdr`'s table (a unit's code starts with a
    /// function; ranges at 0, code the linker dropped, are not counted). The aranges are DWARF addresses like the
    /// subprograms': a rewrite that moved the code but not the DWARF moves those begins off
    /// the symbols (apart from chance hits). When they agree, the subprogram measurement
    /// ([`Self::measure_dwarf_shift`], which reads the first units of `.debug_info` and so
    /// inflates them) is not needed: it was 26 % of a small core's instructions on libc's
    /// debug file and 59 % on a Rust binary's own DWARF (docs/performance.md, "3f"). Few or
    /// disagreeing aranges (a juliac library lists only a few) leave the decision to it.
    pub fn aranges_agree_with_code(&self) -> bool {
        let ar = self.aranges();
        let symbols = self.symbols();
        let fdes = self.fde_starts();
        let (mut n, mut hit) = (0usize, 0usize);
        for r in ar {
            // A range at 0 is code the linker dropped (its unit still lists it).
            if r.0 == 0 {
                continue;
            }
            n += 1;
            if symbols.binary_search_by_key(&r.0, |s| s.address).is_ok() || fdes.binary_search(&r.0).is_ok() {
                hit += 1;
            }
        }
        n >= ARANGES_AGREE_MIN && hit * 10 >= n * 9
    }

    /// A note on a shifted DWARF, once it was measured (for the report's notes).
    pub fn shift_note(&self) -> Option<String> {
        let s = *self.shift.get()?;
        (s != 0).then(|| {
            format!(
                "{}: its debug info (DWARF) is {:#x} below its code (function addresses in the DWARF and the ELF symbol table differ by that much): names and lines are read with that correction (gdb, which trusts the DWARF, names other functions there)",
                self.path.display(),
                s.wrapping_neg().min(s)
            )
        })
    }

    fn measure_dwarf_shift(&self) -> Option<u64> {
        use gimli::SectionId as S;
        let d = self.dwarf.as_ref()?;
        let by_name: HashMap<&str, u64> =
            self.symbols().iter().filter(|s| s.size > 0).map(|s| (&*s.name, s.address)).collect();
        if by_name.len() < 8 {
            return None;
        }
        let info = d.section(S::DebugInfo)?;
        let whole = [
            S::DebugAbbrev,
            S::DebugAddr,
            S::DebugStr,
            S::DebugStrOffsets,
            S::DebugLineStr,
            S::DebugRanges,
            S::DebugRngLists,
        ];
        let mut votes: HashMap<u64, usize> = HashMap::new();
        let mut total = 0usize;
        // The units from the start of `.debug_info`, one after the other (a juliac library has
        // one unit per function; `.debug_aranges` may list only a few), up to 64 units or
        // 16 MiB.
        let mut next = 0usize;
        for _ in 0..64 {
            let off = next;
            let Some(end) = unit_end(info, off, d.endian) else { break };
            if end <= off || end > 16 << 20 || info.prefix(end).is_err() {
                break;
            }
            next = end;
            let Ok(dwarf) = d.partial(&whole) else { break };
            let Ok(header) = dwarf.debug_info.header_from_offset(gimli::DebugInfoOffset(off)) else { continue };
            let Ok(unit) = dwarf.unit(header) else { continue };
            let u = unit.unit_ref(&dwarf);
            let Ok(mut e) = u.entries_raw(None) else { continue };
            while !e.is_empty() && total < 400 {
                let Ok(abbrev) = e.read_abbreviation() else { break };
                let Some(abbrev) = abbrev else { continue };
                let sub = abbrev.tag() == gimli::DW_TAG_subprogram;
                let (mut low, mut name, mut linkage) = (None, None, None);
                let mut bad = false;
                for spec in abbrev.attributes() {
                    let Ok(a) = e.read_attribute(*spec) else {
                        bad = true;
                        break;
                    };
                    if !sub {
                        continue;
                    }
                    match a.name() {
                        gimli::DW_AT_low_pc => low = u.attr_address(a.value()).ok().flatten(),
                        gimli::DW_AT_linkage_name | gimli::DW_AT_MIPS_linkage_name => {
                            linkage = u.attr_string(a.value()).ok()
                        }
                        gimli::DW_AT_name => name = u.attr_string(a.value()).ok(),
                        _ => {}
                    }
                }
                if bad {
                    break;
                }
                let Some(low) = low.filter(|l| *l != 0) else { continue };
                let Some(n) = linkage.or(name) else { continue };
                let Ok(n) = std::str::from_utf8(n.slice()) else { continue };
                if let Some(&a) = by_name.get(n) {
                    *votes.entry(a.wrapping_sub(low)).or_default() += 1;
                    total += 1;
                }
            }
            if total >= 400 {
                break;
            }
        }
        let (&shift, &n) = votes.iter().max_by_key(|(_, n)| **n)?;
        (shift != 0 && n >= 8 && n * 10 >= total * 8).then_some(shift)
    }

    /// Says which addresses will be looked up, so that compressed DWARF sections are
    /// inflated once, as far as the furthest unit (and line program) these need, instead of
    /// request by request (the inflater cannot resume). Only a hint: lookups read the same
    /// bytes with or without it.
    pub fn plan(&self, vaddrs: &[u64]) {
        use gimli::SectionId as S;
        let Some(d) = &self.dwarf else { return };
        {
            let mut p = self.planned.lock().unwrap_or_else(|p| p.into_inner());
            p.extend(vaddrs.iter().map(|v| v.wrapping_sub(self.dwarf_shift())));
            p.sort_unstable();
            p.dedup();
        }
        let Some(info) = d.section(S::DebugInfo).filter(|s| s.is_compressed()) else { return };
        if self.ctx.lock().unwrap_or_else(|p| p.into_inner()).is_some() {
            return;
        }
        let mut units: Vec<usize> = Vec::new();
        let mut whole = false;
        for &v in vaddrs {
            // As in `symbol_info`: data objects are not looked up in DWARF; an address of no
            // one unit takes the whole-file path, which reads every section whole.
            if self.data_symbol(v).is_some() {
                continue;
            }
            match self.unit_of(v.wrapping_sub(self.dwarf_shift())) {
                Some(u) => units.push(u),
                None => whole = true,
            }
        }
        if whole {
            for id in [S::DebugInfo, S::DebugLine] {
                if let Some(s) = d.section(id) {
                    s.plan(usize::MAX);
                }
            }
            return;
        }
        units.sort_unstable();
        units.dedup();
        let Some(&last) = units.last() else { return };
        // A unit ends where the next unit that `.debug_aranges` knows begins, at the latest.
        let starts = self.unit_starts();
        let bound = match starts.binary_search(&last) {
            Ok(i) | Err(i) => starts.get(i + 1).copied().unwrap_or(usize::MAX),
        };
        if !inflate_beside(d, info, bound) {
            return;
        }
        let Some(line) = d.section(S::DebugLine).filter(|s| s.is_compressed()) else { return };
        let Ok(dwarf) = d.partial(&[S::DebugAbbrev]) else { return };
        let mut furthest = None;
        for &u in &units {
            let Ok(header) = dwarf.debug_info.header_from_offset(gimli::DebugInfoOffset(u)) else { continue };
            let Ok(abbrevs) = dwarf.abbreviations(&header) else { continue };
            let mut entries = header.entries(&abbrevs);
            if let Ok(Some(root)) = entries.next_dfs()
                && let Some(gimli::AttributeValue::DebugLineRef(l)) = root.attr_value(gimli::DW_AT_stmt_list)
            {
                furthest = furthest.max(Some(l.0));
            }
        }
        // A line program's length is in its first bytes, not inflated yet: plan 64 KiB past
        // its start (a longer program is inflated again).
        if let Some(l) = furthest {
            line.plan(l.saturating_add(1 << 16));
        }
    }

    /// The start offsets of the units `.debug_aranges` names, sorted.
    fn unit_starts(&self) -> &[usize] {
        self.unit_starts.get_or_init(|| {
            let mut v: Vec<usize> = self.aranges().iter().map(|r| r.2).collect();
            v.sort_unstable();
            v.dedup();
            v
        })
    }

    /// Where the functions `.eh_frame_hdr`'s search table lists begin, sorted (empty without
    /// one). Like the symbol table, the CFI describes the code as it is in the file.
    fn fde_starts(&self) -> Vec<u64> {
        let (Some(h), Some(eh)) = (self.cfi.eh_frame_hdr, self.cfi.eh_frame) else { return Vec::new() };
        let endian = if self.little_endian { gimli::RunTimeEndian::Little } else { gimli::RunTimeEndian::Big };
        let bases = gimli::BaseAddresses::default().set_eh_frame_hdr(h.address).set_eh_frame(eh.address);
        let Ok(parsed) = gimli::EhFrameHdr::new(h.data, endian).parse(&bases, 8) else { return Vec::new() };
        let Some(table) = parsed.table() else { return Vec::new() };
        let mut v = Vec::new();
        let mut it = table.iter(&bases);
        while let Ok(Some((start, _))) = it.next() {
            if let Ok(a) = start.direct() {
                v.push(a);
            }
        }
        v.sort_unstable();
        v
    }

    /// `.debug_aranges` as (begin, end, unit offset, largest end so far) sorted by begin.
    fn aranges(&self) -> &[(u64, u64, usize, u64)] {
        self.aranges.get_or_init(|| {
            let Some(d) = &self.dwarf else { return Vec::new() };
            let Some(Ok(bytes)) = d.section(gimli::SectionId::DebugAranges).map(|s| s.full()) else {
                return Vec::new();
            };
            let mut v = Vec::new();
            let mut headers = gimli::DebugAranges::new(bytes, d.endian).headers();
            while let Ok(Some(h)) = headers.next() {
                let off = h.debug_info_offset().0;
                let mut entries = h.entries();
                loop {
                    match entries.next() {
                        Ok(Some(e)) => {
                            let r = e.range();
                            if e.length() != 0 && r.begin < r.end {
                                v.push((r.begin, r.end, off, 0));
                            }
                        }
                        Ok(None) => break,
                        // As the addr2line crate: skip bad entries (address overflow), stop on others.
                        Err(gimli::Error::AddressOverflow) => continue,
                        Err(_) => break,
                    }
                }
            }
            v.sort_unstable();
            let mut max = 0;
            for r in &mut v {
                max = max.max(r.1);
                r.3 = max;
            }
            v
        })
    }

    /// The one unit whose `.debug_aranges` ranges hold `vaddr` (`None` when none or several
    /// do: the whole-file path decides those).
    fn unit_of(&self, vaddr: u64) -> Option<usize> {
        let ar = self.aranges();
        let i = ar.partition_point(|r| r.0 <= vaddr);
        let mut unit = None;
        for r in ar[..i].iter().rev() {
            if r.3 <= vaddr {
                break;
            }
            if vaddr >= r.1 {
                continue;
            }
            match unit {
                None => unit = Some(r.2),
                Some(u) if u == r.2 => {}
                Some(_) => return None,
            }
        }
        unit
    }

    /// [`gdb_line_in`] with the unit's sequences read once and kept.
    fn gdb_line_cached(&self, unit: gimli::UnitRef<'_, Slice<'_>>, vaddr: u64) -> Option<(String, u32)> {
        let program = unit.line_program.clone()?;
        let key = program.header().offset().0;
        let cached = self.line_seqs.lock().unwrap_or_else(|p| p.into_inner()).get(&key).cloned();
        let seqs = match cached {
            Some(s) => s,
            None => {
                let Some(all) = super::batch::all_sequences(program.header()) else {
                    return gdb_line_in(unit, vaddr);
                };
                let all = Arc::new(all);
                self.line_seqs.lock().unwrap_or_else(|p| p.into_inner()).insert(key, all.clone());
                all
            }
        };
        // The first sequence in the program that holds the address (as `gdb_line_in`).
        let seq =
            seqs.iter().find(|s| s.first().is_some_and(|f| f.0 <= vaddr) && s.last().is_some_and(|l| vaddr < l.0))?;
        gdb_pick(unit, program.header(), &seq[..seq.len() - 1], vaddr)
    }

    /// The frames of `vaddr` in unit `off` from one walk of the unit for every planned address
    /// in it (made at the unit's first lookup; a Rust program's std unit holds most of its
    /// frames, and a walk per address read it 25 times: docs/performance.md, "3f"). `None`
    /// when not planned or not answered by the unit alone (the caller then walks for it alone,
    /// as without a plan).
    fn planned_in_unit(
        &self,
        dwarf: &gimli::Dwarf<Slice<'_>>,
        off: usize,
        vaddr: u64,
    ) -> Option<Vec<super::batch::OwnedFrame>> {
        let mut guard = self.unit_frames.lock().unwrap_or_else(|p| p.into_inner());
        let (frames, walked) = &mut *guard;
        if !walked.contains(&off) {
            let addrs: Vec<u64> = {
                let planned = self.planned.lock().unwrap_or_else(|p| p.into_inner());
                if planned.binary_search(&vaddr).is_err() {
                    return None;
                }
                planned.iter().copied().filter(|&a| self.unit_of(a) == Some(off)).collect()
            };
            walked.push(off);
            if addrs.len() < 2 {
                return None;
            }
            for (a, f) in addrs.iter().zip(super::batch::frames_in_unit_many(dwarf, off, &addrs)) {
                if let Some(f) = f {
                    frames.insert(*a, f);
                }
            }
        }
        frames.get(&vaddr).cloned()
    }

    /// Frames of `vaddr` read from its unit alone (see [`Self::symbol_info`]).
    fn frames_in_one_unit(&self, vaddr: u64) -> Option<Vec<SourceFrame>> {
        use gimli::SectionId as S;
        let d = self.dwarf.as_ref()?;
        let off = self.unit_of(vaddr)?;
        let info = d.section(S::DebugInfo)?;
        let end = unit_end(info, off, d.endian)?;
        info.prefix(end).ok()?;
        // Small sections whole; `.debug_info` and `.debug_line` only as far as needed.
        let whole = WHOLE_PER_UNIT;
        let header = {
            let dwarf = d.partial(&whole).ok()?;
            let header = dwarf.debug_info.header_from_offset(gimli::DebugInfoOffset(off)).ok()?;
            // The line program's extent, from the root DIE's DW_AT_stmt_list.
            let abbrevs = dwarf.abbreviations(&header).ok()?;
            let mut entries = header.entries(&abbrevs);
            let root = entries.next_dfs().ok()??;
            if let Some(gimli::AttributeValue::DebugLineRef(l)) = root.attr_value(gimli::DW_AT_stmt_list)
                && let Some(line) = d.section(S::DebugLine)
            {
                let end = unit_end(line, l.0, d.endian)?;
                line.prefix(end).ok()?;
            }
            header
        };
        let dwarf = d.partial(&whole).ok()?;
        let unit = dwarf.unit(header).ok()?;
        let u = unit.unit_ref(&dwarf);
        let comp_dir = unit.comp_dir.map(|d| d.to_string_lossy().into_owned());
        let raw = match self.planned_in_unit(&dwarf, off, vaddr) {
            Some(raw) => raw,
            None => super::batch::frames_in_unit(&dwarf, off, vaddr)?,
        };
        let mut out: Vec<SourceFrame> = raw
            .into_iter()
            .map(|(name, file, line)| SourceFrame {
                display_function: name.as_deref().map(|n| gdb_function_name_at(n, file.as_deref())),
                function: name.as_deref().map(|r| demangle(r).into_owned()),
                raw_function: name,
                display_file: file.as_deref().map(|p| display_path(comp_dir.as_deref(), p)),
                file,
                line,
                column: None,
            })
            .collect();
        if let (Some(first), Some((file, line))) = (out.first_mut(), self.gdb_line_cached(u, vaddr)) {
            first.display_file = Some(display_path(comp_dir.as_deref(), &file));
            first.line = Some(line);
        }
        Some(out)
    }
}

/// How many `.debug_aranges` ranges [`ElfModule::aranges_agree_with_code`] needs at least.
const ARANGES_AGREE_MIN: usize = 8;

/// Sections every unit reads whole (abbreviations, strings, range lists).
const WHOLE_PER_UNIT: [gimli::SectionId; 7] = {
    use gimli::SectionId as S;
    [S::DebugAbbrev, S::DebugAddr, S::DebugStr, S::DebugStrOffsets, S::DebugLineStr, S::DebugRanges, S::DebugRngLists]
};

/// Below this many bytes to inflate on either side, a second thread costs more than it saves.
const PARALLEL_MIN: usize = 256 << 10;

/// Inflates `.debug_info` up to `bound` and, on a second thread when there is a second core
/// (`threads::second_core`: not with `TRACECHECK_THREADS=1`) and enough to do on both sides,
/// the other compressed sections a lookup reads: the ones every unit reads whole
/// (abbreviations, strings, range lists) and `.debug_line` whole. None depends on another,
/// and on a libc debug file they are a third of what a core's lookups inflate: the wall time
/// drops by their share, the CPU time grows by the part of `.debug_line` past the furthest
/// line program (which the plan would have left; about 2 M instructions on libc's).
/// False when `.debug_info` could not be inflated that far. (docs/performance.md, "3d".)
fn inflate_beside(d: &super::lazy::LazyDwarf, info: &super::lazy::LazySection, bound: usize) -> bool {
    let side: Vec<&super::lazy::LazySection> = WHOLE_PER_UNIT
        .iter()
        .chain(&[gimli::SectionId::DebugLine])
        .filter_map(|&id| d.section(id))
        .filter(|s| s.is_compressed())
        .collect();
    let side_bytes: usize = side.iter().map(|s| s.size()).sum();
    // Only when `.debug_info` up to `bound` is at least as much work as the rest: then the
    // second thread is done by the time the first is, and what it inflated past the need
    // (`.debug_line` after the furthest program) is small beside what it saves. A core whose
    // units are near the start (a Rust program's few libc frames: 0.5 MB of libc's
    // `.debug_info` against 2.7 MB of the rest) stays on one thread, which inflates only
    // what it needs.
    let first = bound.min(info.size());
    // Held by the cache (`super::cache`): nothing to inflate on this side, so no second
    // thread (the other sections are read from the cache as lookups need them).
    if info.ready(first) {
        return true;
    }
    let parallel =
        side_bytes >= PARALLEL_MIN && first >= PARALLEL_MIN && first >= side_bytes && crate::threads::second_core();
    if !parallel {
        return info.prefix(bound).is_ok();
    }
    std::thread::scope(|sc| {
        // A thread that cannot be started leaves those sections to the lookups (inflated there,
        // on this thread).
        let _ = std::thread::Builder::new()
            .name("inflate".into())
            .stack_size(crate::threads::HELPER_STACK)
            .spawn_scoped(sc, || {
                for s in &side {
                    s.prefetch();
                }
            });
        info.prefix(bound).is_ok()
    })
}

/// The end (offset past it) of the unit or line program at `off` of a section, read from
/// its initial length (inflating the section up to there).
fn unit_end(s: &super::lazy::LazySection, off: usize, endian: gimli::RunTimeEndian) -> Option<usize> {
    use gimli::Endianity;
    let head = s.prefix(off.checked_add(12)?).ok()?;
    let b = head.get(off..)?;
    let len32 = endian.read_u32(b.get(0..4)?);
    let total = if len32 == 0xffff_ffff {
        usize::try_from(endian.read_u64(b.get(4..12)?)).ok()?.checked_add(12)?
    } else if len32 >= 0xffff_fff0 {
        return None;
    } else {
        len32 as usize + 4
    };
    let end = off.checked_add(total)?;
    (end <= s.size()).then_some(end)
}

/// The inline chain at `vaddr`, innermost first. `gdb_names` also fills the gdb forms of
/// names and paths (which needs the unit's compilation directory).
pub fn source_frames(
    ctx: &addr2line::Context<Slice<'_>>,
    vaddr: u64,
    gdb_names: bool,
) -> Result<Vec<SourceFrame>, gimli::Error> {
    source_frames_with(ctx, vaddr, gdb_names, &|u, a| gdb_line_in(u, a))
}

/// gdb's line for an address in a unit.
type GdbLine<'f> = dyn Fn(gimli::UnitRef<'_, Slice<'_>>, u64) -> Option<(String, u32)> + 'f;

/// [`source_frames`] with the function that finds gdb's line.
fn source_frames_with(
    ctx: &addr2line::Context<Slice<'_>>,
    vaddr: u64,
    gdb_names: bool,
    gdb_line_of: &GdbLine<'_>,
) -> Result<Vec<SourceFrame>, gimli::Error> {
    let mut out = Vec::new();
    // addr2line computes `vaddr + 1` (an overflow panic in debug builds): no code lives at
    // the last address anyway.
    if vaddr == u64::MAX {
        return Ok(out);
    }
    let comp_dir: Option<String> = if gdb_names {
        ctx.find_dwarf_and_unit(vaddr)
            .skip_all_loads()
            .and_then(|u| u.comp_dir.map(|d| d.to_string_lossy().into_owned()))
    } else {
        None
    };
    let mut it = ctx.find_frames(vaddr).skip_all_loads()?;
    while let Some(f) = it.next()? {
        let raw = match &f.function {
            Some(n) => Some(n.raw_name()?.into_owned()),
            None => None,
        };
        let (file, line, column) = match &f.location {
            Some(l) => (l.file.map(str::to_string), l.line, l.column),
            None => (None, None, None),
        };
        let display_file = if gdb_names { file.as_deref().map(|p| display_path(comp_dir.as_deref(), p)) } else { None };
        out.push(SourceFrame {
            display_function: if gdb_names {
                raw.as_deref().map(|n| gdb_function_name_at(n, file.as_deref()))
            } else {
                None
            },
            function: raw.as_deref().map(|r| demangle(r).into_owned()),
            raw_function: raw,
            file,
            display_file,
            line: line.filter(|&l| l != 0),
            column,
        });
    }
    let line = if gdb_names {
        ctx.find_dwarf_and_unit(vaddr).skip_all_loads().and_then(|u| gdb_line_of(u, vaddr))
    } else {
        None
    };
    if let (Some(first), Some((file, line))) = (out.first_mut(), line) {
        first.display_file = Some(display_path(comp_dir.as_deref(), &file));
        first.line = Some(line);
    }
    Ok(out)
}

/// The path as gdb prints it: relative to an absolute compilation directory, and joined
/// to a relative one (Debian's glibc: `./nptl/pthread_create.c`, but
/// `../sysdeps/unix/sysv/linux/pause.c` for a file in another directory).
fn display_path(comp_dir: Option<&str>, p: &str) -> String {
    match comp_dir {
        Some(d) => match p.strip_prefix(d).and_then(|r| r.strip_prefix('/')) {
            Some(rest) if d.starts_with('/') || rest.contains('/') => rest.to_string(),
            _ => p.to_string(),
        },
        None => p.to_string(),
    }
}

/// The line gdb reports for `vaddr`: among line-table rows at the same address, gdb
/// prefers a statement boundary (`is_stmt`), where addr2line takes the last row.
fn gdb_line_in<'d>(unit: gimli::UnitRef<'_, Slice<'d>>, vaddr: u64) -> Option<(String, u32)> {
    let program = unit.line_program.clone()?;
    // The batch engine's line-program reader, several times faster than gimli's rows (a
    // Rust binary's std unit has a long program); gimli's when it cannot answer.
    if let Some(found) = super::batch::sequence_rows(program.header(), vaddr) {
        return gdb_pick(unit, program.header(), &found?, vaddr);
    }
    gdb_line_gimli(unit, vaddr)
}

/// [`gdb_line_in`] with gimli's rows.
fn gdb_line_gimli<'d>(unit: gimli::UnitRef<'_, Slice<'d>>, vaddr: u64) -> Option<(String, u32)> {
    let program = unit.line_program.clone()?;
    let mut rows = program.rows();
    // (address, file index, line, is_stmt) of the running sequence.
    let mut seq: Vec<(u64, u64, u32, bool)> = Vec::new();
    while let Ok(Some((header, row))) = rows.next_row() {
        if !row.end_sequence() {
            seq.push((row.address(), row.file_index(), row.line().map(|l| l.get() as u32).unwrap_or(0), row.is_stmt()));
            continue;
        }
        let covers = seq.first().is_some_and(|f| f.0 <= vaddr) && vaddr < row.address();
        if !covers {
            seq.clear();
            continue;
        }
        return gdb_pick(unit, header, &seq, vaddr);
    }
    None
}

/// The row gdb reports in a sequence that holds `vaddr` (see [`gdb_line_in`]) and its path.
fn gdb_pick<'d>(
    unit: gimli::UnitRef<'_, Slice<'d>>,
    header: &gimli::LineProgramHeader<Slice<'d>>,
    seq: &[(u64, u64, u32, bool)],
    vaddr: u64,
) -> Option<(String, u32)> {
    let mut i = seq.partition_point(|r| r.0 <= vaddr).checked_sub(1)?;
    if !seq[i].3 {
        let mut j = i;
        while j > 0 && seq[j - 1].0 == seq[j].0 && !seq[j].3 {
            j -= 1;
        }
        if seq[j].3 {
            i = j;
        }
    }
    let (_, file, line, _) = seq[i];
    if line == 0 {
        return None;
    }
    let entry = header.file(file)?;
    let mut path = unit.comp_dir.map(|d| d.to_string_lossy().into_owned()).unwrap_or_default();
    let push = |path: &mut String, p: &str| {
        if p.starts_with('/') {
            *path = p.to_string();
        } else {
            if !path.is_empty() && !path.ends_with('/') {
                path.push('/');
            }
            path.push_str(p);
        }
    };
    if entry.directory_index() != 0
        && let Some(d) = entry.directory(header)
    {
        let d = unit.attr_string(d).ok()?;
        push(&mut path, &d.to_string_lossy());
    }
    let name = unit.attr_string(entry.path_name()).ok()?;
    push(&mut path, &name.to_string_lossy());
    Some((path, line))
}

/// Calls `f` with each text symbol of `obj` in table order (the symbol table, else the
/// dynamic one), with the `STT_FILE` symbol before it when it is local. Names are not
/// read here (that is most of the cost of a pass): `f` must skip symbols whose name is
/// empty or unreadable, as [`symbol_name_of`] does. Returns whether there was one with a
/// name.
fn text_symbols<'o>(
    obj: &'o object::File<'static>,
    mut f: impl FnMut(&object::Symbol<'static, 'o>, Option<object::SymbolIndex>),
) -> bool {
    let mut file: Option<object::SymbolIndex> = None;
    // Whether the table has a text symbol with a name (else the dynamic one is used).
    let mut any = false;
    let mut visit = |s: object::Symbol<'static, 'o>, any: &mut bool| {
        if s.kind() == SymbolKind::File {
            file = Some(s.index());
            return;
        }
        if s.kind() == SymbolKind::Text && s.is_definition() && s.address() != 0 {
            if !*any {
                if symbol_name_of(&s).is_none() {
                    return;
                }
                *any = true;
            }
            f(&s, if s.is_local() { file } else { None });
        }
    };
    for s in obj.symbols() {
        visit(s, &mut any);
    }
    if !any {
        for s in obj.dynamic_symbols() {
            visit(s, &mut any);
        }
    }
    any
}

/// A symbol's name, when it has a readable, non-empty one.
fn symbol_name_of(s: &object::Symbol<'static, '_>) -> Option<&'static str> {
    s.name().ok().filter(|n| !n.is_empty())
}

/// The name of the `STT_FILE` symbol at `index`.
fn file_name_of(obj: &object::File<'static>, index: Option<object::SymbolIndex>) -> Option<&'static str> {
    obj.symbol_by_index(index?).ok()?.name().ok()
}

/// Whether `a` wins over `b` at the same address: sized, then global-looking names;
/// on a full tie the earlier one in the table (`a` comes later here) stays.
fn preferred(a: (u64, &str), b: (u64, &str)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && !a.1.starts_with('_') && b.1.starts_with('_'))
}

fn collect_symbols(obj: &object::File<'static>) -> Vec<ElfSym> {
    let mut v: Vec<ElfSym> = Vec::new();
    let mut last_file: Option<(object::SymbolIndex, Option<&'static str>)> = None;
    text_symbols(obj, |s, file| {
        let Some(name) = symbol_name_of(s) else { return };
        let file = file.and_then(|i| match last_file {
            Some((j, n)) if j == i => n,
            _ => {
                let n = file_name_of(obj, Some(i));
                last_file = Some((i, n));
                n
            }
        });
        v.push(ElfSym { address: s.address(), size: s.size(), name: name.into(), file, plt: false });
    });
    v.extend(plt_symbols(obj));
    // Prefer sized, global-looking names when several share an address (`preferred`).
    v.sort_by(|a, b| {
        a.address.cmp(&b.address).then(b.size.cmp(&a.size)).then(a.name.starts_with('_').cmp(&b.name.starts_with('_')))
    });
    v.dedup_by_key(|s| s.address);
    v
}

/// x86-64 PLT stubs named as gdb and objdump name them (`memset@plt`), which the symbol
/// table does not: without them a stub takes the nearest symbol below (`_init+0x40`). Each
/// `.plt.sec` (IBT) or `.plt` entry's `jmp *slot(%rip)` (after an `endbr64` and/or a `bnd`
/// prefix) goes through a GOT slot that a `.rela.plt` jump-slot relocation names.
fn plt_symbols(obj: &object::File<'static>) -> Vec<ElfSym> {
    use object::{Object, ObjectSection, ObjectSymbol, ObjectSymbolTable};
    if obj.architecture() != object::Architecture::X86_64 {
        return Vec::new();
    }
    let Some(rela) = obj.section_by_name(".rela.plt").and_then(|s| s.data().ok()) else { return Vec::new() };
    let Some(dynsym) = obj.dynamic_symbol_table() else { return Vec::new() };
    let le = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or([0; 8]));
    // GOT slot -> symbol name, for R_X86_64_JUMP_SLOT (7) relocations.
    let mut slots: HashMap<u64, &'static str> = HashMap::new();
    for r in rela.chunks_exact(24).take(1 << 16) {
        let (offset, info) = (le(&r[..8]), le(&r[8..16]));
        if info & 0xffff_ffff != 7 {
            continue;
        }
        let Ok(sym) = dynsym.symbol_by_index(object::SymbolIndex((info >> 32) as usize)) else { continue };
        if let Ok(name) = sym.name()
            && !name.is_empty()
        {
            slots.insert(offset, name);
        }
    }
    let mut out = Vec::new();
    if slots.is_empty() {
        return out;
    }
    for sec in [".plt.sec", ".plt"] {
        let Some(s) = obj.section_by_name(sec) else { continue };
        let Ok(data) = s.data() else { continue };
        for (k, e) in data.chunks_exact(16).enumerate() {
            let mut i = if e[..4] == [0xf3, 0x0f, 0x1e, 0xfa] { 4 } else { 0 };
            if e[i] == 0xf2 {
                i += 1;
            }
            if e[i] != 0xff || e[i + 1] != 0x25 {
                continue;
            }
            let disp = i32::from_le_bytes([e[i + 2], e[i + 3], e[i + 4], e[i + 5]]) as i64 as u64;
            let at = s.address().wrapping_add(16 * k as u64);
            let slot = at.wrapping_add(i as u64 + 6).wrapping_add(disp);
            if let Some(name) = slots.get(&slot) {
                out.push(ElfSym { address: at, size: 16, name: format!("{name}@plt").into(), file: None, plt: true });
            }
        }
    }
    out
}

/// Looks for a separate debug file: by build-id in each debug dir, then by
/// `.gnu_debuglink` next to the binary, in its `.debug/`, and under each debug dir.
fn find_debug_file(path: &Path, obj: &object::File<'_>, debug_dirs: &[PathBuf]) -> Option<(PathBuf, Mmap)> {
    let try_open = |p: PathBuf| -> Option<(PathBuf, Mmap)> {
        if p.as_path() == path || !p.is_file() {
            return None;
        }
        let m = map_file(&p).ok()?;
        Some((p, m))
    };
    if let Some(id) = obj.build_id().ok().flatten() {
        for d in debug_dirs {
            if let Some(found) = build_id_path(d, id).and_then(try_open) {
                return Some(found);
            }
        }
    }
    if let Some((name, _crc)) = obj.gnu_debuglink().ok().flatten() {
        let name = String::from_utf8_lossy(name).into_owned();
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut cands = vec![dir.join(&name), dir.join(".debug").join(&name)];
        let abs = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
        for d in debug_dirs {
            cands.push(d.join(abs.strip_prefix("/").unwrap_or(&abs)).join(&name));
            cands.push(d.join(&name));
        }
        for c in cands {
            if let Some(found) = try_open(c) {
                return Some(found);
            }
        }
    }
    None
}

/// The DWARF symbolizer: modules opened on first use and cached by path.
pub struct DwarfSymbols {
    opts: SymbolOptions,
    modules: Mutex<HashMap<String, Option<Arc<ElfModule>>>>,
    /// Build-ids the process had loaded (from a core), by module path.
    expected_ids: HashMap<String, Vec<u8>>,
    notes: Mutex<Vec<String>>,
    /// The `--exe` files some module of the trace resolved to.
    used_exes: Mutex<std::collections::HashSet<PathBuf>>,
    /// Addresses a transcript will look up, by module ([`SymbolSupplier::plan`]), told to
    /// the module when it is opened (at its first lookup, so modules open, and add their
    /// notes, in the same order as without a plan).
    planned: Mutex<HashMap<String, Vec<u64>>>,
}

impl DwarfSymbols {
    pub fn new(opts: SymbolOptions) -> Self {
        DwarfSymbols {
            opts,
            modules: Mutex::new(HashMap::new()),
            expected_ids: HashMap::new(),
            notes: Mutex::new(Vec::new()),
            used_exes: Mutex::new(Default::default()),
            planned: Mutex::new(HashMap::new()),
        }
    }

    /// The `--exe` files no module of the trace matched (by path, same file or base name):
    /// they were not used, and the user should hear so rather than trust the result.
    pub fn unused_exes(&self) -> Vec<PathBuf> {
        let used = self.used_exes.lock().unwrap_or_else(|p| p.into_inner());
        self.opts.exes.iter().filter(|e| !used.contains(*e)).cloned().collect()
    }

    fn used(&self, e: &Path) -> Option<PathBuf> {
        self.used_exes.lock().unwrap_or_else(|p| p.into_inner()).insert(e.to_path_buf());
        Some(e.to_path_buf())
    }

    /// Tells the symbolizer which build-id the process had for a module (a core records
    /// them); a file with another build-id is then refused with a note.
    pub fn expect_build_id(&mut self, module: &str, id: Vec<u8>) {
        self.expected_ids.insert(module.to_string(), id);
    }

    fn note(&self, s: String) {
        let mut n = self.notes.lock().unwrap_or_else(|p| p.into_inner());
        if !n.contains(&s) {
            n.push(s);
        }
    }

    /// The file to read for a module path: a matching `--exe` (same path, same file, or
    /// same base name), else the path under `--sysroot`, else the path itself.
    pub fn resolve(&self, module: &str) -> Option<PathBuf> {
        let mp = Path::new(module);
        let canon = std::fs::canonicalize(mp).ok();
        for e in &self.opts.exes {
            if e.as_path() == mp || (canon.is_some() && std::fs::canonicalize(e).ok() == canon) {
                return self.used(e);
            }
        }
        for e in &self.opts.exes {
            if e.file_name().is_some() && e.file_name() == mp.file_name() {
                return self.used(e);
            }
        }
        if let Some(root) = &self.opts.sysroot {
            let p = root.join(mp.strip_prefix("/").unwrap_or(mp));
            return p.is_file().then_some(p);
        }
        mp.is_file().then(|| mp.to_path_buf())
    }

    /// The opened module for a path, or `None` (with a note) when it cannot be used.
    pub fn module(&self, module: &str) -> Option<Arc<ElfModule>> {
        if let Some(m) = self.modules.lock().unwrap_or_else(|p| p.into_inner()).get(module) {
            return m.clone();
        }
        let opened = self.open_uncached(module);
        if let Some(m) = &opened
            && let Some(v) = self.planned.lock().unwrap_or_else(|p| p.into_inner()).remove(module)
        {
            m.plan(&v);
        }
        self.modules.lock().unwrap_or_else(|p| p.into_inner()).insert(module.to_string(), opened.clone());
        opened
    }

    fn open_uncached(&self, module: &str) -> Option<Arc<ElfModule>> {
        let Some(path) = self.resolve(module) else {
            self.note(format!(
                "{module}: file not found (give it with --exe or --sysroot); its frames stay unsymbolized"
            ));
            return None;
        };
        match ElfModule::open(&path, &self.opts.all_debug_dirs()) {
            Ok(m) => {
                if let (Some(want), Some(have)) = (self.expected_ids.get(module), &m.build_id)
                    && want != have
                {
                    let e = SymbolizeError::BuildIdMismatch {
                        path: path.display().to_string(),
                        expected: hex(want),
                        found: hex(have),
                    };
                    self.note(format!("{e}; it does not match the core and is not used"));
                    return None;
                }
                for n in &m.notes {
                    self.note(n.clone());
                }
                Some(Arc::new(m))
            }
            Err(e) => {
                self.note(e.to_string());
                None
            }
        }
    }
}

impl SymbolSupplier for DwarfSymbols {
    fn plan(&self, module: &str, vaddrs: &[u64]) {
        // A module opened already hears it now; another when it is opened.
        let open = self.modules.lock().unwrap_or_else(|p| p.into_inner()).get(module).cloned();
        match open {
            Some(Some(m)) => m.plan(vaddrs),
            Some(None) => {}
            None => self
                .planned
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .entry(module.to_string())
                .or_default()
                .extend(vaddrs),
        }
    }
    fn lookup(&self, module: &str, vaddr: u64) -> Result<Option<SymbolInfo>, SymbolizeError> {
        match self.module(module) {
            Some(m) => m.symbol_info(vaddr),
            None => Ok(None),
        }
    }
    fn offset_to_vaddr(&self, module: &str, offset: u64) -> Option<u64> {
        match self.module(module) {
            Some(m) => m.offset_to_vaddr(offset),
            None => Some(offset),
        }
    }
    fn text_vaddr(&self, module: &str) -> Option<u64> {
        self.module(module)?.cfi.text.map(|t| t.address)
    }
    fn fixed_user_modules(&self) -> Vec<(String, Vec<(u64, u64)>)> {
        let mut out = Vec::new();
        for e in &self.opts.exes {
            let p = e.display().to_string();
            let Some(m) = self.module(&p).filter(|m| m.fixed_address) else { continue };
            let segs =
                m.loads.iter().filter(|l| l.memsz > 0).map(|l| (l.vaddr, l.vaddr.saturating_add(l.memsz))).collect();
            out.push((p, segs));
        }
        out
    }
    fn user_module(&self, module: &str) -> Option<Arc<ElfModule>> {
        let path = self.resolve(module)?;
        let given = self.opts.exes.contains(&path) || self.opts.sysroot.as_ref().is_some_and(|r| path.starts_with(r));
        if given { self.module(module) } else { None }
    }
    fn take_notes(&self) -> Vec<String> {
        let mut notes = std::mem::take(&mut *self.notes.lock().unwrap_or_else(|p| p.into_inner()));
        // Modules whose DWARF was found shifted from their code (measured at their first
        // lookup), once each.
        let modules = self.modules.lock().unwrap_or_else(|p| p.into_inner());
        let mut shifted: Vec<String> = modules.values().flatten().filter_map(|m| m.shift_note()).collect();
        shifted.sort();
        shifted.dedup();
        notes.extend(shifted);
        notes
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[inline(never)]
    fn a_function_to_find() -> u64 {
        std::hint::black_box(42)
    }

    /// Why a test that reads this test binary's own DWARF fails under `cargo test --release`:
    /// cargo strips debug info from a profile without `debug` (the release profile here), so
    /// there is none to read (docs/testing.md, "Release builds").
    pub(crate) const NO_OWN_DWARF: &str = "this test binary has no DWARF: cargo strips debug info from a profile \
         without `debug` (`cargo test --release`); run `cargo test --lib`, or \
         `CARGO_PROFILE_RELEASE_DEBUG=line-tables-only cargo test --release --lib` (docs/testing.md)";

    /// As addr2line's correctness test: symbolize a function of this very test binary.
    #[test]
    fn finds_a_function_in_the_test_binary() {
        let exe = std::env::current_exe().unwrap();
        let m = ElfModule::open(&exe, &[]).unwrap();
        assert!(m.has_debug_info(), "{NO_OWN_DWARF}");
        // Runtime address -> module vaddr via the PT_LOAD bias of this process.
        let f = a_function_to_find as *const () as u64;
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap();
        let exe_s = std::fs::canonicalize(&exe).unwrap().display().to_string();
        let mut vaddr = None;
        for l in maps.lines() {
            let parts: Vec<&str> = l.split_whitespace().collect();
            if parts.len() < 6 || parts[5] != exe_s {
                continue;
            }
            let (s, e) = parts[0].split_once('-').unwrap();
            let (s, e) = (u64::from_str_radix(s, 16).unwrap(), u64::from_str_radix(e, 16).unwrap());
            let off = u64::from_str_radix(parts[2], 16).unwrap();
            if (s..e).contains(&f) {
                vaddr = m.offset_to_vaddr(off).map(|b| b + (f - s));
            }
        }
        let info = m.symbol_info(vaddr.expect("mapping of the test binary")).unwrap().unwrap();
        let outer = info.frames.last().unwrap();
        assert!(outer.function.as_deref().unwrap().ends_with("a_function_to_find"), "{info:?}");
        assert!(outer.file.as_deref().unwrap().ends_with("dwarf.rs"));
        assert_eq!(outer.display_file.as_deref(), Some("src/symbolize/dwarf.rs"));
        assert!(info.symbol.unwrap().name.ends_with("a_function_to_find"));
    }

    /// One pass over the symbol table finds what the sorted table finds.
    #[test]
    fn symbol_names_in_one_pass_match_the_table() {
        let m = ElfModule::open(&std::env::current_exe().unwrap(), &[]).unwrap();
        let text = m.cfi().text.unwrap();
        let mut qs: Vec<u64> =
            (0..2000u64).map(|i| text.address - 64 + i * (text.data.len() as u64 + 128) / 2000).collect();
        qs.sort_unstable();
        let pass: Vec<Option<(String, Option<String>)>> =
            m.symbol_names(&qs).into_iter().map(|s| s.map(|(n, f)| (n.to_string(), f.map(str::to_string)))).collect();
        assert!(m.symbols.get().is_none(), "the pass does not build the table");
        let table: Vec<Option<(String, Option<String>)>> =
            qs.iter().map(|&a| m.symbol_name(a).map(|(n, f)| (n.to_string(), f.map(str::to_string)))).collect();
        assert_eq!(pass, table);
        assert!(pass.iter().filter(|p| p.is_some()).count() > 1900);
    }

    /// The views a module hands out (CFI sections, DWARF, an addr2line context) borrow it;
    /// they read the module's own bytes, unchanged while other modules are opened and dropped
    /// around them (whose memory the allocator reuses). The compile-time half is the
    /// `compile_fail` doc test on [`ElfModule`].
    #[test]
    fn borrowed_views_read_the_modules_own_bytes() {
        let exe = std::env::current_exe().unwrap();
        let bytes = std::fs::read(&exe).unwrap();
        let obj = object::File::parse(&*bytes).unwrap();
        let vaddr = obj
            .symbols()
            .find(|s| s.name().is_ok_and(|n| n.contains("a_function_to_find")))
            .map(|s| s.address())
            .expect("the symbol of a_function_to_find");
        let m = ElfModule::from_bytes(&exe, bytes.clone()).unwrap();
        assert!(m.has_debug_info(), "{NO_OWN_DWARF}");
        let cfi = m.cfi();
        let ctx = m.new_context().unwrap().unwrap();
        let dwarf = m.dwarf_for_one_pass().unwrap();
        let units_before = {
            let mut n = 0;
            let mut it = dwarf.units();
            while let Ok(Some(_)) = it.next() {
                n += 1;
            }
            n
        };
        for k in 0..8u8 {
            let mut copy = bytes.clone();
            // A damaged copy (section contents overwritten), opened and dropped.
            let len = copy.len();
            copy[len / 2..].fill(k);
            if let Ok(other) = ElfModule::from_bytes(Path::new("copy"), copy) {
                let _ = other.symbol_info(vaddr);
            }
        }
        for (name, view) in [(".eh_frame", cfi.eh_frame), (".text", cfi.text), (".eh_frame_hdr", cfi.eh_frame_hdr)] {
            let view = view.unwrap_or_else(|| panic!("{name}"));
            let s = obj.section_by_name(name).unwrap();
            assert_eq!(view.address, s.address(), "{name}");
            assert!(view.data == s.data().unwrap(), "{name}: the bytes changed under the view");
        }
        let frames = source_frames(&ctx, vaddr, true).unwrap();
        let outer = frames.last().unwrap();
        assert!(outer.function.as_deref().unwrap().ends_with("a_function_to_find"), "{frames:?}");
        assert_eq!(outer.display_file.as_deref(), Some("src/symbolize/dwarf.rs"));
        let mut n = 0;
        let mut it = dwarf.units();
        while let Ok(Some(_)) = it.next() {
            n += 1;
        }
        assert!(n > 0);
        assert_eq!(n, units_before);
    }

    /// gdb's line (is_stmt preferred) from the batch engine's line-program reader is what
    /// gimli's rows give, at addresses all over the test binary.
    #[test]
    fn gdb_line_fast_path_matches_gimli_rows() {
        let m = ElfModule::open(&std::env::current_exe().unwrap(), &[]).unwrap();
        assert!(m.has_debug_info(), "{NO_OWN_DWARF}");
        let d = m.dwarf_for_one_pass().unwrap();
        let mut units = d.units();
        let (mut compared, mut found) = (0, 0);
        while let Some(h) = units.next().unwrap() {
            let u = d.unit(h).unwrap();
            let ur = u.unit_ref(&d);
            let Some(p) = u.line_program.clone() else { continue };
            // Every 7th row's address, and one byte past it.
            let mut rows = p.rows();
            let mut k = 0;
            let mut addrs = Vec::new();
            while let Some((_, r)) = rows.next_row().unwrap() {
                k += 1;
                if k % 7 == 0 {
                    addrs.extend([r.address(), r.address() + 1]);
                }
            }
            for a in addrs.into_iter().take(40) {
                let fast = gdb_line_in(ur, a);
                assert_eq!(fast, gdb_line_gimli(ur, a), "unit {:?} address {a:#x}", h.offset());
                compared += 1;
                found += usize::from(fast.is_some());
            }
            if compared > 4000 {
                break;
            }
        }
        assert!(found > 1000, "{found} of {compared}");
    }

    #[test]
    fn build_id_layout() {
        let p = build_id_path(Path::new("/d"), &[0xab, 0xcd, 0xef]).unwrap();
        assert_eq!(p, PathBuf::from("/d/.build-id/ab/cdef.debug"));
    }

    #[test]
    fn not_an_object_is_an_error_not_a_panic() {
        let dir = std::env::temp_dir().join(format!("tc-notobj-{}", std::process::id()));
        std::fs::write(&dir, b"hello").unwrap();
        let e = ElfModule::open(&dir, &[]).unwrap_err();
        assert_eq!(e.name(), "not-object");
        let _ = std::fs::remove_file(&dir);
    }
}
