#!/usr/bin/env bash
# Legal machine states, fourth pass (issue 11): the sampler of the third pass
# (../sweep/sweep.py, gdb Python; lldb_sweep.py for lldb) over shapes the third pass did not
# cover: AArch64 programs under qemu-user (gdb-multiarch, `target remote`), i386 programs
# (dynamic, -m32 userland), a multi-threaded tokio runtime, heavy-template C++ at -O3 -flto,
# clang -O3 -fomit-frame-pointer AVX-512/AVX2 code and glibc's evex/avx2 string functions,
# OpenMP (libgomp), numpy (a Python C extension), LuaJIT's generated code, Go with 200
# goroutines blocked in read(2) (plain and -race), ld.so during dlopen/dlclose, SA_SIGINFO
# handlers on an altstack (a handled NULL load and division by zero, nested signals, vfork),
# work.c under AddressSanitizer and UBSan (clean runs), and states captured with lldb instead
# of gdb.
#
#   sweep4.sh OUTDIR [-n STATES] [-s SEED] [-c CORE_PROB] [-t SECS] [program ...]
#
# writes OUTDIR/states/<program>-NNN.gdb.txt (lldb-*: .lldb.txt), .meta and sometimes .core,
# the same layout as ../sweep/sweep.sh, so ../sweep/check.py reads them. `-l` lists the
# programs. A program whose tool is missing is left out with a line on stderr.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(mkdir -p "${1:?usage: sweep4.sh OUTDIR [-n N] [-s SEED] [-c P] [-t SECS] [program ...]}" && cd "$1" && pwd)
shift
n=40 seed=1 core=0 secs=120 list=0
while getopts "n:s:c:t:l" o; do
    case $o in n) n=$OPTARG ;; s) seed=$OPTARG ;; c) core=$OPTARG ;; t) secs=$OPTARG ;; l) list=1 ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
bin=$out/bin
mkdir -p "$bin" "$out/states" "$out/work"
have() { command -v "$1" >/dev/null 2>&1; }
sw=$here/../sweep

W_BREAKS='insert,depth_sum,drop,cmp_long,mix,fib,sum_va,apply_ops,op_add,op_xor,report,text_work,malloc,free,calloc,strdup,qsort,clock_gettime,sin,snprintf,write,strlen,memcpy'
SYS_BREAKS='on_alarm,handler_work,dive,longjmp,__longjmp,setjmp,_setjmp,__sigsetjmp,swapcontext,coro_body,dlopen,_dl_runtime_resolve,_dl_fixup,plt_a,plt_b,plt_entry,thread_main,start_thread,clone3,clone,__restore_rt,__restore,clock_gettime,pthread_create,dlclose,_dl_map_object'
CXX_BREAKS='__cxa_throw,_Unwind_RaiseException,__gxx_personality_v0,_Unwind_Resume,__cxa_begin_catch,__cxa_end_catch,_Unwind_Find_FDE,leaf,middle,outer,Guard::~Guard'
TMPL_BREAKS='round_,operator new,operator delete,malloc,free,memcpy,memmove,memcmp,std::_Rb_tree_increment,std::_Rb_tree_insert_and_rebalance,std::__detail::_Prime_rehash_policy::_M_need_rehash,__dynamic_cast,_Unwind_Find_FDE'
VEC_BREAKS='text_round,dot,__memmove_avx512_unaligned_erms,__memmove_evex_unaligned_erms,__memmove_avx_unaligned_erms,__strlen_evex,__strlen_avx2,__memchr_evex,__memchr_avx2,__strchr_evex,__strchr_avx2,__memcmp_evex_movbe,__memcmp_avx2_movbe,__memset_avx512_unaligned_erms,__memset_evex_unaligned_erms,__memset_avx2_unaligned_erms'
OMP_BREAKS='GOMP_parallel,GOMP_barrier,GOMP_critical_start,GOMP_critical_end,GOMP_single_start,GOMP_task,GOMP_taskwait,GOMP_loop_dynamic_next,GOMP_parallel_end,gomp_team_start,gomp_thread_start,gomp_team_barrier_wait_end,work,fib,main._omp_fn.0,main._omp_fn.1,fib._omp_fn.0,sin,cos'
DL_BREAKS='dlopen,dlclose,dlsym,dladdr,_dl_map_object,_dl_map_object_from_fd,_dl_relocate_object,_dl_lookup_symbol_x,do_lookup_x,_dl_init,call_init,dl_open_worker,_dl_catch_exception,_dl_close_worker,_dl_new_object,_dl_protect_relro,_dl_allocate_tls_init,_dl_map_segments,__mmap,__munmap,__mprotect,dl4_init,dl4_fini,dl4_entry'
SIG_BREAKS='on_usr1,on_usr2,on_segv,on_fpe,skip_insn,handler_work,nil_check,divide,pinger,vfork,execve,waitpid,__restore_rt,pthread_kill,raise,sigaltstack'
GO_BREAKS='c_mix,_cgo_topofstack,runtime.entersyscall,runtime.exitsyscall,runtime.entersyscallblock,runtime.handoffp,runtime.retake,syscall.Syscall,syscall.RawSyscall,syscall.read,main.reader,main.main.func1,runtime.mallocgc,runtime.schedule,runtime.park_m,runtime.futex,runtime.chansend,runtime.chanrecv,runtime.cgocall,runtime.asmcgocall,runtime.sysmon,runtime.gcBgMarkWorker,runtime.racecall,runtime.racefuncenter,__tsan_read,__tsan_write,__tsan_func_entry,__tsan_go_start,__tsan_acquire,__tsan_release'
TOKIO_BREAKS='tokio_work::relay,tokio_work::main,epoll_wait,syscall,__rust_alloc,__rust_dealloc,malloc,free,pthread_cond_wait,tokio::runtime::scheduler::multi_thread::worker::Context::park,tokio::runtime::scheduler::multi_thread::worker::Context::run_task,tokio::runtime::task::raw::poll,tokio::runtime::blocking::pool::Inner::run,tokio::runtime::time::Driver::park_internal,tokio::runtime::io::driver::Driver::turn'
LIBC_BREAKS='malloc,free,realloc,memcpy,memmove,strlen,read,write,mmap64,__libc_malloc,_int_malloc,_int_free'
A64_WORK='insert,depth_sum,drop,cmp_long,mix,fib,sum_va,apply_ops,op_add,op_xor,report,text_work,malloc,free,qsort,snprintf,memcpy,strlen'
a64root=/usr/aarch64-linux-gnu

