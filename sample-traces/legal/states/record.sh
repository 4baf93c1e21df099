#!/usr/bin/env bash
# Legal machine states, second pass: small programs that do nothing wrong (hand-written
# assembly with odd but legal register use, -fipa-stack-alignment, -O3 AVX, -fomit-frame-pointer,
# C functions named like Julia's, ucontext coroutines, sigaltstack handlers, setjmp/longjmp, an
# RWX JIT buffer, 60 parked threads, watchpoints, `catch syscall`, Go with cgo, Rust's
# catch_unwind), stopped under gdb at breakpoints, watchpoints, syscalls, or by a signal sent
# from outside (`kill -SEGV/-BUS/-ILL/-FPE/-ABRT/-TRAP`) at a random point. Every rule must stay
# quiet on them (tests/legal_states2.rs).
#
#   record.sh OUTDIR [name ...]     builds into OUTDIR and writes OUTDIR/<name>.gdb.txt and
#                                   OUTDIR/<name>.core (gdb's generate-core-file at the same stop)
#
# Needs gcc, g++ and gdb (with its Python, for the twins' tgkill); the go-* states need go (with
# cgo), the rust-* states rustc; a state whose compiler is missing is left out with a line on
# stderr. Each gdb command is echoed as
# "(gdb) cmd" before its output, as in sample-traces/crashers/regenerate.sh.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(mkdir -p "${1:?usage: record.sh OUTDIR [name ...]}" && cd "$1" && pwd)
shift

all=(asm-regs-mid asm-regs-leaf ipa-align-entry ipa-align-body avx-o3-segv avx-o3-bus omitfp-segv
     omitfp-break julia-named ucontext-coro altstack-handler setjmp-after setjmp-bail jit-callback
     jit-ill threads-parked threads-fpe watch-counter catch-write go-work go-cgo go-segv rust-panic-caught
     rust-after-catch malloc-loop-segv malloc-loop-abrt cxx-throw-segv cxx-throw-abrt cxx-throw-break
     cxx-personality rust-panic-loop-abrt rust-panic-loop-segv deep-legal-segv deep-legal-break
     own-stack-heap own-stack-bss jit-heap-finish jit-rwx-finish coro-asm malloc-break
     clone-child julia-reuse startup)
# Each state stopped at a breakpoint, a watchpoint or a syscall also has a twin `<state>+SIG`:
# the same stop, then the signal sent to the stopped thread with tgkill and `continue`, so the
# program stops again at the same pc with a fault signal, as a crash does (si_code SI_TKILL).
twins=(asm-regs-mid+SEGV asm-regs-leaf+SEGV ipa-align-entry+SEGV ipa-align-body+BUS omitfp-break+SEGV
       julia-named+SEGV ucontext-coro+SEGV altstack-handler+SEGV setjmp-after+ABRT setjmp-bail+SEGV
       jit-callback+SEGV threads-parked+SEGV watch-counter+ILL catch-write+SEGV go-work+SEGV go-cgo+SEGV
       rust-panic-caught+SEGV rust-after-catch+FPE rust-panic-caught+ABRT cxx-throw-break+ABRT
       cxx-personality+SEGV deep-legal-break+SEGV own-stack-heap+SEGV own-stack-bss+SEGV
       jit-heap-finish+SEGV jit-rwx-finish+SEGV coro-asm+SEGV coro-asm+ABRT malloc-break+SEGV
       clone-child+SEGV julia-reuse+SEGV startup+SEGV)
