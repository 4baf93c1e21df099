//! Crash signatures: a runtime-aware normalization of function names, the meaningful frames
//! of the crashed thread, a crash type, and a short stable id.
//!
//! The signature of a crash is `crash type | culprit > frame 2 > … > frame N` over
//! *normalized* names: addresses, offsets, build paths, Julia specialization numbers and
//! prefixes, Julia type parameters, Rust hashes and generic arguments, C++ templates, ABI
//! tags and parameter lists, Go package paths and compiler clone suffixes are dropped. See
//! docs/triage.md for the rules and for why N defaults to 3.

use crate::model::{Frame, Stop, StopKind};
use crate::roles;
use sha2::{Digest, Sha256};

/// Default number of meaningful frames in a signature (ClusterFuzz's crash state uses 3;
/// docs/triage.md has the measurement on the labelled set).
pub const DEFAULT_FRAMES: usize = 3;

/// A crash signature: a readable form and a short id derived from it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Signature {
    /// 16 hex digits of SHA-256 over `text`.
    pub id: String,
    /// `SIGSEGV/null | parse_field > load_config > main`.
    pub text: String,
}

impl Signature {
    pub fn new(crash_type: &str, frames: &[String]) -> Signature {
        let mut text = String::with_capacity(64);
        text.push_str(crash_type);
        text.push_str(" | ");
        if frames.is_empty() {
            text.push_str("(no symbolized frames)");
        }
        for (i, f) in frames.iter().enumerate() {
            if i > 0 {
                text.push_str(" > ");
            }
            text.push_str(f);
        }
        Signature { id: short_hash(text.as_bytes()), text }
    }
}

