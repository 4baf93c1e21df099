#!/usr/bin/env bash
# Legal look-alikes (issue 11, fourth pass): for every rule a legal stop made to resemble its
# trigger (raise-after-fault: a SIGUSR2 raised in a handler long after a handled NULL fault,
# with gdb's core of that stop) (lookalike.c, go-nilcheck.go, the JVM's own SIGSEGV, a clean valgrind run), stopped
# under gdb at a label of interest, most of them with a twin (SIGSEGV sent with tgkill to the
# stopped thread, then `continue`, as at a crash). Each gdb command is echoed "(gdb) cmd".
#
#   lookalikes.sh OUTDIR [name ...]     writes OUTDIR/<name>.gdb.txt, <name>.meta, and for
#                                       names ending in +SEGV also <name>.core (gdb's
#                                       generate-core-file of the same stop)
#   lookalikes.sh -l                    lists the names
#
# Needs gcc and gdb (with Python); go-nil needs go, jvm-segv java, valgrind-clean valgrind.
# go-nil (a nil dereference in Go code that the program recovers) is the one whose finding is
# true: a nil pointer was dereferenced, and the debugger stops before Go's handler exactly as
# on a crash; tests/legal_states4.rs holds it to null-dereference.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
base=(free-null realloc-null nopw-null prefetch-null lea-nanbox consts noalign entry-align saves-null-inner
      saves-null-after memfd-jit near-guard altstack-bss ro-load data-store stale julia-named logs raise-after-fault
      vfork-child go-nil jvm-segv)
all=()
for n in "${base[@]}"; do
    all+=("$n")
    case $n in go-nil | jvm-segv | vfork-child | realloc-null | saves-null-after | raise-after-fault) ;; *) all+=("$n+SEGV") ;; esac