all+=("${twins[@]}")
[[ $# -gt 0 ]] && all=("$@")

have() { command -v "$1" >/dev/null 2>&1; }

build() { # state -> prints the executable's name (built once per source)
    local src exe cmd
    case $1 in
    asm-regs-*) exe=asm-regs; cmd=(gcc -g -O1 -o asm-regs "$here/asm-regs.c" "$here/asm-regs.S") ;;
    ipa-align-* | startup) exe=ipa-align; cmd=(gcc -g -O2 -o ipa-align "$here/ipa-align.c") ;;
    avx-o3-*) exe=avx-o3; cmd=(gcc -g -O3 -mavx2 -mfma -o avx-o3 "$here/avx-o3.c") ;;
    omitfp-*) exe=omitfp; cmd=(gcc -g -O2 -fomit-frame-pointer -o omitfp "$here/omitfp.c") ;;
    julia-reuse) exe=julia-reuse; cmd=(gcc -g -O1 -o julia-reuse "$here/julia-reuse.c" "$here/julia-reuse.S") ;;
    julia-named) exe=julia-named; cmd=(gcc -g -O1 -o julia-named "$here/julia-named.c") ;;
    ucontext-coro) exe=ucontext-coro; cmd=(gcc -g -O0 -o ucontext-coro "$here/ucontext-coro.c") ;;
    altstack-handler) exe=altstack-handler; cmd=(gcc -g -O0 -o altstack-handler "$here/altstack-handler.c") ;;
    setjmp-*) exe=setjmp-longjmp; cmd=(gcc -g -O1 -o setjmp-longjmp "$here/setjmp-longjmp.c") ;;
    malloc-loop-* | malloc-break) exe=malloc-loop; cmd=(gcc -g -O2 -o malloc-loop "$here/malloc-loop.c") ;;
    cxx-*) exe=cxx-throw-loop; cmd=(g++ -g -O2 -o cxx-throw-loop "$here/cxx-throw-loop.cpp") ;;
    deep-legal-*) exe=deep-legal; cmd=(gcc -g -O1 -o deep-legal "$here/deep-legal.c") ;;
    own-stack-*) exe=thread-own-stack; cmd=(gcc -g -O1 -pthread -o thread-own-stack "$here/thread-own-stack.c") ;;
    jit-heap-*) exe=jit-heap; cmd=(gcc -g -O1 -o jit-heap "$here/jit-heap.c") ;;
    coro-asm) exe=coro-asm; cmd=(gcc -g -O1 -o coro-asm "$here/coro-asm.c" "$here/coro-switch.S") ;;
    rust-panic-loop-*) have rustc || { echo "record.sh: no rustc, $1 left out" >&2; return 1; }
        exe=rust-panic-loop; cmd=(rustc -g -C opt-level=2 -o rust-panic-loop "$here/rust-panic-loop.rs") ;;
    jit-*) exe=jit-rwx; cmd=(gcc -g -O1 -o jit-rwx "$here/jit-rwx.c") ;;
    threads-* | clone-child) exe=threads-parked; cmd=(gcc -g -O1 -pthread -o threads-parked "$here/threads-parked.c") ;;
    watch-counter | catch-write) exe=watch-syscall; cmd=(gcc -g -O1 -o watch-syscall "$here/watch-syscall.c") ;;
    go-*) have go || { echo "record.sh: no go, $1 left out" >&2; return 1; }
        exe=go-work; cmd=(env GOCACHE="$out/.gocache" GOPATH="$out/.gopath" GO111MODULE=off CGO_ENABLED=1 \
            go build -o go-work "$here/go-work.go") ;;
    rust-*) have rustc || { echo "record.sh: no rustc, $1 left out" >&2; return 1; }
        exe=rust-caught; cmd=(rustc -g -C opt-level=1 -o rust-caught "$here/rust-caught.rs") ;;
    *) echo "record.sh: unknown state $1" >&2; return 1 ;;
    esac
    if [[ ! -x $out/$exe ]]; then
        (cd "$out" && "${cmd[@]}") >&2 || { echo "record.sh: build of $exe failed" >&2; return 1; }
    fi
    echo "$exe"
}