/// 16 lowercase hex digits of SHA-256.
pub fn short_hash(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    let mut s = String::with_capacity(16);
    for b in &d[..8] {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

/// Whether a frame counts for the signature: it has a usable name and is not signal
/// delivery, abort machinery, libc, an allocator or runtime internals (the same roles the
/// culprit uses, `roles::is_machinery`).
pub fn is_meaningful(f: &Frame) -> bool {
    let Some(name) = f.function.as_deref() else { return false };
    let n = name.trim();
    if n.is_empty() || n == "??" || n.starts_with("<unknown") || n.starts_with("unknown function") {
        return false;
    }
    if roles::is_machinery(f) {
        return false;
    }
    // Go's runtime (`runtime.sigpanic`, `runtime.gopanic`, the `panic(...)` frame of a traceback).
    if n.starts_with("runtime.") || (n == "panic" && f.file.as_deref().is_some_and(|p| p.contains("runtime/"))) {
        return false;
    }
    !is_startup(n)
}

/// Process and thread start-up frames: every crash has them, they say nothing about it.
fn is_startup(n: &str) -> bool {
    matches!(
        n,
        "_start"
            | "__libc_start_main"
            | "__libc_start_call_main"
            | "__libc_start_main_impl"
            | "start_thread"
            | "clone"
            | "clone3"
            | "__clone"
            | "__clone3"
            | "runtime.goexit"
            | "runtime.main"
            | "std::rt::lang_start"
            | "std::rt::lang_start_internal"
            | "std::sys::backtrace::__rust_begin_short_backtrace"
            | "std::sys_common::backtrace::__rust_begin_short_backtrace"
            | "core::ops::function::FnOnce::call_once"
            | "std::panicking::try"
            | "std::panic::catch_unwind"
    ) || n.starts_with("std::rt::lang_start::")
}

/// The normalized form of one function name. Total: any input gives some output, never a
/// panic; empty input gives `??`.
pub fn normalize_function(raw: &str) -> String {
    let mut s = raw.trim();
    // `foo+0x12`, `foo + 18`, `foo@plt`, `foo@@GLIBC_2.2.5`.
    if let Some(i) = s.find("@") {
        s = &s[..i];
    }
    if let Some(i) = s.find('+') {
        // Keep C++ `operator+`.
        if !s[..i].ends_with("operator") {
            s = s[..i].trim_end();
        }
    }
    // Go: `github.com/org/repo/pkg/sub.(*T).Method` → `sub.(*T).Method`.
    let s = strip_go_path(s);
    // Rust legacy hash `::h0123456789abcdef`.
    let s = strip_rust_hash(s);
    // Rust `<T as Trait>::method` → `T::method`; closures `{{closure}}` → `{closure}` kept.
    let s = rust_qualified_self(&s).replace("{{closure}}", "closure");
    // Templates/generics and Julia type parameters: drop everything inside <...> and {...}.
    let s = strip_brackets(&s, '<', '>');
    let s = strip_brackets(&s, '{', '}');
    // C++ ABI tags `[abi:cxx11]`.
    let s = strip_brackets(&s, '[', ']');
    // C++ parameter lists `(int, char*) const`, but not Go's `(*T)` receivers nor Julia's
    // `#foo##0` closures: a parameter list is the last top-level `(…)` followed by nothing or
    // by cv/ref qualifiers.
    let s = strip_params(&s);
    // Compiler clones: `.cold`, `.isra.0`, `.constprop.0`, `.part.0`, `.lto_priv.0`, `.llvm.123`.
    let s = strip_clone_suffix(&s);
    let s = strip_julia(&s);
    let s = s.trim();
    if s.is_empty() { "??".to_string() } else { s.to_string() }
}

fn strip_go_path(s: &str) -> &str {
    // Only for names that look like Go import paths: a '/' before the first '('.
    let head_end = s.find('(').unwrap_or(s.len());
    let head = &s[..head_end];
    if head.contains('/')
        && !head.contains(' ')
        && !head.contains("::")
        && let Some(i) = head.rfind('/')
    {
        return &s[i + 1..];
    }
    s
}

fn strip_rust_hash(s: &str) -> String {
    let mut out = s.to_string();
    while let Some(i) = out.rfind("::h") {
        let tail = &out[i + 3..];
        let hex = tail.bytes().take_while(|b| b.is_ascii_hexdigit()).count();
        if hex == 16 && (tail.len() == 16 || !tail.as_bytes()[16].is_ascii_alphanumeric()) {
            out.replace_range(i..i + 3 + 16, "");
        } else {
            break;
        }
    }
    out
}

fn rust_qualified_self(s: &str) -> String {
    if !s.starts_with('<') {
        return s.to_string();
    }
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '<' => depth += 1,
            '>' if i > 0 && s.as_bytes()[i - 1] == b'-' => {}
            '>' => {
                depth -= 1;
                if depth == 0 {
                    let inner = &s[1..i];
                    let ty = top_level_split_as(inner);
                    return format!("{}{}", ty, &s[i + 1..]);
                }
            }
            _ => {}
        }
    }
    s.to_string()
}

/// `Vec<T> as Drop` → `Vec<T>` (the ` as ` outside any brackets).
fn top_level_split_as(s: &str) -> &str {
    let mut depth = 0i32;
    let b = s.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'<' | b'(' | b'[' => depth += 1,
            b'>' | b')' | b']' => depth -= 1,
            b' ' if depth == 0 && s[i..].starts_with(" as ") => return &s[..i],
            _ => {}
        }
    }
    s
}

fn strip_brackets(s: &str, open: char, close: char) -> String {
    if !s.contains(open) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut depth = 0usize;
    let mut prev = '\0';
    for c in s.chars() {
        // `operator<`, `operator<<`, `->`: not brackets.
        let arrow = c == '>' && prev == '-';
        if c == open && !(open == '<' && out.ends_with("operator")) && !(open == '<' && prev == '<' && depth == 0) {
            depth += 1;
        } else if c == close && depth > 0 && !arrow {
            depth -= 1;
        } else if depth == 0 {
            out.push(c);
        }
        prev = c;
    }
    out
}

fn strip_params(s: &str) -> String {
    let t = s.trim_end();
    let mut t = t;
    for q in [" const", " volatile", " &&", " &", " noexcept"] {
        if let Some(x) = t.strip_suffix(q) {
            t = x.trim_end();
        }
    }
    if !t.ends_with(')') {
        return s.to_string();
    }
    // Find the matching '('.
    let mut depth = 0i32;
    for (i, c) in t.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    let inner = &t[i + 1..t.len() - 1];
                    // Go receivers `(*T)` stay; an empty head means the name *is* `(…)`.
                    if inner.starts_with('*') || i == 0 {
                        return s.to_string();
                    }
                    return t[..i].trim_end().to_string();
                }
            }
            _ => {}
        }
    }
    s.to_string()
}

