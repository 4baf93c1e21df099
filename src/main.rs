//! The `tracecheck` command: batch analysis (`tracecheck dump.txt`) and its subcommands.
//!
//! Exit codes: 0 = no finding at or above `--fail-on`, 1 = findings, 2 = usage error or an
//! unreadable input (with a one-line reason on stderr).

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;
use tracecheck::analyze::{self, Report};
use tracecheck::progress::Progress;
use tracecheck::report::{self, markdown::MarkdownOptions, text::TextOptions};
use tracecheck::rules::{self, Selection, Severity};

#[derive(Parser)]
#[command(
    name = "tracecheck",
    version,
    about = "Reads what a debugger saw at a crash (gdb, rr, lldb, Julia and Go runtime output, ELF cores) and says what is wrong with the machine state.",
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
    /// Install the gdb companion script and print the `source` line for ~/.gdbinit.
    ///
    /// Writes the script to $XDG_DATA_HOME/tracecheck/tracecheck.py (default
    /// ~/.local/share/tracecheck/tracecheck.py). Only the line goes to stdout, so
    /// `tracecheck gdbinit >> ~/.gdbinit` works.
    Gdbinit {
        /// Install into this directory instead.
        #[arg(long, value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
        /// Print the script itself instead of installing it.
        #[arg(long, conflicts_with = "dir")]
        print_script: bool,
    },
    /// Open the interactive terminal UI on a dump (same as `tracecheck -i FILE`).
    Tui {
        #[arg(value_name = "FILE")]
        file: String,
        /// Follow a growing gdb/rr log (`set logging file FILE`): re-read it as it grows and
        /// jump to each new stop. FILE need not exist yet.
        #[arg(long)]
        follow: bool,
    },
    /// Attach a note to a frame, a register, a finding or the whole trace (kept in
    /// FILE.tracecheck-notes.json), or list the notes with --list.
    Note(NoteArgs),
    /// addr2line-compatible: file addresses of an ELF binary to function, file and line.
    Symbolize(SymbolizeArgs),
}

#[derive(Args)]
struct NoteArgs {
    /// The dump the note is about.
    #[arg(value_name = "FILE")]
    file: String,
    /// The note's text (omit with --list or --remove).
    #[arg(value_name = "TEXT", required_unless_present_any = ["list", "remove"])]
    text: Option<String>,
    /// Attach to frame #N of the crashed thread (or of --thread).
    #[arg(long, value_name = "N")]
    frame: Option<u32>,
    /// Attach to a register (at --frame, default #0).
    #[arg(long, value_name = "NAME")]
    register: Option<String>,
    /// Attach to the finding of this rule.
    #[arg(long, value_name = "RULE")]
    finding: Option<String>,
    /// The thread for --frame / --register (default: the crashed thread).
    #[arg(long, value_name = "ID")]
    thread: Option<String>,
    /// List the notes and where each lands in the dump now.
    #[arg(long, conflicts_with_all = ["text", "frame", "register", "finding", "thread", "remove"])]
    list: bool,
    /// Remove the note with this id (ids are shown by --list).
    #[arg(long, value_name = "ID", conflicts_with_all = ["text", "frame", "register", "finding", "thread"])]
    remove: Option<String>,
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
    /// Frames kept of one input, over all threads and stops (later frames are dropped, with
    /// a note). `--max-frames` is how many are shown per backtrace.
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    max_frames_kept: usize,
    /// Threads kept of one input (later threads are left out, with a note).
    #[arg(long, value_name = "N", default_value_t = 100_000)]
    max_threads: usize,
    /// Stops kept of one input (later stops are merged into the last one, with a note).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_stops: usize,
    /// Stop symbolizing after this many seconds and report what was done (0: no limit).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    symbolize_timeout: f64,
    /// Markdown: add source lines around each frame when the source file exists locally.
    #[arg(long)]
    with_source: bool,
    /// Open the interactive terminal UI instead of printing a report.
    #[arg(long, short = 'i')]
    interactive: bool,
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

/// How much of one input is read and kept.
#[derive(Clone, Copy)]
struct Budget {
    max_input_bytes: u64,
    limits: tracecheck::input::Limits,
    symbolize_timeout: Option<std::time::Duration>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_input_bytes: 2 << 30,
            limits: Default::default(),
            symbolize_timeout: Some(std::time::Duration::from_secs(60)),
        }
    }
}

