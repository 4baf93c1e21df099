//! Linux signal names, numbers and `si_code` names (x86-64 and AArch64 share them).
//!
//! Sources: `include/uapi/asm-generic/signal.h` and `include/uapi/asm-generic/siginfo.h`.

const SIGNALS: &[(&str, i32, &str)] = &[
    ("SIGHUP", 1, "Hangup"),
    ("SIGINT", 2, "Interrupt"),
    ("SIGQUIT", 3, "Quit"),
    ("SIGILL", 4, "Illegal instruction"),
    ("SIGTRAP", 5, "Trace/breakpoint trap"),
    ("SIGABRT", 6, "Aborted"),
    ("SIGBUS", 7, "Bus error"),
    ("SIGFPE", 8, "Arithmetic exception"),
    ("SIGKILL", 9, "Killed"),
    ("SIGUSR1", 10, "User defined signal 1"),
    ("SIGSEGV", 11, "Segmentation fault"),
    ("SIGUSR2", 12, "User defined signal 2"),
    ("SIGPIPE", 13, "Broken pipe"),
    ("SIGALRM", 14, "Alarm clock"),
    ("SIGTERM", 15, "Terminated"),
    ("SIGSTKFLT", 16, "Stack fault"),
    ("SIGCHLD", 17, "Child status changed"),
    ("SIGCONT", 18, "Continued"),
    ("SIGSTOP", 19, "Stopped (signal)"),
    ("SIGTSTP", 20, "Stopped (user)"),
    ("SIGTTIN", 21, "Stopped (tty input)"),
    ("SIGTTOU", 22, "Stopped (tty output)"),
    ("SIGURG", 23, "Urgent I/O condition"),
    ("SIGXCPU", 24, "CPU time limit exceeded"),
    ("SIGXFSZ", 25, "File size limit exceeded"),
    ("SIGVTALRM", 26, "Virtual timer expired"),
    ("SIGPROF", 27, "Profiling timer expired"),
    ("SIGWINCH", 28, "Window size changed"),
    ("SIGIO", 29, "I/O possible"),
    ("SIGPWR", 30, "Power failure"),
    ("SIGSYS", 31, "Bad system call"),
];

/// Signal number for a name (`SIGSEGV` or `SEGV`).
pub fn signo(name: &str) -> Option<i32> {
    let name = name.strip_prefix("SIG").unwrap_or(name);
    SIGNALS.iter().find(|(n, _, _)| &n[3..] == name).map(|(_, s, _)| *s)
}

/// The signal a runtime's report names with a number and a description (Julia's `signal (10):
/// Bus error: 10`, Open MPI's `Signal: Bus error: 10 (10)`): the number is the operating
/// system's, which on macOS and the BSDs is not Linux's (SIGBUS is 10 there, SIGUSR1 here), so
/// a description that names a signal wins; the number alone is read as Linux's.
pub fn from_number_and_description(number: i32, desc: &str) -> i32 {
    from_description(desc).and_then(signo).unwrap_or(number)
}

/// The canonical `SIGxxx` name for a number.
pub fn name(signo: i32) -> Option<&'static str> {
    SIGNALS.iter().find(|(_, s, _)| *s == signo).map(|(n, _, _)| *n)
}

/// The `strsignal` description of a signal number (`Segmentation fault`).
pub fn description(signo: i32) -> Option<&'static str> {
    SIGNALS.iter().find(|(_, s, _)| *s == signo).map(|(_, _, d)| *d)
}

/// Signal from a `strsignal` description (`Segmentation fault` → SIGSEGV), as Julia prints.
pub fn from_description(desc: &str) -> Option<&'static str> {
    let d = desc.trim();
    // macOS's strsignal adds the BSD signal number (`Bus error: 10`, `Segmentation fault: 11`,
    // `Abort trap: 6`); the description names the signal, the number is not Linux's.
    let d = match d.rsplit_once(": ") {
        Some((head, no)) if !no.is_empty() && no.len() <= 2 && no.bytes().all(|c| c.is_ascii_digit()) => head,
        _ => d,
    };
    if d == "Abort trap" {
        return Some("SIGABRT");
    }
    if d == "Trace/BPT trap" {
        return Some("SIGTRAP");
    }
    SIGNALS.iter().find(|(_, _, t)| t.eq_ignore_ascii_case(d)).map(|(n, _, _)| *n).or(match d {
        "Floating point exception" => Some("SIGFPE"),
        "Abort" | "Aborted (core dumped)" => Some("SIGABRT"),
        "Illegal instruction (core dumped)" => Some("SIGILL"),
        "Bus error (core dumped)" => Some("SIGBUS"),
        "Segmentation fault (core dumped)" => Some("SIGSEGV"),
        _ => localized(d),
    })
}

/// glibc's translations of the common fault signals' descriptions, as a localized shell or
/// program prints them (`Speicherzugriffsfehler`, `已中止 (核心已转储)`), with or without the
/// shell's localized "(core dumped)".
fn localized(d: &str) -> Option<&'static str> {
    const CORE: &[&str] =
        &[" (core dumped)", " (核心已转储)", " (Speicherabzug geschrieben)", " (image mémoire enregistrée)"];
    let d = CORE.iter().find_map(|c| d.strip_suffix(c)).unwrap_or(d);
    Some(match d {
        "Speicherzugriffsfehler"
        | "段错误"
        | "Erreur de segmentation"
        | "Violación de segmento"
        | "Falha de segmentação"
        | "Ошибка сегментирования" => "SIGSEGV",
        // French: `Abandon (core dumped)` (glibc's "Aborted"), Spanish `Abortado`.
        "Abgebrochen" | "已中止" | "已放弃" | "Abandon" | "Abortado" => "SIGABRT",
        _ => return None,
    })
}

