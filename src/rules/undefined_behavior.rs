//! `undefined-behavior`: the program executed undefined behaviour.

use super::{Finding, Maturity, RuleContext, RuleInfo, Severity};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "undefined-behavior",
    title: "the program executed undefined behaviour",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** An UndefinedBehaviorSanitizer `runtime error:` line (`src/san.c:28:22: runtime error: signed
integer overflow: 196608 * 65536 cannot be represented in type 'int'`), with its stack when
`UBSAN_OPTIONS=print_stacktrace=1` printed one.

**Why it matters** The compiler may assume undefined behaviour never happens, so later code can misbehave in ways
that do not point back here; the line and column are exact.

**Example** `src/san.c:73:9: runtime error: load of null pointer of type 'int'`.

**Known false positives** None known: each line is a check that fired."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: super::RuleSamples = super::RuleSamples {
    fires_on: &[super::Sample::File("tests/wild/san/ubsan.txt"), super::Sample::File("tests/wild/san/ubsan-stack.txt")],
    quiet_on: &[super::Sample::File("tests/wild/gdb/null-bt.txt")],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    super::checker_findings(cx, &RULE, &["list"], out);
}
