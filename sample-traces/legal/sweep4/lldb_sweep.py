# lldb Python sampler of legal machine states (issue 11, fourth pass): the lldb twin of
# ../sweep/sweep.py. Run inside lldb:
#
#   SWEEP_OUT=DIR SWEEP_TAG=name SWEEP_N=40 SWEEP_SEED=1 SWEEP_BREAKS='f1,f2' \
#   SWEEP_ARGS="PROGRAM<US>ARG<US>..." lldb -b -o 'command script import lldb_sweep.py'
#
# (<US> is \x1f). It launches the program (again whenever it exits) and stops it SWEEP_N times:
# a breakpoint on one of SWEEP_BREAKS with a random ignore count, an interrupt (SIGINT sent from
# outside after a random delay), `thread step-inst` N times, `thread step-out`; about a third of
# the stops get a twin, SIGSEGV or SIGBUS sent to the stopped thread with tgkill, then
# `process continue`, so lldb stops again at the same pc with a fault signal. At each stop it
# writes DIR/<tag>-NNN.lldb.txt with what a user pastes (the stop lldb printed, `bt` or
# `bt all`, `register read`, `disassemble --pc`, sometimes `x/32gx $sp`, `image list`,
# `thread list`, `frame info`, `frame select 1` + `register read`), every command echoed as
# "(lldb) cmd", and DIR/<tag>-NNN.meta ("exe=… kind=… twin=…").
import ctypes
import os
import random
import subprocess
import time

import lldb

SYSCALL_TGKILL = 234


def __lldb_init_module(debugger, _dict):
    try:
        Sweep(debugger).loop()
    except Exception:
        import traceback
        traceback.print_exc()
    finally:
        debugger.HandleCommand("process kill")


