//! The `tracecheck triage` command behind the argument parser in main.rs.

use super::db::{Db, DbError};
use super::query::{self, OutFormat};
use super::sources::{self, ReadLimits};
use super::{Summary, TriageOptions};
use crate::report::safe_line;
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// File name of the index when `--db` is not given.
pub const DEFAULT_DB: &str = "tracecheck-triage.sqlite";

#[derive(Clone, Debug)]
pub struct TriageCommand {
    pub paths: Vec<String>,
    pub db: Option<PathBuf>,
    pub list: bool,
    pub show: Option<String>,
    pub since: Option<String>,
    pub format: OutFormat,
    pub frames: usize,
    pub merge: Vec<PathBuf>,
    /// Worker threads (0: one per core).
    pub jobs: usize,
    pub max_input_bytes: u64,
    pub max_stops: usize,
}

/// Where the index goes: `--db`, else beside the inputs when a single directory is given,
/// else the current folder.
pub fn db_path(cmd: &TriageCommand) -> PathBuf {
    if let Some(p) = &cmd.db {
        return p.clone();
    }
    if let [one] = cmd.paths.as_slice()
        && one != "-"
        && Path::new(one).is_dir()
    {
        return Path::new(one).join(DEFAULT_DB);
    }
    PathBuf::from(DEFAULT_DB)
}

fn err(msg: &str) -> u8 {
    eprintln!("tracecheck: {}", safe_line(msg));
    2
}

/// Runs the command; returns the exit code (0, or 2 for a usage or database error).
pub fn run(cmd: TriageCommand) -> u8 {
    let since = match cmd.since.as_deref().map(|s| (s, sources::parse_date(s))) {
        Some((s, None)) => return err(&format!("--since {s}: expected a date as YYYY-MM-DD")),
        Some((_, Some(t))) => Some(t),
        None => None,
    };
    if cmd.jobs > 0 {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(cmd.jobs).build_global();
    }
    let path = db_path(&cmd);
    let reading_only = cmd.paths.is_empty() && cmd.merge.is_empty();
    if reading_only && !path.exists() {
        return err(&format!("{}: no triage index here (give inputs to build one, or --db FILE)", path.display()));
    }
    let mut db = match Db::open(&path) {
        Ok(d) => d,
        Err(e) => return err(&e.to_string()),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let summary = match do_writes(&cmd, &path, &mut db) {
        Ok(s) => s,
        Err(e) => return err(&e.to_string()),
    };
    let res = (|| -> Result<(), DbError> {
        if let Some(s) = &summary
            && cmd.format == OutFormat::Text
        {
            write_summary(s, &mut out)?;
        }
        if let Some(wanted) = &cmd.show {
            if !query::show(&db, wanted, since, cmd.format, &mut out)? {
                return Err(DbError::NotFound(format!("no cluster or signature {} in {}", safe_line(wanted), db.path)));
            }
            return Ok(());
        }
        let rows = query::clusters(&db, since)?;
        let totals = query::totals(&db, rows.len())?;
        if cmd.format == OutFormat::Json {
            let doc = serde_json::json!({
                "schema": "tracecheck-triage/1",
                "database": safe_line(&path.to_string_lossy()),
                "summary": summary,
                "totals": totals,
                "clusters": rows,
            });
            serde_json::to_writer(&mut out, &doc).map_err(io::Error::from)?;
            writeln!(out)?;
        } else {
            if summary.is_some() {
                writeln!(out)?;
            }
            query::write_list(&rows, &totals, cmd.format, &mut out)?;
        }
        Ok(())
    })();
    match res {
        Ok(()) => 0,
        // `tracecheck triage … | head`: the reader left; the index is written.
        Err(DbError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => err(&e.to_string()),
    }
}

fn do_writes(cmd: &TriageCommand, path: &Path, db: &mut Db) -> Result<Option<Summary>, DbError> {
    let mut summary: Option<Summary> = None;
    if !cmd.merge.is_empty() {
        let mut s = Summary::default();
        for m in &cmd.merge {
            match db.merge_from(m) {
                Ok(n) => {
                    s.inputs += n;
                    s.indexed += n;
                    s.notes.push(format!("merged {}: {n} new inputs", safe_line(&m.to_string_lossy())));
                }
                Err(e) => s.problems.push(sources::Skipped {
                    display: safe_line(&m.to_string_lossy()).into_owned(),
                    reason: format!("not merged: {e}"),
                }),
            }
        }
        s.notes.extend(db.recluster()?);
        summary = Some(s);
    }
    if !cmd.paths.is_empty() {
        let limits = ReadLimits { max_input_bytes: cmd.max_input_bytes, ..Default::default() };
        let stdin = io::stdin();
        let (mut items, skipped) = sources::enumerate(&cmd.paths, &mut stdin.lock(), &limits);
        // Never read the index itself (or its WAL) as an input.
        let own = index_files(path);
        items.retain(|it| match &it.source {
            sources::Source::File(p) => !same_file_any(p, &own),
            sources::Source::ZipMember { .. } => true,
        });
        let opts = TriageOptions {
            frames: cmd.frames,
            limits,
            parse_limits: crate::input::Limits { max_stops: cmd.max_stops, ..Default::default() },
            progress: io::stderr().is_terminal() && io::stdout().is_terminal(),
            ..Default::default()
        };
        let mut s = super::run(db, items, skipped, &opts)?;
        if let Some(prev) = summary {
            s.notes.extend(prev.notes);
            s.problems.extend(prev.problems);
        }
        summary = Some(s);
    } else if cmd.merge.is_empty() {
        // Reading only: signatures must match the index's.
        if let Some(n) = db.signature_frames()
            && n != cmd.frames
            && cmd.frames != super::signature::DEFAULT_FRAMES
        {
            return Err(DbError::Frames { path: db.path.clone(), found: n, asked: cmd.frames });
        }
    }
    Ok(summary)
}

fn index_files(path: &Path) -> Vec<PathBuf> {
    ["", "-wal", "-shm", "-journal"]
        .iter()
        .map(|s| {
            let mut p = path.as_os_str().to_owned();
            p.push(s);
            PathBuf::from(p)
        })
        .collect()
}

fn same_file_any(p: &Path, list: &[PathBuf]) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(m) = std::fs::metadata(p) else { return false };
    list.iter().any(|q| std::fs::metadata(q).is_ok_and(|n| n.dev() == m.dev() && n.ino() == m.ino()))
}

fn write_summary(s: &Summary, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "triage: {} inputs: {} indexed ({} crashes, {} without a crash), {} already indexed, {} duplicates, {} problems",
        s.inputs,
        s.indexed,
        s.crashes,
        s.without_crash,
        s.already_indexed,
        s.duplicates,
        s.problems.len()
    )?;
    for p in &s.problems {
        writeln!(out, "  {}: {}", safe_line(&p.display), safe_line(&p.reason))?;
    }
    for n in &s.notes {
        writeln!(out, "  note: {}", safe_line(n))?;
    }
    Ok(())
}
