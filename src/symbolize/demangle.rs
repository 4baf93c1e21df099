//! Demangling of Rust (legacy and v0) and Itanium C++ symbol names, the way binutils'
//! `addr2line -C` prints them, plus the parameter-less form gdb shows in backtraces.

use std::borrow::Cow;

/// Demangles `name` when it is a Rust or C++ mangled name; other names come back unchanged.
/// Rust names lose their hash (`{:#}`), as binutils and gdb print them.
pub fn demangle(name: &str) -> Cow<'_, str> {
    if let Ok(d) = rustc_demangle::try_demangle(name) {
        return Cow::Owned(format!("{d:#}"));
    }
    if name.starts_with("_Z")
        && let Ok(sym) = cpp_demangle::Symbol::new(name)
        && let Ok(s) = sym.demangle()
    {
        return Cow::Owned(s);
    }
    Cow::Borrowed(name)
}

/// [`demangle`], appended to `out` (Rust names are written straight into it, with no
/// string of their own).
pub fn demangle_into(name: &str, out: &mut String) {
    use std::fmt::Write as _;
    if let Ok(d) = rustc_demangle::try_demangle(name) {
        let _ = write!(out, "{d:#}");
        return;
    }
    out.push_str(&demangle(name));
}

/// The function name as gdb prints it in a backtrace: demangled, and for C++ without the
/// parameter list and trailing qualifiers (`ns::Foo::bar(int) const` → `ns::Foo::bar`).
pub fn gdb_function_name(name: &str) -> String {
    if let Some(f) = fortran_module_procedure(name) {
        return f;
    }
    let d = demangle(name);
    if !name.starts_with("_Z") || d.as_ref() == name {
        return d.into_owned();
    }
    strip_params(&d).to_string()
}

/// A gfortran module procedure's symbol as gdb names it: `__grid_MOD_smooth` → `grid::smooth`
/// (gfortran's `__<module>_MOD_<procedure>`; the module name is lower case and cannot contain
/// `_MOD_`). `None` for any other name.
pub fn fortran_module_procedure(name: &str) -> Option<String> {
    let rest = name.strip_prefix("__")?;
    let (module, proc_) = rest.split_once("_MOD_")?;
    let word = |w: &str| {
        !w.is_empty()
            && w.starts_with(|c: char| c.is_ascii_lowercase())
            && w.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
    };
    (word(module) && word(proc_)).then(|| format!("{module}::{proc_}"))
}

/// Cuts the last top-level parameter list of a demangled C++ name.
pub fn strip_params(d: &str) -> &str {
    let b = d.as_bytes();
    if !d.ends_with(')') && !d.ends_with(" const") && !d.ends_with('&') && !d.ends_with(" volatile") {
        return d;
    }
    // Find the '(' matching the last ')'.
    let Some(close) = d.rfind(')') else { return d };
    let mut depth = 0i32;
    let mut i = close + 1;
    while i > 0 {
        i -= 1;
        match b[i] {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    // `operator()` keeps its own parentheses.
                    if d[..i].ends_with("operator") || i == 0 {
                        return d;
                    }
                    return &d[..i];
                }
            }
            _ => {}
        }
    }
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gfortran_module_procedures_as_gdb_names_them() {
        assert_eq!(gdb_function_name("__grid_MOD_smooth"), "grid::smooth");
        assert_eq!(fortran_module_procedure("__fluid_dyn_MOD_step_2"), Some("fluid_dyn::step_2".into()));
        // Not gfortran's shape: a C name with _MOD_ but no leading `__`, upper case, empty parts.
        assert_eq!(fortran_module_procedure("grid_MOD_smooth"), None);
        assert_eq!(fortran_module_procedure("__Grid_MOD_smooth"), None);
        assert_eq!(fortran_module_procedure("___MOD_x"), None);
        assert_eq!(gdb_function_name("__libc_start_main"), "__libc_start_main");
    }

    #[test]
    fn rust_legacy_and_v0_lose_their_hash() {
        assert_eq!(demangle("_ZN9rust_null12read_payload17h0123456789abcdefE"), "rust_null::read_payload");
        assert_eq!(demangle("_RNvCs1234_7mycrate3foo"), "mycrate::foo");
    }

    #[test]
    fn demangle_into_appends_what_demangle_returns() {
        for n in [
            "_ZN9rust_null12read_payload17h0123456789abcdefE",
            "_RNvCs1234_7mycrate3foo",
            "_ZN3Foo3barEi",
            "main",
            "_Znot valid",
        ] {
            let mut s = String::from(">");
            demangle_into(n, &mut s);
            assert_eq!(s, format!(">{}", demangle(n)));
        }
    }

    #[test]
    fn cpp_and_plain_names() {
        assert_eq!(demangle("_ZN3Foo3barEi"), "Foo::bar(int)");
        assert_eq!(gdb_function_name("_ZN3Foo3barEi"), "Foo::bar");
        assert_eq!(gdb_function_name("_ZNK3Foo3bazEv"), "Foo::baz");
        assert_eq!(demangle("main"), "main");
        assert_eq!(gdb_function_name("main"), "main");
        assert_eq!(demangle("_Znot valid"), "_Znot valid");
    }
}
