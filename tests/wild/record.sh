#!/usr/bin/env bash
# Regenerates the RECORDED inputs of the wild corpus (tests/wild/*/): builds the programs in
# src/ and runs them under real gdb, lldb, Go, sanitizers, valgrind, strace and qemu-user.
# Files marked RECONSTRUCTED in their first line are not touched (they are hand-written,
# see MANIFEST). After regeneration, re-check the volatile facts in MANIFEST (addresses of
# the heap and stack repeat run to run under gdb on one machine, not across machines).
#
# Usage: tests/wild/record.sh [group ...]   groups: gdb lldb go san valgrind strace cross damage
# Needs: gcc g++ gdb; per group: lldb, golang-go, clang, valgrind, strace,
#        gdb-multiarch + qemu-user + {aarch64,powerpc64le,s390x,riscv64,i686}-linux-gnu-gcc.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
B=build
mkdir -p $B gdb lldb go san valgrind strace cross damage
run_env=(env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C)

# gdbrec OUT 'cmd1' 'cmd2' ... -- PROG ARGS: runs gdb in batch mode; each command is echoed
# as `(gdb) cmd` so the transcript reads like an interactive session.
gdbrec() {
    local out=$1; shift
    local cf=$B/cmds.gdb gdb=${GDB:-gdb}
    printf 'set pagination off\nset width 0\nset confirm off\n' >"$cf"
    while [ "$1" != "--" ]; do
        printf 'echo (gdb) %s\\n\n%s\n' "${1//\\/\\\\}" "$1" >>"$cf"
        shift
    done
    shift
    "${run_env[@]}" "$gdb" -q -batch -nx -x "$cf" --args "$@" >"$out" 2>&1 </dev/null
    sed -i "s#$here/##g" "$out"
}

group_gdb() {
    gcc -O0 -g -pthread src/crash.c -o $B/crash
    gcc -O2 -g -D_FORTIFY_SOURCE=2 src/crash.c -o $B/crash-fortify -pthread
    gcc -O0 -g -fno-stack-protector -pthread src/crash.c -o $B/crash-nosp
    cp $B/crash $B/crash-stripped && strip $B/crash-stripped
    gdbrec gdb/null-bt.txt 'run' 'bt' 'info registers' 'p $_siginfo' -- $B/crash null
    gdbrec gdb/null-btfull-disas.txt 'run' 'bt full' 'disassemble' 'x/4i $pc' -- $B/crash null
    gdbrec gdb/fnptr.txt 'run' 'bt' 'info registers rip rsp rbp rdi' 'x/2gx $sp' -- $B/crash fnptr
    gdbrec gdb/div.txt 'run' 'bt' 'p $_siginfo' 'x/i $pc' -- $B/crash div
    gdbrec gdb/fortify.txt 'run' 'bt' 'info sharedlibrary' -- $B/crash-fortify fortify a-name-longer-than-eight
    gdbrec gdb/abort-full.txt 'run' 'bt full' 'info registers rip' -- $B/crash abort
    gdbrec gdb/pattern.txt 'run' 'bt' 'info registers' -- $B/crash-nosp pattern
    gdbrec gdb/repeat.txt 'run' 'bt' 'info registers rip rsp rbp' -- $B/crash-nosp repeat
    gdbrec gdb/breakpoint.txt 'break session_len' 'run' 'bt' 'info registers rip rdi' 'continue' -- $B/crash null
    gdbrec gdb/breakpoint-multi.txt 'break bump' 'run' 'bt' 'continue' 'bt' 'info breakpoints' -- $B/crash-fortify ticks
    gdbrec gdb/breakpoint-threads-inline.txt 'break bump' 'run' 'bt' -- $B/crash-fortify threads
    gdbrec gdb/breakpoint-threads.txt 'break tick_a' 'run' 'bt' 'info threads' -- $B/crash threads
    gdbrec gdb/watchpoint.txt 'break main' 'run' 'watch counter' 'continue' 'bt' 'continue' -- $B/crash ticks
    gdbrec gdb/sigusr1.txt 'run' 'bt' 'info registers rip rsp' -- $B/crash usr1
    gdbrec gdb/sigtrap.txt 'run' 'bt' 'x/3i $pc' -- $B/crash trap
    gdbrec gdb/sigint.txt 'run' 'bt' -- $B/crash int
    gdbrec gdb/threads-all.txt 'run' 'info threads' 'thread apply all bt' -- $B/crash threads
    gdbrec gdb/stripped.txt 'run' 'bt' 'x/5i $pc' 'info registers rip' -- $B/crash-stripped null
    gdbrec gdb/handler-bt.txt 'handle SIGUSR1 nostop noprint pass' 'break tick_b' 'run' 'bt' -- $B/crash handler
    # a return address zeroed mid-stack (gdb stops unwinding at the zero pc), and a legal NULL
    # argument in a frame that faults on a non-NULL wild pointer (negative control)
    gdbrec gdb/zeroret.txt 'run' 'bt' 'info registers rip rsp rbp' 'p $_siginfo' -- $B/crash zeroret
    gdbrec gdb/nullarg-legal.txt 'run' 'bt' 'p $_siginfo' 'x/i $pc' -- $B/crash nullok
    # a core: write it from a live crash, then read it back the way users do
    gdbrec $B/gcore.txt 'run' "gcore $B/crash.core" -- $B/crash null
    "${run_env[@]}" gdb -q -batch -nx -ex 'echo (gdb) bt\n' -ex bt -ex 'echo (gdb) info registers rip rax\n' \
        -ex 'info registers rip rax' $B/crash $B/crash.core >gdb/core-bt.txt 2>&1 </dev/null
    sed -i "s#$here/##g" gdb/core-bt.txt
}

