//! Reading the index: clusters with their counts, first/last seen, versions, best example
//! and top finding (`--list`, `--since`), one cluster or signature in detail (`--show`), in
//! text, JSON or markdown (a table ready for a tracking issue).

use super::db::{Db, DbError};
use super::sources::date_of;
use crate::report::markdown::{code, escape};
use crate::report::safe_line;
use rusqlite::params;
use std::collections::BTreeMap;
use std::io::{self, Write};

#[derive(Clone, Debug, serde::Serialize)]
pub struct Example {
    pub crash_id: i64,
    pub path: String,
    /// 1-based stop number in the input.
    pub stop: i64,
    pub quality: f64,
    pub quality_reasons: String,
    pub signature: String,
    pub signature_text: String,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct ClusterRow {
    /// Cluster id: the smallest signature id among its members.
    pub cluster: String,
    pub crash_type: String,
    pub count: usize,
    pub inputs: usize,
    /// Signature id → (readable form, crashes).
    pub signatures: BTreeMap<String, (String, usize)>,
    pub first_seen: Option<String>,
    pub last_seen: Option<String>,
    pub versions: Vec<String>,
    pub best: Example,
    /// `rule: message` of the best example's top finding.
    pub top_finding: Option<String>,
}

struct Row {
    crash_id: i64,
    signature: String,
    signature_text: String,
    cluster: Option<String>,
    crash_type: String,
    quality: f64,
    reasons: String,
    seen: Option<i64>,
    version: Option<String>,
    input_id: i64,
    path: String,
    stop: i64,
}

/// Every cluster with crashes seen at or after `since` (seconds), most crashes first.
pub fn clusters(db: &Db, since: Option<i64>) -> Result<Vec<ClusterRow>, DbError> {
    let e = |source| DbError::Sql { path: db.path.clone(), source };
    let mut st = db
        .conn
        .prepare(
            "SELECT c.id, c.signature_id, s.text, cl.cluster, c.crash_type, c.quality, c.quality_reasons, c.seen,
                    c.version, i.id, i.path, c.stop_index
             FROM crashes c JOIN signatures s ON s.id = c.signature_id JOIN inputs i ON i.id = c.input_id
             LEFT JOIN clusters cl ON cl.key_hash = c.key_hash
             WHERE ?1 IS NULL OR c.seen >= ?1
             ORDER BY c.id",
        )
        .map_err(e)?;
    let rows = st
        .query_map(params![since], |r| {
            Ok(Row {
                crash_id: r.get(0)?,
                signature: r.get(1)?,
                signature_text: r.get(2)?,
                cluster: r.get(3)?,
                crash_type: r.get(4)?,
                quality: r.get(5)?,
                reasons: r.get(6)?,
                seen: r.get(7)?,
                version: r.get(8)?,
                input_id: r.get(9)?,
                path: r.get(10)?,
                stop: r.get(11)?,
            })
        })
        .map_err(e)?;
    struct Acc {
        row: ClusterRow,
        inputs: std::collections::HashSet<i64>,
        first: Option<i64>,
        last: Option<i64>,
    }
    let mut acc: BTreeMap<String, Acc> = BTreeMap::new();
    for r in rows {
        let r = r.map_err(e)?;
        let cl = r.cluster.clone().unwrap_or_else(|| r.signature.clone());
        let ex = Example {
            crash_id: r.crash_id,
            path: r.path.clone(),
            stop: r.stop + 1,
            quality: r.quality,
            quality_reasons: r.reasons.clone(),
            signature: r.signature.clone(),
            signature_text: r.signature_text.clone(),
        };
        let a = acc.entry(cl.clone()).or_insert_with(|| Acc {
            row: ClusterRow {
                cluster: cl.clone(),
                crash_type: r.crash_type.clone(),
                count: 0,
                inputs: 0,
                signatures: BTreeMap::new(),
                first_seen: None,
                last_seen: None,
                versions: Vec::new(),
                best: ex.clone(),
                top_finding: None,
            },
            inputs: Default::default(),
            first: None,
            last: None,
        });
        a.row.count += 1;
        a.inputs.insert(r.input_id);
        let s = a.row.signatures.entry(r.signature.clone()).or_insert((r.signature_text.clone(), 0));
        s.1 += 1;
        if let Some(t) = r.seen {
            a.first = Some(a.first.map_or(t, |f| f.min(t)));
            a.last = Some(a.last.map_or(t, |l| l.max(t)));
        }
        if let Some(v) = &r.version
            && !a.row.versions.contains(v)
        {
            a.row.versions.push(v.clone());
        }
        // Best example: highest quality; on a tie the most recent.
        if r.quality > a.row.best.quality || (r.quality == a.row.best.quality && r.crash_id > a.row.best.crash_id) {
            a.row.best = ex;
        }
    }
    let mut out: Vec<ClusterRow> = Vec::with_capacity(acc.len());
    let mut finding =
        db.conn.prepare("SELECT rule, message FROM findings WHERE crash_id = ?1 ORDER BY rowid LIMIT 1").map_err(e)?;
    for (_, mut a) in acc {
        a.row.inputs = a.inputs.len();
        a.row.first_seen = a.first.map(date_of);
        a.row.last_seen = a.last.map(date_of);
        a.row.versions.sort();
        a.row.top_finding = finding
            .query_row([a.row.best.crash_id], |r| Ok(format!("{}: {}", r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .ok();
        out.push(a.row);
    }
    out.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.cluster.cmp(&b.cluster)));
    Ok(out)
}

/// Totals of the index.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Totals {
    pub inputs: i64,
    pub crashes: i64,
    pub signatures: i64,
    pub clusters: usize,
}

pub fn totals(db: &Db, clusters: usize) -> Result<Totals, DbError> {
    let e = |source| DbError::Sql { path: db.path.clone(), source };
    let q = |sql: &str| db.conn.query_row(sql, [], |r| r.get::<_, i64>(0)).map_err(e);
    Ok(Totals {
        inputs: q("SELECT COUNT(*) FROM inputs")?,
        crashes: q("SELECT COUNT(*) FROM crashes")?,
        signatures: q("SELECT COUNT(*) FROM signatures")?,
        clusters,
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutFormat {
    Text,
    Json,
    Markdown,
}

pub fn write_list(rows: &[ClusterRow], totals: &Totals, fmt: OutFormat, out: &mut dyn Write) -> io::Result<()> {
    match fmt {
        OutFormat::Json => {
            let doc = serde_json::json!({ "schema": "tracecheck-triage/1", "totals": totals, "clusters": rows });
            serde_json::to_writer(&mut *out, &doc)?;
            writeln!(out)
        }
        OutFormat::Text => {
            writeln!(
                out,
                "{} clusters, {} signatures, {} crashes in {} inputs",
                rows.len(),
                totals.signatures,
                totals.crashes,
                totals.inputs
            )?;
            for r in rows {
                writeln!(out)?;
                writeln!(
                    out,
                    "{}  {} crashes in {} inputs  {} .. {}  {}",
                    r.cluster,
                    r.count,
                    r.inputs,
                    r.first_seen.as_deref().unwrap_or("?"),
                    r.last_seen.as_deref().unwrap_or("?"),
                    if r.versions.is_empty() {
                        "-".to_string()
                    } else {
                        safe_line(&r.versions.join(", ")).into_owned()
                    }
                )?;
                writeln!(out, "  {}", safe_line(&r.best.signature_text))?;
                if r.signatures.len() > 1 {
                    for (id, (text, n)) in &r.signatures {
                        writeln!(out, "    {id} x{n}  {}", safe_line(text))?;
                    }
                }
                writeln!(
                    out,
                    "  best example: {} (stop {}, quality {:.2}{})",
                    safe_line(&r.best.path),
                    r.best.stop,
                    r.best.quality,
                    if r.best.quality_reasons.is_empty() {
                        String::new()
                    } else {
                        format!(": {}", safe_line(&r.best.quality_reasons))
                    }
                )?;
                if let Some(f) = &r.top_finding {
                    writeln!(out, "  top finding: {}", safe_line(f))?;
                }
            }
            Ok(())
        }
        OutFormat::Markdown => {
            writeln!(out, "{} clusters, {} crashes in {} inputs.\n", rows.len(), totals.crashes, totals.inputs)?;
            writeln!(out, "| Signature | Count | First seen | Last seen | Versions | Best example | Top finding |")?;
            writeln!(out, "|---|---:|---|---|---|---|---|")?;
            for r in rows {
                writeln!(
                    out,
                    "| {} {} | {} | {} | {} | {} | {} (stop {}, quality {:.2}) | {} |",
                    cell_code(&r.cluster),
                    cell_code(&r.best.signature_text),
                    r.count,
                    r.first_seen.as_deref().unwrap_or("?"),
                    r.last_seen.as_deref().unwrap_or("?"),
                    escape(&r.versions.join(", ")),
                    cell_code(&r.best.path),
                    r.best.stop,
                    r.best.quality,
                    r.top_finding.as_deref().map(escape).unwrap_or_default(),
                )?;
            }
            Ok(())
        }
    }
}

/// A code span safe inside a GitHub table cell (`|` escaped even inside code).
fn cell_code(s: &str) -> String {
    code(s).replace('|', "\\|")
}

/// One cluster (by cluster id, signature id, or a unique prefix of either) in detail.
pub fn show(db: &Db, wanted: &str, since: Option<i64>, fmt: OutFormat, out: &mut dyn Write) -> Result<bool, DbError> {
    let rows = clusters(db, since)?;
    let hits: Vec<&ClusterRow> = rows
        .iter()
        .filter(|r| r.cluster.starts_with(wanted) || r.signatures.keys().any(|s| s.starts_with(wanted)))
        .collect();
    let Some(r) = hits.first().copied() else { return Ok(false) };
    let e = |source| DbError::Sql { path: db.path.clone(), source };
    let mut st = db
        .conn
        .prepare(
            "SELECT position, function, normalized, file, line, meaningful FROM frames WHERE crash_id = ?1
             ORDER BY position",
        )
        .map_err(e)?;
    type FrameRow = (i64, Option<String>, Option<String>, Option<String>, Option<i64>, bool);
    let frames: Vec<FrameRow> = st
        .query_map([r.best.crash_id], |x| Ok((x.get(0)?, x.get(1)?, x.get(2)?, x.get(3)?, x.get(4)?, x.get(5)?)))
        .map_err(e)?
        .collect::<Result<_, _>>()
        .map_err(e)?;
    let mut st = db
        .conn
        .prepare("SELECT rule, severity, message, function FROM findings WHERE crash_id = ?1 ORDER BY rowid")
        .map_err(e)?;
    let findings: Vec<(String, String, String, Option<String>)> = st
        .query_map([r.best.crash_id], |x| Ok((x.get(0)?, x.get(1)?, x.get(2)?, x.get(3)?)))
        .map_err(e)?
        .collect::<Result<_, _>>()
        .map_err(e)?;
    let mut st = db
        .conn
        .prepare(
            "SELECT i.path, c.stop_index, c.quality, c.seen, c.signature_id FROM crashes c
             JOIN inputs i ON i.id = c.input_id LEFT JOIN clusters cl ON cl.key_hash = c.key_hash
             WHERE COALESCE(cl.cluster, c.signature_id) = ?1 AND (?2 IS NULL OR c.seen >= ?2) ORDER BY c.id",
        )
        .map_err(e)?;
    let members: Vec<(String, i64, f64, Option<i64>, String)> = st
        .query_map(params![r.cluster, since], |x| Ok((x.get(0)?, x.get(1)?, x.get(2)?, x.get(3)?, x.get(4)?)))
        .map_err(e)?
        .collect::<Result<_, _>>()
        .map_err(e)?;
    let io = DbError::Io;
    match fmt {
        OutFormat::Json => {
            let doc = serde_json::json!({
                "schema": "tracecheck-triage/1",
                "cluster": r,
                "best_frames": frames.iter().map(|f| serde_json::json!({
                    "position": f.0, "function": f.1, "normalized": f.2, "file": f.3, "line": f.4, "meaningful": f.5
                })).collect::<Vec<_>>(),
                "best_findings": findings.iter().map(|f| serde_json::json!({
                    "rule": f.0, "severity": f.1, "message": f.2, "function": f.3
                })).collect::<Vec<_>>(),
                "crashes": members.iter().map(|m| serde_json::json!({
                    "path": m.0, "stop": m.1 + 1, "quality": m.2, "seen": m.3.map(date_of), "signature": m.4
                })).collect::<Vec<_>>(),
            });
            serde_json::to_writer(&mut *out, &doc).map_err(|x| io(x.into()))?;
            writeln!(out).map_err(io)?;
        }
        OutFormat::Text | OutFormat::Markdown => {
            let md = fmt == OutFormat::Markdown;
            let t = |s: &str| if md { code(s) } else { safe_line(s).into_owned() };
            let h = if md { "### " } else { "" };
            (|| -> io::Result<()> {
                writeln!(out, "{h}cluster {} ({} crashes in {} inputs)", r.cluster, r.count, r.inputs)?;
                if md {
                    writeln!(out)?;
                }
                writeln!(out, "{}", if md { "signatures:\n" } else { "signatures:" })?;
                for (id, (text, n)) in &r.signatures {
                    writeln!(out, "{}{id} x{n}  {}", if md { "- " } else { "  " }, t(text))?;
                }
                writeln!(
                    out,
                    "{}best example: {} stop {} (quality {:.2}{})",
                    if md { "\n" } else { "" },
                    t(&r.best.path),
                    r.best.stop,
                    r.best.quality,
                    if r.best.quality_reasons.is_empty() {
                        String::new()
                    } else {
                        format!(
                            ": {}",
                            if md {
                                escape(&r.best.quality_reasons)
                            } else {
                                safe_line(&r.best.quality_reasons).into_owned()
                            }
                        )
                    }
                )?;
                if md {
                    writeln!(out, "\n```text")?;
                }
                for f in &frames {
                    let loc = match (&f.3, f.4) {
                        (Some(file), Some(l)) => format!(" at {}:{l}", safe_line(file)),
                        (Some(file), None) => format!(" at {}", safe_line(file)),
                        _ => String::new(),
                    };
                    let mark = if f.5 { "*" } else { " " };
                    // Inside the fence nothing is interpreted, but the fence must not be closable.
                    let name = safe_line(f.1.as_deref().unwrap_or("??")).replace("```", "'''");
                    writeln!(out, "  {mark}#{:<3} {name}{}", f.0, loc.replace("```", "'''"))?;
                }
                if md {
                    writeln!(out, "```")?;
                }
                if !findings.is_empty() {
                    writeln!(out, "{}findings:", if md { "\n" } else { "" })?;
                    for f in &findings {
                        let msg = if md { escape(&f.2) } else { safe_line(&f.2).into_owned() };
                        writeln!(out, "{}{} [{}] {msg}", if md { "- " } else { "  " }, f.0, f.1)?;
                    }
                }
                writeln!(out, "{}crashes:", if md { "\n" } else { "" })?;
                for m in &members {
                    writeln!(
                        out,
                        "{}{} stop {}  quality {:.2}  {}  {}",
                        if md { "- " } else { "  " },
                        t(&m.0),
                        m.1 + 1,
                        m.2,
                        m.3.map(date_of).unwrap_or_else(|| "?".into()),
                        m.4
                    )?;
                }
                if hits.len() > 1 {
                    writeln!(out, "({} more clusters match {}; give more of the id)", hits.len() - 1, t(wanted))?;
                }
                Ok(())
            })()
            .map_err(io)?;
        }
    }
    Ok(true)
}
