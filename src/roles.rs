//! Frame roles (knowledge): which frames are signal delivery, abort machinery, libc,
//! allocators or runtime internals, and so which frame of a stop is its culprit: the first
//! frame that is none of these. The analyze stage computes the culprits once; rules get them
//! in their context.

use crate::model::*;

/// A frame of the code that raises a signal in its own thread: `abort`, `raise`, glibc's and
/// musl's `pthread_kill`, the `tgkill` wrapper, Rust's `abort_internal`. A signal whose
/// thread shows none of these (and that the kernel did not raise for an instruction) was sent
/// from elsewhere.
pub fn raises_signal(f: &Frame) -> bool {
    matches!(
        f.function_name(),
        "raise"
            | "abort"
            | "__GI_raise"
            | "__GI_abort"
            | "gsignal"
            | "__pthread_kill_implementation"
            | "__pthread_kill_internal"
            | "pthread_kill"
            | "__pthread_kill"
            | "tgkill"
            | "__restore_sigs"
            | "std::sys::pal::unix::abort_internal"
            | "std::sys::unix::abort_internal"
            | "std::process::abort"
    )
}

/// Frames that belong to signal delivery, abort machinery, libc, allocators and runtime
/// internals: the culprit is the first frame that is none of these.
/// A gcc clone's or outlined part's function name without its suffix (`.cold`, `.part.0`,
/// `.isra.0`, `.constprop.0`, `.lto_priv.0`); the name itself otherwise.
fn clone_base(name: &str) -> &str {
    const PARTS: &[&str] = &["cold", "part", "isra", "constprop", "lto_priv", "localalias"];
    let mut base = name;
    while let Some((head, tail)) = base.rsplit_once('.') {
        let known = PARTS.contains(&tail) || (tail.bytes().all(|b| b.is_ascii_digit()) && !tail.is_empty());
        if head.is_empty() || !known {
            break;
        }
        base = head;
    }
    base
}

/// The code of a language runtime that hosts the program's native code (an interpreter, a VM)
/// and that native code calls into only through the runtime's API: CPython's `Py*`/`_Py*`
/// functions (an extension's own `PyInit_<module>` is the extension's), HotSpot's libjvm (the
/// VM's signal handler, `os::abort`, `VMError::report_and_die`), V8 and Node.js (`v8::`,
/// `node::`, N-API's `napi_*`, V8's embedded `Builtins_*`), Lua's API and internals
/// (`lua_*`, `luaL_*`, `luaD_*`…; a C module's `luaopen_<name>` is the module's) and libperl
/// (`Perl_*`). Such a frame is where the program's code called the runtime (`Py_FatalError`,
/// `napi_fatal_error`, JNI's `FatalError`, `lua_call`), not the code that went wrong; the
/// interpreter's executable is often the process's own (`python3.11`, `node`, `perl`), so
/// its module does not tell.
fn is_hosting_runtime(name: &str, module: &str) -> bool {
    let base = module.rsplit('/').next().unwrap_or(module);
    if ["libjvm.", "libpython3", "liblua5", "liblua.", "libperl.", "libnode."].iter().any(|m| base.starts_with(m)) {
        return true;
    }
    let name = without_params(name);
    if (name.starts_with("Py") || name.starts_with("_Py")) && !name.starts_with("PyInit_") {
        let rest = name.trim_start_matches('_').trim_start_matches("Py");
        // CPython's API is `Py` + a capitalized word or `_` (`PyObject_Call`, `Py_RunMain`,
        // `_PyEval_EvalFrameDefault`), never a lower-case continuation (`pytest_main`).
        return rest.starts_with(|c: char| c.is_ascii_uppercase() || c == '_');
    }
    if ["v8::", "v8impl::", "node::", "Builtins_", "napi_", "Perl_", "perl_"].iter().any(|p| name.starts_with(p)) {
        return true;
    }
    if let Some(rest) = name.strip_prefix("lua")
        && !rest.starts_with("open_")
    {
        // `lua_call`, `luaL_error`, `luaD_throw`, `luaG_typeerror`, `luaV_execute`
        let mut r = rest.chars();
        return match (r.next(), r.next()) {
            (Some('_'), _) => true,
            (Some(c), Some('_')) => c.is_ascii_uppercase(),
            _ => false,
        };
    }
    false
}

pub fn is_machinery(f: &Frame) -> bool {
    is_machinery_base(f) || is_hosting_runtime(f.function.as_deref().unwrap_or(""), f.module.as_deref().unwrap_or(""))
}

