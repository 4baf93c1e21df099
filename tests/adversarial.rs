//! Adversarial inputs, run through the real binary as a child process with a time limit
//! and its peak RSS measured (`wait4`): a 1 GiB dump on standard input, a 50 MB line,
//! 100,000 threads, 1,000,000 frames, binary garbage, invalid UTF-8 and NUL bytes, every
//! register all ones, damaged ELF cores (out-of-range offsets and sizes, overlapping and
//! absurd segments, 2^40 bytes of memory) and DWARF whose references loop.
//!
//! Each case must end by itself (no hang), without a panic, with memory under the bound
//! documented in `docs/reliability.md`, with a clear message and a partial result where
//! one exists. Inputs are generated here, never committed.

#[path = "common/child.rs"]
mod child;
mod common;

use child::{Outcome, tracecheck};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// CPU-time limit for one child (the 1 GiB case has its own); see `child::WALL_FACTOR`.
const LIMIT: Duration = Duration::from_secs(60);

/// Peak RSS bound for every case but the 1 GiB stream, in KiB.
const RSS_BOUND_KB: u64 = 512 * 1024;

fn tmp(name: &str) -> PathBuf {
    // Inputs here are up to hundreds of MB; common::scratch_root removes what earlier runs
    // left behind.
    let d = common::scratch_root().join(format!("tracecheck-adversarial-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d.join(name)
}

fn run_file(path: &Path, extra: &[&str]) -> Outcome {
    let mut c = tracecheck();
    c.args(extra).arg(path);
    child::run(c, None, LIMIT)
}

fn check_bounded(o: &Outcome, what: &str) {
    o.assert_clean(what);
    assert!(o.max_rss_kb < RSS_BOUND_KB, "{what}: peak RSS {} KiB over {RSS_BOUND_KB} KiB", o.max_rss_kb);
    eprintln!("{what}: {:?} ({:?} CPU), peak RSS {} KiB, exit {:?}", o.elapsed, o.cpu, o.max_rss_kb, o.code);
}

const STOP: &str = "Program received signal SIGSEGV, Segmentation fault.\n0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23\n";

/// 1 GiB of generated gdb text on standard input (`tracecheck -`): a stop, then a
/// `thread apply all bt` block repeated with 4096 thread ids, frames beyond the limits,
/// registers and garbage lines. Memory must stay bounded by the limits, not the input.
#[test]
fn one_gib_on_stdin_is_streamed_in_bounded_memory() {
    let total: u64 = std::env::var("TRACECHECK_ADVERSARIAL_BYTES").ok().and_then(|v| v.parse().ok()).unwrap_or(1 << 30);
    // 4096 different blocks (one thread each), written over and over.
    let mut blocks = Vec::new();
    for t in 0..4096u32 {
        let mut b = format!("\nThread {} (Thread 0x7ffff7d8{t:04x} (LWP {}):\n", t + 2, 4000 + t);
        for k in 0..48u32 {
            b.push_str(&format!(
                "#{k:<3} 0x00005555555{t:04x}{k:02x} in worker_{k} (arg=0x{t:x}, n={k}) at src/worker.c:{}\n",
                100 + k
            ));
        }
        b.push_str("rax            0xffffffffffffffff  -1\nrip            0x555555555155      0x555555555155 <session_bytes+12>\n");
        for g in 0..6 {
            b.push_str(&format!(
                "[worker-{t}] 2026-04-14 09:12:33,441 INFO heartbeat ok (queue depth {g}) \u{1b}[31mred\u{1b}[m\n"
            ));
        }
        blocks.push(b);
    }
    let block = blocks.concat().into_bytes();
    let mut c = tracecheck();
    c.args(["--max-frames-kept", "150000", "--max-threads", "2000", "-"]);
    c.env("TRACECHECK_REPORT_PEAK_RSS", "1");
    let feed: Box<dyn FnOnce(std::process::ChildStdin) + Send> = Box::new(move |stdin| {
        child::write_repeated(std::io::BufWriter::with_capacity(1 << 20, stdin), STOP.as_bytes(), &block, total);
    });
    let limit = Duration::from_secs(if cfg!(debug_assertions) { 420 } else { 120 });
    let o = child::run(c, Some(feed), limit);
    let err = o.stderr_text();
    o.assert_clean("1 GiB on stdin");
    eprintln!("1 GiB on stdin: {:?}, peak RSS {} KiB\n{err}", o.elapsed, o.max_rss_kb);
    // A partial result with the stop, and the limits said on stderr.
    let out = o.stdout_text();
    assert!(out.contains("SIGSEGV"), "{out}");
    assert!(err.contains("limit reached: ") && err.contains("--max-threads"), "{err}");
    assert!(o.max_rss_kb < 512 * 1024, "peak RSS {} KiB", o.max_rss_kb);
}

/// One line of 50 MB: read up to the line limit, noted, the rest of the dump still parsed.
#[test]
fn fifty_megabyte_line() {
    let p = tmp("long-line.txt");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&p).expect("create"));
        f.write_all(STOP.as_bytes()).expect("write");
        f.write_all(b"#0  0x0000555555555155 in session_bytes (s=").expect("write");
        let chunk = vec![b'A'; 1 << 20];
        for _ in 0..50 {
            f.write_all(&chunk).expect("write");
        }
        f.write_all(b") at a.c:1\n#1  0x00005555555551cc in main () at src/null-field.c:36\n").expect("write");
    }
    for stdin in [false, true] {
        let o = if stdin {
            let bytes = std::fs::read(&p).expect("read");
            let mut c = tracecheck();
            c.args(["-f", "json", "-"]);
            child::run(c, Some(Box::new(move |mut s| drop(s.write_all(&bytes)))), LIMIT)
        } else {
            run_file(&p, &["-f", "json"])
        };
        check_bounded(&o, "50 MB line");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
        let notes = v["inputs"][0]["diagnostics"]["notes"].to_string();
        assert!(notes.contains("line is 5242") && notes.contains("bytes long"), "{notes}");
        assert!(v.to_string().contains("main"), "the frame after the long line is lost");
    }
}

