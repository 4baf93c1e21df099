//! Crafted ELF cores (built byte by byte here) whose numbers overflow address arithmetic:
//! the `tracecheck` binary of this build (a debug build under `cargo test`, so with overflow
//! checks) must read each one, say what was wrong in a note, and never panic.
//!
//! * an ELF image in the core's memory whose program headers sit at `start + phoff` past the
//!   end of the address space (the build-id lookup added the two unchecked);
//! * a thread whose stack pointer is the last word of the address space, at a pc outside all
//!   code (the unwinder's frame-#0 fallback computes `sp + 8`; segments are cut one byte
//!   short of the end, so that read fails first, and the sum is checked anyway);
//! * a segment and an NT_FILE mapping both at the very last address (the mapping's
//!   permissions lookup computed `vaddr + max(memsz, 1)`).

mod common;
use std::path::PathBuf;
use std::process::Command;

const PT_LOAD: u32 = 1;
const PT_NOTE: u32 = 4;
const NT_PRSTATUS: u32 = 1;
const NT_FILE: u32 = 0x4649_4c45;

/// A PT_LOAD: virtual address, memory size, and the bytes the core holds for it.
struct Load {
    vaddr: u64,
    memsz: u64,
    bytes: Vec<u8>,
}

fn note(out: &mut Vec<u8>, ty: u32, desc: &[u8]) {
    out.extend_from_slice(&5u32.to_le_bytes());
    out.extend_from_slice(&(desc.len() as u32).to_le_bytes());
    out.extend_from_slice(&ty.to_le_bytes());
    out.extend_from_slice(b"CORE\0\0\0\0");
    out.extend_from_slice(desc);
    while !out.len().is_multiple_of(4) {
        out.push(0);
    }
}

/// NT_PRSTATUS of an x86-64 thread (336 bytes; `pr_reg` at 112 in the kernel's order).
fn prstatus(lwp: u32, rip: u64, rsp: u64) -> Vec<u8> {
    let mut d = vec![0u8; 336];
    d[12..14].copy_from_slice(&11u16.to_le_bytes()); // pr_cursig: SIGSEGV
    d[32..36].copy_from_slice(&lwp.to_le_bytes());
    let reg = |d: &mut Vec<u8>, i: usize, v: u64| d[112 + i * 8..120 + i * 8].copy_from_slice(&v.to_le_bytes());
    reg(&mut d, 16, rip);
    reg(&mut d, 19, rsp);
    reg(&mut d, 4, rsp); // rbp
    d
}

/// NT_FILE with page size 1: (start, end, file offset, path).
fn nt_file(entries: &[(u64, u64, u64, &str)]) -> Vec<u8> {
    let mut d = Vec::new();
    d.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    d.extend_from_slice(&1u64.to_le_bytes());
    for (s, e, o, _) in entries {
        for v in [s, e, o] {
            d.extend_from_slice(&v.to_le_bytes());
        }
    }
    for (_, _, _, p) in entries {
        d.extend_from_slice(p.as_bytes());
        d.push(0);
    }
    d
}

