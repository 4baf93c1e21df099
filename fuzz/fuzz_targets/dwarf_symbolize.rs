//! DWARF and symbol tables: the bytes as an ELF binary handed to the symbolizer, then
//! addresses in and around its segments and symbols looked up (function, inline chain,
//! file, line) the way `tracecheck symbolize -f -i -C` and core symbolization do.
#![no_main]
use libfuzzer_sys::fuzz_target;
use tracecheck::symbolize::addr2line_mode::{self, Addr2LineOptions};
use tracecheck::symbolize::dwarf::ElfModule;

fuzz_target!(|data: &[u8]| {
    let Ok(m) = ElfModule::from_bytes(std::path::Path::new("fuzz.elf"), data.to_vec()) else { return };
    let mut addrs: Vec<u64> = Vec::new();
    for l in m.loads.iter().take(8) {
        for k in 0..8u64 {
            addrs.push(l.vaddr.wrapping_add(k.wrapping_mul(l.memsz / 8 + 1)));
        }
    }
    addrs.extend([0, 1, 0x1000, 0x401000, u64::MAX]);
    for &a in addrs.iter().take(48) {
        let _ = m.symbol_info(a);
        let _ = m.nearest_symbol(a);
    }
    let o = Addr2LineOptions { addresses: true, functions: true, inlines: true, demangle: true, pretty: true, basenames: false, threads: 1 };
    let mut sink = Vec::new();
    let _ = addr2line_mode::run(&m, &addrs[..addrs.len().min(16)], &o, &mut sink);
});
