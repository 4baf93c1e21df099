#!/usr/bin/env bash
# Build every crasher in src/ and record what gdb sees at its crash.
#
#   regenerate.sh [name ...]                 transcripts: <name>.gdb.txt here (default: all)
#   regenerate.sh --cores DIR [name ...]     cores instead: DIR/<name> (the executable) and
#                                            DIR/<name>.core (gdb's generate-core-file at the
#                                            same stop); tests/crash_corpus.rs uses this.
#   regenerate.sh --lldb [name ...]          lldb transcripts: <name>.lldb.txt here (x86-64
#                                            cases and a64-x20-*; the other a64-* cases are
#                                            skipped), the same programs run by lldb (see
#                                            lldb_one and a64_lldb_one below).
#
# Needs gcc, g++, gfortran, clang, clang++, rustc, go, gccgo (gccgo-nil), gdc (d-*), gnatmake (ada-*), gdb, i686-linux-gnu-gcc (i386-* cases); musl-gcc
# for the musl-* cases (skipped with a message when absent).  The a64-* cases are AArch64: built static with
# aarch64-linux-gnu-gcc and run under qemu-aarch64; their transcripts need gdb-multiarch
# attached to `qemu-aarch64 -g PORT` (see a64_one below), their cores are qemu's own
# (qemu-user writes qemu_<prog>_<date>_<pid>.core when the guest dies of a signal).  Transcripts are the unedited stdout+stderr of gdb run as
#   cd $build && env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C timeout 120 gdb -q -batch -nx -x <name>.gdb --args ./<name>
# with the commands listed in gdb_commands below (each echoed as "(gdb) cmd").  Some cases
# run with a small stack limit (ulimit -s) so that a runaway recursion overflows after a
# few thousand frames instead of a few hundred thousand.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"

mode=transcripts
if [[ ${1:-} == --cores ]]; then
    mode=cores
    out_dir=$(mkdir -p "$2" && cd "$2" && pwd)
    shift 2
elif [[ ${1:-} == --lldb ]]; then
    mode=lldb
    shift
fi

all=(ipa-align-static julia-named-c go-named-c handler-psiginfo handler-strsignal
     deep-recursion thread-overflow altstack-overflow altstack-handler-null ucontext-coro
     ucontext-overflow setjmp-longjmp longjmp-fortify jit-null jit-noexec heap-pc stack-pc
     lto-o3-omitfp clang-noncanonical static-nullfn static-pie-wild musl-null musl-assert
     asm-clobber-r12 asm-cfi-slot asm-save-ok cyclic-smash cyclic-smash-canonical
     popcount-masks raise-segv tagged-values legal-deep-recursion mprotect-write abort-custom
     free-invalid corrupted-top cpp-pure-virtual cpp-terminate-noactive cpp-noexcept-throw
     cpp-caught-then-segv rust-overflow rust-unwrap-none rust-caught-panic-segv rust-two-panics go-nil
     clang-movaps clang-thread-assert asm-cfi-movsave asm-cfi-movsave-ok cpp-deleted-virtual
     clang-o3-static-pie jit-garbage clang-stack-protector entry-value-walk
     tcache-double-free tcache-unaligned munmap-chunk gcc-stack-smash-o0 gcc-stack-smash-o3
     fortify-strcpy sigfpe-div sigill-trap sigbus-truncated sse-packed-misaligned cpp-vector-at
     cpp-bad-alloc cpp-throw-through-c rust-refcell rust-thread-panic-abort rust-thread-overflow
     rust-ffi-null qsort-strcmp-null dlopen-plugin fork-child-null inline-chain-o3
     same-bug-clang-o0 same-bug-gcc-o2 static-double-free alloca-near-guard deep-legal-5000
     sigmask-blocked-segv strlen-null rodata-write i386-static-null threads-mutex-null
     leak-then-null handler-pthread-exit huge-alloca mutual-recursion rust-process-abort
     rust-assert-eq cpp-thread-throw fasttop-double-free invalid-next-size bare-abort sigtrap-int3
     null-array-index rust-drop-panic asm-misaligned-printf asm-hlt asm-push-imbalance
     handler-itself-null atexit-null
     a64-x20-stale a64-x20-ok a64-clobber-x19 a64-cfi-slot a64-null-o2 julia-r13-intel
     push-slot-overrun push-slot-ok live-slot-smash live-slot-ok
     cgo-null cpp-bad-function-call tailcall-null-fnptr realign-callee-ok
     cpp-vptr-null-call ubsan-trap-overflow avx2-null cpp-dtor-throw ctor-null fortran-bounds
     dlclose-stale omp-worker-null memcpy-null-src cpp-delete-mismatch realloc-invalid-size
     thread-alloca-loop pthread-cancel-catchall cgo-callback-nil go-concurrent-map ac-flag-misaligned
     cpp-coro-after-destroy a64-callee-heavy threads-handler-parked thread-deep-legal-64k
     noreturn-longjmp-null fill-patterns-legal a64-tbi-tagged seccomp-sigsys mutex-owner-assert
     sigfpe-float-trap
     musl-thread-overflow musl-double-free musl-dyn-strlen-null siglongjmp-second-fault gxx-noexcept-throw
     cpp-pure-virtual-dtor cpp-thread-joinable rust-extern-c-panic rust-alloc-fail clang-lto-o3
     avx512-misaligned avx-vmovups-null inline-asm-clobber-rbx inline-asm-clobber-ok malloc-check-overflow
     double-free-prev free-stack-array asan-heap-overflow asan-uaf ubsan-misaligned tsan-race
     a64-stp-slot-overrun a64-stp-slot-ok a64-double-free
     perturb-uaf-list list-poison-del saved-rbp-overwrite leave-wild-rsp
     i386-stack-smash i386-assert i386-intmin-div i386-omitfp-null i386-double-free i386-deep-legal
     sigfpe-intmin alloca-negative jit-munmap text-write coro-small-stack altstack-handler-faults
     longjmp-stale go-nil-map go-stack-exceeded go-deadlock gccgo-nil rust-uaf-unsafe
     rust-misaligned-deref cpp-glibcxx-assert cpp-string-null cpp-system-error sigill-cpu-feature
     double-fclose fortify-percent-n unsorted-corrupted sigxcpu-limit sigpipe-write fortran-null-pointer
     sp-pivot-unmapped sp-pivot-rodata longjmp-mangled-sp setcontext-live-stack
    tls-dtor-null cpp-thread-local-dtor cpp-static-dtor-order cpp-static-init-throw
    cpp-uaf-realloc-vptr cpp-shared-ptr-double-own cpp-bad-optional printf-bad-string
    atoi-getenv-null guard-page-arena guard-page-legal thread-vla-overflow thread-stale-stack-ref
    musl-stack-smash clang-cfi-icall safe-stack-null jemalloc-free-stack rust-big-frame-thread
    rust-precondition-null rust-mul-overflow rust-slice-closure rust-list-drop-overflow go-nil-func
    go-goroutine-index go-type-assert cgo-goroutine-segv fortran-fpe-trap
    fortran-auto-array-overflow i386-nullfn i386-recursion-overflow a64-recursion-overflow
    a64-nullfn a64-stack-smash a64-assert
    prev-size-consolidate double-free-out fortify-fdset fortify-read-stack thread-stack-smash
    atexit-assert handler-assert cpp-nested-exception cpp-qsort-throw cpp-qsort-throw-caught
    rust-panic-in-hook rust-dlsym-null go-closed-chan-send go-div-zero go-unlock-unlocked
    go-recover-then-nil cgo-assert d-null-class ada-null-access altstack-handler-overflow
    altstack-legal-deep sigfpe-handled-legal ud2-unreachable-legal gc-barrier-legal low-mmap-stale
    jit-wx-patch jit-wx-legal unsorted-invalid-size dlopen-ctor-null ifunc-resolver-null
    assert-log-legal
    cs-inline-all-gcc-o2 cs-inline-all-clang-o2 cs-inline-all-gcc-o0 cs-asm-no-restore
    cs-overflow-saved-reg-gcc-o2 cs-overflow-saved-reg-clang-o2 cs-spill-reload-gcc-o0 cs-spill-reload-clang-o0
    cs-longjmp-stale-reg cs-sigcontext-regs a64-inline-clobber a64-asm-no-restore
    cs-ok-reuse-after-call cs-ok-unused-leaf cs-ok-omitfp-rbp cs-ok-setjmp-volatile cs-ok-swapcontext
    cs-ok-julia-like-o2
    tailcall-chain2 tailcall-chain3 tailcall-chain3-clang tailcall-indirect tailcall-ambiguous
    tailcall-suffix tailcall-chain2-nosibling
    py-ext-null py-faulthandler-reraise py-fatal-error py-ctypes-null py-dump-then-assert
    jni-null jni-fatal-error jvm-probe-legal node-napi-null node-napi-fatal
    lua-panic-unprotected lua-cmodule-null lua-pcall-legal fpc-nil-deref fpc-recursion-overflow
    cpp-bad-variant-access cpp-static-init-recursion cpp-broken-promise cpp-stoi-invalid
    glibc-sysmalloc-assert tls-fs-clobbered asan-segv msan-uninit rust-foreign-exception rust-panic-any
    py-recursion-overflow node-abort-uncaught cpp-variant-caught fastbin-uaf-unaligned perl-xs-null)

