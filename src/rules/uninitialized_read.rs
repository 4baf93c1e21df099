//! `uninitialized-read`: a decision or a system call used uninitialized memory.

use super::{Finding, Maturity, RuleContext, RuleInfo, Severity};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "uninitialized-read",
    title: "a decision or a system call used uninitialized memory",
    maturity: Maturity::Stable,
    default_severity: Severity::Warning,
    explanation: r#"**What it flags** A MemorySanitizer `use-of-uninitialized-value` report, or valgrind `Conditional jump or move
depends on uninitialised value(s)`, `Use of uninitialised value of size N`, `Syscall param …
points to uninitialised byte(s)`.

**Why it matters** The program behaves differently run to run; the origin stack (`Uninitialized value was created
by an allocation of 'chosen' in the stack frame of function 'pick'`) names the variable.

**Example** `WARNING: MemorySanitizer: use-of-uninitialized-value` `#0 … in main src/san.c:82:13`.

**Known false positives** Padding bytes copied with a struct and values computed by assembly memcheck cannot follow."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: super::RuleSamples = super::RuleSamples {
    fires_on: &[
        super::Sample::File("tests/wild/san/msan-uninit.txt"),
        super::Sample::File("tests/wild/valgrind/uninit.txt"),
        super::Sample::File("tests/wild/valgrind/uninit-origins.txt"),
    ],
    quiet_on: &[super::Sample::File("tests/wild/gdb/null-bt.txt")],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    super::checker_findings(cx, &RULE, &["info locals"], out);
}
