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
    if let Some(f) = fortran_module_procedure(name).or_else(|| d_symbol(name)) {
        return f;
    }
    let d = demangle(name);
    if !name.starts_with("_Z") || d.as_ref() == name {
        return d.into_owned();
    }
    strip_params(&d).to_string()
}

/// [`gdb_function_name`] for a frame whose source file is known: a GNAT symbol in Ada source
/// is decoded as gdb decodes it (`ada_null_access__count_of` → `ada_null_access.count_of`).
pub fn gdb_function_name_at(name: &str, file: Option<&str>) -> String {
    match file.filter(|f| is_ada_source(f)).and_then(|_| ada_symbol(name)) {
        Some(a) => a,
        None => gdb_function_name(name),
    }
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

/// A D symbol (`_D` + qualified name + type, as gdc and ldc mangle it) as its dotted qualified
/// name: `_D9nullclass9Tokenizer4peekMFZi` → `nullclass.Tokenizer.peek`. gdb 13 prints the
/// mangled name in a backtrace unless the program's language is set to D. Only the plain shape
/// is decoded: length-prefixed identifiers (and `Q` back references to them) up to the
/// function's type, which must follow. A template instance (`__T…`), a nested function (more
/// identifiers after a function type) or anything else gives `None`, and the name is kept.
pub fn d_symbol(name: &str) -> Option<String> {
    let b = name.strip_prefix("_D")?.as_bytes();
    // Identifiers: start offset of each in `b` (for back references) and the text.
    let mut parts: Vec<(usize, &str)> = Vec::new();
    let mut i = 0;
    let lname = |i: usize| -> Option<(&str, usize)> {
        let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || b[i] == b'0' {
            return None;
        }
        let len: usize = std::str::from_utf8(&b[i..i + digits]).ok()?.parse().ok()?;
        let start = i + digits;
        let id = b.get(start..start.checked_add(len)?)?;
        let id = std::str::from_utf8(id).ok()?;
        let ident = id.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
            && id.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && !id.starts_with("__T")
            && !id.starts_with("__U");
        ident.then_some((id, start + len))
    };
    loop {
        match b.get(i) {
            Some(c) if c.is_ascii_digit() => {
                let (id, next) = lname(i)?;
                parts.push((i, id));
                i = next;
            }
            // A back reference: base-26 offset back from the `Q` (A-Z continue, a-z end).
            Some(b'Q') => {
                let mut n = 0usize;
                let mut j = i + 1;
                loop {
                    let c = *b.get(j)?;
                    j += 1;
                    match c {
                        b'A'..=b'Z' => n = n.checked_mul(26)?.checked_add(usize::from(c - b'A'))?,
                        b'a'..=b'z' => {
                            n = n.checked_mul(26)?.checked_add(usize::from(c - b'a'))?;
                            break;
                        }
                        _ => return None,
                    }
                }
                let target = i.checked_sub(n)?;
                let (id, _) = lname(target)?;
                parts.push((i, id));
                i = j;
            }
            _ => break,
        }
    }
    // The function's type: `F…` (extern(D)), `M` (a `this`), attributes `N…`/`x`/`y`/`O`/`Ng`.
    let rest = &b[i..];
    let typed =
        matches!(rest.first(), Some(b'F' | b'U' | b'W' | b'V' | b'R' | b'Y' | b'M' | b'N' | b'x' | b'y' | b'O'));
    // A nested function: another identifier right after the function type's `Z<ret>`; the
    // return types that carry identifiers (classes, structs, enums…) have a letter before theirs.
    let nested = rest.windows(2).any(|w| w[0] == b'Z' && w[1].is_ascii_digit());
    if parts.len() < 2 || !typed || nested {
        return None;
    }
    Some(parts.iter().map(|(_, id)| *id).collect::<Vec<_>>().join("."))
}

/// A GNAT (Ada) subprogram's symbol as gdb names it, for a frame whose source is Ada
/// (`.adb`/`.ads`; lldb prints the symbol): scopes joined by `__` become dots, a nested
/// subprogram's `.N` suffix goes, and a library-level procedure's `_ada_` prefix:
/// `ada_null_access__count_of.0` → `ada_null_access.count_of`, `_ada_main` → `main`. Names
/// outside that shape (upper case, leading `__`) give `None`.
pub fn ada_symbol(name: &str) -> Option<String> {
    let mut n = name.strip_prefix("_ada_").unwrap_or(name);
    if let Some((head, num)) = n.rsplit_once('.')
        && !num.is_empty()
        && num.bytes().all(|c| c.is_ascii_digit())
    {
        n = head;
    }
    let parts: Vec<&str> = n.split("__").collect();
    let word = |w: &&str| {
        !w.is_empty()
            && w.starts_with(|c: char| c.is_ascii_lowercase())
            && w.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
            && !w.ends_with('_')
    };
    parts.iter().all(word).then(|| parts.join("."))
}

/// cgo's wrapper of a C function, `_cgo_<12 hex>_Cfunc_<name>`, at a line outside its own
/// generated source (`cgo-gcc-prolog`): the code there is `<name>`'s, inlined into the wrapper
/// (a `static` function of the Go file's preamble); lldb 14 prints no inlined frame for it and
/// names the wrapper (gdb 13 shows `<name>` as an inlined frame).
pub fn cgo_inlined_callee<'a>(name: &'a str, file: Option<&str>) -> Option<&'a str> {
    let rest = name.strip_prefix("_cgo_")?;
    let (hash, callee) = rest.split_once("_Cfunc_")?;
    let file = file?;
    let base = file.rsplit('/').next().unwrap_or(file);
    let ok = hash.len() == 12
        && hash.bytes().all(|c| c.is_ascii_hexdigit())
        && !callee.is_empty()
        && callee.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        && base != "cgo-gcc-prolog";
    ok.then_some(callee)
}

