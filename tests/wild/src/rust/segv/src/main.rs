fn read_raw(p: *const u64) -> u64 {
    unsafe { std::ptr::read_volatile(p) }
}

fn checksum(base: u64) -> u64 {
    read_raw(base as *const u64) ^ 0x5a5a
}

fn main() {
    println!("{}", checksum(std::env::args().count() as u64 * 0x1000));
}

#[cfg(test)]
mod tests {
    #[test]
    fn checksum_of_header() {
        assert_eq!(super::checksum(0x10), 0);
    }
}