/// [`is_machinery`] without the hosting runtimes' frames: when a stack is all the runtime's
/// (a V8 `CHECK` failure, Node's own fatal error, a recursion inside the interpreter), the
/// runtime's function is the culprit.
fn is_machinery_base(f: &Frame) -> bool {
    if f.signal_handler {
        return true;
    }
    let name = f.function.as_deref().unwrap_or("");
    let module = f.module.as_deref().unwrap_or("");
    let file = f.file.as_deref().unwrap_or("");
    // Sanitizer runtimes (interceptors, allocator, reporting) and valgrind's preload.
    if name.starts_with("__interceptor_")
        || name.starts_with("__asan_")
        || name.starts_with("__tsan_")
        || name.starts_with("__msan_")
        || name.starts_with("__ubsan_")
        || name.starts_with("__sanitizer_")
        || file.contains("/libsanitizer/")
        || file.contains("compiler-rt/lib/")
        || module.contains("vgpreload_")
        // The sanitizer runtimes' own libraries (`libtsan.so.0+0x5271c`, `libclang_rt.asan_osx_dynamic.dylib`).
        || ["libasan.", "libtsan.", "libmsan.", "liblsan.", "libubsan.", "libhwasan.", "libclang_rt."]
            .iter()
            .any(|m| module.rsplit('/').next().is_some_and(|f| f.starts_with(m)))
        // valgrind's replacements of libc's string and allocation functions, named by their
        // source file when valgrind prints `rindex (vg_replace_strmem.c:210)`.
        || matches!(file.rsplit('/').next(), Some("vg_replace_strmem.c" | "vg_replace_malloc.c"))
    {
        return true;
    }
    // Standard library template code inlined into the program's function, printed by a tool
    // that gives only the header's file name (valgrind: `by 0x1C81A4: operator()
    // (unique_ptr.h:85)`, then the program's function at the same address).
    if f.inlined && is_cxx_std_header(file.rsplit('/').next().unwrap_or("")) {
        return true;
    }
    const EXACT: &[&str] = &[
        "raise",
        "abort",
        "__GI_raise",
        "__GI_abort",
        "gsignal",
        "__pthread_kill_implementation",
        "__pthread_kill_internal",
        "pthread_kill",
        "__pthread_kill",
        "__libc_message",
        "__libc_message_impl",
        // i386: the kernel's system-call entry in the vDSO, under every raise/kill/abort
        "__kernel_vsyscall",
        // libstdc++'s own precondition checks (_GLIBCXX_ASSERTIONS)
        "std::__glibcxx_assert_fail",
        "__glibcxx_assert_fail",
        "__malloc_assert",
        "malloc_printerr",
        "__assert_fail",
        "__assert_fail_base",
        "__assert_perror_fail",
        "__fortify_fail",
        "__chk_fail",
        "__stack_chk_fail",
        "__stack_chk_fail_local",
        "_int_free",
        "_int_malloc",
        "_int_realloc",
        "__GI___libc_free",
        "__libc_free",
        "free",
        "malloc",
        "realloc",
        "calloc",
        "cfree",
        // glibc's internal names of the same entry points (a static binary's symbol table has
        // both at one address; lldb may print either) and the aligned allocators.
        "__free",
        "__malloc",
        "__realloc",
        "__calloc",
        "__reallocarray",
        "reallocarray",
        "memalign",
        "aligned_alloc",
        "posix_memalign",
        "__posix_memalign",
        "_int_memalign",
        "_mid_memalign",
        "tcache_double_free_verify",
        "munmap_chunk",
        // Node.js's fatal-error path.
        "node::Abort",
        "node::OnFatalError",
        "node::FatalError",
        "node::OOMErrorHandler",
        "v8::Utils::ReportApiFailure",
        "v8::api_internal::ToLocalEmpty",
        "v8::V8::ToLocalEmpty",
        "_int_free_merge_chunk",
        "_int_free_create_chunk",
        "_int_free_maybe_consolidate",
        "__GI___clock_nanosleep",
        "std::terminate",
        "__clang_call_terminate",
        "__cxa_pure_virtual",
        "__cxa_deleted_virtual",
        "__cxa_call_terminate",
        "__cxa_call_unexpected",
        "__longjmp_chk",
        "____longjmp_chk",
        "longjmp_chk",
        "__restore_sigs",
        "__cxa_throw",
        "__cxa_rethrow",
        "__gxx_personality_v0",
        "_Unwind_RaiseException",
        "_Unwind_Resume",
        "__cxxabiv1::__terminate",
        "__gnu_cxx::__verbose_terminate_handler",
        "std::__throw_out_of_range_fmt",
        "std::__throw_out_of_range",
        "std::__throw_bad_alloc",
        "std::__throw_logic_error",
        "std::__throw_length_error",
        "std::__throw_invalid_argument",
        "jl_throw",
        "ijl_throw",
        "jl_error",
        "ijl_error",
        "jl_errorf",
        "ijl_errorf",
        "jl_sig_throw",
        "jl_rethrow",
        "ijl_rethrow",
        "jl_bounds_error",
        "ijl_bounds_error_int",
        "jl_type_error",
        "ijl_type_error",
        "jl_gc_collect",
        "ijl_gc_collect",
        "jl_apply_generic",
        "ijl_apply_generic",
        "jl_invoke",
        "ijl_invoke",
        "_jl_invoke",
        "jl_apply",
        "jl_critical_error",
        "jl_exit_thread0_cb",
        "sigdie_handler",
        "segv_handler",
        "jl_call_in_ctx",
        "signal_listener",
        "runtime.sigpanic",
        "runtime.raise",
        "runtime.raisebadsignal",
        "runtime.crash",
        "runtime.dieFromSignal",
        "runtime.fatalthrow",
        "runtime.fatalpanic",
        "runtime.throw",
        "runtime.gopanic",
        "runtime.sighandler",
        "runtime.sigtrampgo",
        "runtime.sigtramp",
        "runtime.panicmem",
        "runtime.panicmemAddr",
        "runtime.panicIndex",
        // Qt's fatal message and assertion path (`qFatal`, `Q_ASSERT`): it aborts on the
        // caller's behalf.
        // V8's and Node.js's fatal-error printers (a failed `CHECK`).
        "V8_Fatal",
        "node::DumpBacktrace",
        "QMessageLogger::fatal",
        "qt_message_fatal",
        "qFatal",
        "qt_assert",
        "qt_assert_x",
        "rust_panic",
        "__rust_start_panic",
        "rust_begin_unwind",
        // macOS's symbol table keeps the C-level underscore.
        "_rust_begin_unwind",
        "__rust_end_short_backtrace",
        "__rust_abort",
        "__libc_start_call_main",
        "__libc_start_main_impl",
        "__libc_start_main",
        "_start",
        "start_thread",
        "clone3",
        "clone",
    ];
    // gcc's outlined and cloned parts keep their function's role: `__assert_fail_base.cold`,
    // `_int_free.isra.0`, `malloc_printerr.constprop.0`.
    let base = clone_base(name);
    let bare = without_params(name);
    if EXACT.contains(&name) || EXACT.contains(&base) || EXACT.contains(&bare) || is_llvm_handler(name) {
        return true;
    }
    const PREFIXES: &[&str] = &[
        "core::panicking::",
        "std::panicking::",
        "std::sys::",
        "std::rt::",
        "core::result::unwrap_failed",
        "core::option::unwrap_failed",
        "core::option::expect_failed",
        "std::process::abort",
        "core::slice::index::",
        "panic_abort::",
        "std::sys_common::backtrace",
        "std::backtrace_rs",
        "__rust_",
        // rustc 1.90+ names the std-internal symbols `__rustc::rust_begin_unwind`,
        // `__rustc::__rust_abort` (lldb prints them so; gdb drops the prefix).
        "__rustc::",
        // rustc's `bug!`/`span_bug!` (every internal compiler error raised by the compiler
        // itself goes through them, `bug_fmt` and its TLS closures): the ICE's reporting
        // machinery, not the compiler code that found the bug.
        "rustc_middle::util::bug::",
        "rustc_middle::ty::context::tls::with_",
        "__GI___",
        "__libc_",
        "__pthread_",
        "_dl_",
        "__sigsetjmp",
        "runtime.",
        "jl_gc_",
        "gc_mark",
        "gc_sweep",
        "ijl_gc_",
        "_Unwind_",
        "__cxxabiv1",
        "std::__throw",
        "__gnu_cxx::__verbose",
        "__interceptor_",
        "__asan",
        "__sanitizer",
        "__ubsan",
        "__tsan",
        "__msan",
        "_jl_gc_",
        "gc_dump_queue_and_abort",
        "gc_assert_datatype_fail",
        "jl_datatype_layout",
        // V8's own backtrace printer and Node.js's stack-trace printer under `V8_Fatal`.
        "v8::base::debug::",
        "node::NodePlatform::GetStackTracePrinter",
        // Windows Implementation Libraries' failure reporting (`wil::details::ReportFailure_Hr`,
        // `…RaiseFailFastException`, `DebugBreak`): the fail-fast path a caller's error took.
        "wil::details::",
        // Zig's standard library (`std.debug.panicExtra`, `std.start.callMain`).
        "std.debug.",
        "std.start.",
        "std.builtin.",
        // Rust's wasm allocator.
        "dlmalloc::",
    ];
    if PREFIXES.iter().any(|p| name.starts_with(p)) {
        return true;
    }
    // glibc's fortified entry points (`__memcpy_chk`, `__stpcpy_chk`, `__sprintf_chk`, …):
    // the bound check the compiler put in the caller's place, also in a static binary where
    // no libc module or source file names them.
    if let Some(core) = name.strip_prefix("__").and_then(|n| n.strip_suffix("_chk"))
        && !core.is_empty()
        && core.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return true;
    }
    // The language's own library: Rust's core/std/alloc (sources under `/rustc/<hash>/library/`,
    // or `library/std/src/…` as rustc records them for the prebuilt std), and the C++ standard
    // library headers (`std::vector::at` → `_M_range_check`). Such frames name the library
    // function that noticed the problem, not the caller that misused it.
    // A real frame (not inlined) of a plain (un-namespaced) function whose pc's line is in a C++
    // standard header: the program's own function, its line taken from header code inlined
    // into it without an inlined-frame record (g++'s `.cold` part of `parse_level` throwing,
    // which gdb prints `parse_level (s="high") at /usr/include/c++/12/bits/new_allocator.h:90`).
    // The standard library's own functions are all namespaced (`std::`, `__gnu_cxx::`).
    let own_in_cxx_header = !f.inlined
        && file.contains("/include/c++/")
        && !name.is_empty()
        && !name.contains("::")
        && !name.contains('<')
        && !name.starts_with("__")
        && !name.starts_with("operator")
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    // The same for Rust: a real frame of a function of the program's own crate whose pc's
    // line is the standard library's (a stack probe or an iterator inlined without an
    // inlined-frame record: `rust_app::parse_block` at `/rustc/<hash>/library/core/src/iter/
    // adapters/map.rs`). The standard library's functions and its generic code instantiated
    // for the program's types (`core::ptr::drop_in_place<app::Node>`) start with its crates.
    let own_rust_fn = !f.inlined
        && is_rust_std_source(file)
        && name.contains("::")
        && !name.starts_with('<')
        && !["core::", "std::", "alloc::", "panic_abort::", "panic_unwind::", "__rust", "__rustc::"]
            .iter()
            .any(|p| name.starts_with(p));
    if !own_in_cxx_header && !own_rust_fn && is_toolchain_source(file) {
        return true;
    }
    const STD_NAMESPACES: &[&str] =
        &["core::", "std::", "alloc::", "__gnu_cxx::", "__cxxabiv1::", "panic_abort::", "panic_unwind::"];
    // No path to tell: no file, or only its base name (lldb prints `at mod.rs:2091:9` where
    // gdb prints `/rustc/<hash>/library/core/src/ptr/mod.rs`).
    if !file.contains('/') && STD_NAMESPACES.iter().any(|p| name.starts_with(p)) {
        return true;
    }
    // A Rust trait method of a standard-library type, by the standard library's trait
    // (`<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop`): the library's code. The same
    // trait implemented for the program's own type (`<app::Cache as core::ops::Drop>::drop`),
    // or a program's trait for a library type, is the program's.
    if !file.contains('/')
        && let Some(inner) = name.strip_prefix('<')
        && STD_NAMESPACES.iter().any(|p| inner.starts_with(p))
        && inner.rsplit_once(" as ").is_none_or(|(_, tr)| STD_NAMESPACES.iter().any(|p| tr.starts_with(p)))
    {
        return true;
    }
    // The C++ global allocation functions (`operator new(unsigned long)`, `operator new[]`,
    // glog's `operator new()`): the allocator, whichever library printed them.
    if name.starts_with("operator new") || name.starts_with("operator delete") {
        return true;
    }
    // Zig's standard library and compiler runtime (`/usr/lib/zig/std/debug.zig`,
    // `lib/std/start.zig`, `…/compiler_rt/memcpy.zig`).
    if file.ends_with(".zig")
        && (file.contains("/lib/std/") || file.contains("/zig/std/") || file.contains("/compiler_rt/"))
    {
        return true;
    }
    // Frames in libc / the dynamic loader / libstdc++ without a more specific hint.
    let lib = if module.is_empty() { file } else { module };
    let base = lib.rsplit('/').next().unwrap_or(lib);
    // HotSpot's JNI entry points (`jni_SetIntArrayRegion` in libjvm): the VM doing what a
    // native caller asked with the arguments it was given.
    if name.starts_with("jni_") && (base.starts_with("libjvm.") || base.eq_ignore_ascii_case("jvm.dll")) {
        return true;
    }
    // Windows' system libraries (WinDbg's `KERNELBASE!`, `ntdll!`, `KERNEL32!` modules) and
    // the Swift runtime (`libswiftCore.so`).
    if ["kernelbase", "ntdll", "kernel32", "ucrtbase", "msvcrt"]
        .iter()
        .any(|m| base.eq_ignore_ascii_case(m) || base.to_ascii_lowercase().strip_suffix(".dll") == Some(m))
        || base.starts_with("libswiftCore.")
    {
        return true;
    }
    if base.starts_with("libc.so")
        || base.starts_with("libc-")
        || base.starts_with("ld-linux")
        // musl's dynamic loader is its libc (`/lib/ld-musl-x86_64.so.1`; Alpine also names it
        // `libc.musl-x86_64.so.1`).
        // glibc's malloc debugging library (MALLOC_CHECK_ since 2.34: `free_check`).
        || base.starts_with("libc_malloc_debug")
        || base.starts_with("ld-musl-")
        || base.starts_with("libc.musl-")
        || base.starts_with("libpthread")
        || base.starts_with("libdl.so")
        || base.starts_with("libdl-")
        || base.starts_with("libstdc++")
        || base.starts_with("libgcc_s")
        // replacement allocators (LD_PRELOAD or linked): their free/malloc and internals
        || base.starts_with("libjemalloc")
        || base.starts_with("libtcmalloc")
        || base.starts_with("libmimalloc")
    {
        return true;
    }
    // glibc sources as gdb prints them (../sysdeps/…, ./nptl/…, ./stdlib/…, malloc.c), also
    // under a distribution's build path (/build/glibc-SzIz7B/glibc-2.31/string/../sysdeps/…).
    if file.starts_with("../sysdeps/")
        || file.starts_with("./nptl/")
        || file.starts_with("./stdlib/")
        || file.starts_with("./malloc/")
        || file.starts_with("./assert/")
        || file.starts_with("./debug/")
        || file.starts_with("./signal/")
        || file.starts_with("./posix/")
        || file == "malloc.c"
        || file.starts_with("./libio/")
        || file.starts_with("./intl/")
        || file.starts_with("./csu/")
        || file.contains("/sysdeps/")
        || in_glibc_tree(file)
        || in_glibc_subdir(file)
    {
        return true;
    }
    // A C library function without debug info in a static binary (`snprintf`,
    // `__vfprintf_internal`, `__strtol_l_internal`), or inlined from its system header as lldb
    // prints it (`worker_count [inlined] atoi(…) at stdlib.h:364`): libc's, not the program's.
    // A program's own function of the same name has its source file; one in a shared library
    // of its own (`strlen` in `libtext.so`) is that library's.
    let shared_lib = module.rsplit('/').next().is_some_and(|b| b.contains(".so"));
    let static_libc = file.is_empty() && !shared_lib;
    if (static_libc || (f.inlined && !file.contains('/') && is_c_std_header_name(file))) && is_libc_name(name) {
        return true;
    }
    // The same inlined into the caller as lldb prints it, with the header's base name only
    // (`set_tag [inlined] strcpy(…) at string_fortified.h:79`, `sum4 [inlined]
    // _mm_load_ps(…) at xmmintrin.h:927`): a compiler's intrinsics header or glibc's
    // fortification and inline headers (`bits/…`).
    if f.inlined && !file.contains('/') && is_toolchain_header_name(file) {
        return true;
    }
    // Library code compiled into the caller: C++ standard library headers (libstdc++'s
    // /usr/include/c++/12/bits/stl_vector.h, libc++'s …/include/c++/v1/), other system
    // headers, and Rust's standard library (/rustc/<hash>/library/core/src/ptr/mod.rs, or
    // library/std/src/… when rustc's own paths are relative).
    if !own_in_cxx_header
        && !own_rust_fn
        && (file.starts_with("/usr/include/")
            // Headers installed under a prefix's `usr/include` (Julia's bundled LLVM:
            // `…/julia/usr/include/llvm/ExecutionEngine/Orc/ThreadSafeModule.h`).
            || file.contains("/usr/include/")
            || file.contains("/include/c++/")
            || file.starts_with("/rustc/")
            || file.starts_with("library/core/src/")
            || file.starts_with("library/std/src/")
            || file.starts_with("library/alloc/src/")
            || file.starts_with("library/panic_abort/"))
    {
        return true;
    }
    // Julia's GC internals (static functions in src/gc.c, gc-stock.c…) and Julia's Base,
    // which Julia prints with a relative path (`copy at ./array.jl:356`).
    if (name.starts_with("gc_") || name == "_jl_gc_collect" || name == "maybe_collect") && file.contains("/src/gc") {
        return true;
    }
    if file.starts_with("./") && file.ends_with(".jl") {
        return true;
    }
    // Go's standard library under GOROOT (`/usr/local/go/src/syscall/…`, `C:/Program
    // Files/Go/src/syscall/syscall_windows.go`): `syscall.SyscallN` is where the program called
    // out, not the program.
    if is_go_std_source(file) || is_go_std_trimmed(name, file) {
        return true;
    }
    // Go 1.21+ names the panic entry `panic` (was `runtime.gopanic`): the runtime's, not the
    // program's, when its source is the runtime's panic.go.
    if name == "panic" && (file.ends_with("/runtime/panic.go") || file.ends_with("runtime/panic.go")) {
        return true;
    }
    false
}

