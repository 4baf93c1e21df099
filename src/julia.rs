//! Julia runtime knowledge the rules and the culprit choice share: which Julia version a trace
//! comes from, the layout of `jl_task_t` and `jl_tls_states_t` (read from the runtime's own
//! DWARF with gimli, or taken from a version table that says which row it used), and the role
//! each frame plays (specsig body, jfptr wrapper, cfunction trampoline, runtime, Base).
//!
//! Reading the layout from DWARF needs the symbolizer, a layer above this knowledge module: it
//! lives in `symbolize::julia_layout`. Hands [`JuliaLayout`] to the trace (`Trace::julia_layout`) for `pinned-register`, and
//! [`role`] / [`is_runtime_or_base`] to `analyze::culprit`. Ground truth for 1.13.1 and how it
//! was read: `docs/julia.md`.

use crate::model::{Frame, JuliaLayout, Stop, Thread, Trace};

/// What a frame is, the way a Julia engineer reads a mixed native/Julia backtrace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameRole {
    /// `julia_<name>_<n>`: a specialized-signature body (pgcstack in r13 / x20 since 1.10).
    Specsig,
    /// `jfptr_<name>_<n>` (and `japi1_`, `japi3_`, `tojlinvoke`): boxed-ABI wrapper.
    JfptrWrapper,
    /// `jlcapi_<name>_<n>`: the C-ABI trampoline of a `@cfunction` / `@ccallable`.
    CfunctionTrampoline,
    /// The runtime in C: `jl_*`, `ijl_*`, `gc_*`, `_jl_*`, flisp, or any frame whose source is
    /// in the Julia source tree or whose module is libjulia-internal.
    Runtime,
    /// Base, Core or the stdlib (`./array.jl`, `strings/io.jl`, `@ Base`), juliac's Base overlay.
    Base,
    /// Julia code from a package or a script (`~/.julia/dev/Enzyme/src/compiler.jl`).
    UserJulia,
    /// Anything else: C, C++, Rust (the harness, an embedding program).
    Native,
}

impl FrameRole {
    pub fn name(self) -> &'static str {
        match self {
            FrameRole::Specsig => "specsig body",
            FrameRole::JfptrWrapper => "jfptr wrapper",
            FrameRole::CfunctionTrampoline => "cfunction trampoline",
            FrameRole::Runtime => "Julia runtime",
            FrameRole::Base => "Base",
            FrameRole::UserJulia => "Julia",
            FrameRole::Native => "native",
        }
    }
}

/// A source path of Julia's own C/C++ runtime: a build tree (`/cache/build/…/julialang/julia-ci/src/gc-stock.c`,
/// `…/julia-release-1-dot-8/src/dump.c`, `/home/tim/Julia/src/julia/src/dump.c`) or one of
/// its headers by name.
fn is_runtime_source(file: &str) -> bool {
    let base = file.rsplit('/').next().unwrap_or(file);
    let c_like = [".c", ".cpp", ".h", ".inc"].iter().any(|e| base.ends_with(e));
    if !c_like {
        return false;
    }
    file.contains("/julialang/julia")
        || file.contains("/julia/src/")
        || file.contains("julia-release-")
        || file.contains("/src/flisp/")
        || file.contains("/src/support/")
        || matches!(
            base,
            "julia.h"
                | "julia_internal.h"
                | "julia_threads.h"
                | "gc-stock.c"
                | "gc-common.c"
                | "gc.c"
                | "task.c"
                | "signals-unix.c"
                | "signal-handling.c"
                | "rtutils.c"
                | "dump.c"
                | "staticdata.c"
                | "gf.c"
                | "builtins.c"
                | "datatype.c"
                | "subtype.c"
                | "jltypes.c"
                | "work-stealing-queue.h"
        )
}

