// rust-null: unsafe read through a dangling raw pointer -> SIGSEGV.
// Built with plain `rustc -g` (opt-level 0).  A literal null pointer would be
// caught by the debug-assertion null checks rustc inserts at opt-level 0
// (panic "null pointer dereference occurred"), so the pointer here is a small
// non-null bogus address, as a corrupted table entry would produce.
use std::ptr;

#[repr(C)]
struct Record {
    id: u64,      // +0x00
    kind: u32,    // +0x08
    flags: u32,   // +0x0c
    len: u64,     // +0x10
    payload: u64, // +0x18
}

#[inline(never)]
fn read_payload(rec: *const Record) -> u64 {
    unsafe { ptr::read_volatile(ptr::addr_of!((*rec).payload)) }
}

#[inline(never)]
fn sum_payloads(table: &[usize]) -> u64 {
    let mut sum = 0u64;
    for &addr in table {
        sum = sum.wrapping_add(read_payload(addr as *const Record));
    }
    sum
}

fn main() {
    let good = Box::new(Record { id: 1, kind: 2, flags: 0, len: 8, payload: 0x1122334455667788 });
    let table = [&*good as *const Record as usize, 0x1000];
    println!("{}", sum_payloads(&table));
}