/// The C library's functions by name (ISO C and the common POSIX ones), and glibc's internal
/// `__<name>_internal` / `__<name>_l_internal` helpers behind them (`__vfprintf_internal`,
/// `____strtol_l_internal`).
fn is_libc_name(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "printf",
        "fprintf",
        "sprintf",
        "snprintf",
        "vprintf",
        "vfprintf",
        "vsprintf",
        "vsnprintf",
        "dprintf",
        "asprintf",
        "vasprintf",
        "puts",
        "fputs",
        "fputc",
        "putc",
        "putchar",
        "fwrite",
        "fread",
        "fgets",
        "fgetc",
        "getc",
        "getchar",
        "fopen",
        "fclose",
        "fflush",
        "fseek",
        "ftell",
        "setvbuf",
        "scanf",
        "fscanf",
        "sscanf",
        "vfscanf",
        "vsscanf",
        "perror",
        "strlen",
        "strnlen",
        "strcpy",
        "strncpy",
        "stpcpy",
        "strcat",
        "strncat",
        "strcmp",
        "strncmp",
        "strcasecmp",
        "strncasecmp",
        "strchr",
        "strrchr",
        "strstr",
        "strdup",
        "strndup",
        "strtok",
        "strtok_r",
        "strspn",
        "strcspn",
        "strpbrk",
        "strerror",
        "memcpy",
        "memmove",
        "memset",
        "memcmp",
        "memchr",
        "bzero",
        "atoi",
        "atol",
        "atoll",
        "atof",
        "strtol",
        "strtoul",
        "strtoll",
        "strtoull",
        "strtod",
        "strtof",
        "qsort",
        "bsearch",
        "getenv",
        "setenv",
        "exit",
        "atexit",
        "read",
        "pread",
        "pread64",
        "readlink",
        "readlinkat",
        "getcwd",
        "confstr",
        "getgroups",
        "gethostname",
        "ttyname_r",
        "getlogin_r",
        "wcslen",
        "wcscpy",
        "mbstowcs",
        "wcstombs",
    ];
    // glibc's stdio internals (`_IO_default_xsputn`, `_IO_padn`)
    if name.starts_with("_IO_") {
        return true;
    }
    let n = name.trim_start_matches("__GI_").trim_start_matches('_');
    let n = clone_base(n);
    // glibc's per-CPU variants (`__strlen_evex`, `__memcpy_avx_unaligned_erms`)
    let variant = name.starts_with("__")
        && n.split_once('_').is_some_and(|(c, v)| {
            NAMES.contains(&c) && ["sse", "avx", "evex", "erms", "unaligned"].iter().any(|k| v.contains(k))
        });
    variant
        || NAMES.contains(&n)
        || (name.starts_with("__")
            && n.strip_suffix("_internal").is_some_and(|c| {
                let c = c.strip_suffix("_l").unwrap_or(c);
                NAMES.contains(&c) || c.strip_prefix('v').is_some_and(|v| NAMES.contains(&v))
            }))
}

/// Base names of the C library's standard headers that define inline functions (glibc's
/// `stdlib.h` defines `atoi`/`atol` inline).
fn is_c_std_header_name(file: &str) -> bool {
    // (`unistd.h`: glibc's fortified `read`, `pread`, `readlink`, `getcwd` wrappers, from
    // `bits/unistd.h`, whose base name lldb prints)
    matches!(file, "stdlib.h" | "string.h" | "stdio.h" | "wchar.h" | "ctype.h" | "strings.h" | "unistd.h")
}