impl CheckArgs {
    fn budget(&self) -> Budget {
        Budget {
            max_input_bytes: self.max_input_bytes,
            limits: tracecheck::input::Limits {
                max_frames: self.max_frames_kept,
                max_threads: self.max_threads,
                max_stops: self.max_stops,
                ..Default::default()
            },
            symbolize_timeout: (self.symbolize_timeout > 0.0 && self.symbolize_timeout.is_finite())
                .then(|| std::time::Duration::from_secs_f64(self.symbolize_timeout.min(1e9))),
        }
    }
}

/// Inputs bigger than this are streamed (not read into memory whole); standard input always is.
const STREAM_ABOVE: u64 = 64 << 20;

/// Bytes of a streamed input kept for the markdown report's raw transcript.
const RAW_KEPT_WHEN_STREAMING: usize = 16 << 20;

/// Prints a message to stderr with anything that came from outside (paths, dump text)
/// stripped of terminal escapes and control characters.
fn error_line(msg: &str) {
    eprintln!("tracecheck: {}", report::safe_line(msg));
}

fn main() -> ExitCode {
    let code = run();
    if std::env::var_os("TRACECHECK_REPORT_PEAK_RSS").is_some_and(|v| v == "1") {
        // For the adversarial tests and for people sizing machines: the peak resident size.
        if let Some(hwm) = std::fs::read_to_string("/proc/self/status").ok().and_then(|s| {
            s.lines().find(|l| l.starts_with("VmHWM:")).map(|l| l.split_whitespace().nth(1).unwrap_or("?").to_string())
        }) {
            eprintln!("tracecheck: peak RSS {hwm} kB");
        }
    }
    code
}

fn run() -> ExitCode {
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
        Some(Command::Gdbinit { dir, print_script }) => gdbinit(dir, print_script),
        Some(Command::Tui { file, follow: false }) => tui(&file, &cli.check),
        Some(Command::Tui { file, follow: true }) => tui_follow(&file, &cli.check),
        Some(Command::Note(args)) => note(args),
        None if cli.check.interactive => match cli.check.files.as_slice() {
            [file] => tui(file, &cli.check),
            _ => {
                eprintln!("tracecheck: -i opens exactly one dump file");
                ExitCode::from(2)
            }
        },
        Some(Command::Symbolize(args)) => symbolize_cmd(args),
        None => check(cli.check),
    }
}

fn list_rules(write_docs: Option<std::path::PathBuf>) -> ExitCode {
    if let Some(dir) = write_docs {
        if let Err(e) = std::fs::create_dir_all(&dir) {
            error_line(&format!("cannot create {}: {e}", dir.display()));
            return ExitCode::from(2);
        }
        for r in rules::RULES {
            let path = dir.join(format!("{}.md", r.info.id));
            if let Err(e) = std::fs::write(&path, rules::doc_page(r.info)) {
                error_line(&format!("cannot write {}: {e}", path.display()));
                return ExitCode::from(2);
            }
        }
        println!("{}", report::safe_line(&format!("wrote {} rule pages to {}", rules::RULES.len(), dir.display())));
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
            error_line(&format!("no rule '{id}'; rules are: {}", ids.join(", ")));
            ExitCode::from(2)
        }
    }
}

/// The gdb companion script, with this binary's version and path filled in.
fn companion_script() -> String {
    let exe = std::env::current_exe().ok().and_then(|p| p.canonicalize().ok()).map(|p| p.display().to_string());
    let script = include_str!("../assets/tracecheck.py").replace("@TRACECHECK_VERSION@", env!("CARGO_PKG_VERSION"));
    match exe {
        // A path gdb's Python can hold in a plain string literal.
        Some(p) if !p.contains(['"', '\\', '\n']) => script.replace("@TRACECHECK_BIN@", &p),
        _ => script,
    }
}

fn gdbinit(dir: Option<std::path::PathBuf>, print_script: bool) -> ExitCode {
    if print_script {
        print!("{}", companion_script());
        return ExitCode::SUCCESS;
    }
    let dir = dir.or_else(|| {
        let data = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()).map(std::path::PathBuf::from);
        let data = data.or_else(|| {
            std::env::var_os("HOME").filter(|v| !v.is_empty()).map(|h| std::path::PathBuf::from(h).join(".local/share"))
        });
        data.map(|d| d.join("tracecheck"))
    });
    let Some(dir) = dir else {
        eprintln!("tracecheck: neither XDG_DATA_HOME nor HOME is set; pass --dir DIR");
        return ExitCode::from(2);
    };
    let path = dir.join("tracecheck.py");
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|_| std::fs::write(&path, companion_script())) {
        error_line(&format!("cannot write {}: {e}", path.display()));
        return ExitCode::from(2);
    }
    let path = path.canonicalize().unwrap_or(path);
    error_line(&format!("installed the gdb companion script at {}", path.display()));
    eprintln!("tracecheck: add this line to ~/.gdbinit (rr replay reads it too), or type it in gdb:");
    println!("source {}", path.display());
    ExitCode::SUCCESS
}

