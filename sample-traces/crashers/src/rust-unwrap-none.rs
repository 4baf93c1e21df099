// rustc -O -C panic=abort: unwrap() on None in a lookup, an abort with Rust's panic message.
use std::collections::HashMap;

#[inline(never)]
fn port_of(cfg: &HashMap<String, u16>, key: &str) -> u16 {
    *cfg.get(key).unwrap()
}

fn main() {
    let mut cfg = HashMap::new();
    cfg.insert("http".to_string(), 80u16);
    println!("{}", port_of(&cfg, "http"));
    println!("{}", port_of(&cfg, "https"));
}