/// A `.jl` file of Base, Core or the stdlib as Julia records it: relative (`./array.jl`,
/// `strings/io.jl`, `iobuffer.jl`), under `share/julia/base` or `stdlib`, or juliac's Base
/// overlay (`…/packages/JuliaC/…/juliac-trim-base.jl`). Package files (`LuxLib/src/…`,
/// `~/.julia/…`) and scripts (`/workspace/mwe.jl`) are not Base.
pub fn is_base_file(file: &str) -> bool {
    if !file.ends_with(".jl") {
        return false;
    }
    if file.contains("/packages/JuliaC/")
        || file.contains("/share/julia/base/")
        || file.contains("/share/julia/stdlib/")
    {
        return true;
    }
    if file.starts_with('/') || file.starts_with('~') || file.starts_with("REPL[") || file.contains(":\\") {
        return false;
    }
    let f = file.strip_prefix("./").unwrap_or(file);
    !f.contains("/src/") && f.matches('/').count() <= 1
}

/// The role of a frame, from its name, module and source file.
pub fn role(f: &Frame) -> FrameRole {
    let name = f.function_name().trim();
    let file = f.file.as_deref().unwrap_or("");
    let module = f.module.as_deref().unwrap_or("");
    if matches!(module, "Base" | "Core") || module.starts_with("Base.") || module.starts_with("Core.") {
        return FrameRole::Base;
    }
    // The system image (`…/lib/julia/sys.so`, `sys-debug.so`) holds Base's compiled code.
    let module_base = module.rsplit('/').next().unwrap_or(module);
    if (module_base.starts_with("sys.") || module_base.starts_with("sys-debug."))
        && [".so", ".dylib", ".dll"].iter().any(|e| module_base.ends_with(e))
    {
        return FrameRole::Base;
    }
    if !file.is_empty() {
        if is_runtime_source(file) {
            return FrameRole::Runtime;
        }
        if is_base_file(file) {
            return FrameRole::Base;
        }
    }
    if name.starts_with("julia_") {
        return FrameRole::Specsig;
    }
    if ["jfptr_", "japi1_", "japi3_", "tojlinvoke", "jlcall_"].iter().any(|p| name.starts_with(p)) {
        return FrameRole::JfptrWrapper;
    }
    if name.starts_with("jlcapi_") {
        return FrameRole::CfunctionTrampoline;
    }
    if ["jl_", "ijl_", "_jl_", "gc_", "jlplt_", "jlsys_"].iter().any(|p| name.starts_with(p))
        || module.contains("libjulia-internal")
        || module.contains("libjulia-codegen")
    {
        return FrameRole::Runtime;
    }
    if file.ends_with(".jl") {
        return FrameRole::UserJulia;
    }
    FrameRole::Native
}

/// Runtime and Base frames: a Julia engineer reads past them to the code that called in.
pub fn is_runtime_or_base(f: &Frame) -> bool {
    matches!(role(f), FrameRole::Runtime | FrameRole::Base)
}

/// A thread whose frames show Julia: generated code, Base, Julia sources, or the runtime in
/// its own source tree or library. Only then do runtime and Base frames get skipped.
pub fn is_julia_stack(th: &Thread) -> bool {
    th.frames.iter().any(|f| {
        let file = f.file.as_deref().unwrap_or("");
        let module = f.module.as_deref().unwrap_or("");
        !matches!(role(f), FrameRole::Native | FrameRole::Runtime)
            || is_runtime_source(file)
            || module.contains("libjulia")
            || f.function_name().starts_with("ijl_")
    })
}

/// Positions `[first, physical]` of the inline chain holding `pos`: gdb prints frames inlined
/// into one real frame innermost first, each marked inlined except the last (the physical
/// function, which owns the registers and the pc).
pub fn inline_chain(th: &Thread, pos: usize) -> (usize, usize) {
    let frames = &th.frames;
    let mut phys = pos;
    while phys + 1 < frames.len() && frames[phys].inlined {
        phys += 1;
    }
    let mut first = pos;
    while first > 0 && frames[first - 1].inlined {
        first -= 1;
    }
    (first, phys)
}

