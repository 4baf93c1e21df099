fn main() {
    let path = std::env::args().nth(1).expect("file");
    let bytes = std::fs::read(path).unwrap();
    let p = tracecheck::input::parse_bytes(&bytes);
    println!("{:#?}", p.trace.main_stop());
    println!("{:#?}", p.diagnostics);
}
