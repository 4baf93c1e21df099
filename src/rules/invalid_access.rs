//! `invalid-access`: a memory checker reported an invalid read, write or free.

use super::{Finding, Maturity, RuleContext, RuleInfo, Severity};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "invalid-access",
    title: "a memory checker reported an invalid read, write or free",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A valgrind `Invalid read of size N` / `Invalid write of size N` (outside any freed block) or
`Invalid free()` of a pointer that was never allocated, and AddressSanitizer `bad-free` /
`alloc-dealloc-mismatch`. The note after it (`Address 0x… is 0 bytes after a block of size 32
alloc'd`, `is not stack'd, malloc'd or (recently) free'd`) says which.

**Why it matters** memcheck sees the bad access when it happens, before the corruption spreads; the culprit frame
is the faulting code.

**Example** `==4242== Invalid read of size 4` `at 0x1091E8: sum_items (san.c:12)` `Address 0x4a41060 is 0
bytes after a block of size 32 alloc'd`.

**Known false positives** Custom allocators and hand-written assembly (memcpy variants reading whole words) can trigger
valgrind reports that are harmless; suppressions exist for the known ones."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: super::RuleSamples = super::RuleSamples {
    fires_on: &[super::Sample::File("tests/wild/valgrind/heap.txt")],
    // Look-alikes: an invalid read inside a freed block is use-after-free, not this; a leak
    // report has no access at all.
    quiet_on: &[
        super::Sample::File("tests/wild/valgrind/uaf.txt"),
        super::Sample::File("tests/wild/valgrind/leak.txt"),
    ],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    super::checker_findings(cx, &RULE, &["list"], out);
}