build() {
    local p=$1
    [[ -x $bin/$p ]] && return 0
    case $p in
    a64-work-O2) have aarch64-linux-gnu-gcc && aarch64-linux-gnu-gcc -g -O2 -static -o "$bin/$p" "$sw/work.c" -lm ;;
    a64-work-O0-dyn) have aarch64-linux-gnu-gcc && aarch64-linux-gnu-gcc -g -O0 -o "$bin/$p" "$sw/work.c" -lm ;;
    a64-sys)
        have aarch64-linux-gnu-gcc || return 1
        aarch64-linux-gnu-gcc -g -O2 -fPIC -shared -o "$bin/libplt-a64.so" "$sw/libplt.c" -lm || return 1
        aarch64-linux-gnu-gcc -g -O2 -pthread -o "$bin/$p" "$sw/sys.c" -ldl ;;
    i386-work) have i686-linux-gnu-gcc && [[ -e /lib/ld-linux.so.2 ]] && i686-linux-gnu-gcc -g -O2 -o "$bin/$p" "$sw/work.c" -lm ;;
    i386-sys)
        have i686-linux-gnu-gcc && [[ -e /lib/ld-linux.so.2 ]] || return 1
        i686-linux-gnu-gcc -g -O2 -fPIC -shared -o "$bin/libplt-i386.so" "$sw/libplt.c" -lm || return 1
        i686-linux-gnu-gcc -g -O2 -pthread -o "$bin/$p" "$sw/sys.c" -ldl ;;
    tmpl-gcc-O3-lto) g++ -g -O3 -flto -std=c++17 -o "$bin/$p" "$here/cxx-templates.cpp" ;;
    tmpl-clang-O3-lto) have clang++ && have ld.gold && clang++ -g -O3 -flto -fuse-ld=gold -std=c++17 -o "$bin/$p" "$here/cxx-templates.cpp" ;;
    vec-clang-avx512) have clang && clang -g -O3 -fomit-frame-pointer -march=x86-64-v4 -o "$bin/$p" "$here/vec.c" ;;
    vec-gcc-avx2) gcc -g -O3 -fomit-frame-pointer -march=x86-64-v3 -o "$bin/$p" "$here/vec.c" ;;
    omp-gcc-O2) gcc -g -O2 -fopenmp -o "$bin/$p" "$here/omp.c" -lm ;;
    dl-gcc-O2)
        gcc -g -O2 -fPIC -shared -o "$bin/libdl4.so" "$here/libdl4.c" -lm || return 1
        gcc -g -O2 -o "$bin/$p" "$here/dl.c" -ldl ;;
    sig-gcc-O2) gcc -g -O2 -pthread -o "$bin/$p" "$here/sig.c" ;;
    asan-work) have clang && clang -g -O1 -fsanitize=address -fno-omit-frame-pointer -o "$bin/$p" "$sw/work.c" -lm ;;
    ubsan-work) have clang && clang -g -O2 -fsanitize=undefined -o "$bin/$p" "$sw/work.c" -lm ;;
    sig-clang-O0) have clang && clang -g -O0 -pthread -o "$bin/$p" "$here/sig.c" ;;
    go-block | go-block-race)
        have go || return 1
        local race=()
        [[ $p == go-block-race ]] && race=(-race)
        (cd "$out/work" && env GOCACHE="$out/work/.gocache" GOPATH="$out/work/.gopath" GO111MODULE=off \
            CGO_ENABLED=1 go build "${race[@]}" -o "$bin/$p" "$here/go-block.go") ;;
    tokio-work)
        have cargo || return 1
        (cd "$here/tokio-work" && CARGO_TARGET_DIR="$out/work/tokio-target" cargo build -q --release --locked) || return 1
        cp "$out/work/tokio-target/release/tokio-work" "$bin/$p" ;;
    lldb-work-O2) build work-gcc-O2-x ;;
    lldb-sys) build sys-gcc-O2-x ;;
    work-gcc-O2-x) gcc -g -O2 -o "$bin/$p" "$sw/work.c" -lm ;;
    sys-gcc-O2-x)
        gcc -g -O2 -fPIC -shared -o "$bin/libplt.so" "$sw/libplt.c" -lm || return 1
        gcc -g -O2 -pthread -o "$bin/$p" "$sw/sys.c" -ldl ;;
    lldb-vec) build vec-gcc-avx2 ;;
    lldb-sig) build sig-gcc-O2 ;;
    lldb-omp) build omp-gcc-O2 ;;
    lldb-tmpl) build tmpl-gcc-O3-lto ;;
    *) return 0 ;;
    esac
}