/// 100,000 threads with one frame each: all kept (the default limit), found by id in
/// constant time (the thread lookup was a scan).
#[test]
fn hundred_thousand_threads() {
    let p = tmp("threads.txt");
    let mut s = String::from(STOP);
    for t in 1..=100_000u32 {
        s.push_str(&format!("\nThread {t} (Thread 0x7f{t:08x} (LWP {t})):\n#0  0x00007ffff7e9a{:03x} in futex_wait () from /lib/libc.so.6\n", t % 4096));
    }
    std::fs::write(&p, &s).expect("write");
    let parsed = tracecheck::input::parse(&s);
    assert_eq!(parsed.trace.stops[0].threads.len(), 100_000);
    let o = run_file(&p, &[]);
    check_bounded(&o, "100,000 threads");
    // One more than the limit allows: said, and the rest kept.
    let o = run_file(&p, &["--max-threads", "1000"]);
    check_bounded(&o, "100,000 threads, --max-threads 1000");
    assert!(o.stderr_text().contains("99000 threads beyond the limit of 1000"), "{}", o.stderr_text());
}

/// 1,000,000 frames over ten threads: kept up to the per-thread and total limits. (Text
/// output: the JSON writer builds its whole document in memory, about 2.3 KB per frame,
/// so JSON is tried on 100,000 frames; see docs/reliability.md.)
#[test]
fn million_frames() {
    let p = tmp("frames.txt");
    let mut s = String::from(STOP);
    for t in 1..=10u32 {
        s.push_str(&format!("\nThread {t} (Thread 0x7f00000{t} (LWP {t})):\n"));
        for k in 0..100_000u32 {
            s.push_str(&format!("#{k} 0x0000000000401{:03x} in r{} ()\n", k % 4096, k % 7));
        }
    }
    std::fs::write(&p, &s).expect("write");
    let o = run_file(&p, &[]);
    check_bounded(&o, "1,000,000 frames");
    let o = run_file(&p, &["--max-frames-kept", "100000", "-f", "json"]);
    check_bounded(&o, "1,000,000 frames, --max-frames-kept 100000, JSON");
    assert!(o.stderr_text().contains("900000 frames beyond the limit of 100000"), "{}", o.stderr_text());
}

fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// 20 MB of random bytes, and random bytes with gdb lines between them.
#[test]
fn binary_garbage() {
    let mut seed = 0x9e3779b97f4a7c15u64;
    let mut bytes = Vec::with_capacity(20 << 20);
    while bytes.len() < 20 << 20 {
        bytes.extend_from_slice(&xorshift(&mut seed).to_le_bytes());
    }
    let p = tmp("garbage.bin");
    std::fs::write(&p, &bytes).expect("write");
    check_bounded(&run_file(&p, &[]), "binary garbage");
    let mut mixed = Vec::new();
    for (k, chunk) in bytes[..4 << 20].chunks(997).enumerate() {
        mixed.extend_from_slice(chunk);
        mixed.extend_from_slice(format!("\n#{}  0x0000555555555155 in f{k} (x=1) at a.c:{k}\n", k % 64).as_bytes());
    }
    let p = tmp("garbage-mixed.bin");
    std::fs::write(&p, &mixed).expect("write");
    for fmt in ["text", "json", "markdown"] {
        check_bounded(&run_file(&p, &["-f", fmt]), "garbage with frames");
    }
}

/// Invalid UTF-8 and NUL bytes inside every kind of line: replaced, noted, still parsed.
#[test]
fn invalid_utf8_and_nul_bytes() {
    let mut b = Vec::new();
    b.extend_from_slice(STOP.as_bytes());
    b.extend_from_slice(b"#0  0x0000555555555155 in sess\xff\xfeion_bytes (s=0x0\x00) at src/n\xc3ull.c:23\n");
    b.extend_from_slice(b"#1  0x00005555555551cc in main () at src/null-field.c:36\n");
    b.extend_from_slice(b"rax            0x0\x00      0\nrdx\xf0\x9f  0x2a 42\n\x00\x00\x00\n\xed\xa0\x80\xc0\xaf\n");
    let p = tmp("utf8.txt");
    std::fs::write(&p, &b).expect("write");
    for fmt in ["text", "json", "markdown"] {
        let o = run_file(&p, &["-f", fmt]);
        check_bounded(&o, "invalid UTF-8");
        assert!(o.stdout_text().contains("main"), "{}", o.stdout_text());
    }
    let o = run_file(&p, &["-f", "json"]);
    assert!(o.stdout_text().contains("not valid UTF-8 or holds NUL bytes"));
}

/// Every register, every memory word and every pc all ones: no arithmetic overflow in the
/// rules (the debug binary panics on overflow).
#[test]
fn every_register_all_ones() {
    let regs = [
        "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
        "rip", "eflags", "cs", "ss", "ds", "es", "fs", "gs", "fs_base", "gs_base", "k0",
    ];
    let mut s =
        String::from("Program received signal SIGSEGV, Segmentation fault.\n0xffffffffffffffff in ?? ()\n(gdb) bt\n");
    for k in 0..8 {
        s.push_str(&format!("#{k}  0xffffffffffffffff in f{k} (p=0xffffffffffffffff) at a.c:4294967295\n"));
    }
    for frame in 0..3 {
        s.push_str(&format!("(gdb) frame {frame}\n(gdb) info registers\n"));
        for r in regs {
            s.push_str(&format!("{r:<15}0xffffffffffffffff  -1\n"));
        }
    }
    s.push_str("(gdb) x/8gx $sp\n0xffffffffffffffe0:\t0xffffffffffffffff\t0xffffffffffffffff\n0xfffffffffffffff0:\t0xffffffffffffffff\t0xffffffffffffffff\n");
    s.push_str("(gdb) x/4i $pc\n=> 0xffffffffffffffff:\tmov    0xffffffffffffffff(%rax),%rax\n   0xffffffffffffffff:\tcall   0xffffffffffffffff\n");
    s.push_str("(gdb) info proc mappings\n      0xffffffffffff0000 0xffffffffffffffff    0xffff 0xffffffffffffffff  rwxp   /x\n");
    s.push_str("(gdb) info sharedlibrary\n0xffffffffffffffff  0xffffffffffffffff  Yes         /lib/x.so\n");
    let p = tmp("ones.txt");
    std::fs::write(&p, &s).expect("write");
    for fmt in ["text", "json", "markdown"] {
        check_bounded(
            &run_file(&p, &["-f", fmt, "-v", "--fail-on", "never", "--exe", "/nonexistent"]),
            "all-ones registers",
        );
    }
}

