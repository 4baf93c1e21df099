#!/usr/bin/env bash
# Legal machine states, third pass (issue 11): a sweep of many stops of real programs doing
# nothing wrong, through sweep.py (gdb Python). Programs: the distro's python3, perl, bash,
# sqlite3, gzip, xz, git, make, sort, ls, gdb itself, node, java, awk, tar, openssl and tclsh, each on a workload that runs for a
# while; and programs built here from the sources beside this script: work.c with gcc and clang
# at -O0/-O2/-O3, -fomit-frame-pointer, static, LTO and i686 (static, when i686-linux-gnu-gcc
# is there); cxx-unwind.cpp (exceptions in flight) with g++ and clang++; rust-unwind.rs (panics
# unwinding, thread spawn); go-sched.go (scheduler, GC, sigtramp, cgo); sys.c (+ libplt.c: a
# sigaltstack SIGALRM handler, setjmp/longjmp, swapcontext, ld.so lazy binding, thread start,
# the vDSO); faults.c (a write barrier and a memory probe: SIGSEGVs the program raises on
# purpose and handles, passed on to it). Each program is stopped N times (breakpoints on the functions listed below with
# random ignore counts, random Ctrl-C-like interrupts, stepi runs, tcatch syscall, finish) and
# about a third of the stops get a twin with SIGSEGV/SIGBUS sent to the stopped thread.
#
#   sweep.sh OUTDIR [-n STATES] [-s SEED] [-c CORE_PROB] [-t SECS] [program ...]
#
# writes OUTDIR/states/<program>-NNN.gdb.txt, .meta (exe=, kind=, twin=) and sometimes .core;
# `sweep.sh OUTDIR -l` lists the programs. Programs whose tool is missing are left out with a
# line on stderr. Runs under `nice`. check.sh runs tracecheck over the states.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(mkdir -p "${1:?usage: sweep.sh OUTDIR [-n N] [-s SEED] [-c P] [-t SECS] [program ...]}" && cd "$1" && pwd)
shift
n=40 seed=1 core=0 secs=120 list=0
while getopts "n:s:c:t:l" o; do
    case $o in n) n=$OPTARG ;; s) seed=$OPTARG ;; c) core=$OPTARG ;; t) secs=$OPTARG ;; l) list=1 ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
bin=$out/bin
mkdir -p "$bin" "$out/states" "$out/work"
have() { command -v "$1" >/dev/null 2>&1; }

W_BREAKS='insert,depth_sum,drop,cmp_long,mix,fib,sum_va,apply_ops,op_add,op_xor,report,text_work,malloc,free,calloc,strdup,qsort,clock_gettime,sin,snprintf,write,strlen,memcpy'
CXX_BREAKS='__cxa_throw,_Unwind_RaiseException,__gxx_personality_v0,_Unwind_Resume,__cxa_begin_catch,__cxa_end_catch,_Unwind_Find_FDE,_Unwind_GetIPInfo,__cxa_rethrow,__cxa_allocate_exception,_Unwind_SetGR,_Unwind_GetLanguageSpecificData,leaf,middle,outer,Guard::~Guard,operator new,operator delete'
RS_BREAKS='rust_panic,__rust_start_panic,_Unwind_RaiseException,_Unwind_Resume,rust_eh_personality,rust_unwind::risky,rust_unwind::layer,clone3,start_thread,pthread_create,pthread_join,__rust_alloc,__rust_dealloc,_Unwind_GetIPInfo,_Unwind_Find_FDE'
GO_BREAKS='runtime.mallocgc,runtime.gcBgMarkWorker,runtime.schedule,runtime.sigtramp,runtime.sighandler,runtime.cgocall,runtime.asmcgocall,runtime.morestack,runtime.mcall,runtime.gogo,runtime.futex,runtime.park_m,runtime.newproc1,runtime.chansend,runtime.chanrecv,main.worker,c_step,runtime.scanobject,runtime.gcDrain,runtime.sysmon,runtime.selectgo,runtime.systemstack,runtime.usleep'
SYS_BREAKS='on_alarm,handler_work,dive,longjmp,__longjmp,setjmp,_setjmp,__sigsetjmp,swapcontext,coro_body,dlopen,_dl_runtime_resolve_xsavec,_dl_runtime_resolve_xsave,_dl_fixup,plt_a,plt_b,plt_entry,thread_main,start_thread,clone3,__restore_rt,clock_gettime,pthread_create,dlclose,_dl_map_object,mmap64,munmap'
LIBC_BREAKS='malloc,free,realloc,memcpy,memmove,strlen,read,write,mmap64,__libc_malloc,_int_malloc,_int_free'