/// Base names of headers whose inline functions are the toolchain's, not the program's: GCC's
/// and clang's intrinsics headers (`xmmintrin.h`, `avx2intrin.h`, `arm_neon.h`) and glibc's
/// `bits/` headers that define inline wrappers (the `_FORTIFY_SOURCE` ones, `bsearch`).
fn is_toolchain_header_name(file: &str) -> bool {
    const GLIBC_BITS: &[&str] = &[
        "string_fortified.h",
        "strings_fortified.h",
        "string3.h",
        "stdio2.h",
        "stdio2-decl.h",
        "wchar2.h",
        "wchar2-decl.h",
        "fcntl2.h",
        "socket2.h",
        "poll2.h",
        "select2.h",
        "mqueue2.h",
        "syslog2.h",
        "stdlib-bsearch.h",
        "stdlib-float.h",
        "byteswap.h",
    ];
    file.ends_with("intrin.h")
        || matches!(file, "arm_neon.h" | "arm_sve.h" | "arm_acle.h" | "arm_fp16.h")
        || GLIBC_BITS.contains(&file)
}

/// A Go source file of the standard library: under a GOROOT's `src/` (`…/go/src/`,
/// `…/Go/src/`, `…/go-1.19/src/`), in one of the standard packages.
fn is_go_std_source(file: &str) -> bool {
    const STD: &[&str] = GO_STD;
    if !(file.ends_with(".go") || file.ends_with(".s")) {
        return false;
    }
    let Some(p) = file.find("/src/") else { return false };
    let root = file[..p].rsplit('/').next().unwrap_or("");
    let is_goroot = root.eq_ignore_ascii_case("go") || root.starts_with("go-1.") || root.starts_with("go1.");
    let pkg = file[p + 5..].split('/').next().unwrap_or("");
    is_goroot && STD.contains(&pkg) && file[p + 5..].contains('/')
}

/// A Go standard-library frame of a `-trimpath` build (or the runtime's own traceback, which
/// always prints GOROOT files that way): the file is the package's import path
/// (`sync/mutex.go`, `internal/poll/fd_unix.go`, not `./main.go` or a module path), and the
/// function's package is a standard one too (`sync.(*Mutex).Unlock`; `sync.fatal`, which the
/// runtime defines in `runtime/panic.go`).
fn is_go_std_trimmed(name: &str, file: &str) -> bool {
    if !(file.ends_with(".go") || file.ends_with(".s")) || file.starts_with('.') || file.starts_with('/') {
        return false;
    }
    let std_root = |path: &str| {
        let first = path.split('/').next().unwrap_or("");
        GO_STD.contains(&first)
    };
    let Some((dir, _)) = file.rsplit_once('/') else { return false };
    // The function's package: its import path up to the first `.` after the last `/`.
    let pkg_end = name.rfind('/').map_or(0, |p| p + 1);
    let Some(dot) = name[pkg_end..].find('.') else { return false };
    std_root(dir) && std_root(&name[..pkg_end + dot])
}

const GO_STD: &[&str] = &[
    "syscall", "internal", "sync", "os", "net", "reflect", "fmt", "io", "bufio", "strings", "bytes", "sort",
    "encoding", "time", "context", "testing", "crypto", "math", "strconv", "unicode", "errors", "log", "path",
    "regexp", "runtime",
];

/// A function name without its parameter list and gcc's clone note, as gdb and symbol tables
/// print a C++ function without debug information: `llvm::report_fatal_error(llvm::Twine
/// const&, bool)` is `llvm::report_fatal_error`, `os::abort(bool, void*, void const*) [clone
/// .cold]` is `os::abort`, `f() const` is `f`. Only a balanced trailing list is taken off
/// (`(anonymous namespace)::f` and the call operator's own `()` stay); a name without one is
/// returned as it is (trimmed).
pub fn without_params(name: &str) -> &str {
    let mut n = name.trim_end();
    if let Some(i) = n.find(" [clone ")
        && n.ends_with(']')
    {
        n = n[..i].trim_end();
    }
    let n = n.strip_suffix(" const").unwrap_or(n);
    if !n.ends_with(')') {
        return n;
    }
    let mut depth = 0usize;
    for (i, c) in n.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    let head = &n[..i];
                    // `(anonymous namespace)::f`, or the call operator's own `()`.
                    return if head.is_empty() || head.ends_with("operator") { n } else { head };
                }
            }
            _ => {}
        }
    }
    n
}

/// LLVM's crash handler and fatal-error frames (the printer and the reporter, not the crash).
pub fn is_llvm_handler(name: &str) -> bool {
    let name = without_params(name);
    matches!(
        name,
        "llvm::sys::PrintStackTrace"
            | "llvm::sys::RunSignalHandlers"
            | "llvm::sys::CleanupOnSignal"
            | "llvm::sys::RunInterruptHandlers"
            | "SignalHandler"
            | "PrintStackTraceSignalHandler"
            | "llvm::sys::Process::Exit"
            | "llvm::report_fatal_error"
            | "llvm::report_bad_alloc_error"
            // The Windows build's SIGABRT handler (Signals.inc), first row of its stack dump.
            | "HandleAbort"
            | "llvm::llvm_unreachable_internal"
            | "llvm::CrashRecoveryContext::HandleExit"
    ) || is_chromium_handler(name)
}

/// Chromium's crash handler (the `base::debug` stack-trace printer and its signal handler), as
/// Chromium, Electron and every Chromium-based browser print it.
pub fn is_chromium_handler(name: &str) -> bool {
    name.starts_with("base::debug::")
        && (name.contains("StackTrace") || name.contains("SignalHandler") || name.contains("CollectStackTrace"))
}

/// Source paths of the Rust standard library only.
fn is_rust_std_source(file: &str) -> bool {
    const RUST_LIBS: &[&str] =
        &["library/core/", "library/std/", "library/alloc/", "library/panic_abort/", "library/panic_unwind/"];
    file.starts_with("/rustc/")
        || file.contains("/lib/rustlib/src/rust/library/")
        || RUST_LIBS.iter().any(|p| file.starts_with(p))
}

/// Source paths of the Rust standard library and the C++ standard library headers.
fn is_toolchain_source(file: &str) -> bool {
    const RUST_LIBS: &[&str] =
        &["library/core/", "library/std/", "library/alloc/", "library/panic_abort/", "library/panic_unwind/"];
    file.starts_with("/rustc/")
        || file.contains("/lib/rustlib/src/rust/library/")
        || RUST_LIBS.iter().any(|p| file.starts_with(p))
        || file.contains("/include/c++/")
}

/// A source path inside a glibc source tree (`/build/glibc-SzIz7B/glibc-2.31/string/…`):
/// a directory named `glibc-<version>`.
/// A glibc source as its build records it, relative to the build directory: `./<dir>/…` or
/// `../<dir>/…` where `<dir>` is one of glibc's top-level subdirectories
/// (`./stdio-common/printf.c`, `./libio/genops.c`, `../string/strlen.c`).
fn in_glibc_subdir(file: &str) -> bool {
    const DIRS: &[&str] = &[
        "argp",
        "assert",
        "catgets",
        "csu",
        "ctype",
        "debug",
        "dirent",
        "dlfcn",
        "elf",
        "gmon",
        "grp",
        "iconv",
        "inet",
        "intl",
        "io",
        "libio",
        "locale",
        "login",
        "malloc",
        "misc",
        "nptl",
        "nss",
        "posix",
        "pwd",
        "resolv",
        "resource",
        "rt",
        "setjmp",
        "signal",
        "socket",
        "stdio-common",
        "stdlib",
        "string",
        "sunrpc",
        "termios",
        "time",
        "wcsmbs",
        "wctype",
    ];
    let rest = file.strip_prefix("./").or_else(|| file.strip_prefix("../"));
    rest.and_then(|r| r.split_once('/')).is_some_and(|(dir, f)| DIRS.contains(&dir) && !f.contains('/'))
}

fn in_glibc_tree(file: &str) -> bool {
    let mut dirs = file.split('/').rev().skip(1);
    dirs.any(|d| d.strip_prefix("glibc-").is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit())))
}

