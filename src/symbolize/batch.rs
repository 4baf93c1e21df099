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

type Header<'d> = gimli::UnitHeader<Slice<'d>>;
type Unit<'d> = gimli::Unit<Slice<'d>>;

/// Units of a module with their address ranges.
struct UnitIndex<'d> {
    headers: Vec<Header<'d>>,
    /// `.debug_info` offset of each header (sorted, as the headers).
    offsets: Vec<usize>,
}

impl<'d> UnitIndex<'d> {
    fn new(dwarf: &gimli::Dwarf<Slice<'d>>) -> Self {
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
fn candidates<'d>(dwarf: &gimli::Dwarf<Slice<'d>>, units: &UnitIndex<'d>, qs: &[u64]) -> Vec<Hit> {
    let mut hits: Vec<Hit> = Vec::new();
    // Index in `hits` of each query's latest hit: a unit's ranges come one after another, so
    // a unit that covers a query through several ranges gets one hit (the earliest end).
    let mut latest: Vec<usize> = vec![usize::MAX; qs.len()];
    let mut add = |hits: &mut Vec<Hit>, unit: usize, r: gimli::Range| {
        if r.begin >= r.end {
            return;
        }
        let mut q = qs.partition_point(|&a| a < r.begin);
        while qs.get(q).is_some_and(|&a| a < r.end) {
            match hits.get_mut(latest[q]) {
                Some(h) if h.unit == unit as u32 => h.end = h.end.min(r.end),
                _ => {
                    latest[q] = hits.len();
                    hits.push(Hit { query: q as u32, end: r.end, unit: unit as u32 });
                }
            }
            q += 1;
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
fn root_ranges<'d>(u: gimli::UnitRef<'_, Slice<'d>>) -> gimli::Result<Option<Vec<gimli::Range>>> {
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
    fn take<'d>(&mut self, u: gimli::UnitRef<'_, Slice<'d>>, a: &gimli::Attribute<Slice<'d>>) -> gimli::Result<()> {
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
    fn for_each<'d>(&self, u: gimli::UnitRef<'_, Slice<'d>>, mut f: impl FnMut(gimli::Range)) -> gimli::Result<()> {
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
    /// Where the function's range holding the query begins.
    begin: u64,
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

/// How to step over the attributes of one abbreviation without decoding them: fixed-size
/// runs are added up once, so most DIEs are skipped with one addition.
#[derive(Clone, Copy)]
struct Plan {
    kind: Kind,
    children: bool,
    /// Variable-size attributes (`steps[steps.0..steps.1]` of the walk's table).
    steps: (u32, u32),
    /// Fixed-size bytes after the last variable-size attribute (or in all).
    fixed: usize,
    /// Where a subprogram's pc range is.
    pc: Pc,
}

#[derive(Clone, Copy)]
enum Pc {
    /// At fixed places: `DW_AT_low_pc` (`DW_FORM_addr`) and `DW_AT_high_pc`, with the
    /// latter's size in bytes (negative: an address rather than a length).
    Fixed(usize, usize, i8),
    /// Nowhere (declarations, abstract instances): no `DW_AT_low_pc`, no `DW_AT_ranges`.
    None,
    /// Elsewhere: gimli reads the attributes.
    Decode,
}

/// What the walk does with a DIE.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Not built yet (a hole in the table).
    Unknown,
    Subprogram,
    Inlined,
    Other,
}

/// A variable-size attribute, after `before` bytes of fixed-size ones.
#[derive(Clone, Copy)]
struct Step {
    before: u32,
    op: Op,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Leb,
    Str,
    Block1,
    Block2,
    Block4,
    BlockLeb,
    /// A form this table does not know (`DW_FORM_indirect`, vendor forms): gimli skips
    /// the DIE.
    Gimli,
}

#[allow(non_upper_case_globals)]
fn form_size(form: gimli::DwForm, enc: gimli::Encoding) -> Option<usize> {
    use gimli::constants::*;
    let word = enc.format.word_size() as usize;
    Some(match form {
        DW_FORM_addr => enc.address_size as usize,
        DW_FORM_implicit_const | DW_FORM_flag_present => 0,
        DW_FORM_data1 | DW_FORM_flag | DW_FORM_strx1 | DW_FORM_ref1 | DW_FORM_addrx1 => 1,
        DW_FORM_data2 | DW_FORM_ref2 | DW_FORM_addrx2 | DW_FORM_strx2 => 2,
        DW_FORM_addrx3 | DW_FORM_strx3 => 3,
        DW_FORM_data4 | DW_FORM_ref_sup4 | DW_FORM_ref4 | DW_FORM_strx4 | DW_FORM_addrx4 => 4,
        DW_FORM_data8 | DW_FORM_ref8 | DW_FORM_ref_sig8 | DW_FORM_ref_sup8 => 8,
        DW_FORM_data16 => 16,
        DW_FORM_sec_offset | DW_FORM_GNU_ref_alt | DW_FORM_strp | DW_FORM_strp_sup | DW_FORM_GNU_strp_alt
        | DW_FORM_line_strp => word,
        DW_FORM_ref_addr if enc.version == 2 => enc.address_size as usize,
        DW_FORM_ref_addr => word,
        _ => return None,
    })
}

impl Plan {
    const UNKNOWN: Plan = Plan { kind: Kind::Unknown, children: false, steps: (0, 0), fixed: 0, pc: Pc::Decode };

    /// The plan of `a`; its variable steps are appended to `all`.
    #[allow(non_upper_case_globals)]
    fn new(a: &gimli::Abbreviation, enc: gimli::Encoding, all: &mut Vec<Step>) -> Plan {
        use gimli::constants::*;
        let mut steps = Vec::new();
        let mut run = 0usize;
        // Offset of the next attribute from the DIE's first attribute, while known.
        let mut at = Some(0usize);
        let (mut low, mut high, mut ranges, mut any_low) = (None, None, false, false);
        for spec in a.attributes() {
            let form = spec.form();
            any_low |= spec.name() == DW_AT_low_pc;
            match (spec.name(), at) {
                (DW_AT_low_pc, Some(o)) if form == DW_FORM_addr => low = Some(o),
                (DW_AT_high_pc, Some(o)) => {
                    high = match form {
                        DW_FORM_addr => Some((o, -(enc.address_size as i8))),
                        DW_FORM_data1 => Some((o, 1)),
                        DW_FORM_data2 => Some((o, 2)),
                        DW_FORM_data4 => Some((o, 4)),
                        DW_FORM_data8 => Some((o, 8)),
                        _ => None,
                    }
                }
                (DW_AT_ranges, _) => ranges = true,
                _ => {}
            }
            match form_size(form, enc) {
                Some(n) => {
                    run += n;
                    at = at.map(|o| o + n);
                }
                None => {
                    at = None;
                    let op = match form {
                        DW_FORM_udata
                        | DW_FORM_sdata
                        | DW_FORM_ref_udata
                        | DW_FORM_strx
                        | DW_FORM_GNU_str_index
                        | DW_FORM_addrx
                        | DW_FORM_GNU_addr_index
                        | DW_FORM_loclistx
                        | DW_FORM_rnglistx => Op::Leb,
                        DW_FORM_string => Op::Str,
                        DW_FORM_block1 => Op::Block1,
                        DW_FORM_block2 => Op::Block2,
                        DW_FORM_block4 => Op::Block4,
                        DW_FORM_block | DW_FORM_exprloc => Op::BlockLeb,
                        _ => Op::Gimli,
                    };
                    steps.push(Step { before: run as u32, op });
                    run = 0;
                }
            }
        }
        let fixed = run;
        let pc = match (low, high, ranges) {
            _ if !any_low && !ranges => Pc::None,
            (Some(l), Some((h, n)), false) => Pc::Fixed(l, h, n),
            _ => Pc::Decode,
        };
        let kind = match a.tag() {
            DW_TAG_subprogram => Kind::Subprogram,
            DW_TAG_inlined_subroutine => Kind::Inlined,
            _ => Kind::Other,
        };
        let first = all.len() as u32;
        all.extend(steps);
        Plan { kind, children: a.has_children(), steps: (first, all.len() as u32), fixed, pc }
    }
}

/// A bad DIE: the unit's lookups fail, as they would with the addr2line crate.
#[derive(Debug)]
struct Bad;

impl From<gimli::Error> for Bad {
    fn from(_: gimli::Error) -> Bad {
        Bad
    }
}

#[inline]
fn leb(d: &[u8], pos: &mut usize) -> Result<u64, Bad> {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = *d.get(*pos).ok_or(Bad)?;
        *pos += 1;
        if shift < 64 {
            v |= u64::from(b & 0x7f) << shift;
        }
        // (Saturating: a run of continuation bytes as long as the section must not overflow.)
        shift = (shift + 7).min(64);
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
}

#[inline]
fn uint(d: &[u8], pos: usize, n: usize, little: bool) -> Result<u64, Bad> {
    let b = d.get(pos..pos + n).ok_or(Bad)?;
    let mut v = 0u64;
    if little {
        for &x in b.iter().rev() {
            v = v << 8 | u64::from(x);
        }
    } else {
        for &x in b {
            v = v << 8 | u64::from(x);
        }
    }
    Ok(v)
}

/// Finds, for the queries `qs` (sorted addresses) of one unit, the subprogram and the
/// inlined chain of each, visiting each DIE at most once and stopping when every query
/// has its function and no open DIE can add to a chain.
///
/// DIEs are stepped over with [`Plan`]s straight from the section bytes; gimli decodes
/// only the subprograms that hold a query (or whose pc range is not at a fixed place)
/// and the inlined calls inside them.
///
/// `last_wins`: of several functions (or inlined calls at one depth) holding a query, the
/// one whose range begins last wins, and of those the last in the unit (what the addr2line
/// crate's binary search and gdb's block lookup give: glibc's `clone3.S` has three
/// subprograms with one range, and gdb names the last, `clone3`); the walk then reads the
/// whole unit. Otherwise the first in the unit wins and the walk stops early.
fn walk_functions<'d>(
    u: gimli::UnitRef<'_, Slice<'d>>,
    qs: &[u64],
    found: &mut [Found],
    last_wins: bool,
) -> Result<(), Bad> {
    use gimli::Section as _;
    let info = u.dwarf.debug_info.reader();
    let little = gimli::Endianity::is_little_endian(gimli::Reader::endian(info));
    let start = u.header.debug_info_offset().ok_or(Bad)?.0;
    let end = start.checked_add(u.header.length_including_self()).ok_or(Bad)?;
    let d = info.slice().get(start..end).ok_or(Bad)?;
    let enc = u.header.encoding();
    let v5 = enc.version >= 5;
    let mut plans: Vec<Plan> = Vec::new();
    let mut sparse: FxHashMap<u64, Plan> = FxHashMap::default();
    let mut steps: Vec<Step> = Vec::new();
    let mut left = qs.len();
    let mut pos = u.header.header_size();
    let mut depth: isize = 0;
    let mut stack: Vec<Open> = Vec::new();
    // Depth of the open DIE on top of `stack` (below any DIE when there is none).
    let mut top = isize::MIN;
    let mut qbuf: Vec<u32> = Vec::new();
    let mut ranges: Vec<gimli::Range> = Vec::new();
    while pos < d.len() {
        let off = UnitOffset(pos);
        let die_depth = depth;
        let b = d[pos];
        let code = if b < 0x80 {
            pos += 1;
            u64::from(b)
        } else {
            leb(d, &mut pos)?
        };
        if code == 0 {
            depth -= 1;
            continue;
        }
        // Codes are small and dense in practice; a table indexed by code, and a map for
        // the odd huge one (a damaged file's could ask for a giant table).
        let plan: &Plan = match usize::try_from(code) {
            Ok(c) if c < 1 << 16 => {
                if plans.get(c).is_none_or(|p| p.kind == Kind::Unknown) {
                    let a = u.abbreviations.get(code).ok_or(Bad)?;
                    if plans.len() <= c {
                        plans.resize(c + 1, Plan::UNKNOWN);
                    }
                    plans[c] = Plan::new(a, enc, &mut steps);
                }
                &plans[c]
            }
            _ => match sparse.entry(code) {
                std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(Plan::new(u.abbreviations.get(code).ok_or(Bad)?, enc, &mut steps))
                }
            },
        };
        if plan.children {
            depth += 1;
        }
        // The common case: a DIE that is neither a subprogram nor an inlined call, and
        // closes no open DIE.
        if plan.kind == Kind::Other && top < die_depth {
            skip(u, plan, &steps, d, &mut pos, off, little)?;
            continue;
        }
        while top >= die_depth {
            let o = stack.pop().ok_or(Bad)?;
            qbuf.truncate(o.start);
            top = stack.last().map_or(isize::MIN, |o| o.depth);
        }
        let owner = stack.last().filter(|o| o.end > o.start).map(|o| (o.start, o.end, o.child_depth));
        match plan.kind {
            Kind::Subprogram if left > 0 || last_wins => {
                let qstart = qbuf.len();
                ranges.clear();
                if let Pc::Fixed(lo_at, hi_at, n) = plan.pc {
                    // Fast path: the pc range at fixed places.
                    let low = uint(d, pos + lo_at, enc.address_size as usize, little)?;
                    let high = uint(d, pos + hi_at, n.unsigned_abs() as usize, little)?;
                    let r = gimli::Range { begin: low, end: if n < 0 { high } else { low.wrapping_add(high) } };
                    if r.begin < r.end {
                        ranges.push(r);
                    }
                    skip(u, plan, &steps, d, &mut pos, off, little)?;
                } else if let Pc::None = plan.pc {
                    skip(u, plan, &steps, d, &mut pos, off, little)?;
                } else {
                    let mut e = u.entries_raw(Some(off))?;
                    let a = e.read_abbreviation()?.ok_or(Bad)?;
                    let mut ra = RangeAttrs::default();
                    for spec in a.attributes() {
                        let at = e.read_attribute(*spec)?;
                        ra.take(u, &at)?;
                    }
                    pos = e.next_offset().0;
                    ra.for_each(u, |r| ranges.push(r))?;
                }
                for r in &ranges {
                    let lo = qs.partition_point(|&a| a < r.begin);
                    let hi = lo + qs[lo..].partition_point(|&a| a < r.end);
                    for (q, f) in found.iter_mut().enumerate().take(hi).skip(lo) {
                        if f.function.is_none() {
                            f.function = Some(off);
                            f.begin = r.begin;
                            left -= 1;
                            qbuf.push(q as u32);
                        } else if last_wins && r.begin >= f.begin && f.function != Some(off) {
                            f.function = Some(off);
                            f.begin = r.begin;
                            f.chain.clear();
                            qbuf.push(q as u32);
                        }
                    }
                }
                if qbuf.len() - qstart > 1 {
                    qbuf[qstart..].sort_unstable();
                }
                if plan.children {
                    stack.push(Open { depth: die_depth, start: qstart, end: qbuf.len(), child_depth: 0 });
                }
            }
            Kind::Inlined if owner.is_some() => {
                let (pstart, pend, idepth) = owner.unwrap_or_default();
                let mut e = u.entries_raw(Some(off))?;
                let a = e.read_abbreviation()?.ok_or(Bad)?;
                let mut ra = RangeAttrs::default();
                let mut call_file = None;
                let mut call_line = 0;
                for spec in a.attributes() {
                    let at = e.read_attribute(*spec)?;
                    match at.name() {
                        gimli::DW_AT_call_file => {
                            if let AttributeValue::FileIndex(f) = at.value()
                                && (f > 0 || v5)
                            {
                                call_file = Some(f);
                            }
                        }
                        gimli::DW_AT_call_line => call_line = at.udata_value().unwrap_or(0) as u32,
                        _ => ra.take(u, &at)?,
                    }
                }
                pos = e.next_offset().0;
                ranges.clear();
                ra.for_each(u, |r| ranges.push(r))?;
                let qstart = qbuf.len();
                for i in pstart..pend {
                    let q = qbuf[i] as usize;
                    let a = qs[q];
                    let at_depth = found[q].chain.len() == idepth || (last_wins && found[q].chain.len() > idepth);
                    if at_depth && ranges.iter().any(|r| r.begin <= a && a < r.end) {
                        found[q].chain.truncate(idepth);
                        found[q].chain.push(Inlined { die: off, call_file, call_line });
                        qbuf.push(q as u32);
                    }
                }
                if plan.children && qbuf.len() > qstart {
                    stack.push(Open { depth: die_depth, start: qstart, end: qbuf.len(), child_depth: idepth + 1 });
                } else {
                    qbuf.truncate(qstart);
                }
            }
            Kind::Subprogram => {
                // Nothing left to find, but its inlined calls are not its caller's.
                skip(u, plan, &steps, d, &mut pos, off, little)?;
                if plan.children {
                    stack.push(Open { depth: die_depth, start: qbuf.len(), end: qbuf.len(), child_depth: 0 });
                }
            }
            _ => skip(u, plan, &steps, d, &mut pos, off, little)?,
        }
        top = stack.last().map_or(isize::MIN, |o| o.depth);
        // Done when every query has its function and no open DIE holds a query.
        if left == 0 && !last_wins && stack.iter().all(|o| o.end == o.start) {
            break;
        }
    }
    Ok(())
}

/// Steps `pos` over the attributes of the DIE at `off` (whose code was just read).
#[inline(always)]
fn skip<'d>(
    u: gimli::UnitRef<'_, Slice<'d>>,
    plan: &Plan,
    steps: &[Step],
    d: &[u8],
    pos: &mut usize,
    off: UnitOffset<usize>,
    little: bool,
) -> Result<(), Bad> {
    let (a, b) = plan.steps;
    if a != b {
        for st in &steps[a as usize..b as usize] {
            *pos += st.before as usize;
            match st.op {
                Op::Leb => loop {
                    let x = *d.get(*pos).ok_or(Bad)?;
                    *pos += 1;
                    if x < 0x80 {
                        break;
                    }
                },
                Op::BlockLeb => {
                    let n = leb(d, pos)?;
                    *pos = pos.checked_add(usize::try_from(n).map_err(|_| Bad)?).ok_or(Bad)?;
                }
                Op::Str => *pos += memchr::memchr(0, d.get(*pos..).ok_or(Bad)?).ok_or(Bad)? + 1,
                Op::Block1 => *pos += 1 + uint(d, *pos, 1, little)? as usize,
                Op::Block2 => *pos += 2 + uint(d, *pos, 2, little)? as usize,
                Op::Block4 => *pos += 4 + uint(d, *pos, 4, little)? as usize,
                Op::Gimli => return skip_with_gimli(u, off, pos),
            }
        }
    }
    *pos += plan.fixed;
    Ok(())
}

