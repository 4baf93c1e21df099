//! Batch lookups for `tracecheck symbolize`: many addresses of one module at once.
//!
//! The addr2line crate's `Context` is built for one address at a time: it parses every
//! unit header, line-program header and unit range list up front, and for each unit it
//! touches it stores every line-table row and every function of the unit. That is the
//! right trade for a long-lived symbolizer (cores, traces), but for a batch of addresses
//! known in advance most of that work is wasted. Here, instead:
//!
//! - unit ranges come from `.debug_aranges` (one pass, no unit parsed); units missing from
//!   it fall back to their root DIE's ranges, as in the addr2line crate;
//! - the addresses are grouped by unit and each touched unit is visited once: one walk over
//!   its DIEs finds, for every address, the `DW_TAG_subprogram` holding it and the chain of
//!   `DW_TAG_inlined_subroutine`s, storing nothing for the other functions; one run of its
//!   line program finds every address's row, storing one sequence at a time. Both stop as
//!   soon as every address of the unit has its answer;
//! - names and file paths are read only for the DIEs and files that are printed;
//! - units are independent, so they are shared out between threads (biggest first).
//!
//! The answers are the addr2line crate's (and, on the benchmark binary, binutils'): same
//! rules for picking the function, the inlined chain, the line row, file-name rendering
//! and name resolution (`DW_AT_linkage_name`, `DW_AT_name`, `DW_AT_abstract_origin`,
//! `DW_AT_specification`). Where DWARF is ambiguous (overlapping functions or sequences),
//! the first one in the unit wins.

use super::dwarf::Slice;
use gimli::{AttributeValue, ReaderOffset, UnitOffset};
use rustc_hash::FxHashMap;
use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One level of an address's inlined-call chain, innermost first, as the addr2line crate
/// reports it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frame<'a> {
    /// Raw (mangled) name; `None` when DWARF names no function.
    pub name: Option<Cow<'a, str>>,
    pub file: Option<&'a str>,
    /// `None` for line 0 or unknown.
    pub line: Option<u32>,
}

type Header = gimli::UnitHeader<Slice>;
type Unit = gimli::Unit<Slice>;

/// Units of a module with their address ranges.
struct UnitIndex {
    headers: Vec<Header>,
    /// `.debug_info` offset of each header (sorted, as the headers).
    offsets: Vec<usize>,
}

impl UnitIndex {
    fn new(dwarf: &gimli::Dwarf<Slice>) -> Self {
        let mut headers = Vec::new();
        let mut offsets = Vec::new();
        let mut it = dwarf.units();
        while let Ok(Some(h)) = it.next() {
            let Some(off) = h.debug_info_offset() else { continue };
            if matches!(h.type_(), gimli::UnitType::Type { .. } | gimli::UnitType::SplitType { .. }) {
                continue;
            }
            offsets.push(off.0);
            headers.push(h);
        }
        UnitIndex { headers, offsets }
    }

    /// The unit that holds `.debug_info` offset `off`.
    fn containing(&self, off: usize) -> Option<usize> {
        let i = self.offsets.partition_point(|&o| o <= off).checked_sub(1)?;
        (off < self.offsets[i] + self.headers[i].length_including_self()).then_some(i)
    }
}

/// A candidate: unit `unit` covers the query through a range ending at `end`.
#[derive(Clone, Copy, Debug)]
struct Hit {
    query: u32,
    end: u64,
    unit: u32,
}

