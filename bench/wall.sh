#!/usr/bin/env bash
# Wall time (what a user waits for) of the text and JSON reports of the bench transcript,
# with the floor and the one-core run of the same build in the same hyperfine run, and the
# load average before and after (the machine is shared: a figure taken at load 10 on 2 cores
# says little about an idle machine; compare instruction counts for before/after claims).
# docs/performance.md, "2e".
#
# Usage: bench/wall.sh [TRACECHECK] [FILE]      env: RUNS (default 40), BASELINE (an older build)
# Needs hyperfine.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$(realpath "${1:-$root/target/release/tracecheck}")
file=${2:-$root/target/bench/gdb-200.bench.txt}
[[ -f $file ]] || bash "$root/sample-traces/gen-bench.sh" "$file" 200 155
runs=${RUNS:-40}
mb=$(awk -v s="$(stat -c %s "$file")" 'BEGIN { printf "%.2f", s / 1e6 }')
echo "input $file: $mb MB; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in text json; do
    f=()
    [[ $mode == json ]] && f=(-f json)
    cmds=(-n "floor: wc -l" "wc -l $file" -n "tracecheck" "$bin --fail-on never ${f[*]} $file"
        -n "tracecheck, one core (TRACECHECK_THREADS=1)" "env TRACECHECK_THREADS=1 $bin --fail-on never ${f[*]} $file")
    [[ -n ${BASELINE:-} ]] && cmds+=(-n "baseline" "$(realpath "$BASELINE") --fail-on never ${f[*]} $file")
    hyperfine -N -w 5 -r "$runs" --export-json "/tmp/wall-$$-$mode.json" "${cmds[@]}" >/dev/null
    python3 - "/tmp/wall-$$-$mode.json" "$mb" "$mode" <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1])); mb = float(sys.argv[2])
for r in d["results"]:
    t = sorted(r["times"]); med = statistics.median(t) * 1e3; best = t[0] * 1e3
    cpu = (r["user"] + r["system"]) * 1e3
    print(f"{sys.argv[3]:5} {r['command'][-44:]:44} wall median {med:6.1f} ms ({mb / med * 1e3:4.0f} MB/s), "
          f"best {best:6.1f} ms ({mb / best * 1e3:4.0f} MB/s), mean user+sys {cpu:5.1f} ms")
PY
    rm -f "/tmp/wall-$$-$mode.json"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