/// When a signal handler of the program caught the fault and then aborted (or raised another
/// signal), the fault is below `<signal handler called>`: the position of the frame where the
/// interrupted code resumes (the first real frame outer to the trampoline). `None` when the
/// stop is not in a handler, or the handler itself faulted (a SIGSEGV in handler code is the
/// handler's own bug).
pub fn interrupted_frame(stop: &Stop, th: &Thread) -> Option<usize> {
    let tramp = th.frames.iter().position(|f| f.signal_handler)?;
    // Only when the handler ended the process deliberately: the stop is an abort/raise below
    // the trampoline, not a fault inside the handler's own code.
    // A handler running for a fault signal (`crash (sig=6, …)`, CPython's
    // `signal_handler (sig_num=11)`) is handling a fault below the trampoline, whatever it
    // did next; and one that sent the signal on (`kill`) ended the process deliberately.
    // But a stop on another fault signal than the one the handler is running for is a new
    // fault in the handler's own code (a SIGFPE handler that reads through NULL).
    let handled = (tramp > 0).then(|| handler_signal(&th.frames[tramp - 1])).flatten();
    let own_fault = handled.is_some()
        && stop.reason.signo.is_some_and(|s| matches!(s, 4 | 7 | 8 | 11))
        && stop.reason.signo != handled;
    let handling_fault = !own_fault && handled.is_some_and(|s| matches!(s, 4 | 6 | 7 | 8 | 11));
    // An assertion that failed in the handler's own code, for a signal that is no fault (a
    // SIGALRM or SIGUSR1 handler checking its state; or one whose signal is not shown): the
    // handler's check failed, not the interrupted code, which was only where the signal found
    // the thread.
    let handler_assert = th.frames[..tramp].iter().any(|f| {
        let n = clone_base(f.function_name().trim_start_matches("__GI_"));
        matches!(n, "__assert_fail" | "__assert_fail_base" | "__assert_perror_fail" | "___assert_fail")
    });
    if handler_assert && !handled.is_some_and(|s| matches!(s, 4 | 7 | 8 | 11)) {
        return None;
    }
    // A handler printing a backtrace (glibc's `backtrace`, the Rust `backtrace` crate) is
    // reporting the fault below it.
    let printing = th.frames[..tramp].iter().any(|f| {
        f.function.as_deref().is_some_and(|n| {
            n.starts_with("backtrace::")
                || n.starts_with("std::backtrace")
                || matches!(
                    n,
                    "backtrace" | "__backtrace" | "__GI___backtrace" | "backtrace_symbols_fd" | "_Unwind_Backtrace"
                )
                // Ruby's `[BUG]` reporter (`sigsegv` → `rb_bug_for_fatal_signal` → `rb_vm_bugreport`).
                || matches!(n, "rb_vm_bugreport" | "rb_print_backtrace" | "rb_bug_for_fatal_signal" | "rb_bug_context")
                // A framework's own printer (AMReX's `BLBackTrace::print_backtrace_info`,
                // seastar's `print_backtrace_safe`).
                || n.rsplit("::").next().is_some_and(|last| last.starts_with("print_backtrace"))
        })
    });
    let deliberate = matches!(stop.reason.signo, Some(6))
        || handling_fault
        || printing
        || th.frames[..tramp].iter().any(|f| {
            f.function.as_deref().is_some_and(|n| {
                let n = n.trim_start_matches("__GI_");
                // A crash handler that waits for the debugger or crash reporter it started
                // (KDE's KCrash: `waitpid` above `KCrash::defaultCrashHandler`) is parked, not
                // faulting.
                matches!(
                    n,
                    "abort"
                        | "raise"
                        | "__pthread_kill_implementation"
                        | "_exit"
                        | "__libc_message"
                        | "kill"
                        | "__kill"
                        | "tgkill"
                        | "__tgkill"
                        | "waitpid"
                        | "__waitpid"
                        | "__libc_waitpid"
                        | "wait4"
                        | "__wait4"
                        | "__GI___wait4"
                )
            })
        });
    if !deliberate {
        return None;
    }
    let above = tramp + 1;
    th.frames[above..]
        .iter()
        .position(|f| !is_machinery(f) && (f.function.is_some() || f.file.is_some()))
        .map(|p| above + p)
        .or_else(|| (above < th.frames.len()).then_some(above))
}

/// The signal number a signal handler's frame was called with, from its typed integer
/// arguments (`sig=6`, `signo=11`, `signum=7`, `sig_num=11`, `sig=sig@entry=6`).
pub fn handler_signal(f: &Frame) -> Option<i32> {
    f.arg_facts().int_args.iter().find_map(|(name, v)| {
        let named = matches!(&**name, "sig" | "signo" | "signum" | "sig_num" | "signal" | "sig_no" | "signr");
        (named && (1..=64).contains(v)).then_some(*v as i32)
    })
}

pub fn culprit(stop: &Stop) -> Option<Culprit> {
    // V8's deliberate stop (`v8::base::OS::Abort`: a trap, SIGTRAP, where the build has no
    // abort) after an uncaught JavaScript exception is a crash whatever the signal.
    if let Some(th) = stop.crashed_thread() {
        // V8 aborted on an uncaught JavaScript exception: every native frame is the runtime's
        // (V8, Node.js, generated code); the JavaScript stack V8 printed names the function.
        if th.frames.iter().any(|f| without_params(f.function_name()) == "v8::base::OS::Abort")
            && stop.messages.iter().any(|m| m.detail == Some(MessageDetail::V8Uncaught))
            && let Some(site) = crate::messages::js_site(stop)
        {
            let index = th.frames.first().map(|f| f.index).unwrap_or(0);
            return Some(Culprit { thread: th.id.to_string(), position: 0, index, named_by_message: Some(site) });
        }
    }
    // A breakpoint or a non-fault signal is not a crash: nothing to blame.
    if stop.reason.is_non_crash() {
        return None;
    }
    let th = stop.crashed_thread()?;
    // Go's g0 (`goroutine 0 [idle]`: the M's system stack) runs only the runtime; when that is
    // all it shows (`runtime.morestack` on g0), the code that got there is the goroutine that
    // was running on the M (`[running]`, `[running, locked to thread]` in a cgo callback).
    if &*th.id == "goroutine 0"
        && th.frames.iter().all(is_machinery)
        && let Some(g) = stop.threads.iter().find(|t| {
            t.id.starts_with("goroutine ")
                && !std::ptr::eq(*t, th)
                && t.name.as_deref().is_some_and(|n| n.starts_with("running"))
        })
        && let Some(pos) = g.frames.iter().position(|f| !is_machinery(f) && f.function.is_some())
    {
        return Some(Culprit::frame(g.id.to_string(), pos, g.frames[pos].index));
    }
    if let Some(pos) = interrupted_frame(stop, th) {
        return Some(Culprit::frame(th.id.to_string(), pos, th.frames[pos].index));
    }
    // In a Julia stack, read past the runtime (GC, codegen, jl_* in C) and Base the way a
    // Julia engineer does: to the package, script or C code that called in.
    let julia = crate::julia::is_julia_stack(th);
    // Frame #0 whose own pc is the fault address: the instruction fetch faulted, so the pc is
    // not in code and whatever symbol names it (a data object like `pair`) is not a function
    // that ran. The frames that called are the suspects.
    let fetch_fault = |f: &Frame| {
        f.index == 0
            && matches!(stop.reason.signo, Some(11) | Some(7))
            && f.pc.is_some_and(|pc| pc.0 != 0 && stop.reason.address == Some(pc))
    };
    // Code inlined into a crash handler's printer (Chromium's `StackTrace` helper inlined into
    // `base::debug::StackTrace::StackTrace`) is the printer's. Not code inlined into other
    // machinery: a program's own `Drop::drop` inlined into `core::ptr::drop_in_place` is the
    // program's.
    let inlined_into_machinery = |i: usize| {
        th.frames[i].inlined && th.frames.get(i + 1).and_then(|o| o.function.as_deref()).is_some_and(is_llvm_handler)
    };
    // A sanitizer runtime does not call the program: every frame inner to its outermost
    // frame is the runtime's too (lldb's `handleTypeMismatchImpl(__ubsan::TypeMismatchData*,
    // …)` under `__ubsan_handle_type_mismatch_v1_abort`, whose own name carries no prefix).
    let mut runtime_top = th.frames.iter().rposition(is_sanitizer_runtime).map_or(0, |p| p + 1);
    // A Rust panic's backtrace starts with the panic hook at work (printing the backtrace,
    // a program's own hook such as rustc's `install_ice_hook` closure): every frame inner to
    // the panic's entry into the standard library is the hook's, not the code that panicked.
    if let Some(p) = th.frames.iter().position(is_rust_panic_entry) {
        runtime_top = runtime_top.max(p + 1);
    }
    // memcheck's `Syscall param write(buf) points to uninitialised byte(s)` is raised at the
    // system call: frame #0 is libc's wrapper (`write`, `__write_nocancel`), which passed on
    // what its caller gave it.
    if stop.checker.as_ref().is_some_and(|c| c.at_system_call) && th.frames.len() > 1 {
        runtime_top = runtime_top.max(1);
    }
    // The same for an allocator entry point without debug info (static musl's `__libc_free`):
    // the functions it called without debug info (`get_meta`) are the allocator's own, not
    // the program's.
    if let Some(p) = th.frames.iter().position(|f| is_allocator_entry(f.function_name()) && f.file.is_none())
        && p > 0
        && th.frames[..p].iter().all(|f| f.file.is_none() && !f.signal_handler)
    {
        runtime_top = runtime_top.max(p + 1);
    }
    // A frame named after an ELF section (`.data`, `.rodata`: the symbolizer's name for an
    // address in no function) ran no function: a garbage return address.
    let section = |f: &Frame| f.function.as_deref().is_some_and(|n| n.starts_with('.'));
    let named_by = |machinery: fn(&Frame) -> bool| {
        th.frames.iter().enumerate().position(|(k, f)| {
            k >= runtime_top
                && !section(f)
                && !machinery(f)
                && !inlined_into_machinery(k)
                && !fetch_fault(f)
                && (f.function.as_deref().is_some_and(|n| !n.starts_with("___lldb_unnamed_symbol")) || f.file.is_some())
                && !(julia && crate::julia::is_runtime_or_base(f))
        })
    };
    // The program's code under a hosting runtime first; a stack that is all the runtime's
    // names the runtime's own function.
    let named = named_by(is_machinery).or_else(|| named_by(is_machinery_base));
    let named = named.or_else(|| {
        th.frames.iter().enumerate().position(|(k, f)| {
            k >= runtime_top && !section(f) && !is_machinery(f) && (f.function.is_some() || f.file.is_some())
        })
    });
    // No named frame outside the abort machinery (the unwinder stopped in libc, as it does in
    // static musl's raise): a failed assertion's message names the function that asserted.
    if named.is_none()
        && let Some(site) = asserting_function(stop, th)
    {
        let index = th.frames.first().map(|f| f.index).unwrap_or(0);
        return Some(Culprit { thread: th.id.to_string(), position: 0, index, named_by_message: Some(site) });
    }
    let mut pos =
        named.or_else(|| th.frames.iter().enumerate().position(|(k, f)| k >= runtime_top && !is_machinery(f)))?;
    if let Some(site) = skipped_main(th, pos).or_else(|| tail_called(stop, th, pos)) {
        let index = th.frames.first().map(|f| f.index).unwrap_or(0);
        return Some(Culprit { thread: th.id.to_string(), position: 0, index, named_by_message: Some(site) });
    }
    // Julia's `macro expansion at file:line [inlined]` is a place inside a function, not a
    // function: the function is the next frame out that was not inlined (the one the macro's
    // code was compiled into). When the paste ends before it, the function that faulted is the
    // first real frame of the crash site (a runtime function).
    if julia && is_inlined_macro(&th.frames[pos]) {
        let outer = th.frames[pos..].iter().position(|f| !f.inlined).map(|p| pos + p);
        pos = match outer.filter(|&p| !is_inlined_macro(&th.frames[p])) {
            Some(p) => p,
            None => th
                .frames
                .iter()
                .position(|f| !is_machinery(f) && f.function.is_some() && !is_inlined_macro(f))
                .unwrap_or(pos),
        };
    }
    Some(Culprit::frame(th.id.to_string(), pos, th.frames[pos].index))
}

