//! Which runtime a frame belongs to, which calling convention it follows, and what that
//! convention pins in registers.
//!
//! The analyze stage hands frames to the rules; rules that reason about calling conventions
//! (`pinned-register`, `callee-saved-changed`, `stack-misaligned`) ask this module instead of
//! matching symbol prefixes themselves. Everything ABI-specific is data in the tables below
//! ([`PINNED_REGISTERS`], [`callee_saved`], [`argument_registers`]), each row with the source it
//! rests on (see `/work/shared/reference/pinned-registers.md`).
//!
//! The convention of a frame is inferred from its symbol name only. That is a heuristic: a C
//! function may be called `julia_foo`, and Julia code compiled with `gcstack_arg = false`
//! (GPUCompiler) has `julia_*` names but takes no pgcstack argument. Rules that depend on it
//! look for corroborating evidence (for example the function reading `r13` before writing it).

use crate::model::{Arch, Frame};

/// The runtime (language implementation) a frame's code comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Runtime {
    Julia,
    Go,
    Swift,
    Ghc,
    /// C, C++, Rust and anything else that only follows the platform ABI.
    Native,
}

impl Runtime {
    pub fn name(self) -> &'static str {
        match self {
            Runtime::Julia => "Julia",
            Runtime::Go => "Go",
            Runtime::Swift => "Swift",
            Runtime::Ghc => "GHC",
            Runtime::Native => "native",
        }
    }
}

/// The calling convention a frame was entered with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Convention {
    /// The platform C ABI (SysV x86-64, AAPCS64): nothing pinned beyond it. Also Julia's
    /// runtime (`jl_*`, `ijl_*`) and `jlplt_*` ccall thunks.
    SysV,
    /// Julia `julia_<name>_<n>`: specialized signature; since Julia 1.10 (default
    /// `gcstack_arg = true`) pgcstack arrives as a `swiftself` argument (r13 / x20).
    JuliaSpecsig,
    /// Julia `japi1_` / `japi3_` / `jfptr_` / `tojlinvoke`: the jlcall ABI `(F, args, nargs)`,
    /// C calling convention; gets pgcstack from TLS.
    JuliaJlcall,
    /// Julia `jlcapi_`: the C-ABI wrapper of a `@cfunction`. Entered from C, so it does not
    /// receive pgcstack; it must obtain it and hand it to the specsig body.
    JuliaCfunction,
    /// Go ABIInternal: g in r14 (amd64) / x28 (arm64).
    GoAbiInternal,
    /// Go ABI0: Go's assembly functions (`runtime.asmcgocall.abi0`, `runtime.mstart.abi0`)
    /// and the wrappers named after it. Nothing is pinned: g is not kept in a register, and
    /// they run on the system stack (g0) as often as on a goroutine's.
    GoAbi0,
    /// GHC's STG machine (LLVM `ghccc`): BaseReg, Sp, Hp, SpLim pinned.
    Ghc,
    /// Swift (`swiftcc`): self, error and async context in callee-saved registers.
    Swift,
}

impl Convention {
    /// Short name for messages: `C ABI`, `specsig`, …
    pub fn name(self) -> &'static str {
        match self {
            Convention::SysV => "C ABI",
            Convention::JuliaSpecsig => "specsig",
            Convention::JuliaJlcall => "jlcall ABI",
            Convention::JuliaCfunction => "C ABI",
            Convention::GoAbiInternal => "Go ABIInternal",
            Convention::GoAbi0 => "Go ABI0",
            Convention::Ghc => "GHC STG",
            Convention::Swift => "swiftcc",
        }
    }
    pub fn runtime(self) -> Runtime {
        match self {
            Convention::SysV => Runtime::Native,
            Convention::JuliaSpecsig | Convention::JuliaJlcall | Convention::JuliaCfunction => Runtime::Julia,
            Convention::GoAbiInternal | Convention::GoAbi0 => Runtime::Go,
            Convention::Ghc => Runtime::Ghc,
            Convention::Swift => Runtime::Swift,
        }
    }
}

