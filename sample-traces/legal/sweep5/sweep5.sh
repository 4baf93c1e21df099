#!/usr/bin/env bash
# Legal machine states, fifth pass (issue 11): the sampler of the third pass (../sweep/sweep.py,
# gdb Python; ../sweep4/lldb_sweep.py for lldb) over configurations no earlier pass covered:
#   - real programs installed from Debian, stopped at random under load: lua5.4 (PUC
#     interpreter), grep -P (PCRE2's JIT), zstd -T2 (multi-threaded), bzip2, curl over
#     file://, gcc's cc1, the Rust compiler's own binary (rustc, librustc_driver);
#   - intwork.c built with -mstackrealign, -mno-red-zone, -fcf-protection=full,
#     -fstack-clash-protection, -mgeneral-regs-only, -fsplit-stack (gold; segmented stacks in
#     mmap'ed chunks), clang -fcf-protection=full -fstack-clash-protection, and i386 with
#     -mpreferred-stack-boundary=2 -mstackrealign;
#   - asm5.S: hand-written assembly with red-zone locals, rbp as a counter, a return through a
#     register, a call made with push + jmp, a callback run on a private stack in .bss, a
#     0x4141… fill in r15, and a function without any CFI;
#   - mt5.c: threads in futex waits, read(2), epoll_wait, sigwaitinfo, nanosleep and a SIGUSR1
#     handler; tls5.c: TLS of every model, started with `starti` and stepped into ld.so;
#   - go5.go: goroutine stacks growing (morestack), asynchronous preemption (SIGURG,
#     asyncPreempt), crypto/sha256's ABI0 assembly using R14, os/signal;
#   - AArch64 with clang's shadow call stack (x18) under qemu-user;
#   - lldb transcripts of mt5 (and of asm5, by name only: lldb 14 hangs on it).
#
#   sweep5.sh OUTDIR [-n STATES] [-s SEED] [-c CORE_PROB] [-t SECS] [program ...]
#
# writes OUTDIR/states/<program>-NNN.gdb.txt (lldb-*: .lldb.txt), .meta and sometimes .core,
# the layout of ../sweep/sweep.sh, so ../sweep/check.py reads them. `-l` lists the programs, `-b`
# only builds them (into OUTDIR/bin). A
# program whose tool is missing is left out with a line on stderr.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(mkdir -p "${1:?usage: sweep5.sh OUTDIR [-n N] [-s SEED] [-c P] [-t SECS] [program ...]}" && cd "$1" && pwd)
shift
n=40 seed=1 core=0 secs=120 list=0 buildonly=0
while getopts "n:s:c:t:lb" o; do
    case $o in n) n=$OPTARG ;; s) seed=$OPTARG ;; c) core=$OPTARG ;; t) secs=$OPTARG ;; l) list=1 ;; b) buildonly=1 ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
bin=$out/bin work=$out/work
mkdir -p "$bin" "$out/states" "$work"
have() { command -v "$1" >/dev/null 2>&1; }
sw=$here/../sweep

