#!/usr/bin/env bash
# Records gdb sessions on a core whose files no longer match it, as after a package upgrade
# between the crash and the debugging session, plus the look-alike control where they match.
#
#   library-rebuilt.gdb.txt  libshape.so rebuilt after the crash: gdb 13 names a data object
#                            of build 2 as the crashing function, without a warning
#   exe-rebuilt.gdb.txt      the program rebuilt after the crash ("exec file is newer than
#                            core file"; no frame resolves)
#   same-build.gdb.txt       control: the same core and the files it was made with
#
# Every transcript is real, unedited gdb output (gdb -batch on the core). Needs gcc and gdb.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=/tmp/tracecheck-mismatch
rm -rf "$work"
mkdir -p "$work"
cp "$here/prog.c" "$here/shape.c" "$work/"
cd "$work"
run_env=(env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C)

lib() { gcc -g -O1 -fPIC -shared -DSHAPE_VERSION="$1" -o libshape.so shape.c; }
exe() { gcc -g -O1 -DPROG_BUILD="$1" -o prog prog.c -L. -lshape -Wl,-rpath,"$work"; }

# The crash, with build 1 of both, dumped by the kernel (its core keeps each ELF file's first
# page, so gdb can compare build-ids). Needs a core_pattern that writes into the current
# directory (`core` or `core.%p`).
lib 1
exe 1
(ulimit -c unlimited; "${run_env[@]}" ./prog >/dev/null 2>&1) || true
for c in core core.*; do [[ -s $c && $c != core ]] && mv "$c" core; done
[[ -s core ]] || { echo "regenerate.sh: no core written (core_pattern: $(cat /proc/sys/kernel/core_pattern))" >&2; exit 1; }

session() {
    "${run_env[@]}" gdb -nx -batch \
        -ex 'thread apply all bt' -ex 'info registers' -ex 'x/i $pc' -ex 'info sharedlibrary' \
        ./prog core 2>&1
}

status=0
check() { # FILE needle
    grep -qF -- "$2" "$1" || { echo "  CHECK FAILED: $1 lacks: $2" >&2; status=1; }
}
check_not() {
    ! grep -qF -- "$2" "$1" || { echo "  CHECK FAILED: $1 has: $2" >&2; status=1; }
}

session >"$here/same-build.gdb.txt"
check "$here/same-build.gdb.txt" "shape_area (s=s@entry=0x0)"
check_not "$here/same-build.gdb.txt" "newer than core"

lib 2
session >"$here/library-rebuilt.gdb.txt"
# gdb 13 does not compare a library's build-id with the core: its only sign is a frame named
# after build 2's data object.
check "$here/library-rebuilt.gdb.txt" "in shape_table ()"

lib 1
# A different program build: add code so its layout and build-id change.
sed -i 's|int main|static volatile int pad[64]; int unused_after_crash(void) { return pad[3] * 7 + pad[9]; }\nint main|' prog.c
exe 2
session >"$here/exe-rebuilt.gdb.txt"
check "$here/exe-rebuilt.gdb.txt" "exec file is newer than core file"
for f in same-build library-rebuilt exe-rebuilt; do
    printf '%-28s %6d bytes\n' "$f.gdb.txt" "$(wc -c <"$here/$f.gdb.txt")"
done
exit $status
