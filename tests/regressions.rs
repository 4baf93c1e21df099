//! Crashes found by fuzzing (`fuzz/`) and by the adversarial suite, each with its
//! minimized input inline: the parse (and every rule and renderer) must not panic.

use tracecheck::analyze::{Report, analyze};

fn survives(bytes: &[u8]) {
    let parsed = tracecheck::input::parse_bytes(bytes);
    let report = Report { inputs: vec![analyze("regression", parsed, &Default::default())] };
    let mut sink = Vec::new();
    tracecheck::report::text::write(&report, &Default::default(), &mut sink).expect("text");
    tracecheck::report::json::write(&report, &mut sink).expect("json");
    tracecheck::report::markdown::write(&report, &Default::default(), &mut sink).expect("markdown");
    // And the streaming path, on the same bytes.
    let s = tracecheck::input::parse_reader(bytes, &Default::default()).expect("read");
    let _ = analyze("regression", s.parsed, &Default::default());
}

/// fuzz `runtime_text` (crash-778648ec…): a Go goroutine header, then an lldb stop line
/// (a new stop), then the goroutine's location line: the Go parser indexed the new stop's
/// threads with the old stop's thread index (index out of bounds in `go::location`).
#[test]
fn go_location_after_an_lldb_stop_line() {
    let mut input =
        b"SIGSEGV: segmentation violation\nPC=0x0 m=0 sigcode=1 addr=0x0\n\ngoroutine 1 [running]:\n".to_vec();
    input.extend_from_slice(b"fata\x0agoroutine 2 [fo e\x00\x00\x00dle)]:\x0ar).\x0a(lldb) s launch\x0a81pped\x0a* thread #1, name = 'ul, stop reason = s= 0x0\x0aruntiin()\x0a\x09cbruntime/.go:363 +0xd0xc\x01\x00\x00\x00\x00\x00\x00\x00");
    survives(&input);
}

/// fuzz `dialects_text` (crash-e2a5f3d0…, minimized to the UBSan prefix and one line): the
/// journal-prefix check in `kernel::strip_kernel_prefix` (`Mmm dd hh:mm:ss host …`) tested
/// that byte 15 is a character boundary, then sliced at byte 16, inside the U+FFFD that
/// replaced an invalid byte (panic "byte index 16 is not a char boundary", every build).
#[test]
fn journal_prefix_with_a_multibyte_character_at_byte_15() {
    survives(b"src/a.c:5:10: runtime error: signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'\nrip  0\xbe:22: r\xbe");
    // The same shape in valid UTF-8: a three-byte character at bytes 15..18.
    survives("Dec 01 09:14:22\u{20ac} x[1]: y".as_bytes());
}

/// fuzz `dialects_text` (crash-cba16179…, minimized to the Go prefix and five lines): an
/// lldb SIGSEGV stop whose disassembly line's operand holds `]` before `[`; the
/// null-dereference rule decodes the faulting instruction, and `insn::intel_mem` sliced
/// between the first `[` and the last `]` (panic "byte range starts at 284 but ends at
/// 254", every build).
#[test]
fn intel_operand_with_a_bracket_closed_before_it_opens() {
    let mut input = b"panic: runtime error: index out of range [5] with length 3\n\ngoroutine 1 [running]:\nmain.main()\n\t/src/main.go:7 +0x1d\nexit status 2\n".to_vec();
    input.extend_from_slice(
        b"(lldb)n\nthread #1, stop reason = signal SEGV\nframe #2: 0x55555555551b\n    0x55555555551b r ][",
    );
    survives(&input);
    survives(b"(lldb)n\nthread #1, stop reason = signal SEGV\nframe #2: 0x55555555551b\n    0x55555555551b r ][");
}

