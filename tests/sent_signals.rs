//! A fault signal sent from outside (`kill -SEGV`, `raise(SIGSEGV)`, `tgkill`) is no memory
//! fault: `$_siginfo`'s `si_addr` shares its word with `si_pid`, so for si_code <= 0 it is the
//! sender's pid, not an address. The input is cut from `sample-traces/crashers/raise-segv.gdb.txt`
//! (real gdb 13); the look-alike is the same text with the kernel's si_code (1, SEGV_MAPERR).

use tracecheck::analyze::analyze;

fn stop(si_code: &str) -> String {
    format!(
        "\
(gdb) run
Program received signal SIGSEGV, Segmentation fault.
__pthread_kill_implementation (threadid=<optimized out>, signo=signo@entry=11, no_tid=no_tid@entry=0) at ./nptl/pthread_kill.c:44
(gdb) bt
#0  __pthread_kill_implementation (threadid=<optimized out>, signo=signo@entry=11, no_tid=no_tid@entry=0) at ./nptl/pthread_kill.c:44
#1  0x00007ffff7e5ef4f in __pthread_kill_internal (signo=11, threadid=<optimized out>) at ./nptl/pthread_kill.c:78
#2  0x00007ffff7e0ffb2 in __GI_raise (sig=11) at ../sysdeps/posix/raise.c:26
#3  0x000055555555517f in watchdog_expired (seconds=30) at src/raise-segv.c:10
#4  0x0000555555555190 in main () at src/raise-segv.c:15
(gdb) p $_siginfo
$1 = {{si_signo = 11, si_errno = 0, si_code = {si_code}, _sifields = {{_pad = {{11229, 0 <repeats 27 times>}}, _kill = {{si_pid = 11229, si_uid = 0}}, _sigfault = {{si_addr = 0x2bdd, _addr_lsb = 0, _addr_bnd = {{_lower = 0x0, _upper = 0x0}}}}}}}}
"
    )
}

#[test]
fn a_signal_sent_with_kill_or_tgkill_has_no_fault_address() {
    for code in ["0", "-6", "-1", "SI_USER", "SI_TKILL"] {
        let p = tracecheck::input::parse(&stop(code));
        let r = &p.trace.stops[0].reason;
        assert_eq!(r.signo, Some(11), "{code}");
        assert_eq!(r.address, None, "si_code {code}: si_addr is the sender's pid");
        let report = analyze("t", p, &Default::default());
        let rules: Vec<&str> = report.findings.iter().map(|f| f.rule).collect();
        assert!(!rules.contains(&"null-dereference") && !rules.contains(&"wild-pointer"), "{code}: {rules:?}");
    }
}

#[test]
fn a_fault_the_kernel_raised_keeps_its_address() {
    for code in ["1", "SEGV_MAPERR", "2"] {
        let p = tracecheck::input::parse(&stop(code));
        assert_eq!(p.trace.stops[0].reason.address.map(|a| a.0), Some(0x2bdd), "si_code {code}");
    }
}

#[test]
fn a_sent_signal_asks_for_no_siginfo_it_already_has() {
    let report = analyze("t", tracecheck::input::parse(&stop("-6")), &Default::default());
    let asked: Vec<&str> = report.missing_evidence.iter().map(|m| m.command.as_str()).collect();
    assert!(!asked.iter().any(|c| c.contains("siginfo")), "{asked:?}");
    // Look-alike: the same stop without `p $_siginfo` still asks for it.
    let cut = stop("-6").split("(gdb) p $_siginfo").next().unwrap().to_string();
    let report = analyze("t", tracecheck::input::parse(&cut), &Default::default());
    let asked: Vec<&str> = report.missing_evidence.iter().map(|m| m.command.as_str()).collect();
    assert!(asked.iter().any(|c| c.contains("$_siginfo")), "{asked:?}");
}