/// The internal headers of libstdc++ (`bits/…`), by file name.
fn is_cxx_std_header(name: &str) -> bool {
    matches!(
        name,
        "unique_ptr.h"
            | "shared_ptr.h"
            | "shared_ptr_base.h"
            | "stl_vector.h"
            | "vector.tcc"
            | "stl_construct.h"
            | "stl_uninitialized.h"
            | "alloc_traits.h"
            | "new_allocator.h"
            | "allocator.h"
            | "basic_string.h"
            | "basic_string.tcc"
            | "stl_algo.h"
            | "stl_algobase.h"
            | "stl_iterator.h"
            | "stl_list.h"
            | "stl_map.h"
            | "stl_tree.h"
            | "stl_deque.h"
            | "deque.tcc"
            | "hashtable.h"
            | "hashtable_policy.h"
            | "unordered_map.h"
            | "std_function.h"
            | "invoke.h"
            | "move.h"
            | "refwrap.h"
            | "std_mutex.h"
            | "unique_lock.h"
            | "char_traits.h"
            | "atomic_base.h"
            | "stl_pair.h"
            | "stl_function.h"
            | "stl_heap.h"
            | "ptr_traits.h"
    )
}

/// Where a Rust panic enters the standard library's panic path (the hook runs inside it).
fn is_rust_panic_entry(f: &Frame) -> bool {
    let n = f.function.as_deref().unwrap_or("");
    let n = n.strip_prefix("__rustc::").unwrap_or(n);
    n.starts_with("std::panicking::rust_panic_with_hook")
        || n.starts_with("std::panicking::begin_panic")
        || n == "rust_begin_unwind"
        || n == "_rust_begin_unwind"
        || n.starts_with("core::panicking::panic_fmt")
}

fn is_inlined_macro(f: &Frame) -> bool {
    f.function.as_deref().is_some_and(|n| n.starts_with("macro expansion"))
}

/// The C allocator's entry points (glibc's and musl's names).
fn is_allocator_entry(name: &str) -> bool {
    let n = name.trim_start_matches("__GI_").trim_start_matches("__libc_").trim_start_matches("__");
    matches!(n, "free" | "malloc" | "realloc" | "calloc" | "memalign" | "aligned_alloc" | "posix_memalign")
}