/// Files from this size on are mapped rather than read (below it a read costs less than a map).
const MAP_ABOVE: u64 = 1 << 20;

/// Maps a regular file for the parse: no copy into a fresh, zeroed buffer (about 40 % of the
/// system time of a 10 MB run went to faulting that buffer in). `None` when it cannot be
/// mapped; the caller then reads it.
fn map_input(path: &str) -> Option<memmap2::Mmap> {
    let f = std::fs::File::open(path).ok()?;
    if !f.metadata().ok()?.is_file() {
        return None;
    }
    // SAFETY: the map is read-only and private, lives only for the parse, and is never handed
    // out. A file that shrinks while it is mapped would fault on the missing pages (SIGBUS);
    // transcripts are written once (or appended to, which a map of the old size ignores).
    unsafe { memmap2::MmapOptions::new().populate().map(&f) }.ok()
}

fn read_input(path: &str, limit: u64) -> Result<Vec<u8>, String> {
    let mut buf = Vec::new();
    if path == "-" {
        io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut buf)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
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
        // One allocation of the right size (read_to_end would grow the buffer by doubling).
        if let Ok(m) = f.metadata() {
            buf.reserve_exact(m.len().min(limit) as usize + 1);
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
        eprintln!(
            "tracecheck: no input file (try `tracecheck sample-traces/null-field.gdb.txt`, or `-` for standard input; `tracecheck --help` for more)"
        );
        return ExitCode::from(2);
    }
    for id in args.rule.iter().chain(args.skip_rule.iter()) {
        if rules::find(id).is_none() {
            error_line(&format!("unknown rule '{id}' (see `tracecheck rules`)"));
            return ExitCode::from(2);
        }
    }
    let sel = Selection { only: args.rule.clone(), skip: args.skip_rule.clone() };
    let mut report = Report::default();
    let mut notes = std::collections::BTreeMap::new();
    let mut failed_input = false;
    for path in &args.files {
        let keep_raw = args.format == Format::Markdown && !args.no_raw;
        let ir = match load_input(path, &args.budget(), &sel, Some(&args.binaries), keep_raw) {
            Ok(ir) => ir,
            Err(e) => {
                error_line(&e);
                failed_input = true;
                continue;
            }
        };
        report_limits(&ir);
        if args.format == Format::Markdown && path != "-" {
            // Sidecar notes go into the bug report; a broken sidecar is reported, not fatal.
            match tracecheck::notes::load(std::path::Path::new(path)) {
                Ok(f) => {
                    notes.insert(path.clone(), f.notes);
                }
                Err(e) => error_line(&format!("warning: {e}")),
            }
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
        Format::Text => report::text::write(
            &report,
            &TextOptions { color, max_frames: args.max_frames, verbose: args.verbose },
            &mut out,
        ),
        Format::Json => report::json::write(&report, &mut out),
        Format::Markdown => report::markdown::write(
            &report,
            &MarkdownOptions { include_raw: !args.no_raw, notes, with_source: args.with_source, ..Default::default() },
            &mut out,
        ),
    };
    if let Err(e) = res.and_then(|_| out.flush())
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        eprintln!("tracecheck: cannot write output: {e}");
        return ExitCode::from(2);
    }
    // The process ends here: freeing a model of millions of frames one allocation at a time
    // would only cost time (5 % of a big run).
    let report = std::mem::ManuallyDrop::new(report);
    if failed_input {
        return ExitCode::from(2);
    }
    let threshold = match args.fail_on {
        FailOn::Error => Some(Severity::Error),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Info => Some(Severity::Info),
        FailOn::Never => None,
    };
    let fail =
        threshold.map(|t| report.inputs.iter().any(|i| i.findings.iter().any(|f| f.severity >= t))).unwrap_or(false);
    if fail { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// Reads and analyzes one input: an ELF core (recognized by its header, whatever its name)
/// or a transcript (symbolized when binaries are given). Used by batch mode, the TUI and
/// `note`, so all three see the same model. Standard input and big files are streamed.
fn load_input(
    path: &str,
    budget: &Budget,
    sel: &Selection,
    binaries: Option<&BinaryArgs>,
    keep_raw: bool,
) -> Result<analyze::InputReport, String> {
    let deadline = budget.symbolize_timeout.map(|d| std::time::Instant::now() + d);
    let mut size = None;
    if path != "-" {
        match elf_kind(path) {
            Some(true) => {
                let symbols = binaries.map(BinaryArgs::options).unwrap_or_default();
                let opts =
                    tracecheck::core::CoreOptions { symbols, symbolize_deadline: deadline, ..Default::default() };
                let _progress = Progress::spinner(&format!("reading core {path}: modules, unwinding, symbols"));
                return match tracecheck::core::read_core_trace(std::path::Path::new(path), &opts) {
                    Ok(parsed) => Ok(analyze::analyze(path, parsed, sel)),
                    Err(e) => Err(format!("{path}: {e}")),
                };
            }
            Some(false) => {
                return Err(format!(
                    "{path} is an ELF executable or library, not a core; pass it with --exe next to a core or transcript"
                ));
            }
            None => {}
        }
        size = std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.len());
    }
    let (mut parsed, raw) = if path == "-" || size.is_some_and(|n| n > STREAM_ABOVE && n <= budget.max_input_bytes) {
        stream_input(path, budget, keep_raw)?
    } else if !keep_raw
        && let Some(map) = size.filter(|&n| n >= MAP_ABOVE && n <= budget.max_input_bytes).and_then(|_| map_input(path))
        && !map.starts_with(b"\x7fELF")
    {
        let parsed = tracecheck::input::parse_bytes_with(&map, budget.limits);
        drop(map);
        (parsed, None)
    } else {
        let bytes = read_input(path, budget.max_input_bytes)?;
        if bytes.starts_with(b"\x7fELF") {
            return Err(format!("{path} is an ELF file; give a core as a file path, not on standard input"));
        }
        (tracecheck::input::parse_bytes_with(&bytes, budget.limits), keep_raw.then_some(bytes))
    };
    if let Some(b) = binaries.filter(|b| b.given()) {
        let _progress = Progress::spinner(&format!("symbolizing {path}"));
        let sup = tracecheck::symbolize::dwarf::DwarfSymbols::new(b.options());
        tracecheck::symbolize::symbolize_trace_until(&mut parsed.trace, &sup, &mut parsed.diagnostics.notes, deadline);
    }
    let mut ir = analyze::analyze(path, parsed, sel);
    if let Some(bytes) = raw {
        ir.raw = Some(String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()));
    }
    Ok(ir)
}