# program -> how to build it (prints nothing; fails when it cannot be built)
build() {
    local p=$1 src=$here
    [[ -x $bin/$p ]] && return 0
    case $p in
    work-gcc-O0) gcc -g -O0 -o "$bin/$p" "$src/work.c" -lm ;;
    work-gcc-O2) gcc -g -O2 -o "$bin/$p" "$src/work.c" -lm ;;
    work-gcc-O3) gcc -g -O3 -march=x86-64-v3 -o "$bin/$p" "$src/work.c" -lm ;;
    work-gcc-O2-omitfp) gcc -g -O2 -fomit-frame-pointer -o "$bin/$p" "$src/work.c" -lm ;;
    work-gcc-static) gcc -g -O2 -static -o "$bin/$p" "$src/work.c" -lm ;;
    work-gcc-lto) gcc -g -O2 -flto -o "$bin/$p" "$src/work.c" -lm ;;
    work-clang-O0) have clang && clang -g -O0 -o "$bin/$p" "$src/work.c" -lm ;;
    work-clang-O2) have clang && clang -g -O2 -o "$bin/$p" "$src/work.c" -lm ;;
    work-clang-O3-omitfp) have clang && clang -g -O3 -fomit-frame-pointer -mavx2 -o "$bin/$p" "$src/work.c" -lm ;;
    work-i686) have i686-linux-gnu-gcc && i686-linux-gnu-gcc -g -O2 -static -o "$bin/$p" "$src/work.c" -lm ;;
    cxx-gcc-O2) g++ -g -O2 -o "$bin/$p" "$src/cxx-unwind.cpp" ;;
    cxx-clang-O0) have clang++ && clang++ -g -O0 -o "$bin/$p" "$src/cxx-unwind.cpp" ;;
    rust-unwind) have rustc && rustc -g -C opt-level=2 -o "$bin/$p" "$src/rust-unwind.rs" ;;
    go-sched) have go && (cd "$out/work" && env GOCACHE="$out/work/.gocache" GOPATH="$out/work/.gopath" GO111MODULE=off \
        CGO_ENABLED=1 go build -o "$bin/$p" "$src/go-sched.go") ;;
    faults-gcc-O2) gcc -g -O2 -o "$bin/$p" "$src/faults.c" ;;
    sys-gcc-O2 | sys-clang-O0)
        gcc -g -O2 -fPIC -shared -o "$bin/libplt.so" "$src/libplt.c" -lm || return 1
        if [[ $p == sys-gcc-O2 ]]; then gcc -g -O2 -pthread -o "$bin/$p" "$src/sys.c" -ldl
        else have clang && clang -g -O0 -pthread -o "$bin/$p" "$src/sys.c" -ldl; fi ;;
    *) return 0 ;;
    esac
}

# program -> "BREAKS|command…" (distro programs: their own workload)
spec() {
    local big=$out/work/big.txt
    case $1 in
    work-*) echo "$W_BREAKS|$bin/$1" ;;
    cxx-*) echo "$CXX_BREAKS|$bin/$1" ;;
    rust-unwind) echo "$RS_BREAKS|$bin/$1" ;;
    go-sched) echo "$GO_BREAKS|$bin/$1" ;;
    sys-*) echo "$SYS_BREAKS|$bin/$1 1000000000 $bin/libplt.so" ;;
    faults-*) echo "mark_dirty,on_segv,probe,store_round,siglongjmp,__sigsetjmp,mprotect,nanosleep|$bin/$1" ;;
    node) echo "$LIBC_BREAKS|/usr/bin/node $here/../busy.js" ;;
    java) echo "$LIBC_BREAKS,JVM_ArrayCopy|/usr/bin/java -XX:-UsePerfData $here/../Busy.java" ;;
    awk) echo "$LIBC_BREAKS|/usr/bin/awk -f $here/../busy.awk" ;;
    tar) echo "$LIBC_BREAKS,deflate|/usr/bin/tar -czf /dev/null -C /usr/share ." ;;
    openssl) echo "$LIBC_BREAKS,SHA256_Update,EVP_DigestUpdate|/usr/bin/openssl speed -seconds 100 sha256" ;;
    tclsh) echo "$LIBC_BREAKS,Tcl_EvalObjv,TclExecuteByteCode|/usr/bin/tclsh $out/work/busy.tcl" ;;
    python3) echo "$LIBC_BREAKS,_PyEval_EvalFrameDefault,PyObject_Malloc,take_gil,drop_gil,pthread_cond_timedwait|/usr/bin/python3 $here/../busy.py" ;;
    perl) echo "$LIBC_BREAKS,Perl_runops_standard,Perl_regexec_flags,Perl_pp_subst,Perl_sv_setsv_flags|/usr/bin/perl $here/../busy.pl" ;;
    bash) echo "xmalloc,xrealloc,execute_command,expand_word_list_internal,make_word,dispose_words,$LIBC_BREAKS|/bin/bash $here/../busy.sh" ;;
    sqlite3) echo "sqlite3_step,sqlite3_malloc64,sqlite3_free,$LIBC_BREAKS|/usr/bin/sqlite3 :memory: WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<400000000) SELECT sum(x*x%7),count(*) FROM c;" ;;
    gzip) echo "$LIBC_BREAKS|/bin/sh -c exec\ /usr/bin/gzip\ -9\ -c\ $big\ \>/dev/null" ;;
    xz) echo "lzma_code,lzma_stream_encoder,$LIBC_BREAKS|/bin/sh -c exec\ /usr/bin/xz\ -9\ -T1\ -c\ $big\ \>/dev/null" ;;
    git) echo "inflate,inflateInit2_,xmalloc,$LIBC_BREAKS|$(command -v git) -C $here --no-pager log -p --stat -n 100000 --output=/dev/null" ;;
    make) echo "$LIBC_BREAKS,fork,vfork,execve,waitpid|/usr/bin/make -s -j1 -f $out/work/gen.mk" ;;
    sort) echo "$LIBC_BREAKS,qsort,strcoll,memcmp|/usr/bin/sort -R --parallel=1 -S 64M -o /dev/null $big" ;;
    ls) echo "$LIBC_BREAKS,opendir,readdir,readdir64,statx,qsort,fstatat64|/bin/sh -c exec\ /bin/ls\ -lR\ /usr\ \>/dev/null" ;;
    gdb) echo "$LIBC_BREAKS,PyObject_Malloc,_PyEval_EvalFrameDefault|/usr/bin/gdb -batch -nx -ex python\ print(sum(i*i\ for\ i\ in\ range(10**9)))" ;;
    *) return 1 ;;
    esac
}