/// Whether a source file is Ada's (GNAT: `.adb` bodies, `.ads` specs).
pub fn is_ada_source(file: &str) -> bool {
    file.ends_with(".adb") || file.ends_with(".ads")
}

/// A frame's function as gdb names it, from the symbol a debugger printed: a D symbol decoded
/// (gdb 13 prints it mangled), a GNAT symbol decoded when the frame's source is Ada (lldb
/// prints GNAT's symbols). `None` when the name is already gdb's.
pub fn language_symbol(name: &str, file: Option<&str>) -> Option<String> {
    if name.starts_with("_D") {
        return d_symbol(name);
    }
    if let Some(c) = cgo_inlined_callee(name, file) {
        return Some(c.to_string());
    }
    if file.is_some_and(is_ada_source) {
        return ada_symbol(name).filter(|a| a != name);
    }
    None
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
    fn d_symbols_as_dotted_names() {
        assert_eq!(d_symbol("_D9nullclass9Tokenizer4peekMFZi").as_deref(), Some("nullclass.Tokenizer.peek"));
        assert_eq!(d_symbol("_D9nullclass11countTokensFZi").as_deref(), Some("nullclass.countTokens"));
        assert_eq!(gdb_function_name("_D9nullclass11countTokensFZi"), "nullclass.countTokens");
        // A returned class names its own identifiers after a letter: still the plain shape.
        assert_eq!(d_symbol("_D3app6createFZC3app9Tokenizer").as_deref(), Some("app.create"));
        // A back reference to an earlier identifier (`Q` + base-26 offset).
        assert_eq!(d_symbol("_D3app3app3runFZv").as_deref(), Some("app.app.run"));
        assert_eq!(d_symbol("_D3app3fooQe3runFZv").as_deref(), Some("app.foo.foo.run"));
        assert_eq!(d_symbol("_D3app3fooQf3runFZv"), None); // 5 back is inside `app`: no identifier there
        // Look-alikes that stay as they are: `_Dmain`, C names, a nested function, a template
        // instance, a cut-off or lying length.
        for raw in
            ["_Dmain", "_D", "_DYNAMIC", "_D3app3runFZ4implFZv", "_D3app__T3mapTiZQhFZv", "_D3app99xFZv", "_D5hello"]
        {
            assert_eq!(d_symbol(raw), None, "{raw}");
        }
        assert_eq!(gdb_function_name("_DYNAMIC"), "_DYNAMIC");
    }

    #[test]
    fn cgo_wrappers_at_the_callees_line() {
        let w = "_cgo_c2992826da7b_Cfunc_sum_counts";
        assert_eq!(language_symbol(w, Some("cgo-assert.go")).as_deref(), Some("sum_counts"));
        // The wrapper's own code, and names that are not cgo's shape, stay.
        assert_eq!(language_symbol(w, Some("cgo-gcc-prolog")), None);
        assert_eq!(language_symbol(w, Some("/tmp/go-build/cgo-gcc-prolog")), None);
        assert_eq!(language_symbol(w, None), None);
        assert_eq!(language_symbol("_cgo_xyz_Cfunc_sum", Some("a.go")), None);
        assert_eq!(language_symbol("_cgoexp_d31e2c5e7df5_visitNode", Some("main.go")), None);
    }

    #[test]
    fn gnat_symbols_only_for_ada_sources() {
        assert_eq!(
            language_symbol("ada_null_access__count_of.0", Some("ada_null_access.adb")).as_deref(),
            Some("ada_null_access.count_of")
        );
        assert_eq!(
            language_symbol("_ada_ada_null_access", Some("src/ada_null_access.adb")).as_deref(),
            Some("ada_null_access")
        );
        // The same shape from C source is C's own name.
        assert_eq!(language_symbol("ada_null_access__count_of", Some("src/x.c")), None);
        assert_eq!(language_symbol("ada_null_access__count_of", None), None);
        // Not GNAT's shape (upper case, leading `__`), even from Ada source.
        assert_eq!(ada_symbol("__gnat_raise"), None);
        assert_eq!(ada_symbol("Count_Of"), None);
        assert_eq!(language_symbol("main", Some("b~main.adb")), None);
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
