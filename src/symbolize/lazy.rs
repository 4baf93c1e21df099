//! DWARF sections read on first use, and compressed sections inflated only as far as asked.
//!
//! A separate debug file (Debian's `/usr/lib/debug/.build-id/…`) keeps its DWARF compressed
//! (`SHF_COMPRESSED`, one zlib stream per section). A core's frames land in a few of its
//! units, so inflating all of libc's 10 MB of DWARF to read two of its units was most of the
//! time a core took. Here each section is looked at only when a lookup needs it, and a zlib
//! section is inflated from its start up to the end of what is asked for (a unit, a line
//! program): a zlib stream cannot be entered in the middle, but it can stop early. The
//! inflater is libdeflate (about twice as fast as a streaming one), which cannot resume:
//! a lookup that knows which units it needs says so first ([`LazySection::plan`]), so that
//! each section is inflated once, as far as the furthest of them.
//!
//! Safety: a section's output buffer is allocated once at its full uncompressed size and
//! never moves or shrinks until the [`LazySection`] is dropped. Bytes below `filled` are
//! never written again, so the `'static` slices of them handed to the owner (an
//! [`super::dwarf::ElfModule`], which ties them to its own borrow and drops its users
//! first) stay valid; the inflater writes only above `filled`, under the mutex (a second
//! inflation goes to a scratch buffer, and only its new part is copied above `filled`).

use object::{Object, ObjectSection};
use std::sync::Mutex;

type StaticSlice = gimli::EndianSlice<'static, gimli::RunTimeEndian>;

/// The DWARF sections of one file, each read on first use.
pub struct LazyDwarf {
    pub endian: gimli::RunTimeEndian,
    sections: Vec<(gimli::SectionId, LazySection)>,
}

/// Sections never read here: variable locations, macros, the pub* indexes (not loading
/// them spares inflating them: a fifth of a compressed libc debug file is .debug_loclists).
fn unused(id: gimli::SectionId) -> bool {
    use gimli::SectionId as S;
    matches!(id, S::DebugLoc | S::DebugLocLists | S::DebugMacinfo | S::DebugMacro | S::DebugPubNames | S::DebugPubTypes)
}

const IDS: [gimli::SectionId; 18] = {
    use gimli::SectionId as S;
    [
        S::DebugAbbrev,
        S::DebugAddr,
        S::DebugAranges,
        S::DebugCuIndex,
        S::DebugInfo,
        S::DebugLine,
        S::DebugLineStr,
        S::DebugLoc,
        S::DebugLocLists,
        S::DebugMacinfo,
        S::DebugMacro,
        S::DebugPubNames,
        S::DebugPubTypes,
        S::DebugRanges,
        S::DebugRngLists,
        S::DebugStr,
        S::DebugStrOffsets,
        S::DebugTuIndex,
    ]
};

impl LazyDwarf {
    /// Notes where each DWARF section of `o` is (nothing is read or inflated yet). With a
    /// cache directory (`super::cache`) and a build-id, zlib sections are read from and
    /// written to the cache.
    pub fn new(o: &object::File<'static>, cache: Option<&std::path::Path>) -> Result<LazyDwarf, String> {
        let build_id = o.build_id().ok().flatten().unwrap_or_default();
        let endian = if o.is_little_endian() { gimli::RunTimeEndian::Little } else { gimli::RunTimeEndian::Big };
        let mut sections = Vec::new();
        for id in IDS {
            if unused(id) {
                continue;
            }
            let name = id.name();
            let Some(s) = o.section_by_name(name) else { continue };
            let section = match s.compressed_data() {
                Ok(c) if c.format == object::CompressionFormat::None => LazySection::plain(name, c.data),
                Ok(c) if c.format == object::CompressionFormat::Zlib => {
                    let mut s = LazySection::zlib(name, c.data, c.uncompressed_size)?;
                    if let Some(dir) = cache {
                        s.cache = super::cache::Key::new(dir, build_id, name, c.data, s.size());
                    }
                    s
                }
                // Other formats (zstd, the old `.zdebug`): inflated here by the object crate.
                _ => match s.uncompressed_data() {
                    Ok(std::borrow::Cow::Borrowed(b)) => LazySection::plain(name, b),
                    Ok(std::borrow::Cow::Owned(v)) => LazySection {
                        name,
                        source: Source::Owned(v.into_boxed_slice()),
                        state: Mutex::new(None),
                        cache: None,
                    },
                    Err(e) => return Err(format!("{name}: {e}")),
                },
            };
            sections.push((id, section));
        }
        Ok(LazyDwarf { endian, sections })
    }

