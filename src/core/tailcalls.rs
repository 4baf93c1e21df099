//! Tail-call frames, found as gdb finds them (`call_site_find_chain` in its DWARF location
//! code, shown by `dwarf2/frame-tailcall.c`): from the call site at the caller's return
//! address, a depth-first search through the targets' tail-call sites
//! (`DW_AT_call_tail_call`) for the callee's function. One chain gives its functions as
//! frames; several keep only the call sites they all begin with and end with (none in common:
//! no frame). Anything gdb cannot resolve without the caller's registers — a call through a
//! pointer (`DW_AT_call_target`), a target with no DWARF function at its entry, a caller with
//! no call site there — gives no frame, as in gdb's backtrace.

use super::memory::{CoreMemory, MappedModule};
use crate::symbolize::dwarf::call_sites::{CallSite, CallTarget};
use std::collections::HashSet;
use std::sync::Arc;

/// What the DWARF says of the frames missing between a callee and its caller.
#[derive(Debug, PartialEq, Eq)]
pub enum TailFrames {
    /// The caller's module has call-site DWARF: the tail-call frames' pcs (the address after
    /// each tail call's jump), the one next to the callee first; often none.
    Dwarf(Vec<u64>),
    /// The caller's code has no DWARF (or is in no module): nothing to say from it.
    NoDwarf,
}

/// More call sites than this in one search: give up (as no chain).
const MAX_STEPS: usize = 4096;

/// The tail-call frames between a callee frame at `callee_pc` (exact for frame #0 and
/// interrupted frames: the caller passes pc - 1 for the others) and its caller, whose
/// return address is `ret` (all runtime addresses).
pub fn tail_frames(modules: &[MappedModule], mem: &CoreMemory, aarch64: bool, ret: u64, callee_pc: u64) -> TailFrames {
    let module_of = |a: u64| modules.iter().find(|m| a >= m.start && a < m.end);
    let Some(caller) = module_of(ret.wrapping_sub(1)) else { return TailFrames::NoDwarf };
    if !caller.module.has_debug_info() {
        return TailFrames::NoDwarf;
    }
    let Some(callee_start) = function_start(modules, mem, callee_pc) else { return TailFrames::Dwarf(Vec::new()) };
    // The common case, decided without the DWARF: a direct call of the callee itself.
    if direct_call_target(mem, aarch64, ret) == Some(callee_start) {
        return TailFrames::Dwarf(Vec::new());
    }
    TailFrames::Dwarf(find_chain(modules, ret, callee_start).unwrap_or_default())
}

/// gdb's `get_pc_function_start`: the function symbol holding `pc`, else its CFI's start.
fn function_start(modules: &[MappedModule], mem: &CoreMemory, pc: u64) -> Option<u64> {
    use crate::model::MemorySource;
    let m = modules.iter().find(|m| pc >= m.start && pc < m.end);
    let sym = m.and_then(|m| m.module.nearest_symbol(pc.wrapping_sub(m.bias)).map(|s| s.address.wrapping_add(m.bias)));
    sym.or_else(|| mem.function_range(pc).map(|r| r.0))
}

/// The target of a direct call (x86-64 `call rel32`, AArch64 `bl`) that ends at `ret`.
fn direct_call_target(mem: &CoreMemory, aarch64: bool, ret: u64) -> Option<u64> {
    use crate::model::MemorySource;
    let mut b = [0u8; 5];
    if aarch64 {
        if mem.read(ret.checked_sub(4)?, &mut b[..4]) != 4 {
            return None;
        }
        let w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        if w >> 26 != 0b100101 {
            return None;
        }
        let imm = (((w & 0x03ff_ffff) << 6) as i32 >> 4) as i64;
        return Some(ret.wrapping_sub(4).wrapping_add(imm as u64));
    }
    if mem.read(ret.checked_sub(5)?, &mut b) != 5 || b[0] != 0xe8 {
        return None;
    }
    Some(ret.wrapping_add(i32::from_le_bytes([b[1], b[2], b[3], b[4]]) as i64 as u64))
}

/// A call site with runtime addresses.
fn runtime(s: &CallSite, bias: u64) -> CallSite {
    let target = match &s.target {
        CallTarget::Addrs(v) => CallTarget::Addrs(v.iter().map(|a| a.wrapping_add(bias)).collect()),
        t => t.clone(),
    };
    CallSite { pc: s.pc.wrapping_add(bias), target }
}

/// The chain gdb keeps: the common first `callers` and last `callees` sites of every chain
/// found.
struct Found {
    sites: Vec<CallSite>,
    callers: usize,
    callees: usize,
}

