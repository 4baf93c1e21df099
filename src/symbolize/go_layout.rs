//! The Go runtime's scheduler structures, read from a Go binary's DWARF: where `runtime.g`
//! keeps its M and its saved context (`sched`), where `runtime.m` keeps the goroutine it runs
//! (`curg`), and the `runtime.gobuf` words a goroutine's context is saved in. A core's crashed
//! thread that died on the system stack (`runtime.fatalthrow` → `runtime.systemstack`) is
//! followed onto the goroutine's own stack with them (`crate::core::go`). Read from DWARF, not
//! from a table of Go versions: the offsets move between releases.

use crate::symbolize::dwarf::Slice;

/// Member offsets (bytes) of the runtime's `g`, `m` and `gobuf`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoLayout {
    pub g_m: u64,
    pub g_sched: u64,
    pub m_g0: u64,
    pub m_curg: u64,
    pub gobuf_sp: u64,
    pub gobuf_pc: u64,
    pub gobuf_bp: u64,
}

/// Reads the layout from a Go binary's DWARF; `None` when any member is missing (not Go, or
/// built with `-ldflags=-w`).
pub fn layout_from_dwarf(dwarf: &gimli::Dwarf<Slice>) -> Option<GoLayout> {
    use gimli::constants::*;
    // g.m, g.sched, m.g0, m.curg, gobuf.sp, gobuf.pc, gobuf.bp
    let mut v: [Option<u64>; 7] = [None; 7];
    let mut units = dwarf.units();
    let mut seen_units = 0u32;
    while let Ok(Some(header)) = units.next() {
        seen_units += 1;
        if seen_units > 100_000 {
            break;
        }
        let Ok(unit) = dwarf.unit(header) else { continue };
        let mut cursor = unit.entries();
        // The struct being read (0 = g, 1 = m, 2 = gobuf) and its depth.
        let mut inside: Option<(usize, isize)> = None;
        let mut entries = 0u32;
        while let Ok(Some(e)) = cursor.next_dfs() {
            entries += 1;
            if entries > 5_000_000 {
                break;
            }
            let depth = e.depth();
            if let Some((_, d)) = inside
                && depth <= d
            {
                inside = None;
            }
            let name = || {
                e.attr_value(DW_AT_name)
                    .and_then(|a| dwarf.attr_string(&unit, a).ok())
                    .map(|s| String::from_utf8_lossy(s.slice()).into_owned())
            };
            let t = e.tag();
            if t == DW_TAG_structure_type && !e.has_attr(DW_AT_declaration) {
                inside = match name().as_deref() {
                    Some("runtime.g") => Some((0, depth)),
                    Some("runtime.m") => Some((1, depth)),
                    Some("runtime.gobuf") => Some((2, depth)),
                    _ => None,
                };
            } else if t == DW_TAG_member {
                let Some((which, d)) = inside else { continue };
                if depth != d + 1 {
                    continue;
                }
                let Some(off) = e.attr_value(DW_AT_data_member_location).and_then(|a| a.udata_value()) else {
                    continue;
                };
                let slot = match (which, name().as_deref()) {
                    (0, Some("m")) => 0,
                    (0, Some("sched")) => 1,
                    (1, Some("g0")) => 2,
                    (1, Some("curg")) => 3,
                    (2, Some("sp")) => 4,
                    (2, Some("pc")) => 5,
                    (2, Some("bp")) => 6,
                    _ => continue,
                };
                v[slot].get_or_insert(off);
            }
        }
        if v.iter().all(Option::is_some) {
            break;
        }
    }
    let [Some(g_m), Some(g_sched), Some(m_g0), Some(m_curg), Some(gobuf_sp), Some(gobuf_pc), Some(gobuf_bp)] = v else {
        return None;
    };
    Some(GoLayout { g_m, g_sched, m_g0, m_curg, gobuf_sp, gobuf_pc, gobuf_bp })
}
