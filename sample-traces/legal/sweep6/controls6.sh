#!/usr/bin/env bash
# True-positive controls of the sixth pass (issue 11): real crashes in C functions called
# from the runtimes whose legal states the sweep samples, recorded under gdb with the memory
# map, so the rules that learnt to excuse those runtimes' own code must still fire:
#   sbcl-memset-ro    SBCL calls memset (alien-funcall) on libc's own code: a write to
#                     read-only memory in memset (write-to-readonly)
#   sbcl-smash        SBCL calls smash6 (smash6.c), which overwrites its return address with
#                     0x4141…: the return jumps there (bad-pc, corrupt-backtrace)
#   sbcl-load-null    SBCL calls load6(NULL) (smash6.c), which reads through it
#                     (null-dereference)
#   luajit-load-null  LuaJIT's FFI calls load6(NULL) (null-dereference)
# gdb passes the runtime's own SIGSEGVs on (`handle SIGSEGV nostop pass`, as a user who knows
# the runtime does) until the C function is entered (a conditional breakpoint), then stops on
# the next SIGSEGV.
#
#   controls6.sh OUTDIR      writes OUTDIR/<name>.gdb.txt and <name>.meta (exe=…)
#   controls6.sh -l          lists the names
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
names=(sbcl-memset-ro sbcl-smash sbcl-load-null luajit-load-null)
if [[ ${1:-} == -l ]]; then printf '%s\n' "${names[@]}"; exit 0; fi
out=$(mkdir -p "${1:?usage: controls6.sh OUTDIR}" && cd "$1" && pwd)
gcc -g -O1 -fno-stack-protector -fPIC -shared -fdebug-prefix-map="$here"=. -o "$out/libsmash6.so" "$here/smash6.c" || exit 1

lisp() { # name lisp-form
    cat > "$out/$1.lisp" <<LISP
(sb-alien:load-shared-object "$out/libsmash6.so")
(defun go-on () (dotimes (i 20000) (make-list 10)) (sb-ext:gc))
(go-on)
$2
LISP
}
lisp sbcl-memset-ro '(sb-alien:alien-funcall (sb-alien:extern-alien "memset" (function sb-alien:unsigned-long sb-alien:unsigned-long sb-alien:int sb-alien:unsigned-long)) (sb-sys:find-foreign-symbol-address "smash6") 0 16)'
lisp sbcl-smash '(sb-alien:alien-funcall (sb-alien:extern-alien "smash6" (function sb-alien:void sb-alien:long)) 6)'
lisp sbcl-load-null '(sb-alien:alien-funcall (sb-alien:extern-alien "load6" (function sb-alien:long sb-alien:unsigned-long)) 0)'
cat > "$out/luajit-load-null.lua" <<LUA
local ffi = require("ffi")
ffi.cdef[[ long load6(const long *p); ]]
local lib = ffi.load("$out/libsmash6.so")
local t = {}
for i = 1, 200000 do t[i % 100 + 1] = tostring(i) end
return lib.load6(nil)
LUA

record() { # name break-location condition exe args...
    local name=$1 loc=$2 cond=$3 exe=$4
    shift 4
    cat > "$out/$name.gdb" <<GDB
set pagination off
set width 0
set confirm off
set debuginfod enabled off
set breakpoint pending on
handle SIGSEGV nostop noprint pass
handle SIGILL nostop noprint pass
handle SIGUSR2 nostop noprint pass
break $loc if $cond
run
delete
handle SIGSEGV stop print nopass
continue
echo (gdb) bt\n
bt
echo (gdb) info registers\n
info registers
echo (gdb) x/6i \$pc\n
x/6i \$pc
echo (gdb) p \$_siginfo\n
p \$_siginfo
echo (gdb) info proc mappings\n
info proc mappings
kill
GDB
    (cd "$out" && timeout 120 gdb -q -batch -nx -x "$out/$name.gdb" --args "$exe" "$@" > "$out/$name.raw" 2>&1 < /dev/null)
    # the stop as a user pastes it: from the `continue` that ends in the crash
    { echo "(gdb) continue"; sed -n '/^Program received signal SIGSEGV\|received signal SIGSEGV/,$p' "$out/$name.raw" |
        grep -v '^\[Inferior \|^\[New Thread\|^\[Thread .* exited\]'; } > "$out/$name.gdb.txt"
    printf 'exe=%s\nkind=control\ntwin=\n' "$exe" > "$out/$name.meta"
}
sbcl=$(command -v sbcl) luajit=$(readlink -f "$(command -v luajit)")
# memset's first argument is smash6's code (in libsmash6.so, r-x)
record sbcl-memset-ro memset '$rdx == 16 && $rsi == 0' "$sbcl" --noinform --non-interactive --load "$out/sbcl-memset-ro.lisp"
record sbcl-smash smash6 '$rdi == 6' "$sbcl" --noinform --non-interactive --load "$out/sbcl-smash.lisp"
record sbcl-load-null load6 '$rdi == 0' "$sbcl" --noinform --non-interactive --load "$out/sbcl-load-null.lisp"
record luajit-load-null load6 '$rdi == 0' "$luajit" "$out/luajit-load-null.lua"
exit 0
