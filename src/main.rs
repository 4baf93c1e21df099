//! The `tracecheck` command: batch analysis (`tracecheck dump.txt`) and its subcommands.
//!
//! Exit codes: 0 = no finding at or above `--fail-on`, 1 = findings, 2 = usage error or an
//! unreadable input (with a one-line reason on stderr).

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;
use tracecheck::model::Report;
use tracecheck::pipeline::{self, LoadOptions, Source};
use tracecheck::report::{self, markdown::MarkdownOptions, text::TextOptions};
use tracecheck::rules::{self, Selection, Severity};

/// mimalloc instead of the C library's malloc: the model of a big transcript is tens of
/// thousands of small allocations (a frame's arguments and locals), and mimalloc backs its
/// arenas with transparent huge pages where the kernel offers them (`madvise` mode), so the
/// kernel zeroes and maps 2 MiB at a time instead of faulting 4 KiB pages one by one: on the
/// 11 MB bench transcript 202 page faults instead of 3,537, and a third of the system time
/// (docs/performance.md, "2d"). The TUI turns huge pages off ([`no_huge_pages`]).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Transparent huge pages off for the rest of this process (`PR_SET_THP_DISABLE`, checked by
/// the kernel at every later fault, so it also covers mimalloc's arenas advised before). For
/// the TUI, which stays open and whose memory is a target (under 3x the input, docs/tui.md):
/// 2 MiB pages filled a little each would raise its peak RSS on the 11 MB transcript from
/// 33 to 43 MB. A batch report ends right after its one pass, so it keeps them. (Programs
/// the TUI starts inherit the setting.)
fn no_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: `prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0)` reads no memory of ours; a kernel
    // without it returns an error, which leaves huge pages as they were.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

/// Whether these arguments (without the program name) open the TUI: `tui …`, `-i` /
/// `--interactive` anywhere but in `symbolize` or `diff` (where `-i` means something else),
/// `diff … --tui`. A guess from the words alone, before clap parses them; [`tui`] and
/// [`diff_tui`] cover what it misses (`-vi`).
fn opens_the_tui<'a>(mut args: impl Iterator<Item = &'a [u8]> + Clone) -> bool {
    let all = args.clone();
    match args.next() {
        Some(b"tui" | b"-i" | b"--interactive") => true,
        Some(b"diff") => args.any(|a| a == b"--tui"),
        Some(b"symbolize") | None => false,
        Some(_) => all.into_iter().any(|a| a == b"-i" || a == b"--interactive"),
    }
}

/// Before `main` and before this process's first allocation (glibc runs `.init_array`
/// functions with the arguments, ahead of Rust's runtime): for the TUI, mimalloc's arenas are
/// committed page by page as they are used instead of all at once. With eager commit (the
/// default where the kernel overcommits) the TUI's peak RSS on the 11 MB bench transcript
/// was 32.1 MB, 2.88x the input; lazily 28.9 MB, 2.59x (docs/performance.md, "2e"). A batch
/// report keeps eager arenas: lazily committed memory gets no huge pages (4,527 page faults
/// instead of 422, system time 7.5 to 21.7 ms). The option is read when the first arena is
/// made, at the first allocation, so setting it in `main` would be too late.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[used]
#[unsafe(link_section = ".init_array")]
static LAZY_ARENAS_FOR_THE_TUI: extern "C" fn(libc::c_int, *const *const libc::c_char, *const *const libc::c_char) =
    lazy_arenas_for_the_tui;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
extern "C" fn lazy_arenas_for_the_tui(
    argc: libc::c_int,
    argv: *const *const libc::c_char,
    _envp: *const *const libc::c_char,
) {
    if argv.is_null() || argc < 2 {
        return;
    }
    // SAFETY: glibc passes the `argc` arguments of `main`, NUL-terminated strings that live
    // as long as the process; nothing here allocates.
    let args = (1..argc as usize).map(|i| unsafe {
        let p = *argv.add(i);
        if p.is_null() { &b""[..] } else { std::ffi::CStr::from_ptr(p).to_bytes() }
    });
    if opens_the_tui(args) {
        // SAFETY: `mi_option_set` stores the value (mimalloc's `options.c`, before or after
        // its own initialization); 0 = commit on demand.
        unsafe { mi_option_set(MI_OPTION_ARENA_EAGER_COMMIT, 0) };
    }
}