// ---- ELF cores ---------------------------------------------------------------------------

fn seed_core() -> Vec<u8> {
    let p = common::crate_dir().join("fuzz/corpus/elf_core/seed-nolibc-x86_64.core");
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn u16_at(b: &[u8], o: usize) -> u16 {
    u16::from_le_bytes([b[o], b[o + 1]])
}

fn put_u64(b: &mut [u8], o: usize, v: u64) {
    b[o..o + 8].copy_from_slice(&v.to_le_bytes());
}

/// Offsets of the program headers: (offset of the header, p_type).
fn phdrs(b: &[u8]) -> Vec<(usize, u32)> {
    let phoff = u64::from_le_bytes(b[32..40].try_into().expect("8")) as usize;
    let (size, n) = (u16_at(b, 54) as usize, u16_at(b, 56) as usize);
    (0..n)
        .map(|i| {
            (phoff + i * size, u32::from_le_bytes(b[phoff + i * size..phoff + i * size + 4].try_into().expect("4")))
        })
        .collect()
}

/// p_offset 16, p_vaddr 16+8, p_filesz 32, p_memsz 40 within a 64-bit program header.
fn mutate_loads(f: impl Fn(&mut [u8], usize, usize)) -> Vec<u8> {
    let mut b = seed_core();
    for (k, (h, _)) in phdrs(&b).into_iter().filter(|p| p.1 == 1).enumerate() {
        f(&mut b, h, k);
    }
    b
}

#[test]
fn damaged_cores() {
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("offsets past the end", mutate_loads(|b, h, _| put_u64(b, h + 8, 1 << 62))),
        (
            "offset + size overflows",
            mutate_loads(|b, h, _| {
                put_u64(b, h + 8, u64::MAX - 8);
                put_u64(b, h + 32, 4096);
            }),
        ),
        ("file sizes past the end", mutate_loads(|b, h, _| put_u64(b, h + 32, 1 << 50))),
        ("2^40 bytes of memory", mutate_loads(|b, h, _| put_u64(b, h + 40, 1 << 40))),
        ("every segment at the same address", mutate_loads(|b, h, _| put_u64(b, h + 16, 0x7fff_ffff_e000))),
        (
            "overlapping segments",
            mutate_loads(|b, h, k| {
                put_u64(b, h + 16, 0x400000 + k as u64 * 0x800);
                put_u64(b, h + 40, 0x10000);
            }),
        ),
        (
            "segments at the top of the address space",
            mutate_loads(|b, h, _| {
                put_u64(b, h + 16, u64::MAX - 0xfff);
                put_u64(b, h + 40, 0x10000);
            }),
        ),
        ("note offset past the end", {
            let mut b = seed_core();
            for (h, t) in phdrs(&b) {
                if t == 4 {
                    put_u64(&mut b, h + 8, u64::MAX - 2);
                }
            }
            b
        }),
        ("note size huge", {
            let mut b = seed_core();
            for (h, t) in phdrs(&b) {
                if t == 4 {
                    put_u64(&mut b, h + 32, 1 << 48);
                }
            }
            b
        }),
        ("program headers past the end", {
            let mut b = seed_core();
            put_u64(&mut b, 32, 1 << 40);
            b
        }),
        ("65535 program headers", {
            let mut b = seed_core();
            b[56..58].copy_from_slice(&u16::MAX.to_le_bytes());
            b
        }),
        ("truncated in the notes", {
            let b = seed_core();
            let cut = b.len() - 9000;
            b[..cut].to_vec()
        }),
        ("header only", seed_core()[..64].to_vec()),
    ];
    for (what, bytes) in cases {
        let p = tmp(&format!("{}.core", what.replace(' ', "-").replace('^', "")));
        std::fs::write(&p, &bytes).expect("write");
        for fmt in ["text", "json"] {
            let o = run_file(&p, &["-f", fmt]);
            check_bounded(&o, what);
            // Either a partial trace or one clear line saying why not.
            if o.code == Some(2) {
                let e = o.stderr_text();
                assert!(e.starts_with("tracecheck: ") && e.lines().count() <= 3, "{what}: {e}");
            }
        }
    }
}