# name -> args of the program
prog_args() {
    case $1 in
    avx-o3-* | jit-ill) echo 100000000 ;;
    malloc-break) echo 5000 ;;
    deep-legal-break) echo 2000 3000 ;;
    malloc-loop-* | cxx-*-segv | cxx-*-abrt | rust-panic-loop-*) echo 2000000000 ;;
    omitfp-segv) echo 40 ;;
    *) ;;
    esac
}

# name -> "SIGNAL DELAY" for the states stopped from outside (empty: gdb stops by itself)
sent() {
    case $1 in
    avx-o3-segv) echo "SEGV 1.5" ;;
    avx-o3-bus) echo "BUS 1.2" ;;
    omitfp-segv) echo "SEGV 1.0" ;;
    jit-ill) echo "ILL 1.5" ;;
    threads-fpe) echo "FPE 2.0" ;;
    go-segv) echo "SEGV 1.5" ;;
    malloc-loop-segv | cxx-throw-segv | rust-panic-loop-segv) echo "SEGV 1.3" ;;
    malloc-loop-abrt | cxx-throw-abrt | rust-panic-loop-abrt) echo "ABRT 1.7" ;;
    deep-legal-segv) echo "SEGV 1.1" ;;
    *) ;;
    esac
}

# name -> gdb commands before `run` and up to the stop
prelude() {
    case $1 in
    asm-regs-mid) printf '%s\n' "break *crunch_mid" ;;
    asm-regs-leaf) printf '%s\n' "break leaf_probe" ;;
    ipa-align-entry) printf '%s\n' "break *mix" ;;
    ipa-align-body) printf '%s\n' "break mix" "ignore 1 7" ;;
    omitfp-break) printf '%s\n' "break knot if depth == 2" ;;
    julia-named) printf '%s\n' "break julia_sum_12" ;;
    ucontext-coro) printf '%s\n' "break emit" "ignore 1 2" ;;
    altstack-handler) printf '%s\n' "handle SIGUSR1 nostop noprint pass" "break tally" "ignore 1 1" ;;
    setjmp-after) printf '%s\n' "break after_jump" ;;
    setjmp-bail) printf '%s\n' "break bail" ;;
    jit-callback) printf '%s\n' "break jit_callback" "ignore 1 5" ;;
    threads-parked) printf '%s\n' "break checkpoint" ;;
    watch-counter) printf '%s\n' "break bump" ;;
    catch-write) printf '%s\n' "catch syscall write" ;;
    go-work) printf '%s\n' "break main.work" ;;
    go-cgo) printf '%s\n' "break c_mix" "ignore 1 3" ;;
    go-segv) printf '%s\n' "handle SIGURG nostop noprint pass" ;;
    rust-panic-caught) printf '%s\n' "break rust_panic" ;;
    rust-after-catch) printf '%s\n' "break rust_caught::after_catch" "ignore 1 2" ;;
    cxx-throw-break) printf '%s\n' "break __cxa_throw" "ignore 1 3" ;;
    cxx-personality) printf '%s\n' "break __gxx_personality_v0" "ignore 1 5" ;;
    deep-legal-break) printf '%s\n' "break walk if n == 0" ;;
    own-stack-heap) printf '%s\n' "break spin_step if id == 0 && i == 1000" ;;
    own-stack-bss) printf '%s\n' "break spin_step if id == 1 && i == 1000" ;;
    jit-heap-finish | jit-rwx-finish) printf '%s\n' "break jit_callback" "ignore 1 3" ;;
    coro-asm) printf '%s\n' "break produce_square" "ignore 1 2" ;;
    malloc-break) printf '%s\n' "break free" "ignore 1 1000" ;;
    clone-child) printf '%s\n' "catch syscall clone3" ;;
    julia-reuse) printf '%s\n' "break *julia_reuse_loop" "ignore 1 1" ;;
    # Stopped at the dynamic loader's first shared-library event (in _dl_debug_state, called
    # from ld.so's _start), where a signal sent at start-up also lands.
    startup) printf '%s\n' "set stop-on-solib-events 1" ;;
    esac
}

