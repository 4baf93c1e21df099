#!/usr/bin/env bash
# Record the julia-real transcripts: real Julia 1.13.1 code (libetcouple.so, built by juliac,
# and its bundled libjulia-internal) from the PyPI wheel ace-jax-coupling 0.2.0, driven by the
# harness in src/ into each case, under real gdb with the command files in gdb/.
#
# Usage: sample-traces/julia-real/regenerate.sh [--out DIR] [case ...]   (default: all cases)
#
#   --out DIR   write transcripts to DIR instead of this directory (the tests use this to
#               record fresh transcripts and check them without touching the committed ones)
#
# Environment:
#   JULIA_REAL_CACHE  where the wheel is downloaded, unpacked and the harness built
#                     (default: ${XDG_CACHE_HOME:-$HOME/.cache}/tracecheck-julia-real).
#                     Nothing from the wheel is ever written into the repository.
#   JULIA_REAL_CORES  if set to a directory, also write an ELF core per crash case there
#                     (cores are hundreds of MB: the Julia heap and image; never committed).
#
# Needs python3 with pip, unzip (or python3's zipfile), gcc, gdb.  The wheel is pinned by
# version and sha256; a mismatch stops the script.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cd "$here"

WHEEL_VERSION=0.2.0
WHEEL_FILE=ace_jax_coupling-0.2.0-py3-none-manylinux_2_28_x86_64.whl
WHEEL_SHA256=2836159161d650e8fa463794d744660187ce4b08e50a4506630424b4a2cda8f9

out=$here
if [[ ${1:-} == --out ]]; then
    out=$(mkdir -p "$2" && cd "$2" && pwd)
    shift 2
fi

cache=${JULIA_REAL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tracecheck-julia-real}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

for tool in python3 gcc gdb; do
    command -v "$tool" >/dev/null || { echo "regenerate.sh: $tool not found" >&2; exit 3; }
done

# 1. The pinned wheel: download once, check the sha256 every time.
wheel=$cache/$WHEEL_FILE
if [[ ! -f $wheel ]]; then
    python3 -m pip download --quiet --no-deps --only-binary=:all: \
        "ace-jax-coupling==$WHEEL_VERSION" -d "$cache/download" >&2 ||
        { echo "regenerate.sh: pip download of ace-jax-coupling==$WHEEL_VERSION failed" >&2; exit 3; }
    mv "$cache/download/$WHEEL_FILE" "$wheel"
fi
got=$(sha256sum "$wheel" | cut -d' ' -f1)
if [[ $got != "$WHEEL_SHA256" ]]; then
    echo "regenerate.sh: $wheel has sha256 $got, expected $WHEEL_SHA256" >&2
    exit 1
fi

# 2. Unpack (once per sha).
unpacked=$cache/unpacked-$WHEEL_SHA256
if [[ ! -f $unpacked/.done ]]; then
    rm -rf "$unpacked"
    mkdir -p "$unpacked"
    python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$wheel" "$unpacked"
    # zipfile drops the execute bits; the loader does not need them, gdb is happier with them
    find "$unpacked" -name '*.so*' -exec chmod +x {} +
    touch "$unpacked/.done"
fi
libdir=$unpacked/ace_jax_coupling/_lib/lib
grep -q '"julia": "1.13.1"' "$unpacked/ace_jax_coupling/_lib/build_info.json" ||
    { echo "regenerate.sh: build_info.json does not name Julia 1.13.1" >&2; exit 1; }

# 3. The harness (sources in src/; tramp.S without debug info, like hand-written asm).
build=$cache/build
mkdir -p "$build"
gcc -c src/tramp.S -o "$build/tramp.o"
gcc -O0 -g -pthread src/harness.c src/more.c src/more3.c "$build/tramp.o" -ldl -o "$build/harness"
# the same harness with clobber.S's memset exported (libetcouple.so's memset@plt binds to it):
# only shape-clobber runs it
gcc -O0 -g -pthread src/harness.c src/more.c src/more3.c src/clobber.S "$build/tramp.o" -ldl \
    -Wl,--export-dynamic-symbol=memset -o "$build/harness-clobber"

run_env=(env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C)

