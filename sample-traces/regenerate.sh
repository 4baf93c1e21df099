#!/usr/bin/env bash
# Rebuild every sample program in sample-traces/src and regenerate every
# sample-traces/<name>.gdb.txt transcript by running the program under real gdb
# with the command file sample-traces/gdb/<name>.gdb.
#
# Usage: sample-traces/regenerate.sh [name ...]    (default: all samples)
#
# Needs gcc, g++, rustc and gdb.  Binaries go to sample-traces/build/
# (gitignored).  Re-runnable and idempotent: the build dir is recreated, and
# each transcript is overwritten.  gdb disables ASLR for the inferior by
# default, so heap/stack/code addresses repeat run to run on one machine; pids,
# LWP ids and thread ids (e.g. in Rust's panic message) do not.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"
build=build

for tool in gcc g++ rustc gdb; do
    command -v "$tool" >/dev/null || { echo "regenerate.sh: $tool not found" >&2; exit 1; }
done

# Minimal environment for gdb and the programs it runs, so transcripts do not
# pick up the caller's RUST_BACKTRACE, MALLOC_* settings, DEBUGINFOD_URLS ...
run_env=(env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C)
# Compilers run in the caller's environment (rustc usually lives in ~/.cargo/bin).

CC=(gcc -O0 -g)

# name -> build command (sources relative to sample-traces/, so debug info
# and gdb's "at src/foo.c:NN" use short relative paths).
build_one() {
    local name=$1 out=$build/$1
    case $name in
    null-field|null-fnptr|stack-overflow|glibc-abort|assert-fail|noncanonical|write-rodata|poison)
        "${CC[@]}" "src/$name.c" -o "$out" ;;
    threads-crash)
        "${CC[@]}" -pthread src/threads-crash.c -o "$out" ;;
    smashed-stack)
        "${CC[@]}" -fno-stack-protector src/smashed-stack.c -o "$out" ;;
    stack-chk)
        "${CC[@]}" -fstack-protector-all src/smashed-stack.c -o "$out" ;;
    c-r13-plain)
        gcc -O2 -g src/c-r13-plain.c -o "$out" ;;
    misaligned-sse)
        # the .S shim is assembled without -g (no line info), like hand asm
        gcc -c src/misaligned-sse.S -o "$build/misaligned-sse-shim.o"
        "${CC[@]}" src/misaligned-sse.c "$build/misaligned-sse-shim.o" -o "$out" ;;
    julia-trampoline-bad-r13|julia-trampoline-good-r13)
        local def=()
        [[ $name == *good* ]] && def=(-DGOOD_R13)
        # the .S half gets no debug info, like JIT-compiled Julia code
        gcc "${def[@]}" -c src/julia-trampoline.S -o "$build/$name-jit.o"
        "${CC[@]}" "${def[@]}" src/julia-trampoline.c "$build/$name-jit.o" -o "$out" ;;
    rust-panic)
        rustc -g -C panic=abort src/rust-panic.rs -o "$out" ;;
    rust-null)
        rustc -g src/rust-null.rs -o "$out" ;;
    rust-thread-panic-join)
        rustc -g src/rust-thread-panic-join.rs -o "$out" ;;
    cpp-uncaught)
        g++ -O0 -g src/cpp-uncaught.cpp -o "$out" ;;
    threads-current|threads-current-core)
        # built and run outside the checkout (its path would show in the mappings and in
        # the core's command line), debug info relative to sample-traces/
        mkdir -p "$scratch"
        gcc -O0 -g -pthread -fdebug-prefix-map="$here"=. src/threads-current.c -o "$scratch/threads-current" ;;
    *)
        echo "regenerate.sh: unknown sample $name" >&2; return 1 ;;
    esac
}

all=(null-field null-fnptr stack-overflow threads-crash glibc-abort assert-fail
     rust-panic rust-null cpp-uncaught julia-trampoline-bad-r13
     julia-trampoline-good-r13 c-r13-plain misaligned-sse noncanonical
     write-rodata smashed-stack stack-chk poison rust-thread-panic-join
     threads-current threads-current-core)

# Scratch directory outside the checkout for the samples that must not show its path.
scratch=${SAMPLES_SCRATCH:-/tmp/tracecheck-samples}