/// What `info symbol $pc` (ELF minimal symbols) said about the frame at `pos` or any frame of
/// its inline chain: `(name, offset)`. gdb's `bt` names frames from DWARF; when the two
/// disagree the DWARF does not describe this code (docs/julia.md: the 0x2000 shift).
pub fn elf_symbol<'a>(stop: &'a Stop, th: &Thread, pos: usize) -> Option<(&'a str, u64)> {
    if pos >= th.frames.len() {
        return None;
    }
    let (first, phys) = inline_chain(th, pos);
    let levels: Vec<u32> = th.frames[first..=phys].iter().map(|f| f.index).collect();
    stop.symbols
        .iter()
        .filter(|s| s.expr.as_deref().is_some_and(|e| matches!(e.trim(), "$pc" | "$rip")))
        .filter(|s| s.thread.as_deref().is_none_or(|t| *t == *th.id))
        .find(|s| levels.contains(&s.frame))
        .and_then(|s| Some((s.symbol.as_deref()?, s.offset)))
}

/// For a core: the symbol tracecheck's own symbolizer put on the pc register of the chain's
/// frames (`<julia_etc_couple_4561+111>`), which comes from the ELF symbol table.
fn core_symbol<'a>(trace: &Trace, th: &'a Thread, pos: usize) -> Option<(&'a str, u64)> {
    if !trace.formats.contains(&crate::model::Format::Core) || pos >= th.frames.len() {
        return None;
    }
    let (first, phys) = inline_chain(th, pos);
    let pc = trace.arch.pc_register();
    th.frames[first..=phys].iter().find_map(|f| {
        let s = th.registers.get(&f.index)?.symbol(pc)?;
        (!s.name.contains(' ')).then_some((&*s.name, s.offset_or_zero()))
    })
}

/// The ELF symbol at the frame's pc: gdb's `info symbol $pc`, or a core's symbolized pc.
pub fn elf_symbol_any<'a>(trace: &Trace, stop: &'a Stop, th: &'a Thread, pos: usize) -> Option<(&'a str, u64)> {
    elf_symbol(stop, th, pos).or_else(|| core_symbol(trace, th, pos))
}

/// The name of the real (physical) function executing at frame `pos`: the ELF symbol when
/// `info symbol $pc` was asked (or a core was symbolized), else the outermost frame of the
/// inline chain.
pub fn physical_name<'a>(trace: &Trace, stop: &'a Stop, th: &'a Thread, pos: usize) -> &'a str {
    if let Some((n, _)) = elf_symbol_any(trace, stop, th, pos) {
        return n;
    }
    let (_, phys) = inline_chain(th, pos);
    th.frames.get(phys).map_or("", |f| f.function_name())
}

/// `libjulia-internal.so.1.13` → `1.13`, `libjulia.so.1.13.1` → `1.13.1` (a vendoring prefix
/// such as `ICl90UHn_` is allowed); `…/julia-release-1-dot-8/src/…` → `1.8`.
pub(crate) fn version_in(text: &str) -> Option<String> {
    // Every key below contains "julia" or "Julia": one memchr pass rules out the usual text
    // (this runs on every frame's file name; six substring searchers per frame were a third
    // of a 10 MB run).
    let b = text.as_bytes();
    if !memchr::memchr2_iter(b'j', b'J', b).any(|i| b[i + 1..].starts_with(b"ulia")) {
        return None;
    }
    for key in ["libjulia-internal.so.", "libjulia-internal-debug.so.", "libjulia.so.", "libjulia-debug.so."] {
        if let Some(p) = text.find(key) {
            let v: String = text[p + key.len()..].chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
            let v = v.trim_end_matches('.');
            if v.contains('.') {
                return Some(v.to_string());
            }
        }
    }
    if let Some(p) = text.find("julia-release-") {
        let rest = &text[p + "julia-release-".len()..];
        let v: String =
            rest.chars().take_while(|c| c.is_ascii_digit() || *c == '-' || c.is_ascii_lowercase()).collect();
        let v = v.replace("-dot-", ".");
        if v.split('.').all(|x| !x.is_empty() && x.chars().all(|c| c.is_ascii_digit())) && v.contains('.') {
            return Some(v);
        }
    }
    if let Some(p) = text.find("Julia Version ") {
        let v: String =
            text[p + "Julia Version ".len()..].chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
        if v.contains('.') {
            return Some(v.trim_end_matches('.').to_string());
        }
    }
    None
}