/// An x86-64 ET_CORE: one PT_NOTE (the given notes), then the loads.
fn core(notes: &[u8], loads: &[Load]) -> Vec<u8> {
    let phnum = 1 + loads.len();
    let data_at = 64 + 56 * phnum;
    let mut out = Vec::new();
    out.extend_from_slice(b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0");
    out.extend_from_slice(&4u16.to_le_bytes()); // ET_CORE
    out.extend_from_slice(&62u16.to_le_bytes()); // EM_X86_64
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes()); // entry
    out.extend_from_slice(&64u64.to_le_bytes()); // phoff
    out.extend_from_slice(&0u64.to_le_bytes()); // shoff
    out.extend_from_slice(&0u32.to_le_bytes()); // flags
    for v in [64u16, 56, phnum as u16, 64, 0, 0] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let ph = |out: &mut Vec<u8>, ty: u32, flags: u32, off: u64, vaddr: u64, filesz: u64, memsz: u64| {
        out.extend_from_slice(&ty.to_le_bytes());
        out.extend_from_slice(&flags.to_le_bytes());
        for v in [off, vaddr, 0, filesz, memsz, 1] {
            out.extend_from_slice(&v.to_le_bytes());
        }
    };
    let mut at = data_at as u64;
    ph(&mut out, PT_NOTE, 0, at, 0, notes.len() as u64, 0);
    at += notes.len() as u64;
    for l in loads {
        ph(&mut out, PT_LOAD, 5, at, l.vaddr, l.bytes.len() as u64, l.memsz);
        at += l.bytes.len() as u64;
    }
    assert_eq!(out.len(), data_at);
    out.extend_from_slice(notes);
    for l in loads {
        out.extend_from_slice(&l.bytes);
    }
    out
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = common::scratch_root().join(format!("tracecheck-crafted-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Runs the binary on the core in every format; returns the text report. Fails on a panic
/// or any exit status other than 0/1 (findings).
fn run(core: &PathBuf) -> String {
    let mut text = String::new();
    for fmt in ["text", "json", "markdown"] {
        let o = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
            .args(["--format", fmt, "--color", "never", "--sysroot", "/nonexistent-crafted-sysroot"])
            .arg(core)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked"), "{fmt}: panic\n{err}");
        assert!(matches!(o.status.code(), Some(0 | 1)), "{fmt}: exit {:?}\n{err}", o.status.code());
        if fmt == "text" {
            text = String::from_utf8_lossy(&o.stdout).into_owned();
        }
    }
    text
}

/// An ELF header for the image at a mapping's start, with program headers at `phoff`.
fn elf_header(phoff: u64) -> Vec<u8> {
    let mut h = vec![0u8; 0x1000];
    h[..8].copy_from_slice(b"\x7fELF\x02\x01\x01\0");
    h[16..18].copy_from_slice(&3u16.to_le_bytes()); // ET_DYN
    h[18..20].copy_from_slice(&62u16.to_le_bytes());
    h[32..40].copy_from_slice(&phoff.to_le_bytes());
    h[54..56].copy_from_slice(&56u16.to_le_bytes());
    h[56..58].copy_from_slice(&1u16.to_le_bytes());
    h
}

#[test]
fn program_headers_past_the_end_of_the_address_space() {
    let start = 0x5555_5555_4000u64;
    let mut notes = Vec::new();
    note(&mut notes, NT_PRSTATUS, &prstatus(4242, start + 0x100, start + 0x800));
    note(&mut notes, NT_FILE, &nt_file(&[(start, start + 0x1000, 0, "/crafted/prog")]));
    let loads = [Load { vaddr: start, memsz: 0x1000, bytes: elf_header(0xffff_ffff_ffff_f000) }];
    let p = write("phoff.core", &core(&notes, &loads));
    let text = run(&p);
    assert!(text.contains("#0  0x0000555555554100 in ?? from /crafted/prog"), "the thread is read: {text}");
    assert!(
        text.contains(
            "/crafted/prog: the ELF header in memory at 0x555555554000 puts its program headers at offset \
                       0xfffffffffffff000, past the end of the address space; its build-id is not read"
        ),
        "{text}"
    );
    // The same image with a sane phoff: no such note (the note is about the overflow only).
    let loads = [Load { vaddr: start, memsz: 0x1000, bytes: elf_header(64) }];
    let text = run(&write("phoff-sane.core", &core(&notes, &loads)));
    assert!(!text.contains("past the end of the address space"), "{text}");
    assert!(text.contains("#0  0x0000555555554100 in ?? from /crafted/prog"), "the thread is read: {text}");
}

/// A segment reaching the last byte of the address space is cut one byte short (so no read
/// can end past it), and a stack pointer in its last word reads nothing there: the
/// unwinder's frame-#0 fallback (`sp + 8`, now checked) stops with a memory error.
#[test]
fn stack_pointer_at_the_last_word_of_the_address_space() {
    let top = 0xffff_ffff_ffff_f000u64;
    let sp = u64::MAX - 7;
    let mut stack = vec![0u8; 0x1000];
    stack[0xff8..].copy_from_slice(&0x0040_1122_u64.to_le_bytes()); // the "return address" at sp
    let mut notes = Vec::new();
    note(&mut notes, NT_PRSTATUS, &prstatus(7, 0x1234, sp));
    let loads = [Load { vaddr: top, memsz: 0x1000, bytes: stack }];
    let text = run(&write("top-sp.core", &core(&notes, &loads)));
    assert!(text.contains("#0  0x0000000000001234"), "frame #0 is the bad pc: {text}");
    assert!(
        text.contains(
            "a segment at 0xfffffffffffff000 claims 0x1000 bytes, past the end of the address space; it was cut"
        ),
        "{text}"
    );
    assert!(!text.contains("0x0000000000401122"), "the cut word is not read as a return address: {text}");
}

#[test]
fn mapping_and_segment_at_the_last_address() {
    let mut notes = Vec::new();
    note(&mut notes, NT_PRSTATUS, &prstatus(9, 0x1234, 0x7ffe_0000_0000));
    note(&mut notes, NT_FILE, &nt_file(&[(u64::MAX, u64::MAX, 0, "/crafted/top")]));
    let loads = [Load { vaddr: u64::MAX, memsz: 0, bytes: Vec::new() }];
    let text = run(&write("top-map.core", &core(&notes, &loads)));
    assert!(text.contains("#0  0x0000000000001234"), "{text}");
    let json = Command::new(env!("CARGO_BIN_EXE_tracecheck"))
        .args(["--format", "json", "--sysroot", "/nonexistent-crafted-sysroot"])
        .arg(common::scratch_root().join(format!("tracecheck-crafted-{}", std::process::id())).join("top-map.core"))
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("json");
    let maps = v.pointer("/inputs/0/mappings").and_then(|m| m.as_array()).expect("mappings");
    assert!(
        maps.iter().any(|m| m.get("path").and_then(|p| p.as_str()) == Some("/crafted/top")),
        "the mapping at the last address is kept: {maps:?}"
    );
}