/// Lets gimli step over the DIE at `off` (forms [`Plan`] does not know).
#[cold]
#[inline(never)]
fn skip_with_gimli<'d>(u: gimli::UnitRef<'_, Slice<'d>>, off: UnitOffset<usize>, pos: &mut usize) -> Result<(), Bad> {
    let mut e = u.entries_raw(Some(off))?;
    let a = e.read_abbreviation()?.ok_or(Bad)?;
    e.skip_attributes(a.attributes())?;
    *pos = e.next_offset().0;
    Ok(())
}

/// Why the fast line-program reader gave up.
enum LinesError {
    /// Damaged program: the unit's lookups fail (as with gimli).
    Bad,
    /// `DW_LNE_define_file`, which changes the file table: gimli runs the program instead.
    DefineFile,
}

/// Runs a line program straight from its bytes, with gimli's semantics (tombstone
/// sequences skipped, address overflow an error), and gives `sink` each row gimli's
/// `next_row` would return, until the sink says stop.
fn run_line_program<'d>(h: &gimli::LineProgramHeader<Slice<'d>>, sink: &mut impl Rows) -> Result<(), LinesError> {
    let prog = h.raw_program_buf();
    let little = gimli::Endianity::is_little_endian(gimli::Reader::endian(&prog));
    let d = prog.slice();
    let lengths = h.standard_opcode_lengths().slice();
    let enc = h.line_encoding();
    let (base, range) = (h.opcode_base(), enc.line_range);
    let (min_len, max_ops) =
        (u64::from(enc.minimum_instruction_length), u64::from(enc.maximum_operations_per_instruction));
    if range == 0 || max_ops == 0 {
        return Err(LinesError::Bad);
    }
    let asize = h.address_size();
    if !matches!(asize, 1 | 2 | 4 | 8) {
        return Err(LinesError::Bad);
    }
    let mask: u64 = !0 >> (64 - u32::from(asize) * 8);
    let min_tombstone = 0u64.wrapping_sub(2) & mask;
    let bad = |_| LinesError::Bad;
    // Registers (only those that matter here).
    let (mut address, mut op_index, mut file, mut line, mut tombstone) = (0u64, 0u64, 1u64, 1u64, false);
    let mut is_stmt = h.default_is_stmt();
    let advance = |address: &mut u64, op_index: &mut u64, tombstone: bool, adv: u64| -> Result<(), LinesError> {
        if tombstone {
            return Ok(());
        }
        let by = if max_ops == 1 {
            *op_index = 0;
            min_len.wrapping_mul(adv)
        } else {
            let o = op_index.wrapping_add(adv);
            *op_index = o % max_ops;
            min_len.wrapping_mul(o / max_ops)
        };
        let a = address.checked_add(by).ok_or(LinesError::Bad)?;
        if a & !mask != 0 {
            return Err(LinesError::Bad);
        }
        *address = a;
        Ok(())
    };
    // Special opcodes: (operation advance, line advance) by opcode.
    let mut special = [(0u64, 0i64); 256];
    for op in base..=255 {
        let adj = op - base;
        special[usize::from(op)] = (u64::from(adj / range), i64::from(enc.line_base) + i64::from(adj % range));
    }
    let mut pos = 0usize;
    while pos < d.len() {
        let op = d[pos];
        pos += 1;
        // Whether the instruction appends a row, and whether it ends the sequence.
        // (Opcode 0 is always an extended opcode, whatever the header says.)
        let (emit, end) = if op >= base && op != 0 {
            let (adv, step) = special[usize::from(op)];
            line = if step < 0 { line.saturating_sub(step.unsigned_abs()) } else { line.wrapping_add(step as u64) };
            if max_ops == 1 && !tombstone {
                op_index = 0;
                address =
                    address.checked_add(min_len.wrapping_mul(adv)).filter(|a| a & !mask == 0).ok_or(LinesError::Bad)?;
            } else {
                advance(&mut address, &mut op_index, tombstone, adv)?;
            }
            (true, false)
        } else if op == 0 {
            let len = leb(d, &mut pos).map_err(bad)?;
            let len = usize::try_from(len).map_err(|_| LinesError::Bad)?;
            let rest = d.get(pos..pos.checked_add(len).ok_or(LinesError::Bad)?).ok_or(LinesError::Bad)?;
            pos += len;
            match rest.first().copied() {
                None => return Err(LinesError::Bad),
                Some(1) => (true, true),
                Some(2) => {
                    let a = uint(rest, 1, usize::from(asize), little).map_err(bad)?;
                    tombstone = a < address || a >= min_tombstone;
                    if !tombstone {
                        address = a;
                        op_index = 0;
                    }
                    (false, false)
                }
                Some(3) if h.version() <= 4 => return Err(LinesError::DefineFile),
                Some(_) => (false, false),
            }
        } else {
            match op {
                1 => (true, false), // copy
                2 => {
                    let adv = leb(d, &mut pos).map_err(bad)?;
                    advance(&mut address, &mut op_index, tombstone, adv)?;
                    (false, false)
                }
                3 => {
                    let v = sleb(d, &mut pos).map_err(bad)?;
                    line = if v < 0 { line.saturating_sub(v.unsigned_abs()) } else { line.wrapping_add(v as u64) };
                    (false, false)
                }
                4 => {
                    file = leb(d, &mut pos).map_err(bad)?;
                    (false, false)
                }
                5 | 12 => {
                    leb(d, &mut pos).map_err(bad)?; // column, isa
                    (false, false)
                }
                6 => {
                    is_stmt = !is_stmt;
                    (false, false)
                }
                7 | 10 | 11 => (false, false), // basic_block, prologue_end, epilogue_begin
                8 => {
                    advance(&mut address, &mut op_index, tombstone, u64::from((255 - base) / range))?;
                    (false, false)
                }
                9 => {
                    let v = uint(d, pos, 2, little).map_err(bad)?;
                    pos += 2;
                    if !tombstone {
                        let a = address.checked_add(v).ok_or(LinesError::Bad)?;
                        if a & !mask != 0 {
                            return Err(LinesError::Bad);
                        }
                        address = a;
                        op_index = 0;
                    }
                    (false, false)
                }
                _ => {
                    // Unknown standard opcode: skip its LEB128 arguments.
                    let n = *lengths.get(usize::from(op) - 1).ok_or(LinesError::Bad)?;
                    for _ in 0..n {
                        leb(d, &mut pos).map_err(bad)?;
                    }
                    (false, false)
                }
            }
        };
        if emit {
            if !tombstone && !sink.row_stmt(address, file, line as u32, end, is_stmt) {
                return Ok(());
            }
            if end {
                (address, op_index, file, line, tombstone) = (0, 0, 1, 1, false);
                is_stmt = h.default_is_stmt();
            }
        }
    }
    Ok(())
}

