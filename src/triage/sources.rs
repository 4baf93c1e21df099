//! What `tracecheck triage` reads: files, directories (recursive, symlink loops cut), a list
//! of paths on standard input (`-`), and zip archives of CI logs, whose members are read in
//! memory with a bounded expansion (size and ratio), never extracted to disk.

use std::collections::HashSet;
use std::fs;
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

/// One input to triage.
#[derive(Clone, Debug)]
pub enum Source {
    File(PathBuf),
    /// Member `index` of a zip archive.
    ZipMember {
        zip: PathBuf,
        index: usize,
        name: String,
    },
}

#[derive(Clone, Debug)]
pub struct Item {
    /// The path shown and stored (`archive.zip!member.txt` for zip members).
    pub display: String,
    pub source: Source,
}

/// An input left out, with a clear reason (a line of the summary).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Skipped {
    pub display: String,
    pub reason: String,
}

#[derive(Clone, Copy, Debug)]
pub struct ReadLimits {
    /// Bytes of one input (file or zip member).
    pub max_input_bytes: u64,
    /// Uncompressed / compressed for a zip member (deflate tops out near 1032:1; text logs
    /// compress 5–50:1).
    pub max_zip_ratio: u64,
    /// Uncompressed bytes of all members of one archive.
    pub max_zip_total: u64,
    /// Members of one archive.
    pub max_zip_members: usize,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits { max_input_bytes: 256 << 20, max_zip_ratio: 250, max_zip_total: 4 << 30, max_zip_members: 100_000 }
    }
}

/// The bytes of one input and what the file system says about it.
pub struct Loaded {
    pub bytes: Vec<u8>,
    /// Seconds since the epoch (file mtime; a zip member's own modification time).
    pub mtime: Option<i64>,
}

fn display(p: &Path) -> String {
    crate::report::safe_line(&p.to_string_lossy()).into_owned()
}

/// Expands the command-line paths (`-` reads a list of paths from `stdin`, one a line) into
/// inputs, in a stable order, with the paths that cannot be read listed with their reason.
pub fn enumerate(paths: &[String], stdin: &mut dyn BufRead, limits: &ReadLimits) -> (Vec<Item>, Vec<Skipped>) {
    let mut items = Vec::new();
    let mut skipped = Vec::new();
    let mut seen_dirs = HashSet::new();
    let mut list = Vec::new();
    for p in paths {
        if p == "-" {
            let mut line = String::new();
            loop {
                line.clear();
                match stdin.read_line(&mut line) {
                    Ok(0) => break,
                    Ok(_) => {
                        let t = line.trim_end_matches(['\n', '\r']);
                        if !t.is_empty() {
                            list.push(PathBuf::from(t));
                        }
                    }
                    Err(e) => {
                        skipped.push(Skipped { display: "-".into(), reason: format!("standard input: {e}") });
                        break;
                    }
                }
            }
        } else {
            list.push(PathBuf::from(p));
        }
    }
    for p in list {
        walk(&p, &mut items, &mut skipped, &mut seen_dirs, limits, 0);
    }
    (items, skipped)
}

const MAX_DEPTH: usize = 64;

fn walk(
    p: &Path,
    items: &mut Vec<Item>,
    skipped: &mut Vec<Skipped>,
    seen: &mut HashSet<(u64, u64)>,
    limits: &ReadLimits,
    depth: usize,
) {
    use std::os::unix::fs::MetadataExt;
    let meta = match fs::metadata(p) {
        Ok(m) => m,
        Err(e) => {
            let reason = match fs::symlink_metadata(p) {
                Ok(l) if l.file_type().is_symlink() => format!("broken or looping symbolic link ({e})"),
                _ => format!("cannot read: {e}"),
            };
            skipped.push(Skipped { display: display(p), reason });
            return;
        }
    };
    if meta.is_dir() {
        if !seen.insert((meta.dev(), meta.ino())) {
            skipped.push(Skipped {
                display: display(p),
                reason: "directory already visited (symbolic link loop or repeated path)".into(),
            });
            return;
        }
        if depth >= MAX_DEPTH {
            skipped.push(Skipped { display: display(p), reason: format!("deeper than {MAX_DEPTH} directories") });
            return;
        }
        let mut entries: Vec<PathBuf> = match fs::read_dir(p) {
            Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
            Err(e) => {
                skipped.push(Skipped { display: display(p), reason: format!("cannot list directory: {e}") });
                return;
            }
        };
        entries.sort();
        let before = items.len();
        let skipped_before = skipped.len();
        for e in entries {
            walk(&e, items, skipped, seen, limits, depth + 1);
        }
        if items.len() == before && skipped.len() == skipped_before {
            skipped.push(Skipped { display: display(p), reason: "directory holds no files".into() });
        }
        return;
    }
    if !meta.is_file() {
        skipped.push(Skipped { display: display(p), reason: "not a regular file (device, socket or fifo)".into() });
        return;
    }
    if is_zip(p) {
        zip_members(p, items, skipped, limits);
    } else {
        items.push(Item { display: display(p), source: Source::File(p.to_path_buf()) });
    }
}

