//! Structure member offsets and enumerator values read from DWARF (`symbolize::members`, what
//! the Go and Julia runtime-layout readers use), checked against the compiler's own
//! `offsetof` and enumerator values printed by the very program whose DWARF is read, and a
//! Go binary's scheduler structures against gdb's reading of the same DWARF.

mod common;
use std::process::Command;
use tracecheck::symbolize::members;

const C_SRC: &str = r#"
#include <stddef.h>
#include <stdio.h>
struct inner { long a; int sched; };
struct outer { char pad[24]; void *m; struct inner sched; int tail; };
struct only_declared;
struct only_declared *opaque;
enum tag { tag_a = 3, task_tag = 20, below = -1 };
int main(void) {
    struct outer o = {0};
    enum tag t = task_tag;
    printf("%zu %zu %zu %zu %d\n", offsetof(struct outer, m), offsetof(struct outer, sched),
           offsetof(struct outer, tail), offsetof(struct inner, sched), (int)t + (int)o.tail);
    return opaque != 0;
}
"#;

#[test]
fn member_offsets_and_enumerators_match_the_compiler() {
    if !common::require_tools(&["gcc"]) {
        return;
    }
    let dir = common::scratch_root().join(format!("dwarf-members-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("m.c");
    std::fs::write(&src, C_SRC).unwrap();
    for flags in [&["-g", "-O0"][..], &["-gdwarf-4", "-O2"][..], &["-g", "-O1", "-gz"][..]] {
        let exe = dir.join("m");
        let st = Command::new("gcc").args(flags).arg(&src).arg("-o").arg(&exe).status().unwrap();
        assert!(st.success(), "gcc {flags:?}");
        let out = Command::new(&exe).output().unwrap();
        let printed: Vec<u64> =
            String::from_utf8_lossy(&out.stdout).split_whitespace().map(|w| w.parse().unwrap()).collect();
        assert_eq!(printed.len(), 5);
        let found = members::read_file(
            &exe,
            &[],
            &[
                ("outer", "m"),
                ("outer", "sched"),
                ("outer", "tail"),
                ("inner", "sched"),
                // not a direct member of `outer`: only `inner` has it
                ("outer", "a"),
                // declared, never defined
                ("only_declared", "x"),
            ],
            &["task_tag", "tag_a", "below", "no_such_enumerator"],
        )
        .expect("the program has DWARF");
        assert_eq!(
            found.members,
            vec![Some(printed[0]), Some(printed[1]), Some(printed[2]), Some(printed[3]), None, None],
            "gcc {flags:?}"
        );
        // A negative enumerator is no offset or tag: not returned as a huge u64.
        assert_eq!(found.enumerators, vec![Some(printed[4]), Some(3), None, None], "gcc {flags:?}");
    }
    // Nothing asked: no walk, nothing found; a file that is not ELF: None.
    let exe = dir.join("m");
    assert_eq!(members::read_file(&exe, &[], &[], &[]), Some(members::Found::default()));
    assert_eq!(members::read_file(&src, &[], &[("outer", "m")], &[]), None);
    let _ = std::fs::remove_dir_all(&dir);
}

/// gdb's `ptype/o` gives each member's offset: the Go layout read from the same binary must
/// agree with it.
#[test]
fn go_scheduler_layout_matches_gdb() {
    if !common::require_tools(&["go", "gdb"]) {
        return;
    }
    let dir = common::scratch_root().join(format!("dwarf-members-go-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("main.go"), "package main\n\nfunc main() { println(\"hi\") }\n").unwrap();
    std::fs::write(dir.join("go.mod"), "module m\n\ngo 1.19\n").unwrap();
    let st = Command::new("go")
        .args(["build", "-o", "g", "."])
        .current_dir(&dir)
        .env("GOCACHE", dir.join("cache"))
        .env("GOFLAGS", "-mod=mod")
        .status()
        .unwrap();
    assert!(st.success(), "go build");
    let exe = dir.join("g");
    let m = tracecheck::symbolize::dwarf::ElfModule::open(&exe, &[]).unwrap();
    let dwarf = m.dwarf_for_one_pass().expect("Go DWARF");
    let l = tracecheck::symbolize::go_layout::layout_from_dwarf(&dwarf).expect("runtime.g, m, gobuf");
    // gdb's offsets: `ptype/o 'runtime.g'` (in C mode; Go's has no `/o`) prints
    // `/*     48      |       8 */    runtime.m *m;`.
    let gdb_offset = |ty: &str, member: &str| -> u64 {
        let out = Command::new("gdb")
            .args(["-q", "-batch", "-nx", "-ex", "set language c", "-ex"])
            .arg(format!("ptype/o '{ty}'"))
            .arg(&exe)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .find_map(|l| {
                let (head, decl) = l.split_once("*/")?;
                let name = decl.trim().trim_end_matches(';').rsplit([' ', '*']).next()?;
                if name != member || !head.trim_start().starts_with("/*") {
                    return None;
                }
                head.trim_start().trim_start_matches("/*").split('|').next()?.trim().split(':').next()?.parse().ok()
            })
            .unwrap_or_else(|| panic!("gdb printed no offset of {ty}.{member}:\n{text}"))
    };
    assert_eq!(l.g_m, gdb_offset("runtime.g", "m"));
    assert_eq!(l.g_sched, gdb_offset("runtime.g", "sched"));
    assert_eq!(l.m_g0, gdb_offset("runtime.m", "g0"));
    assert_eq!(l.m_curg, gdb_offset("runtime.m", "curg"));
    assert_eq!(l.gobuf_sp, gdb_offset("runtime.gobuf", "sp"));
    assert_eq!(l.gobuf_pc, gdb_offset("runtime.gobuf", "pc"));
    assert_eq!(l.gobuf_bp, gdb_offset("runtime.gobuf", "bp"));
    let _ = std::fs::remove_dir_all(&dir);
}
