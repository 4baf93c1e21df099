//! A DWARF that does not describe its code (docs/julia.md: the ace-jax-coupling wheel's
//! libraries, rewritten after linking, have every DWARF address 0x2000 below the code). Built
//! here the same way: two links of one C file, the second with 8 KiB of code in front, and
//! the first link's `.debug_*` sections put into the second. The symbolizer must measure the
//! shift from the ELF symbol table and name each address's function and line with it; the
//! consistent file must measure no shift.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use tracecheck::symbolize::dwarf::ElfModule;

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap();
    assert!(out.status.success(), "{cmd:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// `nm` address of a defined symbol.
fn nm(path: &Path, name: &str) -> u64 {
    let out = Command::new("nm").arg(path).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().find(|l| l.ends_with(&format!(" {name}"))).unwrap_or_else(|| panic!("{name} not in nm"));
    u64::from_str_radix(line.split_whitespace().next().unwrap(), 16).unwrap()
}

#[test]
fn shifted_dwarf_is_measured_and_corrected() {
    if !common::require_tools(&["gcc", "objcopy", "readelf", "nm"]) {
        return;
    }
    // One range per unit in `.debug_aranges`: too few for the aranges check, the subprograms
    // decide on both files.
    let (a, b) = shifted_pair("dwarf-shift", &[]);
    assert!(!a.aranges_agree_with_code() && !b.aranges_agree_with_code());
}

/// With `-ffunction-sections` each function is a range of its own in `.debug_aranges`: the
/// consistent file's ranges begin at its functions (so its subprograms need not be read), the
/// rewritten file's do not (so they are, and the shift is measured as without the check).
#[test]
fn shifted_dwarf_is_measured_when_the_aranges_disagree() {
    if !common::require_tools(&["gcc", "objcopy", "readelf", "nm"]) {
        return;
    }
    let (a, b) = shifted_pair("dwarf-shift-sections", &["-ffunction-sections"]);
    assert!(a.aranges_agree_with_code());
    assert!(!b.aranges_agree_with_code());
}

/// Builds the consistent library and its rewritten twin (with `cflags`), checks the shift
/// each measures and the rewritten one's lookups, and returns both.
fn shifted_pair(name: &str, cflags: &[&str]) -> (ElfModule, ElfModule) {
    let dir = common::scratch_root().join(name);
    std::fs::create_dir_all(&dir).unwrap();
    let mut src = String::from("int fn_helper(int x) { return x ^ 5; }\n");
    for i in 0..12 {
        src.push_str(&format!(
            "__attribute__((noinline)) int fn_{i}(int x) {{\n    return x * {} + fn_helper(x);\n}}\n",
            i + 3
        ));
    }
    let pad = "__attribute__((used, noinline)) static void pad(void) { __asm__ volatile(\".skip 8192\"); }\n";
    std::fs::write(dir.join("a.c"), &src).unwrap();
    std::fs::write(dir.join("b.c"), format!("{pad}{src}")).unwrap();
    let a = dir.join("A.so");
    let b = dir.join("B.so");
    for (c, so) in [("a.c", &a), ("b.c", &b)] {
        run(Command::new("gcc")
            .args(["-g", "-O0", "-shared", "-fPIC"])
            .args(cflags)
            .arg("-o")
            .arg(so)
            .arg(dir.join(c)));
    }
    // B's code with A's debug info.
    let stripped = dir.join("B-stripped.so");
    run(Command::new("objcopy").arg("--strip-debug").arg(&b).arg(&stripped));
    let sections = Command::new("readelf").args(["-SW"]).arg(&a).output().unwrap();
    let text = String::from_utf8_lossy(&sections.stdout);
    let mut names: Vec<String> =
        text.split_whitespace().filter(|w| w.starts_with(".debug_")).map(str::to_string).collect();
    names.sort();
    names.dedup();
    assert!(names.iter().any(|n| n == ".debug_info") && names.iter().any(|n| n == ".debug_line"), "{names:?}");
    let mut add = Command::new("objcopy");
    for n in &names {
        let bin: PathBuf = dir.join(format!("{}.bin", &n[1..]));
        run(Command::new("objcopy").arg(format!("--dump-section={n}={}", bin.display())).arg(&a));
        add.arg(format!("--add-section={n}={}", bin.display()));
    }
    let shifted = dir.join("B-shifted.so");
    run(add.arg(&stripped).arg(&shifted));

    let delta = nm(&shifted, "fn_5").wrapping_sub(nm(&a, "fn_5"));
    assert!(delta >= 0x2000, "the padding did not move the code: {delta:#x}");

    // The consistent file: no shift, names as its DWARF says.
    let ma = ElfModule::open(&a, &[]).unwrap();
    assert_eq!(ma.dwarf_shift(), 0);
    assert_eq!(ma.shift_note(), None);

    // The rewritten one: the shift measured, and every lookup names the symbol table's function
    // with A's source line for it.
    let mb = ElfModule::open(&shifted, &[]).unwrap();
    assert_eq!(mb.dwarf_shift(), delta);
    let note = mb.shift_note().unwrap();
    assert!(note.contains(&format!("its debug info (DWARF) is {delta:#x} below its code")), "{note}");
    for (i, f) in [3, 5, 11].map(|i| (i, format!("fn_{i}"))) {
        let at = nm(&shifted, &f) + 4;
        let info = mb.symbol_info(at).unwrap().unwrap();
        let top = info.frames.last().unwrap();
        assert_eq!(top.function.as_deref(), Some(f.as_str()), "{f}: {:?}", info.frames);
        assert!(top.file.as_deref().is_some_and(|p| p.ends_with("a.c")), "{f}: {:?}", top.file);
        // fn_i's body is lines 2 + 3i .. 4 + 3i of a.c.
        let line = top.line.unwrap_or(0);
        assert!((2 + 3 * i..=4 + 3 * i).contains(&line), "{f}: line {line}");
    }
    (ma, mb)
}
