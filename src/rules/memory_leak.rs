//! `memory-leak`: memory was allocated and never freed.

use super::{Finding, Maturity, RuleContext, RuleInfo, Severity};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "memory-leak",
    title: "memory was allocated and never freed",
    maturity: Maturity::Stable,
    default_severity: Severity::Warning,
    explanation: r#"**What it flags** A LeakSanitizer report (`ERROR: LeakSanitizer: detected memory leaks`, `Direct leak of 39
byte(s) in 3 object(s) allocated from:`) or valgrind `N bytes in M blocks are definitely lost`.

**Why it matters** The allocation stack names the code that lost the pointer.

**Example** `Direct leak of 39 byte(s) in 3 object(s) allocated from:` `#1 … in make_label src/san.c:22`.

**Known false positives** Memory kept until exit on purpose (caches, singletons) is reported too."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: super::RuleSamples = super::RuleSamples {
    fires_on: &[
        super::Sample::File("tests/wild/san/asan-leak.txt"),
        super::Sample::File("tests/wild/valgrind/leak.txt"),
    ],
    quiet_on: &[super::Sample::File("tests/wild/gdb/null-bt.txt")],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    super::checker_findings(cx, &RULE, &[], out);
}