fn strip_clone_suffix(s: &str) -> String {
    const MARKS: &[&str] = &[".cold", ".isra", ".constprop", ".part", ".lto_priv", ".llvm.", ".localalias"];
    let mut end = s.len();
    for m in MARKS {
        if let Some(i) = s.find(m) {
            // Only when the mark is a suffix chain (`foo.isra.0`), not `pkg.cold()`-like Go names.
            let rest = &s[i..];
            if rest.split('.').skip(1).all(|p| p.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')) {
                end = end.min(i);
            }
        }
    }
    s[..end].to_string()
}

/// Julia: `julia_foo_4212` → `foo`, `jfptr_foo_22` → `foo`, `jlcapi_foo_4213` → `foo`,
/// `japi1_foo_7` → `foo`, `ijl_apply_generic` → `jl_apply_generic`, `#foo#12` → `foo`,
/// `foo##kw` → `foo`.
fn strip_julia(s: &str) -> String {
    let mut n = s;
    if let Some(x) = n.strip_prefix("ijl_") {
        return format!("jl_{x}");
    }
    let mut specialized = false;
    for p in ["julia_", "jfptr_", "jlcapi_", "japi1_", "japi3_", "tojlinvoke", "jlcall_", "jlplt_", "jsys1_", "jlsys_"]
    {
        if let Some(x) = n.strip_prefix(p) {
            n = x;
            specialized = true;
            break;
        }
    }
    let mut out = n.to_string();
    if specialized {
        // Trailing `_<digits>` specialization numbers (possibly several: `foo_12_34`).
        while let Some(i) = out.rfind('_') {
            let tail = &out[i + 1..];
            if !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) && i > 0 {
                out.truncate(i);
            } else {
                break;
            }
        }
    }
    // Closures and keyword sorters: `#foo#12`, `#12`, `foo##kw`, `var"#foo#3"`.
    if out.contains('#') {
        let stripped = out.trim_start_matches("var\"").trim_end_matches('"');
        let part = stripped.split('#').find(|p| !p.is_empty() && !p.bytes().all(|b| b.is_ascii_digit()));
        out = part.unwrap_or(stripped).to_string();
        if out == "kw" {
            out = "??".to_string();
        }
    }
    out
}

/// The class of a crash: signal plus what the fault address or the runtime message says
/// (the analogue of ClusterFuzz's crash type). `SIGSEGV/null`, `SIGSEGV/wild`,
/// `SIGABRT/assert`, `SIGABRT/heap`, `panic`, `go-fatal`, …
pub fn crash_type(stop: &Stop) -> String {
    let r = &stop.reason;
    let sig = r.signal.as_deref().map(|s| s.to_string()).unwrap_or_else(|| match r.kind {
        StopKind::RuntimeError => "fatal".to_string(),
        StopKind::RrFatal => "rr-fatal".to_string(),
        StopKind::Exited => "exited".to_string(),
        StopKind::Breakpoint => "breakpoint".to_string(),
        StopKind::Watchpoint => "watchpoint".to_string(),
        _ => "unknown".to_string(),
    });
    let msg: String = stop.messages.iter().map(|m| m.text.to_ascii_lowercase()).collect::<Vec<_>>().join("\n");
    let class = if msg.contains("panicked at") || msg.starts_with("panic:") || msg.contains("\npanic:") {
        Some("panic")
    } else if msg.contains("assertion") || msg.contains("assert") {
        Some("assert")
    } else if msg.contains("double free")
        || msg.contains("free(): ")
        || msg.contains("malloc(): ")
        || msg.contains("corrupted")
        || msg.contains("munmap_chunk")
        || msg.contains("realloc(): ")
    {
        Some("heap")
    } else if msg.contains("stack smashing") || msg.contains("buffer overflow detected") {
        Some("stack-smash")
    } else if msg.contains("terminate called") {
        Some("terminate")
    } else if msg.contains("fatal error:") {
        Some("fatal-error")
    } else {
        None
    };
    let class = class.map(str::to_string).or_else(|| {
        let a = r.address?.0;
        Some(if a < 0x10000 {
            "null".to_string()
        } else if (0x0000_8000_0000_0000..0xffff_8000_0000_0000).contains(&a) {
            "noncanonical".to_string()
        } else {
            "wild".to_string()
        })
    });
    match class {
        Some(c) => format!("{sig}/{c}"),
        None => sig,
    }
}