# case -> harness mode
declare -A mode=(
    [sizes-fault]=sizes [entry-break]=entry [thunk-r13]=thunk [r13-zero]=r13-zero
    [r13-stale]=r13-stale [gc-corrupt]=gc-corrupt
    [shape-unmapped]=shape-unmapped [shape-nroots]=shape-nroots [shape-overflow]=shape-overflow
    [shape-unadopted]=shape-unadopted [shape-rome]=shape-rome [shape-finalizer]=shape-finalizer
    [shape-heaphint]=shape-heaphint [shape-clobber]=shape-clobber
)
# gdb command file per case (default: gdb/CASE.gdb)
declare -A gdbfile=(
    [shape-unmapped]=shape [shape-nroots]=shape [shape-overflow]=shape
    [shape-unadopted]=more3-crash [shape-rome]=more3-crash [shape-clobber]=more3-crash
    [shape-finalizer]=more3-break [shape-heaphint]=more3-break
)
# extra environment per case
declare -A caseenv=()
# the harness binary per case (default: build/harness)
declare -A binary=([shape-clobber]=harness-clobber)
# Expected facts, checked against each fresh transcript.
declare -A expect=(
    [sizes-fault]='received signal SIGSEGV|in julia_print_4678 () at strings/io.jl:34|si_addr = 0x10|julia_unique!_2443'
    [entry-break]='Breakpoint 2, 0x|julia_etc_couple_4561 + 118 in section .text|exited with code 01'
    [thunk-r13]='received signal SIGSEGV|julia_etc_couple_4561 + |in thunk_trampoline ()|si_addr = 0x3a|mov    0x10(%rax),%rax'
    [r13-zero]='received signal SIGSEGV|julia_etc_couple_4561 + |in call_with_r13 ()|si_addr = 0x0|mov    0x0(%r13),%rax'
    [r13-stale]='received signal SIGSEGV|in julia_print_4678 ()|in worker (arg=|si_addr = 0x10'
    [gc-corrupt]='received signal SIGSEGV|gc_mark_outrefs|0x414141414141414|in main (argc='
    [shape-unmapped]='received signal SIGSEGV|julia_etc_couple_4561 + 85 in section|(unmapped)|Cannot access memory at address'
    [shape-nroots]='received signal SIGSEGV|gc_mark_stack + |with nroots word 0x505050505050504'
    [shape-overflow]='received signal SIGSEGV|in burn (depth=|in couple_mn ('
    [shape-unadopted]='received signal SIGSEGV|unadopted thread calls ijl_alloc_svec|in unadopted (arg='
    [shape-rome]='received signal SIGSEGV|si_code = 2|writing into the code of etc_abi_version|ReadOnlyMemoryError'
    [shape-finalizer]='Breakpoint 1.1, finalizer (p=|fatal: error thrown and no exception handler available.|ErrorException("boom in a finalizer")|exited with code 01'
    [shape-clobber]='received signal SIGSEGV|arming the r13-clobbering memset|julia.read_mb_12721 + |0x4141414141414140'
    [shape-heaphint]='Temporary breakpoint 3, 0x|ijl_gc_collect in section|heap_size_hint = 16777216|3000000 boxes allocated|exited normally'
)
all=(sizes-fault entry-break thunk-r13 r13-zero r13-stale gc-corrupt banner sigstate shape-unmapped shape-nroots
     shape-overflow shape-unadopted shape-rome shape-finalizer shape-heaphint shape-clobber)