/// For each query (sorted addresses), the units whose ranges hold it, in the order the
/// addr2line crate tries them (by range end, then unit).
fn candidates(dwarf: &gimli::Dwarf<Slice>, units: &UnitIndex, qs: &[u64]) -> Vec<Hit> {
    let mut hits: Vec<Hit> = Vec::new();
    let add = |hits: &mut Vec<Hit>, unit: usize, r: gimli::Range| {
        if r.begin >= r.end {
            return;
        }
        let lo = qs.partition_point(|&a| a < r.begin);
        let hi = lo + qs[lo..].partition_point(|&a| a < r.end);
        for q in lo..hi {
            hits.push(Hit { query: q as u32, end: r.end, unit: unit as u32 });
        }
    };
    let mut covered = vec![false; units.headers.len()];
    let mut aranges = dwarf.debug_aranges.headers();
    while let Ok(Some(h)) = aranges.next() {
        let Ok(i) = units.offsets.binary_search(&h.debug_info_offset().0) else { continue };
        let mut entries = h.entries();
        loop {
            match entries.next() {
                Ok(Some(e)) => {
                    if e.length() != 0 {
                        covered[i] = true;
                        add(&mut hits, i, e.range());
                    }
                }
                Ok(None) => break,
                // As the addr2line crate: skip bad entries (address overflow), stop on others.
                Err(gimli::Error::AddressOverflow) => continue,
                Err(_) => break,
            }
        }
    }
    // Units .debug_aranges does not cover: their root DIE's ranges, else their line
    // program's sequences (as the addr2line crate).
    for (i, h) in units.headers.iter().enumerate() {
        if covered[i] || matches!(h.type_(), gimli::UnitType::Partial) {
            continue;
        }
        let Ok(unit) = dwarf.unit(*h) else { continue };
        let u = unit.unit_ref(dwarf);
        let mut any = false;
        if let Ok(Some(rs)) = root_ranges(u) {
            for r in rs {
                any |= r.begin < r.end;
                add(&mut hits, i, r);
            }
        }
        if !any && let Some(p) = unit.line_program.clone() {
            let mut rows = p.rows();
            let mut start = None;
            while let Ok(Some((_, row))) = rows.next_row() {
                if row.end_sequence() {
                    if let Some(s) = start.take() {
                        add(&mut hits, i, gimli::Range { begin: s, end: row.address() });
                    }
                } else if start.is_none() {
                    start = Some(row.address());
                }
            }
        }
    }
    hits.sort_unstable_by_key(|h| (h.query, h.end, h.unit));
    hits
}

/// The root DIE's ranges (`DW_AT_ranges`, else low/high pc).
fn root_ranges(u: gimli::UnitRef<'_, Slice>) -> gimli::Result<Option<Vec<gimli::Range>>> {
    let mut e = u.entries_raw(None)?;
    let Some(abbrev) = e.read_abbreviation()? else { return Ok(None) };
    let mut ra = RangeAttrs::default();
    for spec in abbrev.attributes() {
        let a = e.read_attribute(*spec)?;
        ra.take(u, &a)?;
    }
    let mut v = Vec::new();
    ra.for_each(u, |r| v.push(r))?;
    Ok(Some(v))
}

/// `DW_AT_low_pc`, `DW_AT_high_pc`, `DW_AT_ranges` of a DIE.
#[derive(Default)]
struct RangeAttrs {
    low: Option<u64>,
    high: Option<u64>,
    size: Option<u64>,
    ranges: Option<gimli::RangeListsOffset<usize>>,
}

impl RangeAttrs {
    #[inline]
    fn take(&mut self, u: gimli::UnitRef<'_, Slice>, a: &gimli::Attribute<Slice>) -> gimli::Result<()> {
        match a.name() {
            gimli::DW_AT_low_pc => match a.value() {
                AttributeValue::Addr(v) => self.low = Some(v),
                AttributeValue::DebugAddrIndex(i) => self.low = Some(u.address(i)?),
                _ => {}
            },
            gimli::DW_AT_high_pc => match a.value() {
                AttributeValue::Addr(v) => self.high = Some(v),
                AttributeValue::DebugAddrIndex(i) => self.high = Some(u.address(i)?),
                AttributeValue::Udata(v) => self.size = Some(v),
                _ => {}
            },
            gimli::DW_AT_ranges => self.ranges = u.attr_ranges_offset(a.value())?,
            _ => {}
        }
        Ok(())
    }

