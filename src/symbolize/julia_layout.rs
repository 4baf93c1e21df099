//! The Julia runtime's own structure layouts (`_jl_task_t`, `_jl_tls_states_t`, the
//! `jl_task_tag` enumerator) read from its DWARF with gimli, and attached to a trace whose
//! runtime library can be found. The knowledge of what the offsets mean, the version table
//! used without DWARF, and frame roles live in `crate::julia` (a knowledge module the rules
//! may use); this part reads files, so it sits with the symbolizer.

use super::dwarf::{ElfModule, Slice, SymbolOptions};
use super::members;
use crate::julia::{version_from_trace, version_in};
use crate::model::{JuliaLayout, Trace};
use std::path::{Path, PathBuf};

/// Reads the layout from a runtime library's DWARF: the complete definitions of `_jl_task_t`
/// and `_jl_tls_states_t` and the `jl_task_tag` enumerator. `None` unless at least the three
/// task fields were found.
pub fn layout_from_dwarf(dwarf: &gimli::Dwarf<Slice>, what: &str) -> Option<JuliaLayout> {
    const WANTED: [(&str, &str); 6] = [
        ("_jl_task_t", "gcstack"),
        ("_jl_task_t", "world_age"),
        ("_jl_task_t", "ptls"),
        ("_jl_tls_states_t", "tid"),
        ("_jl_tls_states_t", "current_task"),
        ("_jl_tls_states_t", "system_id"),
    ];
    let found = members::read(dwarf, &WANTED, &["jl_task_tag"]);
    let [Some(g), Some(w), Some(p), tid, current_task, system_id] = found.members[..] else { return None };
    Some(JuliaLayout {
        version: None,
        source: format!("DWARF of {what}").into(),
        from_dwarf: true,
        verified: true,
        task_gcstack: g,
        task_world_age: w,
        task_ptls: p,
        tls_tid: tid,
        tls_current_task: current_task,
        tls_system_id: system_id,
        task_tag: found.enumerators[0],
    })
}

/// Opens `path` and reads the layout from its DWARF.
pub fn layout_from_file(path: &Path, debug_dirs: &[PathBuf]) -> Option<JuliaLayout> {
    let m = ElfModule::open(path, debug_dirs).ok()?;
    let dwarf = m.dwarf_for_one_pass()?;
    layout_from_dwarf(&dwarf, &path.display().to_string())
}

fn is_runtime_library(name: &str) -> bool {
    name.contains("libjulia-internal")
}

/// Finds the Julia runtime library for a trace and attaches its DWARF layout. Candidates, in
/// order: `--exe` files named `*libjulia-internal*`; the runtime's path as the trace names it
/// (info sharedlibrary, mappings, a core's file notes), under `--sysroot` when given; that file
/// name in each `--debug-dir`. Returns a note saying what was used or why nothing was.
pub fn attach_layout(trace: &mut Trace, opts: &SymbolOptions) -> Option<String> {
    if trace.julia_layout.is_some() {
        return None;
    }
    let mut named: Vec<String> = trace.libraries.iter().map(|l| l.path.to_string()).collect();
    named.extend(trace.mappings.iter().filter_map(|m| m.path.as_deref().map(str::to_string)));
    named.retain(|p| is_runtime_library(p));
    named.dedup();
    let mut candidates: Vec<PathBuf> = opts
        .exes
        .iter()
        .filter(|p| p.file_name().is_some_and(|n| is_runtime_library(&n.to_string_lossy())))
        .cloned()
        .collect();
    for n in &named {
        let p = PathBuf::from(n);
        match &opts.sysroot {
            Some(root) => candidates.push(root.join(p.strip_prefix("/").unwrap_or(&p))),
            None => candidates.push(p.clone()),
        }
        if let Some(base) = p.file_name() {
            for d in &opts.debug_dirs {
                candidates.push(d.join(base));
            }
        }
    }
    if candidates.is_empty() {
        return None;
    }
    for c in &candidates {
        if !c.is_file() {
            continue;
        }
        if let Some(mut l) = layout_from_file(c, &opts.debug_dirs) {
            l.version = version_from_trace(trace)
                .map(|(v, _)| v.into())
                .or_else(|| version_in(&c.to_string_lossy()).map(Into::into));
            let note = format!("Julia task layout read from the DWARF of {}", c.display());
            trace.julia_layout = Some(l);
            return Some(note);
        }
    }
    (!named.is_empty()).then(|| {
        format!(
            "Julia runtime {} not found or without DWARF (give it with --exe or --debug-dir); pgcstack checks use the version table",
            named[0]
        )
    })
}