# name -> what happens after `run` before the commands (a watchpoint is set at a breakpoint)
after_run() {
    case $1 in
    watch-counter) printf '%s\n' "delete 1" "watch counter" "continue" "continue" ;;
    jit-heap-finish | jit-rwx-finish) printf '%s\n' "delete 1" "finish" ;;
    # The first clone3 returns in the parent; the new thread waits at its first instruction,
    # in clone3 on its fresh stack. Only the parent runs on (scheduler-locking).
    clone-child) printf '%s\n' "continue" "set scheduler-locking on" ;;
    esac
}

# The twin's signal: tgkill(pid, lwp of the selected thread, SIG), then continue.
twin_commands() {
    [[ -z $1 ]] && return 0
    local no
    no=$(kill -l "$1")
    # No breakpoint may stop another thread first, and only the signalled thread runs on.
    printf '%s\n' "delete" "set scheduler-locking on" \
        "python import ctypes, gdb; t = gdb.selected_thread().ptid; ctypes.CDLL(None).syscall(234, t[0], t[1], $no)" \
        "continue"
}

commands() {
    local bt="bt full"
    # gdb 13 stops with "Recursive internal problem." printing the locals of Rust's std frames.
    # 60,000 frames deep: the innermost frames only, as one would type it (deep-legal-break
    # stops 3,000 deep and prints them all).
    case $1 in threads-* | go-* | own-stack-* | clone-child) bt="thread apply all bt full" ;; rust-*) bt="thread apply all bt" ;;
        deep-legal-segv) bt="bt 40" ;; esac
    printf '%s\n' "$bt" "info registers" 'x/32gx $sp' 'x/6i $pc' "disassemble" "info frame" 'p $_siginfo' \
        "info proc mappings" "info sharedlibrary" "info threads" "frame 1" "info registers" 'x/8gx $sp' "frame 0"
}

# States whose core is small enough to write (Go reserves a 1 GiB arena, 60 threads 500 MB).
want_core() { case $1 in go-* | threads-*) return 1 ;; *) return 0 ;; esac; }

record() {
    local n=$1 b=${1%%+*} twin= exe s sig delay t g c a=()
    [[ $n == *+* ]] && twin=${n#*+}
    exe=$(build "$b") || return 0
    # Each command is its own -ex, so that one that fails (`frame 1` in a one-frame stack,
    # `disassemble` without a function) does not end the list, as an error in a -x file does.
    for c in "set pagination off" "set width 0" "set confirm off" "set print pretty off" \
        "set debuginfod enabled off"; do a+=(-ex "$c"); done
    while IFS= read -r c; do a+=(-ex "$c"); done < <(prelude "$b")
    a+=(-ex 'echo (gdb) run\n' -ex run)
    while IFS= read -r c; do a+=(-ex "echo (gdb) $c\\n" -ex "$c"); done < <(after_run "$b"; twin_commands "$twin"; commands "$b")
    want_core "$n" && a+=(-ex "generate-core-file $n.core")
    a+=(-ex kill)
    # shellcheck disable=SC2046
    (cd "$out" && exec env -i PATH=/usr/bin:/bin HOME="$out" LANG=C timeout 120 \
        gdb -q -batch -nx "${a[@]}" --args "./$exe" $(prog_args "$b") > "$out/$n.gdb.txt" 2>&1 < /dev/null) &
    t=$!
    s=$(sent "$n")
    if [[ -n $s ]]; then
        read -r sig delay <<< "$s"
        sleep "$delay"
        g=$(pgrep -P "$t" | head -1)
        c=
        [[ -n $g ]] && c=$(pgrep -P "$g" -x "$exe" | head -1)
        if [[ -n $c ]]; then kill -"$sig" "$c"; else echo "record.sh: $n: no process to signal" >&2; fi
    fi
    wait "$t"
}

for n in "${all[@]}"; do record "$n"; done
