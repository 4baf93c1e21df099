#!/usr/bin/env bash
# Legal machine states, sixth pass (issue 11): the sampler of the third pass (../sweep/sweep.py)
# over managed runtimes whose legal code looks like ABI anomalies to naive rules:
#   - HotSpot (OpenJDK 17): JIT code in anonymous executable mappings, r12 (heap base) and r15
#     (JavaThread) pinned, interpreter frames without symbols, and SIGSEGV used on purpose
#     (implicit null checks, safepoint polls, stack banging): Work6.java, with the JIT (jvm) and
#     interpreted only (jvm-xint);
#   - SBCL: its own register and stack conventions, a write barrier taken through SIGSEGV on
#     protected pages, traps, and the control stack guard page (work6.lisp);
#   - the BEAM JIT of Erlang/OTP 25 (beam.smp, pinned registers, code in a dual-mapped memfd)
#     (work6.erl);
#   - LuaJIT traces and FFI callbacks that libc's qsort calls (work6.lua);
#   - Chez Scheme's compiled code, continuations and collector (work6.ss);
#   - Go with C calling back into Go (cgo callbacks) and asynchronous preemption (cgo6.go).
# Signals a runtime raises and handles (SWEEP_HANDLED) are passed on; at about a third of the
# resumes gdb stops on them (a user who forgot `handle SIGSEGV nostop`): kind=handled-SIG.
#
#   sweep6.sh OUTDIR [-n STATES] [-s SEED] [-c CORE_PROB] [-t SECS] [program ...]
#
# writes OUTDIR/states/<program>-NNN.gdb.txt, .meta and sometimes .core (the layout of
# ../sweep/sweep.sh, so ../sweep/check.py reads them). `-l` lists the programs, `-b` only builds
# them (into OUTDIR/bin). A program whose tool is missing is left out with a line on stderr.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(mkdir -p "${1:?usage: sweep6.sh OUTDIR [-n N] [-s SEED] [-c P] [-t SECS] [program ...]}" && cd "$1" && pwd)
shift
n=40 seed=1 core=0 secs=120 list=0 buildonly=0
while getopts "n:s:c:t:lb" o; do
    case $o in n) n=$OPTARG ;; s) seed=$OPTARG ;; c) core=$OPTARG ;; t) secs=$OPTARG ;; l) list=1 ;; b) buildonly=1 ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
bin=$out/bin work=$out/work
mkdir -p "$bin" "$out/states" "$work"
# the workloads run from OUTDIR (the transcripts name no directory of the checkout)
src=$out/src
mkdir -p "$src" && cp "$here"/Work6.java "$here"/work6.* "$here"/cgo6.go "$src"/
have() { command -v "$1" >/dev/null 2>&1; }
sw=$here/../sweep

LIBC_BREAKS='malloc,free,realloc,calloc,memcpy,memmove,memset,strlen,read,write,pthread_mutex_lock,pthread_cond_wait,pthread_cond_timedwait,mmap,munmap,mprotect,sigaction'
JVM_BREAKS="$LIBC_BREAKS,JVM_FillInStackTrace,JVM_ArrayCopy,JVM_IHashCode,JVM_CurrentTimeMillis,JVM_NanoTime,JVM_GC,JVM_MonitorWait,JVM_Yield,Java_java_io_FileOutputStream_writeBytes,JNI_CreateJavaVM"
SBCL_BREAKS="$LIBC_BREAKS,collect_garbage,garbage_collect_generation,gc_and_save,handle_guard_page_triggered,sigtrap_handler,sigill_handler,memory_fault_handler,interrupt_handle_now,call_into_lisp,funcall0,funcall1,scavenge,alloc_tramp,lisp_alloc,unhandled_trap_error,protect_control_stack_guard_page"
BEAM_BREAKS="$LIBC_BREAKS,erts_garbage_collect_nobump,erts_schedule,erts_send_message,erts_alloc_message_heap,process_main,beam_jit_call_nif,erts_bs_private_append,erts_term_to_binary,ets_insert_2,erts_build_exception"
LJ_BREAKS="$LIBC_BREAKS,qsort,msort_with_tmp,lua_pcall,lua_call,luaL_loadbufferx,lj_gc_step,lj_trace_exit,lj_ccallback_enter,lj_vm_ffi_callback"
CHEZ_BREAKS="$LIBC_BREAKS,S_gc,S_gc_oce,S_collect,S_call_help,S_return,S_get_more_room,S_overflow,S_handle_overflow,S_handle_overflood,S_error_handler,S_bytes_finalize,Scall_one_result"
GO_BREAKS='main.goAdd,main._cgoexpwrap_,_cgoexp_goAdd,crosscall2,runtime.cgocallback,runtime.cgocallbackg,runtime.cgocallbackg1,runtime.cgocall,runtime.asmcgocall,runtime.asmcgocall.abi0,main.spin,runtime.asyncPreempt,runtime.asyncPreempt2,runtime.sigtramp,runtime.sighandler,runtime.doSigPreempt,runtime.preemptM,runtime.mallocgc,runtime.gcBgMarkWorker,runtime.morestack,runtime.newstack,runtime.systemstack,runtime.mcall,runtime.gogo'