# program -> "DEBUGGER|BREAKS|command…"
spec() {
    case $1 in
    a64-work-O2) echo "gdb-multiarch|$A64_WORK|$bin/$1" ;;
    a64-work-O0-dyn) echo "gdb-multiarch|$A64_WORK|$bin/$1" ;;
    a64-sys) echo "gdb-multiarch|$SYS_BREAKS|$bin/$1 1000000000 $bin/libplt-a64.so" ;;
    i386-work) echo "gdb|$W_BREAKS|$bin/$1" ;;
    i386-sys) echo "gdb|$SYS_BREAKS|$bin/$1 1000000000 $bin/libplt-i386.so" ;;
    tmpl-*) echo "gdb|$TMPL_BREAKS|$bin/$1" ;;
    vec-*) echo "gdb|$VEC_BREAKS|$bin/$1" ;;
    omp-*) echo "gdb|$OMP_BREAKS|$bin/$1" ;;
    dl-*) echo "gdb|$DL_BREAKS|$bin/$1 1000000000 $bin/libdl4.so" ;;
    sig-*) echo "gdb|$SIG_BREAKS|$bin/$1" ;;
    asan-work) echo "gdb|$W_BREAKS,__asan_memcpy,__asan::Allocator::Allocate,__asan::Allocator::Deallocate,__sanitizer::internal_memset,__interceptor_malloc,__interceptor_free,__interceptor_qsort|$bin/$1" ;;
    ubsan-work) echo "gdb|$W_BREAKS,__ubsan_handle_type_mismatch_v1,__ubsan_handle_add_overflow|$bin/$1" ;;
    go-block*) echo "gdb|$GO_BREAKS|$bin/$1" ;;
    tokio-work) echo "gdb|$TOKIO_BREAKS|$bin/$1" ;;
    numpy) /usr/bin/python3 -c 'import numpy' 2>/dev/null || return 1
        echo "gdb|$LIBC_BREAKS,cblas_dgemm,dgemm_,PyArray_NewFromDescr,npy_quicksort,PyObject_Malloc|/usr/bin/python3 $here/busy-np.py" ;;
    luajit) have luajit || return 1
        echo "gdb|$LIBC_BREAKS,lua_pushnumber,luaL_newstate,lj_gc_step,lj_trace_exit|$(command -v luajit) $here/busy.lua" ;;
    lldb-work-O2) echo "lldb|insert,depth_sum,cmp_long,mix,fib,sum_va,op_add,text_work,malloc,free,qsort,snprintf|$bin/work-gcc-O2-x" ;;
    lldb-sys) echo "lldb|on_alarm,handler_work,dive,longjmp,swapcontext,coro_body,dlopen,_dl_fixup,plt_entry,thread_main,start_thread,clone3,__restore_rt|$bin/sys-gcc-O2-x 1000000000 $bin/libplt.so" ;;
    lldb-vec) echo "lldb|$VEC_BREAKS|$bin/vec-gcc-avx2" ;;
    lldb-sig) echo "lldb|$SIG_BREAKS|$bin/sig-gcc-O2" ;;
    lldb-omp) echo "lldb|$OMP_BREAKS|$bin/omp-gcc-O2" ;;
    lldb-tmpl) echo "lldb|$TMPL_BREAKS|$bin/tmpl-gcc-O3-lto" ;;
    *) return 1 ;;
    esac
}

