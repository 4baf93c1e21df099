//! DWARF call sites (`DW_TAG_call_site`, GNU's `DW_TAG_GNU_call_site`), read as gdb reads them
//! (`read_call_site_scope` in its DWARF reader), for the tail-call frames a core's backtrace
//! shows where gdb shows them (`core::tailcalls`).
//!
//! A call site is kept only with a return address (`DW_AT_call_return_pc`, or GNU's
//! `DW_AT_low_pc`): clang's tail calls carry `DW_AT_call_pc` (the jump's own address) instead,
//! which gdb 13 does not read, so they are not kept either. Its target is the function
//! `DW_AT_call_origin` (GNU: `DW_AT_abstract_origin`) names: a definition's entry address, or
//! a declaration's linkage name (found later by symbol); `DW_AT_call_target` (an expression over
//! the caller's registers, as for a call through a pointer) makes it unknown, as does a
//! reference to another unit (not followed here). A tail call (`DW_AT_call_tail_call`, GNU's
//! `DW_AT_GNU_tail_call`) is listed under its function only when that function says its list
//! is complete (`DW_AT_call_all_calls`, `DW_AT_call_all_tail_calls` or GNU's
//! `DW_AT_GNU_all_call_sites` / `DW_AT_GNU_all_tail_call_sites`), in gdb's order (last first).

use super::{ElfModule, Slice};
use std::collections::HashMap;
use std::sync::Arc;

/// What a call site calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallTarget {
    /// A definition in this unit: its entry addresses (module addresses; more than one when
    /// the function is in several ranges, as a hot/cold split).
    Addrs(Vec<u64>),
    /// A declaration: the called function is elsewhere, known by this (linkage) name.
    Name(String),
    /// Nothing usable without the caller's registers (a call through a pointer), or nothing.
    Unknown,
}

/// One call site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    /// The address after the call or jump (module address): the return address of a call.
    pub pc: u64,
    pub target: CallTarget,
}

/// A unit's call sites by return address, and its functions by entry with their tail calls.
#[derive(Debug, Default)]
pub struct UnitCallSites {
    by_pc: HashMap<u64, CallSite>,
    /// Every function defined in the unit, by entry address: its tail-call sites, last first
    /// (empty when the function does not say its list of calls is complete).
    functions: HashMap<u64, Vec<CallSite>>,
}

#[derive(Default)]
struct Sub {
    entry: Option<u64>,
    ranges: Vec<u64>,
    declaration: bool,
    specification: bool,
    all_calls: bool,
    origin: Option<gimli::UnitOffset>,
    linkage: Option<String>,
    name: Option<String>,
}

struct RawSite {
    pc: u64,
    tail: bool,
    /// `None`: no usable target (an expression, none, another unit).
    target: Option<gimli::UnitOffset>,
    function: Option<gimli::UnitOffset>,
}

