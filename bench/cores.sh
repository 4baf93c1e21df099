#!/usr/bin/env bash
# Cores (issue 14, target 3): tracecheck against
#   gdb -batch -ex 'thread apply all bt' -ex 'info registers' BIN CORE
# on the cores of tests/core_vs_gdb.rs (the same programs, built the same way; their sources
# are taken from that file), whole process, the two commands taking turns in one hyperfine
# run. That test decides that the frames are the same; this script only times.
#
# Cores: threads (gcc -O2 -g, 3 threads, inlined frames, libc with its separate debug file
# from /usr/lib/debug when libc6-dbg is installed), stripped (the same program stripped, its
# debug info in a build-id directory), rust (rustc -g).
#
# tracecheck runs three ways (docs/performance.md, "3g"): without the DWARF cache
# (TRACECHECK_CACHE=off: every run inflates libc's compressed debug sections, as a first run
# does), with a cold cache (emptied before each run: inflates and writes the cache) and with a
# warm one (what every later run on the same libc does).
#
# Usage: bench/cores.sh        Env: RUNS (default 10), BASELINE=older tracecheck binary,
#        TRACECHECK=a built binary to time (default: cargo build --release).
#        SAME_OUTPUT=1 (with BASELINE): instead of timing, compare the two builds' output
#        byte for byte (text, -v, JSON, markdown) on the three cores and the transcript, the
#        new build without the cache, with a cold one and with a warm one; exits 1 if any
#        output differs.
# Needs gcc, gdb, binutils, rustc, hyperfine, python3.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${RUNS:-10}
if [[ -n ${TRACECHECK:-} ]]; then
    tc=$(realpath "$TRACECHECK")
else
    cargo build -q --release --manifest-path "$root/Cargo.toml"
    tc=$root/target/release/tracecheck
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"

src_of() { # the raw string constant $1 of tests/core_vs_gdb.rs
    sed -n "/^const $1: &str = r#\"/,/^\"#;/p" "$root/tests/core_vs_gdb.rs" | sed -e "1s/^const $1: &str = r#\"//" -e '$d'
}
gdbq() { env -i PATH=/usr/bin:/bin HOME="$d" LANG=C gdb -q -batch -nx -iex 'set debuginfod enabled off' "$@"; }
crash() { gdbq -ex run -ex "gcore $1.core" "./$1" >/dev/null 2>&1 || true; test -f "$1.core"; }

src_of THREADS_C >threads.c
gcc -O2 -g -fno-optimize-sibling-calls -pthread threads.c -o threads
crash threads

cp threads prog
objcopy --only-keep-debug prog prog.debug
strip prog
id=$(readelf -n prog | sed -n 's/.*Build ID: //p' | tr -d ' ')
mkdir -p "dbg/.build-id/${id:0:2}"
mv prog.debug "dbg/.build-id/${id:0:2}/${id:2}.debug"
crash prog

# A transcript of the same program (gdb's own run, with the mappings) read with --exe: the
# transcript path's lookups in libc's debug file (docs/performance.md, "3d").
gdbq -iex 'set pagination off' -ex 'echo (gdb) run\n' -ex run -ex 'echo (gdb) thread apply all bt\n' \
    -ex 'thread apply all bt' -ex 'echo (gdb) info registers\n' -ex 'info registers' \
    -ex 'echo (gdb) info proc mappings\n' -ex 'info proc mappings' ./threads >threads.gdb.txt 2>&1 || true

src_of RUST_SRC >crash.rs
rustc -g -C opt-level=0 crash.rs -o crash 2>/dev/null
crash crash

if [[ -n ${SAME_OUTPUT:-} ]]; then
    [[ -n ${BASELINE:-} ]] || { echo "SAME_OUTPUT needs BASELINE" >&2; exit 2; }
    n=0 bad=0
    for a in "--exe threads threads.core" "--exe prog --debug-dir dbg prog.core" "--exe crash crash.core" \
        "--exe threads threads.gdb.txt"; do
        for f in "" "-v" "--format json" "--format markdown"; do
            # shellcheck disable=SC2086 # the arguments are words on purpose
            rc=0
            TRACECHECK_CACHE=off "$BASELINE" $f $a >old.out 2>&1 || rc=$?
            echo "exit $rc" >>old.out
            for how in off cold warm; do
                [[ $how == cold ]] && rm -rf "$d/cache-same"
                # shellcheck disable=SC2086
                rc=0
                if [[ $how == off ]]; then TRACECHECK_CACHE=off "$tc" $f $a >new.out 2>&1 || rc=$?; else
                    TRACECHECK_CACHE_DIR="$d/cache-same" "$tc" $f $a >new.out 2>&1 || rc=$?; fi
                echo "exit $rc" >>new.out
                n=$((n + 1))
                cmp -s old.out new.out || { bad=$((bad + 1)); echo "differs ($how cache): tracecheck $f $a"; }
            done
        done
    done
    echo "$n outputs compared, $bad differ"
    ((bad == 0))
    exit