#[inline]
fn sleb(d: &[u8], pos: &mut usize) -> Result<i64, Bad> {
    let mut v = 0i64;
    let mut shift = 0;
    loop {
        let b = *d.get(*pos).ok_or(Bad)?;
        *pos += 1;
        if shift < 64 {
            v |= i64::from(b & 0x7f) << shift;
        }
        // (Saturating: a run of continuation bytes as long as the section must not overflow.)
        shift = (shift + 7).min(64);
        if b & 0x80 == 0 {
            if shift < 64 && b & 0x40 != 0 {
                v |= -1i64 << shift;
            }
            return Ok(v);
        }
    }
}

/// The rows of the first sequence holding `vaddr` (address, file index, line, is_stmt),
/// read straight from the line program's bytes; `Some(None)` when no sequence holds it.
/// `None` when the program is damaged or defines files (the caller's gimli path decides).
pub(crate) fn sequence_rows(h: &gimli::LineProgramHeader<Slice<'_>>, vaddr: u64) -> Option<Option<Vec<LineRow>>> {
    struct Seq {
        vaddr: u64,
        rows: Vec<LineRow>,
        found: bool,
    }
    impl Rows for Seq {
        fn row(&mut self, address: u64, file: u64, line: u32, end: bool) -> bool {
            self.row_stmt(address, file, line, end, false)
        }
        fn row_stmt(&mut self, address: u64, file: u64, line: u32, end: bool, is_stmt: bool) -> bool {
            if !end {
                self.rows.push((address, file, line, is_stmt));
                return true;
            }
            if self.rows.first().is_some_and(|f| f.0 <= self.vaddr) && self.vaddr < address {
                self.found = true;
                return false;
            }
            self.rows.clear();
            true
        }
    }
    let mut seq = Seq { vaddr, rows: Vec::new(), found: false };
    run_line_program(h, &mut seq).ok()?;
    Some(seq.found.then_some(seq.rows))
}

