//! `assertion-failure`: a C/C++ `assert()` (glibc, musl, macOS, LLVM, Julia debug builds)
//! failed and aborted the process.

use super::{Finding, Maturity, RuleContext, RuleInfo, RuleSamples, Sample, Severity};
use crate::messages;
use crate::model::*;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "assertion-failure",
    title: "an assert() failed and aborted the process",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A SIGABRT (or a stop with no signal) explained by a failed
C assertion: the message on stderr (glibc's ``prog: file.c:9: func: Assertion `expr' failed.``,
also printed by LLVM and by Julia debug builds; musl's `Assertion failed: expr (file: func:
line)`; macOS's `Assertion failed: (expr), function func, file f.c, line 9.`; libstdc++'s own
precondition checks under `_GLIBCXX_ASSERTIONS`, which quote with a straight quote:
`Assertion '__n < this->size()' failed.`), or, without stderr, an `__assert_fail` /
`__assert_fail_base` / `__assert_rtn` frame, whose arguments give the expression, file, line
and function. A `std::__glibcxx_assert_fail` frame alone says that a library precondition
failed, in a call from the culprit. The finding quotes the expression with its source
location and names the culprit frame (the first frame outside libc).

**Why it matters** The program checked an invariant and found it false. The expression and
its location are the diagnosis; the culprit frame's locals show the values that broke it.

**Example** `assert-fail.gdb.txt`: ``assert-fail: src/assert-fail.c:9: range_width: Assertion
`r->lo <= r->hi && "range is inverted"' failed.``, frames `__GI___assert_fail` ←
`range_width (r=0x7fffffffec40) at src/assert-fail.c:9`. Seed 001 (Julia 1.9 debug build):
``julia-debug: …/src/dump.c:2159: jl_deserialize_value: Assertion `offs < backref_list.len'
failed.`` followed by Julia's `[61176] signal (6): Aborted` trace.

**Known false positives** glibc's own malloc assertions (``malloc.c:…: sysmalloc: Assertion `…' failed``) report heap corruption and are left to `heap-corruption`. Rust's `assert!` prints a
panic (`assertion failed: …`) and is reported by `panic`."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: RuleSamples = RuleSamples {
    fires_on: &[Sample::File("sample-traces/assert-fail.gdb.txt")],
    quiet_on: &[
        Sample::File("sample-traces/null-field.gdb.txt"),
        Sample::File("sample-traces/julia-trampoline-good-r13.gdb.txt"),
        Sample::File("sample-traces/threads-crash.gdb.txt"),
        Sample::File("sample-traces/stack-overflow.gdb.txt"),
    ],
};

/// libstdc++'s own precondition check (`_GLIBCXX_ASSERTIONS`): `std::__glibcxx_assert_fail`,
/// printed by gdb with its parameter types when the library has no debug info.
fn is_glibcxx_assert_frame(name: &str) -> bool {
    let n = name.split_once('(').map_or(name, |(n, _)| n);
    matches!(n, "std::__glibcxx_assert_fail" | "__glibcxx_assert_fail")
}