    /// Calls `f` with each non-empty range (the addr2line crate's `for_each_range`).
    fn for_each(&self, u: gimli::UnitRef<'_, Slice>, mut f: impl FnMut(gimli::Range)) -> gimli::Result<()> {
        let mut add = |r: gimli::Range| {
            if r.begin < r.end {
                f(r)
            }
        };
        if let Some(off) = self.ranges {
            let mut it = u.ranges(off)?;
            while let Some(r) = it.next()? {
                add(r);
            }
        } else if let (Some(begin), Some(end)) = (self.low, self.high) {
            add(gimli::Range { begin, end });
        } else if let (Some(begin), Some(size)) = (self.low, self.size) {
            add(gimli::Range { begin, end: begin.wrapping_add(size) });
        }
        Ok(())
    }
}

/// An inlined call on a query's chain.
#[derive(Clone, Copy, Debug)]
struct Inlined {
    die: UnitOffset<usize>,
    call_file: Option<u64>,
    call_line: u32,
}

/// What one unit says about one query.
#[derive(Default)]
struct Found {
    function: Option<UnitOffset<usize>>,
    /// Outermost first.
    chain: Vec<Inlined>,
    /// (file index, line) of the line-table row.
    row: Option<(u64, u32)>,
}

/// An open DIE on the walk: a subprogram or an inlined call whose children matter.
struct Open {
    depth: isize,
    /// `qbuf[start..end]`: the queries inside it.
    start: usize,
    end: usize,
    /// Inlined depth of its inlined children.
    child_depth: usize,
}

/// Finds, for the queries `qs` (sorted addresses) of one unit, the subprogram and the
/// inlined chain of each, visiting each DIE at most once and stopping when every query
/// has its function and no open DIE can add to a chain.
fn walk_functions(u: gimli::UnitRef<'_, Slice>, qs: &[u64], found: &mut [Found]) -> gimli::Result<()> {
    let mut left = qs.len();
    let mut e = u.entries_raw(None)?;
    let mut stack: Vec<Open> = Vec::new();
    let mut qbuf: Vec<u32> = Vec::new();
    let mut ranges: Vec<gimli::Range> = Vec::new();
    let v5 = u.header.version() >= 5;
    while !e.is_empty() {
        let depth = e.next_depth();
        let off = e.next_offset();
        while stack.last().is_some_and(|o| o.depth >= depth) {
            let o = stack.pop().unwrap_or_else(|| unreachable!());
            qbuf.truncate(o.start);
        }
        // Done when every query has its function and no open DIE holds a query.
        if left == 0 && stack.iter().all(|o| o.end == o.start) {
            break;
        }
        let Some(abbrev) = e.read_abbreviation()? else { continue };
        match abbrev.tag() {
            gimli::DW_TAG_subprogram => {
                let start = qbuf.len();
                if left == 0 {
                    e.skip_attributes(abbrev.attributes())?;
                } else {
                    let mut ra = RangeAttrs::default();
                    for spec in abbrev.attributes() {
                        let a = e.read_attribute(*spec)?;
                        ra.take(u, &a)?;
                    }
                    ranges.clear();
                    ra.for_each(u, |r| ranges.push(r))?;
                    for r in &ranges {
                        let lo = qs.partition_point(|&a| a < r.begin);
                        let hi = lo + qs[lo..].partition_point(|&a| a < r.end);
                        for (q, f) in found.iter_mut().enumerate().take(hi).skip(lo) {
                            if f.function.is_none() {
                                f.function = Some(off);
                                left -= 1;
                                qbuf.push(q as u32);
                            }
                        }
                    }
                    if qbuf.len() - start > 1 {
                        qbuf[start..].sort_unstable();
                    }
                }
                if abbrev.has_children() {
                    stack.push(Open { depth, start, end: qbuf.len(), child_depth: 0 });
                }
            }
            gimli::DW_TAG_inlined_subroutine if stack.last().is_some_and(|o| o.end > o.start) => {
                let (pstart, pend, idepth) = stack.last().map(|o| (o.start, o.end, o.child_depth)).unwrap_or_default();
                let mut ra = RangeAttrs::default();
                let mut call_file = None;
                let mut call_line = 0;
                for spec in abbrev.attributes() {
                    let a = e.read_attribute(*spec)?;
                    match a.name() {
                        gimli::DW_AT_call_file => {
                            if let AttributeValue::FileIndex(f) = a.value()
                                && (f > 0 || v5)
                            {
                                call_file = Some(f);
                            }
                        }
                        gimli::DW_AT_call_line => call_line = a.udata_value().unwrap_or(0) as u32,
                        _ => ra.take(u, &a)?,
                    }
                }
                ranges.clear();
                ra.for_each(u, |r| ranges.push(r))?;
                let start = qbuf.len();
                for i in pstart..pend {
                    let q = qbuf[i] as usize;
                    let a = qs[q];
                    if found[q].chain.len() == idepth && ranges.iter().any(|r| r.begin <= a && a < r.end) {
                        found[q].chain.push(Inlined { die: off, call_file, call_line });
                        qbuf.push(q as u32);
                    }
                }
                if abbrev.has_children() && qbuf.len() > start {
                    stack.push(Open { depth, start, end: qbuf.len(), child_depth: idepth + 1 });
                } else {
                    qbuf.truncate(start);
                }
            }
            _ => e.skip_attributes(abbrev.attributes())?,
        }
    }
    Ok(())
}

