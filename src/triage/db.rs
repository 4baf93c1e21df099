//! The triage index: one SQLite file (bundled SQLite, WAL mode), a schema version in
//! `PRAGMA user_version` with forward migrations, and every write in one transaction so a
//! `kill -9` at any moment leaves either the whole batch or none of it.

use super::cluster::{self, ClusterKey};
use super::record::CrashRecord;
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use std::path::Path;
use std::time::Duration;

/// The schema this build writes. A database with a higher `user_version` is refused.
pub const SCHEMA_VERSION: i64 = 2;

/// Migration `i` brings a database from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    // 0 -> 1: inputs, signatures, crashes, frames, findings.
    "CREATE TABLE inputs(
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL,
        content_hash TEXT NOT NULL UNIQUE,
        size INTEGER NOT NULL,
        mtime INTEGER,
        format TEXT NOT NULL,
        crash_count INTEGER NOT NULL,
        indexed_at INTEGER NOT NULL
    );
    CREATE TABLE signatures(
        id TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        crash_type TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE crashes(
        id INTEGER PRIMARY KEY,
        input_id INTEGER NOT NULL REFERENCES inputs(id),
        stop_index INTEGER NOT NULL,
        signature_id TEXT NOT NULL REFERENCES signatures(id),
        crash_type TEXT NOT NULL,
        culprit TEXT,
        quality REAL NOT NULL,
        quality_reasons TEXT NOT NULL,
        seen INTEGER,
        version TEXT,
        key_hash TEXT NOT NULL,
        key_frames TEXT NOT NULL,
        finding_keys TEXT NOT NULL,
        UNIQUE(input_id, stop_index)
    );
    CREATE INDEX crashes_signature ON crashes(signature_id);
    CREATE INDEX crashes_key ON crashes(key_hash);
    CREATE TABLE frames(
        crash_id INTEGER NOT NULL REFERENCES crashes(id),
        position INTEGER NOT NULL,
        function TEXT,
        normalized TEXT,
        file TEXT,
        line INTEGER,
        module TEXT,
        meaningful INTEGER NOT NULL,
        PRIMARY KEY(crash_id, position)
    ) WITHOUT ROWID;
    CREATE TABLE findings(
        crash_id INTEGER NOT NULL REFERENCES crashes(id),
        rule TEXT NOT NULL,
        severity TEXT NOT NULL,
        message TEXT NOT NULL,
        function TEXT
    );
    CREATE INDEX findings_crash ON findings(crash_id);",
    // 1 -> 2: clusters (per cluster key) and settings the signatures depend on.
    "CREATE TABLE clusters(
        key_hash TEXT PRIMARY KEY,
        cluster TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;",
];

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("{0}: is a symbolic link; tracecheck does not write through links (give the real path)")]
    Symlink(String),
    #[error(
        "{path}: written by a newer tracecheck (schema version {found}, this build knows up to {SCHEMA_VERSION}); \
         upgrade tracecheck or use another --db"
    )]
    Newer { path: String, found: i64 },
    #[error(
        "{path}: built with {found}-frame signatures, this run asks for {asked}; pass --frames {found} or use another --db"
    )]
    Frames { path: String, found: usize, asked: usize },
    #[error("writing output: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    NotFound(String),
    #[error("{path}: {source}")]
    Sql {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
}

pub struct Db {
    pub conn: Connection,
    pub path: String,
}

fn sql(path: &str) -> impl Fn(rusqlite::Error) -> DbError + '_ {
    move |source| DbError::Sql { path: path.to_string(), source }
}