/// How to tell whether a pinned register holds what the convention says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plausibility {
    /// Julia pgcstack: `&current_task->gcstack`. Writable heap or anonymous memory; the words
    /// at +0, +8, +16 are the innermost GC frame (NULL or this thread's stack), the world age
    /// (a small integer) and `ptls` (heap).
    JuliaPgcstack,
    /// Go `g`: a heap, anonymous or `.bss` pointer (never the stack); its first two words are
    /// `stack.lo`, `stack.hi`, which bracket sp when the goroutine runs on its own stack.
    GoG,
    /// Any pointer into writable, non-stack memory (GHC BaseReg → the capability's register
    /// table).
    WritablePointer,
    /// An argument that may hold anything (Swift self/error/async context, GHC Sp/Hp): listed
    /// for completeness, not checked.
    Unchecked,
}

/// One pinned or context register of a convention on one architecture.
#[derive(Clone, Copy, Debug)]
pub struct PinnedRegister {
    pub convention: Convention,
    pub arch: Arch,
    pub register: &'static str,
    /// What it holds, as a reader would name it.
    pub holds: &'static str,
    pub check: Plausibility,
    /// Where the fact comes from.
    pub source: &'static str,
}

const LLVM_X86: &str = "llvm-project llvm/lib/Target/X86/X86CallingConv.td";
const LLVM_A64: &str = "llvm-project llvm/lib/Target/AArch64/AArch64CallingConvention.td";
const JULIA_GCSTACK: &str = "JuliaLang/julia#50093 (pgcstack as swiftself, Julia >= 1.10)";
const GO_ABI: &str = "golang/go src/cmd/compile/abi-internal.md";

/// Every pinned register we know, per convention and architecture.
pub static PINNED_REGISTERS: &[PinnedRegister] = &[
    // Julia specsig with gcstack_arg = true (the default JIT since 1.10).
    PinnedRegister {
        convention: Convention::JuliaSpecsig,
        arch: Arch::X86_64,
        register: crate::arch::x86_64::JULIA_PGCSTACK,
        holds: "pgcstack",
        check: Plausibility::JuliaPgcstack,
        source: JULIA_GCSTACK,
    },
    PinnedRegister {
        convention: Convention::JuliaSpecsig,
        arch: Arch::Aarch64,
        register: crate::arch::aarch64::JULIA_PGCSTACK,
        holds: "pgcstack",
        check: Plausibility::JuliaPgcstack,
        source: JULIA_GCSTACK,
    },
    // Go ABIInternal.
    PinnedRegister {
        convention: Convention::GoAbiInternal,
        arch: Arch::X86_64,
        register: crate::arch::x86_64::GO_G,
        holds: "the current goroutine g",
        check: Plausibility::GoG,
        source: GO_ABI,
    },
    PinnedRegister {
        convention: Convention::GoAbiInternal,
        arch: Arch::Aarch64,
        register: crate::arch::aarch64::GO_G,
        holds: "the current goroutine g",
        check: Plausibility::GoG,
        source: GO_ABI,
    },
    // GHC (ghccc); the register map of recent GHC versions.
    PinnedRegister {
        convention: Convention::Ghc,
        arch: Arch::X86_64,
        register: "r13",
        holds: "BaseReg",
        check: Plausibility::WritablePointer,
        source: "llvm X86CallingConv.td CC_X86_64_GHC; ghc rts/include/stg/MachRegs/x86.h",
    },
    PinnedRegister {
        convention: Convention::Ghc,
        arch: Arch::X86_64,
        register: "rbp",
        holds: "Sp",
        check: Plausibility::Unchecked,
        source: "llvm X86CallingConv.td CC_X86_64_GHC",
    },
    PinnedRegister {
        convention: Convention::Ghc,
        arch: Arch::X86_64,
        register: "r12",
        holds: "Hp",
        check: Plausibility::Unchecked,
        source: "llvm X86CallingConv.td CC_X86_64_GHC",
    },
    PinnedRegister {
        convention: Convention::Ghc,
        arch: Arch::X86_64,
        register: "r15",
        holds: "SpLim",
        check: Plausibility::Unchecked,
        source: "llvm X86CallingConv.td CC_X86_64_GHC",
    },
    PinnedRegister {
        convention: Convention::Ghc,
        arch: Arch::Aarch64,
        register: "x19",
        holds: "BaseReg",
        check: Plausibility::WritablePointer,
        source: "llvm AArch64CallingConvention.td CC_AArch64_GHC",
    },
    PinnedRegister {
        convention: Convention::Ghc,
        arch: Arch::Aarch64,
        register: "x20",
        holds: "Sp",
        check: Plausibility::Unchecked,
        source: "llvm AArch64CallingConvention.td CC_AArch64_GHC",
    },
    PinnedRegister {
        convention: Convention::Ghc,
        arch: Arch::Aarch64,
        register: "x21",
        holds: "Hp",
        check: Plausibility::Unchecked,
        source: "llvm AArch64CallingConvention.td CC_AArch64_GHC",
    },
    PinnedRegister {
        convention: Convention::Ghc,
        arch: Arch::Aarch64,
        register: "x28",
        holds: "SpLim",
        check: Plausibility::Unchecked,
        source: "llvm AArch64CallingConvention.td CC_AArch64_GHC",
    },
    // Swift: context arguments in callee-saved registers; any value is legal.
    PinnedRegister {
        convention: Convention::Swift,
        arch: Arch::X86_64,
        register: "r13",
        holds: "self (swiftself)",
        check: Plausibility::Unchecked,
        source: LLVM_X86,
    },
    PinnedRegister {
        convention: Convention::Swift,
        arch: Arch::X86_64,
        register: "r12",
        holds: "error (swifterror)",
        check: Plausibility::Unchecked,
        source: LLVM_X86,
    },
    PinnedRegister {
        convention: Convention::Swift,
        arch: Arch::X86_64,
        register: "r14",
        holds: "async context (swiftasync)",
        check: Plausibility::Unchecked,
        source: LLVM_X86,
    },
    PinnedRegister {
        convention: Convention::Swift,
        arch: Arch::Aarch64,
        register: "x20",
        holds: "self (swiftself)",
        check: Plausibility::Unchecked,
        source: LLVM_A64,
    },
    PinnedRegister {
        convention: Convention::Swift,
        arch: Arch::Aarch64,
        register: "x21",
        holds: "error (swifterror)",
        check: Plausibility::Unchecked,
        source: LLVM_A64,
    },
    PinnedRegister {
        convention: Convention::Swift,
        arch: Arch::Aarch64,
        register: "x22",
        holds: "async context (swiftasync)",
        check: Plausibility::Unchecked,
        source: LLVM_A64,
    },
];