LIBC_BREAKS='malloc,free,realloc,calloc,memcpy,memmove,memset,strlen,read,write,__libc_malloc,_int_malloc,_int_free,pthread_mutex_lock,pthread_cond_wait,__tls_get_addr'
IW_BREAKS='insert,depth_sum,drop,cmp_long,fib,big_frame,vla_frame,sum_va,apply_ops,op_add,op_xor,hash_text,text_work,malloc,free,calloc,strdup,qsort,snprintf,write,strlen,memset,__morestack,__splitstack_find,__generic_morestack'
ASM_BREAKS='rz_leaf,rbp_counter,jmp_return,push_return,pr_callee,on_private_stack,fill_pattern,nocfi_caller,c_callback,malloc,free,snprintf,strlen'
MT_BREAKS='handler_work,on_usr1,cond_waiter,contender,pipe_reader,epoller,sig_waiter,sleeper,pthread_cond_timedwait,pthread_cond_broadcast,pthread_mutex_lock,pthread_mutex_unlock,pthread_kill,__pthread_kill_implementation,sigwaitinfo,epoll_wait,nanosleep,clock_nanosleep,__futex_abstimed_wait_common,futex_wake,__restore_rt,read,write,usleep'
TLS_BREAKS='_dl_start,_dl_start_final,_dl_sysdep_start,dl_main,_dl_relocate_object,_dl_allocate_tls,_dl_allocate_tls_init,_dl_allocate_tls_storage,__libc_setup_tls,__tls_init_tp,__tls_get_addr,update_get_addr,_dl_update_slotinfo,_dl_add_to_slotinfo,init_tls,_dl_init,call_init,__libc_start_main,__libc_early_init,_dl_map_object,_dl_lookup_symbol_x,local_tls,tls5_touch,worker,pthread_create,start_thread,allocate_stack,_dl_deallocate_tls,dlopen,dlclose'
GO_BREAKS='main.deep,main.spin,main.main.func1,main.main.func2,main.main.func3,runtime.morestack,runtime.morestack.abi0,runtime.newstack,runtime.copystack,runtime.asyncPreempt,runtime.asyncPreempt.abi0,runtime.asyncPreempt2,runtime.sigtramp,runtime.sigtramp.abi0,runtime.sigtrampgo,runtime.sighandler,runtime.preemptM,runtime.doSigPreempt,runtime.mcall,runtime.gogo,runtime.gogo.abi0,runtime.systemstack,runtime.systemstack.abi0,runtime.mstart,runtime.gcDrain,runtime.scanstack,crypto/sha256.block,crypto/sha256.block.abi0,os/signal.process,runtime.sigsend'
SCS_BREAKS='insert,depth_sum,drop,fib,text_work,round_,malloc,free,calloc,snprintf,strlen'
a64root=/usr/aarch64-linux-gnu

build() {
    local p=$1
    [[ -x $bin/$p ]] && return 0
    case $p in
    iw-stackrealign) gcc -g -O2 -mstackrealign -o "$bin/$p" "$here/intwork.c" ;;
    iw-noredzone) gcc -g -O2 -mno-red-zone -o "$bin/$p" "$here/intwork.c" ;;
    iw-cet) gcc -g -O2 -fcf-protection=full -o "$bin/$p" "$here/intwork.c" ;;
    iw-clash) gcc -g -O2 -fstack-clash-protection -o "$bin/$p" "$here/intwork.c" ;;
    iw-gpr) gcc -g -O3 -mgeneral-regs-only -o "$bin/$p" "$here/intwork.c" ;;
    iw-splitstack) have ld.gold && gcc -g -O2 -fsplit-stack -fuse-ld=gold -o "$bin/$p" "$here/intwork.c" ;;
    iw-clang-cet) have clang && clang -g -O2 -fcf-protection=full -fstack-clash-protection -mno-red-zone -o "$bin/$p" "$here/intwork.c" ;;
    iw-i386-sb2) have i686-linux-gnu-gcc && [[ -e /lib/ld-linux.so.2 ]] &&
        i686-linux-gnu-gcc -g -O2 -mpreferred-stack-boundary=2 -mstackrealign -o "$bin/$p" "$here/intwork.c" ;;
    asm5 | lldb-asm5) [[ -x $bin/asm5 ]] || gcc -g -O2 -o "$bin/asm5" "$here/asm5.c" "$here/asm5.S" ;;
    mt5 | lldb-mt5) [[ -x $bin/mt5 ]] || gcc -g -O2 -pthread -o "$bin/mt5" "$here/mt5.c" ;;
    tls5 | tls5-starti)
        [[ -x $bin/tls5 ]] && return 0
        gcc -g -O2 -fPIC -shared -o "$bin/libtls5.so" "$here/libtls5.c" || return 1
        cp "$bin/libtls5.so" "$bin/libtls5-dyn.so"
        gcc -g -O2 -pthread -o "$bin/tls5" "$here/tls5.c" -L"$bin" -ltls5 -Wl,-rpath,"$bin" -ldl ;;
    go5)
        have go || return 1
        (cd "$work" && env GOCACHE="$work/.gocache" GOPATH="$work/.gopath" GO111MODULE=off \
            go build -o "$bin/$p" "$here/go5.go") ;;
    scs-a64) have clang && have aarch64-linux-gnu-gcc &&
        clang --target=aarch64-linux-gnu -g -O2 -fsanitize=shadow-call-stack -ffixed-x18 -o "$bin/$p" "$here/scs-a64.c" ;;
    grep-pcre | zstd-mt | bzip2 | curl-file)
        [[ -f $work/big.txt ]] && return 0
        python3 - "$work/big.txt" <<'PY'