/// The Julia version the trace names, and where: `(version, evidence)`. Prefers the most
/// precise (`1.13.1` over `1.13`).
pub fn version_from_trace(trace: &Trace) -> Option<(String, String)> {
    let mut best: Option<(String, String)> = None;
    let mut consider = |text: &str, what: &str| {
        if let Some(v) = version_in(text)
            && best.as_ref().is_none_or(|(b, _)| v.len() > b.len())
        {
            best = Some((v, format!("{what} {}", text.rsplit('/').next().unwrap_or(text))));
        }
    };
    for l in &trace.libraries {
        consider(&l.path, "library");
    }
    for m in &trace.mappings {
        if let Some(p) = &m.path {
            consider(p, "mapping");
        }
    }
    for s in &trace.stops {
        for th in &s.threads {
            // Frames share their interned path texts: the same text as the last one looked
            // at gives the same answer, which cannot replace the best (not longer than itself).
            let mut last: (*const u8, usize) = (std::ptr::null(), 0);
            for f in &th.frames {
                if let Some(x) = f.file.as_deref().or(f.module.as_deref()) {
                    if (x.as_ptr(), x.len()) == last {
                        continue;
                    }
                    last = (x.as_ptr(), x.len());
                    consider(x, "source path");
                }
            }
        }
        for m in &s.messages {
            consider(&m.text, "message");
        }
    }
    best
}

/// The version table: the layouts known without the runtime's DWARF (64-bit targets).
/// Each row says where it comes from; only 1.13 was checked here against a real build.
struct TableRow {
    minor: &'static str,
    task_gcstack: u64,
    verified: bool,
    /// TLS offsets depend on the GC's thread-local block; known only for the verified build.
    tls: Option<(u64, u64, u64)>,
    task_tag: Option<u64>,
    source: &'static str,
}

const TABLE: &[TableRow] = &[
    TableRow {
        minor: "1.9",
        task_gcstack: 104,
        verified: false,
        tls: None,
        task_tag: None,
        source: "Enzyme.jl current_task_offset() = -13 words for 1.9",
    },
    TableRow {
        minor: "1.10",
        task_gcstack: 112,
        verified: false,
        tls: None,
        task_tag: Some(11),
        source: "codegen IR in EnzymeAD/Enzyme.jl#909: current_task = pgcstack - 14 words",
    },
    TableRow {
        minor: "1.11",
        task_gcstack: 112,
        verified: false,
        tls: None,
        task_tag: Some(11),
        source: "1.10 layout with JL_RNG_SIZE 5 (jlrs 1.11 mirror); not checked against a build",
    },
    TableRow {
        minor: "1.12",
        task_gcstack: 152,
        verified: false,
        tls: None,
        task_tag: Some(11),
        source: "assumed equal to 1.13.1 (task metrics fields before gcstack); not checked against a 1.12 build",
    },
    TableRow {
        minor: "1.13",
        task_gcstack: 152,
        verified: true,
        tls: Some((0, 3912, 4056)),
        task_tag: Some(11),
        source: "DWARF of libjulia-internal 1.13.1 (ace-jax-coupling 0.2.0 wheel), stock GC",
    },
];

/// The table's layout for a version (`1.13.1` uses the `1.13` row), if it has one.
pub fn table_layout(version: &str) -> Option<JuliaLayout> {
    let mut parts = version.split('.');
    let minor = format!("{}.{}", parts.next()?, parts.next()?);
    let row = TABLE.iter().find(|r| r.minor == minor)?;
    Some(JuliaLayout {
        version: Some(version.into()),
        source: format!("version table row {} ({})", row.minor, row.source).into(),
        from_dwarf: false,
        verified: row.verified,
        task_gcstack: row.task_gcstack,
        task_world_age: row.task_gcstack + 8,
        task_ptls: row.task_gcstack + 16,
        tls_tid: row.tls.map(|t| t.0),
        tls_current_task: row.tls.map(|t| t.1),
        tls_system_id: row.tls.map(|t| t.2),
        task_tag: row.task_tag,
    })
}

