#!/usr/bin/env bash
# Regenerate the samples that need tools beyond gcc + gdb: AArch64 gdb sessions (under
# qemu-user), Go runtime crash output, and lldb sessions.  Each section is opt-in by name.
#
# Usage: sample-traces/regenerate-extra.sh [aarch64] [go] [lldb]   (default: all three)
#
# Tools (Debian package names):
#   aarch64: gcc-aarch64-linux-gnu, qemu-user (qemu-aarch64), gdb-multiarch
#   go:      golang-go (plus gcc for cgo; qemu-user for the arm64 sample)
#   lldb:    lldb (python3-lldb-14 too, or lldb 14 prints a Python traceback first)
#
# Binaries go to sample-traces/build/extra/ (gitignored).  Transcripts are overwritten:
#   aarch64/<name>.gdb.txt, go/<name>.txt, lldb/<name>.lldb.txt
# Like regenerate.sh, every transcript is real, unedited output, and each is checked for
# the facts it must show; the script exits non-zero if a check fails.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
build=${EXTRA_BUILD:-build/extra} # EXTRA_BUILD=/tmp/x keeps the checkout's path out of lldb's "Current executable" line
run_env=(env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C)
sysroot=/usr/aarch64-linux-gnu

sections=("$@")
((${#sections[@]})) || sections=(aarch64 go lldb)

status=0
need() {
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "regenerate-extra.sh: $tool not found" >&2; exit 1; }
    done
}

# check FILE 'needle|needle|...'
check() {
    local out=$1 needle
    printf '%-46s %7d bytes\n' "$out" "$(wc -c <"$out")"
    IFS='|' read -r -a needles <<<"$2"
    for needle in "${needles[@]}"; do
        if ! grep -qF -- "$needle" "$out"; then
            echo "  CHECK FAILED: $out lacks: $needle" >&2
            status=1
        fi
    done
}

# Listening sockets are looked up with ss, never by connecting: qemu's gdbstub takes a
# single connection, and a probe would use it up.
port_listening() {
    [[ -n $(ss -Hltn "sport = :$1" 2>/dev/null) ]]
}

pick_port() {
    local p=${QEMU_GDB_PORT:-23946}
    while port_listening "$p"; do p=$((p + 1)); done
    echo "$p"
}

# qemu_gdb NAME BINARY CMDFILE OUT [LOG]: run BINARY under `qemu-aarch64 -g PORT`, attach
# gdb-multiarch with CMDFILE (@PORT@ and @OUT@ substituted), transcript to OUT.  With LOG,
# gdb's output goes to LOG instead (the command file writes OUT itself).
qemu_gdb() {
    local name=$1 bin=$2 cmdfile=$3 out=$4 log=${5:-$4} port qpid tmpcmd
    port=$(pick_port)
    tmpcmd=$build/$name.gdb
    sed -e "s/@PORT@/$port/g" -e "s|@OUT@|$out|g" "$cmdfile" >"$tmpcmd"
    "${run_env[@]}" qemu-aarch64 -g "$port" -L "$sysroot" "$bin" >"$build/$name.qemu.out" 2>&1 &
    qpid=$!
    # qemu listens before it runs anything; give it a moment to open the port.
    for _ in $(seq 50); do port_listening "$port" && break; sleep 0.1; done
    "${run_env[@]}" timeout 120 gdb-multiarch -q -batch -nx -x "$tmpcmd" "$bin" >"$log.tmp" 2>&1 </dev/null || true
    kill "$qpid" 2>/dev/null || true
    wait "$qpid" 2>/dev/null || true
    # The command file's own path appears in gdb's "Error in sourced command file"
    # message; show the committed file's name, not the temporary copy.
    sed -e "s|$tmpcmd|$cmdfile|g" "$log.tmp" >"$log"
    rm -f "$log.tmp"
}

section_aarch64() {
    need aarch64-linux-gnu-gcc qemu-aarch64 gdb-multiarch ss
    local b=$build/aarch64
    mkdir -p "$b"
    local CC=(aarch64-linux-gnu-gcc -O0 -g)
    # The .S half gets no debug info, like JIT-compiled Julia code.
    aarch64-linux-gnu-gcc -c aarch64/src/julia-trampoline-aarch64.S -o "$b/jit-bad.o"
    "${CC[@]}" src/julia-trampoline.c "$b/jit-bad.o" -o "$b/julia-trampoline-bad-x20"
    aarch64-linux-gnu-gcc -DGOOD_X20 -c aarch64/src/julia-trampoline-aarch64.S -o "$b/jit-good.o"
    "${CC[@]}" -DGOOD_X20 src/julia-trampoline.c "$b/jit-good.o" -o "$b/julia-trampoline-good-x20"
    "${CC[@]}" src/null-field.c -o "$b/null-field"

    qemu_gdb julia-trampoline-bad-x20 "$b/julia-trampoline-bad-x20" aarch64/gdb/julia-trampoline-bad-x20.gdb aarch64/julia-trampoline-bad-x20.gdb.txt
    check aarch64/julia-trampoline-bad-x20.gdb.txt 'Program received signal SIGSEGV|in julia_module_callback_4212 ()|in jlcapi_module_callback_4213 ()|in run_pass_manager ()|in julia_run_21 ()|x20            0x|cpsr           0x|0x000000000000002a|Unable to read siginfo'
    qemu_gdb julia-trampoline-good-x20 "$b/julia-trampoline-good-x20" aarch64/gdb/julia-trampoline-good-x20.gdb aarch64/julia-trampoline-good-x20.gdb.txt
    check aarch64/julia-trampoline-good-x20.gdb.txt 'Breakpoint 1, 0x|in julia_module_callback_4212 ()|exited normally'
    qemu_gdb null-field "$b/null-field" aarch64/gdb/null-field.gdb aarch64/null-field.gdb.txt
    check aarch64/null-field.gdb.txt 'Program received signal SIGSEGV|in session_bytes (s=0x0)|registry_total|x0             0x0 '
    qemu_gdb collect-julia-trampoline-bad-x20 "$b/julia-trampoline-bad-x20" aarch64/gdb/collect-julia-trampoline-bad-x20.gdb aarch64/julia-trampoline-bad-x20.collect.txt "$build/collect.gdb.log"
    check aarch64/julia-trampoline-bad-x20.collect.txt 'tracecheck-collect: |It stopped with signal SIGSEGV|(gdb) x/4gx $x20|(gdb) thread apply all bt full'
}

section_go() {
    need go gcc qemu-aarch64
    local b=$build/go
    mkdir -p "$b"
    export GOCACHE=${GOCACHE:-$here/$build/go-cache} GO111MODULE=off
    local name
    for name in nil-deref traceback-crash cgo-segv cgo-abort sigquit; do
        go build -o "$b/$name" "go/src/$name.go"
    done
    for name in nil-deref sigquit; do
        CGO_ENABLED=0 GOARCH=arm64 go build -o "$b/$name-arm64" "go/src/$name.go"
    done
    # The programs' stderr is the transcript; their exit status is checked below instead.
    for name in nil-deref traceback-crash cgo-segv cgo-abort sigquit; do
        "${run_env[@]}" "$b/$name" >"go/$name.txt" 2>&1 </dev/null || true
    done
    for name in nil-deref sigquit; do
        "${run_env[@]}" qemu-aarch64 "$b/$name-arm64" >"go/$name-arm64.txt" 2>&1 </dev/null || true
    done
    check go/nil-deref.txt 'panic: runtime error: invalid memory address or nil pointer dereference|[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=|goroutine 1 [running]:|main.sessionBytes(|main.registryTotal(|main.main()'
    check go/traceback-crash.txt 'panic: runtime error|addr=0x18|goroutine 1 [running]:|runtime.sigpanic()|main.sessionBytes(|[chan receive]:|created by main.main'
    check go/cgo-segv.txt 'fatal error: unexpected signal during runtime execution|[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=|runtime stack:|goroutine 1 [syscall]:|main.handle('
    check go/cgo-abort.txt 'SIGABRT: abort|PC=0x|signal arrived during cgo execution|goroutine 1 [syscall]:|main.fill(|rax    0x|rflags |r14    0x'
    check go/sigquit.txt 'SIGQUIT: quit|PC=0x|goroutine 1 [|rax    0x|r14    0x|rip    0x'
    check go/nil-deref-arm64.txt 'panic: runtime error: invalid memory address or nil pointer dereference|addr=0x18|main.sessionBytes('
    check go/sigquit-arm64.txt 'SIGQUIT: quit|PC=0x|r28     0x|lr      0x|pc      0x|fault   0x'
}

section_lldb() {
    need lldb gcc
    local b=$build/lldb
    mkdir -p "$b"
    local CC=(gcc -O0 -g)
    "${CC[@]}" src/null-field.c -o "$b/null-field"
    "${CC[@]}" -pthread src/threads-crash.c -o "$b/threads-crash"
    "${CC[@]}" src/glibc-abort.c -o "$b/glibc-abort"
    gcc -c src/julia-trampoline.S -o "$b/jit.o"
    "${CC[@]}" src/julia-trampoline.c "$b/jit.o" -o "$b/julia-trampoline-bad-r13"
    cp "$b/julia-trampoline-bad-r13" "$b/julia-trampoline-frames"
    # Debian 12's lldb 14 looks for its Python module in the wrong place.
    local py=()
    for d in /usr/lib/llvm-*/lib/python3*/dist-packages; do
        [[ -f $d/lldb/embedded_interpreter.py ]] && py=(PYTHONPATH="$d")
    done
    local name line args kargs
    for name in null-field threads-crash glibc-abort julia-trampoline-bad-r13 julia-trampoline-frames; do
        # lldb --batch stops running -o commands when it decides the program crashed
        # and runs the -k ("one line on crash") commands instead; which one it decides
        # varies by program.  So every command after `process launch` is given both ways;
        # exactly one of the two lists runs.
        args=() kargs=()
        while IFS= read -r line; do
            [[ -z $line || $line == \#* ]] && continue
            args+=(-o "$line")
            [[ $line == "process launch" ]] || kargs+=(-k "$line")
        done <"lldb/cmd/$name.lldb"
        # Run from the build dir so lldb's `target create` line names just the program.
        (cd "$b" && "${run_env[@]}" "${py[@]}" timeout 120 lldb --batch "${args[@]}" "${kargs[@]}" -- "./$name") \
            >"lldb/$name.lldb.txt" 2>&1 </dev/null || true
    done
    check lldb/null-field.lldb.txt "stop reason = signal SIGSEGV: invalid address (fault address: 0x18)|frame #0: 0x|session_bytes(s=0x0000000000000000)|       rax = 0x0000000000000000|evaluation failed"
    check lldb/threads-crash.lldb.txt "thread #6, name = 'crasher', stop reason = signal SIGSEGV|store_result(|thread #2, name = 'io-reader'|       rdx = 0x000000000000002a"
    check lldb/glibc-abort.lldb.txt "free(): double free detected in tcache 2|stop reason = signal SIGABRT|buffer_release("
    check lldb/julia-trampoline-bad-r13.lldb.txt 'fault address: 0x3a|julia_module_callback_4212 + 15|       r13 = 0x|(lldb) memory read --size 8 --format x --count 4 $r13'
    check lldb/julia-trampoline-frames.lldb.txt 'fault address: 0x3a|(lldb) disassemble --frame|run_pass_manager:|movq   %rsi, %r13'
}

mkdir -p "$build"
for s in "${sections[@]}"; do
    case $s in
    aarch64) section_aarch64 ;;
    go) section_go ;;
    lldb) section_lldb ;;
    *) echo "regenerate-extra.sh: unknown section $s (aarch64, go, lldb)" >&2; exit 2 ;;
    esac
done
exit $status