all=(a64-work-O2 a64-work-O0-dyn a64-sys i386-work i386-sys tokio-work tmpl-gcc-O3-lto tmpl-clang-O3-lto
     vec-clang-avx512 vec-gcc-avx2 omp-gcc-O2 numpy luajit go-block go-block-race dl-gcc-O2 sig-gcc-O2 sig-clang-O0
     asan-work ubsan-work
     lldb-work-O2 lldb-sys lldb-vec lldb-sig)
# (lldb-omp and lldb-tmpl: lldb 14 hangs in `process continue` with breakpoints in libgomp
# worker threads and in the LTO binary; listed by name only, not in the default set)
if [[ $list == 1 ]]; then printf '%s\n' "${all[@]}"; exit 0; fi
[[ $# -gt 0 ]] && all=("$@")

for p in "${all[@]}"; do
    if ! build "$p" >&2 2>/dev/null || ! s=$(spec "$p"); then echo "sweep4.sh: $p left out (tool missing or build failed)" >&2; continue; fi
    dbg=${s%%|*} s=${s#*|}
    breaks=${s%%|*} cmd=${s#*|}
    eval "args=($cmd)"
    [[ -x ${args[0]} ]] || { echo "sweep4.sh: $p left out (${args[0]} missing)" >&2; continue; }
    have "$dbg" || { echo "sweep4.sh: $p left out (no $dbg)" >&2; continue; }
    echo "sweep4.sh: $p: $n states" >&2
    c=$core remote=""
    # Go reserves a large arena (a core of 1 GiB), ASan a shadow of terabytes: no cores
    [[ $p == go-* || $p == asan-* ]] && c=0
    if [[ $p == a64-* ]]; then
        have qemu-aarch64 || { echo "sweep4.sh: $p left out (no qemu-aarch64)" >&2; continue; }
        remote="qemu-aarch64 -L $a64root -g PORT ${args[*]}" c=0
    fi
    if [[ $dbg == lldb ]]; then
        (cd "$out/work" && exec env SWEEP_OUT="$out/states" SWEEP_TAG="$p" SWEEP_N="$n" SWEEP_SEED="$seed" \
            SWEEP_SECS="$secs" SWEEP_BREAKS="$breaks" HOME="$out/work" LANG=C SWEEP_PASS_SEGV="$([[ $p == *sig* ]] && echo 1 || echo 0)" SWEEP_ARGS="$(printf '%s\x1f' "${args[@]}")" \
            timeout $((secs + 60)) nice -n 19 lldb -b -o "command script import $here/lldb_sweep.py" \
            > "$out/$p.lldb.out" 2>&1 < /dev/null)
        continue
    fi
    (cd "$out/work" && exec env SWEEP_OUT="$out/states" SWEEP_TAG="$p" SWEEP_N="$n" SWEEP_SEED="$seed" SWEEP_CORE="$c" \
        SWEEP_SECS="$secs" SWEEP_BREAKS="$breaks" HOME="$out/work" LANG=C SWEEP_REMOTE="$remote" \
        SWEEP_PASS_SEGV="$([[ $p == *sig* ]] && echo 1 || echo 0)" \
        timeout $((secs + 60)) nice -n 19 "$dbg" -q -batch -nx -x "$sw/sweep.py" --args "${args[@]}" \
        > "$out/$p.gdb.out" 2>&1 < /dev/null)
done
exit 0