/// The pinned registers of `conv` on `arch`.
pub fn pinned_registers(conv: Convention, arch: Arch) -> impl Iterator<Item = &'static PinnedRegister> {
    PINNED_REGISTERS.iter().filter(move |p| p.convention == conv && p.arch == arch)
}

/// Callee-saved general registers of the platform C ABI (SysV `CSR_64`, AAPCS64
/// `CSR_AArch64_AAPCS` without lr): a conforming callee leaves them as it found them. From
/// the register tables in [`crate::arch`].
pub fn callee_saved(arch: Arch) -> &'static [&'static str] {
    match arch {
        Arch::X86_64 | Arch::Aarch64 => crate::arch::table(arch).map(|t| t.callee_saved).unwrap_or(&[]),
        _ => &[],
    }
}

/// Integer argument registers of the platform C ABI, in order.
pub fn argument_registers(arch: Arch) -> &'static [&'static str] {
    match arch {
        Arch::X86_64 | Arch::Aarch64 => crate::arch::table(arch).map(|t| t.arguments).unwrap_or(&[]),
        _ => &[],
    }
}

/// Stack alignment the platform ABI requires at a call (psABI §3.2.2, AAPCS64 §5.2.2.1).
pub fn stack_alignment(arch: Arch) -> Option<u64> {
    match arch {
        Arch::X86_64 | Arch::Aarch64 => Some(16),
        _ => None,
    }
}

/// GCC's clone suffixes (`main.cold`, `foo.part.0`): a dot in a C symbol, not a Go path.
fn is_gcc_clone_suffix(s: &str) -> bool {
    let head = s.split('.').next().unwrap_or(s);
    matches!(head, "cold" | "part" | "isra" | "constprop" | "lto_priv" | "localalias" | "clone" | "plt" | "sec" | "hot")
}

