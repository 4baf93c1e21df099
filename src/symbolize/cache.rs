//! A cache of inflated DWARF sections, by build-id (what gdb's index-cache and debuginfod's
//! cache are for those tools).
//!
//! A distribution's separate debug files keep their DWARF compressed (one zlib stream per
//! section), and a core's frames in libc need its `.debug_info` inflated up to the units
//! that hold them: 4 MB of libdeflate, three quarters of a small core's instructions
//! (docs/performance.md, "3g"). A zlib stream cannot be entered in the middle, so a second
//! run of the same libc can only be spared that by keeping what the first one inflated.
//!
//! * Where: `$TRACECHECK_CACHE_DIR`, else `$XDG_CACHE_HOME/tracecheck`, else
//!   `$HOME/.cache/tracecheck` (relative paths are ignored, as the XDG spec says); files
//!   `dwarf/<build-id>/<section>`. `TRACECHECK_CACHE=off` (or `0`, `no`, `false`) turns it
//!   off; so does having none of those variables.
//! * What: the section's inflated start, as far as a run inflated it, behind a header that
//!   names the build-id, the section, the compressed stream's length and its last four bytes
//!   (zlib's Adler-32 of the whole inflated section) and the inflated size, with a CRC-32 of
//!   the bytes. A file is used only when all of those match the section being read and the
//!   file's length is exactly the header's plus the bytes': a damaged, truncated or foreign
//!   file is ignored (and replaced by the next write), never trusted and never a crash.
//! * Writes go to a temporary in the same directory that is then renamed over the file, so a
//!   reader sees a whole old file or a whole new one; two runs writing at once both write
//!   whole files. No `fsync`: a file torn by a power loss fails its CRC and is ignored.
//! * Nothing is ever removed: a few MB per debug file (libc's: 10 MB); delete the directory
//!   at will.

use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"tcdwarf1";

/// Sections larger than this are not written (a cache file is read whole).
const MAX_BYTES: usize = 256 << 20;

/// The cache directory for these environment variables (`var` looks one up), or `None` when
/// the cache is off.
pub fn dir_from(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let set = |k: &str| var(k).filter(|v| !v.is_empty());
    if let Some(v) = set("TRACECHECK_CACHE")
        && matches!(v.to_string_lossy().to_ascii_lowercase().as_str(), "0" | "off" | "no" | "false")
    {
        return None;
    }
    let abs = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    if let Some(d) = set("TRACECHECK_CACHE_DIR") {
        return abs(d);
    }
    if let Some(d) = set("XDG_CACHE_HOME").and_then(abs) {
        return Some(d.join("tracecheck"));
    }
    set("HOME").and_then(abs).map(|h| h.join(".cache").join("tracecheck"))
}

/// The cache directory of this process (from its environment, read once).
pub fn dir() -> Option<&'static Path> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| if cfg!(test) { None } else { dir_from(|k| std::env::var_os(k)) }).as_deref()
}

/// What a cache file must say about the section it holds.
#[derive(Clone, Debug)]
pub struct Key {
    /// `DIR/dwarf/<build-id>/<section>`.
    pub path: PathBuf,
    build_id: Vec<u8>,
    name: &'static str,
    stream_len: u64,
    /// The stream's last four bytes (zlib's Adler-32 of the inflated data).
    trailer: u32,
    size: u64,
}

impl Key {
    /// The key of section `name` (a zlib `stream` inflating to `size` bytes) of the file with
    /// `build_id`, under cache directory `dir`. `None` without a build-id.
    pub fn new(dir: &Path, build_id: &[u8], name: &'static str, stream: &[u8], size: usize) -> Option<Key> {
        if build_id.is_empty() || build_id.len() > 64 || name.is_empty() {
            return None;
        }
        let hex: String = build_id.iter().map(|b| format!("{b:02x}")).collect();
        let file = name.trim_start_matches('.');
        let trailer = match stream.len().checked_sub(4) {
            Some(at) => u32::from_le_bytes(stream[at..].try_into().ok()?),
            None => 0,
        };
        Some(Key {
            path: dir.join("dwarf").join(hex).join(file),
            build_id: build_id.to_vec(),
            name,
            stream_len: stream.len() as u64,
            trailer,
            size: size as u64,
        })
    }