all=(work-gcc-O0 work-gcc-O2 work-gcc-O3 work-gcc-O2-omitfp work-gcc-static work-gcc-lto work-clang-O0 work-clang-O2
     work-clang-O3-omitfp work-i686 cxx-gcc-O2 cxx-clang-O0 rust-unwind go-sched sys-gcc-O2 sys-clang-O0
     faults-gcc-O2 python3 perl bash sqlite3 gzip xz git make sort ls gdb node java awk tar openssl tclsh)
if [[ $list == 1 ]]; then printf '%s\n' "${all[@]}"; exit 0; fi
[[ $# -gt 0 ]] && all=("$@")

# gzip, xz and sort read an 80 MB text file, written only when one of them runs.
[[ " ${all[*]} " =~ " "(gzip|xz|sort)" " && ! -s $out/work/big.txt ]] && seq 1 10000000 > "$out/work/big.txt"
[[ -s $out/work/busy.tcl ]] || printf '%s\n' 'set d [dict create]' 'for {set i 0} {1} {incr i} { dict set d [expr {$i % 997}] [string repeat x [expr {$i % 50}]] }' > "$out/work/busy.tcl"
[[ -s $out/work/gen.mk ]] || {
    printf 'all: %s\n' "$(seq -f 't%g' 1 20000 | tr '\n' ' ')"
    printf 't%%:\n\t@: $@\n'
} > "$out/work/gen.mk"

for p in "${all[@]}"; do
    if ! build "$p" >&2 2>/dev/null || ! s=$(spec "$p"); then echo "sweep.sh: $p left out (tool missing or build failed)" >&2; continue; fi
    breaks=${s%%|*} cmd=${s#*|}
    # The sqlite3 query is one argument; the rest split on unescaped spaces.
    if [[ $p == sqlite3 ]]; then args=(/usr/bin/sqlite3 :memory: "${cmd#/usr/bin/sqlite3 :memory: }")
    else eval "args=($cmd)"; fi
    [[ -x ${args[0]} ]] || { echo "sweep.sh: $p left out (${args[0]} missing)" >&2; continue; }
    echo "sweep.sh: $p: $n states" >&2
    pass_segv=0
    [[ $p == faults-* || $p == java ]] && pass_segv=1
    c=$core
    [[ $p == go-* ]] && c=0 # Go reserves a large arena: a core of 1 GiB
    (cd "$out/work" && exec env SWEEP_OUT="$out/states" SWEEP_TAG="$p" SWEEP_N="$n" SWEEP_SEED="$seed" SWEEP_CORE="$c" SWEEP_PASS_SEGV="$pass_segv" \
        SWEEP_SECS="$secs" SWEEP_BREAKS="$breaks" HOME="$out/work" LANG=C \
        timeout $((secs + 60)) nice -n 19 gdb -q -batch -nx -x "$here/sweep.py" --args "${args[@]}" \
        > "$out/$p.gdb.out" 2>&1 < /dev/null)
done
exit 0