# Transcripts: binaries go to $CRASHERS_BUILD (default /tmp/tracecheck-crashers), outside the
# repository, so the paths gdb prints (mappings, shared libraries) do not name the checkout.
if [[ $mode == cores ]]; then build=$out_dir; else build=${CRASHERS_BUILD:-/tmp/tracecheck-crashers}; fi
mkdir -p "$build"
ln -sfn "$here/src" "$build/src" # gdb finds src/<file> (the compile dir is recorded as ".")
map=(-fdebug-prefix-map="$here"=.)
# The bundled samples' sources (sample-traces/src), for the cases built from them.
samples_src=$(cd "$here/../src" && pwd)

# name -> build command; sources are named relative to this directory so that debug info
# says src/<file>.
build_one() {
    local n=$1 o=$build/$1
    case $n in
    ipa-align-static | julia-named-c | go-named-c | setjmp-longjmp | popcount-masks | tagged-values | \
        entry-value-walk)
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    longjmp-fortify)
        gcc "${map[@]}" -O2 -g -D_FORTIFY_SOURCE=2 "src/$n.c" -o "$o" ;;
    handler-psiginfo | handler-strsignal | deep-recursion | altstack-overflow | altstack-handler-null | \
        ucontext-coro | ucontext-overflow | jit-null | jit-noexec | heap-pc | stack-pc | raise-segv | \
        legal-deep-recursion | mprotect-write | abort-custom | free-invalid | corrupted-top | jit-garbage)
        gcc "${map[@]}" -O0 -g "src/$n.c" -o "$o" ;;
    thread-overflow | threads-mutex-null | handler-pthread-exit)
        gcc "${map[@]}" -O0 -g -pthread "src/$n.c" -o "$o" ;;
    lto-o3-omitfp)
        gcc "${map[@]}" -O3 -g -flto -fomit-frame-pointer "src/$n.c" -o "$o" ;;
    clang-noncanonical)
        clang "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    clang-thread-assert)
        clang "${map[@]}" -O2 -g -pthread "src/$n.c" -o "$o" ;;
    clang-movaps)
        clang -c src/clang-movaps-shim.S -o "$o-shim.o"
        clang "${map[@]}" -O2 -g "src/$n.c" "$o-shim.o" -o "$o" ;;
    clang-stack-protector)
        clang "${map[@]}" -O2 -g -fstack-protector-strong "src/$n.c" -o "$o" ;;
    clang-o3-static-pie)
        clang "${map[@]}" -O3 -g -fomit-frame-pointer -static-pie -fPIE "src/$n.c" -o "$o" ;;
    static-nullfn)
        gcc "${map[@]}" -O1 -g -static "src/$n.c" -o "$o" ;;
    static-pie-wild)
        gcc "${map[@]}" -O1 -g -static-pie -fPIE "src/$n.c" -o "$o" ;;
    musl-null | musl-assert)
        musl-gcc "${map[@]}" -O1 -g -static "src/$n.c" -o "$o" ;;
    asm-clobber-r12 | asm-cfi-slot | asm-save-ok | asm-cfi-movsave | asm-cfi-movsave-ok | push-slot-overrun | \
        push-slot-ok | live-slot-smash | live-slot-ok | asm-misaligned-printf | asm-hlt | asm-push-imbalance | \
        cs-asm-no-restore | cs-ok-unused-leaf)
        gcc -c "src/$n.S" -o "$o-asm.o"
        gcc "${map[@]}" -O2 -g "src/$n.c" "$o-asm.o" -o "$o" ;;
    julia-r13-intel)
        # The founding program itself, from sample-traces/src/julia-trampoline.{c,S} (the Intel
        # syntax is gdb's, `set disassembly-flavor intel` in extra_commands: the build is the
        # founding sample's). Debug info names it src/julia-trampoline.c, as in the founding
        # transcripts; the .S half gets no debug info, like JIT-compiled Julia code (as
        # sample-traces/regenerate.sh).
        gcc -c "$samples_src/julia-trampoline.S" -o "$o-jit.o"
        gcc "${map[@]}" -fdebug-prefix-map="$samples_src"=src -O0 -g "$samples_src/julia-trampoline.c" "$o-jit.o" \
            -o "$o" ;;
    cyclic-smash | cyclic-smash-canonical)
        gcc -O0 -g -fno-stack-protector "src/$n.c" -o "$o" ;;
    cpp-pure-virtual | cpp-terminate-noactive | cpp-caught-then-segv | cpp-deleted-virtual)
        g++ "${map[@]}" -O0 -g "src/$n.cpp" -o "$o" ;;
    cpp-noexcept-throw)
        clang++ "${map[@]}" -O2 -g "src/$n.cpp" -o "$o" ;;
    rust-overflow)
        rustc --remap-path-prefix "$here"=. -g "src/$n.rs" -o "$o" ;;
    rust-caught-panic-segv)
        # without debug assertions the NULL read is a real SIGSEGV
        rustc --remap-path-prefix "$here"=. -g -C debug-assertions=off "src/$n.rs" -o "$o" ;;
    rust-two-panics)
        # same source, debug assertions on: the NULL read becomes a second, non-unwinding panic
        rustc --remap-path-prefix "$here"=. -g src/rust-caught-panic-segv.rs -o "$o" ;;
    rust-unwrap-none)
        rustc --remap-path-prefix "$here"=. -g -O -C panic=abort "src/$n.rs" -o "$o" ;;
    go-nil)
        (cd src && env GOCACHE="$build/gocache" GOPATH="$build/gopath" GO111MODULE=off \
            go build -trimpath -gcflags=-N -o "$o" go-nil.go) ;;
    tcache-double-free | tcache-unaligned | munmap-chunk | sigbus-truncated | \
        fork-child-null | alloca-near-guard | deep-legal-5000 | sigmask-blocked-segv | leak-then-null | \
        huge-alloca | mutual-recursion | fasttop-double-free | invalid-next-size | bare-abort | sigtrap-int3 | \
        handler-itself-null | atexit-null)
        gcc "${map[@]}" -O0 -g "src/$n.c" -o "$o" ;;
    gcc-stack-smash-o0)
        gcc "${map[@]}" -O0 -g -fstack-protector-all "src/$n.c" -o "$o" ;;
    gcc-stack-smash-o3)
        gcc "${map[@]}" -O3 -g -fstack-protector-strong "src/$n.c" -o "$o" ;;
    fortify-strcpy)
        gcc "${map[@]}" -O2 -g -D_FORTIFY_SOURCE=2 "src/$n.c" -o "$o" ;;
    sigfpe-div | sigill-trap | sse-packed-misaligned | qsort-strcmp-null | strlen-null | rodata-write | \
        null-array-index)
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    cpp-vector-at)
        g++ "${map[@]}" -O2 -g "src/$n.cpp" -o "$o" ;;
    cpp-thread-throw)
        g++ "${map[@]}" -O2 -g -pthread "src/$n.cpp" -o "$o" ;;
    cpp-bad-alloc)
        g++ "${map[@]}" -O0 -g "src/$n.cpp" -o "$o" ;;
    cpp-throw-through-c)
        # the C library has no unwind tables: the exception cannot pass its frame
        gcc "${map[@]}" -O2 -g -fno-asynchronous-unwind-tables -fno-exceptions -c src/cpp-throw-through-c-lib.c -o "$o-lib.o"
        g++ "${map[@]}" -O2 -g "src/$n.cpp" "$o-lib.o" -o "$o" ;;
    rust-refcell | rust-assert-eq)
        rustc --remap-path-prefix "$here"=. -g -C panic=abort "src/$n.rs" -o "$o" ;;
    rust-thread-panic-abort)
        rustc --remap-path-prefix "$here"=. -g -O -C panic=abort "src/$n.rs" -o "$o" ;;
    rust-thread-overflow | rust-process-abort | rust-drop-panic)
        rustc --remap-path-prefix "$here"=. -g "src/$n.rs" -o "$o" ;;
    rust-ffi-null)
        gcc "${map[@]}" -O1 -g -fPIC -c src/rust-ffi-null-lib.c -o "$o-lib.o"
        rm -f "$build/librustffinull.a" && ar rcs "$build/librustffinull.a" "$o-lib.o"
        rustc --remap-path-prefix "$here"=. -g -L "$build" "src/$n.rs" -o "$o" ;;
    dlopen-plugin)
        gcc "${map[@]}" -O2 -g -fPIC -shared src/dlopen-plugin-lib.c -o "$build/dlopen-plugin.so"
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" -ldl ;;
    inline-chain-o3)
        gcc "${map[@]}" -O3 -g -fomit-frame-pointer "src/$n.c" -o "$o" ;;
    same-bug-clang-o0)
        clang "${map[@]}" -O0 -g src/same-bug.c -o "$o" ;;
    same-bug-gcc-o2)
        gcc "${map[@]}" -O2 -g src/same-bug.c -o "$o" ;;
    static-double-free)
        gcc "${map[@]}" -O1 -g -static "src/$n.c" -o "$o" ;;
    i386-static-null)
        i686-linux-gnu-gcc "${map[@]}" -O1 -g -static "src/$n.c" -o "$o" ;;
    cgo-null)
        (cd src && env GOCACHE="$build/gocache" GOPATH="$build/gopath" GO111MODULE=off CGO_ENABLED=1 \
            go build -trimpath -o "$o" cgo-null.go) ;;
    cpp-bad-function-call | cpp-vptr-null-call)
        g++ "${map[@]}" -O2 -g "src/$n.cpp" -o "$o" ;;
    tailcall-null-fnptr)
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    realign-callee-ok)
        gcc -c src/clang-movaps-shim.S -o "$o-shim.o"
        gcc "${map[@]}" -O2 -g "src/$n.c" "$o-shim.o" -o "$o" ;;
    avx2-null)
        # AVX2 where the CPU has it (the recording's did); SSE otherwise, same NULL read.
        local vec=()
        grep -qw avx2 /proc/cpuinfo 2>/dev/null && vec=(-mavx2)
        gcc "${map[@]}" -O3 -g "${vec[@]}" "src/$n.c" -o "$o" ;;
    cpp-dtor-throw)
        g++ "${map[@]}" -O0 -g "src/$n.cpp" -o "$o" ;;
    ctor-null)
        gcc "${map[@]}" -O0 -g "src/$n.c" -o "$o" ;;
    fortran-bounds)
        gfortran "${map[@]}" -O1 -g "src/$n.f90" -o "$o" ;;
    ubsan-trap-overflow)
        clang "${map[@]}" -O2 -g -fsanitize=signed-integer-overflow -fsanitize-trap=all "src/$n.c" -o "$o" ;;
    dlclose-stale)
        gcc "${map[@]}" -O2 -g -fPIC -shared src/dlclose-stale-lib.c -o "$build/dlclose-stale.so"
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" -ldl ;;
    omp-worker-null)
        gcc "${map[@]}" -O2 -g -fopenmp "src/$n.c" -o "$o" ;;
    memcpy-null-src | ac-flag-misaligned | fill-patterns-legal | seccomp-sigsys | perturb-uaf-list | list-poison-del)
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    noreturn-longjmp-null)
        # no padding between functions: the noreturn call's return address is the next function
        gcc "${map[@]}" -O2 -g -fomit-frame-pointer -falign-functions=1 "src/$n.c" -o "$o" ;;
    sigfpe-float-trap)
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" -lm ;;
    cpp-delete-mismatch)
        g++ "${map[@]}" -O0 -g "src/$n.cpp" -o "$o" ;;
    saved-rbp-overwrite | leave-wild-rsp)
        gcc "${map[@]}" -O0 -g -fno-stack-protector "src/$n.c" -o "$o" ;;
    cpp-coro-after-destroy)
        g++ "${map[@]}" -std=c++20 -O2 -g "src/$n.cpp" -o "$o" ;;
    realloc-invalid-size)
        gcc "${map[@]}" -O0 -g "src/$n.c" -o "$o" ;;
    thread-alloca-loop | threads-handler-parked | thread-deep-legal-64k | mutex-owner-assert)
        gcc "${map[@]}" -O0 -g -pthread "src/$n.c" -o "$o" ;;
    pthread-cancel-catchall)
        g++ "${map[@]}" -O2 -g -pthread "src/$n.cpp" -o "$o" ;;
    cgo-callback-nil)
        # a module (go.mod), so that the Go runtime names files cgocallbacknil/…, not a path
        (cd "src/$n" && env GOCACHE="$build/gocache" GOPATH="$build/gopath" GOFLAGS=-mod=mod GO111MODULE=on \
            CGO_ENABLED=1 go build -trimpath -o "$o" .) ;;
    go-concurrent-map)
        (cd src && env GOCACHE="$build/gocache" GOPATH="$build/gopath" GO111MODULE=off \
            go build -trimpath -o "$o" "$n.go") ;;
    musl-thread-overflow)
        musl-gcc "${map[@]}" -O0 -g -static "src/$n.c" -o "$o" ;;
    musl-double-free)
        musl-gcc "${map[@]}" -O1 -g -static "src/$n.c" -o "$o" ;;
    musl-dyn-strlen-null)
        # dynamically linked: /lib/ld-musl-x86_64.so.1 is the loader and the libc
        musl-gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    siglongjmp-second-fault | malloc-check-overflow | double-free-prev | free-stack-array)
        gcc "${map[@]}" -O0 -g "src/$n.c" -o "$o" ;;
    gxx-noexcept-throw)
        g++ "${map[@]}" -O2 -g "src/$n.cpp" -o "$o" ;;
    cpp-pure-virtual-dtor)
        g++ "${map[@]}" -O0 -g "src/$n.cpp" -o "$o" ;;
    cpp-thread-joinable)
        g++ "${map[@]}" -O2 -g -pthread "src/$n.cpp" -o "$o" ;;
    rust-extern-c-panic | rust-alloc-fail)
        rustc --remap-path-prefix "$here"=. -g "src/$n.rs" -o "$o" ;;
    clang-lto-o3)
        clang "${map[@]}" -O3 -g -flto -fomit-frame-pointer "src/$n.c" -o "$o" ;;
    avx512-misaligned)
        # AVX-512 where the CPU has it (the recording's did); AVX2 otherwise, the same fault.
        local vec=(-mavx2)
        grep -qw avx512f /proc/cpuinfo 2>/dev/null && vec=(-mavx512f)
        gcc "${map[@]}" -O2 -g "${vec[@]}" "src/$n.c" -o "$o" ;;
    avx-vmovups-null)
        gcc "${map[@]}" -O2 -g -mavx2 "src/$n.c" -o "$o" ;;
    inline-asm-clobber-rbx | inline-asm-clobber-ok)
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    asan-heap-overflow)
        clang "${map[@]}" -O1 -g -fsanitize=address "src/$n.c" -o "$o" ;;
    asan-uaf)
        gcc "${map[@]}" -O0 -g -fsanitize=address "src/$n.c" -o "$o" ;;
    ubsan-misaligned)
        clang "${map[@]}" -O1 -g -fsanitize=undefined -fno-sanitize-recover=all "src/$n.c" -o "$o" ;;
    tsan-race)
        clang "${map[@]}" -O1 -g -fsanitize=thread "src/$n.c" -o "$o" ;;
    # Shapes of the eighth round (tests/shapes8.rs).
    i386-stack-smash)
        i686-linux-gnu-gcc "${map[@]}" -O0 -g -static -fstack-protector-all "src/$n.c" -o "$o" ;;
    i386-assert | i386-intmin-div)
        i686-linux-gnu-gcc "${map[@]}" -O2 -g -static "src/$n.c" -o "$o" ;;
    i386-omitfp-null)
        i686-linux-gnu-gcc "${map[@]}" -O2 -g -static -fomit-frame-pointer "src/$n.c" -o "$o" ;;
    i386-double-free | i386-deep-legal)
        i686-linux-gnu-gcc "${map[@]}" -O0 -g -static "src/$n.c" -o "$o" ;;
    sigfpe-intmin)
        clang "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    alloca-negative | jit-munmap | coro-small-stack | altstack-handler-faults | longjmp-stale | \
        double-fclose | unsorted-corrupted | sigpipe-write)
        gcc "${map[@]}" -O0 -g "src/$n.c" -o "$o" ;;
    text-write | sigxcpu-limit)
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    fortify-percent-n)
        gcc "${map[@]}" -O2 -g -D_FORTIFY_SOURCE=2 "src/$n.c" -o "$o" ;;
    sigill-cpu-feature)
        gcc "${map[@]}" -O2 -g -mamx-tile "src/$n.c" -o "$o" ;;
    go-nil-map | go-stack-exceeded | go-deadlock)
        (cd src && env GOCACHE="$build/gocache" GOPATH="$build/gopath" GO111MODULE=off \
            go build -trimpath -o "$o" "$n.go") ;;
    gccgo-nil)
        gccgo "${map[@]}" -O0 -g "src/$n.go" -o "$o" ;;
    rust-uaf-unsafe)
        # optimized: no debug null-pointer check, the stale read itself faults
        rustc --remap-path-prefix "$here"=. -g -O "src/$n.rs" -o "$o" ;;
    rust-misaligned-deref)
        rustc --remap-path-prefix "$here"=. -g "src/$n.rs" -o "$o" ;;
    cpp-glibcxx-assert)
        g++ "${map[@]}" -O2 -g -D_GLIBCXX_ASSERTIONS "src/$n.cpp" -o "$o" ;;
    cpp-string-null)
        g++ "${map[@]}" -O0 -g "src/$n.cpp" -o "$o" ;;
    cpp-system-error)
        g++ "${map[@]}" -O2 -g -pthread "src/$n.cpp" -o "$o" ;;
    fortran-null-pointer)
        gfortran "${map[@]}" -O0 -g "src/$n.f90" -o "$o" ;;
    sp-pivot-unmapped | sp-pivot-rodata)
        # one hand-written stack switch (no debug info, with CFI) for both
        gcc -c src/sp-pivot-unmapped.S -o "$o-asm.o"
        gcc "${map[@]}" -O2 -g "src/$n.c" "$o-asm.o" -o "$o" ;;
    longjmp-mangled-sp)
        gcc "${map[@]}" -O0 -g "src/$n.c" -o "$o" ;;
    setcontext-live-stack)
        gcc "${map[@]}" -O0 -g -pthread "src/$n.c" -o "$o" ;;
    # Shapes of the ninth round (tests/shapes9.rs).
    tls-dtor-null | thread-vla-overflow | thread-stale-stack-ref)
        gcc "${map[@]}" -O0 -g -pthread "src/$n.c" -o "$o" ;;
    printf-bad-string | atoi-getenv-null | guard-page-arena | guard-page-legal)
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    jemalloc-free-stack)
        gcc "${map[@]}" -O0 -g "src/$n.c" -o "$o" ;;
    cpp-thread-local-dtor)
        g++ "${map[@]}" -O2 -g -pthread "src/$n.cpp" -o "$o" ;;
    cpp-static-dtor-order | cpp-shared-ptr-double-own)
        g++ "${map[@]}" -O0 -g "src/$n.cpp" -o "$o" ;;
    cpp-static-init-throw | cpp-uaf-realloc-vptr | cpp-bad-optional)
        g++ "${map[@]}" -O2 -g "src/$n.cpp" -o "$o" ;;
    musl-stack-smash)
        musl-gcc "${map[@]}" -O0 -g -static -fstack-protector-all "src/$n.c" -o "$o" ;;
    clang-cfi-icall)
        clang "${map[@]}" -O2 -g -flto -fvisibility=hidden -fsanitize=cfi-icall "src/$n.c" -o "$o" ;;
    safe-stack-null)
        clang "${map[@]}" -O1 -g -fsanitize=safe-stack "src/$n.c" -o "$o" ;;
    rust-big-frame-thread | rust-precondition-null | rust-list-drop-overflow)
        rustc --remap-path-prefix "$here"=. -g "src/$n.rs" -o "$o" ;;
    rust-mul-overflow)
        rustc --remap-path-prefix "$here"=. -g -C panic=abort "src/$n.rs" -o "$o" ;;
    rust-slice-closure)
        rustc --remap-path-prefix "$here"=. -g -O -C panic=abort "src/$n.rs" -o "$o" ;;
    go-nil-func | go-goroutine-index | go-type-assert)
        (cd src && env GOCACHE="$build/gocache" GOPATH="$build/gopath" GO111MODULE=off \
            go build -trimpath -o "$o" "$n.go") ;;
    cgo-goroutine-segv)
        (cd src && env GOCACHE="$build/gocache" GOPATH="$build/gopath" GO111MODULE=off CGO_ENABLED=1 \
            go build -trimpath -o "$o" "$n.go") ;;
    fortran-fpe-trap)
        gfortran "${map[@]}" -O1 -g -ffpe-trap=zero,invalid "src/$n.f90" -o "$o" ;;
    fortran-auto-array-overflow)
        gfortran "${map[@]}" -O1 -g -fstack-arrays "src/$n.f90" -o "$o" ;;
    i386-nullfn)
        i686-linux-gnu-gcc "${map[@]}" -O1 -g -static "src/$n.c" -o "$o" ;;
    i386-recursion-overflow)
        i686-linux-gnu-gcc "${map[@]}" -O0 -g -static "src/$n.c" -o "$o" ;;
    # Shapes of the tenth round (tests/shapes10.rs).
    prev-size-consolidate | double-free-out | atexit-assert | handler-assert | unsorted-invalid-size | \
        altstack-handler-overflow | altstack-legal-deep | sigfpe-handled-legal | gc-barrier-legal | \
        low-mmap-stale | jit-wx-patch | jit-wx-legal | assert-log-legal)
        gcc "${map[@]}" -O0 -g "src/$n.c" -o "$o" ;;
    fortify-fdset | fortify-read-stack)
        gcc "${map[@]}" -O2 -g -D_FORTIFY_SOURCE=2 "src/$n.c" -o "$o" ;;
    thread-stack-smash)
        gcc "${map[@]}" -O0 -g -pthread -fstack-protector-strong "src/$n.c" -o "$o" ;;
    ud2-unreachable-legal | ifunc-resolver-null)
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    dlopen-ctor-null)
        gcc "${map[@]}" -O2 -g -fPIC -shared src/dlopen-ctor-null-lib.c -o "$build/dlopen-ctor-null.so"
        gcc "${map[@]}" -O2 -g -rdynamic "src/$n.c" -o "$o" -ldl ;;
    cpp-nested-exception)
        g++ "${map[@]}" -O0 -g "src/$n.cpp" -o "$o" ;;
    cpp-qsort-throw | cpp-qsort-throw-caught)
        g++ "${map[@]}" -O2 -g "src/$n.cpp" -o "$o" ;;
    rust-panic-in-hook | rust-dlsym-null)
        rustc --remap-path-prefix "$here"=. -g "src/$n.rs" -o "$o" ;;
    go-closed-chan-send | go-div-zero | go-unlock-unlocked | go-recover-then-nil)
        (cd src && env GOCACHE="$build/gocache" GOPATH="$build/gopath" GO111MODULE=off \
            go build -trimpath -o "$o" "$n.go") ;;
    cgo-assert)
        # the C code's __FILE__ (in the assertion message) comes from cgo's #line: remap it too
        (cd src && env GOCACHE="$build/gocache" GOPATH="$build/gopath" GO111MODULE=off CGO_ENABLED=1 \
            CGO_CFLAGS="-g -O2 -fmacro-prefix-map=$here/src=. -fdebug-prefix-map=$here/src=." \
            go build -trimpath -o "$o" "$n.go") ;;
    d-null-class)
        gdc "${map[@]}" -O0 -g "src/$n.d" -o "$o" ;;
    ada-null-access)
        # GNAT wants the file named after the unit; objects and .ali files go to the build dir
        # (run in the build dir, which links src/: the binder writes its b~ files to the cwd)
        mkdir -p "$build/ada-obj"
        (cd "$build" && gnatmake -q -f -gnatp -O0 -g src/ada_null_access.adb -D "$build/ada-obj" -o "$o" \
            -cargs "${map[@]}" >/dev/null) ;;
    # Callee-saved clobbers and register provenance (tests/provenance_memory.rs).
    cs-inline-all-gcc-o2)
        gcc "${map[@]}" -O2 -g src/cs-inline-all.c -o "$o" ;;
    cs-inline-all-clang-o2)
        clang "${map[@]}" -O2 -g src/cs-inline-all.c -o "$o" ;;
    cs-inline-all-gcc-o0 | cs-spill-reload-gcc-o0)
        local src=src/$n.c; [[ $n == cs-spill-reload-gcc-o0 ]] && src=src/cs-spill-reload.c
        gcc "${map[@]}" -O0 -g "$src" -o "$o" ;;
    cs-spill-reload-clang-o0)
        clang "${map[@]}" -O0 -g src/cs-spill-reload.c -o "$o" ;;
    cs-overflow-saved-reg-gcc-o2)
        # 40 bytes: the 16-byte buffer and gcc's three saved registers above it, not the
        # return address (label_len: push r12, rbp, rbx; sub $0x10,%rsp; buf at rsp)
        gcc "${map[@]}" -O2 -g -fno-stack-protector -DLABEL_COPY=40 src/cs-overflow-saved-reg.c -o "$o" ;;
    cs-overflow-saved-reg-clang-o2)
        # 56 bytes: clang's label_len pushes r15, r14, r12, rbx and subtracts 0x18 (buf at rsp)
        clang "${map[@]}" -O2 -g -fno-stack-protector -DLABEL_COPY=56 src/cs-overflow-saved-reg.c -o "$o" ;;
    cs-longjmp-stale-reg | cs-sigcontext-regs | cs-ok-reuse-after-call | cs-ok-setjmp-volatile | \
        cs-ok-swapcontext | cs-ok-julia-like-o2)
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    cs-ok-omitfp-rbp)
        gcc "${map[@]}" -O2 -g -fomit-frame-pointer "src/$n.c" -o "$o" ;;
    # Tail-call chains (gdb's tail-call frames from DWARF call sites; tests/core_vs_gdb.rs).
    tailcall-chain2 | tailcall-chain3 | tailcall-indirect | tailcall-ambiguous | tailcall-suffix)
        gcc "${map[@]}" -O2 -g "src/$n.c" -o "$o" ;;
    tailcall-chain3-clang)
        # clang 14 marks its tail calls with DW_AT_call_pc, which gdb 13 does not read: no
        # tail-call frames
        clang "${map[@]}" -O2 -g src/tailcall-chain3.c -o "$o" ;;
    tailcall-chain2-nosibling)
        # the look-alike: the same program with every call a real call
        gcc "${map[@]}" -O2 -g -fno-optimize-sibling-calls src/tailcall-chain2.c -o "$o" ;;
    # Programs run by a language runtime (issue #11, eleventh pass): ./<name> is a link to the
    # interpreter or JVM launcher (the executable gdb runs and `--exe` reads), `case_args` gives
    # its script or class; the native half is built next to it.
    py-ext-null | py-faulthandler-reraise | py-fatal-error | py-dump-then-assert)
        local mod=${n//-/_} inc
        inc=$(python3.11-config --includes)
        # shellcheck disable=SC2086
        gcc "${map[@]}" -O0 -g -shared -fPIC $inc "src/$n.c" -o "$build/$mod.so"
        ln -sfn /usr/bin/python3.11 "$o" ;;
    py-recursion-overflow)
        ln -sfn /usr/bin/python3.11 "$o" ;;
    py-ctypes-null)
        gcc "${map[@]}" -O0 -g -shared -fPIC "src/$n.c" -o "$build/lib$n.so"
        ln -sfn /usr/bin/python3.11 "$o" ;;
    jni-null | jni-fatal-error | jvm-probe-legal)
        local jdk=/usr/lib/jvm/java-17-openjdk-amd64
        case $n in
        jni-null) javac -d "$build" src/JniNull.java ;;
        jni-fatal-error) javac -d "$build" src/JniFatal.java ;;
        jvm-probe-legal) javac -d "$build" src/JvmProbeLegal.java ;;
        esac
        [[ $n == jvm-probe-legal ]] || gcc "${map[@]}" -O0 -g -shared -fPIC -I"$jdk/include" -I"$jdk/include/linux" \
            "src/$n.c" -o "$build/lib$n.so"
        ln -sfn "$jdk/bin/java" "$o" ;;
    node-abort-uncaught)
        cp "src/$n.js" "$build/$n.js"
        ln -sfn /usr/bin/node "$o" ;;
    node-napi-null | node-napi-fatal)
        gcc "${map[@]}" -O0 -g -shared -fPIC -I/usr/include/node "src/$n.c" -o "$build/lib$n.node"
        # node prints the script's real path (through the src link): a copy keeps it in $build
        cp "src/$n.js" "$build/$n.js"
        ln -sfn /usr/bin/node "$o" ;;
    perl-xs-null)
        # xsubpp's C names the .xs as given (src/…), like the other sources
        mkdir -p "$build/auto/PerlXsNull"
        xsubpp -typemap /usr/share/perl/5.36/ExtUtils/typemap "src/$n.xs" >"$build/$n-xs.c"
        local ccopts
        ccopts=$(perl -MExtUtils::Embed -e ccopts)
        # shellcheck disable=SC2086
        gcc "${map[@]}" -fdebug-prefix-map="$build"=. -O0 -g -shared -fPIC $ccopts "$build/$n-xs.c" \
            -o "$build/auto/PerlXsNull/PerlXsNull.so"
        cp src/PerlXsNull.pm "$build/PerlXsNull.pm"
        ln -sfn /usr/bin/perl "$o" ;;
    lua-panic-unprotected | lua-pcall-legal)
        gcc "${map[@]}" -O0 -g -I/usr/include/lua5.4 "src/$n.c" -o "$o" -llua5.4 ;;
    lua-cmodule-null)
        gcc "${map[@]}" -O0 -g -shared -fPIC -I/usr/include/lua5.4 "src/$n.c" -o "$build/luacmod.so"
        ln -sfn /usr/bin/lua5.4 "$o" ;;
    fpc-nil-deref | fpc-recursion-overflow)
        # fpc writes its unit objects next to the output unless told (-FU)
        mkdir -p "$build/fpc-$n"
        fpc -g -O1 -FU"$build/fpc-$n" -o"$o" "src/$n.pas" >"$build/fpc-$n/log" ;;
    cpp-bad-variant-access | cpp-stoi-invalid | cpp-variant-caught)
        g++ "${map[@]}" -O2 -g -std=c++17 "src/$n.cpp" -o "$o" ;;
    cpp-static-init-recursion)
        g++ "${map[@]}" -O0 -g "src/$n.cpp" -o "$o" ;;
    cpp-broken-promise)
        g++ "${map[@]}" -O2 -g -pthread "src/$n.cpp" -o "$o" ;;
    glibc-sysmalloc-assert | fastbin-uaf-unaligned)
        gcc "${map[@]}" -O0 -g "src/$n.c" -o "$o" ;;
    tls-fs-clobbered)
        gcc "${map[@]}" -O1 -g -fstack-protector-strong "src/$n.c" -o "$o" ;;
    asan-segv)
        clang "${map[@]}" -O1 -g -fsanitize=address "src/$n.c" -o "$o" ;;
    msan-uninit)
        clang "${map[@]}" -O1 -g -fsanitize=memory "src/$n.c" -o "$o" ;;
    rust-foreign-exception)
        g++ "${map[@]}" -O1 -g -c "src/$n-lib.cpp" -o "$o-lib.o"
        rm -f "$build/librustforeignexc.a" && ar rcs "$build/librustforeignexc.a" "$o-lib.o"
        rustc --remap-path-prefix "$here"=. -g -L "$build" -l static=rustforeignexc -l dylib=stdc++ "src/$n.rs" -o "$o" ;;
    rust-panic-any)
        rustc --remap-path-prefix "$here"=. -g -C panic=abort "src/$n.rs" -o "$o" ;;
    *)
        echo "regenerate.sh: unknown case $n" >&2; return 1 ;;
    esac
}