    pub fn section(&self, id: gimli::SectionId) -> Option<&LazySection> {
        self.sections.iter().find(|s| s.0 == id).map(|s| &s.1)
    }

    /// Every section, whole (inflated now if not yet).
    pub fn full(&self) -> Result<gimli::Dwarf<StaticSlice>, String> {
        gimli::Dwarf::load(|id| -> Result<StaticSlice, String> {
            let d = match self.section(id) {
                Some(s) => s.full()?,
                None => &[],
            };
            Ok(gimli::EndianSlice::new(d, self.endian))
        })
    }

    /// The sections as far as they are inflated now; `whole` sections are inflated whole
    /// first.
    pub fn partial(&self, whole: &[gimli::SectionId]) -> Result<gimli::Dwarf<StaticSlice>, String> {
        gimli::Dwarf::load(|id| -> Result<StaticSlice, String> {
            let d = match self.section(id) {
                Some(s) if whole.contains(&id) => s.full()?,
                Some(s) => s.current(),
                None => &[],
            };
            Ok(gimli::EndianSlice::new(d, self.endian))
        })
    }
}

/// Where a section's bytes come from.
enum Source {
    /// Absent or empty.
    Empty,
    /// Stored as is in the (mapped) file.
    Plain(&'static [u8]),
    /// Inflated at open by the object crate (formats other than zlib).
    Owned(Box<[u8]>),
    /// A zlib stream (ELF `ELFCOMPRESS_ZLIB`) of `size` bytes once inflated.
    Zlib { stream: &'static [u8], size: usize },
}

/// The inflater's state: the output written so far.
struct Inflating {
    /// `size` bytes (at least 1), allocated at the first request; freed on drop.
    out: OutBuf,
    /// `buf[..filled]` is the section's start, final.
    filled: usize,
    /// How far the next inflation goes at least (see [`LazySection::plan`]).
    planned: usize,
    error: Option<String>,
    /// How much of the section the cache file holds (read from it or written to it).
    cached: usize,
    /// How much was read from the cache file.
    from_cache: usize,
}

// SAFETY: `out` is owned by the section (allocated by it, freed on its drop), only written under the mutex, and
// the written prefix is immutable afterwards.
unsafe impl Send for Inflating {}

/// One DWARF section, materialized on demand.
pub struct LazySection {
    name: &'static str,
    source: Source,
    state: Mutex<Option<Inflating>>,
    /// Where the inflated start is kept between runs (`super::cache`).
    cache: Option<super::cache::Key>,
}

impl LazySection {
    pub fn empty(name: &'static str) -> Self {
        LazySection { name, source: Source::Empty, state: Mutex::new(None), cache: None }
    }

    pub fn plain(name: &'static str, data: &'static [u8]) -> Self {
        LazySection { name, source: Source::Plain(data), state: Mutex::new(None), cache: None }
    }

    /// A zlib stream that inflates to `size` bytes. A size no zlib stream of this length can
    /// reach (a damaged header) is refused.
    pub fn zlib(name: &'static str, stream: &'static [u8], size: u64) -> Result<Self, String> {
        // Deflate cannot expand past about 2064:1 (one bit per 258-byte match).
        let max = (stream.len() as u64).saturating_mul(4096).saturating_add(1 << 20);
        if size > max || usize::try_from(size).is_err() || size > isize::MAX as u64 {
            return Err(format!("{name}: compressed section claims {size} bytes from {} bytes", stream.len()));
        }
        Ok(LazySection {
            name,
            source: Source::Zlib { stream, size: size as usize },
            state: Mutex::new(None),
            cache: None,
        })
    }

    /// The same, read from and written to the cache under `key` (tests; `LazyDwarf::new`
    /// sets the key itself).
    #[cfg(test)]
    fn zlib_cached(name: &'static str, stream: &'static [u8], size: u64, dir: &std::path::Path, id: &[u8]) -> Self {
        let mut s = Self::zlib(name, stream, size).unwrap();
        s.cache = super::cache::Key::new(dir, id, name, stream, s.size());
        s
    }

    /// Whether the section's first `end` bytes are there without inflating anything (stored
    /// plain, inflated already, or held by the cache, which this reads now).
    pub fn ready(&self, end: usize) -> bool {
        let Source::Zlib { size, .. } = self.source else { return true };
        let mut guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
        self.state(size, &mut guard).is_ok_and(|st| st.filled >= end.min(size))
    }

    /// How many bytes of the section were read from the cache (0 when none were).
    pub fn from_cache(&self) -> usize {
        let guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
        guard.as_ref().map_or(0, |st| st.from_cache)
    }

    /// Keeps what is inflated now in the cache, when it is more than the cache holds and the
    /// stream had no error.
    fn store(&self, st: &mut Inflating) {
        if let Some(key) = &self.cache
            && st.error.is_none()
            && st.filled > st.cached
        {
            // SAFETY: `0..filled` is written and never written again.
            key.store(unsafe { std::slice::from_raw_parts(st.out.ptr, st.filled) });
            st.cached = st.filled;
        }
    }

    /// The section's full size once inflated.
    pub fn size(&self) -> usize {
        match self.source {
            Source::Empty => 0,
            Source::Plain(d) => d.len(),
            Source::Owned(ref d) => d.len(),
            Source::Zlib { size, .. } => size,
        }
    }

    pub fn is_compressed(&self) -> bool {
        matches!(self.source, Source::Zlib { .. })
    }

    /// The whole section.
    pub fn full(&self) -> Result<&'static [u8], String> {
        self.prefix(usize::MAX)
    }

    /// The next inflation of this section goes at least to `end` (a lookup that knows which
    /// units it will read says so first, so that they are inflated in one pass).
    pub fn plan(&self, end: usize) {
        if let Source::Zlib { size, .. } = self.source {
            let mut guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
            if let Ok(st) = self.state(size, &mut guard) {
                st.planned = st.planned.max(end.min(size));
            }
        }
    }

    /// Inflates the whole section now, for lookups later (a second thread's work ahead, see
    /// `dwarf::inflate_beside`). An error is not kept: a later request for a part before a
    /// damage still gets that part, and one past it gets the error, as without this call.
    pub fn prefetch(&self) {
        let Source::Zlib { stream, size } = self.source else { return };
        let mut guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let Ok(st) = self.state(size, &mut guard) else { return };
        if (st.filled == 0 || st.filled == st.from_cache) && st.filled < size && st.error.is_none() {
            inflate(self.name, stream, size, size, st);
            self.store(st);
            st.error = None;
        }
    }

    /// The inflater's state, created (and the output buffer allocated, and filled from the
    /// cache as far as it holds the section) on first use.
    fn state<'g>(&self, size: usize, guard: &'g mut Option<Inflating>) -> Result<&'g mut Inflating, String> {
        match guard {
            Some(st) => Ok(st),
            None => {
                let name = self.name;
                let Some(buf) = OutBuf::new(size) else {
                    return Err(format!("{name}: cannot allocate {size} bytes to inflate it"));
                };
                // SAFETY: `buf` holds `size` bytes, none handed out yet.
                let cached = self.cache.as_ref().map_or(0, |k| unsafe { k.load(buf.ptr) });
                Ok(guard.insert(Inflating {
                    out: buf,
                    filled: cached,
                    planned: 0,
                    error: None,
                    cached,
                    from_cache: cached,
                }))
            }
        }
    }

    /// The section from its start to at least `end` bytes (or to its end, if shorter).
    pub fn prefix(&self, end: usize) -> Result<&'static [u8], String> {
        let (stream, size) = match self.source {
            Source::Empty => return Ok(&[]),
            Source::Plain(d) => return Ok(d),
            Source::Owned(ref d) => return Ok(owned(d)),
            Source::Zlib { stream, size } => (stream, size),
        };
        let end = end.min(size);
        let mut guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let st = self.state(size, &mut guard)?;
        if st.filled < end && st.error.is_none() {
            // As far as planned; a section inflated again (a request past what was planned)
            // at least doubles, so a run of growing requests costs at most about twice the
            // last one.
            let mut target = end.max(st.planned);
            if st.filled > 0 {
                target = target.max(st.filled.saturating_mul(2));
            }
            inflate(self.name, stream, size, target.min(size), st);
            self.store(st);
        }
        if st.filled < end
            && let Some(e) = &st.error
        {
            return Err(e.clone());
        }
        // SAFETY: `0..filled` is written and never written again.
        Ok(unsafe { std::slice::from_raw_parts(st.out.ptr, st.filled) })
    }

    /// What is inflated so far (the whole section when stored plain).
    pub fn current(&self) -> &'static [u8] {
        match self.source {
            Source::Empty => &[],
            Source::Plain(d) => d,
            Source::Owned(ref d) => owned(d),
            Source::Zlib { .. } => {
                let guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
                match guard.as_ref() {
                    // SAFETY: as in `prefix`.
                    Some(st) => unsafe { std::slice::from_raw_parts(st.out.ptr, st.filled) },
                    None => &[],
                }
            }
        }
    }
}

