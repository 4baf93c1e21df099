#!/usr/bin/env python3
"""Runs tracecheck over the states sweep.sh wrote and lists every finding (on a legal state,
each one is a false finding unless the rule is right about the sent signal). The twins are also
read as pasted without `p $_siginfo` (nothing then says the signal was sent).

  check.py TRACECHECK OUTDIR [--jobs 2] [--no-exe] [--twins]
      writes OUTDIR/findings-<name of TRACECHECK>.tsv and prints a summary by rule and by cause
      (--twins: the twins only; --no-exe: not the transcript with --exe)

Each state is read three ways when it can be: the transcript alone, the transcript with
`--exe` (the program's binary, from the .meta file), and gdb's core with `--exe`. A cause is
the message with its numbers and names of hex values masked, so one cause groups many states.
"""
import collections
import concurrent.futures
import json
import os
import re
import subprocess
import sys


def findings_of(doc):
    out = []
    if isinstance(doc, dict):
        for f in doc.get("findings", []) or []:
            if isinstance(f, dict) and "rule" in f:
                out.append((f["rule"], f.get("severity", "?"), f.get("message", "")))
        for k, v in doc.items():
            if k != "findings":
                out += findings_of(v)
    elif isinstance(doc, list):
        for v in doc:
            out += findings_of(v)
    return out


def run_tc(tc, args):
    try:
        p = subprocess.run([tc, "--format", "json"] + args, capture_output=True, timeout=120)
    except subprocess.TimeoutExpired:
        return [("TIMEOUT", "error", " ".join(args))]
    if p.returncode not in (0, 1, 2):
        return [("CRASH", "error", "exit %d: %s" % (p.returncode, p.stderr[-300:].decode("utf-8", "replace")))]
    try:
        return findings_of(json.loads(p.stdout))
    except ValueError:
        return [("BADJSON", "error", p.stderr[-300:].decode("utf-8", "replace"))]


def meta(path):
    m = {}
    try:
        for line in open(path):
            k, _, v = line.rstrip("\n").partition("=")
            m[k] = v
    except OSError:
        pass
    return m


def check(tc, states, name, use_exe):
    base = os.path.join(states, name)
    m = meta(base + ".meta")
    exe = m.get("exe", "")
    res = []
    reads = [0]

    def run(tc, args):
        reads[0] += 1
        return run_tc(tc, args)

    text_file = base + (".lldb.txt" if os.path.isfile(base + ".lldb.txt") else ".gdb.txt")
    if not os.path.isfile(text_file):  # a core alone (gcore of a live process, fifth pass)
        text_file = None
        use_exe = False
    for r in run(tc, [text_file]) if text_file else []:
        res.append((name, "transcript") + r)
    if m.get("twin"):
        # The twin as many users paste it, without `p $_siginfo`: nothing tells that the
        # signal was sent, the stop line reads like a crash's.
        text = open(text_file, encoding="utf-8", errors="replace").read().split("\n")
        cut, skip = [], False
        for line in text:
            if line == "(gdb) p $_siginfo":
                skip = True
                continue
            if skip and line.startswith("$") and "si_signo" in line:
                skip = False
                continue
            skip = False
            cut.append(line)
        with open(base + ".nosiginfo.txt", "w") as f:
            f.write("\n".join(cut))
        for r in run(tc, [base + ".nosiginfo.txt"]):
            res.append((name, "nosiginfo") + r)
    if use_exe and exe and os.path.isfile(exe):
        for r in run(tc, [text_file, "--exe", exe]):
            res.append((name, "transcript+exe") + r)
    if os.path.isfile(base + ".core"):
        args = [base + ".core"] + (["--exe", exe] if exe and os.path.isfile(exe) else [])
        for r in run(tc, args):
            res.append((name, "core") + r)
    return name, m, res, reads[0]


def cause(msg):
    msg = re.sub(r"0x[0-9a-fA-F]+", "0x…", msg)
    msg = re.sub(r"\b\d+\b", "N", msg)
    return msg[:150]


def main():
    a = sys.argv[1:]
    jobs = 2
    use_exe = True
    if "--jobs" in a:
        i = a.index("--jobs"); jobs = int(a[i + 1]); del a[i:i + 2]
    if "--twins" in a:
        a.remove("--twins")
    if "--no-exe" in a:
        a.remove("--no-exe"); use_exe = False
    tc, out = a[0], a[1]
    states = os.path.join(out, "states")
    names = sorted({f[:-8] if f.endswith(".gdb.txt") else f[:-9] if f.endswith(".lldb.txt") else f[:-5]
                    for f in os.listdir(states)
                    if f.endswith(".gdb.txt") or f.endswith(".lldb.txt") or f.endswith(".core")})
    if "--twins" in sys.argv:
        names = [n for n in names if meta(os.path.join(states, n + ".meta")).get("twin")]
    rows, metas, readings = [], {}, 0
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for name, m, res, k in ex.map(lambda n: check(tc, states, n, use_exe), names):
            metas[name] = m
            rows += res
            readings += k
    with open(os.path.join(out, "findings-%s.tsv" % os.path.basename(tc)), "w") as f:
        for r in rows:
            f.write("\t".join(x.replace("\t", " ").replace("\n", " ") for x in r) + "\n")
    twins = sum(1 for m in metas.values() if m.get("twin"))
    cores = sum(1 for n in names if os.path.isfile(os.path.join(states, n + ".core")))
    progs = sorted({n.rsplit("-", 1)[0] for n in names})
    print("%d states (%d twins, %d cores) of %d programs, %d readings" % (len(names), twins, cores, len(progs), readings))
    alarms = [r for r in rows if r[3] in ("warning", "error")]
    print("warnings and errors: %d on %d readings" % (len(alarms), len({(r[0], r[1]) for r in alarms})))
    by_rule = collections.Counter((r[2], r[3]) for r in rows)
    states_by_rule = collections.defaultdict(set)
    for r in rows:
        states_by_rule[r[2]].add(r[0])
    print("findings by rule (rule, severity: findings / states):")
    for (rule, sev), k in sorted(by_rule.items(), key=lambda x: -x[1]):
        print("  %-24s %-8s %5d / %d" % (rule, sev, k, len(states_by_rule[rule])))
    print("causes:")
    causes = collections.defaultdict(list)
    for r in rows:
        causes[(r[2], cause(r[4]))].append(r[0] + ":" + r[1])
    for (rule, c), where in sorted(causes.items(), key=lambda x: -len(x[1])):
        print("  %4d %s: %s   e.g. %s" % (len(where), rule, c, " ".join(where[:3])))


if __name__ == "__main__":
    main()
