// rust-panic: a panic compiled with -C panic=abort, so the process aborts
// (SIGABRT) right after the panic message.  Built with `rustc -g -C panic=abort`.
use std::collections::HashMap;

struct Config {
    values: HashMap<String, String>,
}

impl Config {
    fn parse(text: &str) -> Config {
        let mut values = HashMap::new();
        for line in text.lines() {
            if let Some((k, v)) = line.split_once('=') {
                values.insert(k.trim().to_string(), v.trim().to_string());
            }
        }
        Config { values }
    }

    #[inline(never)]
    fn port(&self) -> u16 {
        let raw = self.values.get("port").expect("config has no port");
        raw.parse::<u16>().unwrap()
    }
}

#[inline(never)]
fn start_server(cfg: &Config) -> u16 {
    let port = cfg.port();
    println!("listening on {}", port);
    port
}

fn main() {
    let cfg = Config::parse("host = example.org\nport = 80800\n");
    start_server(&cfg);
}