/// What libdeflate may leave unwritten at the end of an output buffer that is too small: it
/// stops before a literal, a match (at most 258 bytes) or a stored block (at most 65,535
/// bytes) that does not fit, having written everything before it
/// (`decompress_template.h`: every `LIBDEFLATE_INSUFFICIENT_SPACE` return). So with
/// `SLACK` bytes more room than wanted, at least what was wanted is final.
const SLACK: usize = 1 << 16;

/// Inflates `stream` from its start into `st.out.ptr` up to at least `target` bytes (libdeflate
/// inflates a whole buffer in one call, about twice as fast as a streaming inflater, and
/// cannot resume: a second call starts over). Bytes below `st.filled` may already be handed
/// out, so a second inflation goes to a scratch buffer and only what is new is copied.
fn inflate(name: &str, stream: &[u8], size: usize, target: usize, st: &mut Inflating) {
    let cap = if target >= size { size } else { target.saturating_add(SLACK).min(size) };
    let mut d = libdeflater::Decompressor::new();
    let mut scratch = Vec::new();
    let out: &mut [u8] = if st.filled == 0 {
        // SAFETY: `buf` holds `size` bytes, none handed out yet.
        unsafe { std::slice::from_raw_parts_mut(st.out.ptr, cap) }
    } else {
        if scratch.try_reserve_exact(cap).is_err() {
            st.error = Some(format!("{name}: cannot allocate {cap} bytes to inflate it"));
            return;
        }
        scratch.resize(cap, 0);
        &mut scratch
    };
    let valid = match d.zlib_decompress(stream, out) {
        Ok(n) if n < size => {
            st.error = Some(format!("{name}: compressed data ends after {n} of {size} bytes"));
            n
        }
        Ok(n) => n,
        Err(libdeflater::DecompressionError::InsufficientSpace) if cap < size => cap - SLACK,
        Err(libdeflater::DecompressionError::InsufficientSpace) => {
            st.error = Some(format!("{name}: compressed data holds more than the {size} bytes it claims"));
            cap.saturating_sub(SLACK)
        }
        Err(libdeflater::DecompressionError::BadData) => {
            st.error = Some(format!("{name}: damaged compressed data"));
            return;
        }
    };
    if valid > st.filled {
        if !scratch.is_empty() {
            // SAFETY: `filled..valid` lies inside `buf` and was never handed out.
            let dst = unsafe { std::slice::from_raw_parts_mut(st.out.ptr.add(st.filled), valid - st.filled) };
            dst.copy_from_slice(&scratch[st.filled..valid]);
        }
        st.filled = valid;
    }
}