/// fuzz `dialects_text` (crash-8c8812e5…, found in a longer run after the fix above;
/// reduced by hand to its shape): the AArch64 operand decoder had the same fault, a `]`
/// before the `[` of an `ldr` operand in an lldb disassembly line sliced backwards.
#[test]
fn aarch64_operand_with_a_bracket_closed_before_it_opens() {
    survives(
        b"(lldb)n\nthread #1, stop reason = signal SEGV\nframe #2: 0x55555555551b\n    0x55555555551b ldr x0, ]x1[",
    );
    survives(b"(lldb)n\nthread #1, stop reason = signal SEGV\nframe #2: 0x55555555551b\n    0x55555555551b str w2, ]] [x3, #8]");
}

/// fuzz `runtime_text` (crash-5243c6ae…, found re-fuzzing after the fix above; minimized):
/// the same stale index, in the Go register block. The first goroutine after a Go header
/// remembers its thread index for the registers; an lldb frame line had made it the second
/// thread, then a Julia signal line started a new stop with one thread, and the next
/// register line indexed that stop's threads with the old index (index out of bounds in
/// `go::put_register`).
#[test]
fn go_register_after_a_new_stop() {
    survives(b"SIGQUIT: quit\n    frame #11: 0x0000555555555091 glibc-abort`_start + 33\ngoroutine 18 [select (no cases)]:\n[210433] signal 11 (1): Segmentation fault\nrflags 0x206");
}

/// fuzz `dwarf_symbolize` (crash-6b0b93e7…, the seed binary itself): looking up address
/// `0xffffffffffffffff` overflowed inside addr2line (`probe + 1`), a panic in debug builds
/// (`tracecheck symbolize -e BIN 0xffffffffffffffff`, or a register holding all ones).
#[test]
fn symbolizing_the_last_address() {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/dwarf_symbolize/seed-crash-g-O1");
    let m =
        tracecheck::symbolize::dwarf::ElfModule::from_bytes(&p, std::fs::read(&p).expect("seed binary")).expect("ELF");
    assert!(m.symbol_info(u64::MAX).is_ok());
}

/// fuzz `dwarf_symbolize` (crash-4546ccab…, found re-fuzzing after the fixes above): a
/// symbol table entry whose address + size passes the end of the address space.
/// `nearest_symbol` tested `vaddr < address + size` unchecked, an overflow panic in debug
/// builds. Rebuilt here from the committed seed binary: every function symbol's size set to
/// `u64::MAX`.
#[test]
fn symbol_size_past_the_address_space() {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/dwarf_symbolize/seed-crash-g-O1");
    let mut b = std::fs::read(&p).expect("seed binary");
    let u64_at = |b: &[u8], o: usize| u64::from_le_bytes(b[o..o + 8].try_into().expect("8")) as usize;
    let u16_at = |b: &[u8], o: usize| u16::from_le_bytes([b[o], b[o + 1]]) as usize;
    let (shoff, shentsize, shnum) = (u64_at(&b, 0x28), u16_at(&b, 0x3a), u16_at(&b, 0x3c));
    let mut patched = 0;
    for h in (0..shnum).map(|i| shoff + i * shentsize) {
        if b[h + 4] != 2 {
            continue; // SHT_SYMTAB only
        }
        let (off, size) = (u64_at(&b, h + 24), u64_at(&b, h + 32));
        for sym in (off..off + size).step_by(24) {
            if b[sym + 4] & 0xf == 2 && u64_at(&b, sym + 8) != 0 {
                // STT_FUNC with an address: st_size = u64::MAX.
                b[sym + 16..sym + 24].copy_from_slice(&u64::MAX.to_le_bytes());
                patched += 1;
            }
        }
    }
    assert!(patched > 0, "the seed has function symbols");
    let m = tracecheck::symbolize::dwarf::ElfModule::from_bytes(&p, b).expect("ELF");
    let mut addrs: Vec<u64> = m.loads.iter().flat_map(|l| [l.vaddr, l.vaddr + 0x10, l.vaddr + l.memsz / 2]).collect();
    addrs.extend([0x1000, u64::MAX - 1, u64::MAX]);
    for a in addrs {
        let _ = m.nearest_symbol(a);
        let _ = m.symbol_info(a);
        let _ = m.symbol_name(a);
    }
}