/// Reads every call site and function of one unit (addresses as the DWARF has them).
pub(super) fn read_unit(u: gimli::UnitRef<'_, Slice<'_>>) -> UnitCallSites {
    let mut subs: HashMap<gimli::UnitOffset, Sub> = HashMap::new();
    let mut sites: Vec<RawSite> = Vec::new();
    // (depth, the subprogram enclosing this entry's children)
    let mut stack: Vec<(isize, Option<gimli::UnitOffset>)> = Vec::new();
    let mut cursor = u.entries();
    while let Ok(Some(e)) = cursor.next_dfs() {
        let depth = e.depth();
        while stack.last().is_some_and(|s| s.0 >= depth) {
            stack.pop();
        }
        let enclosing = stack.last().and_then(|s| s.1);
        match e.tag() {
            gimli::DW_TAG_subprogram | gimli::DW_TAG_subroutine_type => {
                let mut s = Sub::default();
                let mut high: Option<(u64, bool)> = None;
                for a in e.attrs() {
                    match a.name() {
                        gimli::DW_AT_low_pc => s.entry = u.attr_address(a.value()).ok().flatten(),
                        gimli::DW_AT_high_pc => {
                            high = match a.value() {
                                gimli::AttributeValue::Udata(n) => Some((n, true)),
                                v => u.attr_address(v).ok().flatten().map(|h| (h, false)),
                            }
                        }
                        gimli::DW_AT_ranges => {
                            if let Ok(Some(off)) = u.attr_ranges_offset(a.value())
                                && let Ok(mut rs) = u.ranges(off)
                            {
                                while let Ok(Some(r)) = rs.next() {
                                    if r.begin < r.end {
                                        s.ranges.push(r.begin);
                                    }
                                }
                            }
                        }
                        gimli::DW_AT_declaration => s.declaration = a.value() == gimli::AttributeValue::Flag(true),
                        gimli::DW_AT_specification => s.specification = true,
                        gimli::DW_AT_abstract_origin => {
                            if let gimli::AttributeValue::UnitRef(o) = a.value() {
                                s.origin = Some(o);
                            }
                        }
                        gimli::DW_AT_call_all_calls
                        | gimli::DW_AT_call_all_tail_calls
                        | gimli::DW_AT_GNU_all_call_sites
                        | gimli::DW_AT_GNU_all_tail_call_sites => {
                            s.all_calls |= a.value() == gimli::AttributeValue::Flag(true)
                        }
                        gimli::DW_AT_linkage_name | gimli::DW_AT_MIPS_linkage_name => {
                            s.linkage = u.attr_string(a.value()).ok().map(|n| n.to_string_lossy().into_owned())
                        }
                        gimli::DW_AT_name => {
                            s.name = u.attr_string(a.value()).ok().map(|n| n.to_string_lossy().into_owned())
                        }
                        _ => {}
                    }
                }
                // A function without an address range has no entry (gdb: invalid bounds).
                if s.entry.is_some() && high.is_none() {
                    s.entry = None;
                }
                subs.insert(e.offset(), s);
                if e.has_children() {
                    stack.push((depth, Some(e.offset())));
                }
            }
            gimli::DW_TAG_call_site | gimli::DW_TAG_GNU_call_site => {
                let (mut ret, mut low, mut tail) = (None, None, false);
                let (mut expr, mut origin, mut abstract_origin) = (false, None, None);
                for a in e.attrs() {
                    match a.name() {
                        gimli::DW_AT_call_return_pc => ret = u.attr_address(a.value()).ok().flatten(),
                        gimli::DW_AT_low_pc => low = u.attr_address(a.value()).ok().flatten(),
                        gimli::DW_AT_call_tail_call | gimli::DW_AT_GNU_tail_call => {
                            tail |= a.value() == gimli::AttributeValue::Flag(true)
                        }
                        // gdb takes these first: an expression (or anything but a
                        // reference) leaves no target it can use without the caller's frame.
                        gimli::DW_AT_call_target | gimli::DW_AT_GNU_call_site_target => expr = true,
                        gimli::DW_AT_call_origin => origin = Some(a.value()),
                        gimli::DW_AT_abstract_origin => abstract_origin = Some(a.value()),
                        _ => {}
                    }
                }
                if let Some(pc) = ret.or(low) {
                    let target = match (expr, origin.or(abstract_origin)) {
                        (false, Some(gimli::AttributeValue::UnitRef(o))) => Some(o),
                        _ => None,
                    };
                    // Only a tail call needs its function.
                    sites.push(RawSite { pc, tail, target, function: if tail { enclosing } else { None } });
                }
                if e.has_children() {
                    stack.push((depth, enclosing));
                }
            }
            _ => {
                if e.has_children() {
                    stack.push((depth, enclosing));
                }
            }
        }
    }
    // gdb names a C++ declaration without a linkage name (an `extern "C"` function) with its
    // parameter list (`qsort(void*, …)`), which no symbol has: its lookup fails.
    let cplus = matches!(
        u.entries().next_dfs().ok().flatten().and_then(|root| root.attr_value(gimli::DW_AT_language)),
        Some(gimli::AttributeValue::Language(
            gimli::DW_LANG_C_plus_plus
                | gimli::DW_LANG_C_plus_plus_03
                | gimli::DW_LANG_C_plus_plus_11
                | gimli::DW_LANG_C_plus_plus_14
        ))
    );
    let target_of = |off: Option<gimli::UnitOffset>| -> CallTarget {
        let Some(s) = off.and_then(|o| subs.get(&o)) else { return CallTarget::Unknown };
        if s.declaration && !s.specification {
            if cplus && s.linkage.is_none() {
                return CallTarget::Unknown;
            }
            return match s.linkage.clone().or_else(|| s.name.clone()) {
                Some(n) => CallTarget::Name(n),
                None => CallTarget::Unknown,
            };
        }
        if !s.ranges.is_empty() {
            return CallTarget::Addrs(s.ranges.clone());
        }
        match s.entry {
            Some(a) => CallTarget::Addrs(vec![a]),
            None => CallTarget::Unknown,
        }
    };
    let mut out = UnitCallSites::default();
    for s in subs.values() {
        if let Some(entry) = s.ranges.first().copied().or(s.entry) {
            out.functions.entry(entry).or_default();
        }
    }
    for raw in &sites {
        let site = CallSite { pc: raw.pc, target: target_of(raw.target) };
        if raw.tail
            && let Some(f) = raw.function.and_then(|o| subs.get(&o))
            && let Some(entry) = f.ranges.first().copied().or(f.entry)
        {
            let all = f.all_calls || f.origin.and_then(|o| subs.get(&o)).is_some_and(|a| a.all_calls);
            if all {
                // gdb's list is last in, first out.
                out.functions.entry(entry).or_default().insert(0, site.clone());
            }
        }
        out.by_pc.insert(raw.pc, site);
    }
    out
}

