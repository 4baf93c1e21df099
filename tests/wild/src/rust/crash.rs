use std::env;

struct Ring {
    slots: Vec<u32>,
}

fn slot_at(r: &Ring, i: usize) -> u32 {
    r.slots[i]
}

fn depth(n: u64) -> u64 {
    let pad = [n; 64];
    if n == 0 { pad[0] } else { depth(n - 1) + pad[(n % 64) as usize] }
}

fn read_raw(p: *const u64) -> u64 {
    unsafe { std::ptr::read_volatile(p) }
}

fn main() {
    let mode = env::args().nth(1).unwrap_or_default();
    match mode.as_str() {
        "index" => {
            let r = Ring { slots: vec![1, 2, 3] };
            println!("{}", slot_at(&r, 7));
        }
        "overflow" => println!("{}", depth(u64::MAX / 2)),
        "segv" => println!("{}", read_raw(0x10 as *const u64)),
        _ => {}
    }
}
