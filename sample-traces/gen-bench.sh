#!/usr/bin/env bash
# Generate a large gdb transcript for benchmarking tracecheck's parser.
#
# Usage: sample-traces/gen-bench.sh OUT.txt [NTHREADS [DEPTH]]
#   defaults: NTHREADS=3000, DEPTH=48  ->  roughly 55-60 MB, ~30 s on 2 cores
#
# Builds src/bench-threads.c into build/, runs it under gdb in batch mode with
# gdb/bench.gdb (run, bt, info registers, p $_siginfo, x/6i $pc,
# thread apply all bt full) and writes stdout+stderr to OUT.txt.  The program
# starts NTHREADS threads with 64 KiB stacks; each recurses DEPTH frames
# through four functions with locals, then all but one block on a barrier; the
# last one ("crasher") writes through NULL -> SIGSEGV.
# The output is NOT committed (*.bench.txt and build/ are gitignored).
set -euo pipefail

if (($# < 1)); then
    echo "usage: $0 OUT.txt [NTHREADS [DEPTH]]" >&2
    exit 2
fi
out=$(realpath -m "$1")
nthreads=${2:-3000}
depth=${3:-48}

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"

# Thread limits: each thread needs a task slot and two mappings (stack + guard).
maxproc=$(ulimit -u)
if [[ $maxproc != unlimited ]] && ((maxproc < nthreads + 64)); then
    echo "gen-bench.sh: ulimit -u is $maxproc, need > $nthreads threads" >&2
    exit 1
fi
threads_max=$(cat /proc/sys/kernel/threads-max 2>/dev/null || echo 0)
if ((threads_max && threads_max < nthreads + 64)); then
    echo "gen-bench.sh: kernel.threads-max is $threads_max, too small" >&2
    exit 1
fi

mkdir -p build
gcc -O0 -g -pthread src/bench-threads.c -o build/bench-threads

start=$(date +%s.%N)
env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C \
    gdb -q -batch -nx -x gdb/bench.gdb --args build/bench-threads "$nthreads" "$depth" \
    >"$out" 2>&1 </dev/null || true
end=$(date +%s.%N)

size=$(stat -c %s "$out")
nthr=$(grep -c '^Thread [0-9]* (Thread ' "$out" || true)
awk -v f="$out" -v s="$size" -v n="$nthr" -v a="$start" -v b="$end" 'BEGIN {
    printf "gen-bench.sh: wrote %s: %d bytes (%.1f MB), %d thread backtraces, gdb took %.1f s\n", f, s, s / 1e6, n, b - a
}' >&2

if ! grep -q '"crasher" received signal SIGSEGV' "$out"; then
    echo "gen-bench.sh: the crasher thread did not fault as expected; see $out" >&2
    exit 1
fi
if grep -q 'pthread_create #[0-9]* failed' "$out"; then
    echo "gen-bench.sh: thread creation failed; see $out" >&2
    exit 1
fi
if ((nthr < nthreads)); then
    echo "gen-bench.sh: expected $nthreads thread backtraces, found $nthr" >&2
    exit 1
fi
