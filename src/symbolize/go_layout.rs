//! The Go runtime's scheduler structures, read from a Go binary's DWARF: where `runtime.g`
//! keeps its M and its saved context (`sched`), where `runtime.m` keeps the goroutine it runs
//! (`curg`), and the `runtime.gobuf` words a goroutine's context is saved in. A core's crashed
//! thread that died on the system stack (`runtime.fatalthrow` → `runtime.systemstack`) is
//! followed onto the goroutine's own stack with them (`crate::core::go`). Read from DWARF, not
//! from a table of Go versions: the offsets move between releases.

use crate::symbolize::dwarf::Slice;
use crate::symbolize::members;

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
    const WANTED: [(&str, &str); 7] = [
        ("runtime.g", "m"),
        ("runtime.g", "sched"),
        ("runtime.m", "g0"),
        ("runtime.m", "curg"),
        ("runtime.gobuf", "sp"),
        ("runtime.gobuf", "pc"),
        ("runtime.gobuf", "bp"),
    ];
    let found = members::read(dwarf, &WANTED, &[]);
    let [Some(g_m), Some(g_sched), Some(m_g0), Some(m_curg), Some(gobuf_sp), Some(gobuf_pc), Some(gobuf_bp)] =
        found.members[..]
    else {
        return None;
    };
    Some(GoLayout { g_m, g_sched, m_g0, m_curg, gobuf_sp, gobuf_pc, gobuf_bp })
}
