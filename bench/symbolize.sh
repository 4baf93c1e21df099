#!/usr/bin/env bash
# Symbolization benchmark: `tracecheck symbolize` against binutils addr2line,
# llvm-symbolizer and the addr2line crate's example tool, on a large DWARF binary.
#
# Usage: bench/symbolize.sh [BINARY]
#   BINARY defaults to bench/bigbin built with full debug info (about 1-3 minutes to
#   build the first time; needs crates.io). Needs binutils, llvm (llvm-symbolizer),
#   python3, GNU time; the addr2line crate tool is installed into $A2L_ROOT with
#   `cargo install addr2line --features bin` when missing.
#
# Prints: DWARF size, correctness against binutils on 100,000 addresses, and
# wall time + peak RSS for each tool on 1,000 and 100,000 addresses (start-up included).
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
for t in addr2line llvm-symbolizer python3 /usr/bin/time; do
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

measure() {  # name, input, command...  (best of 3 runs, page cache warm)
    local name=$1 input=$2; shift 2
    local best="" bkb=0
    for _ in 1 2 3; do
        /usr/bin/time -f "%e %M" -o "$work/time" "$@" <"$input" >/dev/null
        read -r secs kb <"$work/time"
        if [[ -z $best ]] || python3 -c "import sys; sys.exit(0 if $secs < $best else 1)"; then best=$secs; fi
        ((kb > bkb)) && bkb=$kb
    done
    printf '  %-22s %8.2f s  %8d MB peak RSS\n' "$name" "$best" $((bkb / 1024))
}
cat "$bin" >/dev/null
for n in 1k 100k; do
    echo "$n addresses (-a -f -i -C; start-up included):"
    measure "tracecheck symbolize" "$work/addrs$n.txt" "$tc" symbolize -a -f -i -C -e "$bin"
    [[ $n == 1k || ${BINUTILS_100K:-0} == 1 ]] && measure "binutils addr2line" "$work/addrs$n.txt" addr2line -a -f -i -C -e "$bin"
    measure "llvm-symbolizer" "$work/addrs$n.txt" llvm-symbolizer --obj="$bin" --output-style=GNU -a -f -i -C
    measure "addr2line crate" "$work/addrs$n.txt" "$a2l_crate" -a -f -i -C -e "$bin"
done
