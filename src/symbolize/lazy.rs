//! DWARF sections read on first use, and compressed sections inflated only as far as asked.
//!
//! A separate debug file (Debian's `/usr/lib/debug/.build-id/…`) keeps its DWARF compressed
//! (`SHF_COMPRESSED`, one zlib stream per section). A core's frames land in a few of its
//! units, so inflating all of libc's 10 MB of DWARF to read two of its units was most of the
//! time a core took. Here each section is looked at only when a lookup needs it, and a zlib
//! section is inflated from its start up to the end of what is asked for (a unit, a line
//! program): a zlib stream cannot be entered in the middle, but it can stop early. What was
//! inflated stays, and the next request continues from there.
//!
//! Safety: a section's output buffer is allocated once at its full uncompressed size and
//! never moves or shrinks until the [`LazySection`] is dropped. Bytes below `filled` are
//! never written again, so the `'static` slices of them handed to the owner (an
//! [`super::dwarf::ElfModule`], which ties them to its own borrow and drops its users
//! first) stay valid; the inflater writes only above `filled`, under the mutex.

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
    /// Notes where each DWARF section of `o` is (nothing is read or inflated yet).
    pub fn new(o: &object::File<'static>) -> Result<LazyDwarf, String> {
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
                    LazySection::zlib(name, c.data, c.uncompressed_size)?
                }
                // Other formats (zstd, the old `.zdebug`): inflated here by the object crate.
                _ => match s.uncompressed_data() {
                    Ok(std::borrow::Cow::Borrowed(b)) => LazySection::plain(name, b),
                    Ok(std::borrow::Cow::Owned(v)) => {
                        LazySection { name, source: Source::Owned(v.into_boxed_slice()), state: Mutex::new(None) }
                    }
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

/// The inflater's state: the stream position and the output written so far.
struct Inflating {
    z: flate2::Decompress,
    /// `size` bytes (at least 1), allocated at the first request; freed on drop.
    buf: *mut u8,
    filled: usize,
    error: Option<String>,
}

// SAFETY: `buf` is owned by the section (allocated by it, freed on its drop), only written under the mutex, and
// the written prefix is immutable afterwards.
unsafe impl Send for Inflating {}

/// One DWARF section, materialized on demand.
pub struct LazySection {
    name: &'static str,
    source: Source,
    state: Mutex<Option<Inflating>>,
}

/// Inflate at least this much at a time (fewer calls into the inflater).
const STEP: usize = 256 * 1024;

impl LazySection {
    pub fn empty(name: &'static str) -> Self {
        LazySection { name, source: Source::Empty, state: Mutex::new(None) }
    }

    pub fn plain(name: &'static str, data: &'static [u8]) -> Self {
        LazySection { name, source: Source::Plain(data), state: Mutex::new(None) }
    }

    /// A zlib stream that inflates to `size` bytes. A size no zlib stream of this length can
    /// reach (a damaged header) is refused.
    pub fn zlib(name: &'static str, stream: &'static [u8], size: u64) -> Result<Self, String> {
        // Deflate cannot expand past about 2064:1 (one bit per 258-byte match).
        let max = (stream.len() as u64).saturating_mul(4096).saturating_add(1 << 20);
        if size > max || usize::try_from(size).is_err() || size > isize::MAX as u64 {
            return Err(format!("{name}: compressed section claims {size} bytes from {} bytes", stream.len()));
        }
        Ok(LazySection { name, source: Source::Zlib { stream, size: size as usize }, state: Mutex::new(None) })
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
        if guard.is_none() {
            // Zeroed by the allocator (fresh pages from the kernel for a big section: no
            // pass over them), and a failed allocation is an error, not an abort.
            let buf = match std::alloc::Layout::array::<u8>(size.max(1)) {
                // SAFETY: the layout is not zero-sized.
                Ok(layout) => unsafe { std::alloc::alloc_zeroed(layout) },
                Err(_) => std::ptr::null_mut(),
            };
            if buf.is_null() {
                return Err(format!("{}: cannot allocate {size} bytes to inflate it", self.name));
            }
            *guard = Some(Inflating { z: flate2::Decompress::new(true), buf, filled: 0, error: None });
        }
        let st = guard.as_mut().expect("set above");
        if st.filled < end && st.error.is_none() {
            let target = end.max(st.filled.saturating_add(STEP)).min(size);
            while st.filled < target {
                let input = stream.get(st.z.total_in() as usize..).unwrap_or(&[]);
                // SAFETY: `buf` holds `size` bytes; `filled..target` lies inside and was
                // never handed out (see the module's safety note).
                let out = unsafe { std::slice::from_raw_parts_mut(st.buf.add(st.filled), target - st.filled) };
                let (in_before, before) = (st.z.total_in(), st.z.total_out());
                let r = st.z.decompress(input, out, flate2::FlushDecompress::None);
                let wrote = (st.z.total_out() - before) as usize;
                let read = st.z.total_in() - in_before;
                st.filled += wrote;
                match r {
                    Ok(flate2::Status::StreamEnd) => {
                        if st.filled < size {
                            st.error = Some(format!(
                                "{}: compressed data ends after {} of {size} bytes",
                                self.name, st.filled
                            ));
                        }
                        break;
                    }
                    Ok(_) if wrote == 0 && read == 0 => {
                        st.error =
                            Some(format!("{}: compressed data cut after {} of {size} bytes", self.name, st.filled));
                        break;
                    }
                    Ok(_) => {}
                    Err(e) => {
                        st.error = Some(format!("{}: {e}", self.name));
                        break;
                    }
                }
            }
        }
        if st.filled < end
            && let Some(e) = &st.error
        {
            return Err(e.clone());
        }
        // SAFETY: `0..filled` is written and never written again.
        Ok(unsafe { std::slice::from_raw_parts(st.buf, st.filled) })
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
                    Some(st) => unsafe { std::slice::from_raw_parts(st.buf, st.filled) },
                    None => &[],
                }
            }
        }
    }
}

/// A boxed section's bytes with the owner's lifetime (see the module's safety note: the box
/// lives as long as the section, and its heap buffer does not move).
fn owned(d: &[u8]) -> &'static [u8] {
    // SAFETY: as above.
    unsafe { std::slice::from_raw_parts(d.as_ptr(), d.len()) }
}

impl Drop for LazySection {
    fn drop(&mut self) {
        let st = self.state.get_mut().unwrap_or_else(|p| p.into_inner());
        if let (Some(st), Source::Zlib { size, .. }) = (st.take(), &self.source)
            && let Ok(layout) = std::alloc::Layout::array::<u8>((*size).max(1))
        {
            // SAFETY: `buf` came from `alloc_zeroed` with this layout.
            unsafe { std::alloc::dealloc(st.buf, layout) };
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
}
