#!/usr/bin/env bash
# Legal look-alikes, fifth pass (issue 11): for every rule at least two legal stops made to
# resemble its trigger, in shapes the fourth pass's lookalikes.sh does not have (which rules
# each one is made against: ../README.md, "sweep5"). Sources: lookalike5.c, asm5.S, san5.c,
# py5.py, rust5.rs, cxx5.cpp, go5.go. Most stops get a twin (`+SEGV`: SIGSEGV sent with tgkill
# to the stopped thread, then `continue`, as at a crash) and gdb's core of that stop. Each gdb
# command is echoed "(gdb) cmd". Needs gcc and gdb (with Python); the other tools (clang's
# sanitizers, valgrind, rustc, go, python3, gcore, objcopy) only for their states.
#
#   lookalikes5.sh OUTDIR [name ...]    writes OUTDIR/<name>.gdb.txt, <name>.meta, for +SEGV
#                                       names and core-* also <name>.core
#   lookalikes5.sh -l                   lists the names
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
base=(tagged prefetch-nc prefetch-wild lea-null low-page fill-cd cyclic cow mprotect-ro reserve deep
      file-stack tls-stack trampoline realign reuse reuse-free abort-handled error-log
      nocfi-callback private-stack-cb push-return jmp-return fill-4141 rz-leaf
      malloc-debug jemalloc cxx-exptr cxx-nested rust-resume go-sha256 go-preempt
      ubsan-unsigned ubsan-implicit tsan-lockorder tsan-atomics msan-padcopy asan-allocnull asan-noreturn lsan-suppressed
      py-assert py-thread rust-should-panic)
notwin=" abort-handled ubsan-unsigned ubsan-implicit tsan-lockorder tsan-atomics msan-padcopy asan-allocnull asan-noreturn lsan-suppressed py-assert py-thread rust-should-panic go-preempt "
all=()
for n in "${base[@]}"; do
    all+=("$n")
    [[ $notwin == *" $n "* ]] || all+=("$n+SEGV")
