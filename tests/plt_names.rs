//! PLT stubs are named as gdb names them (`memset@plt`), so that a core (whose names come from
//! the symbolizer) and a gdb transcript name a stub the same: without it the nearest symbol
//! below, `_init`, named every stub. Checked against gdb's own disassembly of real binaries,
//! with the classic `.plt` and with IBT's `.plt.sec`.

mod common;
use std::process::Command;
use tracecheck::symbolize::dwarf::ElfModule;

/// gdb's `call 0x1090 <memset@plt>` lines of `disassemble main`: (address, name).
fn gdb_plt_calls(exe: &std::path::Path) -> Vec<(u64, String)> {
    let out = Command::new("gdb").args(["-q", "-batch", "-nx", "-ex", "disassemble main"]).arg(exe).output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let rest = l.split_once("call   0x")?.1;
            let (addr, name) = rest.split_once(" <")?;
            let name = name.strip_suffix('>')?;
            name.ends_with("@plt").then(|| (u64::from_str_radix(addr, 16).unwrap(), name.to_string()))
        })
        .collect()
}

#[test]
fn plt_stubs_are_named_as_gdb_names_them() {
    if !common::require_tools(&["gcc", "gdb"]) {
        return;
    }
    let dir = common::scratch_root().join(format!("plt-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("p.c");
    std::fs::write(
        &src,
        "#include <string.h>\n#include <stdio.h>\nint main(int c, char **v) { char b[64]; memset(b, c, sizeof b); \
         puts(b); return strlen(v[0]); }\n",
    )
    .unwrap();
    for (name, flags) in [("classic", &[][..]), ("ibt", &["-fcf-protection=full", "-Wl,-z,ibtplt"][..])] {
        let exe = dir.join(name);
        let st = Command::new("gcc").args(["-O0", "-g"]).args(flags).arg(&src).arg("-o").arg(&exe).status().unwrap();
        assert!(st.success(), "gcc {flags:?}");
        let calls = gdb_plt_calls(&exe);
        assert_eq!(calls.len(), 3, "{name}: {calls:?}");
        let m = ElfModule::open(&exe, &[]).unwrap();
        for (addr, want) in &calls {
            // The stub's start and an address inside it.
            for a in [*addr, addr + 6] {
                let got = m.nearest_symbol(a).map(|s| s.name);
                assert_eq!(got.as_deref(), Some(want.as_str()), "{name}: 0x{a:x}");
            }
            // addr2line's answer stays binutils' (the symbol table's): no `@plt`.
            assert!(m.symbol_name(*addr).is_none_or(|(n, _)| !n.ends_with("@plt")), "{name}");
        }
        // Look-alike: the PLT's header (PLT0, which pushes the link map and jumps to the
        // resolver) is no stub of any function, and code below the PLT keeps its own name.
        let plt0 = calls.iter().map(|c| c.0).min().unwrap() & !0xfff | 0x20;
        let n = m.nearest_symbol(plt0).map(|s| s.name).unwrap_or_default();
        assert!(!n.ends_with("@plt"), "{name}: PLT0 at 0x{plt0:x} named {n}");
        let main = m.nearest_symbol(calls[0].0 + 0x100).map(|s| s.name);
        assert_ne!(main.as_deref().map(|n| n.ends_with("@plt")), Some(true), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