/// A boxed section's bytes with the owner's lifetime (see the module's safety note: the box
/// lives as long as the section, and its heap buffer does not move).
fn owned(d: &[u8]) -> &'static [u8] {
    // SAFETY: as above.
    unsafe { std::slice::from_raw_parts(d.as_ptr(), d.len()) }
}

/// A section's output buffer: zeroed memory from the kernel, never read before written.
struct OutBuf {
    ptr: *mut u8,
    /// How it was allocated, to free it the same way.
    from: Alloc,
}

enum Alloc {
    Heap(std::alloc::Layout),
    /// An anonymous mapping (`base`, `len`) backed by 2 MiB pages where the kernel has them.
    #[cfg(target_os = "linux")]
    Map(*mut libc::c_void, usize),
}

/// Sections from this size on get a mapping of their own with transparent huge pages: a
/// fresh 4 KiB page costs a fault and its zeroing, and under a hypervisor the faults of a
/// 4 MB section cost as much as a third of inflating it; 2 MiB pages take a fault each.
#[cfg(target_os = "linux")]
const HUGE_FROM: usize = 512 * 1024;
#[cfg(target_os = "linux")]
const HUGE: usize = 2 << 20;

impl OutBuf {
    fn new(size: usize) -> Option<OutBuf> {
        #[cfg(target_os = "linux")]
        if size >= HUGE_FROM {
            let used = size.checked_next_multiple_of(HUGE)?;
            let len = used.checked_add(HUGE)?;
            // SAFETY: a fresh private anonymous mapping; nothing else refers to it.
            let base = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if base != libc::MAP_FAILED {
                // The 2 MiB-aligned part (an unaligned head would take 4 KiB pages).
                let skip = (base as usize).next_multiple_of(HUGE) - base as usize;
                // SAFETY: `skip < HUGE`, so `skip + used <= len` lies inside the mapping.
                let ptr = unsafe { base.cast::<u8>().add(skip) };
                // A hint: without transparent huge pages (or with them off) it fails or does
                // nothing, and the mapping takes 4 KiB pages.
                // SAFETY: the range lies inside the mapping.
                unsafe { libc::madvise(ptr.cast(), used, libc::MADV_HUGEPAGE) };
                return Some(OutBuf { ptr, from: Alloc::Map(base, len) });
            }
        }
        // Zeroed by the allocator (fresh pages from the kernel for a big section: no pass
        // over them), and a failed allocation is `None`, not an abort.
        let layout = std::alloc::Layout::array::<u8>(size.max(1)).ok()?;
        // SAFETY: the layout is not zero-sized.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        (!ptr.is_null()).then_some(OutBuf { ptr, from: Alloc::Heap(layout) })
    }
}