# Commands run before `run` (signal handling) for cases whose own handler must see the signal.
prelude() {
    case $1 in
    handler-psiginfo | handler-strsignal | altstack-overflow | rust-overflow | rust-thread-overflow | \
        handler-pthread-exit | rust-big-frame-thread | rust-list-drop-overflow)
        echo "handle SIGSEGV nostop noprint pass" ;;
    fork-child-null)
        echo "set follow-fork-mode child" ;;
    altstack-handler-null | threads-handler-parked)
        echo "handle SIGUSR1 nostop noprint pass" ;;
    siglongjmp-second-fault)
        echo "handle SIGSEGV nostop noprint pass" ;;
    altstack-handler-faults | sigfpe-handled-legal)
        echo "handle SIGFPE nostop noprint pass" ;;
    gc-barrier-legal)
        echo "handle SIGSEGV nostop noprint pass" ;;
    altstack-handler-overflow | altstack-legal-deep)
        echo "handle SIGUSR1 nostop noprint pass" ;;
    cs-sigcontext-regs)
        echo "handle SIGILL nostop noprint pass" ;;
    # the JVM's (and ASan's) own SIGSEGV handler reports the crash: the usual advice for a
    # JVM under gdb (HotSpot also uses SIGSEGV for its implicit null checks)
    jni-null | jni-fatal-error | asan-segv)
        echo "handle SIGSEGV nostop noprint pass" ;;
    esac
    # The environment a case runs in (gdb's own `set environment`; lldb: lldb_settings).
    local e
    for e in $(case_env "$1"); do echo "set environment $e"; done
}