group_lldb() {
    command -v lldb >/dev/null || { echo "lldb missing"; return; }
    # Debian's lldb-14 looks for its python module under /usr/lib/local/...: without it every
    # run starts with a ModuleNotFoundError traceback (link it, as root, if you see one).
    gcc -O0 -g -pthread src/crash.c -o $B/crash
    # -o commands run in order; -k commands run only after the process crashed
    local l=(lldb --no-lldbinit --batch)
    "${run_env[@]}" "${l[@]}" -o run -k bt -k 'register read' -k 'frame variable' -- $B/crash null >lldb/null.txt 2>&1 </dev/null
    "${run_env[@]}" "${l[@]}" -o 'b tick_a' -o run -o 'thread backtrace' -o 'frame variable' -o 'register read rip rsp' -- $B/crash usr1 >lldb/breakpoint.txt 2>&1 </dev/null
    "${run_env[@]}" "${l[@]}" -o run -k 'bt all' -- $B/crash threads >lldb/threads.txt 2>&1 </dev/null
    "${run_env[@]}" "${l[@]}" -o run -k bt -k 'register read rip rsp rbp' -- $B/crash fnptr >lldb/fnptr.txt 2>&1 </dev/null
    "${run_env[@]}" "${l[@]}" -o run -o bt -- $B/crash usr1 >lldb/sigusr1.txt 2>&1 </dev/null
    "${run_env[@]}" "${l[@]}" -o run -k bt -k 'register read' -- $B/crash div >lldb/div.txt 2>&1 </dev/null
    "${run_env[@]}" "${l[@]}" -o run -k bt -k 'frame variable' -k 'disassemble --pc' -- $B/crash null >lldb/null-disas.txt 2>&1 </dev/null
    sed -i "s#$here/##g" lldb/*.txt
    # a paste of the register block without the prompt lines
    sed -n '/General Purpose Registers:/,/^$/p' lldb/null.txt >lldb/regs-noprompt.txt
}

group_go() {
    command -v go >/dev/null || { echo "go missing"; return; }
    (cd src/go && for p in nil index cgo goexit gopanic; do
        GOFLAGS=-mod=mod GO111MODULE=off go build -o ../../$B/go-$p ./$p || exit 1; done)
    for p in nil index cgo goexit gopanic; do
        "${run_env[@]}" GOTRACEBACK=${GOTB:-single} $B/go-$p >go/$p.txt 2>&1; done
    "${run_env[@]}" GOTRACEBACK=all $B/go-nil >go/nil-all.txt 2>&1
    "${run_env[@]}" GOTRACEBACK=crash $B/go-cgo >go/cgo-crash.txt 2>&1
    if command -v gccgo >/dev/null; then
        gccgo -g src/go/nil/main.go -o $B/gccgo-nil && "${run_env[@]}" $B/gccgo-nil >go/gccgo-nil.txt 2>&1
    fi
    sed -i "s#$here/##g" go/*.txt
}

group_san() {
    gcc -g -fsanitize=address src/san.c -o $B/san-asan -pthread
    gcc -g -fsanitize=undefined src/san.c -o $B/san-ubsan -pthread
    gcc -g -fsanitize=thread src/san.c -o $B/san-tsan -pthread
    for m in heap stack uaf double leak; do "${run_env[@]}" $B/san-asan $m >san/asan-$m.txt 2>&1; done
    "${run_env[@]}" $B/san-ubsan ubsan >san/ubsan.txt 2>&1
    "${run_env[@]}" UBSAN_OPTIONS=print_stacktrace=1 $B/san-ubsan ubsan >san/ubsan-stack.txt 2>&1
    "${run_env[@]}" setarch -R $B/san-tsan race >san/tsan-race.txt 2>&1
    if command -v clang >/dev/null; then
        clang -g -fsanitize=memory -fsanitize-memory-track-origins src/san.c -o $B/san-msan -pthread
        "${run_env[@]}" $B/san-msan uninit >san/msan-uninit.txt 2>&1
        clang -g -fsanitize=address src/san.c -o $B/san-casan -pthread
        "${run_env[@]}" $B/san-casan uaf >san/clang-asan-uaf.txt 2>&1
    fi
    sed -i "s#$here/##g" san/*.txt
}

group_valgrind() {
    gcc -O0 -g src/san.c -o $B/san -pthread
    gcc -O0 -g -pthread src/crash.c -o $B/crash
    for m in heap uaf double uninit; do "${run_env[@]}" valgrind -q $B/san $m >valgrind/$m.txt 2>&1; done
    "${run_env[@]}" valgrind --leak-check=full $B/san leak >valgrind/leak.txt 2>&1
    "${run_env[@]}" valgrind $B/crash null >valgrind/null.txt 2>&1
    "${run_env[@]}" valgrind -q $B/crash fnptr >valgrind/fnptr.txt 2>&1
    "${run_env[@]}" valgrind -q --track-origins=yes $B/san uninit >valgrind/uninit-origins.txt 2>&1
    sed -i "s#$here/##g; s#==[0-9]*==#==4242==#g" valgrind/*.txt
}

group_strace() {
    gcc -O0 -g -pthread src/crash.c -o $B/crash
    for m in null fnptr abort div usr1 pattern; do
        "${run_env[@]}" strace -o $B/st.txt $B/crash $m >/dev/null 2>&1
        tail -n 6 $B/st.txt >strace/$m.txt
    done
    "${run_env[@]}" strace -f -o $B/st.txt $B/crash threads >/dev/null 2>&1
    tail -n 8 $B/st.txt >strace/threads-f.txt
    # -k: a stack trace after each syscall and signal
    "${run_env[@]}" strace -k -e trace=none $B/crash null >/dev/null 2>$B/st.txt
    tail -n 12 $B/st.txt >strace/null-k.txt
    sed -i "s#$here/##g" strace/*.txt
}

# crossrec ARCH QEMU CC OUT MODE 'cmd'...: a cross-built crash.c under qemu-user's gdb stub.
crossrec() {
    local arch=$1 qemu=$2 cc=$3 out=$4 mode=$5; shift 5
    command -v "$cc" >/dev/null && command -v "$qemu" >/dev/null || { echo "$cc/$qemu missing"; return; }
    local sys=/usr/${cc%-gcc}
    "$cc" -O0 -g -static -pthread ${XCFLAGS:-} src/crash.c -o $B/crash-$arch || return
    "$qemu" -g 23$((RANDOM % 90 + 10))0 $B/crash-$arch $mode >/dev/null 2>&1 &
    sleep 0.2
    local port
    port=$(ss -ltnp 2>/dev/null | awk -v p="$!" '$0 ~ "pid="p"," {split($4,a,":"); print a[length(a)]}' | head -1)
    GDB=gdb-multiarch gdbrec "$out" "target remote :$port" 'continue' "$@" -- $B/crash-$arch
    kill $! 2>/dev/null; wait $! 2>/dev/null
}

group_cross() {
    crossrec aarch64 qemu-aarch64 aarch64-linux-gnu-gcc cross/aarch64-null.txt null 'bt' 'info registers' 'x/3i $pc'
    crossrec aarch64 qemu-aarch64 aarch64-linux-gnu-gcc cross/aarch64-fnptr.txt fnptr 'bt' 'info registers pc sp x29 x30 x0'
    crossrec aarch64 qemu-aarch64 aarch64-linux-gnu-gcc cross/aarch64-abort.txt abort 'bt' 'info registers pc sp'
    crossrec ppc64le qemu-ppc64le powerpc64le-linux-gnu-gcc cross/ppc64le-null.txt null 'bt' 'info registers'
    crossrec s390x qemu-s390x s390x-linux-gnu-gcc cross/s390x-null.txt null 'bt' 'info registers'
    crossrec riscv64 qemu-riscv64 riscv64-linux-gnu-gcc cross/riscv64-null.txt null 'bt' 'info registers'
    crossrec i686 qemu-i386 i686-linux-gnu-gcc cross/i386-null.txt null 'bt' 'info registers'
    crossrec i686 qemu-i386 i686-linux-gnu-gcc cross/i386-fnptr.txt fnptr 'bt' 'info registers eip esp ebp'
    XCFLAGS=-fno-stack-protector crossrec aarch64 qemu-aarch64 aarch64-linux-gnu-gcc cross/aarch64-pattern.txt pattern 'bt' 'info registers pc sp x29 x30'
    crossrec aarch64 qemu-aarch64 aarch64-linux-gnu-gcc cross/aarch64-threads.txt threads 'info threads' 'thread apply all bt'
    crossrec aarch64 qemu-aarch64 aarch64-linux-gnu-gcc cross/aarch64-usr1.txt usr1 'bt'
    crossrec ppc64le qemu-ppc64le powerpc64le-linux-gnu-gcc cross/ppc64le-abort.txt abort 'bt' 'info registers pc lr r1'
    crossrec aarch64 qemu-aarch64 aarch64-linux-gnu-gcc cross/aarch64-zeroret.txt zeroret 'bt' 'info registers pc sp x29 x30 x0' 'x/i $pc'
    crossrec aarch64 qemu-aarch64 aarch64-linux-gnu-gcc cross/aarch64-nullarg-legal.txt nullok 'bt' 'info registers pc x0 x1' 'x/i $pc'
    if command -v go >/dev/null && command -v qemu-aarch64 >/dev/null; then
        (cd src/go && GOARCH=arm64 GO111MODULE=off go build -o ../../$B/go-nil-arm64 ./nil && \
            CGO_ENABLED=0 GOARCH=arm64 GO111MODULE=off go build -o ../../$B/go-index-arm64 ./index)
        "${run_env[@]}" qemu-aarch64 $B/go-nil-arm64 >cross/go-nil-arm64.txt 2>&1
        "${run_env[@]}" GOTRACEBACK=all qemu-aarch64 $B/go-index-arm64 >cross/go-index-arm64.txt 2>&1
        sed -i "s#$here/##g" cross/go-*.txt
    fi
}

# LLVM's crash handler, really triggered: clang's `#pragma clang __debug crash` (a trap in the
# preprocessor) and `__debug llvm_fatal_error` (report_fatal_error). The names of the
# reproducer files clang writes to /tmp are random; replaced by a fixed name.
group_reports() {
    mkdir -p reports
    if command -v clang >/dev/null; then
        (cd src/llvm && "${run_env[@]}" clang -c pragma-crash.c -o /dev/null >../../reports/clang-pragma-crash.txt 2>&1)
        (cd src/llvm && "${run_env[@]}" clang -c pragma-fatal.c -o /dev/null >../../reports/clang-fatal-error.txt 2>&1)
        sed -i -E 's#/tmp/pragma-(crash|fatal)-[0-9a-f]+\.#/tmp/pragma-\1-000000.#g' reports/clang-*.txt
    fi
    # The Rust runtime's own reports: a panic (RUST_BACKTRACE=1 and full), a stack overflow
    # caught by the guard-page handler, and cargo test's report of a test that died of SIGSEGV.
    if command -v rustc >/dev/null; then
        rustc -g -C opt-level=0 src/rust/crash.rs -o $B/rust-crash
        "${run_env[@]}" RUST_BACKTRACE=1 $B/rust-crash index >reports/rust-panic-backtrace.txt 2>&1
        "${run_env[@]}" RUST_BACKTRACE=full $B/rust-crash index >reports/rust-panic-full.txt 2>&1
        "${run_env[@]}" $B/rust-crash overflow >reports/rust-stack-overflow.txt 2>&1
        (cd src/rust/segv && env CARGO_TARGET_DIR=../../../$B/rust-segv cargo test -q >../../../reports/rust-cargo-segv.txt 2>&1)
        sed -i "s#$here/##g" reports/rust-*.txt
    fi
}

# A stack overflow (src/overflow.c) as ASan, valgrind and gdb print it; gdb also shows
# `info all-registers` (vector and mask registers) and `info frame` at the crash.
group_overflow() {
    gcc -O0 -g -fsanitize=address src/overflow.c -o $B/overflow-asan
    gcc -O0 -g src/overflow.c -o $B/overflow
    "${run_env[@]}" $B/overflow-asan >san/asan-stack-overflow.txt 2>&1
    "${run_env[@]}" valgrind $B/overflow >valgrind/stack-overflow.txt 2>&1
    gdbrec gdb/overflow-allregs.txt 'run' 'bt 3' 'info frame' 'info all-registers' -- $B/overflow
    sed -i "s#$here/##g" san/asan-stack-overflow.txt valgrind/stack-overflow.txt
    sed -i "s#==[0-9]*==#==4242==#g" valgrind/stack-overflow.txt
}

# Damaged pastes: recorded transcripts run through damage.py (origin in MANIFEST: the source).
group_damage() {
    local d=./damage.py
    $d wrap60 gdb/null-bt.txt damage/gdb-null-wrap60.txt
    $d noprompt,wrap72 gdb/pattern.txt damage/gdb-pattern-noprompt-wrap72.txt
    $d interleave gdb/threads-all.txt damage/gdb-threads-interleaved.txt
    $d quote gdb/breakpoint-threads.txt damage/gdb-breakpoint-quoted.txt
    $d truncate gdb/null-btfull-disas.txt damage/gdb-btfull-truncated.txt
    $d noindent go/nil-all.txt damage/go-nil-noindent.txt
    $d wrap72 go/cgo.txt damage/go-cgo-wrap72.txt
    $d noindent san/asan-heap.txt damage/asan-heap-noindent.txt
    $d crlf san/tsan-race.txt damage/tsan-race-crlf.txt
    $d quote2,fence valgrind/uaf.txt damage/valgrind-uaf-quoted.txt
    $d wrap100 lldb/threads.txt damage/lldb-threads-wrap100.txt
    $d noindent,interleave lldb/null.txt damage/lldb-null-noindent-interleaved.txt
    $d wrap80 cross/aarch64-null.txt damage/aarch64-null-wrap80.txt
    $d fence,quote cross/go-nil-arm64.txt damage/go-nil-arm64-quoted.txt
}

groups=("$@")
[ ${#groups[@]} -eq 0 ] && groups=(gdb lldb go san valgrind strace cross reports overflow damage)
for g in "${groups[@]}"; do echo "== $g"; "group_$g"; done