/// Runs the unit's line program and records, for each query, the row holding it: in the
/// first sequence that covers it, the last row at or below it (rows at the same address:
/// the last one). Stops when every query has a row.
fn walk_lines(program: gimli::IncompleteLineProgram<Slice>, qs: &[u64], found: &mut [Found]) -> gimli::Result<()> {
    let mut left = qs.len();
    let mut rows = program.rows();
    let mut seq: Vec<(u64, u64, u32)> = Vec::new();
    while let Some((_, row)) = rows.next_row()? {
        if !row.end_sequence() {
            let (address, file, line) = (row.address(), row.file_index(), row.line().map(|l| l.get() as u32).unwrap_or(0));
            match seq.last_mut() {
                Some(last) if last.0 == address => *last = (address, file, line),
                _ => seq.push((address, file, line)),
            }
            continue;
        }
        let end = row.address();
        if let Some(&(start, _, _)) = seq.first()
            && start < end
        {
            let lo = qs.partition_point(|&a| a < start);
            let hi = lo + qs[lo..].partition_point(|&a| a < end);
            for q in lo..hi {
                if found[q].row.is_some() {
                    continue;
                }
                let a = qs[q];
                let i = match seq.binary_search_by(|r| r.0.cmp(&a)) {
                    Ok(i) => i,
                    Err(0) => continue,
                    Err(i) => i - 1,
                };
                found[q].row = Some((seq[i].1, seq[i].2));
                left -= 1;
            }
            if left == 0 {
                break;
            }
        }
        seq.clear();
    }
    Ok(())
}

/// The addr2line crate's file-name rendering: compilation directory, then the file's
/// directory, then its name; an absolute component replaces what came before.
fn render_file(u: gimli::UnitRef<'_, Slice>, header: &gimli::LineProgramHeader<Slice>, index: u64) -> Option<String> {
    let Some(file) = header.file(index) else { return (index == 0).then(String::new) };
    let mut path = u.comp_dir.map(|d| d.to_string_lossy().into_owned()).unwrap_or_default();
    if file.directory_index() != 0
        && let Some(d) = file.directory(header)
    {
        path_push(&mut path, &u.attr_string(d).ok()?.to_string_lossy());
    }
    path_push(&mut path, &u.attr_string(file.path_name()).ok()?.to_string_lossy());
    Some(path)
}