// ---- DWARF with cycles -------------------------------------------------------------------

/// An ELF file with `.debug_info` whose `DW_AT_abstract_origin` and `DW_AT_specification`
/// references loop (a → b → a, c → c, an inlined call whose origin is itself), plus
/// `.text` and a symbol table, written with `gimli::write` into a hand-made ELF.
fn cyclic_dwarf_elf() -> Vec<u8> {
    use gimli::write::{Address, AttributeValue, DwarfUnit, EndianVec, Sections};
    use gimli::{Encoding, Format, LittleEndian, constants::*};
    let encoding = Encoding { format: Format::Dwarf32, version: 4, address_size: 8 };
    let mut dwarf = DwarfUnit::new(encoding);
    let root = dwarf.unit.root();
    let cu = dwarf.unit.get_mut(root);
    cu.set(DW_AT_name, AttributeValue::String(b"cycle.c".to_vec()));
    cu.set(DW_AT_low_pc, AttributeValue::Address(Address::Constant(0x401000)));
    cu.set(DW_AT_high_pc, AttributeValue::Udata(0x100));
    let a = dwarf.unit.add(root, DW_TAG_subprogram);
    let b = dwarf.unit.add(root, DW_TAG_subprogram);
    let c = dwarf.unit.add(root, DW_TAG_subprogram);
    for (die, lo) in [(a, 0x401000u64), (b, 0x401040), (c, 0x401080)] {
        let d = dwarf.unit.get_mut(die);
        d.set(DW_AT_low_pc, AttributeValue::Address(Address::Constant(lo)));
        d.set(DW_AT_high_pc, AttributeValue::Udata(0x40));
    }
    dwarf.unit.get_mut(a).set(DW_AT_abstract_origin, AttributeValue::UnitRef(b));
    dwarf.unit.get_mut(b).set(DW_AT_abstract_origin, AttributeValue::UnitRef(a));
    dwarf.unit.get_mut(b).set(DW_AT_specification, AttributeValue::UnitRef(a));
    dwarf.unit.get_mut(c).set(DW_AT_specification, AttributeValue::UnitRef(c));
    let inl = dwarf.unit.add(a, DW_TAG_inlined_subroutine);
    {
        let d = dwarf.unit.get_mut(inl);
        d.set(DW_AT_low_pc, AttributeValue::Address(Address::Constant(0x401008)));
        d.set(DW_AT_high_pc, AttributeValue::Udata(0x10));
        d.set(DW_AT_abstract_origin, AttributeValue::UnitRef(inl));
    }
    let inl2 = dwarf.unit.add(inl, DW_TAG_inlined_subroutine);
    {
        let d = dwarf.unit.get_mut(inl2);
        d.set(DW_AT_low_pc, AttributeValue::Address(Address::Constant(0x401008)));
        d.set(DW_AT_high_pc, AttributeValue::Udata(0x8));
        d.set(DW_AT_abstract_origin, AttributeValue::UnitRef(a));
    }
    let mut sections = Sections::new(EndianVec::new(LittleEndian));
    dwarf.write(&mut sections).expect("write dwarf");
    let mut named: Vec<(&str, Vec<u8>)> = Vec::new();
    sections
        .for_each(|id, data| {
            if !data.slice().is_empty() {
                named.push((id.name(), data.slice().to_vec()));
            }
            Ok::<(), gimli::write::Error>(())
        })
        .expect("sections");
    elf_with_sections(named)
}