/// A line-table row: address, file index, line, is_stmt.
pub(crate) type LineRow = (u64, u64, u32, bool);

/// Every sequence of a line program, each with its end row last (address, file index,
/// line, is_stmt). `None` when the program is damaged or defines files.
pub(crate) fn all_sequences(h: &gimli::LineProgramHeader<Slice<'_>>) -> Option<Vec<Vec<LineRow>>> {
    struct All(Vec<Vec<LineRow>>, Vec<LineRow>);
    impl Rows for All {
        fn row(&mut self, address: u64, file: u64, line: u32, end: bool) -> bool {
            self.row_stmt(address, file, line, end, false)
        }
        fn row_stmt(&mut self, address: u64, file: u64, line: u32, end: bool, is_stmt: bool) -> bool {
            self.1.push((address, file, line, is_stmt));
            if end {
                self.0.push(std::mem::take(&mut self.1));
            }
            true
        }
    }
    let mut all = All(Vec::new(), Vec::new());
    run_line_program(h, &mut all).ok()?;
    Some(all.0)
}

/// Where a line program's rows go.
trait Rows {
    /// One row (`end`: the end of a sequence); false to stop.
    fn row(&mut self, address: u64, file: u64, line: u32, end: bool) -> bool;
    /// The same with the row's `is_stmt` flag, for sinks that want it.
    #[inline]
    fn row_stmt(&mut self, address: u64, file: u64, line: u32, end: bool, _is_stmt: bool) -> bool {
        self.row(address, file, line, end)
    }
}