# `legal` (not in the default list: hundreds of transcripts) stops the harness's legal mode at
# many points with gdb/legal.py and writes OUT/legal/<state>.gdb.txt; LEGAL_* variables (see
# gdb/legal.py) choose how many.
if (($#)); then cases=("$@"); else cases=("${all[@]}"); fi

status=0
check() { # file needle...
    local f=$1 n
    shift
    for n in "$@"; do
        grep -qF -- "$n" "$f" || { echo "  CHECK FAILED: $f lacks: $n" >&2; status=1; }
    done
}
# The harness prints absolute paths of the cache dir; replace them so transcripts do not
# depend on where the cache is.  (gdb's own lines keep them: that is what gdb shows.)
for c in "${cases[@]}"; do
    start=$SECONDS
    case $c in
    legal)
        f=$out/legal.stream
        rm -rf "$out/legal"
        "${run_env[@]}" LEGAL_STRIDE="${LEGAL_STRIDE:-1}" LEGAL_MAX="${LEGAL_MAX:-4000}" LEGAL_TWIN="${LEGAL_TWIN:-7}" \
            LEGAL_ENTRIES="${LEGAL_ENTRIES:-0}" LEGAL_LIMIT="${LEGAL_LIMIT:-1000000}" \
            gdb -q -batch -nx -x gdb/legal.py --args "$build/harness" "$libdir" legal >"$f" 2>&1 </dev/null || true
        sed -i "s|$cache|\$JULIA_REAL_CACHE|g" "$f"
        n=$(python3 gdb/split-states.py "$f" "$out/legal")
        rm -f "$f"
        [[ $n -gt 0 ]] || { echo "  CHECK FAILED: no legal states recorded" >&2; status=1; }
        printf '%-26s %7d states  %3ds\n' "legal/" "$n" $((SECONDS - start))
        continue
        ;;
    banner | sigstate)
        # No gdb: the runtime's own SIGSEGV handler (banner) or the handler census (sigstate).
        f=$out/$c.txt
        # (in a subshell, so bash's own "Segmentation fault" job message stays out of the way)
        ("${run_env[@]}" "$build/harness" "$libdir" "$c" >"$f" 2>&1 </dev/null) 2>/dev/null || true
        if [[ $c == banner ]]; then
            check "$f" 'signal 11 (1): Segmentation fault' 'in expression starting at' 'jl_options.handle_signals = 0 before init'
        else
            check "$f" 'SIGSEGV handler after the runtime started: (nil) (SIG_DFL)'
        fi
        ;;
    *)
        [[ -n ${mode[$c]:-} ]] || { echo "regenerate.sh: unknown case $c" >&2; exit 2; }
        f=$out/$c.gdb.txt
        cmd=(-x "gdb/${gdbfile[$c]:-$c}.gdb")
        extra=(${caseenv[$c]:-})
        if [[ -n ${JULIA_REAL_CORES:-} && $c != entry-break && ${gdbfile[$c]:-} != more3-break ]]; then
            mkdir -p "$JULIA_REAL_CORES"
            # more3-crash.gdb continues after the first stop: it writes the core itself, there
            if [[ ${gdbfile[$c]:-} == more3-crash ]]; then
                extra+=("JULIA_REAL_CORE_FILE=$JULIA_REAL_CORES/$c.core")
            else
                cmd+=(-ex "generate-core-file $JULIA_REAL_CORES/$c.core")
            fi
        fi
        "${run_env[@]}" "${extra[@]}" gdb -q -batch -nx "${cmd[@]}" --args "$build/${binary[$c]:-harness}" "$libdir" "${mode[$c]}" \
            >"$f" 2>&1 </dev/null || true
        IFS='|' read -r -a needles <<<"${expect[$c]}"
        check "$f" "${needles[@]}"
        if grep -nE '^(No symbol table|No frame selected|No symbol ".*" in current context)|Error in sourced command file' "$f" >&2; then
            # the last line of the command file's output (generate-core-file's lines follow it)
            last=$(grep -vE '^(warning: |Saved corefile )' "$f" | tail -1)
            { [[ $c == r13-zero || $c == shape-* ]] && [[ $last == *'Cannot access memory at address 0x'* ]]; } ||
                { [[ ${gdbfile[$c]:-} == more3-crash ]] && [[ $last == 'No stack.' || $last == 'The current thread has terminated' ]]; } ||
                { echo "  CHECK FAILED: $f has unexpected gdb errors (above)" >&2; status=1; }
        fi
        ;;
    esac
    # one place for the cache path: $JULIA_REAL_CACHE
    sed -i "s|$cache|\$JULIA_REAL_CACHE|g" "$f"
    printf '%-26s %7d bytes  %3ds\n' "$(basename "$f")" "$(wc -c <"$f")" $((SECONDS - start))
done
exit $status