impl UnitCallSites {
    /// Moves every address by `by` (the DWARF's shift, to module addresses).
    pub(super) fn shifted(mut self, by: u64) -> UnitCallSites {
        if by == 0 {
            return self;
        }
        let fix = |s: &mut CallSite| {
            s.pc = s.pc.wrapping_add(by);
            if let CallTarget::Addrs(v) = &mut s.target {
                for a in v {
                    *a = a.wrapping_add(by);
                }
            }
        };
        self.by_pc = self
            .by_pc
            .into_values()
            .map(|mut s| {
                fix(&mut s);
                (s.pc, s)
            })
            .collect();
        self.functions = self
            .functions
            .into_iter()
            .map(|(k, mut v)| {
                v.iter_mut().for_each(fix);
                (k.wrapping_add(by), v)
            })
            .collect();
        self
    }
}

impl ElfModule {
    /// The call sites of the unit holding `vaddr` (a module address), read once per unit.
    /// `None` without DWARF or when no unit holds the address.
    fn unit_call_sites(&self, vaddr: u64) -> Option<Arc<UnitCallSites>> {
        let d = self.dwarf.as_ref()?;
        let shift = self.dwarf_shift();
        let dv = vaddr.wrapping_sub(shift);
        let off = match self.unit_of(dv) {
            Some(off) => off,
            None => {
                // No `.debug_aranges` entry (clang writes none): the whole-file context's
                // unit ranges find it.
                let mut guard = self.ctx.lock().unwrap_or_else(|p| p.into_inner());
                if guard.is_none()
                    && let Some(c) = self.new_context_static()
                {
                    *guard = Some(c.map_err(|e| e.to_string()));
                }
                let ctx = guard.as_ref()?.as_ref().ok()?;
                let unit = ctx.find_dwarf_and_unit(dv).skip_all_loads()?;
                unit.header.offset().0
            }
        };
        if let Some(c) = self.call_sites.lock().unwrap_or_else(|p| p.into_inner()).get(&off) {
            return Some(c.clone());
        }
        // As `frames_in_one_unit`: `.debug_info` inflated only as far as this unit.
        let info = d.section(gimli::SectionId::DebugInfo)?;
        let end = super::unit_end(info, off, d.endian)?;
        info.prefix(end).ok()?;
        let dwarf = d.partial(&super::WHOLE_PER_UNIT).ok()?;
        let header = dwarf.debug_info.header_from_offset(gimli::DebugInfoOffset(off)).ok()?;
        let unit = dwarf.unit(header).ok()?;
        let sites = Arc::new(read_unit(unit.unit_ref(&dwarf)).shifted(shift));
        self.call_sites.lock().unwrap_or_else(|p| p.into_inner()).insert(off, sites.clone());
        Some(sites)
    }

    /// The call site whose return address is `ret` (a module address), as gdb's
    /// `call_site_for_pc`. `None` when the DWARF has none there.
    pub fn call_site_at(&self, ret: u64) -> Option<CallSite> {
        self.unit_call_sites(ret.wrapping_sub(1))?.by_pc.get(&ret).cloned()
    }

    /// The tail calls of the function whose DWARF entry is `entry` (a module address), last
    /// first; empty when its list is not complete. `None` when no function of the DWARF starts
    /// there (gdb then gives up the whole chain).
    pub fn tail_calls_of(&self, entry: u64) -> Option<Vec<CallSite>> {
        self.unit_call_sites(entry)?.functions.get(&entry).cloned()
    }

    /// The address of the function symbol `name` defined in this module (not a PLT stub): a
    /// global symbol before a local one (gdb's minimal-symbol lookup), a default version
    /// (`pthread_kill@@GLIBC_2.34`) also by its bare name. Every name counts, not only the
    /// one the address table keeps (glibc's `__pthread_kill` shares its address with three).
    pub fn function_address(&self, name: &str) -> Option<u64> {
        use object::{Object, ObjectSymbol};
        let names = self.function_names.get_or_init(|| {
            let mut m: HashMap<String, (u64, bool)> = HashMap::new();
            for d in &self.symbol_sources {
                let Ok(o) = object::File::parse(*d) else { continue };
                for s in o.symbols().chain(o.dynamic_symbols()) {
                    if s.kind() != object::SymbolKind::Text || !s.is_definition() || s.address() == 0 {
                        continue;
                    }
                    let Ok(n) = s.name() else { continue };
                    let global = s.is_global();
                    let bare = n.split_once("@@").map(|(b, _)| b);
                    for key in std::iter::once(n).chain(bare) {
                        match m.get(key) {
                            Some((_, true)) => {}
                            Some(_) if !global => {}
                            _ => {
                                m.insert(key.to_string(), (s.address(), global));
                            }
                        }
                    }
                }
            }
            m.into_iter().map(|(k, v)| (k, v.0)).collect()
        });
        names.get(name).copied()
    }
}