/// fuzz `elf_core` (crash-86ebb132…): a core whose NT_FILE note gives a mapping a file
/// offset near the top of the address space. `ModuleMap::find` computed the module address
/// `base + (addr - start)` unchecked, an overflow panic in debug builds for any code address
/// inside that mapping. Rebuilt here from the committed seed core: every NT_FILE entry's
/// offset set to `u64::MAX` (the seed's page size is 1).
#[test]
fn core_mapping_offset_at_the_top_of_the_address_space() {
    use std::sync::Arc;
    use tracecheck::core::{self, CoreBytes, CoreOptions};
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/elf_core/seed-nolibc-x86_64.core");
    let mut b = std::fs::read(&p).expect("seed core");
    let u64_at = |b: &[u8], o: usize| u64::from_le_bytes(b[o..o + 8].try_into().expect("8"));
    let u32_at = |b: &[u8], o: usize| u32::from_le_bytes(b[o..o + 4].try_into().expect("4"));
    // Walk the PT_NOTE segments to the NT_FILE note.
    let phoff = u64_at(&b, 32) as usize;
    let (phsize, phnum) = (u16::from_le_bytes([b[54], b[55]]) as usize, u16::from_le_bytes([b[56], b[57]]) as usize);
    let mut patched = 0;
    for h in (0..phnum).map(|i| phoff + i * phsize) {
        if u32_at(&b, h) != 4 {
            continue;
        }
        let (off, size) = (u64_at(&b, h + 8) as usize, u64_at(&b, h + 32) as usize);
        let mut n = off;
        while n + 12 <= off + size {
            let (namesz, descsz, ty) = (u32_at(&b, n) as usize, u32_at(&b, n + 4) as usize, u32_at(&b, n + 8));
            let desc = n + 12 + namesz.next_multiple_of(4);
            if ty == 0x4649_4c45 {
                assert_eq!(u64_at(&b, desc + 8), 1, "the seed's NT_FILE page size");
                for i in 0..u64_at(&b, desc) as usize {
                    let o = desc + 16 + i * 24 + 16;
                    b[o..o + 8].copy_from_slice(&u64::MAX.to_le_bytes());
                    patched += 1;
                }
            }
            n = desc + descsz.next_multiple_of(4);
        }
    }
    assert!(patched > 0, "the seed core has an NT_FILE note");
    let cf = core::parse(Arc::new(CoreBytes::Owned(b))).expect("still a core");
    let opts = CoreOptions {
        symbols: tracecheck::symbolize::dwarf::SymbolOptions {
            sysroot: Some("/nonexistent-regression-sysroot".into()),
            system_debug_dir: false,
            ..Default::default()
        },
        ..Default::default()
    };
    let parsed = core::trace::core_to_trace(&cf, "regression.core", &opts);
    assert!(parsed.trace.stops.iter().any(|s| !s.threads.is_empty()), "the thread is still read");
    let report = Report { inputs: vec![analyze("regression.core", parsed, &Default::default())] };
    tracecheck::report::text::write(&report, &Default::default(), &mut Vec::new()).expect("text");
}

/// fuzz `runtime_text` (crash-4c80bdac…, minimized to 163 bytes): `memory read --size 9` made a
/// dump of 9-byte units, and `MemoryDump::read_u64` shifted a u64 word by up to 64 bits
/// (`attempt to shift right with overflow` with overflow checks; wrong bytes without). A
/// unit other than 1, 2, 4 or 8 is no longer read as words, and `read_u64` refuses one.
#[test]
fn lldb_memory_read_with_a_nine_byte_size() {
    let input = b"[4053] signal 11 (1): Segmentation fault\nin expression starting at none:1\n0\n(lldb)memory read --size 9 --fo\n0x5555555593b0: 0x0555 0x5555b \n(lldb) frame select 4\nframe #4: 0x00 julia_\n(lldb) register read r1\n r13 = 0x00005555555593b0\n0\n";
    survives(input);
    let parsed = tracecheck::input::parse_bytes(input);
    for st in &parsed.trace.stops {
        for m in &st.memory {
            assert!(matches!(m.unit, 1 | 2 | 4 | 8), "unit {}", m.unit);
        }
    }
}
