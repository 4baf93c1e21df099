//! `use-after-free`: memory was used after it was freed.

use super::{Finding, Maturity, RuleContext, RuleInfo, Severity};

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "use-after-free",
    title: "memory was used after it was freed",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** An AddressSanitizer `heap-use-after-free` (or `use-after-poison`) report; its
`stack-use-after-return` (a local read through a pointer after its function returned, with
`detect_stack_use_after_return=1`) and `stack-use-after-scope` (after its block ended), where the
memory's lifetime ended as a freed block's does; or a valgrind
`Invalid read`/`Invalid write` whose address is inside a block that was `free'd`, or Miri's
`Undefined Behavior: pointer to allocN was dereferenced after this allocation got freed`.

**Why it matters** The report holds three stacks: the access, where the block was freed and where it was
allocated; the bug is usually a dangling pointer kept past the `free` of the second stack.

**Example** `ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000012` with `freed by thread
T0 here:` and `previously allocated by thread T0 here:` stacks.

**Known false positives** None known for the sanitizer class. valgrind reuses freed blocks after a while, so an old
dangling access may be reported as an ordinary invalid access instead."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: super::RuleSamples = super::RuleSamples {
    fires_on: &[
        super::Sample::File("tests/wild/san/asan-uaf.txt"),
        super::Sample::File("tests/wild/san/clang-asan-uaf.txt"),
        super::Sample::File("tests/wild/valgrind/uaf.txt"),
    ],
    quiet_on: &[
        super::Sample::File("tests/wild/san/asan-double.txt"),
        super::Sample::File("tests/wild/san/asan-leak.txt"),
        super::Sample::File("tests/wild/valgrind/heap.txt"),
    ],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    super::checker_findings(cx, &RULE, &["list"], out);
}
