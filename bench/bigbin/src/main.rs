//! Uses a little of each dependency so that their code (and DWARF) is linked in.
use clap::Parser;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

#[derive(Parser, Debug, serde::Serialize, serde::Deserialize)]
struct Args {
    #[arg(long, default_value = "x")]
    name: String,
    #[arg(long, default_value_t = 3)]
    n: u32,
}

fn main() {
    let args = Args::parse();
    let j = serde_json::to_string(&args).unwrap();
    let back: Args = serde_json::from_str(&j).unwrap();
    let re = regex::Regex::new(r"(\w+)=(\d+)").unwrap();
    let now = chrono::Utc::now().to_rfc3339();
    let mut runner = TestRunner::default();
    let _ = runner.run(&(0u32..100, "[a-z]{1,8}"), |(a, s)| {
        prop_assert!(a < 100 && !s.is_empty());
        Ok(())
    });
    let data = std::fs::read(std::env::current_exe().unwrap()).unwrap();
    let obj = object::File::parse(&*data).unwrap();
    let mut w = object::write::Object::new(object::BinaryFormat::Elf, object::Architecture::X86_64, object::Endianness::Little);
    w.add_file_symbol(b"x".to_vec());
    let dw = gimli::write::Dwarf::new();
    let _ = dw.units.count();
    let r: nom::IResult<&str, &str> = nom::bytes::complete::tag("ab")("abc");
    let f: syn::File = syn::parse_str("fn main() { let x = 1; }").unwrap();
    let g = f.clone();
    let _ = format!("{:?} {}", f, f == g);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async { tokio::time::sleep(std::time::Duration::from_millis(1)).await });
    println!("{} {} {} {} {:?} {}", back.name, re.is_match("a=1"), now, object::Object::architecture(&obj) as u8, r, w.write().map(|v| v.len()).unwrap_or(0));
}