/// A frame of a sanitizer runtime: its entry points (`__asan_report_load4`,
/// `__ubsan_handle_*`, `__tsan_*`), its namespaces and interceptors; not its thread start
/// (`__tsan_thread_start_func`), which calls the program.
fn is_sanitizer_runtime(f: &Frame) -> bool {
    let name = f.function.as_deref().unwrap_or("");
    // Not the runtime's thread start, which calls the program's thread function.
    if name.contains("thread_start") || name.contains("ThreadStart") {
        return false;
    }
    ["__asan", "__ubsan", "__tsan", "__msan", "__sanitizer", "__interceptor_", "__lsan"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// The function a failed assertion's message names (glibc's, musl's or macOS's format), when
/// no frame of the thread is that function. Not glibc's own malloc assertions (heap
/// corruption, not the program's assert).
/// Code without a symbol (JIT code, a library without symbols) whose next frame out is the C
/// library's start routine: the start routine calls nothing but `main` (and `exit`), so an
/// unwinder that went straight from the nameless frame to it skipped `main` (lldb's unwinder
/// takes the frame pointer's frame, main's own, for the nameless code's). The start routine's
/// `main` argument names it.
fn skipped_main(th: &Thread, pos: usize) -> Option<MessageSite> {
    let f = &th.frames[pos];
    if f.function.is_some() || f.file.is_some() || f.signal_handler {
        return None;
    }
    let start = th.frames.get(pos + 1)?;
    let n = start.function.as_deref()?;
    if !matches!(n, "__libc_start_call_main" | "__libc_start_main" | "__libc_start_main_impl") {
        return None;
    }
    let main = start.fn_arg("main")?;
    if th.frames.iter().any(|f| f.function.as_deref() == Some(main)) {
        return None;
    }
    Some(MessageSite {
        function: main.to_string(),
        file: None,
        line: None,
        source: "the `main` argument of the C library's start routine, which the nameless frame #0 returns into (the unwinder skipped main)",
    })
}

/// A function that ended in a tail call left no frame: the culprit frame's return address
/// follows a direct call (the transcript's listing of that frame: lldb's `disassemble
/// --frame`, gdb's `disassemble`) to a function that is not the frame inside it, which is
/// machinery (libc's `printf`, reached by `report_user`'s `jmp printf`). gdb shows such a
/// function as a tail-call frame from DWARF call sites, and the core reconstructs it from the
/// binary (`crate::core`); lldb shows the physical stack. The called function is the culprit.
/// Not for a call through a PLT stub (`memcpy@plt`, lldb's `symbol stub for: memcpy`): the
/// frame inside is the stub's target under another name (an IFUNC's implementation).
fn tail_called(stop: &Stop, th: &Thread, pos: usize) -> Option<MessageSite> {
    let f = &th.frames[pos];
    let inner = th.frames.get(pos.checked_sub(1)?)?;
    if f.inlined || inner.signal_handler || !is_machinery(inner) || inner.function.is_none() {
        return None;
    }
    let pc = f.pc?.0;
    let mine = |i: &&Instruction| i.thread.as_deref().is_none_or(|t| *t == *th.id);
    // The listing must show the return address itself, so that the instruction before it is
    // known to end there.
    if !stop.disassembly.iter().filter(mine).any(|i| i.address.0 == pc) {
        return None;
    }
    let call = stop
        .disassembly
        .iter()
        .filter(mine)
        .filter(|i| i.address.0 < pc && pc - i.address.0 <= 15)
        .max_by_key(|i| i.address.0)?;
    let x = crate::insn::X86Text::parse(&call.text)?;
    if !x.is_call() {
        return None;
    }
    let (_, Some(name)) = x.branch_target()? else { return None };
    if name == "symbol" || name.contains('@') || name.contains('+') {
        return None;
    }
    let called = Frame { function: Some(name.into()), ..Default::default() };
    let own = |g: &Frame| g.function.as_deref().is_some_and(|n| same_function(n, name));
    if is_machinery(&called) || own(inner) || own(f) {
        return None;
    }
    Some(MessageSite {
        function: name.to_string(),
        file: None,
        line: None,
        source: "the direct call before the caller's return address (it ended in a tail call, which left no frame)",
    })
}

fn asserting_function(stop: &Stop, th: &Thread) -> Option<MessageSite> {
    let a = stop.messages.iter().rev().find_map(|m| m.assertion.as_ref())?;
    if crate::messages::is_malloc_assertion(a) {
        return None;
    }
    let function = a.function.as_deref()?;
    if th.frames.iter().any(|f| f.function.as_deref() == Some(function)) {
        return None;
    }
    Some(MessageSite {
        function: function.to_string(),
        file: a.file.as_deref().map(str::to_string),
        line: a.line,
        source: "the assertion message",
    })
}

/// The culprit's thread and frame, when the frame has a name or a source file (an
/// `unknown function (ip: …)` frame names nothing a message could point at).
pub fn named_culprit(stop: &Stop) -> Option<(&Thread, &Frame)> {
    let c = culprit(stop)?;
    let th = stop.threads.iter().find(|t| *t.id == *c.thread)?;
    let f = th.frames.get(c.frame_position()?)?;
    (f.function.is_some() || f.file.is_some()).then_some((th, f))
}

/// The key under which two debuggers' (or a debugger's and the symbolizer's) spellings of one
/// function compare equal: the culprit of a crash must not depend on the path that read it.
/// - A Rust closure: DWARF's and the v0 mangling's `{closure#0}` (gdb, the core's symbolizer)
///   and the legacy mangling's `{{closure}}` (lldb prints the linkage name), which carries no
///   index, are both `{closure}` (so two closures of one function share a key: the legacy
///   name cannot tell them apart); the legacy hash (`::h0123…`, 16 hex digits), which lldb
///   keeps and gdb drops, is left out.
/// - A Julia function compiled as `julia__name_N` (a Julia name starting with `_`) is printed
///   by gdb as `julia.name_N`.
/// - A PLT stub: `puts@plt` (gdb), `puts@plt` from the core's symbolizer as well; a stub is
///   its target's (`@plt` dropped), as a symbol version (`@@GLIBC_2.2.5`) is.
///
/// Display keeps what the source printed (the debugger's, or the symbolizer's DWARF name);
/// the key is for comparison only.
pub fn function_key(name: &str) -> String {
    let mut s = name.trim();
    if let Some(i) = s.find('@') {
        s = &s[..i];
    }
    let mut out = match s.strip_prefix("julia.") {
        Some(rest) if !rest.is_empty() => format!("julia__{rest}"),
        _ => s.to_string(),
    };
    // Rust's legacy hash, at the end.
    if let Some(i) = out.rfind("::h")
        && out.len() - (i + 3) == 16
        && out[i + 3..].bytes().all(|b| b.is_ascii_hexdigit())
    {
        out.truncate(i);
    }
    // `{closure#N}` and `{{closure}}` → `{closure}`.
    let mut key = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(i) = rest.find('{') {
        key.push_str(&rest[..i]);
        let r = &rest[i..];
        if let Some(t) = r.strip_prefix("{{closure}}") {
            key.push_str("{closure}");
            rest = t;
        } else if let Some(t) = r.strip_prefix("{closure#")
            && let Some(end) = t.find('}')
            && !t[..end].is_empty()
            && t[..end].bytes().all(|b| b.is_ascii_digit())
        {
            key.push_str("{closure}");
            rest = &t[end + 1..];
        } else {
            key.push('{');
            rest = &r[1..];
        }
    }
    key.push_str(rest);
    key
}

/// The Go function a cgo export wrapper stands for: `_cgoexp_<hash>_visitNode` (cgo's
/// generated wrapper for `//export visitNode`, the name lldb prints for the exported function
/// inlined into it) is `visitNode`. `None` for any other name.
pub fn cgo_export_name(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("_cgoexp_")?;
    let (hash, func) = rest.split_once('_')?;
    (hash.len() >= 6 && hash.bytes().all(|b| b.is_ascii_hexdigit()) && !func.is_empty()).then_some(func)
}

/// Two spellings of one function ([`function_key`]); a cgo export wrapper is the exported Go
/// function (`_cgoexp_<hash>_visitNode` and `main.visitNode`: the wrapper's symbol carries no
/// package, and an exported name is unique in a program, since C links it).
pub fn same_function(a: &str, b: &str) -> bool {
    if function_key(a) == function_key(b) {
        return true;
    }
    let go_func = |go: &str, export: &str| {
        go.rsplit_once('.').is_some_and(|(pkg, f)| f == export && !pkg.is_empty() && !pkg.contains("::"))
    };
    match (cgo_export_name(a), cgo_export_name(b)) {
        (Some(x), None) => go_func(b, x),
        (None, Some(y)) => go_func(a, y),
        _ => false,
    }
}

/// The crash line: the first frame with source outside libc/runtime frames (as CASR's
/// `CrashLine`).
pub fn crash_line(stop: &Stop) -> Option<String> {
    let th = stop.crashed_thread()?;
    th.frames.iter().filter(|f| !is_machinery(f)).find_map(|f| match (&f.file, f.line) {
        (Some(file), Some(line)) => Some(format!("{file}:{line}")),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clone_parts_keep_their_functions_role() {
        assert_eq!(clone_base("__assert_fail_base.cold"), "__assert_fail_base");
        assert_eq!(clone_base("malloc_printerr.constprop.0"), "malloc_printerr");
        assert_eq!(clone_base("_int_free.isra.0.cold"), "_int_free");
        // Not a clone suffix: kept whole.
        assert_eq!(clone_base("std::vector<int>::at"), "std::vector<int>::at");
        assert_eq!(clone_base("main.(*Index).add"), "main.(*Index).add");
        assert_eq!(clone_base(".cold"), ".cold");
    }

    #[test]
    fn culprit_skips_abort_machinery() {
        let t = "\
Program received signal SIGABRT, Aborted.
__pthread_kill_implementation (no_tid=0, signo=6, threadid=140737351481152) at ./nptl/pthread_kill.c:44
(gdb) bt
#0  __pthread_kill_implementation (no_tid=0, signo=6, threadid=140737351481152) at ./nptl/pthread_kill.c:44
#1  0x00007ffff7e0a15f in __pthread_kill_internal (signo=6, threadid=<optimized out>) at ./nptl/pthread_kill.c:78
#2  0x00007ffff7dbc472 in __GI_raise (sig=sig@entry=6) at ../sysdeps/posix/raise.c:26
#3  0x00007ffff7da64b2 in __GI_abort () at ./stdlib/abort.c:79
#4  0x00007ffff7da7395 in __libc_message (fmt=fmt@entry=0x7ffff7f19a90 \"%s\\n\") at ../sysdeps/posix/libc_fatal.c:150
#5  0x00007ffff7e14ec7 in malloc_printerr (str=str@entry=0x7ffff7f1c4b8 \"free(): double free detected in tcache 2\") at ./malloc/malloc.c:5765
#6  0x00007ffff7e1747f in _int_free (av=0x7ffff7f56c80 <main_arena>, p=0x5555555592a0, have_lock=have_lock@entry=0) at ./malloc/malloc.c:4541
#7  0x00007ffff7e19d9f in __GI___libc_free (mem=<optimized out>) at ./malloc/malloc.c:3391
#8  0x0000555555555183 in release (p=0x5555555592b0) at df.c:6
#9  0x00005555555551a7 in main () at df.c:12
";
        let p = crate::input::parse(t);
        let stop = p.trace.main_stop().unwrap();
        let c = culprit(stop).unwrap();
        assert_eq!(c.index, 8);
        assert_eq!(crash_line(stop).as_deref(), Some("df.c:6"));
    }

    #[test]
    fn std_trait_impls_are_library_code_the_programs_are_not() {
        let f = |name: &str| Frame {
            function: Some(name.into()),
            file: Some("vec.rs".into()),
            line: Some(2085),
            ..Default::default()
        };
        assert!(is_machinery(&f("<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop")));
        assert!(is_machinery(&f("<core::option::Option<T> as core::clone::Clone>::clone")));
        // The program's type, or the program's trait: the program's code.
        assert!(!is_machinery(&f("<app::cache::Cache as core::ops::drop::Drop>::drop")));
        assert!(!is_machinery(&f("<alloc::vec::Vec<T> as app::Summary>::summarize")));
    }

    #[test]
    fn a_trap_instruction_is_a_crash_with_a_culprit() {
        // crashers/sigtrap-int3: the program's own int3 (si_code SI_KERNEL); without a
        // debugger it dies of SIGTRAP. A SIGTRAP without si_code, or sent by raise (SI_TKILL),
        // stays a debugger stop without a culprit.
        let t = |code: &str| {
            format!(
                "\
Program received signal SIGTRAP, Trace/breakpoint trap.
settle (v=3) at src/sigtrap-int3.c:9
(gdb) bt
#0  settle (v=3) at src/sigtrap-int3.c:9
#1  0x000055555555516e in main (argc=1, argv=0x7fffffffed78) at src/sigtrap-int3.c:15
{code}"
            )
        };
        let with = |code: &str| {
            let p = crate::input::parse(&t(code));
            culprit(p.trace.main_stop().unwrap()).map(|c| c.index)
        };
        assert_eq!(with("(gdb) p $_siginfo\n$1 = {si_signo = 5, si_errno = 0, si_code = 128}\n"), Some(0));
        assert_eq!(with(""), None);
        assert_eq!(with("(gdb) p $_siginfo\n$1 = {si_signo = 5, si_errno = 0, si_code = -6}\n"), None);
    }

    #[test]
    fn glibc_sources_by_subdirectory_are_machinery() {
        // crashers/asm-misaligned-printf: printf faulted on the misaligned stack the assembly
        // caller gave it; glibc's `./stdio-common/printf.c` is libc, the caller is the culprit.
        let t = "\
Program received signal SIGSEGV, Segmentation fault.
(gdb) bt
#0  0x00007ffff7e265d4 in __printf (format=0x555555556004 \"total %ld %f\\n\") at ./stdio-common/printf.c:28
#1  0x0000555555555177 in report_total ()
#2  0x000055555555505e in main () at src/asm-misaligned-printf.c:6
";
        let p = crate::input::parse(t);
        assert_eq!(culprit(p.trace.main_stop().unwrap()).map(|c| c.index), Some(1));
        // A program's own file in a directory that glibc also has, but deeper, is not libc.
        let own = t.replace("./stdio-common/printf.c", "./string/fmt/printf.c");
        let p = crate::input::parse(&own);
        assert_eq!(culprit(p.trace.main_stop().unwrap()).map(|c| c.index), Some(0));
    }

    #[test]
    fn global_operator_new_is_the_allocator() {
        let f = |name: &str| Frame { function: Some(name.into()), ..Default::default() };
        assert!(is_machinery(&f("operator new(unsigned int)")));
        assert!(is_machinery(&f("operator new[](unsigned long)")));
        assert!(is_machinery(&f("operator delete(void*, unsigned long)")));
        // A class's own operator or a user function named like one is not.
        assert!(!is_machinery(&f("Pool::operator new(unsigned long)")));
        assert!(!is_machinery(&f("operator_new_hook")));
    }

    #[test]
    fn culprit_skips_go_1_21_panic_frame() {
        let t = "\
panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x28 pc=0x4a5f3d]

goroutine 1 gp=0xc000002380 m=0 mp=0x6b4ea0 [running]:
panic({0x4c1e40?, 0x6a9b70?})
\t/usr/local/go/src/runtime/panic.go:779 +0x158 fp=0xc000067e88 sp=0xc000067dd8 pc=0x43a298
runtime.panicmem(...)
\t/usr/local/go/src/runtime/panic.go:261
runtime.sigpanic()
\t/usr/local/go/src/runtime/signal_unix.go:881 +0x378 fp=0xc000067ee8 sp=0xc000067e88 pc=0x44f758
main.(*Store).Lookup(0x0, {0x4d2a10, 0x5})
\t/home/dev/store/store.go:42 +0x1d fp=0xc000067f18 sp=0xc000067ee8 pc=0x4a5f3d
main.main()
\t/home/dev/store/main.go:17 +0x36 fp=0xc000067f50 sp=0xc000067f18 pc=0x4a5fb6
";
        let p = crate::input::parse(t);
        let stop = p.trace.main_stop().unwrap();
        let (_, f) = named_culprit(stop).unwrap();
        assert_eq!(f.function.as_deref(), Some("main.(*Store).Lookup"));
        assert!(is_go_std_source("C:/Program Files/Go/src/syscall/syscall_windows.go"));
        assert!(is_go_std_source("/usr/lib/go-1.19/src/sync/waitgroup.go"));
        // -trimpath: the import path is the file's directory.
        assert!(is_go_std_trimmed("sync.(*Mutex).Unlock", "sync/mutex.go"));
        assert!(is_go_std_trimmed("sync.fatal", "runtime/panic.go"));
        assert!(is_go_std_trimmed("internal/poll.(*FD).Read", "internal/poll/fd_unix.go"));
        // The program's own code: `./main.go`, a module path, a package named like no std one.
        assert!(!is_go_std_trimmed("main.(*Store).put", "./go-unlock-unlocked.go"));
        assert!(!is_go_std_trimmed("main.visitNode", "cgocallbacknil/main.go"));
        assert!(!is_go_std_trimmed("example.com/app/store.(*Store).put", "example.com/app/store/store.go"));
        assert!(!is_go_std_trimmed("sync_counts", "src/sync/counts.c"));
        assert!(!is_go_std_source("/home/dev/go/src/github.com/x/y/main.go"));
        assert!(!is_go_std_source("/home/dev/go/src/myapp/main.go"));
        // A program's own function named `panic` is not the runtime's.
        let f =
            Frame { function: Some("panic".into()), file: Some("/home/dev/app/panic.go".into()), ..Default::default() };
        assert!(!is_machinery(&f));
    }

    fn sample_culprit(name: &str) -> (u32, String) {
        let path = format!("{}/sample-traces/{}", env!("CARGO_MANIFEST_DIR"), name);
        let p = crate::input::parse_bytes(&std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}")));
        let stop = p.trace.main_stop().unwrap();
        let c = culprit(stop).unwrap();
        let th = stop.threads.iter().find(|t| *t.id == *c.thread).unwrap();
        (c.index, th.frames[c.position].function_name().to_string())
    }

    #[test]
    fn culprits_of_the_abort_samples() {
        assert_eq!(sample_culprit("glibc-abort.gdb.txt"), (8, "buffer_release".into()));
        assert_eq!(sample_culprit("assert-fail.gdb.txt"), (6, "range_width".into()));
        assert_eq!(sample_culprit("stack-chk.gdb.txt"), (7, "copy_name".into()));
        // Not `core::result::Result<…>::unwrap` (#15, from /rustc/…/library/core) nor the
        // panic machinery above it.
        assert_eq!(sample_culprit("rust-panic.gdb.txt"), (16, "rust_panic::Config::port".into()));
        // Not `std::vector<…>::_M_range_check` / `::at` (#9, #10, from /usr/include/c++/12).
        assert_eq!(sample_culprit("cpp-uncaught.gdb.txt"), (11, "Inventory::lookup".into()));
    }

    #[test]
    fn culprits_of_the_segv_samples() {
        // `core::ptr::read_volatile` faulted, but the dangling pointer came from its caller.
        assert_eq!(sample_culprit("rust-null.gdb.txt"), (1, "rust_null::read_payload".into()));
        assert_eq!(sample_culprit("null-field.gdb.txt"), (0, "session_bytes".into()));
        assert_eq!(sample_culprit("null-fnptr.gdb.txt"), (1, "stream_fill".into()));
        assert_eq!(sample_culprit("threads-crash.gdb.txt"), (0, "store_result".into()));
        assert_eq!(sample_culprit("julia-trampoline-bad-r13.gdb.txt"), (0, "julia_module_callback_4212".into()));
    }

    #[test]
    fn user_code_in_namespace_std_is_not_machinery() {
        // A user specialisation `std::hash<Key>` defined in the user's own file.
        let f = Frame {
            function: Some("std::hash<Key>::operator()".into()),
            file: Some("src/key.cpp".into()),
            line: Some(12),
            ..Default::default()
        };
        assert!(!is_machinery(&f));
        let f = Frame {
            function: Some("std::vector<int>::at".into()),
            file: Some("/usr/include/c++/12/bits/stl_vector.h".into()),
            ..Default::default()
        };
        assert!(is_machinery(&f));
        let f = Frame { function: Some("core::panicking::panic_fmt".into()), ..Default::default() };
        assert!(is_machinery(&f));
        let f = Frame {
            function: Some("_jl_gc_collect".into()),
            file: Some("/cache/build/src/gc-stock.c".into()),
            line: Some(3074),
            ..Default::default()
        };
        assert!(is_machinery(&f));
    }

    #[test]
    fn spellings_of_one_function_share_a_key() {
        // lldb's legacy closure vs gdb's DWARF name.
        assert!(same_function("rust_slice_closure::main::{{closure}}", "rust_slice_closure::main::{closure#0}"));
        assert!(same_function("app::run::{{closure}}::h18022822527bf01d", "app::run::{closure#3}"));
        assert!(same_function("julia.read_mb_12721", "julia__read_mb_12721"));
        assert!(same_function("puts@plt", "puts"));
        assert!(same_function("_cgoexp_d31e2c5e7df5_visitNode", "main.visitNode"));
        assert!(same_function("main.visitNode", "_cgoexp_d31e2c5e7df5_visitNode"));
        // Look-alikes that are other functions.
        assert!(!same_function("julia_read_mb_12721", "julia__read_mb_12721"));
        assert!(!same_function("app::run::{{closure}}", "app::run"));
        assert!(!same_function("app::run::{closure#}", "app::run::{closure}"));
        assert!(!same_function("_cgoexp_d31e2c5e7df5_visitNode", "main.visitNodes"));
        assert!(!same_function("_cgoexp_d31e2c5e7df5_visitNode", "visitNode"));
        assert!(!same_function("_cgoexp_zz_visitNode", "main.visitNode"));
        assert!(!same_function("_cgoexp_d31e2c5e7df5_visitNode", "_cgoexp_d31e2c5e7df5_walk"));
        assert!(!same_function("ns::visitNode", "_cgoexp_d31e2c5e7df5_visitNode"));
        assert!(!same_function("f::h0123", "f"));
        assert_eq!(function_key("{{closure}}{"), "{closure}{");
    }
}