/// Streams standard input or a big file through the parser: memory stays bounded by the
/// model limits, and the raw text kept for markdown is cut at [`RAW_KEPT_WHEN_STREAMING`].
fn stream_input(
    path: &str,
    budget: &Budget,
    keep_raw: bool,
) -> Result<(tracecheck::input::Parsed, Option<Vec<u8>>), String> {
    use io::BufRead;
    let opts = tracecheck::input::StreamOptions {
        limits: budget.limits,
        keep_raw: if keep_raw { RAW_KEPT_WHEN_STREAMING } else { 0 },
        max_bytes: budget.max_input_bytes,
    };
    let run = |r: &mut dyn BufRead| -> Result<tracecheck::input::Streamed, String> {
        let what = if path == "-" { "standard input".to_string() } else { path.to_string() };
        if r.fill_buf().map_err(|e| format!("cannot read {what}: {e}"))?.starts_with(b"\x7fELF") {
            return Err(format!("{path} is an ELF file; give a core as a file path, not on standard input"));
        }
        tracecheck::input::parse_reader(r, &opts).map_err(|e| format!("cannot read {what}: {e}"))
    };
    let streamed = if path == "-" {
        let progress = Progress::bytes("reading standard input", None);
        run(&mut io::BufReader::with_capacity(1 << 20, progress.reader(io::stdin().lock())))?
    } else {
        let f = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        let progress = Progress::bytes(&format!("reading {path}"), f.metadata().ok().map(|m| m.len()));
        run(&mut io::BufReader::with_capacity(1 << 20, progress.reader(f)))?
    };
    if streamed.over_max {
        return Err(format!("{path} is over --max-input-bytes {}", budget.max_input_bytes));
    }
    let mut parsed = streamed.parsed;
    if keep_raw && !streamed.raw_complete {
        parsed.diagnostics.notes.push(tracecheck::input::Note {
            line: None,
            message: format!(
                "the raw transcript in the markdown report holds the first {} MiB of {} bytes",
                RAW_KEPT_WHEN_STREAMING >> 20,
                streamed.bytes
            ),
        });
    }
    Ok((parsed, keep_raw.then_some(streamed.raw)))
}