# Environment variables a case needs: sanitizers abort (so that the debugger stops) instead
# of exiting; glibc 2.34+ reads MALLOC_CHECK_ only in its malloc debugging library.
case_env() {
    case $1 in
    asan-heap-overflow | asan-uaf) echo "ASAN_OPTIONS=abort_on_error=1" ;;
    ubsan-misaligned) echo "UBSAN_OPTIONS=abort_on_error=1" ;;
    tsan-race) echo "TSAN_OPTIONS=halt_on_error=1:abort_on_error=1" ;;
    malloc-check-overflow) echo "LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libc_malloc_debug.so.0 MALLOC_CHECK_=3" ;;
    perturb-uaf-list) echo "MALLOC_PERTURB_=165" ;;
    jemalloc-free-stack) echo "LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2" ;;
    asan-segv) echo "ASAN_OPTIONS=abort_on_error=1" ;;
    msan-uninit) echo "MSAN_OPTIONS=abort_on_error=1" ;;
    esac
}

# Cases whose core is not written (`--cores` builds only the binary, for the transcript's
# `--exe` path): gdb's generate-core-file dumps ASan's and TSan's reserved shadow and allocator
# regions, tens of GB per core (manifest.json: `core.none`).
no_core() {
    case $1 in
    asan-heap-overflow | asan-uaf | tsan-race | asan-segv | msan-uninit) return 0 ;;
    # the Go heap arena reservation (about 700 MB a core) for a core that shows nothing
    go-stack-exceeded | go-deadlock | go-nil-map | gccgo-nil | go-goroutine-index | go-type-assert) return 0 ;;
    go-closed-chan-send | go-unlock-unlocked | go-div-zero | go-recover-then-nil | cgo-assert) return 0 ;;
    # HotSpot's and V8's reserved address space (gdb writes its PROT_NONE mappings too): 2.5 GB a
    # JVM core, 700 MB a Node core
    jni-null | jni-fatal-error | jvm-probe-legal | node-napi-null | node-napi-fatal | node-abort-uncaught) return 0 ;;
    *) return 1 ;;
    esac
}

