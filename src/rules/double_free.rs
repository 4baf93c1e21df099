//! `double-free`: a heap block was freed twice.

use super::{Finding, Maturity, RuleContext, RuleInfo, Severity};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "double-free",
    title: "a heap block was freed twice",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** An AddressSanitizer `attempting double-free` report, or a valgrind `Invalid free()` whose
address is inside a block that was already `free'd`.

**Why it matters** The second `free` is in the access stack, the first in the `freed by` stack; freeing twice
corrupts the allocator and often crashes much later in unrelated code.

**Example** `ERROR: AddressSanitizer: attempting double-free on 0x602000000010 in thread T0`.

**Known false positives** None known."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: super::RuleSamples = super::RuleSamples {
    fires_on: &[
        super::Sample::File("tests/wild/san/asan-double.txt"),
        super::Sample::File("tests/wild/valgrind/double.txt"),
    ],
    quiet_on: &[
        super::Sample::File("tests/wild/san/asan-uaf.txt"),
        super::Sample::File("tests/wild/san/clang-asan-uaf.txt"),
        super::Sample::File("tests/wild/valgrind/uaf.txt"),
    ],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    super::checker_findings(cx, &RULE, &["list"], out);
}