erlexec() { ls /usr/lib/erlang/erts-*/bin/erlexec 2>/dev/null | head -n1; }

build() {
    local p=$1
    case $p in
    jvm | jvm-xint)
        [[ -f $bin/Work6.class ]] && return 0
        have javac && javac -d "$bin" "$src/Work6.java" ;;
    erlang)
        [[ -f $bin/work6.beam ]] && return 0
        have erlc && erlc -o "$bin" "$src/work6.erl" ;;
    cgo6)
        [[ -x $bin/cgo6 ]] && return 0
        have go && have gcc || return 1
        cp "$src/cgo6.go" "$work/cgo6.go"
        (cd "$work" && env GOCACHE="$work/.gocache" GOPATH="$work/.gopath" GO111MODULE=off \
            go build -o "$bin/cgo6" cgo6.go) ;;
    *) return 0 ;;
    esac
}

# program -> "HANDLED|BREAKS|command…"
spec() {
    case $1 in
    jvm) have java || return 1
        echo "SIGSEGV|$JVM_BREAKS|$(readlink -f "$(command -v java)") -XX:-UsePerfData -XX:CICompilerCount=2 -XX:ParallelGCThreads=2 -XX:ConcGCThreads=1 -Xss512k -cp $bin Work6" ;;
    jvm-xint) have java || return 1
        echo "SIGSEGV|$JVM_BREAKS|$(readlink -f "$(command -v java)") -XX:-UsePerfData -XX:ParallelGCThreads=2 -XX:ConcGCThreads=1 -Xint -Xss512k -cp $bin Work6" ;;
    sbcl) have sbcl || return 1
        echo "SIGSEGV,SIGILL,SIGUSR2|$SBCL_BREAKS|$(command -v sbcl) --noinform --non-interactive --load $src/work6.lisp" ;;
    erlang) # `erl` is a shell script that sets these and execs erlexec, which execs beam.smp
        # (gdb follows the exec)
        [[ -n $(erlexec) ]] || return 1
        echo "|$BEAM_BREAKS|$(erlexec) -noshell -pa $bin -s work6 main" ;;
    luajit) have luajit || return 1
        echo "|$LJ_BREAKS|$(readlink -f "$(command -v luajit)") $src/work6.lua" ;;
    chez) have chezscheme || return 1
        echo "|$CHEZ_BREAKS|$(readlink -f "$(command -v chezscheme)") --script $src/work6.ss" ;;
    cgo6) echo "SIGURG|$GO_BREAKS|$bin/cgo6" ;;
    *) return 1 ;;
    esac
}

all=(jvm jvm-xint sbcl erlang luajit chez cgo6)
if [[ $list == 1 ]]; then printf '%s\n' "${all[@]}"; exit 0; fi
[[ $# -gt 0 ]] && all=("$@")

for p in "${all[@]}"; do
    if ! build "$p" >&2 2>/dev/null || ! s=$(spec "$p"); then echo "sweep6.sh: $p left out (tool missing or build failed)" >&2; continue; fi
    [[ $buildonly == 1 ]] && continue
    handled=${s%%|*} s=${s#*|}
    breaks=${s%%|*} cmd=${s#*|}
    read -r -a args <<< "$cmd"
    [[ -x ${args[0]} ]] || { echo "sweep6.sh: $p left out (${args[0]} missing)" >&2; continue; }
    have gdb || { echo "sweep6.sh: $p left out (no gdb)" >&2; continue; }
    echo "sweep6.sh: $p: $n states" >&2
    c=$core
    # The JVM, Go, SBCL and the BEAM reserve large address ranges (cores of GiBs): no cores
    [[ $p == jvm* || $p == cgo6 || $p == sbcl || $p == erlang ]] && c=0
    # seconds each start runs before the first stop (out of the runtime's start-up)
    case $p in jvm | jvm-xint) warm=30 ;; sbcl | erlang) warm=4 ;; *) warm=2 ;; esac
    extra=()
    [[ $p == erlang ]] && { b=$(dirname "$(erlexec)"); extra=(ROOTDIR="${b%/*/*}" BINDIR="$b" EMU=beam PROGNAME=erl); }
    (cd "$work" && exec env "${extra[@]}" SWEEP_OUT="$out/states" SWEEP_TAG="$p" SWEEP_N="$n" SWEEP_SEED="$seed" SWEEP_CORE="$c" \
        SWEEP_SECS="$secs" SWEEP_BREAKS="$breaks" HOME="$work" LANG=C SWEEP_HANDLED="$handled" SWEEP_WARMUP="$warm" SWEEP_P_HANDLED=0.4 \
        SWEEP_PASS_SEGV=0 GOCACHE="$work/.gocache" GOPATH="$work/.gopath" \
        timeout $((secs + 60)) nice -n 19 gdb -q -batch -nx -x "$sw/sweep.py" --args "${args[@]}" \
        > "$out/$p.gdb.out" 2>&1 < /dev/null)
done
exit 0