fn path_push(path: &mut String, p: &str) {
    let fwd = |p: &str| p.starts_with('/') || p.get(1..3) == Some(":/");
    let back = |p: &str| p.starts_with('\\') || p.get(1..3) == Some(":\\");
    if fwd(p) || back(p) {
        *path = p.to_string();
    } else {
        let sep = if back(path) { '\\' } else { '/' };
        if !path.is_empty() && !path.ends_with(sep) {
            path.push(sep);
        }
        path.push_str(p);
    }
}

/// Names of DIEs (the addr2line crate's rules), with the units that references lead to.
struct Names<'d> {
    dwarf: &'d gimli::Dwarf<Slice>,
    units: &'d UnitIndex,
    /// Units opened to follow `DW_FORM_ref_addr` references.
    others: FxHashMap<usize, Option<Unit>>,
}

impl Names<'_> {
    /// The name of a subprogram or inlined call at `off`: its linkage name, else its name,
    /// else what its abstract origin or specification is called.
    fn function(&mut self, u: gimli::UnitRef<'_, Slice>, off: UnitOffset<usize>) -> gimli::Result<Option<Slice>> {
        let mut e = u.entries_raw(Some(off))?;
        let Some(abbrev) = e.read_abbreviation()? else { return Ok(None) };
        let mut name = None;
        for spec in abbrev.attributes() {
            let a = e.read_attribute(*spec)?;
            match a.name() {
                gimli::DW_AT_linkage_name | gimli::DW_AT_MIPS_linkage_name => {
                    if let Ok(v) = u.attr_string(a.value()) {
                        name = Some(v);
                    }
                }
                gimli::DW_AT_name if name.is_none() => name = u.attr_string(a.value()).ok(),
                gimli::DW_AT_abstract_origin | gimli::DW_AT_specification if name.is_none() => {
                    name = self.follow(u, a.value(), 16)?;
                }
                _ => {}
            }
        }
        Ok(name)
    }

    fn follow(&mut self, u: gimli::UnitRef<'_, Slice>, v: AttributeValue<Slice>, limit: usize) -> gimli::Result<Option<Slice>> {
        if limit == 0 {
            return Ok(None);
        }
        match v {
            AttributeValue::UnitRef(off) => self.entry(u, off, limit),
            AttributeValue::DebugInfoRef(dr) => {
                let Some(i) = self.units.containing(dr.0) else {
                    return Err(gimli::Error::NoEntryAtGivenOffset(dr.0 as u64));
                };
                let h = self.units.headers[i];
                let Some(off) = dr.to_unit_offset(&h) else {
                    return Err(gimli::Error::NoEntryAtGivenOffset(dr.0 as u64));
                };
                let dwarf = self.dwarf;
                self.others.entry(i).or_insert_with(|| dwarf.unit(h).ok());
                // Taken out while in use: the entry may lead to yet another unit.
                let Some(unit) = self.others.remove(&i).flatten() else {
                    return Err(gimli::Error::NoEntryAtGivenOffset(dr.0 as u64));
                };
                let r = self.entry(unit.unit_ref(dwarf), off, limit);
                self.others.insert(i, Some(unit));
                r
            }
            _ => Ok(None),
        }
    }

    fn entry(&mut self, u: gimli::UnitRef<'_, Slice>, off: UnitOffset<usize>, limit: usize) -> gimli::Result<Option<Slice>> {
        let mut e = u.entries_raw(Some(off))?;
        let Some(abbrev) = e.read_abbreviation()? else {
            return Err(gimli::Error::NoEntryAtGivenOffset(off.0.into_u64()));
        };
        let mut name = None;
        let mut next = None;
        for spec in abbrev.attributes() {
            let a = e.read_attribute(*spec)?;
            match a.name() {
                gimli::DW_AT_linkage_name | gimli::DW_AT_MIPS_linkage_name => {
                    if let Ok(v) = u.attr_string(a.value()) {
                        return Ok(Some(v));
                    }
                }
                gimli::DW_AT_name => {
                    if let Ok(v) = u.attr_string(a.value()) {
                        name = Some(v);
                    }
                }
                gimli::DW_AT_abstract_origin | gimli::DW_AT_specification => next = Some(a.value()),
                _ => {}
            }
        }
        if name.is_some() {
            return Ok(name);
        }
        match next {
            Some(n) => self.follow(u, n, limit - 1),
            None => Ok(None),
        }
    }
}