import random, sys
r = random.Random(5)
words = ["alpha", "beta", "gamma", "delta", "foo", "bar", "baz", "qux", "tracecheck", "legal"]
with open(sys.argv[1], "w") as f:
    for i in range(600000):
        f.write(" ".join(r.choice(words) + str(r.randrange(1000)) for _ in range(8)) + "\n")
PY
        ;;
    *) return 0 ;;
    esac
}

# program -> "DEBUGGER|BREAKS|command…" (STARTI: with `starti`)
spec() {
    case $1 in
    iw-*) echo "gdb|$IW_BREAKS|$bin/$1" ;;
    asm5) echo "gdb|$ASM_BREAKS|$bin/asm5" ;;
    lldb-asm5) echo "lldb|$ASM_BREAKS|$bin/asm5" ;;
    mt5) echo "gdb|$MT_BREAKS|$bin/mt5" ;;
    lldb-mt5) echo "lldb|handler_work,on_usr1,cond_waiter,contender,pipe_reader,sig_waiter,pthread_kill,epoll_wait,nanosleep|$bin/mt5" ;;
    tls5 | tls5-starti) echo "gdb|$TLS_BREAKS|$bin/tls5 $bin/libtls5-dyn.so" ;;
    go5) echo "gdb|$GO_BREAKS|$bin/go5" ;;
    scs-a64) echo "gdb-multiarch|$SCS_BREAKS|$bin/$1" ;;
    lua54) have lua5.4 || return 1
        echo "gdb|$LIBC_BREAKS,luaV_execute,luaH_get,luaH_newkey,luaC_step,luaD_call,luaD_precall,luaS_newlstr,luaM_malloc_,l_alloc|$(command -v lua5.4) $here/../sweep4/busy.lua" ;;
    grep-pcre) echo "gdb|$LIBC_BREAKS,pcre2_match_8,pcre2_jit_match_8,pcre2_jit_compile_8,pcre2_compile_8,execute_cmd,grepbuf,fillbuf|/usr/bin/grep -c -P (?:foo|ba[rz])\\d{2,3}\\s+(?:gamma|delta)\\d+ $work/big.txt" ;;
    zstd-mt) have zstd || return 1
        echo "gdb|$LIBC_BREAKS,ZSTD_compressStream2,ZSTD_compressBlock_btultra2,ZSTD_compressBlock_lazy2,POOL_thread,ZSTDMT_compressionJob,HUF_compress4X_usingCTable,FSE_compress_usingCTable|$(command -v zstd) -q -f -T2 -15 $work/big.txt -o /dev/null" ;;
    bzip2) have bzip2 || return 1
        echo "gdb|$LIBC_BREAKS,BZ2_compressBlock,BZ2_blockSort,BZ2_hbMakeCodeLengths,fallbackSort,mainSort|$(command -v bzip2) -9 -c -k $work/big.txt" ;;
    curl-file) have curl || return 1
        echo "gdb|$LIBC_BREAKS,curl_easy_perform,Curl_readwrite,Curl_client_write,file_do,Curl_multi_wait,poll|$(command -v curl) -s --limit-rate 8M -o /dev/null file://$work/big.txt" ;;
    cc1) local cc1; cc1=$(gcc -print-prog-name=cc1); [[ -x $cc1 ]] || return 1
        echo "gdb|$LIBC_BREAKS,ggc_internal_alloc,htab_find_slot_with_hash,bitmap_set_bit|$cc1 -quiet -O2 $sw/work.c -o /dev/null" ;;
    rustc) have rustc || return 1
        local sysroot; sysroot=$(rustc --print sysroot 2>/dev/null) || return 1
        echo "gdb|$LIBC_BREAKS,__rust_alloc,__rust_dealloc,__rdl_alloc,_Unwind_RaiseException,pthread_create,clone3|$sysroot/bin/rustc -O --crate-type bin --out-dir $work/rustc-out $sw/rust-unwind.rs" ;;
    *) return 1 ;;
    esac
}