/// `mi_option_arena_eager_commit` of mimalloc's `mi_option_e` (`mimalloc.h`) in the mimalloc
/// v3 that libmimalloc-sys 0.1.49 builds (pinned by Cargo.lock). The crate names no constant
/// for it: its `extended` feature lists `mi_option_show_errors` (0) to `mi_option_verbose`
/// (2), then goes on at `mi_option_large_os_pages` (6), skipping the v2-era eager-commit
/// options 3 to 5. `tests::the_arena_eager_commit_option_is_the_one_named_so` checks the
/// number against mimalloc itself (the option it reads from `MIMALLOC_ARENA_EAGER_COMMIT`),
/// so an update that renumbers the options fails there instead of setting another option.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MI_OPTION_ARENA_EAGER_COMMIT: libc::c_int = 4;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
unsafe extern "C" {
    /// mimalloc's option setter (linked in through the `mimalloc` crate's libmimalloc-sys).
    fn mi_option_set(option: libc::c_int, value: libc::c_long);
    /// mimalloc's option getter (reads the option's `MIMALLOC_…` variable on first use).
    #[cfg(test)]
    fn mi_option_get(option: libc::c_int) -> libc::c_long;
}

#[derive(Parser)]
#[command(
    name = "tracecheck",
    version,
    about = "Reads what a debugger saw at a crash (gdb, rr, lldb, Julia and Go runtime output, ELF cores) and says what is wrong with the machine state.",
    args_conflicts_with_subcommands = true,
    after_help = EXAMPLES
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    check: CheckArgs,
}

/// The examples section of `tracecheck --help` (also in the man page).
const EXAMPLES: &str = "\
Examples:
  tracecheck crash.gdb.txt                     report on a gdb/rr/lldb transcript or runtime log
  tracecheck --exe ./prog core.1234            analyze an ELF core with its executable
  gdb -batch -ex run -ex bt -ex 'info registers' -ex 'x/i $pc' -ex 'p $_siginfo' ./prog 2>&1 | tracecheck -
  tracecheck -f markdown crash.txt > report.md  a bug report to paste into an issue
  tracecheck -i crash.txt                      the interactive terminal UI (same as `tracecheck tui`)
  tracecheck triage ci-logs/                   many logs into crash signatures and clusters
  tracecheck explain pinned-register           what a finding means (`tracecheck rules` lists them)

Exit status: 0 no finding at or above --fail-on (default: error), 1 an error finding was
reported, 2 usage error or an unreadable input.";

