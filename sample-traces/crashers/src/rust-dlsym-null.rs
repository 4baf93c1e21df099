// Rust: a plugin entry point looked up with dlsym() is not exported by the program; the NULL
// result is transmuted to a function pointer without a check and called: pc = 0.
use std::ffi::{c_char, c_void, CStr};

extern "C" {
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}

const RTLD_DEFAULT: *mut c_void = std::ptr::null_mut();

#[inline(never)]
fn call_plugin(name: &CStr, arg: u32) -> u32 {
    let sym = unsafe { dlsym(RTLD_DEFAULT, name.as_ptr()) };
    let entry: extern "C" fn(u32) -> u32 = unsafe { std::mem::transmute(sym) };
    entry(arg)
}

fn main() {
    let name = CStr::from_bytes_with_nul(b"plugin_checksum_v2\0").unwrap();
    let n = call_plugin(name, 7);
    println!("{n}");
}