/// A minimal little-endian x86-64 ET_EXEC with `.text` at 0x401000, one PT_LOAD, a symbol
/// table naming `a`, `b` and `c`, and the given extra sections.
fn elf_with_sections(extra: Vec<(&str, Vec<u8>)>) -> Vec<u8> {
    let text = vec![0xc3u8; 0x100];
    let mut strtab = b"\0a\0b\0c\0".to_vec();
    let mut symtab = vec![0u8; 24];
    for (k, name) in [1u32, 3, 5].into_iter().enumerate() {
        let mut s = vec![0u8; 24];
        s[0..4].copy_from_slice(&name.to_le_bytes());
        s[4] = 0x12; // global function
        s[6..8].copy_from_slice(&1u16.to_le_bytes()); // .text
        s[8..16].copy_from_slice(&(0x401000u64 + k as u64 * 0x40).to_le_bytes());
        s[16..24].copy_from_slice(&0x40u64.to_le_bytes());
        symtab.extend(s);
    }
    strtab.push(0);
    let mut sections: Vec<(String, u32, u64, Vec<u8>, u32, u64)> = vec![(".text".into(), 1, 0x401000, text, 0, 0)];
    sections.push((".symtab".into(), 2, 0, symtab, 3, 24));
    sections.push((".strtab".into(), 3, 0, strtab, 0, 0));
    for (n, d) in extra {
        sections.push((n.to_string(), 1, 0, d, 0, 0));
    }
    let mut shstrtab = vec![0u8];
    let mut name_off = Vec::new();
    for s in &sections {
        name_off.push(shstrtab.len() as u32);
        shstrtab.extend_from_slice(s.0.as_bytes());
        shstrtab.push(0);
    }
    name_off.push(shstrtab.len() as u32);
    shstrtab.extend_from_slice(b".shstrtab\0");
    sections.push((".shstrtab".into(), 3, 0, shstrtab, 0, 0));
    let mut out = vec![0u8; 64 + 56];
    let mut offsets = Vec::new();
    for s in &sections {
        while !out.len().is_multiple_of(16) {
            out.push(0);
        }
        offsets.push(out.len() as u64);
        out.extend_from_slice(&s.3);
    }
    while !out.len().is_multiple_of(8) {
        out.push(0);
    }
    let shoff = out.len() as u64;
    out.extend_from_slice(&[0u8; 64]);
    for (k, s) in sections.iter().enumerate() {
        let mut h = [0u8; 64];
        h[0..4].copy_from_slice(&name_off[k].to_le_bytes());
        h[4..8].copy_from_slice(&s.1.to_le_bytes());
        if k == 0 {
            h[8..16].copy_from_slice(&6u64.to_le_bytes()); // alloc + exec
        }
        h[16..24].copy_from_slice(&s.2.to_le_bytes());
        h[24..32].copy_from_slice(&offsets[k].to_le_bytes());
        h[32..40].copy_from_slice(&(s.3.len() as u64).to_le_bytes());
        h[40..44].copy_from_slice(&s.4.to_le_bytes());
        if s.1 == 2 {
            h[44..48].copy_from_slice(&1u32.to_le_bytes());
        }
        h[48..56].copy_from_slice(&1u64.to_le_bytes());
        h[56..64].copy_from_slice(&s.5.to_le_bytes());
        out.extend_from_slice(&h);
    }
    let e = &mut out[..64];
    e[0..4].copy_from_slice(b"\x7fELF");
    e[4] = 2;
    e[5] = 1;
    e[6] = 1;
    e[16..18].copy_from_slice(&2u16.to_le_bytes());
    e[18..20].copy_from_slice(&62u16.to_le_bytes());
    e[20..24].copy_from_slice(&1u32.to_le_bytes());
    e[24..32].copy_from_slice(&0x401000u64.to_le_bytes());
    e[32..40].copy_from_slice(&64u64.to_le_bytes());
    e[40..48].copy_from_slice(&shoff.to_le_bytes());
    e[52..54].copy_from_slice(&64u16.to_le_bytes());
    e[54..56].copy_from_slice(&56u16.to_le_bytes());
    e[56..58].copy_from_slice(&1u16.to_le_bytes());
    e[58..60].copy_from_slice(&64u16.to_le_bytes());
    e[60..62].copy_from_slice(&(sections.len() as u16 + 1).to_le_bytes());
    e[62..64].copy_from_slice(&(sections.len() as u16).to_le_bytes());
    let text_off = offsets[0];
    let p = &mut out[64..120];
    p[0..4].copy_from_slice(&1u32.to_le_bytes());
    p[4..8].copy_from_slice(&5u32.to_le_bytes());
    p[8..16].copy_from_slice(&text_off.to_le_bytes());
    p[16..24].copy_from_slice(&0x401000u64.to_le_bytes());
    p[24..32].copy_from_slice(&0x401000u64.to_le_bytes());
    p[32..40].copy_from_slice(&0x100u64.to_le_bytes());
    p[40..48].copy_from_slice(&0x100u64.to_le_bytes());
    p[48..56].copy_from_slice(&0x1000u64.to_le_bytes());
    out
}

