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

**Why it matters** Races make crashes intermittent and values wrong; the two stacks name the unsynchronized code.

Also Go's own map check: `fatal error: concurrent map writes` (`… map read and map write`,
`… map iteration and map write`), which the runtime raises without the race detector; the
finding names the goroutine that noticed (the other party is not in the report).

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
    go_map_race(cx, out);
}

/// Go's runtime checks map accesses for concurrent writers (a flag in the map header) and dies
/// with `fatal error: concurrent map writes` (or `… map read and map write`, `… map iteration
/// and map write`): a race it detected, without the race detector. One finding per input,
/// at the first stop that carries the message (a debugger's SIGABRT after it is the same
/// crash).
fn go_map_race(cx: &RuleContext<'_>, out: &mut Vec<Finding>) {
    for (si, stop) in cx.stops() {
        let Some(m) = stop.messages.iter().find(|m| m.detail == Some(MessageDetail::GoMapRace)) else {
            continue;
        };
        let culprit = cx.named_culprit(stop);
        let mut msg = format!("data race on a Go map, detected by the runtime (\"{}\")", m.text);
        if let Some((_, f)) = culprit {
            msg.push_str(&format!(" in {}", f.location()));
        }
        msg.push_str(": two goroutines used one map without a lock, at least one of them writing; the report shows the goroutine that noticed, not the other one");
        let mut f = Finding::new(&RULE, msg).rank(85);
        f.stop = Some(si);
        if let Some((th, fr)) = culprit {
            f.thread = Some(th.id.to_string());
            f.frame = Some(fr.index);
        }
        f = if m.from_memory {
            f.evidence(format!("in the core's memory (the string runtime.throw/runtime.fatal was given; a core holds no stderr): {}", m.text), None)
        } else {
            f.evidence(format!("stderr: {}", m.text), Some(m.span))
        };
        if let Some((_, fr)) = culprit {
            f = f.evidence(format!("culprit: #{} {}", fr.index, fr.location()), Some(fr.span));
        }
        f = f
            .step("go run -race / go test -race: the race detector names both goroutines and their stacks")
            .step("guard the map with a sync.Mutex (or sync.RWMutex), or use sync.Map");
        out.push(f);
        return;
    }
}