impl Drop for OutBuf {
    fn drop(&mut self) {
        match self.from {
            // SAFETY: `ptr` came from `alloc_zeroed` with this layout.
            Alloc::Heap(layout) => unsafe { std::alloc::dealloc(self.ptr, layout) },
            #[cfg(target_os = "linux")]
            // SAFETY: the mapping made in `new`, unmapped once.
            Alloc::Map(base, len) => unsafe {
                libc::munmap(base, len);
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zlib(data: &[u8]) -> &'static [u8] {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        Box::leak(e.finish().unwrap().into_boxed_slice())
    }

    #[test]
    fn prefixes_grow_and_keep_their_bytes() {
        let data: Vec<u8> = (0..2_000_000u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8 & 0x3f).collect();
        let s = LazySection::zlib(".debug_info", zlib(&data), data.len() as u64).unwrap();
        assert!(s.current().is_empty());
        let a = s.prefix(10).unwrap();
        assert!(a.len() >= 10 && a.len() < data.len(), "{}", a.len());
        assert_eq!(a, &data[..a.len()]);
        let b = s.prefix(1_000_000).unwrap();
        assert!(b.len() >= 1_000_000);
        assert_eq!(a, &data[..a.len()], "the first slice is unchanged");
        assert_eq!(b, &data[..b.len()]);
        assert_eq!(s.full().unwrap(), &data[..]);
        assert_eq!(s.prefix(usize::MAX).unwrap().len(), data.len());
    }

    #[test]
    fn damaged_streams_are_errors() {
        let data = vec![7u8; 100_000];
        let z = zlib(&data);
        // Cut short.
        let s = LazySection::zlib(".debug_line", &z[..z.len() / 2], data.len() as u64).unwrap();
        assert!(s.full().is_err());
        // Claims more than it holds.
        let s = LazySection::zlib(".debug_line", z, data.len() as u64 + 10).unwrap();
        assert!(s.full().unwrap_err().contains("ends after"));
        assert_eq!(s.prefix(50).unwrap().len(), data.len(), "what was inflated is still usable");
        // Garbage.
        let s = LazySection::zlib(".debug_str", Box::leak(vec![0x55u8; 64].into_boxed_slice()), 1000).unwrap();
        assert!(s.prefix(10).is_err());
        // A size no stream of that length could inflate to.
        assert!(LazySection::zlib(".debug_str", z, u64::MAX).is_err());
    }

    /// Data mixing stored blocks (incompressible runs, up to 65,535 bytes each), long matches
    /// and literals, the three places libdeflate can stop at when its buffer is full.
    fn mixed() -> Vec<u8> {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut data = Vec::new();
        for round in 0..40u32 {
            let n = 10_000 + (round as usize * 7919) % 90_000;
            match round % 3 {
                0 => data.extend((0..n).map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x as u8
                })),
                1 => data.extend(std::iter::repeat_n(round as u8, n)),
                _ => data.extend((0..n).map(|i| b"DW_TAG_subprogram\0"[i % 18])),
            }
        }
        data
    }