/// A Go symbol: `runtime.gopanic`, `main.main`, `net/http.(*conn).serve`,
/// `github.com/x/y.F`, `main.(*T).M`, `main.main.func1`.
fn is_go_name(name: &str) -> bool {
    if name.contains("::") || name.contains(' ') || name.starts_with('_') || name.contains('@') {
        return false;
    }
    // The package path ends at the first '.' after the last '/'.
    let last_seg_start = name.rfind('/').map(|i| i + 1).unwrap_or(0);
    let Some(dot) = name[last_seg_start..].find('.') else { return false };
    let pkg = &name[..last_seg_start + dot];
    let rest = &name[last_seg_start + dot + 1..];
    if rest.is_empty() || is_gcc_clone_suffix(rest) {
        return false;
    }
    let first = rest.chars().next().unwrap_or(' ');
    if !(first.is_alphabetic() || first == '(' || first == '_') {
        return false;
    }
    if pkg.contains('/') {
        // Module paths: `github.com/...`, `golang.org/x/...`, `net/http`.
        return pkg.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '-' | '_' | '~'));
    }
    matches!(
        pkg,
        "runtime"
            | "main"
            | "sync"
            | "syscall"
            | "reflect"
            | "os"
            | "fmt"
            | "io"
            | "bufio"
            | "strings"
            | "bytes"
            | "strconv"
            | "sort"
            | "time"
            | "errors"
            | "unicode"
            | "math"
            | "context"
            | "encoding"
            | "crypto"
            | "net"
            | "testing"
    )
}

/// A GHC-compiled symbol: `stg_*` RTS code, or z-encoded closure entry code
/// (`base_GHCziBase_zpzp_info`, `Main_main1_info`).
fn is_ghc_name(name: &str) -> bool {
    if name.starts_with("stg_") {
        return true;
    }
    let Some(stem) = ["_info", "_con_info", "_fast", "_entry", "_ret"].iter().find_map(|s| name.strip_suffix(s)) else {
        return false;
    };
    // z-encoding marks (`zi` = '.', `zd` = '$', `zu` = '_', `zm` = '-', `zp` = '+') or a
    // capitalised module prefix (`Main_…`); plain C `print_info` is neither.
    let z = ["zi", "zd", "zu", "zm", "zp", "zl", "zr", "zc", "zh"].iter().any(|m| stem.contains(m));
    let module_prefix = stem.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && stem.contains('_');
    z || module_prefix
}

/// The convention of a symbol, from its name alone.
pub fn convention_of_name(name: &str) -> Convention {
    let n = name.trim();
    // Julia's name prefixes (devdocs callconv.md, debuginfo.cpp jl_demangle).
    if n.starts_with("julia_") {
        return Convention::JuliaSpecsig;
    }
    if n.starts_with("japi1_")
        || n.starts_with("japi3_")
        || n.starts_with("jfptr_")
        || n.starts_with("tojlinvoke")
        || n.starts_with("jlcall_")
    {
        return Convention::JuliaJlcall;
    }
    if n.starts_with("jlcapi_") {
        return Convention::JuliaCfunction;
    }
    if n.starts_with("$s")
        || n.starts_with("_$s")
        || n.starts_with("$S")
        || n.starts_with("_$S")
        || n.starts_with("_T0")
    {
        return Convention::Swift;
    }
    if is_ghc_name(n) {
        return Convention::Ghc;
    }
    if let Some(base) = n.strip_suffix(".abi0")
        && is_go_name(base)
    {
        return Convention::GoAbi0;
    }
    if is_go_name(n) {
        return Convention::GoAbiInternal;
    }
    Convention::SysV
}

/// The runtime a symbol belongs to. Julia's C runtime (`jl_*`, `ijl_*`) and ccall thunks
/// (`jlplt_*`) are Julia but follow the C ABI.
pub fn runtime_of_name(name: &str) -> Runtime {
    let n = name.trim();
    if n.starts_with("jl_")
        || n.starts_with("ijl_")
        || n.starts_with("jlplt_")
        || n.starts_with("jlsys_")
        || n.starts_with("jsys1_")
    {
        return Runtime::Julia;
    }
    convention_of_name(n).runtime()
}

