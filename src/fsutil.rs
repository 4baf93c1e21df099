//! Writing the user's files safely: every file tracecheck creates (exports, the notes
//! sidecar and its lock, installed scripts, rule pages) goes through here.
//!
//! * Never through a symbolic link: a destination that is a symlink (dangling or not) or
//!   not a regular file is refused with a clear message; temporaries and locks are opened
//!   with `O_NOFOLLOW` (temporaries also `O_EXCL`), so a link planted at their name is not
//!   followed either.
//! * Atomic: the content goes to a temporary file in the destination's directory, is
//!   synced, then renamed over the destination (a reader sees the old file or the new one).
//! * Temporaries left by a killed process (`.NAME.tracecheck-tmp.PID.N`) are removed by the
//!   next write to the same destination, once their process is gone (or they are an hour
//!   old, for a reused process id).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

/// Marks a temporary file: `.NAME` + this + `PID.N`.
const TMP_MARK: &str = ".tracecheck-tmp.";
/// A temporary this old is stale whatever its process id says.
const STALE_AFTER: std::time::Duration = std::time::Duration::from_secs(3600);

/// The error for a refused destination; callers put the path in front of it.
fn refused(_path: &Path, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!("{why}; not written (tracecheck does not write through symbolic links or to special files)"),
    )
}

/// Errors unless `path` is absent or a regular file (not a symlink, not a device, FIFO,
/// directory or socket).
pub fn check_destination(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => Err(refused(path, "it is a symbolic link")),
        Ok(m) if !m.file_type().is_file() => Err(refused(path, "it is not a regular file")),
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e),
    }
}

fn dir_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn tmp_prefix(path: &Path) -> String {
    let base = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    format!(".{base}{TMP_MARK}")
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    (nanos as u64) ^ (COUNTER.fetch_add(1, Ordering::Relaxed) << 48)
}

/// A fresh temporary name for `path`, in its directory (removed by
/// [`remove_stale_temporaries`] once its process is gone).
pub fn temporary_for(path: &Path) -> PathBuf {
    dir_of(path).join(format!("{}{}.{:x}", tmp_prefix(path), std::process::id(), unique()))
}

/// Writes `bytes` to `path` atomically, refusing a symlink or special file at `path`.
pub fn write_file(path: &Path, bytes: &[u8]) -> io::Result<()> {
    check_destination(path)?;
    let dir = dir_of(path);
    remove_stale_temporaries(path);
    let tmp = temporary_for(path);
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o644)
            .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        // Checked again just before the rename: a link planted meanwhile is refused (the
        // rename itself would replace the link, not write through it).
        check_destination(path)?;
        std::fs::rename(&tmp, path)?;
        if let Ok(d) = File::open(&dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Opens a file for reading only if it is a regular file, without ever blocking: a FIFO,
/// a device or a socket named as a binary, a core's mapped file or a source file is refused
/// (`O_NONBLOCK` makes the open of a FIFO without a writer return at once; the check is on
/// the opened file, so it cannot be swapped in between).
pub fn open_regular(path: &Path) -> io::Result<File> {
    let f =
        OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY | libc::O_CLOEXEC).open(path)?;
    if !f.metadata()?.is_file() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
    }
    Ok(f)
}

/// Opens (creating it if needed) a lock file without following a symlink at its name.
pub fn open_lock(path: &Path) -> io::Result<File> {
    check_destination(path)?;
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o644)
        .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
        .open(path)
        .map_err(|e| if e.raw_os_error() == Some(libc::ELOOP) { refused(path, "it is a symbolic link") } else { e })
}

