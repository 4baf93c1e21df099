//! The core unwinder through x86-64 code without CFI (hand-written assembly, static musl):
//! the function's frame is read from its prologue (register pushes, `sub $n,%rsp`), as lldb's
//! unwinder does, where the frame-pointer chain would skip its caller.
//!
//! A real program: `main` (gcc -O0, frame pointer) calls `through` (assembly without any
//! `.cfi_*` directive: `push %rbx; push %r12; sub $0x18,%rsp; call *%rdi`), which calls back
//! into C, where a NULL write faults. gdb writes the core (`gcore`); tracecheck reads it.
//! Following rbp from `through` would land in `main`'s caller and lose `main`.

mod common;
use std::path::PathBuf;
use std::process::Command;
use tracecheck::core::{CoreOptions, read_core_trace};
use tracecheck::model::UnwindMethod;
use tracecheck::symbolize::dwarf::SymbolOptions;

const ASM: &str = "\
    .text
    .globl through
    .type through, @function
through:
    push %rbx
    push %r12
    sub $0x18, %rsp
    mov $0x1111, %rbx
    mov $0x2222, %r12
    call *%rdi
    add $0x18, %rsp
    pop %r12
    pop %rbx
    ret
    .size through, .-through
    .section .note.GNU-stack,\"\",@progbits
";

const C: &str = "\
#include <stddef.h>
void through(void (*fn)(void));
static int *volatile slot;
__attribute__((noinline)) static void store(void) { *slot = 7; }
int main(void) {
    register long keep_rbx asm(\"rbx\") = 0x5151;
    __asm__ volatile(\"\" : \"+r\"(keep_rbx));
    through(store);
    __asm__ volatile(\"\" : : \"r\"(keep_rbx));
    return 0;
}
";

fn run(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_cfi_less_asm_frame_is_read_from_its_prologue() {
    if !common::require_tools(&["gcc", "gdb"]) {
        return;
    }
    let dir: PathBuf = common::scratch_root().join(format!("tracecheck-prologue-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    std::fs::write(dir.join("through.S"), ASM).expect("write");
    std::fs::write(dir.join("main.c"), C).expect("write");
    run(Command::new("gcc").current_dir(&dir).args(["-c", "through.S", "-o", "through.o"]));
    run(Command::new("gcc").current_dir(&dir).args(["-O0", "-g", "main.c", "through.o", "-o", "prog"]));
    // The assembly has no CFI of its own (gcc adds none to a .S without .cfi directives): no
    // FDE of .eh_frame covers `through`.
    if common::require_tools(&["readelf", "nm"]) {
        let nm = Command::new("nm").current_dir(&dir).arg("prog").output().expect("nm");
        let nm = String::from_utf8_lossy(&nm.stdout).to_string();
        let start = nm.lines().find(|l| l.ends_with(" T through")).and_then(|l| l.split_whitespace().next());
        let start = u64::from_str_radix(start.expect("through in nm"), 16).expect("hex");
        let eh =
            Command::new("readelf").current_dir(&dir).args(["--debug-dump=frames", "prog"]).output().expect("readelf");
        let text = String::from_utf8_lossy(&eh.stdout).to_string();
        let ranges: Vec<(u64, u64)> = text
            .split("pc=")
            .skip(1)
            .filter_map(|r| {
                let (lo, rest) = r.split_once("..")?;
                let hi: String = rest.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
                Some((u64::from_str_radix(lo, 16).ok()?, u64::from_str_radix(&hi, 16).ok()?))
            })
            .collect();
        assert!(ranges.len() >= 2, "no FDEs read:\n{text}");
        assert!(!ranges.iter().any(|&(lo, hi)| lo <= start && start < hi), "through has CFI:\n{text}");
    }
    let core = dir.join("prog.core");
    run(Command::new("gdb").current_dir(&dir).env_clear().env("PATH", "/usr/bin:/bin").env("HOME", &dir).args([
        "-q",
        "-batch",
        "-nx",
        "-ex",
        "run",
        "-ex",
        &format!("gcore {}", core.display()),
        "./prog",
    ]));
    let opts = CoreOptions {
        symbols: SymbolOptions { exes: vec![dir.join("prog")], system_debug_dir: true, ..Default::default() },
        ..Default::default()
    };
    let p = read_core_trace(&core, &opts).expect("core reads");
    let th = p.trace.main_stop().and_then(|s| s.crashed_thread()).expect("crashed thread");
    let names: Vec<&str> = th.frames.iter().map(|f| f.function_name()).collect();
    assert_eq!(names.get(..3), Some(&["store", "through", "main"][..]), "{names:?}");
    // `main`'s registers come from `through`'s prologue: its pushes saved main's rbx.
    let main = th.frames.iter().position(|f| f.function_name() == "main").expect("main");
    let idx = th.frames[main].index;
    let regs = th.registers.get(&idx).expect("main's registers");
    assert_eq!(regs.unwind, Some(UnwindMethod::Prologue));
    assert_eq!(regs.get("rbx"), Some(0x5151), "rbx restored from through's push");
    // Inside `through`, rbx is its own 0x1111 (set before the call).
    let t_idx = th.frames[main - 1].index;
    assert_eq!(th.registers.get(&t_idx).and_then(|r| r.get("rbx")), Some(0x1111));
    let _ = std::fs::remove_dir_all(&dir);
}