/// gdb's `chain_candidate`: keeps what every chain found so far has in common; `None` when
/// nothing (ambiguous).
fn candidate(result: Option<Found>, chain: &[CallSite]) -> Option<Found> {
    let Some(mut r) = result else {
        return Some(Found { sites: chain.to_vec(), callers: chain.len(), callees: chain.len() });
    };
    let n = chain.len();
    let callers = r.callers.min(n);
    if let Some(i) = (0..callers).find(|&i| r.sites[i].pc != chain[i].pc) {
        r.callers = i;
    }
    let callees = r.callees.min(n);
    let len = r.sites.len();
    if let Some(i) = (0..callees).find(|&i| r.sites[len - 1 - i].pc != chain[n - 1 - i].pc) {
        r.callees = i;
    }
    (r.callers > 0 || r.callees > 0).then_some(r)
}

/// gdb's `call_site_find_chain_1`; `None` where gdb throws (no frame at all).
fn find_chain(modules: &[MappedModule], ret: u64, callee: u64) -> Option<Vec<u64>> {
    let module_of = |a: u64| modules.iter().find(|m| a >= m.start && a < m.end);
    let site_at = |ret: u64| {
        let m = module_of(ret.wrapping_sub(1))?;
        m.module.call_site_at(ret.wrapping_sub(m.bias)).map(|s| runtime(&s, m.bias))
    };
    // A target's address: the one that is the callee's, else the first; a name by the first
    // module defining it (gdb's minimal-symbol lookup, the executable first).
    let resolve = |t: &CallTarget| -> Option<u64> {
        match t {
            CallTarget::Addrs(v) => v.iter().copied().find(|&a| a == callee).or_else(|| v.first().copied()),
            CallTarget::Name(n) => {
                let mut seen: Vec<&Arc<crate::symbolize::dwarf::ElfModule>> = Vec::new();
                let mut by_start: Vec<&MappedModule> = modules.iter().collect();
                by_start.sort_by_key(|m| m.start);
                by_start.into_iter().find_map(|m| {
                    if seen.iter().any(|s| Arc::ptr_eq(s, &m.module)) {
                        return None;
                    }
                    seen.push(&m.module);
                    m.module.function_address(n).map(|a| a.wrapping_add(m.bias))
                })
            }
            CallTarget::Unknown => None,
        }
    };
    let tail_list = |entry: u64| -> Option<Arc<Vec<CallSite>>> {
        let m = module_of(entry)?;
        let list = m.module.tail_calls_of(entry.wrapping_sub(m.bias))?;
        Some(Arc::new(list.iter().map(|s| runtime(s, m.bias)).collect()))
    };
    let mut result: Option<Found> = None;
    let mut visited: HashSet<u64> = HashSet::new();
    let mut chain: Vec<(Arc<Vec<CallSite>>, usize)> = Vec::new();
    let mut current = Some(site_at(ret)?);
    let mut steps = 0;
    while let Some(site) = current {
        steps += 1;
        if steps > MAX_STEPS {
            return None;
        }
        let target = resolve(&site.target)?;
        let mut next: Option<(Arc<Vec<CallSite>>, usize)> = None;
        if target == callee {
            let sites: Vec<CallSite> = chain.iter().map(|(l, i)| l[*i].clone()).collect();
            result = candidate(result.take(), &sites);
            // Ambiguous: gdb gives up the search.
            result.as_ref()?;
        } else {
            let list = tail_list(target)?;
            if !list.is_empty() {
                next = Some((list, 0));
            }
        }
        loop {
            if let Some((list, i)) = &next
                && visited.insert(list[*i].pc)
            {
                chain.push((list.clone(), *i));
                break;
            }
            // Back to the last site with a sibling left.
            next = None;
            while let Some((list, i)) = chain.pop() {
                visited.remove(&list[i].pc);
                if i + 1 < list.len() {
                    next = Some((list, i + 1));
                    break;
                }
            }
            if next.is_none() {
                break;
            }
        }
        current = chain.last().map(|(l, i)| l[*i].clone());
    }
    let r = result?;
    let len = r.sites.len();
    let levels = if r.callers == len && r.callees == len { len } else { r.callers + r.callees };
    let mut pcs = Vec::with_capacity(levels);
    for n in 0..levels {
        if n < r.callees {
            pcs.push(r.sites[len - n - 1].pc);
        } else if r.callees != len && n - r.callees < r.callers {
            pcs.push(r.sites[r.callers - (n - r.callees) - 1].pc);
        }
    }
    Some(pcs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(pc: u64) -> CallSite {
        CallSite { pc, target: CallTarget::Unknown }
    }

    #[test]
    fn chains_keep_what_they_share() {
        // One chain: all of it.
        let a = [site(1), site(2), site(3)];
        let r = candidate(None, &a).unwrap();
        assert_eq!((r.callers, r.callees), (3, 3));
        // A second with the same end: the common end stays.
        let r = candidate(Some(r), &[site(4), site(5), site(3)]).unwrap();
        assert_eq!((r.callers, r.callees), (0, 1));
        // Nothing in common: ambiguous, no chain.
        let r = candidate(None, &[site(1), site(2)]);
        assert!(candidate(r, &[site(4), site(5)]).is_none());
        // An empty chain (a direct call) then another chain: ambiguous.
        let r = candidate(None, &[]);
        assert!(candidate(r, &[site(7)]).is_none());
    }
}