all=(lua54 grep-pcre zstd-mt bzip2 curl-file cc1 rustc
     iw-stackrealign iw-noredzone iw-cet iw-clash iw-gpr iw-splitstack iw-clang-cet iw-i386-sb2
     asm5 mt5 tls5 tls5-starti go5 scs-a64 lldb-mt5)
# (lldb-asm5: lldb 14 stops answering in `process continue` after a few stops in asm5, as the
# fourth pass saw with libgomp and the LTO binary; listed by name only, not in the default set)
if [[ $list == 1 ]]; then printf '%s\n' "${all[@]}"; exit 0; fi
[[ $# -gt 0 ]] && all=("$@")

for p in "${all[@]}"; do
    if ! build "$p" >&2 2>/dev/null || ! s=$(spec "$p"); then echo "sweep5.sh: $p left out (tool missing or build failed)" >&2; continue; fi
    [[ $buildonly == 1 ]] && continue
    dbg=${s%%|*} s=${s#*|}
    breaks=${s%%|*} cmd=${s#*|}
    read -r -a args <<< "$cmd"
    [[ -x ${args[0]} ]] || { echo "sweep5.sh: $p left out (${args[0]} missing)" >&2; continue; }
    have "$dbg" || { echo "sweep5.sh: $p left out (no $dbg)" >&2; continue; }
    echo "sweep5.sh: $p: $n states" >&2
    c=$core remote="" starti=0
    # Go and rustc reserve large address ranges (cores of a GiB and more): no cores
    [[ $p == go* || $p == rustc ]] && c=0
    [[ $p == *-starti ]] && starti=1
    if [[ $p == scs-a64 ]]; then
        have qemu-aarch64 || { echo "sweep5.sh: $p left out (no qemu-aarch64)" >&2; continue; }
        remote="qemu-aarch64 -L $a64root -g PORT ${args[*]}" c=0
    fi
    if [[ $dbg == lldb ]]; then
        (cd "$work" && exec env SWEEP_OUT="$out/states" SWEEP_TAG="$p" SWEEP_N="$n" SWEEP_SEED="$seed" \
            SWEEP_SECS="$secs" SWEEP_BREAKS="$breaks" HOME="$work" LANG=C SWEEP_PASS_SEGV=0 \
            SWEEP_ARGS="$(printf '%s\x1f' "${args[@]}")" \
            timeout $((secs + 60)) nice -n 19 lldb -b -o "command script import $here/../sweep4/lldb_sweep.py" \
            > "$out/$p.lldb.out" 2>&1 < /dev/null)
        continue
    fi
    (cd "$work" && exec env SWEEP_OUT="$out/states" SWEEP_TAG="$p" SWEEP_N="$n" SWEEP_SEED="$seed" SWEEP_CORE="$c" \
        SWEEP_SECS="$secs" SWEEP_BREAKS="$breaks" HOME="$work" LANG=C SWEEP_REMOTE="$remote" SWEEP_STARTI="$starti" \
        SWEEP_PASS_SEGV=0 GOCACHE="$work/.gocache" GOPATH="$work/.gopath" GOFLAGS=-mod=mod \
        timeout $((secs + 60)) nice -n 19 "$dbg" -q -batch -nx -x "$sw/sweep.py" --args "${args[@]}" \
        > "$out/$p.gdb.out" 2>&1 < /dev/null)
done
exit 0
