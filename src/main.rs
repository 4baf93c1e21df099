//! The `tracecheck` command: batch analysis (`tracecheck dump.txt`) and its subcommands.
//!
//! Exit codes: 0 = no finding at or above `--fail-on`, 1 = findings, 2 = usage error or an
//! unreadable input (with a one-line reason on stderr).

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;
use tracecheck::analyze::{self, Report};
use tracecheck::report::{self, markdown::MarkdownOptions, text::TextOptions};
use tracecheck::rules::{self, Selection, Severity};

#[derive(Parser)]
#[command(
    name = "tracecheck",
    version,
    about = "Reads what a debugger saw at a crash (gdb, rr, Julia runtime output) and says what is wrong with the machine state.",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    check: CheckArgs,
}

#[derive(Subcommand)]
enum Command {
    /// List every rule with its id, default severity and title.
    Rules {
        /// Write one markdown page per rule into this directory (docs/rules).
        #[arg(long, value_name = "DIR")]
        write_docs: Option<std::path::PathBuf>,
    },
    /// Print a rule's explanation.
    Explain { rule: String },
    /// addr2line-compatible: file addresses of an ELF binary to function, file and line.
    Symbolize(SymbolizeArgs),
}

/// `tracecheck symbolize`: the flags binutils addr2line has.
#[derive(Args)]
struct SymbolizeArgs {
    /// The ELF file (default a.out, as addr2line).
    #[arg(short = 'e', long = "exe", value_name = "FILE", default_value = "a.out")]
    exe: std::path::PathBuf,
    /// Print the address before each answer.
    #[arg(short = 'a', long = "addresses")]
    addresses: bool,
    /// Print function names.
    #[arg(short = 'f', long = "functions")]
    functions: bool,
    /// Print the inlined-call chain (innermost first).
    #[arg(short = 'i', long = "inlines")]
    inlines: bool,
    /// Demangle Rust and C++ names.
    #[arg(short = 'C', long = "demangle")]
    demangle: bool,
    /// One line per address.
    #[arg(short = 'p', long = "pretty-print")]
    pretty: bool,
    /// File base names only.
    #[arg(short = 's', long = "basenames")]
    basenames: bool,
    /// Separate debug files (`DIR/.build-id/xx/rest.debug`, debuglink names).
    #[arg(long = "debug-dir", value_name = "DIR")]
    debug_dir: Vec<std::path::PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Addresses (hex); read from standard input, one per line, when none are given.
    #[arg(value_name = "ADDR")]
    addrs: Vec<String>,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Markdown,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

#[derive(Args)]
struct CheckArgs {
    /// Dump files to analyze (`-` reads standard input).
    #[arg(value_name = "FILE")]
    files: Vec<String>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Exit with 1 when a finding of at least this severity is reported.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    fail_on: FailOn,
    /// Run only this rule (repeatable; enables experimental rules).
    #[arg(long = "rule", value_name = "ID")]
    rule: Vec<String>,
    /// Do not run this rule (repeatable).
    #[arg(long = "skip-rule", value_name = "ID")]
    skip_rule: Vec<String>,
    /// Colour in text output (never when NO_COLOR is set).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    color: ColorChoice,
    /// Show every stop's backtrace and all unrecognized lines.
    #[arg(long, short = 'v')]
    verbose: bool,
    /// Frames shown per backtrace in text output.
    #[arg(long, default_value_t = 30)]
    max_frames: usize,
    /// Leave the raw dump out of the markdown report.
    #[arg(long)]
    no_raw: bool,
    /// Refuse inputs larger than this many bytes.
    #[arg(long, default_value_t = 2 << 30)]
    max_input_bytes: u64,
    #[command(flatten)]
    binaries: BinaryArgs,
}

/// Binaries and debug info for cores and for symbolizing transcripts.
#[derive(Args)]
struct BinaryArgs {
    /// An executable or shared library of the crashed process (repeatable).
    #[arg(long = "exe", value_name = "PATH")]
    exe: Vec<std::path::PathBuf>,
    /// Look up the paths a core or transcript names under this directory.
    #[arg(long, value_name = "DIR")]
    sysroot: Option<std::path::PathBuf>,
    /// Separate debug files: `DIR/.build-id/xx/rest.debug` and `.gnu_debuglink` names
    /// (repeatable; /usr/lib/debug is always searched).
    #[arg(long = "debug-dir", value_name = "DIR")]
    debug_dir: Vec<std::path::PathBuf>,
}

impl BinaryArgs {
    fn given(&self) -> bool {
        !self.exe.is_empty() || self.sysroot.is_some() || !self.debug_dir.is_empty()
    }
    fn options(&self) -> tracecheck::symbolize::dwarf::SymbolOptions {
        tracecheck::symbolize::dwarf::SymbolOptions {
            exes: self.exe.clone(),
            sysroot: self.sysroot.clone(),
            debug_dirs: self.debug_dir.clone(),
            system_debug_dir: true,
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    match cli.command {
        Some(Command::Rules { write_docs }) => list_rules(write_docs),
        Some(Command::Explain { rule }) => explain(&rule),
        Some(Command::Symbolize(args)) => symbolize_cmd(args),
        None => check(cli.check),
    }
}

fn list_rules(write_docs: Option<std::path::PathBuf>) -> ExitCode {
    if let Some(dir) = write_docs {
        if let Err(e) = std::fs::create_dir_all(&dir) {
            eprintln!("tracecheck: cannot create {}: {e}", dir.display());
            return ExitCode::from(2);
        }
        for r in rules::RULES {
            let path = dir.join(format!("{}.md", r.info.id));
            if let Err(e) = std::fs::write(&path, rules::doc_page(r.info)) {
                eprintln!("tracecheck: cannot write {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
        println!("wrote {} rule pages to {}", rules::RULES.len(), dir.display());
        return ExitCode::SUCCESS;
    }
    let mut out = io::stdout().lock();
    for r in rules::RULES {
        let m = match r.info.maturity {
            rules::Maturity::Stable => "",
            rules::Maturity::Experimental => " (experimental)",
        };
        let _ = writeln!(out, "{:<22} {:<8} {}{}", r.info.id, r.info.default_severity.name(), r.info.title, m);
    }
    ExitCode::SUCCESS
}

fn explain(id: &str) -> ExitCode {
    match rules::find(id) {
        Some(r) => {
            println!("{} ({}): {}\n\n{}", r.info.id, r.info.default_severity.name(), r.info.title, r.info.explanation);
            ExitCode::SUCCESS
        }
        None => {
            let ids: Vec<&str> = rules::RULES.iter().map(|r| r.info.id).collect();
            eprintln!("tracecheck: no rule '{id}'; rules are: {}", ids.join(", "));
            ExitCode::from(2)
        }
    }
}

fn read_input(path: &str, limit: u64) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    if path == "-" {
        io::stdin().lock().take(limit + 1).read_to_end(&mut buf).map_err(|e| format!("cannot read standard input: {e}"))?;
    } else {
        let f = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        if let Ok(m) = f.metadata() {
            if m.is_dir() {
                return Err(format!("{path} is a directory"));
            }
            if m.len() > limit {
                return Err(format!("{path} is {} bytes, over --max-input-bytes {limit}", m.len()));
            }
        }
        f.take(limit + 1).read_to_end(&mut buf).map_err(|e| format!("cannot read {path}: {e}"))?;
    }
    if buf.len() as u64 > limit {
        return Err(format!("{path} is over --max-input-bytes {limit}"));
    }
    Ok(buf)
}

fn check(args: CheckArgs) -> ExitCode {
    if args.files.is_empty() {
        eprintln!("tracecheck: no input file (try `tracecheck sample-traces/null-field.gdb.txt`, or `-` for standard input; `tracecheck --help` for more)");
        return ExitCode::from(2);
    }
    for id in args.rule.iter().chain(args.skip_rule.iter()) {
        if rules::find(id).is_none() {
            eprintln!("tracecheck: unknown rule '{id}' (see `tracecheck rules`)");
            return ExitCode::from(2);
        }
    }
    let sel = Selection { only: args.rule.clone(), skip: args.skip_rule.clone() };
    let mut report = Report::default();
    let mut failed_input = false;
    for path in &args.files {
        // ELF input: a core (by its header, whatever its name) or a binary given by mistake.
        if path != "-" {
            match elf_kind(path) {
                Some(true) => {
                    let opts = tracecheck::core::CoreOptions { symbols: args.binaries.options(), ..Default::default() };
                    match tracecheck::core::read_core_trace(std::path::Path::new(path), &opts) {
                        Ok(parsed) => report.inputs.push(analyze::analyze(path, parsed, &sel)),
                        Err(e) => {
                            eprintln!("tracecheck: {path}: {e}");
                            failed_input = true;
                        }
                    }
                    continue;
                }
                Some(false) => {
                    eprintln!("tracecheck: {path} is an ELF executable or library, not a core; pass it with --exe next to a core or transcript");
                    failed_input = true;
                    continue;
                }
                None => {}
            }
        }
        let bytes = match read_input(path, args.max_input_bytes) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("tracecheck: {e}");
                failed_input = true;
                continue;
            }
        };
        if bytes.starts_with(b"\x7fELF") {
            // Only standard input gets here: a core must be given as a file (it is mapped).
            eprintln!("tracecheck: {path} is an ELF file; give a core as a file path, not on standard input");
            failed_input = true;
            continue;
        }
        #[allow(unused_mut)]
        let mut parsed = tracecheck::input::parse_bytes(&bytes);
        if args.binaries.given() {
            let sup = tracecheck::symbolize::dwarf::DwarfSymbols::new(args.binaries.options());
            tracecheck::symbolize::symbolize_trace(&mut parsed.trace, &sup, &mut parsed.diagnostics.notes);
        }
        let mut ir = analyze::analyze(path, parsed, &sel);
        if args.format == Format::Markdown && !args.no_raw {
            ir.raw = Some(String::from_utf8_lossy(&bytes).into_owned());
        }
        report.inputs.push(ir);
    }
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let color = match args.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => io::stdout().is_terminal(),
    } && std::env::var_os("NO_COLOR").map(|v| v.is_empty()).unwrap_or(true);
    let res = match args.format {
        Format::Text => report::text::write(&report, &TextOptions { color, max_frames: args.max_frames, verbose: args.verbose }, &mut out),
        Format::Json => report::json::write(&report, &mut out),
        Format::Markdown => report::markdown::write(&report, &MarkdownOptions { include_raw: !args.no_raw }, &mut out),
    };
    if let Err(e) = res.and_then(|_| out.flush()) {
        if e.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("tracecheck: cannot write output: {e}");
            return ExitCode::from(2);
        }
    }
    if failed_input {
        return ExitCode::from(2);
    }
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    let fail = threshold.map(|t| report.inputs.iter().any(|i| i.findings.iter().any(|f| f.severity >= t))).unwrap_or(false);
    if fail {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

// ---- binaries, DWARF and cores ---------------------------------------------------------

/// `Some(true)` for an ELF core, `Some(false)` for another ELF file, `None` otherwise.
fn elf_kind(path: &str) -> Option<bool> {
    let mut head = [0u8; 18];
    let mut f = std::fs::File::open(path).ok()?;
    f.read_exact(&mut head).ok()?;
    if !head.starts_with(b"\x7fELF") {
        return None;
    }
    Some(tracecheck::core::is_core(&head))
}

fn symbolize_cmd(a: SymbolizeArgs) -> ExitCode {
    use tracecheck::symbolize::addr2line_mode::{self, Addr2LineOptions};
    let m = match tracecheck::symbolize::dwarf::ElfModule::open(&a.exe, &{
        let mut d = a.debug_dir.clone();
        d.push("/usr/lib/debug".into());
        d
    }) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("tracecheck: {e}");
            return ExitCode::from(2);
        }
    };
    let addrs: Vec<u64> = if a.addrs.is_empty() {
        let mut s = String::new();
        if let Err(e) = io::stdin().lock().read_to_string(&mut s) {
            eprintln!("tracecheck: cannot read standard input: {e}");
            return ExitCode::from(2);
        }
        s.lines().filter(|l| !l.trim().is_empty()).map(addr2line_mode::parse_address).collect()
    } else {
        a.addrs.iter().map(|s| addr2line_mode::parse_address(s)).collect()
    };
    let o = Addr2LineOptions {
        addresses: a.addresses,
        functions: a.functions,
        inlines: a.inlines,
        demangle: a.demangle,
        pretty: a.pretty,
        basenames: a.basenames,
        threads: a.threads,
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    match addr2line_mode::run(&m, &addrs, &o, &mut out).and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tracecheck: cannot write output: {e}");
            ExitCode::from(2)
        }
    }
}