pub const SI_USER: i32 = 0;
pub const SI_KERNEL: i32 = 0x80;
pub const SEGV_MAPERR: i32 = 1;
pub const SEGV_ACCERR: i32 = 2;
/// A control-protection (shadow stack) fault: x86 CET, AArch64 GCS.
pub const SEGV_CPERR: i32 = 10;
/// SIGBUS: invalid address alignment. On x86-64 the alignment-check exception (#AC, with
/// EFLAGS.AC set) reports no address: `si_addr` is 0 whatever the access was.
pub const BUS_ADRALN: i32 = 1;

/// Whether `si_addr` is no fault address although the signal has one: x86-64's alignment
/// check (SIGBUS, BUS_ADRALN) always reports 0.
pub fn zero_si_addr_is_no_address(signo: Option<i32>, si_code: Option<i32>, addr: Option<u64>) -> bool {
    signo == Some(7) && si_code == Some(BUS_ADRALN) && addr == Some(0)
}

/// Names for `si_code` values. Codes <= 0 and SI_KERNEL are shared by all signals.
pub fn si_code_name(signo: i32, code: i32) -> Option<&'static str> {
    let generic = match code {
        0 => Some("SI_USER"),
        0x80 => Some("SI_KERNEL"),
        -1 => Some("SI_QUEUE"),
        -2 => Some("SI_TIMER"),
        -3 => Some("SI_MESGQ"),
        -4 => Some("SI_ASYNCIO"),
        -5 => Some("SI_SIGIO"),
        -6 => Some("SI_TKILL"),
        _ => None,
    };
    if generic.is_some() {
        return generic;
    }
    let table: &[&str] = match signo {
        4 => &[
            "ILL_ILLOPC",
            "ILL_ILLOPN",
            "ILL_ILLADR",
            "ILL_ILLTRP",
            "ILL_PRVOPC",
            "ILL_PRVREG",
            "ILL_COPROC",
            "ILL_BADSTK",
            "ILL_BADIADDR",
        ],
        8 => &[
            "FPE_INTDIV",
            "FPE_INTOVF",
            "FPE_FLTDIV",
            "FPE_FLTOVF",
            "FPE_FLTUND",
            "FPE_FLTRES",
            "FPE_FLTINV",
            "FPE_FLTSUB",
            "FPE_FLTUNK",
            "FPE_CONDTRAP",
        ],
        11 => &[
            "SEGV_MAPERR",
            "SEGV_ACCERR",
            "SEGV_BNDERR",
            "SEGV_PKUERR",
            "SEGV_ACCADI",
            "SEGV_ADIDERR",
            "SEGV_ADIPERR",
            "SEGV_MTEAERR",
            "SEGV_MTESERR",
            "SEGV_CPERR",
        ],
        7 => &["BUS_ADRALN", "BUS_ADRERR", "BUS_OBJERR", "BUS_MCEERR_AR", "BUS_MCEERR_AO"],
        5 => &["TRAP_BRKPT", "TRAP_TRACE", "TRAP_BRANCH", "TRAP_HWBKPT", "TRAP_UNK", "TRAP_PERF"],
        17 => &["CLD_EXITED", "CLD_KILLED", "CLD_DUMPED", "CLD_TRAPPED", "CLD_STOPPED", "CLD_CONTINUED"],
        _ => &[],
    };
    if code >= 1 { table.get((code - 1) as usize).copied() } else { None }
}

/// Inverse of [`si_code_name`].
pub fn si_code_value(name: &str) -> Option<i32> {
    for signo in [0, 4, 5, 7, 8, 11, 17] {
        for code in -6..=12 {
            if si_code_name(signo, code) == Some(name) {
                return Some(code);
            }
        }
    }
    if name == "SI_KERNEL" {
        return Some(0x80);
    }
    None
}

/// Signals whose `si_addr` is a faulting address.
pub fn has_fault_address(signo: i32) -> bool {
    matches!(signo, 4 | 7 | 8 | 11)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn names_and_codes() {
        assert_eq!(signo("SIGSEGV"), Some(11));
        assert_eq!(signo("ABRT"), Some(6));
        assert_eq!(name(7), Some("SIGBUS"));
        assert_eq!(si_code_name(11, 1), Some("SEGV_MAPERR"));
        assert_eq!(si_code_name(11, 128), Some("SI_KERNEL"));
        assert_eq!(si_code_name(6, -6), Some("SI_TKILL"));
        assert_eq!(si_code_name(7, 2), Some("BUS_ADRERR"));
        assert_eq!(si_code_value("SEGV_ACCERR"), Some(2));
        assert_eq!(from_description("Segmentation fault"), Some("SIGSEGV"));
        assert_eq!(from_description("Aborted"), Some("SIGABRT"));
        assert_eq!(si_code_name(11, 99), None);
    }
}
