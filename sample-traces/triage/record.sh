#!/usr/bin/env bash
# Rebuilds the triage labelled set from real runs: sample-traces/triage/src/inventory.c is
# built, run under real gdb (batch mode, ASLR left ON so addresses differ run to run) with
# several thread counts and heap seeds, and each transcript is saved under runs/. Then
# ci-job.sh, a small CI-like test runner, is run for each job of the matrix below: it prints
# ordinary log lines (with GitHub-Actions-style timestamps) and runs each crashing test under
# gdb the way a CI wrapper does; its output is saved under ci/. Two of the CI logs are also
# packed into ci-logs.zip (a run's log download is a zip of text files).
# expected.tsv lists, for every input, its crashes in order and the bug each one is.
#
# Usage: sample-traces/triage/record.sh     (needs gcc, gdb, python3)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
for tool in gcc gdb python3; do
    command -v "$tool" >/dev/null || { echo "record.sh: $tool not found" >&2; exit 1; }
done
mkdir -p build runs ci
gcc -O0 -g -pthread src/inventory.c -o build/inventory
run_env=(env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C)

# mode -> bug label (the ground truth the clustering test checks)
bug_of() {
    case $1 in
    null-config|null-user) echo null-record ;;   # one bug, two callers
    assert-len) echo length-assert ;;             # another bug in the same function
    double-free) echo double-free ;;
    wild-index) echo wild-pointer ;;
    esac
}

record() { # mode threads seed
    "${run_env[@]}" gdb -nx -batch -ex 'set pagination off' -ex 'set disable-randomization off' \
        -ex run -ex bt -ex 'info registers' -ex 'x/i $pc' -ex 'thread apply all bt' \
        --args build/inventory "$1" "$2" "$3" 2>&1
}

: > expected.tsv
printf '# input\tcrash\tbug\n' >> expected.tsv
while read -r mode threads seed; do
    f=runs/$mode-t$threads-s$seed.gdb.txt
    record "$mode" "$threads" "$seed" > "$f"
    printf '%s\t1\t%s\n' "$f" "$(bug_of "$mode")" >> expected.tsv
done <<'MATRIX'
null-config 1 1
null-config 4 7
null-config 8 3
null-user 1 2
null-user 3 5
assert-len 1 1
assert-len 4 9
double-free 2 4
double-free 6 2
wild-index 1 6
wild-index 5 1
MATRIX

# CI jobs: job name, then the tests it runs (a crashing test is a mode of inventory).
n=0
while read -r job tests; do
    n=$((n + 1))
    f=ci/$job.log
    "${run_env[@]}" bash ./ci-job.sh "$job" $tests > "$f" 2>&1 || true
    k=0
    for t in $tests; do
        case $t in
        ok-*) ;;
        *) k=$((k + 1)); printf '%s\t%d\t%s\n' "$f" "$k" "$(bug_of "${t%%:*}")" >> expected.tsv ;;
        esac
    done
    [[ $k -eq 0 ]] && printf '%s\t0\t-\n' "$f" >> expected.tsv
done <<'JOBS'
linux-gcc-1 ok-parse ok-store null-config:2:11 ok-net
linux-gcc-2 ok-parse ok-store ok-net
linux-clang-1 ok-parse null-user:4:13 ok-store double-free:2:8
linux-clang-2 ok-parse wild-index:3:2
nightly-1 assert-len:2:5 ok-store null-config:1:21
nightly-2 ok-parse ok-store ok-net ok-cache
JOBS

python3 - <<'PY'
import zipfile
with zipfile.ZipFile("ci-logs.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for name in ["linux-clang-1.log", "nightly-2.log"]:
        z.write("ci/" + name, "build (" + name.split(".")[0] + ")/3_Run tests.txt")
PY
printf 'ci-logs.zip!build (linux-clang-1)/3_Run tests.txt\t1\tnull-record\n' >> expected.tsv
printf 'ci-logs.zip!build (linux-clang-1)/3_Run tests.txt\t2\tdouble-free\n' >> expected.tsv
printf 'ci-logs.zip!build (nightly-2)/3_Run tests.txt\t0\t-\n' >> expected.tsv
echo "record.sh: $(ls runs | wc -l) transcripts, $(ls ci | wc -l) CI logs, expected.tsv"

# Bundled samples of sample-traces/ (recorded by ../regenerate*.sh): the same bug seen by
# different debuggers and architectures.
cat >> expected.tsv <<'SAMPLES'
../null-field.gdb.txt	1	sample-null-field
../aarch64/null-field.gdb.txt	1	sample-null-field
../lldb/null-field.lldb.txt	1	sample-null-field
../julia-trampoline-bad-r13.gdb.txt	1	sample-julia-pgcstack
../lldb/julia-trampoline-bad-r13.lldb.txt	1	sample-julia-pgcstack
../aarch64/julia-trampoline-bad-x20.gdb.txt	1	sample-julia-pgcstack
../glibc-abort.gdb.txt	1	sample-double-free
../lldb/glibc-abort.lldb.txt	1	sample-double-free
../threads-crash.gdb.txt	1	sample-threads-store
../lldb/threads-crash.lldb.txt	1	sample-threads-store
../go/nil-deref.txt	1	sample-go-nil
../go/nil-deref-arm64.txt	1	sample-go-nil
SAMPLES