/// Takes a line program's rows and records, for each query, the row holding it: in the
/// first sequence that covers it, the last row at or below it (of rows at one address,
/// the last) -- what the addr2line crate's binary search over the stored rows finds.
/// Rows are not stored: a cursor over the sorted queries moves with them.
struct RowSink<'a> {
    qs: &'a [u64],
    found: &'a mut [Found],
    left: usize,
    /// First address of the running sequence.
    start: Option<u64>,
    /// Next query not yet given a row of the running sequence.
    next: usize,
    /// The last row seen (address, file, line).
    prev: (u64, u64, u32),
    /// Rows given to queries in the running sequence, kept until it proves valid.
    pending: Vec<(usize, u64, u32)>,
}

impl<'a> RowSink<'a> {
    fn new(qs: &'a [u64], found: &'a mut [Found]) -> Self {
        let left = found.iter().filter(|f| f.row.is_none()).count();
        RowSink { qs, found, left, start: None, next: 0, prev: (0, 0, 0), pending: Vec::new() }
    }

    /// Queries below `end` from the cursor on get the previous row.
    #[inline]
    fn give_prev(&mut self, end: u64) {
        while let Some(&a) = self.qs.get(self.next) {
            if a >= end {
                break;
            }
            self.pending.push((self.next, self.prev.1, self.prev.2));
            self.next += 1;
        }
    }
}