fn is_assert_frame(name: &str) -> bool {
    if is_glibcxx_assert_frame(name) {
        return true;
    }
    let n = name.trim_start_matches("__GI_");
    matches!(
        n,
        "__assert_fail"
            | "__assert_fail_base"
            | "__assert_perror_fail"
            | "__assert_rtn"
            | "__assert2"
            | "__assert"
            | "_assert"
            | "_wassert"
    )
}

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    for (si, stop) in cx.stops() {
        let msg_line = stop.messages.iter().find(|m| m.kind == Some(MessageKind::Assertion));
        // A check that ends in a trap instead of abort (V8's and Chromium's `CHECK` in release
        // builds: `IMMEDIATE_CRASH`, SIGILL or SIGTRAP), or whose report named no signal.
        let trapped = msg_line.is_some()
            && stop.reason.kind == StopKind::Signal
            && matches!(stop.reason.signo, None | Some(4) | Some(5));
        if !stop.abort_like() && !trapped {
            continue;
        }
        let th = stop.crashed_thread();
        let frames: &[Frame] = th.map(|t| t.frames.as_slice()).unwrap_or(&[]);
        if msg_line.and_then(|m| m.assertion.as_ref()).is_some_and(messages::is_malloc_assertion) {
            continue;
        }
        // The outermost assert frame carries the caller's arguments (`__GI___assert_fail`).
        let assert_frame = frames.iter().rev().find(|f| is_assert_frame(f.function_name()));
        if msg_line.is_none() && assert_frame.is_none() {
            continue;
        }
        let parsed = msg_line.and_then(|m| m.assertion.as_ref());
        let arg = |name: &str| assert_frame.and_then(|f| f.arg_string(name)).map(str::to_string);
        let expr =
            parsed.as_ref().map(|a| a.expr.to_string()).or_else(|| arg("assertion")).or_else(|| arg("failedexpr"));
        let file = parsed.as_ref().and_then(|a| a.file.as_deref().map(str::to_string)).or_else(|| arg("file"));
        let line = parsed
            .as_ref()
            .and_then(|a| a.line)
            .or_else(|| assert_frame.and_then(|f| f.arg_int("line")).and_then(|l| u32::try_from(l).ok()));
        let function =
            parsed.as_ref().and_then(|a| a.function.as_deref().map(str::to_string)).or_else(|| arg("function"));
        if file.as_deref().is_some_and(|f| f.ends_with("malloc.c")) {
            continue;
        }
        let culprit = cx.named_culprit(stop).map(|(_, f)| f);
        let library = assert_frame.is_some_and(|f| is_glibcxx_assert_frame(f.function_name()));
        let mut text = match (&expr, library) {
            (Some(e), _) => format!("assertion `{e}` failed"),
            (None, true) => "libstdc++'s precondition check (_GLIBCXX_ASSERTIONS) failed".to_string(),
            (None, false) => "assertion failed".to_string(),
        };
        let func = function.clone().or_else(|| culprit.map(|c| c.function_name().to_string()));
        if let Some(fun) = &func {
            text.push_str(&format!(" in {fun}"));
        }
        match (&file, line) {
            (Some(f), Some(l)) => text.push_str(&format!(" at {f}:{l}")),
            (Some(f), None) => text.push_str(&format!(" in {f}")),
            _ => {
                if let Some((f, l)) = culprit.and_then(|c| c.file.as_ref().zip(c.line)) {
                    text.push_str(&format!(" at {f}:{l}"));
                }
            }
        }
        // glibc's own assertions on the objects a program hands it (nptl's mutex and
        // condition-variable checks, the dynamic loader's): the state the program passed in
        // is broken; the caller is what to read, not glibc's source line.
        let glibc_internal = parsed.is_some_and(messages::is_glibc_internal_assertion);
        if glibc_internal {
            let object = if function.as_deref().is_some_and(|f| f.contains("pthread_")) {
                "a pthread object it was passed (a mutex or condition variable copied, overwritten, destroyed or never initialised)"
            } else {
                "the state it was given (a handle or structure of the program's that was freed or overwritten)"
            };
            text = format!("glibc's internal {text}: this is glibc checking {object}, not an assert of the program's");
            if let Some(c) = culprit {
                text.push_str(&format!("; the call came from {}", c.location()));
            }
        }
        let mut f = Finding::new(&RULE, text).at(si, th, culprit.map(|c| c.index)).rank(75);
        if let Some(m) = msg_line {
            f = f.evidence(format!("stderr: {}", m.text), Some(m.span));
        }
        if let Some(a) = assert_frame {
            f = f.evidence(format!("#{} {}", a.index, a.location()), Some(a.span));
        }
        if let Some(c) = culprit {
            f = f.evidence(format!("culprit: #{} {}", c.index, c.location()), Some(c.span));
            f = f.step(format!("frame {}", c.index)).step("info locals").step("info args");
        }
        // An assertion in Julia's own runtime (a debug build such as julia-debug prints them).
        let in_julia_runtime = file.as_deref().is_some_and(|f| {
            let probe = Frame { file: Some(f.into()), ..Default::default() };
            crate::julia::role(&probe) == crate::julia::FrameRole::Runtime
        });
        if in_julia_runtime {
            let at = match (&file, line) {
                (Some(f), Some(l)) => format!("{f}:{l}"),
                _ => "the assertion".to_string(),
            };
            f = f
                .evidence(
                    format!("{at} is in the Julia runtime: a debug build checks this invariant; a release build runs on with the broken state and crashes later"),
                    None,
                )
                .step(format!("rr record julia-debug …, then rr replay; break {at} (or reverse-continue from the abort) and print the operands of the asserted expression"))
                .step("bt in the replay to see which Julia code reached the runtime call; compare with the release build's crash");
        } else if culprit.is_none() {
            f = f.step("bt to find the function that asserted; frame N; info locals");
        }
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::testutil::{run_rule, run_rule_on_sample};

    #[test]
    fn fires_on_assert_fail_sample() {
        let f = run_rule_on_sample(&RULE, "assert-fail.gdb.txt");
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "assertion `r->lo <= r->hi && \"range is inverted\"` failed in range_width at src/assert-fail.c:9"
        );
        assert_eq!(f[0].frame, Some(6));
        let ev: Vec<(&str, Option<u32>)> =
            f[0].evidence.iter().map(|e| (e.text.as_str(), e.lines.map(|l| l.first))).collect();
        assert_eq!(ev[0].1, Some(4));
        assert!(ev.iter().any(|(t, _)| *t == "#5 __GI___assert_fail at ./assert/assert.c:103"));
        assert!(ev.iter().any(|(t, _)| *t == "culprit: #6 range_width at src/assert-fail.c:9"));
    }

    #[test]
    fn quiet_on_other_samples() {
        for s in [
            "glibc-abort.gdb.txt",
            "cpp-uncaught.gdb.txt",
            "rust-panic.gdb.txt",
            "stack-chk.gdb.txt",
            "null-field.gdb.txt",
        ] {
            assert!(run_rule_on_sample(&RULE, s).is_empty(), "{s}");
        }
    }

    #[test]
    fn frames_only_uses_assert_fail_arguments() {
        let t = "\
Program received signal SIGABRT, Aborted.
(gdb) bt
#0  __pthread_kill_implementation (threadid=<optimized out>, signo=signo@entry=6, no_tid=no_tid@entry=0) at ./nptl/pthread_kill.c:44
#1  0x00007ffff7dfb472 in __GI_abort () at ./stdlib/abort.c:79
#2  0x00007ffff7dfb395 in __assert_fail_base (fmt=0x7ffff7f70a90 \"%s%s%s:%u: %s%sAssertion `%s' failed.\\n%n\", assertion=assertion@entry=0x555555556020 \"n > 0\", file=file@entry=0x555555556008 \"src/q.c\", line=line@entry=12, function=function@entry=0x555555556050 <__PRETTY_FUNCTION__.0> \"pop\") at ./assert/assert.c:94
#3  0x00007ffff7e09ec2 in __GI___assert_fail (assertion=0x555555556020 \"n > 0\", file=0x555555556008 \"src/q.c\", line=12, function=0x555555556050 <__PRETTY_FUNCTION__.0> \"pop\") at ./assert/assert.c:103
#4  0x000055555555518e in pop (q=0x7fffffffec40) at src/q.c:12
#5  0x00005555555551f3 in main () at src/q.c:30
";
        let f = run_rule(&RULE, t);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].message, "assertion `n > 0` failed in pop at src/q.c:12");
        assert_eq!(f[0].frame, Some(4));
    }

    // The real text of seed 001 (Julia 1.9 debug build, JuliaLang/julia issue by maleadt).
    const SEED_001: &str = "\
julia-debug: /home/tim/Julia/src/julia/src/dump.c:2159: jl_deserialize_value: Assertion `offs < backref_list.len' failed.

[61176] signal (6): Aborted
in expression starting at /home/tim/Julia/tools/creduce/main.jl:1
unknown function (ip: 0x7f3e3fd8f4dc)
gsignal at /usr/lib/libc.so.6 (unknown line)
abort at /usr/lib/libc.so.6 (unknown line)
unknown function (ip: 0x7f3e3fd2945b)
__assert_fail at /usr/lib/libc.so.6 (unknown line)
";

    #[test]
    fn julia_debug_assertion_from_seed() {
        let f = run_rule(&RULE, SEED_001);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            f[0].message,
            "assertion `offs < backref_list.len` failed in jl_deserialize_value at /home/tim/Julia/src/julia/src/dump.c:2159"
        );
        assert_eq!(f[0].evidence[0].lines, Some(Span::line(1)));
        // Every frame is libc or `unknown function (ip: …)`: no culprit to point at.
        assert_eq!(f[0].frame, None);
    }

    #[test]
    fn malloc_assertion_is_left_to_heap_corruption() {
        let t = "\
t: malloc.c:2379: sysmalloc: Assertion `(old_top == initial_top (av) && old_size == 0)' failed.

Program received signal SIGABRT, Aborted.
";
        assert!(run_rule(&RULE, t).is_empty());
    }
}
