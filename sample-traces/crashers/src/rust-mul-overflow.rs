// rustc -C panic=abort, debug build: an area computed in u16 overflows:
// 'attempt to multiply with overflow' panics and aborts (SIGABRT).
use std::hint::black_box;

struct Tile {
    w: u16,
    h: u16,
}

#[inline(never)]
fn area(t: &Tile) -> u16 {
    t.w * t.h
}

fn main() {
    let tiles = [Tile { w: 16, h: 16 }, Tile { w: black_box(300), h: black_box(400) }];
    let total: u32 = tiles.iter().map(|t| area(t) as u32).sum();
    println!("{total}");
}