#[derive(Subcommand)]
enum Command {
    /// List every rule with its id, default severity and title.
    Rules {
        /// Write one markdown page per rule into this directory (docs/rules).
        #[arg(long, value_name = "DIR")]
        write_docs: Option<std::path::PathBuf>,
    },
    /// Print a rule's explanation: what it checks, why it matters, what to run next.
    Explain {
        /// A rule id, such as `pinned-register` (`tracecheck rules` lists them all).
        #[arg(value_name = "RULE")]
        rule: String,
    },
    /// Print a shell completion script: `tracecheck completions bash > ~/.local/share/bash-completion/completions/tracecheck`.
    Completions {
        /// The shell to complete for.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): `tracecheck man > ~/.local/share/man/man1/tracecheck.1`.
    Man,
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
    ///
    /// The UI opens on the most severe finding; `?` lists the keys. Findings are explained
    /// by `tracecheck explain RULE`; `tracecheck rules` lists the rules.
    Tui {
        /// The dump: a gdb/rr/lldb transcript, a Julia or Go runtime log, or an ELF core (with --exe).
        #[arg(value_name = "FILE")]
        file: String,
        /// Follow a growing gdb/rr log (`set logging file FILE`): re-read it as it grows and
        /// jump to each new stop. FILE need not exist yet.
        #[arg(long)]
        follow: bool,
        /// A directory the Source pane may read the selected frame's source file from
        /// (repeatable; default: the current directory). Paths are resolved, symlinks included,
        /// and must stay inside; /proc, /sys and /dev are never read. A build path
        /// (/build/src/x.c) is mapped to DIR/src/x.c.
        #[arg(long = "source-dir", value_name = "DIR")]
        source_dir: Vec<std::path::PathBuf>,
        #[command(flatten)]
        load: LoadArgs,
    },
    /// Attach a note to a frame, a register, a finding or the whole trace (kept in
    /// FILE.tracecheck-notes.json), or list the notes with --list.
    Note(NoteArgs),
    /// addr2line-compatible: file addresses of an ELF binary to function, file and line.
    Symbolize(SymbolizeArgs),
    /// Many CI logs and dumps into crash signatures and clusters, kept in an SQLite index
    /// (docs/triage.md).
    Triage(TriageArgs),
    /// Two dumps of (probably) the same crash side by side: stops and threads matched,
    /// frames aligned by function, registers whose class changed, findings added and removed.
    Diff {
        #[arg(value_name = "A")]
        a: String,
        #[arg(value_name = "B")]
        b: String,
        /// Output format.
        #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Interactive view instead: two panes side by side with linked selection
        /// (docs/tui.md, "Diff view").
        #[arg(long, conflicts_with = "format")]
        tui: bool,
    },
}

/// `tracecheck triage`: arguments only; the work is in `tracecheck::triage::cli`.
#[derive(Args)]
struct TriageArgs {
    /// Files, directories (recursive), zip archives of CI logs; `-` reads a list of paths from
    /// standard input. None: read the index only.
    #[arg(value_name = "PATH")]
    paths: Vec<String>,
    /// The index (default: tracecheck-triage.sqlite in the one directory given, else here).
    #[arg(long, value_name = "FILE")]
    db: Option<std::path::PathBuf>,
    /// List the clusters (the default output).
    #[arg(long)]
    list: bool,
    /// Show one cluster or signature (id or unique prefix) in detail.
    #[arg(long, value_name = "SIGNATURE")]
    show: Option<String>,
    /// Only crashes seen on or after this date (YYYY-MM-DD, UTC).
    #[arg(long, value_name = "DATE")]
    since: Option<String>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Meaningful frames in a signature (fixed per index).
    #[arg(long, value_name = "N", default_value_t = tracecheck::triage::signature::DEFAULT_FRAMES)]
    frames: usize,
    /// Merge these indexes (e.g. one per CI shard) into --db.
    #[arg(long, value_name = "DB", num_args = 1..)]
    merge: Vec<std::path::PathBuf>,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 0)]
    jobs: usize,
    /// Skip inputs (or zip members) larger than this many bytes.
    #[arg(long, default_value_t = 256 << 20)]
    max_input_bytes: u64,
    /// Crashes kept of one input (later ones are merged into the last, with a line in the summary).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_stops: usize,
}

#[derive(Args)]
struct NoteArgs {
    /// The dump the note is about.
    #[arg(value_name = "FILE")]
    file: String,
    /// The note's text; without it (and without --remove) the notes are listed.
    #[arg(value_name = "TEXT")]
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
    /// Remove the note with this id or a unique prefix of it (short ids are shown by --list).
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
    /// Colour in text output. `auto` colours a terminal unless NO_COLOR is set (CLICOLOR_FORCE
    /// forces it); `always` and `never` win over both.
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
    /// Markdown: add source lines around each frame, read only from the --source-dir
    /// directories (the current directory by default); the report lists the files read.
    #[arg(long)]
    with_source: bool,
    /// A directory --with-source (and the TUI's Source pane, with -i) may read source files
    /// from (repeatable; default: the current directory). Paths are resolved, symlinks
    /// included, and must stay inside; /proc, /sys and /dev are never read. A build path
    /// (/build/src/x.c) is mapped to DIR/src/x.c.
    #[arg(long = "source-dir", value_name = "DIR")]
    source_dir: Vec<std::path::PathBuf>,
    /// Open the interactive terminal UI instead of printing a report.
    #[arg(long, short = 'i')]
    interactive: bool,
    #[command(flatten)]
    load: LoadArgs,
}