/// The convention a frame was entered with. Frames without a name are assumed to follow
/// the platform ABI.
pub fn convention(f: &Frame) -> Convention {
    match f.function.as_deref() {
        Some(n) => convention_of_name(n),
        None => Convention::SysV,
    }
}

pub fn runtime(f: &Frame) -> Runtime {
    match f.function.as_deref() {
        Some(n) => runtime_of_name(n),
        None => Runtime::Native,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn julia_prefixes() {
        assert_eq!(convention_of_name("julia_module_callback_4212"), Convention::JuliaSpecsig);
        assert_eq!(convention_of_name("jlcapi_module_callback_4213"), Convention::JuliaCfunction);
        assert_eq!(convention_of_name("jfptr_run_22"), Convention::JuliaJlcall);
        assert_eq!(convention_of_name("japi1_getindex_123"), Convention::JuliaJlcall);
        assert_eq!(convention_of_name("ijl_apply_generic"), Convention::SysV);
        assert_eq!(runtime_of_name("ijl_apply_generic"), Runtime::Julia);
        assert_eq!(runtime_of_name("jlplt_strlen_1"), Runtime::Julia);
        assert_eq!(convention_of_name("jlplt_strlen_1"), Convention::SysV);
        assert_eq!(convention_of_name("j_foo"), Convention::SysV);
    }

    #[test]
    fn go_names_and_c_lookalikes() {
        for g in [
            "runtime.gopanic",
            "main.main",
            "main.(*T).M",
            "main.main.func1",
            "net/http.(*conn).serve",
            "github.com/x/y.F",
            "sync.(*Mutex).Lock",
        ] {
            assert_eq!(convention_of_name(g), Convention::GoAbiInternal, "{g}");
        }
        // Go's assembly functions as their ELF symbols name them (a core, crashers/cgo-null):
        // ABI0, nothing pinned.
        for a in ["runtime.asmcgocall.abi0", "runtime.mstart.abi0", "runtime.systemstack.abi0"] {
            assert_eq!(convention_of_name(a), Convention::GoAbi0, "{a}");
            assert_eq!(pinned_registers(Convention::GoAbi0, Arch::X86_64).count(), 0);
        }
        // `.abi0` on something that is no Go name stays C.
        assert_eq!(convention_of_name("helper.abi0"), Convention::SysV);
        for c in [
            "main",
            "main.cold",
            "foo.part.0",
            "bar.isra.0",
            "std::vector<int>::at",
            "__GI_raise",
            "memcpy@plt",
            "histogram_add",
            "rust_panic::main",
        ] {
            assert_eq!(convention_of_name(c), Convention::SysV, "{c}");
        }
    }

    #[test]
    fn swift_and_ghc() {
        assert_eq!(convention_of_name("$s4main3FooV3baryyF"), Convention::Swift);
        assert_eq!(convention_of_name("stg_ap_p_fast"), Convention::Ghc);
        assert_eq!(convention_of_name("base_GHCziBase_zpzp_info"), Convention::Ghc);
        assert_eq!(convention_of_name("Main_main1_info"), Convention::Ghc);
        assert_eq!(convention_of_name("print_info"), Convention::SysV);
        assert_eq!(convention_of_name("get_entry"), Convention::SysV);
    }

    #[test]
    fn pinned_table() {
        let r: Vec<_> = pinned_registers(Convention::JuliaSpecsig, Arch::X86_64).map(|p| p.register).collect();
        assert_eq!(r, ["r13"]);
        let r: Vec<_> = pinned_registers(Convention::GoAbiInternal, Arch::Aarch64).map(|p| p.register).collect();
        assert_eq!(r, ["x28"]);
        assert!(pinned_registers(Convention::SysV, Arch::X86_64).next().is_none());
        // GHC's r13 is BaseReg, never a pgcstack.
        assert!(pinned_registers(Convention::Ghc, Arch::X86_64).all(|p| p.check != Plausibility::JuliaPgcstack));
        assert!(callee_saved(Arch::X86_64).contains(&"r13"));
        assert_eq!(argument_registers(Arch::X86_64)[1], "rsi");
    }
}
