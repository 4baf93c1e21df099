#!/usr/bin/env bash
# Runs every performance measurement of docs/performance.md and prints the tables.
#
# Usage: bench/run.sh [TRANSCRIPT]
#   default transcript: target/bench/gdb-3000.bench.txt, generated with
#   sample-traces/gen-bench.sh (3000 threads, depth 48, ~60 MB, ~30 s) when missing.
# Env:   TRACECHECK_BENCH_ITERS  iterations per tracecheck measurement (default 9)
#        CASR_ITERS              libcasr runs (default 1; one run takes ~30-50 s)
#        SKIP_CASR=1             skip the libcasr comparison (it builds a separate crate)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

input=${1:-$root/target/bench/gdb-3000.bench.txt}
input=$(realpath -m "$input")
if [[ ! -f $input ]]; then
    mkdir -p "$(dirname "$input")"
    echo "== generating $input with sample-traces/gen-bench.sh"
    sample-traces/gen-bench.sh "$input"
fi

echo "== machine"
echo "date:   $(date -u '+%Y-%m-%d %H:%M UTC')"
if git rev-parse --git-dir >/dev/null 2>&1; then
    echo "commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- src benches examples bench Cargo.toml || echo ' (+ uncommitted changes)')"
else
    echo "commit: (not a git checkout: $root)"
fi
echo "cpu:    $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
echo "rustc:  $(rustc --version)"
echo "load:   $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min; other work on the machine skews medians)"
echo "input:  $input ($(stat -c %s "$input") bytes)"
echo

echo "== cargo bench --bench parse  (parse, memchr baseline, rules, renderers)"
cargo bench -q --bench parse -- "$input" 2>&1 | grep -v '^warning: unused'
echo

echo "== peak memory (examples/parse_mem.rs, separate process)"
cargo build -q --release --example parse_mem
"$root/target/release/examples/parse_mem" "$input"
if [[ -x /usr/bin/time ]]; then
    rss_kb=$(/usr/bin/time -f '%M' "$root/target/release/examples/parse_mem" "$input" 2>&1 >/dev/null | tail -n1)
    size=$(stat -c %s "$input")
    awk -v k="$rss_kb" -v s="$size" 'BEGIN { printf "/usr/bin/time max RSS: %.1f MB = %.2fx input\n", k * 1024 / 1e6, k * 1024 / s }'
fi
echo

if [[ ${SKIP_CASR:-0} != 1 ]]; then
    echo "== libcasr side by side (bench/casr-compare, separate crate; first build takes ~2 min)"
    (cd bench/casr-compare && cargo build -q --release)
    "$root/bench/casr-compare/target/release/casr-compare" "$input" "${CASR_ITERS:-1}" 5
fi