    #[test]
    fn bounded_inflation_gives_what_was_asked_at_every_cut() {
        let data = mixed();
        for level in [flate2::Compression::none(), flate2::Compression::fast(), flate2::Compression::best()] {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), level);
            e.write_all(&data).unwrap();
            let z: &'static [u8] = Box::leak(e.finish().unwrap().into_boxed_slice());
            for end in (0..data.len()).step_by(4099).chain([1, 65_535, 65_536, data.len() - 1, data.len()]) {
                let s = LazySection::zlib(".debug_info", z, data.len() as u64).unwrap();
                let a = s.prefix(end).unwrap();
                assert!(a.len() >= end, "level {level:?} end {end}: got {}", a.len());
                assert_eq!(a, &data[..a.len()], "level {level:?} end {end}");
                // A second, larger request inflates again; the first slice is unchanged.
                let more = (end * 2 + 100_000).min(data.len());
                let b = s.prefix(more).unwrap();
                assert!(b.len() >= more);
                assert_eq!(a, &data[..a.len()]);
                assert_eq!(b, &data[..b.len()]);
            }
        }
    }

    #[test]
    fn a_plan_is_inflated_in_one_pass() {
        let data = mixed();
        let s = LazySection::zlib(".debug_line", zlib(&data), data.len() as u64).unwrap();
        s.plan(1_500_000);
        let a = s.prefix(100).unwrap();
        assert!(a.len() >= 1_500_000 && a.len() < data.len(), "{}", a.len());
        assert_eq!(a, &data[..a.len()]);
        // What the plan covered is there without inflating again.
        assert_eq!(s.prefix(1_400_000).unwrap().len(), a.len());
        assert_eq!(s.current().len(), a.len());
        // A plan past the end is the whole section.
        let s = LazySection::zlib(".debug_line", zlib(&data), data.len() as u64).unwrap();
        s.plan(usize::MAX);
        assert_eq!(s.prefix(1).unwrap(), &data[..]);
    }

    /// A section inflated ahead whole gives the same bytes; when its stream is damaged past
    /// what a lookup asks for, that lookup still gets its part, and one past the damage the
    /// error, as without the prefetch.
    #[test]
    fn a_prefetch_keeps_no_error_for_the_part_before_a_damage() {
        let data = mixed();
        let s = LazySection::zlib(".debug_line", zlib(&data), data.len() as u64).unwrap();
        s.prefetch();
        assert_eq!(s.current(), &data[..]);
        assert_eq!(s.prefix(10).unwrap(), &data[..]);
        // Damaged near its end: a prefetch fails, the start is still there on request.
        let mut z = zlib(&data).to_vec();
        let n = z.len();
        for b in &mut z[n - 200..n - 8] {
            *b ^= 0x5a;
        }
        let z: &'static [u8] = Box::leak(z.into_boxed_slice());
        let s = LazySection::zlib(".debug_line", z, data.len() as u64).unwrap();
        let plain = LazySection::zlib(".debug_line", z, data.len() as u64).unwrap();
        s.prefetch();
        let a = s.prefix(100_000).unwrap();
        let b = plain.prefix(100_000).unwrap();
        assert!(a.len() >= 100_000 && b.len() >= 100_000);
        assert_eq!(&a[..100_000], &data[..100_000]);
        assert_eq!(s.full().is_err(), plain.full().is_err());
    }

    #[test]
    fn a_stream_longer_than_its_header_says_is_an_error() {
        let data = vec![3u8; 300_000];
        let s = LazySection::zlib(".debug_info", zlib(&data), 200_000).unwrap();
        assert!(s.full().unwrap_err().contains("more than"));
        let s = LazySection::zlib(".debug_info", zlib(&data), 200_000).unwrap();
        let a = s.prefix(10).unwrap();
        assert!(a.len() >= 10 && a.iter().all(|&b| b == 3));
    }

    /// A fresh directory for one test's cache.
    fn cache_dir(test: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("tracecheck-lazy-cache-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    const ID: &[u8] = &[0x93, 0xac, 0x61, 0xec, 0x5a];

    #[test]
    fn the_cache_gives_the_same_bytes_without_inflating() {
        let dir = cache_dir("same");
        let data = mixed();
        let z = zlib(&data);
        let file = dir.join("dwarf/93ac61ec5a/debug_info");
        // Cold: inflated, and the part inflated is written to the cache.
        let cold = LazySection::zlib_cached(".debug_info", z, data.len() as u64, &dir, ID);
        assert!(!cold.ready(1));
        let a = cold.prefix(300_000).unwrap();
        assert_eq!(cold.from_cache(), 0);
        assert_eq!(a, &data[..a.len()]);
        let written = std::fs::metadata(&file).unwrap().len() as usize;
        assert!(written > a.len() && written < a.len() + 100, "{written} for {} bytes", a.len());
        // Warm: read from the cache, the same bytes; a damaged stream shows that nothing was
        // inflated (the cache is keyed by the stream's length and last four bytes, which the
        // damage in its middle keeps).
        let mut broken = z.to_vec();
        for b in &mut broken[10..z.len() - 10] {
            *b = !*b;
        }
        let broken: &'static [u8] = Box::leak(broken.into_boxed_slice());
        let warm = LazySection::zlib_cached(".debug_info", broken, data.len() as u64, &dir, ID);
        assert!(warm.ready(a.len()) && !warm.ready(a.len() + 1), "the cache holds {} bytes", a.len());
        let b = warm.prefix(200_000).unwrap();
        assert_eq!(warm.from_cache(), a.len());
        assert_eq!(b, a);
        // Past what the cache holds, the stream is inflated (here: the damage shows).
        assert!(warm.prefix(a.len() + 1).is_err());
        // A request past the cache on a good stream inflates the rest, and the cache then
        // holds the whole section.
        let more = LazySection::zlib_cached(".debug_info", z, data.len() as u64, &dir, ID);
        assert_eq!(more.prefix(a.len() + 1).unwrap(), &data[..more.current().len()]);
        assert_eq!(more.full().unwrap(), &data[..]);
        let again = LazySection::zlib_cached(".debug_info", z, data.len() as u64, &dir, ID);
        assert_eq!(again.prefix(1).unwrap(), &data[..]);
        assert_eq!(again.from_cache(), data.len());
        // A second thread's prefetch also reads the cache first.
        let pre = LazySection::zlib_cached(".debug_info", broken, data.len() as u64, &dir, ID);
        pre.prefetch();
        assert_eq!(pre.from_cache(), data.len());
        assert_eq!(pre.full().unwrap(), &data[..]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_damaged_cache_file_is_ignored_and_replaced() {
        let dir = cache_dir("damaged");
        let data = mixed();
        let z = zlib(&data);
        let file = dir.join("dwarf/93ac61ec5a/debug_line");
        LazySection::zlib_cached(".debug_line", z, data.len() as u64, &dir, ID).full().unwrap();
        let good = std::fs::read(&file).unwrap();
        let header = good.len() - data.len();
        let damages: Vec<(&str, Vec<u8>)> = vec![
            ("a byte of the data flipped", {
                let mut b = good.clone();
                b[header + 1000] ^= 1;
                b
            }),
            ("the header's length made shorter", {
                let mut b = good.clone();
                // The prefix length field (after magic, stream length, trailer and size).
                b[28] = b[28].wrapping_sub(1);
                b
            }),
            ("cut short", good[..good.len() - 1].to_vec()),
            ("one byte too many", [&good[..], &[0]].concat()),
            ("cut inside the header", good[..20].to_vec()),
            ("empty", Vec::new()),
            ("not a cache file", b"\x7fELF and more".to_vec()),
        ];
        for (what, bytes) in damages {
            std::fs::write(&file, &bytes).unwrap();
            let s = LazySection::zlib_cached(".debug_line", z, data.len() as u64, &dir, ID);
            assert_eq!(s.full().unwrap(), &data[..], "{what}");
            assert_eq!(s.from_cache(), 0, "{what}: not used");
            assert_eq!(std::fs::read(&file).unwrap(), good, "{what}: replaced by a good file");
        }
        // A directory or a FIFO where the file should be: ignored, no hang, no panic.
        std::fs::remove_file(&file).unwrap();
        std::fs::create_dir(&file).unwrap();
        let s = LazySection::zlib_cached(".debug_line", z, data.len() as u64, &dir, ID);
        assert_eq!(s.full().unwrap(), &data[..]);
        assert_eq!(s.from_cache(), 0);
        std::fs::remove_dir(&file).unwrap();
        let c = std::ffi::CString::new(file.to_str().unwrap()).unwrap();
        // SAFETY: a valid path string.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let s = LazySection::zlib_cached(".debug_line", z, data.len() as u64, &dir, ID);
        assert_eq!(s.prefix(10).unwrap(), &data[..s.current().len()]);
        assert_eq!(s.from_cache(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_cache_file_of_another_build_id_section_or_stream_is_not_used() {
        let dir = cache_dir("foreign");
        let data = mixed();
        let z = zlib(&data);
        LazySection::zlib_cached(".debug_info", z, data.len() as u64, &dir, ID).full().unwrap();
        let file = std::fs::read(dir.join("dwarf/93ac61ec5a/debug_info")).unwrap();
        // The same file under another build-id's directory.
        let other: &[u8] = &[0x93, 0xac, 0x61, 0xec, 0x5b];
        std::fs::create_dir_all(dir.join("dwarf/93ac61ec5b")).unwrap();
        std::fs::write(dir.join("dwarf/93ac61ec5b/debug_info"), &file).unwrap();
        let s = LazySection::zlib_cached(".debug_info", z, data.len() as u64, &dir, other);
        assert_eq!(s.full().unwrap(), &data[..]);
        assert_eq!(s.from_cache(), 0, "another build-id");
        // Under another section's name.
        std::fs::write(dir.join("dwarf/93ac61ec5a/debug_abbrev"), &file).unwrap();
        let s = LazySection::zlib_cached(".debug_abbrev", z, data.len() as u64, &dir, ID);
        assert_eq!(s.full().unwrap(), &data[..]);
        assert_eq!(s.from_cache(), 0, "another section");
        // The same build-id and section, but another stream (other data of the same size):
        // its last four bytes (Adler-32) differ.
        let mut data2 = data.clone();
        data2[5] ^= 0x40;
        let z2 = zlib(&data2);
        let s = LazySection::zlib_cached(".debug_info", z2, data2.len() as u64, &dir, ID);
        assert_eq!(s.full().unwrap(), &data2[..]);
        assert_eq!(s.from_cache(), 0, "another stream");
        // No build-id: no cache.
        assert!(super::super::cache::Key::new(&dir, &[], ".debug_info", z, data.len()).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