fi

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git -C "$root" rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== libc debug file: $(ls /usr/lib/debug/.build-id/*/*.debug 2>/dev/null | wc -l) build-id files under /usr/lib/debug"
g="env -i PATH=/usr/bin:/bin HOME=$d LANG=C gdb -q -batch -nx -iex 'set debuginfod enabled off'"
bt="-ex 'thread apply all bt' -ex 'info registers'"
declare -A tcargs gdbargs
tcargs[threads]="--exe threads threads.core"
gdbargs[threads]="$bt threads threads.core"
tcargs[stripped]="--exe prog --debug-dir dbg prog.core"
gdbargs[stripped]="-iex 'set debug-file-directory $d/dbg:/usr/lib/debug' $bt prog prog.core"
tcargs[rust]="--exe crash crash.core"
gdbargs[rust]="$bt crash crash.core"
for c in threads stripped rust; do
    extra=()
    if [[ -n ${BASELINE:-} ]]; then
        extra=(--prepare true -n "$c: tracecheck (baseline)" "TRACECHECK_CACHE=off $BASELINE ${tcargs[$c]}")
    fi
    hyperfine -i -w 2 -r "$runs" --export-json "$c.json" \
        --prepare true -n "$c: gdb" "$g ${gdbargs[$c]}" \
        --prepare true -n "$c: tracecheck, no cache" "TRACECHECK_CACHE=off $tc ${tcargs[$c]}" \
        --prepare "rm -rf $d/cache-cold" -n "$c: tracecheck, cold cache" \
        "TRACECHECK_CACHE_DIR=$d/cache-cold $tc ${tcargs[$c]}" \
        --prepare true -n "$c: tracecheck, warm cache" "TRACECHECK_CACHE_DIR=$d/cache-warm $tc ${tcargs[$c]}" \
        "${extra[@]}" >/dev/null 2>&1
done
extra=()
if [[ -n ${BASELINE:-} ]]; then extra=(-n "exe: tracecheck (baseline)" "TRACECHECK_CACHE=off $BASELINE --exe threads threads.gdb.txt"); fi
hyperfine -i -w 2 -r "$runs" --export-json exe.json -n "exe: tracecheck, no cache" \
    "TRACECHECK_CACHE=off $tc --exe threads threads.gdb.txt" -n "exe: tracecheck, warm cache" \
    "TRACECHECK_CACHE_DIR=$d/cache-warm $tc --exe threads threads.gdb.txt" "${extra[@]}" >/dev/null 2>&1
python3 - <<'EOF'
import json
print(f"{'command':36} {'mean':>9} {'min':>9} {'user+sys':>9}")
for c in ["threads", "stripped", "rust"]:
    rows = {r["command"]: r for r in json.load(open(f"{c}.json"))["results"]}
    for k, r in rows.items():
        print(f"{k:36} {r['mean']*1e3:8.1f}ms {r['min']*1e3:8.1f}ms {(r['user']+r['system'])*1e3:8.1f}ms")
    g = rows[f"{c}: gdb"]
    for how in ["no cache", "cold cache", "warm cache"]:
        t = rows[f"{c}: tracecheck, {how}"]
        print(f"  {c}, {how}: tracecheck is {g['mean']/t['mean']:.1f}x faster (mean), {g['min']/t['min']:.1f}x (min), "
              f"{(g['user']+g['system'])/(t['user']+t['system']):.1f}x (cpu); target 10x")
print("transcript of the threads program read with --exe (no gdb run to compare with):")
for r in json.load(open("exe.json"))["results"]:
    print(f"{r['command']:36} {r['mean']*1e3:8.1f}ms {r['min']*1e3:8.1f}ms {(r['user']+r['system'])*1e3:8.1f}ms")
EOF