impl Rows for RowSink<'_> {
    /// False when every query has its row.
    #[inline]
    fn row(&mut self, address: u64, file: u64, line: u32, end: bool) -> bool {
        if !end {
            match self.start {
                None => {
                    self.start = Some(address);
                    self.next = self.qs.partition_point(|&a| a < address);
                    self.pending.clear();
                }
                Some(_) if address == self.prev.0 => {}
                Some(_) => self.give_prev(address),
            }
            self.prev = (address, file, line);
            return true;
        }
        if let Some(start) = self.start.take()
            && start < address
        {
            self.give_prev(address);
            for &(q, file, line) in &self.pending {
                let f = &mut self.found[q];
                if f.row.is_none() {
                    f.row = Some((file, line));
                    self.left -= 1;
                }
            }
            if self.left == 0 {
                return false;
            }
        }
        self.pending.clear();
        true
    }
}

/// Runs the unit's line program for the queries' rows (see [`RowSink`]).
fn walk_lines<'d>(
    program: &gimli::IncompleteLineProgram<Slice<'d>>,
    qs: &[u64],
    found: &mut [Found],
) -> Result<(), Bad> {
    match run_line_program(program.header(), &mut RowSink::new(qs, found)) {
        Ok(()) => Ok(()),
        Err(LinesError::Bad) => Err(Bad),
        Err(LinesError::DefineFile) => {
            // Rare (DWARF 2-4 only): let gimli run it, file table and all.
            for f in found.iter_mut() {
                f.row = None;
            }
            let mut sink = RowSink::new(qs, found);
            let mut rows = program.clone().rows();
            while let Some((_, row)) = rows.next_row()? {
                let line = row.line().map(|l| l.get() as u32).unwrap_or(0);
                if !sink.row(row.address(), row.file_index(), line, row.end_sequence()) {
                    break;
                }
            }
            Ok(())
        }
    }
}

/// The addr2line crate's file-name rendering: compilation directory, then the file's
/// directory, then its name; an absolute component replaces what came before.
fn render_file<'d>(
    u: gimli::UnitRef<'_, Slice<'d>>,
    header: &gimli::LineProgramHeader<Slice<'d>>,
    index: u64,
) -> Option<String> {
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
struct Names<'d, 'i> {
    dwarf: &'d gimli::Dwarf<Slice<'d>>,
    units: &'i UnitIndex<'d>,
    /// Units opened to follow `DW_FORM_ref_addr` references.
    others: FxHashMap<usize, Option<Unit<'d>>>,
    /// Name a Rust closure as gdb does (`main::{closure#0}`, from its DIE's name) instead of
    /// by its legacy linkage name (`main::{{closure}}`): for the frames shown to a user, not
    /// for the raw names `addr2line` mode prints.
    gdb_closures: bool,
}

impl<'d> Names<'d, '_> {
    /// The name of a subprogram or inlined call at `off`: its linkage name, else its name,
    /// else what its abstract origin or specification is called.
    fn function(
        &mut self,
        u: gimli::UnitRef<'_, Slice<'d>>,
        off: UnitOffset<usize>,
    ) -> gimli::Result<Option<Slice<'d>>> {
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

    /// The `DW_AT_name` of a subprogram or inlined call at `off` (or of its abstract origin
    /// or specification), ignoring linkage names.
    fn plain_name(
        &mut self,
        u: gimli::UnitRef<'_, Slice<'d>>,
        off: UnitOffset<usize>,
    ) -> gimli::Result<Option<Slice<'d>>> {
        let mut off = off;
        // A few abstract-origin steps (a cycle in damaged DWARF ends here too).
        for _ in 0..8 {
            let mut e = u.entries_raw(Some(off))?;
            let Some(abbrev) = e.read_abbreviation()? else { return Ok(None) };
            let mut next = None;
            for spec in abbrev.attributes() {
                let a = e.read_attribute(*spec)?;
                match a.name() {
                    gimli::DW_AT_name => return Ok(u.attr_string(a.value()).ok()),
                    gimli::DW_AT_abstract_origin | gimli::DW_AT_specification => next = Some(a.value()),
                    _ => {}
                }
            }
            match next {
                Some(AttributeValue::UnitRef(o)) => off = o,
                _ => return Ok(None),
            }
        }
        Ok(None)
    }

    fn follow(
        &mut self,
        u: gimli::UnitRef<'_, Slice<'d>>,
        v: AttributeValue<Slice<'d>>,
        limit: usize,
    ) -> gimli::Result<Option<Slice<'d>>> {
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

    fn entry(
        &mut self,
        u: gimli::UnitRef<'_, Slice<'d>>,
        off: UnitOffset<usize>,
        limit: usize,
    ) -> gimli::Result<Option<Slice<'d>>> {
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
fn do_unit<'d, T>(
    names: &mut Names<'d, '_>,
    unit: usize,
    qs: &[u64],
    emit: &(dyn Fn(u64, &[Frame<'_>]) -> T + Sync),
    last_wins: bool,
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
    if walk_functions(u, qs, &mut found, last_wins).is_err() {
        return failed();
    }
    if let Some(p) = &dw.line_program
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
    let mut name_cache: FxHashMap<usize, Option<Slice<'d>>> = FxHashMap::default();
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
            let mut name = name.map(|n| n.to_string_lossy());
            // A Rust closure's legacy symbol has no index (`main::{{closure}}`); its DIE's
            // name has it (`{closure#0}`), and gdb names the closure so.
            if let (Some(n), Some(d)) = (&name, die)
                && names.gdb_closures
                && n.starts_with("_ZN")
                && let Some(head) = super::demangle::demangle(n).strip_suffix("{{closure}}").map(str::to_string)
                && let Ok(Some(plain)) = names.plain_name(u, d)
                && let plain = plain.to_string_lossy()
                && plain.starts_with("{closure#")
            {
                name = Some(Cow::Owned(format!("{head}{plain}")));
            }
            frames.push(Frame { name, file, line });
        }
        if bad {
            frames.clear();
        }
        out.push(Outcome::Answer(emit(addr, &frames)));
    }
    out
}

