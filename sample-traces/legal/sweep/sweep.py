# gdb Python sampler of legal machine states (issue 11, third pass). Run inside gdb:
#
#   SWEEP_OUT=DIR SWEEP_TAG=name SWEEP_N=60 SWEEP_SEED=1 SWEEP_BREAKS='f1,f2' \
#       gdb -q -batch -nx -x sweep.py --args PROGRAM ARGS...
#
# It runs the program (again whenever it exits) and stops it SWEEP_N times, each time in one of
# these ways, chosen at random: a breakpoint on one of SWEEP_BREAKS with a random ignore count;
# an interrupt (SIGINT sent from outside after a random delay, as Ctrl-C does); `stepi N` from
# the previous stop (through prologues, epilogues, PLT stubs); `tcatch syscall` on a common
# syscall; `finish`. After a stop, with probability SWEEP_TWIN (0.35), a twin: SIGSEGV or SIGBUS
# sent to the stopped thread with tgkill and `continue` (gdb does not pass it on afterwards),
# so the program stops again at the same pc with a fault signal, as a crash does (only SIGBUS
# when SWEEP_PASS_SEGV=1: the program's own SIGSEGV handler runs, gdb does not stop). At each stop
# it writes DIR/<tag>-NNN.gdb.txt with what a user pastes (the stop, bt / bt full / thread apply
# all bt, info registers, x/i $pc, disassemble, info frame, p $_siginfo, and sometimes
# x/32gx $sp, info proc mappings, info sharedlibrary, info threads, frame 1), every command
# echoed as "(gdb) cmd", and DIR/<tag>-NNN.meta ("exe=… kind=… twin=…"); with probability
# SWEEP_CORE it also writes gdb's generate-core-file as DIR/<tag>-NNN.core.
#
# SWEEP_REMOTE='qemu-aarch64 -g PORT PROGRAM ARGS...' (fourth pass): the program runs under
# qemu-user's gdbstub instead (gdb-multiarch, `target remote`), started again whenever it
# exits; interrupts and twins are sent to the qemu process's threads, which pass them on to the
# guest as its own signals.
import ctypes
import os
import random
import subprocess
import time

import gdb

OUT = os.environ["SWEEP_OUT"]
os.makedirs(OUT, exist_ok=True)
TAG = os.environ.get("SWEEP_TAG", "state")
N = int(os.environ.get("SWEEP_N", "40"))
SECS = float(os.environ.get("SWEEP_SECS", "150"))
BREAKS = [b for b in os.environ.get("SWEEP_BREAKS", "").split(",") if b]
P_TWIN = float(os.environ.get("SWEEP_TWIN", "0.35"))
P_CORE = float(os.environ.get("SWEEP_CORE", "0"))
DELAY = float(os.environ.get("SWEEP_DELAY", "0.6"))
PASS_SEGV = os.environ.get("SWEEP_PASS_SEGV") == "1"
REMOTE = os.environ.get("SWEEP_REMOTE", "").split()
# SWEEP_STARTI=1 (fifth pass): the program is started with `starti` (stopped at the loader's
# first instruction) and the first stop after each start is `stepi N` with N up to 6000, so
# states land inside ld.so's relocation and TLS setup and libc's early initialization.
STARTI = os.environ.get("SWEEP_STARTI") == "1"
# SWEEP_HANDLED='SIGSEGV,SIGILL' (sixth pass): signals the runtime raises and handles itself
# (the JVM's implicit null checks and safepoint polls, SBCL's traps and guard pages, Go's
# SIGURG). They are always passed on to the program; before each resume, with probability
# SWEEP_P_HANDLED (0.3), gdb is told to stop on them (`handle SIG stop print pass`: a user who
# forgot `handle SIGSEGV nostop`), otherwise not. A twin sent while SIGSEGV is passed on is
# discarded at the next resume, so the program never sees the sent signal.
HANDLED = [x for x in os.environ.get("SWEEP_HANDLED", "").split(",") if x]
P_HANDLED = float(os.environ.get("SWEEP_P_HANDLED", "0.3"))
# SWEEP_WARMUP=SECS (sixth pass): after each start the program runs SECS seconds without
# breakpoints before the first stop, so states land in the runtime's steady state (JIT code,
# collections) rather than in its start-up.
WARMUP = float(os.environ.get("SWEEP_WARMUP", "0"))
qemu = None
rng = random.Random(int(os.environ.get("SWEEP_SEED", "1")))
libc = ctypes.CDLL(None, use_errno=True)
SYSCALLS = ["write", "read", "mmap", "munmap", "futex", "clone3", "clone", "brk", "openat", "close",
            "rt_sigaction", "rt_sigprocmask", "madvise", "nanosleep", "clock_nanosleep", "epoll_pwait"]

