// A Rust program calls a C++ library function (rust-foreign-exception-lib.cpp) inside
// catch_unwind; the C++ code throws, the exception unwinds into Rust, and catch_unwind finds a
// foreign exception: "fatal runtime error: Rust cannot catch foreign exceptions", abort.
use std::panic;

unsafe extern "C-unwind" {
    fn parse_manifest(len: i32) -> i32;
}

fn load(len: i32) -> i32 {
    match panic::catch_unwind(|| unsafe { parse_manifest(len) }) {
        Ok(v) => v,
        Err(_) => -1,
    }
}

fn main() {
    println!("entries {}", load(-4));
}
