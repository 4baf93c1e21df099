// rustc -C panic=abort: assert_eq! fails ("assertion `left == right` failed") in a
// checksum routine; the panic aborts.
#[inline(never)]
fn verify(block: &[u8], expected: u32) {
    let sum: u32 = block.iter().map(|&b| b as u32).sum();
    assert_eq!(sum, expected, "checksum mismatch");
}

fn main() {
    let block = vec![3u8; 16];
    verify(&block, 48);
    verify(&block, 49);
}