fn is_zip(p: &Path) -> bool {
    let mut magic = [0u8; 4];
    crate::fsutil::open_regular(p).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && magic == *b"PK\x03\x04"
}

fn zip_members(p: &Path, items: &mut Vec<Item>, skipped: &mut Vec<Skipped>, limits: &ReadLimits) {
    let archive = crate::fsutil::open_regular(p).map_err(|e| e.to_string()).and_then(|f| {
        zip::ZipArchive::new(io::BufReader::new(f)).map_err(|e| format!("not a readable zip archive: {e}"))
    });
    let mut archive = match archive {
        Ok(a) => a,
        Err(reason) => {
            skipped.push(Skipped { display: display(p), reason });
            return;
        }
    };
    let n = archive.len();
    if n > limits.max_zip_members {
        skipped.push(Skipped {
            display: display(p),
            reason: format!("zip archive with {n} members: only the first {} are read", limits.max_zip_members),
        });
    }
    let mut declared_total: u64 = 0;
    let mut any = false;
    for i in 0..n.min(limits.max_zip_members) {
        let Ok(m) = archive.by_index_raw(i) else {
            skipped.push(Skipped { display: format!("{}!#{i}", display(p)), reason: "unreadable zip entry".into() });
            continue;
        };
        if m.is_dir() {
            continue;
        }
        any = true;
        let name = crate::report::safe_line(&m.name().map(|n| n.into_owned()).unwrap_or_else(|_| format!("#{i}")))
            .into_owned();
        let shown = format!("{}!{name}", display(p));
        declared_total = declared_total.saturating_add(m.size());
        if declared_total > limits.max_zip_total {
            skipped.push(Skipped {
                display: shown,
                reason: format!(
                    "zip archive expands past {} bytes in total: this member and later ones skipped",
                    limits.max_zip_total
                ),
            });
            break;
        }
        items.push(Item { display: shown, source: Source::ZipMember { zip: p.to_path_buf(), index: i, name } });
    }
    if !any {
        skipped.push(Skipped { display: display(p), reason: "zip archive holds no files".into() });
    }
}