/// Whether two crash types can be the same bug: the same signal, and the same class when
/// both have one (a transcript without the fault address has no class).
pub fn compatible_types(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    match (a.split_once('/'), b.split_once('/')) {
        (Some(_), Some(_)) => false,
        (Some((sa, _)), None) => sa == b,
        (None, Some((sb, _))) => sb == a,
        (None, None) => false,
    }
}

/// The signal part of a crash type (`SIGSEGV/null` → `SIGSEGV`).
pub fn signal_of_type(t: &str) -> &str {
    t.split_once('/').map_or(t, |(s, _)| s)
}

/// `/home/ci/build/src/foo.c` → `foo.c`: build paths differ between machines.
pub fn normalize_file(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn julia_names() {
        assert_eq!(normalize_function("julia_module_callback_4212"), "module_callback");
        assert_eq!(normalize_function("jlcapi_module_callback_4213"), "module_callback");
        assert_eq!(normalize_function("jfptr_run_22"), "run");
        assert_eq!(normalize_function("ijl_gc_small_alloc"), "jl_gc_small_alloc");
        assert_eq!(normalize_function("julia_#foo#12_99"), "foo");
        assert_eq!(normalize_function("applychain{Tuple{Dense{typeof(tanh)}}}"), "applychain");
        assert_eq!(normalize_function("japi1_setindex!_345"), "setindex!");
    }

    #[test]
    fn rust_names() {
        assert_eq!(normalize_function("rust_null::parse::h0123456789abcdef"), "rust_null::parse");
        assert_eq!(normalize_function("core::ptr::drop_in_place<alloc::vec::Vec<u8>>"), "core::ptr::drop_in_place");
        assert_eq!(normalize_function("<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop"), "alloc::vec::Vec::drop");
        assert_eq!(
            normalize_function("std::panicking::begin_panic_handler::{{closure}}"),
            "std::panicking::begin_panic_handler::closure"
        );
    }

    #[test]
    fn cpp_names() {
        assert_eq!(
            normalize_function("std::vector<int, std::allocator<int> >::at(unsigned long) const"),
            "std::vector::at"
        );
        assert_eq!(normalize_function("ns::to_string[abi:cxx11](int)"), "ns::to_string");
        assert_eq!(normalize_function("Foo::operator<(Foo const&)"), "Foo::operator<");
        assert_eq!(normalize_function("parse_field.isra.0"), "parse_field");
        assert_eq!(normalize_function("parse_field.cold"), "parse_field");
        assert_eq!(normalize_function("memcpy@plt"), "memcpy");
        assert_eq!(normalize_function("foo+0x1c"), "foo");
    }

    #[test]
    fn go_names() {
        assert_eq!(normalize_function("github.com/acme/svc/internal/store.(*DB).Get"), "store.(*DB).Get");
        assert_eq!(normalize_function("main.main.func1"), "main.main.func1");
    }

    #[test]
    fn hostile_names_do_not_panic() {
        for s in
            ["", "(", ")", "<<<<", ">>>", "{{}}}", "::h", "julia_", "julia__1", "#", "var\"#\"", "\u{1b}[31m", "é<ü>"]
        {
            let _ = normalize_function(s);
        }
        assert_eq!(normalize_function(""), "??");
    }

    #[test]
    fn signature_id_is_stable() {
        let s = Signature::new("SIGSEGV/null", &["parse_field".into(), "load_config".into()]);
        assert_eq!(s.text, "SIGSEGV/null | parse_field > load_config");
        assert_eq!(s.id.len(), 16);
        assert_eq!(s, Signature::new("SIGSEGV/null", &["parse_field".into(), "load_config".into()]));
        assert_ne!(s.id, Signature::new("SIGSEGV/wild", &["parse_field".into(), "load_config".into()]).id);
    }
}