for c in ["set pagination off", "set width 0", "set height 0", "set confirm off", "set print pretty off",
          "set debuginfod enabled off", "set breakpoint pending on", "set print thread-events off",
          "set print inferior-events off",
          # A program that handles its own SIGSEGV (faults.c, the JVM) gets it passed on.
          "handle SIGSEGV nostop noprint pass" if PASS_SEGV else "handle SIGSEGV stop print nopass",
          "handle SIGBUS stop print nopass",
          # ... and its SIGFPE (sig.c of the fourth pass handles a division by zero).
          "handle SIGFPE nostop noprint pass" if PASS_SEGV else "handle SIGFPE stop print nopass",
          "handle SIGINT stop print nopass",
          "handle SIGURG nostop noprint pass", "handle SIGUSR1 nostop noprint pass",
          "handle SIGALRM nostop noprint pass", "handle SIGPIPE nostop noprint pass",
          "handle SIGPROF nostop noprint pass", "handle SIGCHLD nostop noprint pass",
          "handle SIGWINCH nostop noprint pass"]:
    gdb.execute(c, to_string=True)


def handled(stop, discard=()):
    for sig in HANDLED:
        mode = "stop print" if stop else "nostop noprint"
        gdb.execute("handle %s %s %s" % (sig, mode, "nopass" if sig in discard else "pass"), to_string=True)


handled(False)


def run(cmd):
    """gdb's output of cmd as a transcript shows it (errors as gdb prints them)."""
    try:
        return gdb.execute(cmd, to_string=True)
    except gdb.error as e:
        return str(e) + "\n"
    except Exception as e:  # a Python-side failure is no gdb output; keep the sweep going
        return "Python Exception %s: %s\n" % (type(e).__name__, e)


def logged(cmd):
    """Like run, for an execution command. gdb prints the stop ("Breakpoint 2, f (…) at …",
    "Program received signal …") through its stop observers straight to its stdout, which
    to_string does not catch; so gdb's stdout must be a regular file (sweep.sh redirects it) and
    the text gdb wrote there during the command is read back from it."""
    gdb.flush()
    try:
        start = os.lseek(1, 0, os.SEEK_CUR)
    except OSError:
        start = None
    out = run(cmd)
    gdb.flush()
    if start is not None:
        try:
            end = os.lseek(1, 0, os.SEEK_CUR)
            with open("/proc/self/fd/1", "rb") as f:
                f.seek(start)
                out = f.read(end - start).decode("utf-8", "replace") + out
        except OSError:
            pass
    return out


def alive():
    inf = gdb.selected_inferior()
    return inf is not None and inf.pid != 0 and gdb.selected_thread() is not None


def target_pid():
    """The process a signal from outside goes to: the inferior, or qemu running it."""
    if qemu is not None:
        return qemu.pid
    return gdb.selected_inferior().pid