/// Whether the process that named a temporary is gone. Without `/proc` nobody is known to
/// be gone (only age makes a temporary stale then).
fn process_gone(pid: u32) -> bool {
    Path::new("/proc/self").exists() && !Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes the temporaries of `path` whose writer died (`kill -9`, power loss) before
/// renaming them. Only regular files with tracecheck's temporary name are touched.
pub fn remove_stale_temporaries(path: &Path) {
    let dir = dir_of(path);
    let prefix = tmp_prefix(path);
    let Ok(entries) = std::fs::read_dir(&dir) else { return };
    let now = std::time::SystemTime::now();
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(rest) = name.strip_prefix(&prefix) else { continue };
        let Some(pid) = rest.split('.').next().and_then(|p| p.parse::<u32>().ok()) else { continue };
        let Ok(m) = std::fs::symlink_metadata(e.path()) else { continue };
        if !m.file_type().is_file() {
            continue;
        }
        let old = m.modified().ok().and_then(|t| now.duration_since(t).ok()).is_some_and(|age| age > STALE_AFTER);
        if (pid != std::process::id() && process_gone(pid)) || old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

// ----- reading source files -----------------------------------------------------------

/// What became of one source file a frame names (`--with-source`, the TUI's Source pane).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceFile {
    /// Readable, inside a source directory: the canonical path and its text.
    Read(PathBuf, String),
    /// Exists but was not read: outside every source directory, under /proc, /sys or /dev,
    /// not a regular file, or too big.
    Refused(&'static str),
    NotFound,
}

/// Source files bigger than this are not read.
pub const SOURCE_MAX_BYTES: u64 = 16 << 20;

/// The source directories, canonical: `dirs`, or the current directory when empty.
/// Directories that do not exist are dropped.
pub fn source_roots(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let dirs = if dirs.is_empty() { vec![PathBuf::from(".")] } else { dirs.to_vec() };
    dirs.iter().filter_map(|d| d.canonicalize().ok()).collect()
}

/// Reads a frame's source file only from inside a source directory (`roots`, canonical, from
/// [`source_roots`]): the path (joined to each root when relative) is canonicalized, symlinks
/// and `..` resolved, and must still be inside a root; /proc, /sys and /dev are refused
/// whatever the roots; only a regular file is read, opened without blocking (a FIFO named
/// like a source file cannot hang the caller).
///
/// Build paths are mapped: when the path as printed is not found inside a root (a binary
/// built in `/home/ci/build/src/x.c`), its trailing components are tried under each root,
/// longest first (`ROOT/build/src/x.c`, `ROOT/src/x.c`, `ROOT/x.c`); the same checks apply.
pub fn find_source(file: &str, roots: &[PathBuf]) -> SourceFile {
    use std::path::Component;
    let p = Path::new(file);
    let mut candidates: Vec<PathBuf> =
        if p.is_absolute() { vec![p.to_path_buf()] } else { roots.iter().map(|r| r.join(p)).collect() };
    // Trailing components, longest first, only plain names (no `..`, no root).
    let parts: Vec<&std::ffi::OsStr> = p
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect();
    let skip_first = usize::from(!p.is_absolute());
    for k in skip_first..parts.len() {
        let tail: PathBuf = parts[k..].iter().collect();
        for r in roots {
            candidates.push(r.join(&tail));
        }
    }
    let mut refused = None;
    for (i, c) in candidates.iter().enumerate() {
        let Ok(real) = c.canonicalize() else { continue };
        // A mapped candidate is only a guess: its refusal does not hide the real reason.
        let mapped = i >= if p.is_absolute() { 1 } else { roots.len() };
        if ["/proc", "/sys", "/dev"].iter().any(|d| real.starts_with(d)) {
            refused = Some("a system file (/proc, /sys, /dev)");
            continue;
        }
        if !roots.iter().any(|r| real.starts_with(r)) {
            if !mapped {
                refused.get_or_insert("outside the source directories");
            }
            continue;
        }
        match read_regular(&real) {
            Ok(text) => return SourceFile::Read(real, text),
            Err(why) => {
                if !mapped || refused.is_none() {
                    refused = Some(why);
                }
            }
        }
    }
    refused.map(SourceFile::Refused).unwrap_or(SourceFile::NotFound)
}

fn read_regular(path: &Path) -> Result<String, &'static str> {
    use std::io::Read;
    let f = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY | libc::O_CLOEXEC)
        .open(path)
        .map_err(|_| "not readable")?;
    let m = f.metadata().map_err(|_| "not readable")?;
    if !m.is_file() {
        return Err("not a regular file");
    }
    if m.len() >= SOURCE_MAX_BYTES {
        return Err("over 16 MiB");
    }
    let mut bytes = Vec::new();
    f.take(SOURCE_MAX_BYTES).read_to_end(&mut bytes).map_err(|_| "not readable")?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tracecheck-fsutil-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn refuses_symlinks_and_special_files() {
        let d = dir("refuse");
        let target = d.join("target");
        std::fs::write(&target, b"keep").unwrap();
        let link = d.join("out.md");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = write_file(&link, b"x").unwrap_err();
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        let dangling = d.join("lock");
        std::os::unix::fs::symlink(d.join("nowhere"), &dangling).unwrap();
        assert!(open_lock(&dangling).unwrap_err().to_string().contains("symbolic link"));
        assert!(!d.join("nowhere").exists());
        assert!(write_file(&d, b"x").unwrap_err().to_string().contains("not a regular file"));
        write_file(&d.join("fine"), b"new").unwrap();
        assert_eq!(std::fs::read(d.join("fine")).unwrap(), b"new");
    }

    #[test]
    fn stale_temporaries_of_dead_processes_are_removed() {
        let d = dir("stale");
        let dest = d.join("x.json");
        // pid 0 is never a process's id; u32::MAX is beyond pid_max.
        let stale = d.join(format!(".x.json{TMP_MARK}{}.1", u32::MAX));
        let live = d.join(format!(".x.json{TMP_MARK}{}.2", std::process::id()));
        let other = d.join(format!(".y.json{TMP_MARK}{}.3", u32::MAX));
        for p in [&stale, &live, &other] {
            std::fs::write(p, b"t").unwrap();
        }
        write_file(&dest, b"v").unwrap();
        assert!(!stale.exists());
        assert!(live.exists(), "this process's own temporary is not stale");
        assert!(other.exists(), "another destination's temporaries are left alone");
    }

    #[test]
    fn source_build_paths_map_into_the_source_directory() {
        let d = dir("srcmap");
        std::fs::create_dir_all(d.join("proj/src")).unwrap();
        std::fs::write(d.join("proj/src/x.c"), "int x;\n").unwrap();
        std::fs::write(d.join("secret.c"), "secret\n").unwrap();
        let roots = source_roots(&[d.join("proj")]);
        let real = d.join("proj/src/x.c").canonicalize().unwrap();
        // A build path from another machine maps to ROOT/src/x.c.
        assert_eq!(find_source("/home/ci/build/src/x.c", &roots), SourceFile::Read(real.clone(), "int x;\n".into()));
        assert_eq!(find_source("build/src/x.c", &roots), SourceFile::Read(real, "int x;\n".into()));
        // Outside the root stays refused, mapped or not; /proc is never read.
        let outside = d.join("secret.c").display().to_string();
        assert_eq!(find_source(&outside, &roots), SourceFile::Refused("outside the source directories"));
        assert_eq!(find_source("../secret.c", &roots), SourceFile::Refused("outside the source directories"));
        assert_eq!(find_source("/proc/self/environ", &roots), SourceFile::Refused("a system file (/proc, /sys, /dev)"));
        assert_eq!(find_source("nothing/here.c", &roots), SourceFile::NotFound);
    }
}