/// What decides the model an input gives: the same for batch mode, `-i` and `tui`.
#[derive(Args)]
struct LoadArgs {
    /// Run only this rule (repeatable; enables experimental rules).
    #[arg(long = "rule", value_name = "ID")]
    rule: Vec<String>,
    /// Do not run this rule (repeatable).
    #[arg(long = "skip-rule", value_name = "ID")]
    skip_rule: Vec<String>,
    /// Refuse inputs larger than this many bytes.
    #[arg(long, default_value_t = 2 << 30, help_heading = LIMITS)]
    max_input_bytes: u64,
    /// Frames kept of one input, over all threads and stops (later frames are dropped, with
    /// a note). `--max-frames` is how many are shown per backtrace.
    #[arg(long, value_name = "N", default_value_t = 1_000_000, help_heading = LIMITS)]
    max_frames_kept: usize,
    /// Threads kept of one input (later threads are left out, with a note).
    #[arg(long, value_name = "N", default_value_t = 100_000, help_heading = LIMITS)]
    max_threads: usize,
    /// Stops kept of one input (later stops are merged into the last one, with a note).
    #[arg(long, value_name = "N", default_value_t = 10_000, help_heading = LIMITS)]
    max_stops: usize,
    /// Stop symbolizing after this many seconds and report what was done (0: no limit).
    #[arg(long, value_name = "SECS", default_value_t = 60.0, help_heading = LIMITS)]
    symbolize_timeout: f64,
    #[command(flatten)]
    binaries: BinaryArgs,
}

/// Help heading of the options that bound what a hostile input can cost.
const LIMITS: &str = "Limits (for untrusted or huge inputs)";
/// Help heading of the binary and debug-info options.
const BINARIES: &str = "Binaries and debug info";

