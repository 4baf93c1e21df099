#!/usr/bin/env bash
# Whole-process throughput of the reports (issue 14, targets 1, 2 and 4), each against its
# floor measured in the same hyperfine run (the commands take turns run by run, so they share
# whatever load the machine has):
#   1. `--format json` against the text report on a ~10 MB `thread apply all bt full`
#      transcript (target: within 1.5x, and >= 300 MB/s);
#   2. the text report (>= 400 MB/s) against a memchr line scan of the same file (`wc -l`),
#      and a 1 GB transcript streamed through standard input, generated on the fly (90
#      copies of the 10 MB one through a pipe; nothing is written to disk), against
#      the same pipe into `wc -l`; its peak RSS (bounded memory);
#   4. start-up: a one-line dump (< 5 ms whole process).
#
# Usage: bench/report.sh [TRANSCRIPT]
#   default transcript: target/bench/gdb-200.bench.txt, generated with
#   `sample-traces/gen-bench.sh OUT 200 155` (200 threads, 155 levels: ~11 MB, ~5 s) when
#   missing.
# Env:  RUNS (default 20) runs per command; BASELINE=path/to/older/tracecheck to time an
#       older build alongside; COPIES (default 90) copies for the streamed run.
# Needs hyperfine (apt-get install hyperfine) and python3.
#
# The machine this was written on is 2 cores shared with other work: wall times there are
# inflated by waiting for a core, so the summary gives MB/s from the fastest run and from
# user + system CPU time (what the process itself spent) beside the mean.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
runs=${RUNS:-20}
copies=${COPIES:-90}
input=${1:-$root/target/bench/gdb-200.bench.txt}
input=$(realpath -m "$input")
if [[ ! -f $input ]]; then
    mkdir -p "$(dirname "$input")"
    sample-traces/gen-bench.sh "$input" 200 155
fi
cargo build -q --release
tc=$root/target/release/tracecheck
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
size=$(stat -c %s "$input")

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== input: $input ($size bytes, $(grep -c '^Thread [0-9]* (Thread ' "$input") thread backtraces)"

cmds=("$tc $input" "$tc -f json $input" "wc -l $input")
names=("text" "json" "memchr line scan (wc -l)")
if [[ -n ${BASELINE:-} ]]; then
    cmds+=("$BASELINE $input" "$BASELINE -f json $input")
    names+=("text (baseline)" "json (baseline)")
fi
args=()
for i in "${!cmds[@]}"; do args+=(-n "${names[$i]}" "${cmds[$i]}"); done
hyperfine -N -i -w 3 -r "$runs" --export-json "$out/10mb.json" "${args[@]}" >/dev/null 2>&1

# The streamed run: a pipe, so hyperfine needs a shell.
one="$out/one.txt"
echo '#0  0x0000555555555155 in session_bytes (s=0x0) at src/null-field.c:23' >"$one"
gen="for i in \$(seq $copies); do cat '$input'; done"
hyperfine -i -w 1 -r 3 --export-json "$out/1gb.json" \
    -n "text, streamed from a pipe" "$gen | $tc - >/dev/null" \
    -n "memchr line scan (wc -l) on the same pipe" "$gen | wc -l >/dev/null" >/dev/null 2>&1
rss=$(bash -c "$gen" | TRACECHECK_REPORT_PEAK_RSS=1 "$tc" - 2>&1 >/dev/null | sed -n "s/.*peak RSS \([0-9]*\) kB.*/\1/p" || true)
hyperfine -N -i -w 5 -r 50 --export-json "$out/one.json" -n "one-line dump" "$tc $one" >/dev/null 2>&1

python3 - "$out" "$size" "$copies" "$rss" <<'EOF'
import json, sys
out, size, copies, rss = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4] or 0)
def table(name, nbytes):
    rows = json.load(open(f"{out}/{name}.json"))["results"]
    print(f"{'command':44} {'mean':>9} {'min':>9} {'user+sys':>9}   MB/s: {'min':>6} {'cpu':>6}")
    res = {}
    for r in rows:
        cpu = r["user"] + r["system"]
        res[r["command"]] = (r["mean"], r["min"], cpu)
        print(f"{r['command']:44} {r['mean']*1e3:8.1f}ms {r['min']*1e3:8.1f}ms {cpu*1e3:8.1f}ms        "
              f"{nbytes/r['min']/1e6:6.0f} {nbytes/cpu/1e6:6.0f}")
    return res
print(f"\n-- {size/1e6:.1f} MB transcript, whole process")
r = table("10mb", size)
t, j = r["text"], r["json"]
print(f"json / text: mean {j[0]/t[0]:.2f}x, min {j[1]/t[1]:.2f}x, cpu {j[2]/t[2]:.2f}x (target <= 1.5x)")
print(f"json: {size/j[1]/1e6:.0f} MB/s (min), {size/j[2]/1e6:.0f} MB/s (cpu) (target >= 300)")
print(f"text: {size/t[1]/1e6:.0f} MB/s (min), {size/t[2]/1e6:.0f} MB/s (cpu) (target >= 400)")
if "json (baseline)" in r:
    b = r["json (baseline)"]
    print(f"json, baseline / now: mean {b[0]/j[0]:.2f}x, cpu {b[2]/j[2]:.2f}x")
big = size * copies
print(f"\n-- {big/1e9:.2f} GB streamed through a pipe ({copies} copies), whole pipeline (cat included)")
r = table("1gb", big)
print(f"peak RSS of tracecheck: {rss/1024:.0f} MiB ({rss*1024/big*100:.1f} % of the input)")
print("\n-- start-up")
r = table("one", 1)
o = r["one-line dump"]
print(f"one-line dump: mean {o[0]*1e3:.2f} ms, min {o[1]*1e3:.2f} ms (target < 5 ms)")
EOF