/// (name, file, line) of one level of [`frames_in_unit`]'s answer.
pub type OwnedFrame = (Option<String>, Option<String>, Option<u32>);

/// The frames of `addr` in the unit at `.debug_info` offset `unit_offset`, for a lookup that
/// has already found its unit (through `.debug_aranges`) and read no other. `None` when the
/// unit knows nothing of the address or could not be read to the end (a reference into a
/// unit past the part of `.debug_info` in `dwarf`, damaged DWARF): the caller then asks the
/// whole-file path.
pub(crate) fn frames_in_unit<'d>(
    dwarf: &'d gimli::Dwarf<Slice<'d>>,
    unit_offset: usize,
    addr: u64,
) -> Option<Vec<OwnedFrame>> {
    // The unit alone first; every unit in `dwarf` only when a name is in another one
    // (`DW_FORM_ref_addr`), which failed the first try.
    let header = dwarf.debug_info.header_from_offset(gimli::DebugInfoOffset(unit_offset)).ok()?;
    let alone = UnitIndex { headers: vec![header], offsets: vec![unit_offset] };
    if let Some(f) = frames_with(dwarf, &alone, 0, addr) {
        return Some(f);
    }
    let units = UnitIndex::new(dwarf);
    let unit = units.offsets.binary_search(&unit_offset).ok()?;
    frames_with(dwarf, &units, unit, addr)
}

/// [`frames_in_unit`]'s first try (the unit alone) for several addresses of one unit in one
/// walk: for each of `addrs` (sorted, distinct), its frames, or `None` where the unit alone
/// does not answer (the caller then asks [`frames_in_unit`], which also tries the other
/// units). Each address gets what a walk for it alone gives (the walk resolves every address
/// on its own); a unit that fails midway answers none.
pub(crate) fn frames_in_unit_many<'d>(
    dwarf: &'d gimli::Dwarf<Slice<'d>>,
    unit_offset: usize,
    addrs: &[u64],
) -> Vec<Option<Vec<OwnedFrame>>> {
    let Ok(header) = dwarf.debug_info.header_from_offset(gimli::DebugInfoOffset(unit_offset)) else {
        return vec![None; addrs.len()];
    };
    let alone = UnitIndex { headers: vec![header], offsets: vec![unit_offset] };
    let mut names = Names { dwarf, units: &alone, others: FxHashMap::default(), gdb_closures: true };
    let emit = |_: u64, frames: &[Frame<'_>]| -> Vec<OwnedFrame> {
        frames.iter().map(|f| (f.name.as_deref().map(str::to_string), f.file.map(str::to_string), f.line)).collect()
    };
    do_unit(&mut names, 0, addrs, &emit, true)
        .into_iter()
        .map(|o| match o {
            Outcome::Answer(frames) if !frames.is_empty() => Some(frames),
            _ => None,
        })
        .collect()
}

fn frames_with<'d>(
    dwarf: &'d gimli::Dwarf<Slice<'d>>,
    units: &UnitIndex<'d>,
    unit: usize,
    addr: u64,
) -> Option<Vec<OwnedFrame>> {
    let mut names = Names { dwarf, units, others: FxHashMap::default(), gdb_closures: true };
    let emit = |_: u64, frames: &[Frame<'_>]| -> Vec<OwnedFrame> {
        frames.iter().map(|f| (f.name.as_deref().map(str::to_string), f.file.map(str::to_string), f.line)).collect()
    };
    match do_unit(&mut names, unit, &[addr], &emit, true).pop()? {
        // An answer is never empty unless the unit failed midway (see `do_unit`).
        Outcome::Answer(frames) if !frames.is_empty() => Some(frames),
        _ => None,
    }
}

