//! How much of the machine a run may take: whether big inputs' work may use a second core
//! (the parse's helper in `input::ahead`, the JSON writer's in `report::json`, the DWARF
//! inflater's in `symbolize::dwarf`), and the stack those helper threads get. std only, so
//! every stage can ask (layer 1, docs/architecture.md).

/// The stack of a helper thread: under the 2 MiB of a transparent huge page, which the
/// default (2 MiB) stack would take whole in a batch run, and ample for the per-line and
/// per-section work the helpers run (no recursion).
pub const HELPER_STACK: usize = 1 << 20;

/// Whether a big input's work may take a second core: when this process may run on more
/// than one core and the environment does not say `TRACECHECK_THREADS=1` (for benchmarks,
/// and for machines where the other cores are someone else's). Decided once.
pub fn second_core() -> bool {
    static CORES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        std::env::var_os("TRACECHECK_THREADS").is_none_or(|v| v != "1")
            && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
    })
}
