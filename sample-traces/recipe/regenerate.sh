#!/usr/bin/env bash
# Records the README's two pipe recipes on plain-null.c with real gdb:
#   plain-null.short.txt  gdb -batch -ex run -ex bt -ex 'info registers' ./prog
#   plain-null.full.txt   ... plus -ex 'x/i $pc' -ex 'p $_siginfo' -ex 'info proc mappings'
# Needs gcc and gdb. The program is built under /tmp/tracecheck-recipe (the mappings
# name that path), so the transcripts do not depend on where the checkout is.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=/tmp/tracecheck-recipe
mkdir -p "$build"
cp "$here/plain-null.c" "$build/"
cd "$build"
gcc -O0 -g plain-null.c -o plain-null
run=(env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -nx -batch)
"${run[@]}" -ex run -ex bt -ex 'info registers' ./plain-null >"$here/plain-null.short.txt" 2>&1 || true
"${run[@]}" -ex run -ex bt -ex 'info registers' -ex 'x/i $pc' -ex 'p $_siginfo' -ex 'info proc mappings' \
    ./plain-null >"$here/plain-null.full.txt" 2>&1 || true