/// The layout a rule should use: the one read from DWARF, else the table row for the version
/// the trace names.
pub fn layout_for(trace: &Trace) -> Option<JuliaLayout> {
    if let Some(l) = &trace.julia_layout {
        return Some(l.clone());
    }
    let (v, _) = version_from_trace(trace)?;
    table_layout(&v)
}

/// Julia's GC setting the mark bits of an object: the fault is an atomic read-modify-write
/// (`xchg`, `lock or`, `cmpxchg`) of the header word 8 bytes below an "object" pointer, in a
/// function of the mark phase (`gc_try_setmark_tag`, `gc_setmark*`, `gc_mark_*`, by the ELF
/// symbol at pc or a frame of frame #0's inline chain). Returns the physical function and the
/// object pointer (header address + 8). When that object lies in code or read-only data,
/// the write fault is a symptom: a pointer that is no object reached the mark phase (from a
/// root in a corrupt GC frame, or a garbage field of a marked object).
pub fn gc_mark_header_write<'a>(
    trace: &Trace,
    stop: &'a Stop,
    th: &'a Thread,
    insn_text: &str,
    addr: u64,
) -> Option<(&'a str, u64)> {
    let d = crate::insn::decode(insn_text);
    if d.access != Some(crate::insn::Access::ReadWrite) || d.mem.as_ref()?.disp != -8 {
        return None;
    }
    let gc = |n: &str| ["gc_mark", "gc_try_setmark", "gc_setmark", "gc_try_claim"].iter().any(|p| n.starts_with(p));
    let phys = physical_name(trace, stop, th, 0);
    let (first, last) = inline_chain(th, 0);
    (gc(phys) || th.frames.get(first..=last)?.iter().any(|f| gc(f.function_name())))
        .then_some((phys, addr.wrapping_add(8)))
}

/// The function a GC-frame walk runs in (`gc_mark_stack`): a garbage pointer found there came
/// from the roots of a task's GC frames.
pub fn is_gc_frame_walk(name: &str) -> bool {
    name.starts_with("gc_mark_stack")
}

/// Whether the ELF symbol at a frame's pc (`info symbol $pc`) names another function than the
/// debug-info name gdb printed, beyond the usual spellings of one function (C++ parameters,
/// `.cold`/`.part.N`/`.isra.N` clones, a namespace qualification): then the DWARF does not
/// describe this code (docs/julia.md: the wheel's 0x2000 shift).
pub fn names_disagree(shown: &str, elf: &str) -> bool {
    let base = |s: &str| {
        let s = s.split('(').next().unwrap_or(s).trim();
        let s = s.split('.').next().unwrap_or(s);
        s.rsplit("::").next().unwrap_or(s).to_string()
    };
    let (a, b) = (base(shown), base(elf));
    !a.is_empty() && !b.is_empty() && a != b
}