/// Repeats the diagnostics notes that say a result is partial on stderr.
fn report_limits(ir: &analyze::InputReport) {
    for n in &ir.parsed.diagnostics.notes {
        if n.message.starts_with(tracecheck::input::stream::LIMIT_NOTE) {
            error_line(&format!("{}: {}", ir.path, n.message));
        }
    }
}

fn tui(path: &str, args: &CheckArgs) -> ExitCode {
    if path == "-" {
        eprintln!("tracecheck: the TUI reads a file, not standard input (save the transcript first)");
        return ExitCode::from(2);
    }
    let started = std::time::Instant::now();
    let sel = Selection { only: args.rule.clone(), skip: args.skip_rule.clone() };
    let ir = match load_input(path, &args.budget(), &sel, Some(&args.binaries), true) {
        Ok(ir) => ir,
        Err(e) => {
            error_line(&e);
            return ExitCode::from(2);
        }
    };
    match tracecheck::tui::run(ir, Some(std::path::PathBuf::from(path)), started) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            error_line(&format!("{e:#}"));
            ExitCode::from(2)
        }
    }
}

fn tui_follow(path: &str, args: &CheckArgs) -> ExitCode {
    if path == "-" {
        eprintln!("tracecheck: --follow reads a file, not standard input");
        return ExitCode::from(2);
    }
    let sel = Selection { only: args.rule.clone(), skip: args.skip_rule.clone() };
    let started = std::time::Instant::now();
    match tracecheck::tui::run_follow(std::path::PathBuf::from(path), sel, args.max_input_bytes, started) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tracecheck: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn note(args: NoteArgs) -> ExitCode {
    use tracecheck::notes;
    let dump = std::path::Path::new(&args.file);
    let ir = match load_input(&args.file, &Budget::default(), &Selection::default(), None, true) {
        Ok(ir) => ir,
        Err(e) => {
            error_line(&e);
            return ExitCode::from(2);
        }
    };
    if args.list {
        return match notes::load(dump) {
            Ok(f) => {
                for l in notes::list_lines(&f, &ir) {
                    println!("{l}");
                }
                if f.notes.is_empty() {
                    eprintln!(
                        "{}",
                        report::safe_line(&format!(
                            "no notes for {} (they would be in {})",
                            args.file,
                            notes::sidecar_path(dump).display()
                        ))
                    );
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                error_line(&e.to_string());
                ExitCode::from(2)
            }
        };
    }
    if let Some(id) = &args.remove {
        return match notes::remove(dump, id) {
            Ok(true) => ExitCode::SUCCESS,
            Ok(false) => {
                error_line(&format!("no note with id {id} (see `tracecheck note {} --list`)", args.file));
                ExitCode::from(2)
            }
            Err(e) => {
                error_line(&e.to_string());
                ExitCode::from(2)
            }
        };
    }
    let spec =
        notes::TargetSpec { frame: args.frame, register: args.register, finding: args.finding, thread: args.thread };
    let text = args.text.unwrap_or_default();
    if text.trim().is_empty() {
        eprintln!("tracecheck: the note is empty");
        return ExitCode::from(2);
    }
    let res = notes::target_for(&ir, &spec).and_then(|t| {
        let n = notes::new_note(t, &text);
        let desc = n.target.to_string();
        notes::add(dump, n).map(|_| desc)
    });
    match res {
        Ok(desc) => {
            eprintln!("{}", report::safe_line(&format!("noted on {desc} in {}", notes::sidecar_path(dump).display())));
            ExitCode::SUCCESS
        }
        Err(e) => {
            error_line(&e.to_string());
            ExitCode::from(2)
        }
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
            error_line(&e.to_string());
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
    let progress = Progress::spinner(&format!("symbolizing {} addresses in {}", addrs.len(), a.exe.display()));
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let res = addr2line_mode::run(&m, &addrs, &o, &mut out);
    progress.finish();
    match res.and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tracecheck: cannot write output: {e}");
            ExitCode::from(2)
        }
    }
}
