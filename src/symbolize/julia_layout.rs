//! The Julia runtime's own structure layouts (`_jl_task_t`, `_jl_tls_states_t`, the
//! `jl_task_tag` enumerator) read from its DWARF with gimli, and attached to a trace whose
//! runtime library can be found. The knowledge of what the offsets mean, the version table
//! used without DWARF, and frame roles live in `crate::julia` (a knowledge module the rules
//! may use); this part reads files, so it sits with the symbolizer.

use super::dwarf::{ElfModule, Slice, SymbolOptions};
use crate::julia::{version_from_trace, version_in};
use crate::model::{JuliaLayout, Trace};
use std::path::{Path, PathBuf};

/// Reads the layout from a runtime library's DWARF: the complete definitions of `_jl_task_t`
/// and `_jl_tls_states_t` and the `jl_task_tag` enumerator. `None` unless at least the three
/// task fields were found.
pub fn layout_from_dwarf(dwarf: &gimli::Dwarf<Slice>, what: &str) -> Option<JuliaLayout> {
    use gimli::constants::*;
    let mut task: [Option<u64>; 3] = [None; 3];
    let mut tls: [Option<u64>; 3] = [None; 3];
    let mut tag = None;
    let mut units = dwarf.units();
    let mut seen_units = 0u32;
    while let Ok(Some(header)) = units.next() {
        seen_units += 1;
        if seen_units > 100_000 {
            break;
        }
        let Ok(unit) = dwarf.unit(header) else { continue };
        let mut cursor = unit.entries();
        // The struct being read (0 = task, 1 = tls) and its depth.
        let mut inside: Option<(usize, isize)> = None;
        while let Ok(Some(e)) = cursor.next_dfs() {
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
                {
                    inside = match name().as_deref() {
                        Some("_jl_task_t") if task.iter().any(Option::is_none) => Some((0, depth)),
                        Some("_jl_tls_states_t") if tls.iter().any(Option::is_none) => Some((1, depth)),
                        _ => None,
                    };
                }
            } else if t == DW_TAG_member {
                {
                    let Some((which, d)) = inside else { continue };
                    if depth != d + 1 {
                        continue;
                    }
                    let Some(off) = e.attr_value(DW_AT_data_member_location).and_then(|a| a.udata_value()) else {
                        continue;
                    };
                    let slot = match (which, name().as_deref()) {
                        (0, Some("gcstack")) => &mut task[0],
                        (0, Some("world_age")) => &mut task[1],
                        (0, Some("ptls")) => &mut task[2],
                        (1, Some("tid")) => &mut tls[0],
                        (1, Some("current_task")) => &mut tls[1],
                        (1, Some("system_id")) => &mut tls[2],
                        _ => continue,
                    };
                    slot.get_or_insert(off);
                }
            } else if t == DW_TAG_enumerator && tag.is_none() {
                {
                    if name().as_deref() == Some("jl_task_tag") {
                        tag = e.attr_value(DW_AT_const_value).and_then(|a| {
                            a.udata_value().or_else(|| a.sdata_value().and_then(|v| u64::try_from(v).ok()))
                        });
                    }
                }
            }
        }
        if task.iter().all(Option::is_some) && tls.iter().all(Option::is_some) && tag.is_some() {
            break;
        }
    }
    let [Some(g), Some(w), Some(p)] = task else { return None };
    Some(JuliaLayout {
        version: None,
        source: format!("DWARF of {what}").into(),
        from_dwarf: true,
        verified: true,
        task_gcstack: g,
        task_world_age: w,
        task_ptls: p,
        tls_tid: tls[0],
        tls_current_task: tls[1],
        tls_system_id: tls[2],
        task_tag: tag,
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
