#!/usr/bin/env python3
"""ClusterFuzz's StackParser (pip package `clusterfuzz`) on the same CI logs as
bench/casr-compare's triage_peer: parse every log, keep the crash state (its top-3-frame
signature) of the ones it recognizes, group by (crash type, crash state)."""
import os, sys, time
from clusterfuzz.stacktraces import StackParser

d = sys.argv[1]
paths = sorted(os.path.join(d, p) for p in os.listdir(d))
logs = [open(p, encoding="utf-8", errors="replace").read() for p in paths]
mb = sum(len(l) for l in logs) / 1e6
parser = StackParser(symbolized=True)
t = time.perf_counter()
groups = {}
crashes = 0
for text in logs:
    info = parser.parse(text)
    if info.crash_state:
        crashes += 1
        key = (info.crash_type, info.crash_state)
        groups[key] = groups.get(key, 0) + 1
dt = time.perf_counter() - t
print(f"clusterfuzz StackParser (1 thread): {dt:.2f} s for {len(logs)} logs ({mb:.0f} MB) = {len(logs) / dt * 60:.0f} logs/min; "
      f"{crashes} with a crash state, {len(groups)} distinct (type, state)")
for (ty, st), n in sorted(groups.items(), key=lambda x: -x[1])[:8]:
    print(f"  {n:6d}  {ty.strip()!r}  {st.strip()!r}")