/// Reads one input under the limits. The error is the summary line's reason.
pub fn load(item: &Item, limits: &ReadLimits) -> Result<Loaded, String> {
    match &item.source {
        Source::File(p) => {
            let f = crate::fsutil::open_regular(p).map_err(|e| format!("cannot read: {e}"))?;
            let meta = f.metadata().map_err(|e| format!("cannot read: {e}"))?;
            if meta.len() > limits.max_input_bytes {
                return Err(format!("{} bytes: larger than the {} byte limit", meta.len(), limits.max_input_bytes));
            }
            let mut bytes = Vec::with_capacity(meta.len() as usize);
            f.take(limits.max_input_bytes + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read: {e}"))?;
            if bytes.len() as u64 > limits.max_input_bytes {
                return Err(format!("larger than the {} byte limit", limits.max_input_bytes));
            }
            use std::os::unix::fs::MetadataExt;
            Ok(Loaded { bytes, mtime: Some(meta.mtime()) })
        }
        Source::ZipMember { zip: zp, index, .. } => {
            let f = crate::fsutil::open_regular(zp).map_err(|e| format!("cannot read archive: {e}"))?;
            let mut archive =
                zip::ZipArchive::new(io::BufReader::new(f)).map_err(|e| format!("not a readable zip archive: {e}"))?;
            let m = archive.by_index(*index).map_err(|e| format!("cannot read zip member: {e}"))?;
            let compressed = m.compressed_size().max(1);
            let mtime = m.last_modified().and_then(zip_time);
            let cap =
                limits.max_input_bytes.min(compressed.saturating_mul(limits.max_zip_ratio).saturating_add(64 << 10));
            let mut bytes = Vec::with_capacity(m.size().min(cap) as usize);
            m.take(cap + 1).read_to_end(&mut bytes).map_err(|e| format!("cannot read zip member: {e}"))?;
            if bytes.len() as u64 > cap {
                return Err(if cap < limits.max_input_bytes {
                    format!(
                        "zip bomb: expands more than {}:1 ({compressed} compressed bytes); not read further",
                        limits.max_zip_ratio
                    )
                } else {
                    format!("larger than the {} byte limit when expanded", limits.max_input_bytes)
                });
            }
            Ok(Loaded { bytes, mtime })
        }
    }
}

fn zip_time(t: zip::DateTime) -> Option<i64> {
    let days = days_from_civil(i64::from(t.year()), u32::from(t.month()), u32::from(t.day()))?;
    Some(days * 86400 + i64::from(t.hour()) * 3600 + i64::from(t.minute()) * 60 + i64::from(t.second()))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> Option<i64> {
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    Some(era * 146097 + doe - 719468)
}

/// `YYYY-MM-DD` (UTC) of seconds since the epoch.
pub fn date_of(secs: i64) -> String {
    let z = secs.div_euclid(86400) + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Parses `YYYY-MM-DD` (optionally followed by `THH:MM[:SS]`, UTC) into seconds.
pub fn parse_date(s: &str) -> Option<i64> {
    let s = s.trim();
    let (date, time) = match s.split_once(['T', ' ']) {
        Some((d, t)) => (d, Some(t.trim_end_matches('Z'))),
        None => (s, None),
    };
    let mut it = date.split('-');
    let y: i64 = it.next()?.parse().ok()?;
    let m: u32 = it.next()?.parse().ok()?;
    let d: u32 = it.next()?.parse().ok()?;
    if it.next().is_some() {
        return None;
    }
    let mut secs = days_from_civil(y, m, d)? * 86400;
    if let Some(t) = time {
        let mut parts = t.split(':');
        let h: i64 = parts.next()?.parse().ok()?;
        let mi: i64 = parts.next().map(|x| x.parse().ok()).unwrap_or(Some(0))?;
        let sec: i64 = parts.next().map(|x| x.parse().ok()).unwrap_or(Some(0))?;
        if h > 23 || mi > 59 || sec > 60 {
            return None;
        }
        secs += h * 3600 + mi * 60 + sec;
    }
    Some(secs)
}

/// Why bytes are not a text log, if they are not: NUL bytes in the first 8 KB.
pub fn binary_reason(bytes: &[u8]) -> Option<String> {
    if bytes.starts_with(b"\x7fELF") {
        return Some("ELF file, not a text log (analyze a core with `tracecheck CORE --exe PROGRAM`)".into());
    }
    let head = &bytes[..bytes.len().min(8192)];
    memchr::memchr(0, head).map(|_| "binary file (NUL bytes), not a text log".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        assert_eq!(parse_date("1970-01-01"), Some(0));
        assert_eq!(parse_date("2026-12-01"), Some(1_796_083_200));
        assert_eq!(date_of(1_796_083_200), "2026-12-01");
        assert_eq!(parse_date("2024-02-29T12:00"), Some(parse_date("2024-02-29").unwrap() + 43200));
        assert_eq!(parse_date("2024-13-01"), None);
        assert_eq!(parse_date("yesterday"), None);
        for d in ["2000-02-29", "1999-12-31", "2100-03-01"] {
            assert_eq!(date_of(parse_date(d).unwrap()), d);
        }
    }
}