    fn header(&self, len: usize, crc: u32) -> Vec<u8> {
        let mut h = Vec::with_capacity(64 + self.build_id.len());
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&self.stream_len.to_le_bytes());
        h.extend_from_slice(&self.trailer.to_le_bytes());
        h.extend_from_slice(&self.size.to_le_bytes());
        h.extend_from_slice(&(len as u64).to_le_bytes());
        h.extend_from_slice(&crc.to_le_bytes());
        h.push(self.name.len() as u8);
        h.extend_from_slice(self.name.as_bytes());
        h.push(self.build_id.len() as u8);
        h.extend_from_slice(&self.build_id);
        h
    }

    /// Reads the cached start of the section into `out` (which holds the whole section, `size`
    /// bytes); the number of bytes read, 0 when there is no usable file.
    ///
    /// # Safety
    /// `out` must be valid for writes of `size` bytes and not handed out to anyone yet.
    pub unsafe fn load(&self, out: *mut u8) -> usize {
        let Ok(mut f) = crate::fsutil::open_regular(&self.path) else { return 0 };
        let Ok(meta) = f.metadata() else { return 0 };
        // The header as this key would write it, with the length and CRC read from the file.
        let fixed = MAGIC.len() + 8 + 4 + 8;
        let mut head = vec![0u8; fixed + 8 + 4];
        if f.read_exact(&mut head).is_err() || head[..fixed] != self.header(0, 0)[..fixed] {
            return 0;
        }
        let len = u64::from_le_bytes(head[fixed..fixed + 8].try_into().unwrap_or_default());
        let crc = u32::from_le_bytes(head[fixed + 8..].try_into().unwrap_or_default());
        if len == 0 || len > self.size || len > MAX_BYTES as u64 {
            return 0;
        }
        let len = len as usize;
        let want = self.header(len, crc);
        let mut rest = vec![0u8; want.len() - head.len()];
        if f.read_exact(&mut rest).is_err() || rest != want[head.len()..] || meta.len() != (want.len() + len) as u64 {
            return 0;
        }
        // SAFETY: `len <= size` (checked above) and the caller gives `size` writable bytes.
        let dst = unsafe { std::slice::from_raw_parts_mut(out, len) };
        if f.read_exact(dst).is_err() || libdeflater::crc32(dst) != crc {
            // The bytes read are not used (the caller starts from 0 and overwrites them).
            return 0;
        }
        len
    }

    /// Writes `bytes` (the section's start) as the cache file, atomically; errors are ignored
    /// (the cache is only a help).
    pub fn store(&self, bytes: &[u8]) {
        if bytes.is_empty() || bytes.len() > MAX_BYTES || bytes.len() as u64 > self.size {
            return;
        }
        let Some(dir) = self.path.parent() else { return };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let head = self.header(bytes.len(), libdeflater::crc32(bytes));
        let _ = write_unsynced(&self.path, &[&head, bytes]);
    }
}

/// Writes `parts` to `path` through a temporary renamed over it (see
/// `fsutil::write_file`, without its `fsync`, which is not needed here: a torn file fails
/// its CRC).
fn write_unsynced(path: &Path, parts: &[&[u8]]) -> std::io::Result<()> {
    crate::fsutil::check_destination(path)?;
    crate::fsutil::remove_stale_temporaries(path);
    let tmp = crate::fsutil::temporary_for(path);
    let result = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&tmp)?;
        for p in parts {
            f.write_all(p)?;
        }
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |k| vars.iter().find(|v| v.0 == k).map(|v| OsString::from(v.1))
    }

    #[test]
    fn the_directory_follows_xdg_and_can_be_turned_off() {
        assert_eq!(dir_from(env(&[("HOME", "/h")])), Some(PathBuf::from("/h/.cache/tracecheck")));
        assert_eq!(dir_from(env(&[("HOME", "/h"), ("XDG_CACHE_HOME", "/x")])), Some(PathBuf::from("/x/tracecheck")));
        // A relative XDG_CACHE_HOME is ignored (XDG base directory spec).
        assert_eq!(
            dir_from(env(&[("HOME", "/h"), ("XDG_CACHE_HOME", "x")])),
            Some(PathBuf::from("/h/.cache/tracecheck"))
        );
        assert_eq!(dir_from(env(&[("HOME", "/h"), ("TRACECHECK_CACHE_DIR", "/c")])), Some(PathBuf::from("/c")));
        assert_eq!(dir_from(env(&[("TRACECHECK_CACHE_DIR", "c")])), None);
        for off in ["0", "off", "OFF", "no", "false"] {
            assert_eq!(
                dir_from(env(&[("HOME", "/h"), ("TRACECHECK_CACHE_DIR", "/c"), ("TRACECHECK_CACHE", off)])),
                None
            );
        }
        assert_eq!(
            dir_from(env(&[("HOME", "/h"), ("TRACECHECK_CACHE", "1")])),
            Some(PathBuf::from("/h/.cache/tracecheck"))
        );
        assert_eq!(dir_from(env(&[])), None);
        assert_eq!(dir_from(env(&[("HOME", "")])), None);
    }
}