/// Binaries and debug info for cores and for symbolizing transcripts.
#[derive(Args)]
struct BinaryArgs {
    /// An executable or shared library of the crashed process (repeatable).
    #[arg(long = "exe", value_name = "PATH", help_heading = BINARIES)]
    exe: Vec<std::path::PathBuf>,
    /// Look up the paths a core or transcript names under this directory.
    #[arg(long, value_name = "DIR", help_heading = BINARIES)]
    sysroot: Option<std::path::PathBuf>,
    /// Separate debug files: `DIR/.build-id/xx/rest.debug` and `.gnu_debuglink` names
    /// (repeatable; /usr/lib/debug is always searched). Compressed DWARF, once inflated, is
    /// cached by build-id under $XDG_CACHE_HOME/tracecheck (TRACECHECK_CACHE=off: not).
    #[arg(long = "debug-dir", value_name = "DIR", help_heading = BINARIES)]
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

impl LoadArgs {
    fn selection(&self) -> Selection {
        Selection { only: self.rule.clone(), skip: self.skip_rule.clone() }
    }
    /// The pipeline's options for these arguments.
    fn options(&self, keep_raw: bool) -> LoadOptions {
        LoadOptions {
            selection: self.selection(),
            max_input_bytes: self.max_input_bytes,
            limits: tracecheck::input::Limits {
                max_frames: self.max_frames_kept,
                max_threads: self.max_threads,
                max_stops: self.max_stops,
                ..Default::default()
            },
            symbolize_timeout: (self.symbolize_timeout > 0.0 && self.symbolize_timeout.is_finite())
                .then(|| std::time::Duration::from_secs_f64(self.symbolize_timeout.min(1e9))),
            symbols: self.binaries.options(),
            symbolize_text: self.binaries.given(),
            keep_raw,
        }
    }
    /// `--rule` / `--skip-rule` name known rules.
    fn check_rules(&self) -> Result<(), String> {
        for id in self.rule.iter().chain(self.skip_rule.iter()) {
            if rules::find(id).is_none() {
                return Err(format!("unknown rule '{id}' (see `tracecheck rules`)"));
            }
        }
        Ok(())
    }
}

/// Prints a message to stderr with anything that came from outside (paths, dump text)
/// stripped of terminal escapes and control characters.
fn error_line(msg: &str) {
    eprintln!("tracecheck: {}", report::safe_line(msg));
}

fn main() -> ExitCode {
    // The TUI's huge pages off before its first allocations, not only when `tui()` runs (what
    // was allocated by then would stay on 2 MiB pages). The calls in `tui()` and `diff_tui()`
    // cover what this guess from the arguments misses (`-vi`).
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if opens_the_tui(args.iter().map(|a| std::os::unix::ffi::OsStrExt::as_bytes(a.as_os_str()))) {
        no_huge_pages();
    }
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
        Some(Command::Completions { shell }) => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            // Into memory first: clap_complete panics on a write error (`| head` closes the pipe).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut cmd, "tracecheck", &mut script);
            match io::stdout().write_all(&script).and_then(|()| io::stdout().flush()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("tracecheck: cannot write the completions: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Man) => {
            let cmd = <Cli as clap::CommandFactory>::command();
            match clap_mangen::Man::new(cmd).render(&mut io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("tracecheck: cannot write the man page: {e}");
                    ExitCode::from(2)
                }
            }
        }
        Some(Command::Gdbinit { dir, print_script }) => gdbinit(dir, print_script),
        Some(Command::Tui { file, follow, source_dir, load }) => tui(&file, follow, source_dir, &load),
        Some(Command::Note(args)) => note(args),
        None if cli.check.interactive => match cli.check.files.as_slice() {
            [file] => tui(file, false, cli.check.source_dir.clone(), &cli.check.load),
            _ => {
                eprintln!("tracecheck: -i opens exactly one dump file");
                ExitCode::from(2)
            }
        },
        Some(Command::Symbolize(args)) => symbolize_cmd(args),
        Some(Command::Diff { a, b, tui: true, .. }) => diff_tui(&a, &b),
        Some(Command::Diff { a, b, format, .. }) => {
            ExitCode::from(tracecheck::triage::diff::run(&a, &b, triage_format(format)))
        }
        Some(Command::Triage(a)) => {
            ExitCode::from(tracecheck::triage::cli::run(tracecheck::triage::cli::TriageCommand {
                paths: a.paths,
                db: a.db,
                list: a.list,
                show: a.show,
                since: a.since,
                format: match a.format {
                    Format::Text => tracecheck::triage::query::OutFormat::Text,
                    Format::Json => tracecheck::triage::query::OutFormat::Json,
                    Format::Markdown => tracecheck::triage::query::OutFormat::Markdown,
                },
                frames: a.frames,
                merge: a.merge,
                jobs: a.jobs,
                max_input_bytes: a.max_input_bytes,
                max_stops: a.max_stops,
            }))
        }
        None if !cli.check.source_dir.is_empty() && !cli.check.with_source => {
            eprintln!("tracecheck: --source-dir goes with --with-source (markdown) or with -i / tui (the Source pane)");
            ExitCode::from(2)
        }
        None => check(cli.check),
    }
}