# Stack limit (KiB) for the runaway recursions.
stack_kib() {
    case $1 in
    deep-recursion | altstack-overflow | mutual-recursion) echo 128 ;;
    i386-recursion-overflow) echo 128 ;;
    rust-overflow) echo 256 ;;
    rust-list-drop-overflow) echo 128 ;;
    fpc-recursion-overflow) echo 128 ;;
    py-recursion-overflow) echo 256 ;;
    alloca-near-guard | deep-legal-5000 | huge-alloca | fortran-auto-array-overflow) echo 8192 ;;
    *) echo "" ;;
    esac
}

# Arguments of the runtime-hosted cases (./<name> is the interpreter or the JVM launcher).
case_args() {
    case $1 in
    py-ext-null | py-fatal-error | py-ctypes-null | py-recursion-overflow) echo "src/$1.py" ;;
    py-faulthandler-reraise | py-dump-then-assert) echo "-X faulthandler src/$1.py" ;;
    # the whole hs_err report on stderr (-XX:+ErrorFileToStderr writes it to the open descriptor;
    # -XX:ErrorFile=/dev/stderr would reopen the transcript file at offset 0 and overwrite it)
    jni-null) echo "-Xmx32m -XX:+ErrorFileToStderr -Djava.library.path=. -cp . JniNull" ;;
    jni-fatal-error) echo "-Xmx32m -XX:+UseSerialGC -Djava.library.path=. -cp . JniFatal" ;;
    jvm-probe-legal) echo "-Xmx32m -cp . JvmProbeLegal" ;;
    node-napi-null | node-napi-fatal) echo "$1.js" ;;
    node-abort-uncaught) echo "--abort-on-uncaught-exception $1.js" ;;
    lua-cmodule-null) echo "src/$1.lua" ;;
    perl-xs-null) echo "src/$1.pl" ;;
    esac
}

