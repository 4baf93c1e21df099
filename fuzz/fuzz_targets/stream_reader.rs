//! The streaming path that file arguments which are not regular files (pipes, FIFOs,
//! devices) and standard input take: `parse_reader` over reads of every size the first byte
//! picks, with a small line limit so long-line cutting is reached. Differential: the model
//! must equal `parse_bytes_with` on the same bytes (same frames, registers, notes). Must
//! never panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::io::{BufReader, Read};

/// Hands out at most `step` bytes per read.
struct Trickle<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&sel, rest)) = data.split_first() else { return };
    let step = 1 + (sel as usize & 0x3f);
    let limits = tracecheck::input::Limits { max_line_len: 64 + (sel as usize >> 6) * 200, ..Default::default() };
    let opts = tracecheck::input::StreamOptions { limits, keep_raw: 256, max_bytes: u64::MAX };
    let r = BufReader::with_capacity(16 + step, Trickle { data: rest, step });
    let Ok(streamed) = tracecheck::input::parse_reader(r, &opts) else { return };
    let whole = tracecheck::input::parse_bytes_with(rest, limits);
    assert_eq!(streamed.parsed.trace, whole.trace, "streamed model differs from the whole-buffer model");
    assert!(streamed.raw.len() <= 256);
});
