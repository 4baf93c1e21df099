//! `data-race`: two threads accessed the same memory without synchronization.

use super::{Finding, Maturity, RuleContext, RuleInfo, Severity};
use crate::model::MessageDetail;

pub(crate) static RULE: RuleInfo = RuleInfo {
    id: "data-race",
    title: "two threads accessed the same memory without synchronization",
    maturity: Maturity::Stable,
    default_severity: Severity::Error,
    explanation: r#"**What it flags** A ThreadSanitizer `data race` report: the two conflicting accesses (`Read of size 4 at 0x… by
thread T2`, `Previous write of size 4 at 0x… by thread T1`), the location (`Location is global
'shared_total'`) and where the threads were created.

Go's own map check, `fatal error: concurrent map writes` (or `concurrent map read and map
write`, `… iteration and map write`), is one too: the culprit is the first frame of the
goroutine that hit it outside the runtime.

**Why it matters** Races make crashes intermittent and values wrong; the two stacks name the unsynchronized code.

**Example** `WARNING: ThreadSanitizer: data race (pid=29340)` with `#0 adder src/san.c:34` in both stacks.

**Known false positives** Synchronization ThreadSanitizer cannot see (hand-written atomics in assembly, some lock-free
libraries) is reported as a race."#,
};

/// Where this rule must fire and where it must stay quiet (the registry test runs both).
pub(crate) const SAMPLES: super::RuleSamples = super::RuleSamples {
    fires_on: &[
        super::Sample::File("tests/wild/san/tsan-race.txt"),
        super::Sample::File("tests/wild/damage/tsan-race-crlf.txt"),
    ],
    // Look-alike: a multithreaded crash without ThreadSanitizer (threads, no race report).
    quiet_on: &[
        super::Sample::File("sample-traces/threads-crash.gdb.txt"),
        super::Sample::File("tests/wild/gdb/null-bt.txt"),
    ],
};

pub(crate) fn check(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    super::checker_findings(cx, &RULE, &["thread apply all bt"], out);
    // Go's runtime checks maps for concurrent use itself and dies with `fatal error:
    // concurrent map writes`: the goroutine that hit the check is one of the two writers.
    for (si, stop) in cx.stops() {
        let Some(m) = stop.messages.iter().find(|m| m.detail == Some(MessageDetail::ConcurrentMapAccess)) else {
            continue;
        };
        let th = stop.crashed_thread();
        let fr = th.and_then(|t| t.frames.iter().find(|f| f.function.is_some() && !crate::roles::is_machinery(f)));
        let mut msg = format!("the Go runtime caught two goroutines using one map at once ({})", m.text.trim());
        if let Some(f) = fr {
            msg.push_str(&format!(" in {}", f.location()));
        }
        out.push(
            Finding::new(&RULE, msg)
                .at(si, th, fr.map(|f| f.index))
                .evidence(format!("stderr: {}", m.text.trim()), Some(m.span))
                .step("go test -race (or go build -race) to get both stacks of the race")
                .step("guard the map with a sync.Mutex / sync.RWMutex, or use sync.Map"),
        );
    }
}