/// What a unit answered for a query.
enum Outcome<T> {
    /// A function or a line: the final answer.
    Answer(T),
    /// Nothing in this unit: try the next unit that covers the address.
    Nothing,
}

/// Resolves one unit's queries and formats each answer with `emit`.
fn do_unit<T>(
    names: &mut Names<'_>,
    unit: usize,
    qs: &[u64],
    emit: &(dyn Fn(u64, &[Frame<'_>]) -> T + Sync),
) -> Vec<Outcome<T>> {
    let dwarf = names.dwarf;
    let failed = || qs.iter().map(|&a| Outcome::Answer(emit(a, &[]))).collect();
    // As the addr2line crate: a unit that cannot be parsed is skipped; one that fails
    // midway fails the lookups (which then have no frames).
    let Ok(dw) = dwarf.unit(names.units.headers[unit]) else {
        return (0..qs.len()).map(|_| Outcome::Nothing).collect();
    };
    let u = dw.unit_ref(dwarf);
    let mut found: Vec<Found> = (0..qs.len()).map(|_| Found::default()).collect();
    if walk_functions(u, qs, &mut found).is_err() {
        return failed();
    }
    if let Some(p) = dw.line_program.clone()
        && walk_lines(p, qs, &mut found).is_err()
    {
        return failed();
    }
    let header = dw.line_program.as_ref().map(|p| p.header());
    let mut files: FxHashMap<u64, Option<String>> = FxHashMap::default();
    // The file index when the file has a name (rendered once per unit).
    let file = |files: &mut FxHashMap<u64, Option<String>>, i: u64| -> Option<u64> {
        let h = header?;
        files.entry(i).or_insert_with(|| render_file(u, h, i)).as_ref().map(|_| i)
    };
    let mut name_cache: FxHashMap<usize, Option<Slice>> = FxHashMap::default();
    let mut out = Vec::with_capacity(qs.len());
    // (name DIE, file index, line) per frame, innermost first; resolved below.
    type Planned = (Option<UnitOffset<usize>>, Option<u64>, Option<u32>);
    let mut plan: Vec<Planned> = Vec::new();
    for (f, &addr) in found.iter().zip(qs) {
        plan.clear();
        let (row_file, row_line) = match f.row {
            Some((fi, l)) => (file(&mut files, fi), (l != 0).then_some(l)),
            None => (None, None),
        };
        match f.function {
            None if f.row.is_none() => {
                out.push(Outcome::Nothing);
                continue;
            }
            None => plan.push((None, row_file, row_line)),
            Some(func) => {
                let (mut fi, mut li) = (row_file, row_line);
                for inl in f.chain.iter().rev() {
                    plan.push((Some(inl.die), fi, li));
                    fi = inl.call_file.and_then(|i| file(&mut files, i));
                    li = (inl.call_line != 0).then_some(inl.call_line);
                }
                plan.push((Some(func), fi, li));
            }
        }
        let mut bad = false;
        let mut frames: Vec<Frame<'_>> = Vec::with_capacity(plan.len());
        for &(die, fi, line) in &plan {
            let name = match die {
                Some(d) => match name_cache.get(&d.0) {
                    Some(n) => *n,
                    None => match names.function(u, d) {
                        Ok(n) => {
                            name_cache.insert(d.0, n);
                            n
                        }
                        Err(_) => {
                            bad = true;
                            break;
                        }
                    },
                },
                None => None,
            };
            let file = fi.and_then(|i| files.get(&i).and_then(|s| s.as_deref()));
            frames.push(Frame { name: name.map(|n| n.to_string_lossy()), file, line });
        }
        if bad {
            frames.clear();
        }
        out.push(Outcome::Answer(emit(addr, &frames)));
    }
    out
}

/// Resolves the sorted, distinct addresses `qs` and returns `emit`'s answer for each,
/// in order (`emit` gets the address and its frames: none when DWARF knows nothing of it).
/// `threads` workers share the units out (1 = on the calling thread).
pub fn resolve<T: Send>(
    dwarf: &gimli::Dwarf<Slice>,
    qs: &[u64],
    threads: usize,
    emit: &(dyn Fn(u64, &[Frame<'_>]) -> T + Sync),
) -> Vec<T> {
    let units = UnitIndex::new(dwarf);
    let hits = candidates(dwarf, &units, qs);
    // Candidates of query q: hits[first[q]..first[q + 1]].
    let mut first = vec![0usize; qs.len() + 1];
    for h in &hits {
        first[h.query as usize + 1] += 1;
    }
    for q in 0..qs.len() {
        first[q + 1] += first[q];
    }
    let mut next = first[..qs.len()].to_vec();
    let mut answers: Vec<Option<T>> = (0..qs.len()).map(|_| None).collect();
    let mut pending: Vec<u32> = (0..qs.len() as u32).collect();
    let mut threads = threads.max(1);
    while !pending.is_empty() {
        // (unit, query) for each pending query that still has a candidate.
        let mut work: Vec<(u32, u32)> = Vec::new();
        for &q in &pending {
            let qi = q as usize;
            if next[qi] < first[qi + 1] {
                work.push((hits[next[qi]].unit, q));
                next[qi] += 1;
            }
        }
        if work.is_empty() {
            break;
        }
        work.sort_unstable();
        // Jobs: one per unit, biggest first.
        let mut jobs: Vec<(usize, usize, usize)> = Vec::new(); // (unit, start, end) in work
        let mut i = 0;
        while i < work.len() {
            let u = work[i].0;
            let j = i + work[i..].partition_point(|w| w.0 == u);
            jobs.push((u as usize, i, j));
            i = j;
        }
        jobs.sort_by_key(|&(u, _, _)| std::cmp::Reverse(units.headers[u].length_including_self()));
        let job_qs: Vec<Vec<u64>> = jobs.iter().map(|&(_, s, e)| work[s..e].iter().map(|w| qs[w.1 as usize]).collect()).collect();
        let counter = AtomicUsize::new(0);
        let worker = || -> Vec<(usize, Vec<Outcome<T>>)> {
            let mut names = Names { dwarf, units: &units, others: FxHashMap::default() };
            let mut done = Vec::new();
            loop {
                let k = counter.fetch_add(1, Ordering::Relaxed);
                let Some(&(unit, _, _)) = jobs.get(k) else { break };
                done.push((k, do_unit(&mut names, unit, &job_qs[k], emit)));
            }
            done
        };
        let results: Vec<(usize, Vec<Outcome<T>>)> = if threads > 1 && jobs.len() > 1 {
            std::thread::scope(|s| {
                let hs: Vec<_> = (1..threads.min(jobs.len())).map(|_| s.spawn(worker)).collect();
                let mut all = worker();
                for h in hs {
                    if let Ok(v) = h.join() {
                        all.extend(v);
                    }
                }
                all
            })
        } else {
            worker()
        };
        pending.clear();
        for (k, outcomes) in results {
            let (_, s, _) = jobs[k];
            for (o, w) in outcomes.into_iter().zip(&work[s..]) {
                match o {
                    Outcome::Answer(t) => answers[w.1 as usize] = Some(t),
                    Outcome::Nothing => pending.push(w.1),
                }
            }
        }
        // Retries are rare and small: no threads for them.
        threads = 1;
    }
    answers.into_iter().zip(qs).map(|(a, &addr)| a.unwrap_or_else(|| emit(addr, &[]))).collect()
}