# Commands right after gdb's `run`: `py-faulthandler-reraise` continues past the first stop, so
# that faulthandler's own handler runs, prints its report and re-raises the signal, where gdb
# stops again. (lldb 14's batch mode runs no command after a `continue` that stops again in its
# on-crash list, so its transcript is of the first stop.)
after_run() {
    case $1 in
    py-faulthandler-reraise) echo continue ;;
    esac
}

gdb_commands() {
    local bt=bt
    case $1 in thread-overflow | clang-thread-assert | rust-thread-panic-abort | rust-thread-overflow | \
        threads-mutex-null | handler-pthread-exit | cpp-thread-throw | omp-worker-null | thread-alloca-loop | \
        pthread-cancel-catchall | threads-handler-parked | thread-deep-legal-64k | go-concurrent-map | \
        musl-thread-overflow | cpp-thread-joinable | tsan-race | cpp-system-error | go-deadlock | tls-dtor-null | \
        cpp-thread-local-dtor | thread-vla-overflow | thread-stale-stack-ref | rust-big-frame-thread | \
        go-goroutine-index | cgo-goroutine-segv | thread-stack-smash)
        bt="thread apply all bt" ;; esac
    printf '%s\n' run
    after_run "$1"
    printf '%s\n' "$bt" "info registers" 'p $_siginfo' "info proc mappings" \
        "info sharedlibrary" "info threads"
    early_commands "$1"
    printf '%s\n' "frame 1" "info registers" 'x/8gx $sp' "frame 0" 'x/8gx $sp' 'x/6i $pc'
    extra_commands "$1"
}

# What some cases add before `frame 1`, which fails where the backtrace has one frame (an
# error ends the command file): frame #0 from its entry, the code of the callee that returned
# and its dead frame below sp; or just the faulting instruction.
early_commands() {
    case $1 in
    saved-rbp-overwrite | leave-wild-rsp)
        printf '%s\n' "disassemble" "disassemble parse_header" 'x/8gx $sp-64' ;;
    longjmp-mangled-sp)
        printf '%s\n' 'x/6i $pc' ;;
    esac
}

# What some cases add after the common commands: the disassembly of the frames (and of a
# callee that already returned), `info frame`, and the dead stack below sp, so that register
# provenance and the callee-saved check can work from the transcript alone.
extra_commands() {
    case $1 in
    julia-r13-intel)
        printf '%s\n' "set disassembly-flavor intel" "disassemble" "info frame" "frame 1" "disassemble" \
            "info frame" "frame 2" "disassemble" "info frame" "info registers" ;;
    push-slot-overrun | push-slot-ok)
        printf '%s\n' "disassemble" "info frame" 'x/8gx $sp-64' "disassemble /r mix_rows" "frame 1" \
            "info frame" ;;
    live-slot-smash | live-slot-ok)
        printf '%s\n' "info frame" "frame 1" "disassemble" "info frame" ;;
    inline-asm-clobber-rbx | inline-asm-clobber-ok)
        printf '%s\n' "disassemble" "disassemble /r mix" ;;
    cs-inline-all-*)
        printf '%s\n' "disassemble" "disassemble /r stir" ;;
    cs-overflow-saved-reg-*)
        printf '%s\n' "disassemble" 'x/8gx $sp-64' "disassemble /r label_len" ;;
    cs-spill-reload-* | cs-sigcontext-regs | cs-longjmp-stale-reg | cs-ok-julia-like-o2)
        printf '%s\n' "disassemble" ;;
    # gdb's backtrace past static musl's __libc_free (no CFI) is garbage: a user dumps more of
    # the stack, where the program's return address is (read with --exe, the binary's code and
    # these words rebuild the backtrace).
    musl-double-free)
        printf '%s\n' 'x/32gx $sp' ;;
    esac
}