if (($#)); then samples=("$@"); else samples=("${all[@]}"); fi

rm -rf "$build"
mkdir -p "$build"

# Expected facts, checked against each fresh transcript (a failed check means
# the program did not crash where intended; see README.md).
declare -A expect=(
    [null-field]='received signal SIGSEGV|in session_bytes|si_addr = 0x18'
    [null-fnptr]='received signal SIGSEGV|#0  0x0000000000000000 in ?? ()|in stream_fill'
    [stack-overflow]='received signal SIGSEGV|in walk|#29 |in main ()'
    [threads-crash]='"crasher" received signal SIGSEGV|in store_result|"io-reader"|"timer"'
    [glibc-abort]='free(): double free detected in tcache 2|received signal SIGABRT|in buffer_release'
    [assert-fail]='Assertion `r->lo <= r->hi && "range is inverted"'"'"' failed|received signal SIGABRT|in range_width'
    [rust-panic]="panicked at src/rust-panic.rs|received signal SIGABRT|rust_panic::Config::port"
    [rust-null]='received signal SIGSEGV|rust_null::read_payload|si_addr: 0x1018'
    [cpp-uncaught]="terminate called after throwing an instance of 'std::out_of_range'|received signal SIGABRT|in restock"
    [julia-trampoline-bad-r13]='received signal SIGSEGV|in julia_module_callback_4212 ()|in jlcapi_module_callback_4213 ()|in run_pass_manager ()|in LLVMRunPasses|in julia_run_21 ()|in jfptr_run_22 ()|in ijl_apply_generic|in main|si_addr = 0x3a'
    [julia-trampoline-good-r13]='Breakpoint 1, 0x|in julia_module_callback_4212 ()|in jlcapi_module_callback_4213 ()|in main|exited normally'
    [c-r13-plain]='received signal SIGSEGV|in histogram_add|in tally'
    [misaligned-sse]='received signal SIGSEGV|vec_accumulate (v=|in call_misaligned ()|si_code = 128'
    [noncanonical]='received signal SIGSEGV|in list_find|si_code = 128'
    [write-rodata]='received signal SIGSEGV|in upcase|si_code = 2'
    [smashed-stack]='received signal SIGSEGV|copy_name|0x4141414141414141'
    [stack-chk]='stack smashing detected|received signal SIGABRT|__stack_chk_fail'
    [poison]='received signal SIGSEGV|peer_port (c=|0xa5a5a5a5a5a5a5a5'
    [threads-current]='"tally-b" received signal SIGSEGV|record (t=|* 3    Thread|"tally-c"|si_addr = 0x0'
    [threads-current-core]='Program terminated with signal SIGSEGV|[Current thread is 1 |record (t=|[Switching to thread 3 |__libc_pause|[Switching to thread 1 |si_signo = 11'
    [rust-thread-panic-join]="thread 'tally' (|panicked at src/rust-thread-panic-join.rs:6:5|on an \`Err\` value: Any { .. }|exited with code 0145"
)

# Samples whose command file ends with a command that is meant to fail
# (reading memory at pc == 0, or through a non-canonical pointer).
last_command_fails=(null-fnptr noncanonical rust-thread-panic-join)

status=0
for name in "${samples[@]}"; do
    cmdfile=gdb/$name.gdb
    [[ -f $cmdfile ]] || { echo "regenerate.sh: missing $cmdfile" >&2; exit 1; }
    build_one "$name"
    out=$name.gdb.txt
    start=$SECONDS
    # gdb exits non-zero when the last command fails; the transcript is what
    # matters, so do not let that abort the script (checked below instead).
    case $name in
    threads-current)
        (cd "$scratch" && "${run_env[@]}" gdb -q -batch -nx -x "$here/$cmdfile" --args ./threads-current) \
            >"$out" 2>&1 </dev/null || true ;;
    threads-current-core)
        # gdb's generate-core-file at the crash (the kernel's core_pattern varies by machine)
        rm -f "$scratch/threads-current.core"
        (cd "$scratch" && "${run_env[@]}" gdb -q -batch -nx -ex run -ex 'generate-core-file threads-current.core' \
            --args ./threads-current) >/dev/null 2>&1 </dev/null || true
        (cd "$scratch" && "${run_env[@]}" gdb -q -batch -nx -x "$here/$cmdfile" ./threads-current threads-current.core) \
            >"$out" 2>&1 </dev/null || true
        rm -f "$scratch/threads-current.core" ;;
    *)
        "${run_env[@]}" gdb -q -batch -nx -x "$cmdfile" --args "$build/$name" >"$out" 2>&1 </dev/null || true ;;
    esac
    printf '%-28s %6d bytes  %3ds\n' "$out" "$(wc -c <"$out")" $((SECONDS - start))
    IFS='|' read -r -a needles <<<"${expect[$name]}"
    for needle in "${needles[@]}"; do
        if ! grep -qF -- "$needle" "$out"; then
            echo "  CHECK FAILED: $out lacks: $needle" >&2
            status=1
        fi
    done
    # gdb errors that a correct transcript should not contain.  A failing
    # command ends a sourced command file, so only the last command may fail,
    # and only in the samples listed in last_command_fails.
    errs='^(No symbol table|No frame selected|No symbol ".*" in current context)|Error in sourced command file'
    [[ " ${last_command_fails[*]} " == *" $name "* ]] && errs='^(No symbol table|No frame selected|No symbol ".*" in current context)'
    if grep -nE "$errs" "$out" >&2; then
        echo "  CHECK FAILED: $out has unexpected gdb errors (above)" >&2
        status=1
    fi
done
exit $status