#[test]
fn dwarf_with_reference_cycles() {
    let elf = cyclic_dwarf_elf();
    let p = tmp("cycle.elf");
    std::fs::write(&p, &elf).expect("write");
    // The module reads (in process too).
    let m = tracecheck::symbolize::dwarf::ElfModule::from_bytes(&p, elf.clone()).expect("an ELF file");
    assert!(m.has_debug_info());
    let _ = m.symbol_info(0x401010);
    // addr2line mode, every address of the cycle.
    let mut c = tracecheck();
    c.args(["symbolize", "-e"])
        .arg(&p)
        .args(["-a", "-f", "-i", "-C", "0x401000", "0x401008", "0x40100c", "0x401044", "0x401088", "0x4010ff"]);
    let o = child::run(c, None, LIMIT);
    check_bounded(&o, "DWARF cycles (symbolize)");
    assert_eq!(o.stdout_text().lines().filter(|l| l.starts_with("0x")).count(), 6, "{}", o.stdout_text());
    // A transcript symbolized against it.
    let t = tmp("cycle.txt");
    std::fs::write(
        &t,
        "Program received signal SIGSEGV, Segmentation fault.\n0x000000000040100c in ?? ()\n(gdb) bt\n#0  0x000000000040100c in ?? ()\n#1  0x0000000000401048 in ?? ()\n#2  0x0000000000401088 in ?? ()\n(gdb) info proc mappings\n            0x401000           0x402000     0x1000        0x0  r-xp   /cycle.elf\n",
    )
    .expect("write");
    let o = run_file(&t, &["--exe", p.to_str().expect("utf-8 path"), "-f", "json"]);
    check_bounded(&o, "DWARF cycles (transcript)");
}

/// The harness itself: a child spinning on the CPU is killed at the CPU limit, and a child
/// blocked without using CPU at `WALL_FACTOR` times the limit of wall time.
#[test]
fn harness_kills_at_the_cpu_limit_and_at_the_wall_backstop() {
    let limit = Duration::from_secs(1);
    let mut spin = std::process::Command::new("sh");
    spin.args(["-c", "while :; do :; done"]);
    let o = child::run(spin, None, limit);
    assert!(o.timed_out, "spinning child not killed: {:?} wall, {:?} CPU", o.elapsed, o.cpu);
    // Killed at its CPU limit, unless the machine was so loaded that the wall backstop came
    // first (two cores shared by many test binaries): never before both.
    assert!(
        o.cpu >= limit || o.elapsed >= limit * child::WALL_FACTOR,
        "killed before either limit: {:?} wall, {:?} CPU",
        o.elapsed,
        o.cpu
    );
    assert!(o.elapsed < limit * (child::WALL_FACTOR + 5), "spinning child ran {:?}", o.elapsed);
    let mut sleep = std::process::Command::new("sleep");
    sleep.arg("600");
    let o = child::run(sleep, None, limit);
    assert!(o.timed_out, "blocked child not killed");
    assert!(o.cpu < limit, "a sleeping child used {:?} of CPU", o.cpu);
    assert!(o.elapsed >= limit * child::WALL_FACTOR && o.elapsed < Duration::from_secs(120), "{:?}", o.elapsed);
}