write_cmdfile() { # name file
    {
        printf 'set pagination off\nset width 0\nset confirm off\nset print pretty off\n'
        printf 'set debuginfod enabled off\n'
        prelude "$1"
        if [[ $mode == cores ]]; then
            printf 'run\n'
            after_run "$1"
            printf 'generate-core-file %s.core\n' "$1"
        else
            gdb_commands "$1" | while IFS= read -r c; do printf 'echo (gdb) %s\\n\n%s\n' "$c" "$c"; done
        fi
    } >"$2"
}

# AArch64 cases: static binaries (qemu-user's cores have no NT_FILE note, and a static
# binary needs no libraries to be found), sources in src/a64-*.{c,S}.
a64_build() {
    local n=$1 o=$build/$1 cc=(aarch64-linux-gnu-gcc "${map[@]}" -static -g)
    # The .S halves get no debug info (like JIT code and the x86-64 asm-* cases).
    case $n in
    a64-x20-stale)
        aarch64-linux-gnu-gcc -c src/a64-x20.S -o "$o-asm.o"
        "${cc[@]}" -O0 src/a64-x20.c "$o-asm.o" -o "$o" ;;
    a64-x20-ok)
        aarch64-linux-gnu-gcc -DGOOD_X20 -c src/a64-x20.S -o "$o-asm.o"
        "${cc[@]}" -O0 src/a64-x20.c "$o-asm.o" -o "$o" ;;
    a64-clobber-x19 | a64-cfi-slot)
        aarch64-linux-gnu-gcc -c "src/$n.S" -o "$o-asm.o"
        "${cc[@]}" -O2 "src/$n.c" "$o-asm.o" -o "$o" ;;
    a64-null-o2 | a64-callee-heavy | a64-tbi-tagged | a64-double-free | a64-nullfn | a64-assert)
        "${cc[@]}" -O2 "src/$n.c" -o "$o" ;;
    a64-recursion-overflow) "${cc[@]}" -O0 "src/$n.c" -o "$o" ;;
    a64-stack-smash) "${cc[@]}" -O0 -fstack-protector-all "src/$n.c" -o "$o" ;;
    a64-inline-clobber) "${cc[@]}" -O2 "src/$n.c" -o "$o" ;;
    a64-asm-no-restore)
        aarch64-linux-gnu-gcc -c "src/$n.S" -o "$o-asm.o"
        "${cc[@]}" -O2 "src/$n.c" "$o-asm.o" -o "$o" ;;
    a64-stp-slot-overrun)
        aarch64-linux-gnu-gcc -c src/a64-stp-slot.S -o "$o-asm.o"
        "${cc[@]}" -O2 src/a64-stp-slot.c "$o-asm.o" -o "$o" ;;
    a64-stp-slot-ok)
        aarch64-linux-gnu-gcc -DGOOD_BOUND -c src/a64-stp-slot.S -o "$o-asm.o"
        "${cc[@]}" -O2 src/a64-stp-slot.c "$o-asm.o" -o "$o" ;;
    *) echo "regenerate.sh: unknown case $n" >&2; return 1 ;;
    esac
}

# The x86-64 command set, with `target remote` + `continue` for `run`. qemu's gdbstub has no
# /proc (`info proc mappings` fails) and no siginfo (`p $_siginfo` fails): a failing command
# ends a command file, so mappings are left out and `p $_siginfo` comes last (after the
# case's extra commands).
a64_cmdfile() { # name port file
    {
        printf 'set pagination off\nset width 0\nset confirm off\nset print pretty off\n'
        printf 'set debuginfod enabled off\n'
        local c cmds=("target remote :$2" continue bt "info registers" "info sharedlibrary" "info threads" \
            "frame 1" "info registers" 'x/8gx $sp' "frame 0" 'x/8gx $sp' 'x/6i $pc')
        mapfile -t -O "${#cmds[@]}" cmds < <(a64_extra_commands "$1")
        cmds+=('p $_siginfo')
        for c in "${cmds[@]}"; do
            printf 'echo (gdb) %s\\n\n%s\n' "$c" "$c"
        done
    } >"$3"
}

# What some AArch64 cases add: the disassembly of the frames, so that register provenance
# works from the transcript alone (the caller's code up to its call); `a64-x20-ok` with the
# encodings (`/r`: gdb 13 prints each instruction's 32-bit word).
a64_extra_commands() {
    case $1 in
    a64-x20-stale)
        printf '%s\n' "disassemble" "frame 1" "disassemble" "frame 2" "disassemble" "frame 3" "disassemble" ;;
    a64-x20-ok)
        printf '%s\n' "disassemble /r" "frame 1" "disassemble /r" "frame 2" "disassemble /r" "frame 3" \
            "disassemble /r" ;;
    a64-stp-slot-overrun | a64-stp-slot-ok)
        # the returned callee's prologue (where it saved x21) and its dead frame below sp
        printf '%s\n' "disassemble" "disassemble window_sum" 'x/8gx $sp-64' ;;
    a64-inline-clobber)
        printf '%s\n' "disassemble" "disassemble stir" ;;
    a64-asm-no-restore)
        printf '%s\n' "disassemble" "disassemble fold_bytes" ;;
    esac
}

a64_one() {
    local n=$1
    a64_build "$n"
    if [[ $mode == cores ]]; then
        rm -f "$build"/qemu_"$n"_*.core "$build/$n.core"
        (cd "$build" && ulimit -c unlimited && env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C timeout 60 \
            qemu-aarch64 "./$n" >"$n.qemu.log" 2>&1 </dev/null) || true
        # qemu re-raises the signal on itself: the host may write its own core next to it.
        rm -f "$build/core"
        local c
        c=$(ls "$build"/qemu_"$n"_*.core 2>/dev/null | head -n1)
        if [[ -n $c ]]; then mv "$c" "$build/$n.core"; else echo "regenerate.sh: no core for $n" >&2; status=1; fi
        return
    fi
    local port=${QEMU_GDB_PORT:-23990} qpid
    while [[ -n $(ss -Hltn "sport = :$port" 2>/dev/null) ]]; do port=$((port + 1)); done
    a64_cmdfile "$n" "$port" "$build/$n.gdb"
    (cd "$build" && exec env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C qemu-aarch64 -g "$port" "./$n" \
        >"$n.qemu.log" 2>&1 </dev/null) &
    qpid=$!
    # Look for the listening socket with ss, never by connecting: the gdbstub takes one connection.
    for _ in $(seq 50); do [[ -n $(ss -Hltn "sport = :$port" 2>/dev/null) ]] && break; sleep 0.1; done
    (cd "$build" && env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C timeout 120 \
        gdb-multiarch -q -batch -nx -x "$n.gdb" "./$n" >"$here/$n.gdb.txt" 2>&1 </dev/null) || true
    kill "$qpid" 2>/dev/null || true
    wait "$qpid" 2>/dev/null || true
    printf '%-28s %8d bytes\n' "$n.gdb.txt" "$(wc -c <"$n.gdb.txt")"
}