done
all+=(valgrind-stackswitch valgrind-reachable core-memfd core-stripped)
if [[ ${1:-} == -l ]]; then printf '%s\n' "${all[@]}"; exit 0; fi
out=$(mkdir -p "${1:?usage: lookalikes5.sh OUTDIR [name ...]}" && cd "$1" && pwd)
shift
[[ $# -gt 0 ]] && all=("$@")
bin=$out/bin
mkdir -p "$bin"
# Source paths in the debug information are written relative (`sweep5/lookalike5.c`), so the
# transcripts name no directory of the machine that recorded them.
pm=-fdebug-prefix-map=$here=sweep5
have() { command -v "$1" >/dev/null 2>&1; }
la=$bin/lookalike5
[[ -x $la ]] || gcc -g -O2 $pm -pthread -z execstack -o "$la" "$here/lookalike5.c" || exit 1
[[ -x $bin/asm5 ]] || gcc -g -O2 $pm -o "$bin/asm5" "$here/asm5.c" "$here/asm5.S" || exit 1

san() {  # san <mode> <flags>: san5.c built with clang and that sanitizer
    # built from its own directory: UBSan's reports name the source as the compiler was given it
    [[ -x $bin/san-$1 ]] || { have clang && (cd "$here" && clang -g -O1 $pm $2 -pthread -o "$bin/san-$1" san5.c); } || return 1
    echo "$bin/san-$1"
}
twin() {
    printf '%s\n' "delete" "set scheduler-locking on" \
        "python import ctypes, gdb; t = gdb.selected_thread().ptid; ctypes.CDLL(None).syscall(234, t[0], t[1], 11)"
}
interrupt_after() {  # a SIGINT to gdb's newest child after $1 seconds, as Ctrl-C does
    echo "python import os, subprocess; subprocess.Popen(['sh', '-c', 'sleep $1; kill -INT \$(pgrep -n -P %d)' % os.getpid()])"
}

record() {
    local n=$1 name=$1 exe=$la args=() pre=() post=() cmds=() a=() segv=0 envs=()
    [[ $n == *+SEGV ]] && { segv=1; n=${n%+SEGV}; }
    cmds=(bt "info registers" 'x/6i $pc' 'p $_siginfo' "info proc mappings" 'x/32gx $sp' "info frame" "frame 1" "info registers" "frame 0")
    case $n in
    tagged) args=(tagged); pre=('break *la5_tagged') ;;
    prefetch-nc) args=(prefetch); pre=('break *la5_prefetch_nc') ;;
    prefetch-wild) args=(prefetch); pre=('break *la5_prefetch_wild') ;;
    lea-null) args=(lea-null); pre=('break *la5_lea_null') ;;
    low-page) args=(low-page); pre=('break *la5_low_load') ;;
    fill-cd) args=(fill-cd); pre=('break *la5_fill_cd'); post=('stepi 100') ;;
    cyclic) args=(cyclic); pre=('break *la5_cyclic' 'ignore 1 5') ;;
    cow) args=(cow); pre=('break *la5_store') ;;
    mprotect-ro) args=(mprotect-ro); pre=('break *la5_store') ;;
    reserve) args=(reserve); pre=('break *la5_reserve') ;;
    deep) args=(deep); pre=('break *la5_deep_bottom')
        cmds=("bt 40" "bt -8" "info registers" 'x/6i $pc' 'p $_siginfo' "info proc mappings" 'x/32gx $sp' "info frame" "frame 1" "info registers" "frame 0") ;;
    file-stack) args=(file-stack); pre=('break *la5_co') ;;
    tls-stack) args=(tls-stack); pre=('break *la5_co') ;;
    trampoline) args=(trampoline); pre=('break *la5_tramp_call'); post=('stepi') ;;
    realign) args=(realign); pre=('break *realigning') ;;
    reuse) args=(reuse); pre=('break *la5_reuse_load') ;;
    reuse-free) args=(reuse); pre=('break *la5_reuse_load'); post=('delete' 'break free' 'continue') ;;
    abort-handled) args=(abort-handled); pre=('handle SIGABRT stop print') ;;
    error-log) args=(error-log); pre=('break *la5_after_log') ;;
    nocfi-callback) exe=$bin/asm5; pre=('break nocfi_caller'); post=('delete' 'break c_callback' 'continue') ;;
    private-stack-cb) exe=$bin/asm5; pre=('break on_private_stack'); post=('delete' 'break c_callback' 'continue') ;;
    push-return) exe=$bin/asm5; pre=('break pr_callee') ;;
    jmp-return) exe=$bin/asm5; pre=('break *jmp_return+9') ;;
    fill-4141) exe=$bin/asm5; pre=('break fill_pattern'); post=('stepi 12') ;;
    rz-leaf) exe=$bin/asm5; pre=('break rz_leaf'); post=('stepi 6') ;;
    malloc-debug)
        local dbg=/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0
        [[ -e $dbg ]] || { echo "lookalikes5.sh: no $dbg, $name left out" >&2; return 0; }
        args=(reuse); pre=("set environment LD_PRELOAD $dbg" "set environment MALLOC_CHECK_ 3" 'break *la5_reuse_load')
        post=('break free' 'continue') ;;
    jemalloc)
        local je=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
        [[ -e $je ]] || { echo "lookalikes5.sh: no $je, $name left out" >&2; return 0; }
        args=(reuse); pre=("set environment LD_PRELOAD $je" 'break *la5_reuse_load'); post=('break free' 'continue') ;;
    cxx-exptr | cxx-nested)
        exe=$bin/cxx5
        [[ -x $exe ]] || g++ -g -O2 $pm -pthread -o "$exe" "$here/cxx5.cpp" || return 1
        if [[ $n == cxx-exptr ]]; then pre=('break std::rethrow_exception' 'ignore 1 3'); else pre=('break std::rethrow_if_nested<std::exception>' 'break std::nested_exception::rethrow_nested' 'ignore 1 2' 'ignore 2 2'); fi ;;
    rust-resume | rust-should-panic)
        have rustc || { echo "lookalikes5.sh: no rustc, $name left out" >&2; return 0; }
        if [[ $n == rust-resume ]]; then
            exe=$bin/rust5; [[ -x $exe ]] || rustc -g -O --remap-path-prefix "$here=sweep5" -o "$exe" "$here/rust5.rs" 2>/dev/null || return 1
            pre=('break _Unwind_RaiseException' 'ignore 1 20')
        else
            exe=$bin/rust5-test; [[ -x $exe ]] || rustc -g --test --remap-path-prefix "$here=sweep5" -o "$exe" "$here/rust5.rs" 2>/dev/null || return 1
            args=(--test-threads=1 --nocapture); pre=("$(interrupt_after 2)")
        fi ;;
    go-sha256 | go-preempt)
        have go || { echo "lookalikes5.sh: no go, $name left out" >&2; return 0; }
        exe=$bin/go5
        [[ -x $exe ]] || (cd "$out" && env GOCACHE="$out/.gocache" GOPATH="$out/.gopath" GO111MODULE=off \
            go build -o "$exe" "$here/go5.go") || return 1
        if [[ $n == go-sha256 ]]; then pre=('handle SIGURG nostop noprint pass' 'handle SIGUSR1 nostop noprint pass' 'break crypto/sha256.block.abi0'); post=('stepi 25')
        else pre=('handle SIGURG nostop noprint pass' 'handle SIGUSR1 nostop noprint pass' 'break runtime.asyncPreempt.abi0'); fi ;;
    ubsan-unsigned) exe=$(san unsigned -fsanitize=unsigned-integer-overflow) || return 0; args=(unsigned); pre=('break idle') ;;
    ubsan-implicit) exe=$(san implicit -fsanitize=implicit-conversion) || return 0; args=(implicit); pre=('break idle') ;;
    tsan-lockorder) exe=$(san lockorder -fsanitize=thread) || return 0; args=(lockorder); pre=('break idle') ;;
    tsan-atomics) exe=$(san atomics -fsanitize=thread) || return 0; args=(atomics); pre=('break idle') ;;
    msan-padcopy) exe=$(san padcopy -fsanitize=memory) || return 0; args=(padcopy); pre=('break idle') ;;
    asan-allocnull) exe=$(san allocnull -fsanitize=address) || return 0; args=(allocnull)
        pre=('set environment ASAN_OPTIONS allocator_may_return_null=1' 'break idle') ;;
    asan-noreturn) exe=$(san noreturn -fsanitize=address) || return 0; args=(noreturn); pre=('break idle') ;;
    lsan-suppressed) exe=$(san leakcache -fsanitize=leak) || return 0; args=(leakcache 3)
        printf 'leak:fill_cache\n' > "$out/lsan.supp"
        # LSan cannot run under ptrace: the program runs to its end outside the debugger
        (cd "$out" && LSAN_OPTIONS=suppressions=$out/lsan.supp:print_suppressions=1 "$exe" "${args[@]}" > "$out/$name.gdb.txt" 2>&1)
        printf 'exe=%s\nkind=lookalike\ntwin=\n' "$exe" > "$out/$name.meta"
        return 0 ;;
    py-assert | py-thread)
        exe=/usr/bin/python3; [[ -x $exe ]] || { echo "lookalikes5.sh: no $exe, $name left out" >&2; return 0; }
        args=("$here/py5.py" "${n#py-}"); pre=("$(interrupt_after 1.5)") ;;
    valgrind-stackswitch | valgrind-reachable)
        have valgrind || { echo "lookalikes5.sh: no valgrind, $name left out" >&2; return 0; }
        local mode=file-stack; [[ $n == valgrind-reachable ]] && mode=keep
        (cd "$out" && timeout 300 valgrind --leak-check=full --show-leak-kinds=all "$la" $mode > "$out/$name.gdb.txt" 2>&1 < /dev/null)
        printf 'exe=%s\nkind=valgrind\ntwin=\n' "$la" > "$out/$name.meta"
        return 0 ;;
    core-memfd | core-stripped)
        # a live process's core (gcore), read back by gdb as a user would
        "$la" memfd-sleep > /dev/null 2>&1 &
        local pid=$!
        sleep 0.5
        gcore -o "$out/$name.core" "$pid" > /dev/null 2>&1
        kill "$pid"; wait "$pid" 2>/dev/null
        mv "$out/$name.core.$pid" "$out/$name.core" 2>/dev/null
        exe=$la
        if [[ $n == core-stripped ]]; then exe=$bin/lookalike5-stripped; objcopy --strip-all "$la" "$exe"; fi
        for c in "set pagination off" "set width 0" "set confirm off" "set debuginfod enabled off"; do a+=(-ex "$c"); done
        for c in "thread apply all bt" "info registers" 'x/6i $pc' 'p $_siginfo' "info proc mappings" "info sharedlibrary"; do
            a+=(-ex "echo (gdb) $c\\n" -ex "$c"); done
        (cd "$out" && exec env -i PATH=/usr/bin:/bin HOME="$out" LANG=C timeout 120 \
            gdb -q -batch -nx "${a[@]}" "$exe" "$out/$name.core" > "$out/$name.gdb.txt" 2>&1 < /dev/null)
        printf 'exe=%s\nkind=gcore\ntwin=\n' "$la" > "$out/$name.meta"
        return 0 ;;
    *) echo "lookalikes5.sh: unknown state $name" >&2; return 1 ;;
    esac
    if [[ $segv == 1 ]]; then
        local t; mapfile -t t < <(twin)
        post+=("${t[@]}")
        cmds=(continue "${cmds[@]}")
    fi
    for c in "set pagination off" "set width 0" "set confirm off" "set debuginfod enabled off" \
        "set auto-load safe-path /nonexistent" "set breakpoint pending on" "handle SIGSEGV stop print nopass"; do a+=(-ex "$c"); done
    for c in "${pre[@]}"; do a+=(-ex "$c"); done
    a+=(-ex 'echo (gdb) run\n' -ex run)
    for c in "${post[@]}"; do
        case $c in delete | "set scheduler-locking on" | python*) a+=(-ex "$c") ;; *) a+=(-ex "echo (gdb) $c\\n" -ex "$c") ;; esac
    done
    for c in "${cmds[@]}"; do a+=(-ex "echo (gdb) $c\\n" -ex "$c"); done
    # Go reserves its heap arena: a core of 700 MiB; none for the Go twins
    [[ $segv == 1 && $n != go-* ]] && a+=(-ex "generate-core-file $out/$name.core")
    a+=(-ex kill)
    (cd "$out" && exec env -i PATH=/usr/bin:/bin HOME="$out" LANG=C timeout 120 \
        gdb -q -batch -nx "${a[@]}" --args "$exe" "${args[@]}" > "$out/$name.gdb.txt" 2>&1 < /dev/null)
    printf 'exe=%s\nkind=lookalike\ntwin=%s\n' "$exe" "$([[ $segv == 1 ]] && echo SEGV)" > "$out/$name.meta"
}
for n in "${all[@]}"; do record "$n"; done
