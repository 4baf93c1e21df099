//! Member offsets of named structures and values of named enumerators, read from a module's
//! DWARF with gimli: what the runtime-layout readers (`go_layout`, `julia_layout`) ask of a
//! runtime's debug info. One walk over the units, stopped as soon as everything asked for is
//! found; the first complete (not `DW_AT_declaration`) definition of a structure wins.

use crate::symbolize::dwarf::Slice;

/// Units and entries walked at most, so a huge or malformed debug file ends the walk.
const MAX_UNITS: u32 = 100_000;
const MAX_ENTRIES_PER_UNIT: u32 = 5_000_000;

/// What one walk found: `members[i]` is the offset (bytes) of the `i`-th `(structure, member)`
/// asked for, `enumerators[i]` the value of the `i`-th enumerator name.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Found {
    pub members: Vec<Option<u64>>,
    pub enumerators: Vec<Option<u64>>,
}

/// Reads the offsets of `members` (`(structure name, member name)`, direct members only) and
/// the values of the enumerators named in `enumerators`.
pub fn read(dwarf: &gimli::Dwarf<Slice>, members: &[(&str, &str)], enumerators: &[&str]) -> Found {
    use gimli::constants::*;
    let mut found = Found { members: vec![None; members.len()], enumerators: vec![None; enumerators.len()] };
    let complete = |f: &Found| f.members.iter().chain(&f.enumerators).all(Option::is_some);
    if complete(&found) {
        return found;
    }
    let mut units = dwarf.units();
    let mut seen_units = 0u32;
    while let Ok(Some(header)) = units.next() {
        seen_units += 1;
        if seen_units > MAX_UNITS {
            break;
        }
        let Ok(unit) = dwarf.unit(header) else { continue };
        let mut cursor = unit.entries();
        // The structure being read (its name) and its depth.
        let mut inside: Option<(String, isize)> = None;
        let mut entries = 0u32;
        while let Ok(Some(e)) = cursor.next_dfs() {
            entries += 1;
            if entries > MAX_ENTRIES_PER_UNIT {
                break;
            }
            let depth = e.depth();
            if inside.as_ref().is_some_and(|(_, d)| depth <= *d) {
                inside = None;
            }
            let name = || {
                e.attr_value(DW_AT_name)
                    .and_then(|a| dwarf.attr_string(&unit, a).ok())
                    .map(|s| String::from_utf8_lossy(s.slice()).into_owned())
            };
            let t = e.tag();
            if t == DW_TAG_structure_type && !e.has_attr(DW_AT_declaration) {
                // Only a structure with a member still missing is read again.
                inside = name()
                    .filter(|n| members.iter().zip(&found.members).any(|((s, _), v)| s == n && v.is_none()))
                    .map(|n| (n, depth));
            } else if t == DW_TAG_member {
                let Some((ref strukt, d)) = inside else { continue };
                if depth != d + 1 {
                    continue;
                }
                let Some(member) = name() else { continue };
                let Some(i) = members.iter().position(|(s, m)| s == strukt && *m == member) else { continue };
                if found.members[i].is_none() {
                    found.members[i] = e.attr_value(DW_AT_data_member_location).and_then(|a| a.udata_value());
                }
            } else if t == DW_TAG_enumerator {
                let Some(n) = name() else { continue };
                let Some(i) = enumerators.iter().position(|x| *x == n) else { continue };
                if found.enumerators[i].is_none() {
                    found.enumerators[i] = e
                        .attr_value(DW_AT_const_value)
                        .and_then(|a| a.udata_value().or_else(|| a.sdata_value().and_then(|v| u64::try_from(v).ok())));
                }
            }
        }
        if complete(&found) {
            break;
        }
    }
    found
}

/// Opens the module at `path` (its separate debug file found through `debug_dirs`) and reads
/// from its DWARF as [`read`] does; `None` when the file cannot be opened or has no DWARF.
pub fn read_file(
    path: &std::path::Path,
    debug_dirs: &[std::path::PathBuf],
    members: &[(&str, &str)],
    enumerators: &[&str],
) -> Option<Found> {
    let m = crate::symbolize::dwarf::ElfModule::open(path, debug_dirs).ok()?;
    let dwarf = m.dwarf_for_one_pass()?;
    Some(read(&dwarf, members, enumerators))
}