fn triage_format(f: Format) -> tracecheck::triage::query::OutFormat {
    match f {
        Format::Text => tracecheck::triage::query::OutFormat::Text,
        Format::Json => tracecheck::triage::query::OutFormat::Json,
        Format::Markdown => tracecheck::triage::query::OutFormat::Markdown,
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
            if let Err(e) = tracecheck::fsutil::write_file(&path, rules::doc_page(r.info).as_bytes()) {
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
            // The explanation is markdown: shown rendered (bold, code), not as markers.
            let color = use_color(ColorChoice::Auto, io::stdout().is_terminal(), |k| std::env::var_os(k));
            let body = report::explain::render(r.info.explanation, 88, color);
            println!("{} ({}): {}\n\n{}", r.info.id, r.info.default_severity.name(), r.info.title, body.trim_end());
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
    if let Err(e) =
        std::fs::create_dir_all(&dir).and_then(|_| tracecheck::fsutil::write_file(&path, companion_script().as_bytes()))
    {
        error_line(&format!("cannot write {}: {e}", path.display()));
        return ExitCode::from(2);
    }
    let path = path.canonicalize().unwrap_or(path);
    error_line(&format!("installed the gdb companion script at {}", path.display()));
    eprintln!("tracecheck: add this line to ~/.gdbinit (rr replay reads it too), or type it in gdb:");
    println!("source {}", path.display());
    ExitCode::SUCCESS
}

/// Whether text output is coloured. `--color always/never` decide alone; for `auto`,
/// NO_COLOR (set and non-empty, no-color.org) turns colour off, else CLICOLOR_FORCE (set,
/// non-empty and not `0`) turns it on, else a terminal gets colour. ripgrep does the same.
fn use_color(choice: ColorChoice, is_terminal: bool, env: impl Fn(&str) -> Option<std::ffi::OsString>) -> bool {
    let set = |k: &str| env(k).is_some_and(|v| !v.is_empty());
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("NO_COLOR") => false,
        ColorChoice::Auto if set("CLICOLOR_FORCE") && env("CLICOLOR_FORCE").is_some_and(|v| v != "0") => true,
        ColorChoice::Auto => is_terminal,
    }
}

/// The subcommand a mistyped first argument was probably meant to be: within two edits of a
/// subcommand's name, and not an existing path.
fn subcommand_suggestion(arg: &str) -> Option<String> {
    if std::path::Path::new(arg).exists() || arg.contains(['/', '.']) {
        return None;
    }
    let cmd = <Cli as clap::CommandFactory>::command();
    let best = cmd
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .map(|n| (edit_distance(arg, &n), n))
        .filter(|(d, n)| *d <= 2 && *d < n.len())
        .min();
    best.map(|(_, n)| n)
}

/// Levenshtein distance over chars (short strings only: subcommand names).
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

fn check(args: CheckArgs) -> ExitCode {
    if let [first, ..] = args.files.as_slice()
        && let Some(sub) = subcommand_suggestion(first)
    {
        error_line(&format!("no file '{first}', and no subcommand of that name; did you mean `tracecheck {sub}`?"));
        return ExitCode::from(2);
    }
    if args.files.is_empty() {
        eprintln!(
            "tracecheck: no input file (try `tracecheck sample-traces/null-field.gdb.txt`, or `-` for standard input; `tracecheck --help` for more)"
        );
        return ExitCode::from(2);
    }
    if let Err(e) = args.load.check_rules() {
        error_line(&e);
        return ExitCode::from(2);
    }
    let mut report = Report::default();
    let mut notes = std::collections::BTreeMap::new();
    let mut failed_input = false;
    for path in &args.files {
        let keep_raw = args.format == Format::Markdown && !args.no_raw;
        let source = if path == "-" { Source::Stdin } else { Source::Path(path) };
        let ir = match pipeline::load(source, &args.load.options(keep_raw)) {
            Ok(ir) => ir,
            Err(e) => {
                error_line(&e.to_string());
                failed_input = true;
                continue;
            }
        };
        report_limits(&ir);
        if matches!(args.format, Format::Markdown | Format::Text) && path != "-" {
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
    let color = use_color(args.color, io::stdout().is_terminal(), |k| std::env::var_os(k));
    let res = match args.format {
        Format::Text => report::text::write(
            &report,
            &TextOptions { color, max_frames: args.max_frames, verbose: args.verbose, notes },
            &mut out,
        ),
        Format::Json => report::json::write(&report, &mut out),
        Format::Markdown => report::markdown::write(
            &report,
            &MarkdownOptions {
                include_raw: !args.no_raw,
                notes,
                with_source: args.with_source,
                source_dirs: args.source_dir.clone(),
            },
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

/// Repeats the diagnostics notes that say a result is partial on stderr.
fn report_limits(ir: &pipeline::Analysis) {
    for n in pipeline::limit_notes(ir) {
        error_line(&format!("{}: {}", ir.path, n.message));
    }
}

/// `tracecheck tui FILE`, `tracecheck tui --follow FILE` and `tracecheck -i FILE`: the same
/// options, the same pipeline as batch mode.
/// `tracecheck diff --tui A B`: the diff of `triage::diff` in `tui::diffview`.
fn diff_tui(a: &str, b: &str) -> ExitCode {
    no_huge_pages();
    let d = match tracecheck::triage::diff::load_diff(a, b) {
        Ok(d) => d,
        Err(e) => {
            error_line(&e);
            return ExitCode::from(2);
        }
    };
    match tracecheck::tui::diffview::run(d) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            error_line(&format!("{e:#}"));
            ExitCode::from(2)
        }
    }
}

fn tui(path: &str, follow: bool, source_dirs: Vec<std::path::PathBuf>, args: &LoadArgs) -> ExitCode {
    no_huge_pages();
    if path == "-" {
        if follow {
            eprintln!("tracecheck: --follow reads a file, not standard input");
        } else {
            eprintln!("tracecheck: the TUI reads a file, not standard input (save the transcript first)");
        }
        return ExitCode::from(2);
    }
    if let Err(e) = args.check_rules() {
        error_line(&e);
        return ExitCode::from(2);
    }
    let started = std::time::Instant::now();
    let opts = args.options(true);
    let res = if follow {
        tracecheck::tui::run_follow_with_sources(std::path::PathBuf::from(path), opts, source_dirs, started)
    } else {
        // A transcript is read on a loader thread while the TUI shows what is there.
        let input = match pipeline::load_progressive(Source::Path(path), &opts) {
            Ok(input) => input,
            Err(e) => {
                error_line(&e.to_string());
                return ExitCode::from(2);
            }
        };
        tracecheck::tui::run_progressive(input, std::path::PathBuf::from(path), source_dirs, started)
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            error_line(&format!("{e:#}"));
            ExitCode::from(2)
        }
    }
}

fn note(args: NoteArgs) -> ExitCode {
    use tracecheck::notes;
    let dump = std::path::Path::new(&args.file);
    let source = if args.file == "-" { Source::Stdin } else { Source::Path(&args.file) };
    let ir = match pipeline::load(source, &LoadOptions { keep_raw: true, ..Default::default() }) {
        Ok(ir) => ir,
        Err(e) => {
            error_line(&e.to_string());
            return ExitCode::from(2);
        }
    };
    let no_target = args.frame.is_none() && args.register.is_none() && args.finding.is_none() && args.thread.is_none();
    if args.list || (args.text.is_none() && args.remove.is_none() && no_target) {
        return match notes::load(dump) {
            Ok(f) => {
                let stdout = io::stdout();
                let mut out = stdout.lock();
                for l in notes::list_lines(&f, &ir) {
                    // A closed pipe (`| head`) ends the listing, not the process.
                    if writeln!(out, "{l}").is_err() {
                        break;
                    }
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
        return match notes::remove_prefix(dump, id) {
            Ok(notes::Removed::One(full)) => {
                eprintln!("{}", report::safe_line(&format!("removed note {full}")));
                ExitCode::SUCCESS
            }
            Ok(notes::Removed::NotFound) => {
                error_line(&format!("no note with id {id} (see `tracecheck note {}`)", args.file));
                ExitCode::from(2)
            }
            Ok(notes::Removed::Ambiguous(c)) => {
                error_line(&format!("note id {id} is ambiguous: it starts {}; give more characters", c.join(", ")));
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
    let progress = tracecheck::progress::Progress::spinner(&format!(
        "symbolizing {} addresses in {}",
        addrs.len(),
        a.exe.display()
    ));
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

#[cfg(test)]
mod tests {
    /// `MI_OPTION_ARENA_EAGER_COMMIT` is the option mimalloc reads from
    /// `MIMALLOC_ARENA_EAGER_COMMIT`: a child run of this test with that variable set to an
    /// odd value finds the value under the constant (and not under its neighbours).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn the_arena_eager_commit_option_is_the_one_named_so() {
        use super::{MI_OPTION_ARENA_EAGER_COMMIT as OPT, mi_option_get};
        if std::env::var_os("TRACECHECK_MI_PROBE").is_some() {
            // SAFETY: `mi_option_get` reads an option (initialized from the environment on first use).
            let (v, before, after) = unsafe { (mi_option_get(OPT), mi_option_get(OPT - 1), mi_option_get(OPT + 1)) };
            assert_eq!(v, 37, "option {OPT} is not arena_eager_commit");
            assert!(before != 37 && after != 37);
            return;
        }
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "tests::the_arena_eager_commit_option_is_the_one_named_so", "--nocapture"])
            .env("TRACECHECK_MI_PROBE", "1")
            .env("MIMALLOC_ARENA_EAGER_COMMIT", "37")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && text.contains("1 passed"), "{text}");
    }
}