/// Whether anything beyond a `julia_*` name says a Julia runtime is in the process: Julia's
/// own crash output, libjulia / libjulia-internal in the mappings, shared libraries or frame
/// modules, a runtime frame (`jl_*`, `ijl_*`, `jlplt_*`) or a wrapper only Julia's codegen
/// emits (`jfptr_*`, `japi1_*`, `japi3_*`). A name prefix alone is not evidence: plain C
/// code may call a function `julia_limit_of`.
pub fn runtime_present(trace: &Trace) -> bool {
    use crate::model::Format;
    // Vendored copies may carry a prefix (auditwheel's `ICl90UHn_libjulia.so.1.13.1`).
    // One substring searcher for the whole walk (`str::contains` builds one per call: a
    // module name on each of a big transcript's frames was 8 M instructions).
    static LIBJULIA: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("libjulia"));
    let libjulia = |p: &str| p.rsplit('/').next().is_some_and(|b| LIBJULIA.find(b.as_bytes()).is_some());
    trace.formats.contains(&Format::Julia)
        || trace.julia_layout.is_some()
        || trace.mappings.iter().any(|m| m.path.as_deref().is_some_and(libjulia))
        || trace.libraries.iter().any(|l| libjulia(&l.path))
        || trace.stops.iter().flat_map(|s| &s.threads).flat_map(|t| &t.frames).any(|f| {
            f.module.as_deref().is_some_and(libjulia)
                || f.function.as_deref().is_some_and(|n| {
                    ["jl_", "ijl_", "jlplt_", "jfptr_", "japi1_", "japi3_"].iter().any(|p| n.starts_with(p))
                })
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(version_in("/x/_lib/lib/julia/ICl90UHn_libjulia-internal.so.1.13").as_deref(), Some("1.13"));
        assert_eq!(version_in("/x/lib/ICl90UHn_libjulia.so.1.13.1").as_deref(), Some("1.13.1"));
        assert_eq!(
            version_in("/cache/build/default-amdci5-5/julialang/julia-release-1-dot-8/src/dump.c").as_deref(),
            Some("1.8")
        );
        assert_eq!(version_in("Julia Version 1.11.6").as_deref(), Some("1.11.6"));
        assert_eq!(version_in("/usr/lib/libc.so.6"), None);
    }

    #[test]
    fn table_rows_say_where_they_come_from() {
        let l = table_layout("1.13.1").unwrap();
        assert_eq!((l.task_gcstack, l.task_ptls, l.tls_current_task), (152, 168, Some(3912)));
        assert!(l.verified && !l.from_dwarf && l.source.contains("1.13"));
        let l = table_layout("1.10.4").unwrap();
        assert_eq!((l.task_gcstack, l.tls_current_task), (112, None));
        assert!(!l.verified);
        assert!(table_layout("1.6.7").is_none());
    }

    #[test]
    fn base_and_runtime_files() {
        for f in [
            "./array.jl",
            "strings/io.jl",
            "iobuffer.jl",
            "/h/.julia/packages/JuliaC/MBoXP/src/scripts/juliac-trim-base.jl",
        ] {
            assert!(is_base_file(f), "{f}");
        }
        for f in ["LuxLib/src/impl/matmul.jl", "~/.julia/dev/Enzyme/src/compiler.jl", "/workspace/mwe.jl", "REPL[2]"] {
            assert!(!is_base_file(f), "{f}");
        }
        assert!(is_runtime_source("/cache/build/builder-amdci4-8/julialang/julia-ci/src/gc-stock.c"));
        assert!(is_runtime_source("/home/tim/Julia/src/julia/src/dump.c"));
        assert!(is_runtime_source("julia.h"));
        assert!(!is_runtime_source("src/harness.c"));
    }

    #[test]
    fn roles_of_real_names() {
        // Names and locations as they appear in the julia-real transcripts and the seeds.
        let f = |name: &str, file: Option<&str>| Frame {
            function: Some(name.into()),
            file: file.map(Into::into),
            ..Default::default()
        };
        assert_eq!(role(&f("julia_etc_couple_4561", None)), FrameRole::Specsig);
        assert_eq!(role(&f("jfptr_etc_couple_4562", None)), FrameRole::JfptrWrapper);
        assert_eq!(role(&f("jlcapi_etc_couple_4559", None)), FrameRole::CfunctionTrampoline);
        assert_eq!(role(&f("ijl_gc_small_alloc", None)), FrameRole::Runtime);
        assert_eq!(
            role(&f(
                "ws_queue_push",
                Some("/cache/build/builder-amdci4-8/julialang/julia-ci/src/work-stealing-queue.h")
            )),
            FrameRole::Runtime
        );
        assert_eq!(role(&f("#IOBuffer#384", Some("iobuffer.jl"))), FrameRole::Base);
        assert_eq!(role(&f("julia_print_4678", Some("strings/io.jl"))), FrameRole::Base);
        assert_eq!(role(&f("copy", Some("./array.jl"))), FrameRole::Base);
        assert_eq!(role(&f("enzyme_extract_world", Some("~/.julia/dev/Enzyme/src/compiler.jl"))), FrameRole::UserJulia);
        let mut sys = f("jfptr_require_46531.clone_1", None);
        sys.module = Some("/home/dev/julia-1.8.5/lib/julia/sys.so".into());
        assert_eq!(role(&sys), FrameRole::Base);
        assert_eq!(role(&f("thunk_trampoline", None)), FrameRole::Native);
        assert_eq!(role(&f("couple", Some("src/harness.c"))), FrameRole::Native);
    }
}
