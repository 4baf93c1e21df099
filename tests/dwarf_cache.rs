//! The cache of inflated DWARF sections (`src/symbolize/cache.rs`) on a real core: a program
//! built with its DWARF compressed (`gcc -gz=zlib`, as a distribution's debug files are),
//! crashed under gdb and written with gcore, read by the tracecheck binary without the cache,
//! with a cold one and with a warm one, with a damaged cache file and with a cache file of
//! another section: the output is the same every time, and the files say what happened.
//!
//! Needs gcc and gdb (`common::require_tools`).

mod common;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;

const PROG: &str = r#"#include <pthread.h>
#include <unistd.h>

__attribute__((noinline)) void store(long *p, long v) {
    *p = v * 3;
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void *worker(void *arg) {
    (void)arg;
    for (;;)
        pause();
    return 0;
}

__attribute__((noinline)) void *crasher(void *arg) {
    usleep(200000);
    store(0, (long)arg);
    return 0;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, 0, worker, 0);
    pthread_create(&b, 0, crasher, (void *)5);
    for (;;)
        pause();
}
"#;

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

/// tracecheck's report on the core, with `env` set (and nothing from the test's environment
/// that names a cache).
fn report(dir: &Path, env: &[(&str, &Path)]) -> String {
    let mut c = Command::new(env!("CARGO_BIN_EXE_tracecheck"));
    c.current_dir(dir).env_remove("TRACECHECK_CACHE").env_remove("TRACECHECK_CACHE_DIR");
    c.env("XDG_CACHE_HOME", dir.join("xdg")).env("HOME", dir);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.args(["--exe", "prog", "prog.core"]).output().unwrap();
    assert!(out.status.code().is_some_and(|c| c < 2), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The build-id of `path`, in hex.
fn build_id(path: &Path) -> String {
    let data = std::fs::read(path).unwrap();
    let o = object::File::parse(&*data).unwrap();
    use object::Object;
    o.build_id().unwrap().unwrap().iter().map(|b| format!("{b:02x}")).collect()
}

/// Where `.debug_info`'s zlib stream lies in `path` (after its compression header), and its
/// inflated size.
fn debug_info_stream(path: &Path) -> (std::ops::Range<usize>, u64) {
    use object::{Object, ObjectSection};
    let data = std::fs::read(path).unwrap();
    let o = object::File::parse(&*data).unwrap();
    let r = o.section_by_name(".debug_info").unwrap().compressed_file_range().unwrap();
    assert_eq!(r.format, object::CompressionFormat::Zlib, "gcc -gz=zlib compresses .debug_info");
    (r.offset as usize..(r.offset + r.compressed_size) as usize, r.uncompressed_size)
}

#[test]
fn cold_warm_and_damaged_caches_give_the_same_report() {
    if !common::require_tools(&["gcc", "gdb"]) {
        return;
    }
    let dir: PathBuf = common::scratch_root().join(format!("tracecheck-dwarf-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("prog.c"), PROG).unwrap();
    run(Command::new("gcc").current_dir(&dir).args(["-O1", "-g", "-gz=zlib", "-pthread", "prog.c", "-o", "prog"]));
    run(Command::new("gdb")
        .current_dir(&dir)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("HOME", &dir)
        .env("LANG", "C")
        .args([
            "-q",
            "-batch",
            "-nx",
            "-iex",
            "set debuginfod enabled off",
            "-ex",
            "run",
            "-ex",
            "gcore prog.core",
            "./prog",
        ]));
    assert!(dir.join("prog.core").is_file());
    let cache = dir.join("cache");
    let file = cache.join("dwarf").join(build_id(&dir.join("prog"))).join("debug_info");

    // Without the cache: nothing is written (not even under XDG_CACHE_HOME or HOME).
    let off = report(&dir, &[("TRACECHECK_CACHE", Path::new("off")), ("TRACECHECK_CACHE_DIR", &cache)]);
    assert!(off.contains("store") && off.contains("prog.c:"), "{off}");
    assert!(!cache.exists() && !dir.join("xdg").exists() && !dir.join(".cache").exists());

    // Cold: the same report, and the inflated start of .debug_info is kept.
    assert_eq!(report(&dir, &[("TRACECHECK_CACHE_DIR", &cache)]), off);
    let cold = std::fs::metadata(&file).unwrap();
    let (stream, size) = debug_info_stream(&dir.join("prog"));
    // (A section this small is inflated whole.)
    assert!(cold.len() > size && cold.len() < size + 100, "{} for {size} bytes", cold.len());

    // Warm: the same report, from the cache. Shown with a copy of the program whose
    // compressed .debug_info is damaged in its middle (same length, same last four bytes):
    // read without the cache it loses its source lines; with the cache it does not.
    let mut damaged = std::fs::read(dir.join("prog")).unwrap();
    for b in &mut damaged[stream.start + 8..stream.end - 8] {
        *b ^= 0x5a;
    }
    // (The core names the program's path: the damaged copy takes its place.)
    let good_prog = std::fs::read(dir.join("prog")).unwrap();
    std::fs::write(dir.join("prog"), &damaged).unwrap();
    let without = report(&dir, &[("TRACECHECK_CACHE", Path::new("off"))]);
    assert!(off.contains("in store at prog.c:5") && !without.contains("in store at prog.c:5"), "{without}");
    assert_eq!(report(&dir, &[("TRACECHECK_CACHE_DIR", &cache)]), off);
    let after = std::fs::metadata(&file).unwrap();
    assert_eq!((after.ino(), after.len()), (cold.ino(), cold.len()), "a warm run does not rewrite the file");

    // A damaged cache file (one byte of its data): ignored, the report is the same, and the
    // file is replaced by a good one (the damaged program then reads it again).
    let good = std::fs::read(&file).unwrap();
    let mut bad = good.clone();
    let at = bad.len() - 100;
    bad[at] ^= 1;
    std::fs::write(&file, &bad).unwrap();
    std::fs::write(dir.join("prog"), &good_prog).unwrap();
    assert_eq!(report(&dir, &[("TRACECHECK_CACHE_DIR", &cache)]), off);
    assert_eq!(std::fs::read(&file).unwrap(), good);
    std::fs::write(dir.join("prog"), &damaged).unwrap();
    assert_eq!(report(&dir, &[("TRACECHECK_CACHE_DIR", &cache)]), off);
    std::fs::write(dir.join("prog"), &good_prog).unwrap();

    // Another section's file in its place (same build-id): ignored.
    let abbrev = file.with_file_name("debug_abbrev");
    if abbrev.exists() {
        std::fs::copy(&abbrev, &file).unwrap();
        assert_eq!(report(&dir, &[("TRACECHECK_CACHE_DIR", &cache)]), off);
        assert_eq!(std::fs::read(&file).unwrap(), good);
    }

    // The default place: XDG_CACHE_HOME, then HOME.
    assert_eq!(report(&dir, &[]), off);
    assert!(dir.join("xdg/tracecheck/dwarf").join(build_id(&dir.join("prog"))).join("debug_info").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
