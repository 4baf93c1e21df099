#!/usr/bin/env python3
"""CPU time (user + system, from wait4's rusage) and page faults of whole-process commands,
run in turn (A, B, C, A, B, C, ...) so that they share the machine's load; two warm-up
rounds are dropped. On a shared machine the wall time waits for a core; the CPU time is
what the process itself spent (docs/performance.md, "2d").

Usage: bench/cpu.py RUNS -- 'CMD A' ';;' 'CMD B' ...     (`< FILE` in a command feeds stdin)
Example: bench/cpu.py 30 -- "$OLD $T ;; target/release/tracecheck $T"
"""
import os
import shlex
import statistics
import subprocess
import sys

runs = int(sys.argv[1])
cmds = [shlex.split(c) for c in " ".join(sys.argv[3:]).split(";;")]
res = {i: [] for i in range(len(cmds))}
for r in range(runs + 2):
    for i, c in enumerate(cmds):
        stdin = None
        if "<" in c:
            k = c.index("<")
            stdin = open(c[k + 1], "rb")
            c = c[:k]
        p = subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=stdin)
        _, _, ru = os.wait4(p.pid, 0)
        if stdin:
            stdin.close()
        if r >= 2:
            res[i].append((ru.ru_utime * 1e3, ru.ru_stime * 1e3, ru.ru_minflt))
print(f"load {open('/proc/loadavg').read().split()[:3]}, {runs} runs each")
for i, c in enumerate(cmds):
    u = [x[0] for x in res[i]]
    s = [x[1] for x in res[i]]
    t = [x[0] + x[1] for x in res[i]]
    f = [x[2] for x in res[i]]
    print(f"{' '.join(c)[-60:]:60} user {statistics.median(u):5.1f} sys {statistics.median(s):5.1f} "
          f"cpu median {statistics.median(t):5.1f} mean {statistics.mean(t):5.1f} min {min(t):5.1f} ms, "
          f"page faults {int(statistics.median(f))}")