class Sweep:
    def __init__(self, debugger):
        self.d = debugger
        self.d.SetAsync(False)
        self.ci = debugger.GetCommandInterpreter()
        self.out = os.environ["SWEEP_OUT"]
        os.makedirs(self.out, exist_ok=True)
        self.tag = os.environ.get("SWEEP_TAG", "state")
        self.n = int(os.environ.get("SWEEP_N", "40"))
        self.secs = float(os.environ.get("SWEEP_SECS", "150"))
        self.breaks = [b for b in os.environ.get("SWEEP_BREAKS", "").split(",") if b]
        self.args = [a for a in os.environ["SWEEP_ARGS"].split("\x1f") if a]
        self.rng = random.Random(int(os.environ.get("SWEEP_SEED", "1")))
        self.libc = ctypes.CDLL(None, use_errno=True)
        self.count = 0
        self.bp_ids = []

    def run(self, cmd):
        # Commands run in the context of the selected target/thread (a command script's own
        # context has no target).
        r = lldb.SBCommandReturnObject()
        t = self.d.GetSelectedTarget()
        p = t.GetProcess()
        if p.IsValid() and p.GetState() == lldb.eStateStopped:
            ctx = lldb.SBExecutionContext(p.GetSelectedThread().GetSelectedFrame())
        else:
            ctx = lldb.SBExecutionContext(t)
        self.ci.HandleCommand(cmd, ctx, r)
        return (r.GetOutput() or "") + (r.GetError() or "")

    def process(self):
        return self.d.GetSelectedTarget().GetProcess()

    def alive(self):
        p = self.process()
        return p.IsValid() and p.GetState() == lldb.eStateStopped

    def start(self):
        self.run("process kill")
        t = self.d.GetSelectedTarget()
        info = lldb.SBLaunchInfo(self.args[1:])
        info.SetLaunchFlags(lldb.eLaunchFlagStopAtEntry)
        info.AddOpenFileAction(0, "/dev/null", True, False)
        info.AddOpenFileAction(1, "/dev/null", False, True)
        info.AddOpenFileAction(2, "/dev/null", False, True)
        err = lldb.SBError()
        t.Launch(info, err)
        out = "" if err.Success() else str(err) + "\n"
        for c in ["process handle -s true -p false -n true SIGINT SIGBUS",
                  "process handle -s false -p true -n false SIGALRM SIGUSR1 SIGUSR2 SIGCHLD SIGPIPE SIGURG SIGPROF SIGWINCH SIGFPE",
                  "process handle -s %s -p %s -n true SIGSEGV" % (("false", "true") if self.pass_segv else ("true", "false"))]:
            self.run(c)
        return out

    def set_bps(self, on):
        t = self.d.GetSelectedTarget()
        for i in self.bp_ids:
            b = t.FindBreakpointByID(i)
            if b.IsValid():
                b.SetEnabled(on)

    def resume(self, cmd, interrupt_after=None):
        pid = self.process().GetProcessID()
        delay = interrupt_after if interrupt_after is not None else 4.0
        killer = subprocess.Popen(["sh", "-c", "sleep %.3f; kill -INT %d" % (delay, pid)])
        out = self.run(cmd)
        killer.kill()
        killer.wait()
        return out

    def capture(self, header):
        p = self.process()
        threads = p.GetNumThreads()
        rng = self.rng
        parts = [header]
        bt = "bt all" if threads > 1 and rng.random() < 0.4 else "bt"
        cmds = [bt, "register read"]
        if rng.random() < 0.6:
            cmds.append("x/32gx $sp")
        cmds.append("disassemble --pc -c 6" if rng.random() < 0.6 else "disassemble --pc -c 1")
        if rng.random() < 0.4:
            cmds.append("disassemble -f")
        if rng.random() < 0.4:
            cmds.append("frame info")
        if rng.random() < 0.4:
            cmds.append("image list")
        if threads > 1 and rng.random() < 0.3:
            cmds.append("thread list")
        if rng.random() < 0.2:
            cmds += ["frame select 1", "register read", "frame select 0"]
        for c in cmds:
            out = self.run(c)
            if c.startswith("bt") and out.count("\n") > 400:
                out = "\n".join(out.split("\n")[:400]) + "\n"
            parts.append("(lldb) %s\n%s" % (c, out))
        return "".join(parts)

    def write_state(self, text, kind, twin):
        name = "%s-%03d" % (self.tag, self.count)
        self.count += 1
        with open(os.path.join(self.out, name + ".lldb.txt"), "w") as f:
            f.write(text)
        with open(os.path.join(self.out, name + ".meta"), "w") as f:
            f.write("exe=%s\nkind=%s\ntwin=%s\n" % (os.path.abspath(self.args[0]), kind, twin))

    def twin(self):
        sig = 11 if self.rng.random() < 0.75 and not self.pass_segv else 7
        p = self.process()
        tid = p.GetSelectedThread().GetThreadID()
        self.set_bps(False)
        self.libc.syscall(SYSCALL_TGKILL, p.GetProcessID(), tid, sig)
        out = self.run("process continue")
        return out, ("SEGV" if sig == 11 else "BUS")

    def loop(self):
        self.pass_segv = os.environ.get("SWEEP_PASS_SEGV") == "1"
        for c in ["settings set auto-confirm true", "settings set target.disable-aslr true"]:
            self.run(c)
        self.run("target create %s" % self.args[0])
        t = self.d.GetSelectedTarget()
        for f in self.breaks:
            b = t.BreakpointCreateByName(f)
            if b.IsValid():
                self.bp_ids.append(b.GetID())
        t0 = time.time()
        self.start()
        last_ok = False
        rng = self.rng
        # SECS of sampling; on a loaded machine, where the program and lldb start slowly, up
        # to 45 s more while fewer than a third of the states asked for were taken (the
        # caller's timeout allows SECS + 60).
        def time_left():
            t = time.time() - t0
            return t < self.secs or (self.count < (self.n + 2) // 3 and t < self.secs + 45)

        while self.count < self.n and time_left():
            if not self.alive():
                self.start()
                last_ok = False
                if not self.alive():
                    break
                continue
            r = rng.random()
            if last_ok and r < 0.22:
                k = rng.choice([1, 1, 2, 3, 5, 8, 13, 20])
                self.set_bps(False)
                out = "".join(self.run("thread step-inst") for _ in range(k - 1))
                cmd, kind = "thread step-inst", "stepi"
                out = self.resume(cmd)
            elif last_ok and r < 0.27:
                self.set_bps(False)
                cmd, kind = "thread step-out", "finish"
                out = self.resume(cmd)
            elif self.bp_ids and r < 0.75:
                self.set_bps(True)
                for i in self.bp_ids:
                    b = t.FindBreakpointByID(i)
                    if b.IsValid():
                        b.SetIgnoreCount(rng.choice([0, 0, 1, 3, 10, 50, 200]))
                cmd, kind = "process continue", "break"
                out = self.resume(cmd)
            else:
                self.set_bps(False)
                cmd, kind = "process continue", "interrupt"
                out = self.resume(cmd, interrupt_after=rng.uniform(0.02, 0.6))
            if not self.alive():
                last_ok = False
                continue
            self.write_state(self.capture("(lldb) %s\n%s" % (cmd, out)), kind, "")
            last_ok = True
            if rng.random() < 0.35 and self.count < self.n:
                out2, sig = self.twin()
                # lldb 14 names a sent SIGBUS "unknown crash reason".
                if self.alive() and ("stop reason = signal SIG" in out2 or "crash reason" in out2):
                    self.write_state(self.capture("(lldb) process continue\n%s" % out2), kind, sig)
