#!/usr/bin/env bash
# Symbolization benchmark: `tracecheck symbolize` against binutils addr2line,
# llvm-symbolizer and the addr2line crate's example tool, on a large DWARF binary.
#
# Usage: bench/symbolize.sh [BINARY]
#   BINARY defaults to bench/bigbin built with full debug info (about 4 minutes to
#   build the first time, into $WORK/bigbin-target; needs crates.io). Pass an already
#   built bigbin to skip that. Needs binutils, llvm (llvm-symbolizer), python3; the
#   addr2line crate tool is installed into $A2L_ROOT with
#   `cargo install addr2line --features bin` when missing.
#   RUNS (default 3): runs per tool; the best wall time is kept.
#   TC_BASELINE: another tracecheck binary (an older build) to time alongside.
#
# Prints: DWARF size, correctness against binutils on 100,000 addresses, and wall time +
# peak RSS for each tool on 1,000 and 100,000 addresses (whole process, start-up
# included), the tools taking turns run by run so that they share the machine's load;
# then the 1,000-address speed-up over binutils addr2line against the 10x criterion,
# and the load average before and after.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
work=${WORK:-/tmp/tracecheck-bench}
A2L_ROOT=${A2L_ROOT:-/tmp/a2l-crate}
mkdir -p "$work"

cargo build --release --manifest-path "$here/Cargo.toml" -q
tc="$here/target/release/tracecheck"

bin=${1:-}
if [[ -z $bin ]]; then
    CARGO_TARGET_DIR="$work/bigbin-target" cargo build -q --manifest-path "$here/bench/bigbin/Cargo.toml"
    bin="$work/bigbin-target/debug/bigbin"
fi
if [[ ! -x $A2L_ROOT/bin/addr2line ]]; then
    cargo install -q addr2line --version 0.27.1 --features bin --root "$A2L_ROOT"
fi
a2l_crate="$A2L_ROOT/bin/addr2line"
for t in addr2line llvm-symbolizer python3; do
    command -v "$t" >/dev/null || { echo "symbolize.sh: $t not found" >&2; exit 1; }
done

dwarf=$(size -A "$bin" | awk '/^\.debug/ {s+=$2} END {printf "%.1f", s/1048576}')
echo "binary: $bin ($(du -m "$bin" | cut -f1) MB, DWARF ${dwarf} MiB)"

# 100,000 addresses spread over .text (fixed seed), and the first 1,000 of them.
read -r text_addr text_size < <(readelf -SW "$bin" | awk '$2==".text" {print $4, $6}')
python3 - "$text_addr" "$text_size" "$work" <<'PY'
import random, sys
a, s, w = int(sys.argv[1], 16), int(sys.argv[2], 16), sys.argv[3]
r = random.Random(1)
xs = ["0x%x" % (a + r.randrange(s)) for _ in range(100000)]
open(w + "/addrs100k.txt", "w").write("\n".join(xs) + "\n")
open(w + "/addrs1k.txt", "w").write("\n".join(xs[:1000]) + "\n")
PY

# Correctness: same answers as binutils, modulo the deliberate discriminator difference.
"$tc" symbolize -a -f -i -C -e "$bin" <"$work/addrs100k.txt" >"$work/tc.out"
addr2line -a -f -i -C -e "$bin" <"$work/addrs100k.txt" >"$work/binutils.out"
python3 - "$work" <<'PY'
import re, sys
w = sys.argv[1]
def answers(path):
    out, cur = [], None
    for line in open(path, errors="replace"):
        line = re.sub(r" \(discriminator \d+\)$", "", line.rstrip("\n"))
        if re.fullmatch(r"0x[0-9a-f]{16}", line):
            cur = [line]; out.append(cur)
        elif cur is not None:
            cur.append(line)
    return out
a, b = answers(w + "/tc.out"), answers(w + "/binutils.out")
diff = [(x, y) for x, y in zip(a, b) if x != y]
print(f"agreement with binutils addr2line: {len(a) - len(diff)}/{len(a)} addresses identical"
      + (f" (answers: {len(a)} vs {len(b)})" if len(a) != len(b) else ""))
for x, y in diff[:5]:
    print("  tracecheck:", " | ".join(x)); print("  binutils:  ", " | ".join(y))
PY

# Side by side: each round runs every tool once (in turn) on warm caches; best wall time
# (perf_counter) and peak RSS (wait4) per tool. Tools: NAME=COMMAND lines on stdin.
measure() {  # input-file label
    python3 -c '
import os, shlex, subprocess, sys, time
inp, label, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
tools = [l.split("=", 1) for l in sys.stdin.read().splitlines() if l.strip()]
best = {n: (float("inf"), 0) for n, _ in tools}
for _ in range(runs):
    for name, cmd in tools:
        with open(inp, "rb") as f, open(os.devnull, "wb") as null:
            t = time.perf_counter()
            p = subprocess.Popen(shlex.split(cmd), stdin=f, stdout=null)
            _, status, ru = os.wait4(p.pid, 0)
            wall = time.perf_counter() - t
        if status != 0:
            sys.exit(f"{name} failed ({status})")
        w, rss = best[name]
        best[name] = (min(w, wall), max(rss, ru.ru_maxrss))
print(f"{label} addresses (-a -f -i -C; whole process, best of {runs}):")
for name, _ in tools:
    w, rss = best[name]
    print(f"  {name:22s} {w:8.3f} s  {rss // 1024:6d} MB peak RSS")
tc, bu = best.get("tracecheck symbolize"), best.get("binutils addr2line")
if tc and bu:
    x = bu[0] / tc[0]
    verdict = ("met" if x >= 10 else "NOT met") if label == "1k" else ""
    print(f"  tracecheck vs binutils: {x:.1f}x faster" + (f" (criterion >= 10x at 1,000 addresses: {verdict})" if verdict else ""))
' "$1" "$2" "${RUNS:-3}"
}
cat "$bin" >/dev/null
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
baseline=${TC_BASELINE:+"tracecheck baseline=$TC_BASELINE symbolize -a -f -i -C -e $bin"}
measure "$work/addrs1k.txt" 1k <<TOOLS
tracecheck symbolize=$tc symbolize -a -f -i -C -e $bin
$baseline
binutils addr2line=addr2line -a -f -i -C -e $bin
llvm-symbolizer=llvm-symbolizer --obj=$bin --output-style=GNU -a -f -i -C
addr2line crate=$a2l_crate -a -f -i -C -e $bin
TOOLS
measure "$work/addrs100k.txt" 100k <<TOOLS
tracecheck symbolize=$tc symbolize -a -f -i -C -e $bin
$baseline
$([[ ${BINUTILS_100K:-0} == 1 ]] && echo "binutils addr2line=addr2line -a -f -i -C -e $bin")
llvm-symbolizer=llvm-symbolizer --obj=$bin --output-style=GNU -a -f -i -C
addr2line crate=$a2l_crate -a -f -i -C -e $bin
TOOLS
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
