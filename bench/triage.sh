#!/usr/bin/env bash
# Triage throughput and memory (docs/triage.md, "Performance"). Inputs are generated on the
# fly under target/bench/ and deleted afterwards; nothing generated is committed.
#
#   1. in memory: examples/triage_bench generates N typical CI logs (~200 KB, a real crash
#      transcript in 1 of 4) and indexes them into SQLite: the triage pipeline without reads.
#   2. end to end: the same generator writes FILES logs to disk and `tracecheck triage DIR`
#      indexes them (reads, hashing, parsing, SQLite, clustering); wall time and peak RSS.
#   3. memory at 100,000 inputs: step 1 with 100,000 smaller (20 KB) logs.
#   4. peers on PEER_FILES of the same logs, one thread each: libcasr (bench/casr-compare,
#      triage_peer) and ClusterFuzz's StackParser (pip package clusterfuzz).
#
# Env: N (10000), FILES (1000; needs FILES x 200 KB of disk), PEER_FILES (40), SKIP_CASR=1,
#      SKIP_CLUSTERFUZZ=1, SKIP_100K=1. The libcasr peer builds bench/casr-compare in
#      target/casr (~500 MB of release artifacts; check free disk first).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
N=${N:-10000}; FILES=${FILES:-1000}; PEER_FILES=${PEER_FILES:-40}
work=$root/target/bench/triage
rm -rf "$work"; mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

echo "== machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
cargo build -q --release --bin tracecheck --example triage_bench
bench=$root/target/release/examples/triage_bench

echo "== 1. in memory: $N logs into SQLite"
"$bench" run "$N" "$work/mem.sqlite"

echo "== 2. end to end: $FILES files, tracecheck triage DIR"
"$bench" write "$FILES" "$work/logs"
du -sh "$work/logs" | sed 's/^/size: /'
/usr/bin/time -f 'wall %e s, peak RSS %M KB' "$root/target/release/tracecheck" triage --db "$work/e2e.sqlite" "$work/logs" | head -n 1
echo "(that is $FILES files / wall time; per minute: see the wall time above)"

if [[ ${SKIP_100K:-0} != 1 ]]; then
    echo "== 3. 100,000 inputs (20 KB each) in memory"
    "$bench" run 100000 "$work/100k.sqlite" 20 4
fi

mkdir -p "$work/peer"
ls "$work/logs" | head -n "$PEER_FILES" | while read -r f; do ln "$work/logs/$f" "$work/peer/$f"; done
echo "== 4. tracecheck triage -j 1 on $PEER_FILES logs"
/usr/bin/time -f 'wall %e s, peak RSS %M KB' "$root/target/release/tracecheck" triage -j 1 --db "$work/peer.sqlite" "$work/peer" | head -n 1
if [[ ${SKIP_CASR:-0} != 1 ]]; then
    echo "== 4a. libcasr side by side on $PEER_FILES logs"
    (cd bench/casr-compare && CARGO_TARGET_DIR=$root/target/casr cargo run -q --release --bin triage_peer -- "$work/peer")
fi
if [[ ${SKIP_CLUSTERFUZZ:-0} != 1 ]]; then
    echo "== 4b. ClusterFuzz StackParser on $PEER_FILES logs"
    if python3 -c 'import clusterfuzz.stacktraces' 2>/dev/null; then
        python3 bench/clusterfuzz_peer.py "$work/peer"
    else
        echo "clusterfuzz not installed (pip install clusterfuzz); skipped"
    fi
fi