done
all+=(valgrind-clean)
if [[ ${1:-} == -l ]]; then printf '%s\n' "${all[@]}"; exit 0; fi
out=$(mkdir -p "${1:?usage: lookalikes.sh OUTDIR [name ...]}" && cd "$1" && pwd)
shift
[[ $# -gt 0 ]] && all=("$@")
mkdir -p "$out/bin"
la=$out/bin/lookalike
[[ -x $la ]] || gcc -g -O2 -pthread -o "$la" "$here/lookalike.c" || exit 1

twin() {
    printf '%s\n' "delete" "set scheduler-locking on" \
        "python import ctypes, gdb; t = gdb.selected_thread().ptid; ctypes.CDLL(None).syscall(234, t[0], t[1], 11)"
}

record() {
    local n=$1 name=$1 exe=$la args=() pre=() post=() cmds=() a=() segv=0 core=0
    [[ $n == *+SEGV ]] && { segv=1; n=${n%+SEGV}; }
    cmds=(bt "info registers" 'x/6i $pc' 'p $_siginfo' "info proc mappings" 'x/32gx $sp' "info frame" "frame 1" "info registers" "frame 0")
    case $n in
    free-null) args=(free-null); pre=('break free if $rdi == 0') ;;
    realloc-null) args=(free-null); pre=('break realloc if $rdi == 0') ;;
    nopw-null) args=(nop-null); pre=('break *la_nopw') ;;
    prefetch-null) args=(nop-null); pre=('break *la_prefetch') ;;
    lea-nanbox) args=(lea-nanbox); pre=('break *la_lea') ;;
    consts) args=(consts); pre=('break *la_consts') ;;
    noalign) args=(noalign); pre=('break *la_leaf') ;;
    entry-align) args=(logs); pre=('break *inner_work') ;;
    saves-null-inner) args=(saves-null); pre=('break inner_work') ;;
    saves-null-after) args=(saves-null); pre=('break *la_after_call') ;;
    memfd-jit) args=(memfd-jit)
        pre=("python import os, subprocess; subprocess.Popen(['sh', '-c', 'sleep 1.5; kill -INT \$(pgrep -P %d -x lookalike)' % os.getpid()])") ;;
    near-guard) args=(near-guard); pre=('break *la_deep') ;;
    altstack-bss) args=(altstack-bss); pre=("handle SIGUSR1 nostop noprint pass" 'break *la_altstack') ;;
    ro-load) args=(ro-read); pre=('break *la_roload') ;;
    data-store) args=(ro-read); pre=('break *la_datastore') ;;
    stale) args=(stale); pre=('break *la_stale') ;;
    julia-named) args=(julia-named); pre=('break *la_julia_named') ;;
    logs) args=(logs); pre=('break inner_work') ;;
    raise-after-fault) args=(raise-after-fault); core=1
        pre=("handle SIGSEGV nostop noprint pass" "handle SIGUSR1 nostop noprint pass" "handle SIGUSR2 stop print nopass") ;;
    vfork-child) args=(vfork); pre=("set follow-fork-mode child" "set detach-on-fork on" 'break execv') ;;
    go-nil)
        command -v go >/dev/null 2>&1 || { echo "lookalikes.sh: no go, $name left out" >&2; return 0; }
        exe=$out/bin/go-nilcheck
        [[ -x $exe ]] || (cd "$out" && env GOCACHE="$out/.gocache" GOPATH="$out/.gopath" GO111MODULE=off \
            go build -o "$exe" "$here/go-nilcheck.go") || return 1
        pre=("handle SIGURG nostop noprint pass") ;;
    jvm-segv)
        command -v java >/dev/null 2>&1 || { echo "lookalikes.sh: no java, $name left out" >&2; return 0; }
        exe=$(readlink -f "$(command -v java)"); args=(-Xint -XX:-UsePerfData -version) ;;
    valgrind-clean)
        command -v valgrind >/dev/null 2>&1 || { echo "lookalikes.sh: no valgrind, $name left out" >&2; return 0; }
        [[ -x $out/bin/work ]] || gcc -g -O1 -o "$out/bin/work" "$here/../sweep/work.c" -lm || return 1
        (cd "$out" && timeout 300 valgrind --leak-check=full ./bin/work 300 > "$out/$name.gdb.txt" 2>&1 < /dev/null)
        printf 'exe=%s\nkind=valgrind\ntwin=\n' "$out/bin/work" > "$out/$name.meta"
        return 0 ;;
    *) echo "lookalikes.sh: unknown state $name" >&2; return 1 ;;
    esac
    if [[ $segv == 1 ]]; then
        mapfile -t post < <(twin)
        cmds=(continue "${cmds[@]}")
    fi
    for c in "set pagination off" "set width 0" "set confirm off" "set debuginfod enabled off" \
        "set auto-load safe-path /nonexistent" "set breakpoint pending on"; do a+=(-ex "$c"); done
    [[ $n == raise-after-fault ]] || a+=(-ex "handle SIGSEGV stop print nopass")
    for c in "${pre[@]}"; do a+=(-ex "$c"); done
    a+=(-ex 'echo (gdb) run\n' -ex run)
    for c in "${post[@]}"; do a+=(-ex "$c"); done
    for c in "${cmds[@]}"; do a+=(-ex "echo (gdb) $c\\n" -ex "$c"); done
    [[ $segv == 1 || $core == 1 ]] && a+=(-ex "generate-core-file $out/$name.core")
    a+=(-ex kill)
    (cd "$out" && exec env -i PATH=/usr/bin:/bin HOME="$out" LANG=C timeout 120 \
        gdb -q -batch -nx "${a[@]}" --args "$exe" "${args[@]}" > "$out/$name.gdb.txt" 2>&1 < /dev/null)
    printf 'exe=%s\nkind=lookalike\ntwin=%s\n' "$exe" "$([[ $segv == 1 ]] && echo SEGV)" > "$out/$name.meta"
}
for n in "${all[@]}"; do record "$n"; done