def start():
    global qemu
    if not REMOTE and WARMUP > 0:
        run("starti")
        set_bps(False)
        handled(False)
        return resume("continue", interrupt_after=WARMUP)
    if not REMOTE:
        return run("starti" if STARTI else "run")
    if qemu is not None:
        qemu.kill()
        qemu.wait()
    # The draw keeps the sampling sequence of a seed; the pid keeps two sweeps run at once with
    # the same seed (tests of one binary run in parallel) off each other's gdb port.
    port = 20000 + (rng.randrange(20000) + os.getpid()) % 20000
    qemu = subprocess.Popen([a.replace("PORT", str(port)) for a in REMOTE], stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        time.sleep(0.1)
        out = run("target remote :%d" % port)
        if alive():
            return out
    return out


bps = []
for f in BREAKS:
    out = run("break " + f)
    try:
        bps.append(gdb.breakpoints()[-1])
    except Exception:
        pass


def set_bps(on):
    for b in gdb.breakpoints() or []:
        if b.type == gdb.BP_BREAKPOINT and not b.temporary:
            b.enabled = on


def resume(cmd, interrupt_after=None):
    killer = None
    if interrupt_after is not None and alive():
        pid = target_pid()
        killer = subprocess.Popen(["sh", "-c", "sleep %.3f; kill -INT %d" % (interrupt_after, pid)])
    else:
        # A safety net: a program that waits forever is interrupted after a while anyway.
        if alive():
            pid = target_pid()
            killer = subprocess.Popen(["sh", "-c", "sleep 4; kill -INT %d" % pid])
    out = logged(cmd)
    if killer is not None:
        killer.kill()
        killer.wait()
    return out


def capture(header):
    threads = len(gdb.selected_inferior().threads()) if alive() else 0
    parts = [header]
    r = rng.random()
    if threads > 1 and r < 0.4:
        bt = "thread apply all bt" if rng.random() < 0.7 else "thread apply all bt full"
    else:
        bt = "bt full" if rng.random() < 0.4 else "bt"
    cmds = [bt, "info registers"]
    if rng.random() < 0.6:
        cmds.append("x/32gx $sp")
    cmds.append("x/6i $pc" if rng.random() < 0.6 else "x/i $pc")
    if rng.random() < 0.6:
        cmds.append("disassemble")
    if rng.random() < 0.4:
        cmds.append("info frame")
    cmds.append("p $_siginfo")
    if rng.random() < 0.5:
        cmds.append("info proc mappings")
    if rng.random() < 0.3:
        cmds.append("info sharedlibrary")
    if threads > 1 and rng.random() < 0.3:
        cmds.append("info threads")
    if rng.random() < 0.2:
        cmds += ["frame 1", "info registers", "x/8gx $sp", "frame 0"]
    for c in cmds:
        out = run(c)
        if c.startswith("bt") and out.count("\n") > 400:
            out = "\n".join(out.split("\n")[:400]) + "\n(More stack frames follow...)\n"
        parts.append("(gdb) %s\n%s" % (c, out))
    return "".join(parts)


count = 0
t0 = time.time()


def write_state(text, kind, twin):
    global count
    name = "%s-%03d" % (TAG, count)
    count += 1
    with open(os.path.join(OUT, name + ".gdb.txt"), "w") as f:
        f.write(text)
    exe = gdb.selected_inferior().progspace.filename if alive() else ""
    with open(os.path.join(OUT, name + ".meta"), "w") as f:
        f.write("exe=%s\nkind=%s\ntwin=%s\n" % (exe, kind, twin))
    if P_CORE > 0 and rng.random() < P_CORE:
        run("generate-core-file " + os.path.join(OUT, name + ".core"))


def twin():
    sig = 11 if rng.random() < 0.75 and not PASS_SEGV else 7
    t = gdb.selected_thread().ptid
    set_bps(False)
    run("set scheduler-locking on")
    # A handled signal stopping here would be taken for the twin: gdb stops on the sent one only.
    handled(False, discard=("SIGSEGV", "SIGBUS"))
    run("handle %s stop print nopass" % ("SIGSEGV" if sig == 11 else "SIGBUS"))
    libc.syscall(234, target_pid() if qemu is not None else t[0], t[1], sig)
    out = logged("continue")
    run("set scheduler-locking replay")
    return out, ("SEGV" if sig == 11 else "BUS")


def handled_stop(out):
    """The handled signal a stop is at, if any ("Thread 2 … received signal SIGSEGV")."""
    for sig in HANDLED:
        if "received signal %s" % sig in out:
            return sig
    return None


def stopped_by_signal(out):
    return "received signal" in out


last_ok = False
discard = ()
pending_trap = False
run_out = start()
def time_left():
    """SECS of sampling; on a loaded machine, where the program and the debugger start slowly,
    up to 45 s more while fewer than a third of the states asked for were taken (the caller's
    timeout allows SECS + 60)."""
    t = time.time() - t0
    return t < SECS or (count < (N + 2) // 3 and t < SECS + 45)


while count < N and time_left():
    if not alive():
        run_out = start()
        last_ok = False
        if not alive():
            break
        continue
    stop_handled = bool(HANDLED) and rng.random() < P_HANDLED
    if HANDLED:
        handled(stop_handled, discard)
        discard = ()
    r = rng.random()
    if stop_handled and not pending_trap:
        # Run on until the runtime raises one of its signals (or the safety interrupt).
        cmd, kind = "continue", "interrupt"
        set_bps(False)
        out = resume(cmd)
        r = None
    if r is None:
        pass
    elif pending_trap and last_ok:
        # The program's own SIGTRAP (SBCL's traps), which gdb never passes on by itself: deliver
        # it, or the program runs on past its trap instruction into data and breaks.
        cmd, kind = "signal SIGTRAP", "interrupt"
        set_bps(False)
        out = resume(cmd, interrupt_after=rng.uniform(0.02, DELAY))
    elif STARTI and not last_ok:
        k = rng.randrange(1, 6000)
        cmd, kind = "stepi %d" % k, "starti-stepi"
        set_bps(False)
        out = resume(cmd)
    elif last_ok and r < 0.22:
        k = rng.choice([1, 1, 2, 3, 4, 5, 6, 8, 10, 13, 20, 40])
        cmd, kind = "stepi %d" % k if k > 1 else "stepi", "stepi"
        set_bps(False)
        run("set scheduler-locking step")
        out = resume(cmd)
        run("set scheduler-locking replay")
    elif last_ok and r < 0.27:
        cmd, kind = "finish", "finish"
        set_bps(False)
        out = resume(cmd)
    elif r < 0.37:
        sc = rng.choice(SYSCALLS)
        set_bps(False)
        run("tcatch syscall " + sc)
        cmd, kind = "continue", "syscall"
        out = resume(cmd)
        for b in gdb.breakpoints() or []:
            if b.temporary:
                b.delete()
    elif bps and r < 0.75:
        set_bps(True)
        for b in bps:
            try:
                b.ignore_count = rng.choice([0, 0, 1, 3, 10, 50, 200])
            except Exception:
                pass
        cmd, kind = "continue", "break"
        out = resume(cmd)
    else:
        set_bps(False)
        cmd, kind = "continue", "interrupt"
        out = resume(cmd, interrupt_after=rng.uniform(0.02, DELAY))
    if not alive():
        last_ok = False
        continue
    if HANDLED:
        handled(False)
        if handled_stop(out):
            kind = "handled-" + handled_stop(out)
    # A SIGTRAP the program raised itself (not a breakpoint, which gdb reports as such).
    pending_trap = "received signal SIGTRAP" in out
    if pending_trap:
        kind = "handled-SIGTRAP"
    write_state(capture("(gdb) %s\n%s" % (cmd, out)), kind, "")
    last_ok = True
    # No twin of a stop at a handled signal: the sent signal would replace the runtime's own.
    if rng.random() < P_TWIN and count < N and not kind.startswith("handled-"):
        out2, sig = twin()
        if HANDLED:
            discard = ("SIGSEGV", "SIGBUS")
            handled(False)
        if alive() and stopped_by_signal(out2):
            write_state(capture("(gdb) continue\n%s" % out2), kind, sig)
run("kill")
if qemu is not None:
    qemu.kill()
    qemu.wait()
