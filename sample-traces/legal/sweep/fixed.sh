#!/usr/bin/env bash
# Fixed legal states found by the sweep (sweep.sh), recorded the same way every time for
# tests/legal_states3.rs: a SIGSEGV sent with tgkill to a thread stopped in glibc's free at an
# instruction that cannot fault (`test %rdi,%rdi` at its entry), at a `push` to the mapped stack
# and at a load from the mapped heap, each pasted without `p $_siginfo`; and a Go program
# (go-sched.go) stopped in runtime.futex on the main thread's g0 stack (r14 = &runtime.g0 in
# the binary's .bss), pasted without the memory map; and node interrupted in V8's generated code,
# then sent a SIGSEGV, pasted without the memory map (node-jit+SEGV, needs node).
#
#   fixed.sh OUTDIR [name ...]     writes OUTDIR/<name>.gdb.txt (binaries in OUTDIR/bin)
#
# Needs gdb (with Python) and gcc; go-g0 needs go. Each gdb command is echoed "(gdb) cmd".
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(mkdir -p "${1:?usage: fixed.sh OUTDIR [name ...]}" && cd "$1" && pwd)
shift
all=(free-entry+SEGV free-push+SEGV free-load+SEGV free-riprel+SEGV go-g0 node-jit+SEGV)
[[ $# -gt 0 ]] && all=("$@")
mkdir -p "$out/bin"

# Steps the stopped thread with stepi until the instruction at pc matches a regex (40 at most).
step_to() {
    printf '%s\n' "python import gdb, re; exec(\"for _ in range(40):\\n if re.search(r'$1', gdb.execute('x/i \$pc', to_string=True).split(':', 1)[-1]): break\\n gdb.execute('stepi', to_string=True)\")"
}
# The signal sent to the stopped thread with tgkill, then continue (gdb stops again at the same
# pc with it, as at a crash).
twin() {
    printf '%s\n' "delete" "set scheduler-locking on" \
        "python import ctypes, gdb; t = gdb.selected_thread().ptid; ctypes.CDLL(None).syscall(234, t[0], t[1], 11)"
}

record() {
    local n=$1 exe args=() pre=() post=() cmds=() c a=()
    case $n in
    free-*)
        exe=work-gcc-O2
        [[ -x $out/bin/$exe ]] || gcc -g -O2 -o "$out/bin/$exe" "$here/work.c" -lm || return 1
        args=(100000000)
        pre=("break *free" "ignore 1 500")
        case $n in
        free-entry+SEGV) mapfile -t post < <(step_to 'test ') ;;
        free-push+SEGV) mapfile -t post < <(step_to 'push ') ;;
        free-load+SEGV) mapfile -t post < <(step_to 'mov +-?0x[0-9a-f]+\(%r(?!ip)[a-z0-9]+\),%') ;;
        free-riprel+SEGV) mapfile -t post < <(step_to 'mov +-?0x[0-9a-f]+\(%rip\),%') ;;
        esac
        mapfile -t -O ${#post[@]} post < <(twin)
        cmds=(continue bt "info registers" 'x/6i $pc' "info proc mappings")
        ;;
    go-g0)
        command -v go >/dev/null 2>&1 || { echo "fixed.sh: no go, $n left out" >&2; return 0; }
        exe=go-sched
        [[ -x $out/bin/$exe ]] || (cd "$out" && env GOCACHE="$out/.gocache" GOPATH="$out/.gopath" GO111MODULE=off \
            CGO_ENABLED=1 go build -o "$out/bin/$exe" "$here/go-sched.go") || return 1
        pre=("handle SIGURG nostop noprint pass" "handle SIGUSR1 nostop noprint pass" "set language c"
             "break runtime.futex if \$r14 == (unsigned long)&'runtime.g0'")
        cmds=(bt "info registers" 'x/6i $pc' "frame 1" "info registers")
        ;;
    node-jit+SEGV)
        command -v node >/dev/null 2>&1 || { echo "fixed.sh: no node, $n left out" >&2; return 0; }
        exe=node
        # Interrupted (SIGINT from outside) until frame #0 is V8's generated code (`??` outside
        # every library); what gdb printed on the way is dropped from the transcript, which
        # then starts at that stop's twin.
        pre=("handle SIGINT stop print nopass" "handle SIGSEGV stop print nopass"
             "python import os, subprocess; subprocess.Popen(['sh', '-c', 'sleep 2; kill -INT \$(pgrep -P %d -x node)' % os.getpid()])")
        args=("$here/../busy.js")
        post=("python import gdb, os, subprocess, time; exec(\"for _ in range(60):\\n p = subprocess.Popen(['sh', '-c', 'sleep 0.2; kill -INT %d' % gdb.selected_inferior().pid])\\n gdb.execute('continue', to_string=True)\\n p.wait()\\n if gdb.execute('bt 1', to_string=True).startswith('#0  0x') and ' in ?? ()' in gdb.execute('bt 1', to_string=True): break\\ngdb.flush(); os.ftruncate(1, 0); os.lseek(1, 0, 0)\")")
        mapfile -t -O ${#post[@]} post < <(twin)
        cmds=(continue bt "info registers" 'x/6i $pc')
        ;;
    *) echo "fixed.sh: unknown state $n" >&2; return 1 ;;
    esac
    for c in "set pagination off" "set width 0" "set confirm off" "set debuginfod enabled off" \
        "set auto-load safe-path /nonexistent"; do a+=(-ex "$c"); done
    for c in "${pre[@]}"; do a+=(-ex "$c"); done
    a+=(-ex 'echo (gdb) run\n' -ex run)
    for c in "${post[@]}"; do a+=(-ex "$c"); done
    for c in "${cmds[@]}"; do a+=(-ex "echo (gdb) $c\\n" -ex "$c"); done
    a+=(-ex kill)
    (cd "$out" && exec env -i PATH=/usr/bin:/bin HOME="$out" LANG=C timeout 120 \
        gdb -q -batch -nx "${a[@]}" --args "$(p=./bin/$exe; [[ -x $p ]] || p=$(command -v "$exe"); echo "$p")" "${args[@]}" \
        > "$out/$n.gdb.txt" 2>&1 < /dev/null)
}
for n in "${all[@]}"; do record "$n"; done