impl Db {
    /// Opens (creating when missing) and migrates the index. Refuses a path that is a
    /// symbolic link (and the `-wal`/`-shm` beside it), and a newer schema.
    pub fn open(path: &Path) -> Result<Db, DbError> {
        let shown = crate::report::safe_line(&path.to_string_lossy()).into_owned();
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            if std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink()) {
                return Err(DbError::Symlink(crate::report::safe_line(&p.to_string_lossy()).into_owned()));
            }
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NOFOLLOW
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| match &e {
            rusqlite::Error::SqliteFailure(f, _) if f.extended_code == 1550 /* SQLITE_CANTOPEN_SYMLINK */ => {
                DbError::Symlink(shown.clone())
            }
            _ => DbError::Sql { path: shown.clone(), source: e },
        })?;
        let db = Db { conn, path: shown };
        db.setup()?;
        Ok(db)
    }

    fn setup(&self) -> Result<(), DbError> {
        let e = sql(&self.path);
        self.conn.busy_timeout(Duration::from_secs(60)).map_err(&e)?;
        // Check the version before anything writes: a newer file is left untouched.
        let v: i64 = self.conn.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(&e)?;
        if v > SCHEMA_VERSION {
            return Err(DbError::Newer { path: self.path.clone(), found: v });
        }
        // Switching a new file to WAL needs a moment alone with it; SQLite answers a second
        // process that races it with SQLITE_BUSY at once, without calling the busy handler.
        // Retry for as long as the busy timeout would have waited.
        let start = std::time::Instant::now();
        loop {
            match self.conn.query_row("PRAGMA journal_mode=WAL", [], |r| r.get::<_, String>(0)) {
                Ok(_) => break,
                Err(rusqlite::Error::SqliteFailure(f, _))
                    if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
                        && start.elapsed() < Duration::from_secs(60) =>
                {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(err) => return Err(e(err)),
            }
        }
        self.conn.execute_batch("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;").map_err(&e)?;
        self.migrate()
    }

    /// Applies the migrations past the file's version, each with its version bump in one
    /// immediate transaction (a second process waits, then sees the new version).
    fn migrate(&self) -> Result<(), DbError> {
        let e = sql(&self.path);
        loop {
            self.conn.execute_batch("BEGIN IMMEDIATE").map_err(&e)?;
            let v: i64 = match self.conn.query_row("PRAGMA user_version", [], |r| r.get(0)) {
                Ok(v) => v,
                Err(err) => {
                    let _ = self.conn.execute_batch("ROLLBACK");
                    return Err(e(err));
                }
            };
            if v > SCHEMA_VERSION {
                let _ = self.conn.execute_batch("ROLLBACK");
                return Err(DbError::Newer { path: self.path.clone(), found: v });
            }
            if v == SCHEMA_VERSION {
                self.conn.execute_batch("COMMIT").map_err(&e)?;
                return Ok(());
            }
            let step = format!("{}\nPRAGMA user_version = {};", MIGRATIONS[v as usize], v + 1);
            if let Err(err) = self.conn.execute_batch(&step) {
                let _ = self.conn.execute_batch("ROLLBACK");
                return Err(e(err));
            }
            self.conn.execute_batch("COMMIT").map_err(&e)?;
        }
    }

    /// Applies only the first `version` migrations (tests build old databases with it).
    #[doc(hidden)]
    pub fn create_at_version(path: &Path, version: i64) -> rusqlite::Result<()> {
        let conn = Connection::open(path)?;
        for (i, m) in MIGRATIONS.iter().enumerate().take(version as usize) {
            conn.execute_batch(&format!("BEGIN; {m}\nPRAGMA user_version = {}; COMMIT;", i + 1))?;
        }
        Ok(())
    }

    pub fn schema_version(&self) -> Result<i64, DbError> {
        self.conn.query_row("PRAGMA user_version", [], |r| r.get(0)).map_err(sql(&self.path))
    }

    /// Records (or checks) the number of frames signatures use: mixing two in one file would
    /// split every bug in two.
    pub fn check_frames(&self, n: usize) -> Result<(), DbError> {
        let e = sql(&self.path);
        self.conn
            .execute("INSERT OR IGNORE INTO meta(key, value) VALUES('signature_frames', ?1)", [n.to_string()])
            .map_err(&e)?;
        let found: String = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'signature_frames'", [], |r| r.get(0))
            .map_err(&e)?;
        let found: usize = found.parse().unwrap_or(0);
        if found != n {
            return Err(DbError::Frames { path: self.path.clone(), found, asked: n });
        }
        Ok(())
    }

    pub fn signature_frames(&self) -> Option<usize> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = 'signature_frames'", [], |r| r.get::<_, String>(0))
            .ok()
            .and_then(|s| s.parse().ok())
    }

    /// Content hashes already indexed.
    pub fn known_hashes(&self) -> Result<std::collections::HashSet<String>, DbError> {
        let e = sql(&self.path);
        let mut st = self.conn.prepare("SELECT content_hash FROM inputs").map_err(&e)?;
        let rows = st.query_map([], |r| r.get::<_, String>(0)).map_err(&e)?;
        rows.collect::<Result<_, _>>().map_err(e)
    }

    /// The path an input with this hash was indexed under.
    pub fn path_of_hash(&self, hash: &str) -> Option<String> {
        self.conn
            .query_row("SELECT path FROM inputs WHERE content_hash = ?1", [hash], |r| r.get(0))
            .optional()
            .ok()
            .flatten()
    }

    /// Writes a batch of analyzed inputs in one transaction. Returns, per input, `None` when
    /// written, or the path that already held the same content.
    pub fn insert_batch(&mut self, batch: &[NewInput]) -> Result<Vec<Option<String>>, DbError> {
        let e = sql(&self.path);
        let now =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(&e)?;
        let mut out = Vec::with_capacity(batch.len());
        {
            let mut ins_input = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO inputs(path, content_hash, size, mtime, format, crash_count, indexed_at)
                     VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                )
                .map_err(&e)?;
            let mut ins_sig = tx
                .prepare_cached("INSERT OR IGNORE INTO signatures(id, text, crash_type) VALUES(?1, ?2, ?3)")
                .map_err(&e)?;
            let mut ins_crash = tx
                .prepare_cached(
                    "INSERT INTO crashes(input_id, stop_index, signature_id, crash_type, culprit, quality,
                        quality_reasons, seen, version, key_hash, key_frames, finding_keys)
                     VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
                )
                .map_err(&e)?;
            let mut ins_frame = tx
                .prepare_cached(
                    "INSERT INTO frames(crash_id, position, function, normalized, file, line, module, meaningful)
                     VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )
                .map_err(&e)?;
            let mut ins_finding = tx
                .prepare_cached(
                    "INSERT INTO findings(crash_id, rule, severity, message, function) VALUES(?1, ?2, ?3, ?4, ?5)",
                )
                .map_err(&e)?;
            let mut find_path = tx.prepare_cached("SELECT path FROM inputs WHERE content_hash = ?1").map_err(&e)?;
            for inp in batch {
                let n = ins_input
                    .execute(params![
                        inp.path,
                        inp.hash,
                        inp.size as i64,
                        inp.mtime,
                        inp.format,
                        inp.records.len() as i64,
                        now
                    ])
                    .map_err(&e)?;
                if n == 0 {
                    let p: Option<String> = find_path.query_row([&inp.hash], |r| r.get(0)).optional().map_err(&e)?;
                    out.push(Some(p.unwrap_or_default()));
                    continue;
                }
                let input_id = tx.last_insert_rowid();
                for c in &inp.records {
                    ins_sig.execute(params![c.signature.id, c.signature.text, c.crash_type]).map_err(&e)?;
                    let key = c.cluster_key();
                    ins_crash
                        .execute(params![
                            input_id,
                            c.stop as i64,
                            c.signature.id,
                            c.crash_type,
                            c.culprit,
                            c.quality.score,
                            c.quality.reasons.join("; "),
                            inp.mtime,
                            c.version,
                            key_hash(&key),
                            c.key_frames.join("\n"),
                            c.finding_keys.join("\n"),
                        ])
                        .map_err(&e)?;
                    let crash_id = tx.last_insert_rowid();
                    for f in &c.frames {
                        ins_frame
                            .execute(params![
                                crash_id,
                                f.position,
                                f.function,
                                f.normalized,
                                f.file,
                                f.line,
                                f.module,
                                f.meaningful
                            ])
                            .map_err(&e)?;
                    }
                    for f in &c.findings {
                        ins_finding
                            .execute(params![crash_id, f.rule, f.severity, f.message, f.function])
                            .map_err(&e)?;
                    }
                }
                out.push(None);
            }
        }
        tx.commit().map_err(&e)?;
        Ok(out)
    }

    /// Recomputes the clusters from every distinct cluster key in the index, in one
    /// transaction. Returns notes (blocks too large to cluster).
    pub fn recluster(&mut self) -> Result<Vec<String>, DbError> {
        let e = sql(&self.path);
        let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(&e)?;
        let (hashes, keys) = {
            let mut st = tx
                .prepare(
                    "SELECT key_hash, crash_type, key_frames, finding_keys, MIN(signature_id) FROM crashes
                     GROUP BY key_hash ORDER BY key_hash",
                )
                .map_err(&e)?;
            let rows = st
                .query_map([], |r| {
                    let split = |s: String| -> Vec<String> {
                        if s.is_empty() { Vec::new() } else { s.split('\n').map(str::to_string).collect() }
                    };
                    Ok((
                        r.get::<_, String>(0)?,
                        ClusterKey {
                            crash_type: r.get(1)?,
                            frames: split(r.get(2)?),
                            findings: split(r.get(3)?),
                            signature: r.get(4)?,
                        },
                    ))
                })
                .map_err(&e)?;
            let mut hashes = Vec::new();
            let mut keys = Vec::new();
            for row in rows {
                let (h, k) = row.map_err(&e)?;
                hashes.push(h);
                keys.push(k);
            }
            (hashes, keys)
        };
        let (ids, notes) = cluster::cluster_ids(&keys);
        tx.execute("DELETE FROM clusters", []).map_err(&e)?;
        {
            let mut ins = tx.prepare("INSERT INTO clusters(key_hash, cluster) VALUES(?1, ?2)").map_err(&e)?;
            for (h, c) in hashes.iter().zip(&ids) {
                ins.execute([h, c]).map_err(&e)?;
            }
        }
        tx.commit().map_err(&e)?;
        Ok(notes)
    }

    /// Copies every input of `other` whose content is not indexed here (with its crashes,
    /// frames and findings) in one transaction; returns how many inputs were added.
    pub fn merge_from(&mut self, other: &Path) -> Result<usize, DbError> {
        let src = Db::open(other)?;
        let shown = src.path.clone();
        if let (Some(a), Some(b)) = (self.signature_frames(), src.signature_frames())
            && a != b
        {
            return Err(DbError::Frames { path: shown, found: b, asked: a });
        }
        drop(src);
        let e = sql(&self.path);
        self.conn.execute("ATTACH DATABASE ?1 AS src", [other.to_string_lossy().as_ref()]).map_err(&e)?;
        let result = (|| -> Result<usize, DbError> {
            let tx = self.conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate).map_err(&e)?;
            tx.execute_batch(
                "CREATE TEMP TABLE IF NOT EXISTS merge_new(content_hash TEXT PRIMARY KEY);
                 DELETE FROM merge_new;
                 INSERT INTO merge_new SELECT content_hash FROM src.inputs
                    WHERE content_hash NOT IN (SELECT content_hash FROM main.inputs);
                 INSERT OR IGNORE INTO main.meta SELECT * FROM src.meta;
                 INSERT INTO main.inputs(path, content_hash, size, mtime, format, crash_count, indexed_at)
                    SELECT path, content_hash, size, mtime, format, crash_count, indexed_at FROM src.inputs
                    WHERE content_hash IN (SELECT content_hash FROM merge_new) ORDER BY id;
                 INSERT OR IGNORE INTO main.signatures SELECT * FROM src.signatures;
                 INSERT INTO main.crashes(input_id, stop_index, signature_id, crash_type, culprit, quality,
                        quality_reasons, seen, version, key_hash, key_frames, finding_keys)
                    SELECT mi.id, sc.stop_index, sc.signature_id, sc.crash_type, sc.culprit, sc.quality,
                        sc.quality_reasons, sc.seen, sc.version, sc.key_hash, sc.key_frames, sc.finding_keys
                    FROM src.crashes sc JOIN src.inputs si ON sc.input_id = si.id
                    JOIN main.inputs mi ON mi.content_hash = si.content_hash
                    WHERE si.content_hash IN (SELECT content_hash FROM merge_new) ORDER BY sc.id;
                 INSERT INTO main.frames
                    SELECT mc.id, sf.position, sf.function, sf.normalized, sf.file, sf.line, sf.module, sf.meaningful
                    FROM src.frames sf JOIN src.crashes sc ON sf.crash_id = sc.id
                    JOIN src.inputs si ON sc.input_id = si.id
                    JOIN main.inputs mi ON mi.content_hash = si.content_hash
                    JOIN main.crashes mc ON mc.input_id = mi.id AND mc.stop_index = sc.stop_index
                    WHERE si.content_hash IN (SELECT content_hash FROM merge_new);
                 INSERT INTO main.findings(crash_id, rule, severity, message, function)
                    SELECT mc.id, sf.rule, sf.severity, sf.message, sf.function
                    FROM src.findings sf JOIN src.crashes sc ON sf.crash_id = sc.id
                    JOIN src.inputs si ON sc.input_id = si.id
                    JOIN main.inputs mi ON mi.content_hash = si.content_hash
                    JOIN main.crashes mc ON mc.input_id = mi.id AND mc.stop_index = sc.stop_index
                    WHERE si.content_hash IN (SELECT content_hash FROM merge_new) ORDER BY sf.rowid;",
            )
            .map_err(&e)?;
            let n: i64 = tx.query_row("SELECT COUNT(*) FROM merge_new", [], |r| r.get(0)).map_err(&e)?;
            tx.commit().map_err(&e)?;
            Ok(n as usize)
        })();
        let _ = self.conn.execute("DETACH DATABASE src", []);
        result
    }
}

/// An analyzed input ready to be written.
pub struct NewInput {
    pub path: String,
    pub hash: String,
    pub size: u64,
    pub mtime: Option<i64>,
    pub format: String,
    pub records: Vec<CrashRecord>,
}

/// The hash of what clustering compares, so crashes with equal keys are clustered once.
pub fn key_hash(k: &ClusterKey) -> String {
    let mut s = String::new();
    s.push_str(&k.crash_type);
    s.push('\u{1}');
    s.push_str(&k.frames.join("\n"));
    s.push('\u{1}');
    s.push_str(&k.findings.join("\n"));
    s.push('\u{1}');
    s.push_str(&k.signature);
    super::signature::short_hash(s.as_bytes())
}
