#!/usr/bin/env bash
# Byte-for-byte comparison of two tracecheck builds' output: the check that a performance
# change changed nothing a user sees (docs/performance.md, "2d").
#
# Usage: bench/same-output.sh OLD_TRACECHECK NEW_TRACECHECK [FILE...]
#   default files: every transcript under sample-traces/ and tests/wild/ (each under 3 MB)
#   and the bench transcript target/bench/gdb-200.bench.txt when it exists.
# For each file: the text report, `--format json`, `--format markdown` and the text report
# of the file read from standard input (the streaming path), with `--verbose` text too.
# Exit codes are compared as well. Prints the files that differ; exits 1 if any does.
set -uo pipefail
if (($# < 2)); then
    echo "usage: $0 OLD NEW [FILE...]" >&2
    exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
shift 2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
files=("$@")
if ((${#files[@]} == 0)); then
    mapfile -t files < <(find sample-traces tests/wild -type f -name '*.txt' -size -3M | sort)
    [[ -f target/bench/gdb-200.bench.txt ]] && files+=(target/bench/gdb-200.bench.txt)
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0
runs=0
for f in "${files[@]}"; do
    for mode in text verbose json markdown stdin; do
        for b in old new; do
            bin=${!b}
            case $mode in
            text) "$bin" --color never "$f" >"$tmp/$b" 2>&1 ;;
            verbose) "$bin" --color never -v "$f" >"$tmp/$b" 2>&1 ;;
            json) "$bin" -f json "$f" >"$tmp/$b" 2>&1 ;;
            markdown) "$bin" -f markdown "$f" >"$tmp/$b" 2>&1 ;;
            stdin) "$bin" --color never - <"$f" >"$tmp/$b" 2>&1 ;;
            esac
            echo "exit $?" >>"$tmp/$b"
        done
        runs=$((runs + 1))
        if ! cmp -s "$tmp/old" "$tmp/new"; then
            echo "DIFFERS ($mode): $f"
            bad=$((bad + 1))
        fi
    done
done
echo "${#files[@]} files, $runs outputs compared, $bad differ"
((bad == 0))
