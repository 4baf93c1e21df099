// Rust calls a C function through FFI with a record whose header pointer is null;
// the C code reads hdr->nfields: SIGSEGV at address 0x4 inside the C function.
#[repr(C)]
struct Header {
    version: i32,
    nfields: i32,
}

#[repr(C)]
struct Record {
    id: i64,
    hdr: *const Header,
}

#[link(name = "rustffinull", kind = "static")]
extern "C" {
    fn record_field_count(r: *const Record) -> i32;
}

#[inline(never)]
fn fields_of(r: &Record) -> i32 {
    unsafe { record_field_count(r) }
}

fn main() {
    let h = Header { version: 1, nfields: 3 };
    let ok = Record { id: 1, hdr: &h };
    let bad = Record { id: 2, hdr: std::ptr::null() };
    println!("{} {}", fields_of(&ok), h.version);
    println!("{}", fields_of(&bad));
}
