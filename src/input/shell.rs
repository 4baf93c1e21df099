//! What a shell prints about a job that died of a signal: fish's and zsh's job reports, bash's
//! report of a script's job, and the bare verdict line (`Segmentation fault (core dumped)`).
//! Several readers (Rust, Julia, sanitizers, a program's own handler output) use them to know
//! the process ended.

/// The signal a shell's job report names: fish's `fish: Job 1, 'prog' terminated by signal
/// SIGABRT (Abort)`, zsh's `zsh: abort      sudo cargo run` / `zsh: segmentation fault  ./x`.
pub(crate) fn shell_job_signal(t: &str) -> Option<i32> {
    // fish 3.0–3.3 (and 2.x): `fish: “/path/prog …” terminated by signal SIGABRT (Abort)`.
    if let Some(r) = t.strip_prefix("fish: Job ").or_else(|| t.strip_prefix("fish: ")) {
        let sig = r.split_once(" terminated by signal ")?.1.split_whitespace().next()?;
        return crate::model::signals::signo(sig);
    }
    // zsh's job notice: `[1]    48213 abort      zigup use 0.13.0`; bash's: `[1]+  Aborted
    // (core dumped) ./prog`.
    if let Some(r) = t.strip_prefix('[')
        && let Some((job, rest)) = r.split_once(']')
        && !job.is_empty()
        && job.bytes().all(|c| c.is_ascii_digit())
    {
        let rest = rest.trim_start_matches(['+', '-']).trim_start();
        let pid = rest.bytes().take_while(u8::is_ascii_digit).count();
        let status = rest[pid..].trim_start();
        let what = status.split("  ").next()?.trim();
        if pid > 0 {
            return zsh_status(what);
        }
        return shell_verdict_signal(what);
    }
    let what = t.strip_prefix("zsh: ")?.split("  ").next()?.trim();
    zsh_status(what)
}

fn zsh_status(what: &str) -> Option<i32> {
    // `[1]    3318042 segmentation fault (core dumped)  cargo run`.
    let what = what.strip_suffix(" (core dumped)").unwrap_or(what);
    Some(match what {
        "segmentation fault" => 11,
        "abort" => 6,
        "bus error" => 7,
        "illegal hardware instruction" => 4,
        "floating point exception" => 8,
        _ => return None,
    })
}

/// bash's report of a job a script started that died of a signal:
/// `./run.sh: line 12:  2391 Segmentation fault      (core dumped) ./prog args` →
/// `Segmentation fault` (the description of the signal).
pub(crate) fn script_job_report(t: &str) -> Option<&str> {
    let (_, r) = t.split_once(": line ")?;
    let (num, r) = r.split_once(": ")?;
    if num.is_empty() || !num.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let r = r.trim_start();
    let pid = r.bytes().take_while(u8::is_ascii_digit).count();
    if pid == 0 || !r[pid..].starts_with(' ') {
        return None;
    }
    let r = r[pid..].trim_start();
    // The description is padded to a column, then `(core dumped)` and the command.
    let desc_end = r.find("  ").or_else(|| r.find(" (core dumped)")).unwrap_or(r.len());
    Some(&r[..desc_end]).filter(|x| !x.is_empty())
}

/// The shell's one-line verdict on a job that died of a signal (bash, dash, macOS shells).
pub(crate) fn is_shell_verdict(t: &str) -> bool {
    shell_verdict_signal(t).is_some()
}

/// The signal a shell's verdict on its child names: bash's `Aborted (core dumped)`, macOS's
/// `Illegal instruction: 4`, Solaris's and illumos's `Abort (core dumped)`.
pub(crate) fn shell_verdict_signal(t: &str) -> Option<i32> {
    let t = t.strip_suffix(" (core dumped)").unwrap_or(t);
    Some(match t {
        "Aborted" | "Abort" | "Abort trap: 6" => 6,
        "Segmentation fault" | "Segmentation fault: 11" => 11,
        "Bus error" | "Bus error: 10" => 7,
        "Illegal instruction" | "Illegal instruction: 4" => 4,
        "Trace/breakpoint trap" | "Trace/BPT trap: 5" => 5,
        _ => return None,
    })
}