# lldb transcripts: the commands an lldb user pastes after a crash, the same for every case,
# run as
#   cd $build && env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C [PYTHONPATH=…] timeout 120 \
#       lldb --batch -o run -o CMD … -k CMD … -- ./<name>
# lldb's batch mode stops running -o commands once the program has crashed and runs the -k
# ("on crash") list instead, so every command after `run` is given both ways: exactly one list
# runs. Cases whose own handler must see the signal start with `process launch --stop-at-entry`,
# `process handle SIGSEGV -s false -n false -p true` (lldb 14 cannot set a disposition before
# there is a process) and `continue` instead of `run`. An error ends the list (like gdb's
# command file), so the command that fails where the pc is unreadable (`disassemble --frame`)
# comes first of those that can fail; `memory region $sp` and `memory read … $sp` fail in a Go
# frame (lldb 14 has no Go expression support), so they come after it. lldb 14 has `thread siginfo`, but on Linux it prints a wrong si_signo and si_addr:
# it is left out.
lldb_commands() {
    printf '%s\n' "bt all" "register read" "image list" "disassemble --frame" 'memory region $pc' \
        'memory region $sp' 'memory read -s8 -fx -c8 $sp'
    lldb_early_commands "$1"
    printf '%s\n' "frame select 1" "register read" 'memory read -s8 -fx -c8 $sp' "frame select 0" "frame variable"
    lldb_extra_commands "$1"
}

# What some cases add, as a user does when the backtrace is short of the program: the
# caller's code (`printf-bad-string`: main's call to report_user, which tail-called printf, so
# lldb shows no frame for it), or the stack words with their symbols (`musl-stack-smash`: lldb
# stops at static musl's __stack_chk_fail, entered by a call whose return address is at [sp];
# before `frame select 1`, which fails on a one-frame backtrace and would end the list).
lldb_early_commands() {
    case $1 in
    musl-stack-smash) printf '%s\n' 'memory read -s8 -fA -c8 $sp' ;;
    esac
}

lldb_extra_commands() {
    case $1 in
    printf-bad-string) printf '%s\n' "frame select 3" "disassemble --frame" ;;
    esac
}

# Signals lldb must pass to the program without stopping: its own handler's (as for gdb), and
# Go's preemption signal (lldb stops on SIGURG; gdb does not).
lldb_pass() {
    case $1 in
    go-nil | cgo-null | cgo-callback-nil | go-concurrent-map | go-nil-map | go-stack-exceeded | go-deadlock | \
        go-nil-func | go-goroutine-index | go-type-assert | cgo-goroutine-segv | go-closed-chan-send | go-div-zero | \
        go-unlock-unlocked | go-recover-then-nil | cgo-assert) echo SIGURG ;;
    *) prelude "$1" | awk '$1 == "handle" {print $2}' ;;
    esac
}

# Settings a case needs before its process starts (as gdb's prelude): a crash in a forked child
# is only seen when lldb follows the child.
lldb_settings() {
    case $1 in
    fork-child-null) echo "settings set target.process.follow-fork-mode child" ;;
    esac
    local e
    for e in $(case_env "$1"); do echo "settings append target.env-vars $e"; done
}

# lldb 14 reads the symbols of node's 100 MB executable and unwinds its threads slowly: on a
# loaded machine it needs more than two minutes.
lldb_timeout() {
    case $1 in
    node-*) echo 900 ;;
    *) echo 120 ;;
    esac
}

lldb_one() {
    local n=$1 lim sig py=() args=() kargs=() c
    build_one "$n"
    # Debian 12's lldb 14 looks for its Python module in the wrong place.
    for c in /usr/lib/llvm-*/lib/python3*/dist-packages; do
        [[ -f $c/lldb/embedded_interpreter.py ]] && py=(PYTHONPATH="$c")
    done
    sig=$(lldb_pass "$n")
    while IFS= read -r c; do [[ -n $c ]] && args+=(-o "$c"); done < <(lldb_settings "$n")
    if [[ -n $sig ]]; then
        args+=(-o "process launch --stop-at-entry" -o "process handle $sig -s false -n false -p true" -o continue)
    else
        args+=(-o run)
    fi
    while IFS= read -r c; do args+=(-o "$c"); kargs+=(-k "$c"); done < <(lldb_commands "$n")
    lim=$(stack_kib "$n")
    (cd "$build" && { [[ -z $lim ]] || ulimit -s "$lim"; } && env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C "${py[@]}" \
        timeout "$(lldb_timeout "$n")" lldb --batch "${args[@]}" "${kargs[@]}" -- "./$n" $(case_args "$n") >"$here/$n.lldb.txt" 2>&1 </dev/null) || true
    printf '%-28s %8d bytes\n' "$n.lldb.txt" "$(wc -c <"$here/$n.lldb.txt")"
}

# lldb transcripts of the AArch64 cases that show code (`a64-x20-*`): lldb attached to
# `qemu-aarch64 -g PORT` with `gdb-remote PORT`, `continue` for `run`. qemu's gdbstub has no
# memory-region packet (`memory region` fails with `qMemoryRegionInfo is not supported`, and an
# error ends the list), so those two are left out; `disassemble --frame` of frames #1 to #3
# is added, for register provenance from the transcript alone.
a64_lldb_commands() {
    printf '%s\n' "bt all" "register read" "image list" "disassemble --frame" 'memory read -s8 -fx -c8 $sp' \
        "frame select 1" "register read" 'memory read -s8 -fx -c8 $sp' "frame select 0" "frame variable" \
        "frame select 1" "disassemble --frame" "frame select 2" "disassemble --frame" "frame select 3" \
        "disassemble --frame"
}

a64_lldb_one() {
    local n=$1 port=${QEMU_GDB_PORT:-23990} qpid py=() args=() kargs=() c
    case $n in a64-x20-stale | a64-x20-ok) ;; *) return 0 ;; esac
    a64_build "$n"
    for c in /usr/lib/llvm-*/lib/python3*/dist-packages; do
        [[ -f $c/lldb/embedded_interpreter.py ]] && py=(PYTHONPATH="$c")
    done
    while [[ -n $(ss -Hltn "sport = :$port" 2>/dev/null) ]]; do port=$((port + 1)); done
    (cd "$build" && exec env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C qemu-aarch64 -g "$port" "./$n" \
        >"$n.qemu.log" 2>&1 </dev/null) &
    qpid=$!
    for _ in $(seq 50); do [[ -n $(ss -Hltn "sport = :$port" 2>/dev/null) ]] && break; sleep 0.1; done
    args=(-o "gdb-remote $port" -o continue)
    while IFS= read -r c; do args+=(-o "$c"); kargs+=(-k "$c"); done < <(a64_lldb_commands)
    (cd "$build" && env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C "${py[@]}" timeout 120 \
        lldb --batch "${args[@]}" "${kargs[@]}" -- "./$n" >"$here/$n.lldb.txt" 2>&1 </dev/null) || true
    kill "$qpid" 2>/dev/null || true
    wait "$qpid" 2>/dev/null || true
    printf '%-28s %8d bytes\n' "$n.lldb.txt" "$(wc -c <"$here/$n.lldb.txt")"
}

if (($#)); then cases=("$@"); else cases=("${all[@]}"); fi
status=0
for n in "${cases[@]}"; do
    if [[ $mode == lldb ]]; then
        if [[ $n == a64-* ]]; then
            a64_lldb_one "$n"
            continue
        fi
        if [[ $n == musl-* ]] && ! command -v musl-gcc >/dev/null; then
            echo "regenerate.sh: SKIPPED $n: musl-gcc not found" >&2
            continue
        fi
        lldb_one "$n"
        continue
    fi
    if [[ $n == a64-* ]]; then
        a64_one "$n"
        continue
    fi
    if [[ $n == musl-* ]] && ! command -v musl-gcc >/dev/null; then
        echo "regenerate.sh: SKIPPED $n: musl-gcc not found" >&2
        continue
    fi
    build_one "$n"
    if [[ $mode == cores ]] && no_core "$n"; then
        continue
    fi
    write_cmdfile "$n" "$build/$n.gdb"
    lim=$(stack_kib "$n")
    if [[ $mode == cores ]]; then
        rm -f "$build/$n.core"
        (cd "$build" && { [[ -z $lim ]] || ulimit -s "$lim"; } && env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C timeout 120 \
            gdb -q -batch -nx -x "$n.gdb" --args "./$n" $(case_args "$n") >"$n.gdb.log" 2>&1 </dev/null) || true
        [[ -s $build/$n.core ]] || { echo "regenerate.sh: no core for $n" >&2; status=1; }
    else
        (cd "$build" && { [[ -z $lim ]] || ulimit -s "$lim"; } && env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C timeout 120 \
            gdb -q -batch -nx -x "$n.gdb" --args "./$n" $(case_args "$n") >"$here/$n.gdb.txt" 2>&1 </dev/null) || true
        printf '%-28s %8d bytes\n' "$n.gdb.txt" "$(wc -c <"$n.gdb.txt")"
    fi
done
exit $status