/// Resolves the sorted, distinct addresses `qs` and returns `emit`'s answer for each,
/// in order (`emit` gets the address and its frames: none when DWARF knows nothing of it).
/// `threads` workers share the units out (1 = on the calling thread).
pub fn resolve<'d, T: Send>(
    dwarf: &gimli::Dwarf<Slice<'d>>,
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
        let job_qs: Vec<Vec<u64>> =
            jobs.iter().map(|&(_, s, e)| work[s..e].iter().map(|w| qs[w.1 as usize]).collect()).collect();
        let counter = AtomicUsize::new(0);
        let worker = || -> Vec<(usize, Vec<Outcome<T>>)> {
            let mut names = Names { dwarf, units: &units, others: FxHashMap::default(), gdb_closures: false };
            let mut done = Vec::new();
            loop {
                let k = counter.fetch_add(1, Ordering::Relaxed);
                let Some(&(unit, _, _)) = jobs.get(k) else { break };
                done.push((k, do_unit(&mut names, unit, &job_qs[k], emit, false)));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbolize::dwarf::{ElfModule, source_frames};

    type Plain = Vec<(Option<String>, Option<String>, Option<u32>)>;

    fn plain(frames: &[Frame<'_>]) -> Plain {
        frames.iter().map(|f| (f.name.as_deref().map(str::to_string), f.file.map(str::to_string), f.line)).collect()
    }

    /// Addresses spread over the test binary's `.text` (sorted, distinct).
    fn text_addresses(m: &ElfModule, n: usize) -> Vec<u64> {
        let text = m.cfi().text.expect(".text");
        let len = text.data.len() as u64;
        let mut qs: Vec<u64> = (0..n as u64).map(|i| text.address + i * len / n as u64 + i % 13).collect();
        qs.sort_unstable();
        qs.dedup();
        qs
    }

    /// The batch engine answers as the addr2line crate's `Context` does, address by address.
    #[test]
    fn agrees_with_the_addr2line_crate_on_the_test_binary() {
        let m = ElfModule::open(&std::env::current_exe().unwrap(), &[]).unwrap();
        assert!(m.has_debug_info(), "{}", crate::symbolize::dwarf::tests::NO_OWN_DWARF);
        let qs = text_addresses(&m, 600);
        let ctx = m.new_context().unwrap().unwrap();
        let d = m.dwarf_for_one_pass().unwrap();
        for threads in [1, 2] {
            let mine = resolve(&d, &qs, threads, &|_, f| plain(f));
            let mut with_frames = 0;
            for (a, got) in qs.iter().zip(&mine) {
                let want: Plain = source_frames(&ctx, *a, false)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|f| (f.raw_function, f.file, f.line))
                    .collect();
                assert_eq!(got, &want, "address {a:#x}");
                with_frames += usize::from(!got.is_empty());
            }
            assert!(with_frames > qs.len() / 2, "most of .text has DWARF ({with_frames}/{})", qs.len());
        }
    }

    /// Collects every row, as gimli's `next_row` gives them.
    struct All(Vec<(u64, u64, u32, bool)>);

    impl Rows for All {
        fn row(&mut self, address: u64, file: u64, line: u32, end: bool) -> bool {
            self.0.push((address, file, line, end));
            true
        }
    }

    /// The line-program reader yields gimli's rows, unit by unit.
    #[test]
    fn line_programs_run_as_gimli_runs_them() {
        let m = ElfModule::open(&std::env::current_exe().unwrap(), &[]).unwrap();
        assert!(m.has_debug_info(), "{}", crate::symbolize::dwarf::tests::NO_OWN_DWARF);
        let d = m.dwarf_for_one_pass().unwrap();
        let mut units = d.units();
        let mut n = 0;
        while let Some(h) = units.next().unwrap() {
            let u = d.unit(h).unwrap();
            let Some(p) = u.line_program.clone() else { continue };
            let mut mine = All(Vec::new());
            if run_line_program(p.header(), &mut mine).is_err() {
                panic!("unit at {:?}", h.offset());
            }
            let mut theirs = Vec::new();
            let mut rows = p.rows();
            while let Some((_, r)) = rows.next_row().unwrap() {
                theirs.push((
                    r.address(),
                    r.file_index(),
                    r.line().map(|l| l.get() as u32).unwrap_or(0),
                    r.end_sequence(),
                ));
            }
            assert_eq!(mine.0, theirs, "unit at {:?}", h.offset());
            n += 1;
            if n == 150 {
                break;
            }
        }
        assert!(n > 10);
    }

    /// Rows as the addr2line crate picks them: first covering sequence, last row at or
    /// below the address, the last of rows at one address, nothing before a sequence.
    #[test]
    fn row_choice() {
        let qs = [0x0f, 0x10, 0x14, 0x17, 0x18, 0x20, 0x30, 0x41];
        let mut found: Vec<Found> = (0..qs.len()).map(|_| Found::default()).collect();
        let mut sink = RowSink::new(&qs, &mut found);
        for &(a, file, line, end) in &[
            (0x10, 1, 5, false),
            (0x14, 1, 6, false),
            (0x14, 2, 7, false), // same address: this one wins
            (0x18, 1, 8, false),
            (0x20, 0, 0, true),
            (0x30, 1, 9, false), // empty sequence (end before start): ignored
            (0x30, 0, 0, true),
            (0x16, 3, 1, false), // overlaps the first: it keeps its answers
            (0x40, 3, 2, false),
            (0x42, 0, 0, true),
        ] {
            assert!(sink.row(a, file, line, end));
        }
        let rows: Vec<Option<(u64, u32)>> = found.iter().map(|f| f.row).collect();
        assert_eq!(
            rows,
            [None, Some((1, 5)), Some((2, 7)), Some((2, 7)), Some((1, 8)), Some((3, 1)), Some((3, 1)), Some((3, 2))]
        );
    }
}
