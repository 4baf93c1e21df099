//! `undefined-behavior`: the program executed undefined behaviour.

use super::{Finding, Maturity, RuleContext, RuleInfo, Severity};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "undefined-behavior",
    title: "the program executed undefined behaviour",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** An UndefinedBehaviorSanitizer `runtime error:` line (`src/san.c:28:22: runtime error: signed
integer overflow: 196608 * 65536 cannot be represented in type 'int'`), with its stack when
`UBSAN_OPTIONS=print_stacktrace=1` printed one (the line starts at UBSan's source location: a
program's own log line quoting a runtime error, `recovered in handler: runtime error: …`, is
none); Miri's `error: Undefined Behavior: …` (its class when
no more precise rule covers it: `null pointer is not a valid pointer for this operation`), with
the `inside `f` at file:L:C` notes as its frames; and Julia's `Unreachable reached at 0x…`
before the SIGILL of the trap it hit: compiled code reached a point the compiler had proved
unreachable (after a call inferred never to return, a type assertion it dropped), so the
inference or code generation was wrong, or unsafe code broke an assumption it relied on. The
culprit is the Julia function that trapped.

**Why it matters** The compiler may assume undefined behaviour never happens, so later code can misbehave in ways
that do not point back here; the line and column are exact.

**Example** `src/san.c:73:9: runtime error: load of null pointer of type 'int'`.

**Known false positives** None known: each line is a check that fired. clang's checks of
behaviour C and C++ define (`-fsanitize=unsigned-integer-overflow`: `runtime error: unsigned
integer overflow`; `-fsanitize=implicit-conversion`: `runtime error: implicit conversion from
type …`) print the same `runtime error:` lines, but unsigned arithmetic wraps and a narrowing
conversion keeps the low bits by the standard: they are not read as undefined behaviour."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: super::RuleSamples = super::RuleSamples {
    fires_on: &[super::Sample::File("tests/wild/san/ubsan.txt"), super::Sample::File("tests/wild/san/ubsan-stack.txt")],
    quiet_on: &[super::Sample::File("tests/wild/gdb/null-bt.txt")],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    super::checker_findings(cx, &RULE, &["list"], out);
}
