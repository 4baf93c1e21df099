//! `heap-buffer-overflow`: a sanitizer caught an access outside a heap or global block.

use super::{Finding, Maturity, RuleContext, RuleInfo, Severity};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "heap-buffer-overflow",
    title: "a sanitizer caught an access outside a heap or global block",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** An AddressSanitizer report of class `heap-buffer-overflow` (or `global-buffer-overflow`):
the program read or wrote past either end of a `malloc`ed (or global) object. The finding quotes
the report (`READ of size 4 at 0x… thread T0`) and names the first frame of the access stack
outside the sanitizer and the C library.

**Why it matters** The access stack points at the faulting code and the `allocated by thread … here:` stack
at the block; the report line `0x… is located 0 bytes after 32-byte region` gives the
off-by-how-much. Without the sanitizer this corruption shows up later as a glibc abort or a
wild pointer.

**Example** `ERROR: AddressSanitizer: heap-buffer-overflow on address 0x603000000060 … READ of size 4`
with `#0 … in sum_items src/san.c:12`.

**Known false positives** None known: the sanitizer names the class itself. The culprit frame is where the access
happened; the wrong size may have been computed elsewhere."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: super::RuleSamples = super::RuleSamples {
    fires_on: &[
        super::Sample::File("tests/wild/san/asan-heap.txt"),
        super::Sample::File("tests/wild/damage/asan-heap-noindent.txt"),
    ],
    quiet_on: &[
        super::Sample::File("tests/wild/san/asan-stack.txt"),
        super::Sample::File("tests/wild/san/asan-leak.txt"),
    ],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    super::checker_findings(cx, &RULE, &["list", "info locals"], out);
}
