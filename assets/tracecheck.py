# tracecheck.py: gdb companion for tracecheck (see docs/gdb.md in the tracecheck sources).
#
# Load it in gdb (or in `rr replay`, which runs gdb) with
#     source /path/to/tracecheck.py
# or add that line to ~/.gdbinit (`tracecheck gdbinit` installs this file and prints the line).
#
# Commands:
#     tracecheck-collect [--frames N] [--overwrite] [FILE]
#         Write a dump of the stopped program in the plain gdb formats tracecheck reads.
#         Each command is echoed as `(gdb) cmd` before its output, like a transcript.
#         Appends (after a separator) when FILE exists, so two stops of one session
#         (the crash, then an earlier point reached with reverse-continue under rr) end
#         up in one file. Default FILE: tracecheck-dump.txt in the current directory.
#     tracecheck-check [FILE]    run `tracecheck FILE` and print its findings here
#     tracecheck-tui [FILE]      open `tracecheck tui FILE`; quitting returns to gdb
#
# FILE defaults to the last file tracecheck-collect wrote. Nothing here aborts halfway:
# every command runs on its own, and a failing one leaves its gdb error text in the dump.

import datetime
import os
import shlex
import shutil
import subprocess
import sys

import gdb

TRACECHECK_VERSION = "@TRACECHECK_VERSION@"
# Filled in by `tracecheck gdbinit` with the path of the binary that installed this file.
TRACECHECK_BIN = "@TRACECHECK_BIN@"

DEFAULT_FILE = "tracecheck-dump.txt"
DEFAULT_FRAMES = 16
# `bt` of the crashing thread: enough for deep recursion to show its shape.
BT_LIMIT = 200
# `disassemble` is written only when the whole function is at most this many lines.
DISASSEMBLE_MAX_LINES = 200

_last_file = None

# Registers whose values are worth following into memory, per architecture family.
_X86_64_GPRS = ["rax", "rbx", "rcx", "rdx", "rsi", "rdi", "rbp", "rsp",
                "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"]
_I386_GPRS = ["eax", "ebx", "ecx", "edx", "esi", "edi", "ebp", "esp"]
_AARCH64_GPRS = ["x%d" % i for i in range(31)] + ["sp"]
_NOT_POINTERS = {"pc", "rip", "eip", "eflags", "rflags", "cpsr", "fpsr", "fpcr",
                 "cs", "ss", "ds", "es", "fs", "gs", "fs_base", "gs_base", "orig_rax"}


def _version_text():
    v = TRACECHECK_VERSION
    return "unknown (script not installed by `tracecheck gdbinit`)" if v.startswith("@") else v


class _Dump:
    """Collects the transcript text; every command is echoed and cannot abort the dump."""

    def __init__(self):
        self.parts = []

    def line(self, text):
        self.parts.append(text if text.endswith("\n") else text + "\n")

    def run(self, cmd, echo=None, max_lines=None):
        """Runs a gdb command, writing `(gdb) cmd` and its output (or its error)."""
        self.line("(gdb) " + (echo or cmd))
        try:
            out = gdb.execute(cmd, to_string=True)
        except gdb.error as e:
            self.line(str(e) or "error")
            return None
        except Exception as e:  # a Python-level failure must not end the dump either
            self.line("%s: %s" % (type(e).__name__, e))
            return None
        if out is None:
            out = ""
        if max_lines is not None and out.count("\n") > max_lines:
            self.line("(output of %d lines left out; more than %d)" % (out.count("\n"), max_lines))
            return out
        if out:
            self.parts.append(out if out.endswith("\n") else out + "\n")
        return out

    def text(self):
        return "".join(self.parts)


def _try(f, default=None):
    try:
        return f()
    except Exception:
        return default


def _under_rr():
    """rr's gdb server answers the `when` command; plain gdb does not have it."""
    try:
        gdb.execute("help when", to_string=True)
        return True
    except gdb.error:
        return False


def _has_process():
    inf = _try(gdb.selected_inferior)
    return bool(inf and inf.pid and _try(gdb.selected_thread))


def _frame_count(limit):
    n = 0
    f = _try(gdb.newest_frame)
    while f is not None and n < limit:
        n += 1
        f = _try(f.older)
    return n


def _pointer_registers(frame):
    arch = _try(lambda: frame.architecture().name(), "") or ""
    if "x86-64" in arch or "x64" in arch:
        names = _X86_64_GPRS
    elif "aarch64" in arch:
        names = _AARCH64_GPRS
    elif arch.startswith("i386"):
        names = _I386_GPRS
    else:
        names = None
    if names is None:
        descs = _try(lambda: list(frame.architecture().registers("general")), []) or []
        names = [d.name for d in descs if d.name not in _NOT_POINTERS]
    return names


def _readable(inf, addr, size=8):
    if addr is None or addr < 4096:
        return False
    try:
        inf.read_memory(addr, size)
        return True
    except Exception:
        return False


def _register_value(frame, name):
    def read():
        v = frame.read_register(name)
        return int(v.cast(gdb.lookup_type("unsigned long long"))) & 0xFFFFFFFFFFFFFFFF
    return _try(read)


def _disassemble_if_small(d):
    try:
        out = gdb.execute("disassemble", to_string=True)
    except gdb.error as e:
        d.line("(gdb) disassemble")
        d.line(str(e))
        return
    if out.count("\n") <= DISASSEMBLE_MAX_LINES:
        d.line("(gdb) disassemble")
        d.parts.append(out if out.endswith("\n") else out + "\n")


def collect(max_frames=DEFAULT_FRAMES):
    """Returns the dump text for the current stop."""
    d = _Dump()
    rr = _under_rr()
    inf = _try(gdb.selected_inferior)
    prog = _try(lambda: gdb.current_progspace().filename) or "?"
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    d.line("tracecheck-collect: tracecheck %s, gdb %s, python %s, %s, program %s, %s" % (
        _version_text(), gdb.VERSION, sys.version.split()[0],
        "under rr" if rr else "not under rr", prog, now))

    saved = {}
    for p in ("width", "height", "print pretty", "pagination", "confirm"):
        saved[p] = _try(lambda p=p: gdb.parameter(p))
    for s in ("set width 0", "set height 0", "set print pretty off", "set pagination off", "set confirm off"):
        _try(lambda s=s: gdb.execute(s, to_string=True))
    try:
        _collect_into(d, rr, inf, max_frames)
    finally:
        _restore(saved)
    return d.text()


def _restore(saved):
    for p, v in saved.items():
        if v is None:
            if p in ("width", "height"):
                v = "unlimited"
            else:
                continue
        if isinstance(v, bool):
            v = "on" if v else "off"
        _try(lambda p=p, v=v: gdb.execute("set %s %s" % (p, v), to_string=True))


def _collect_into(d, rr, inf, max_frames):
    d.run("info program")
    if rr:
        d.run("when")
    live = _has_process()
    d.run("thread")
    d.run("p $_siginfo")
    d.run("bt %d" % BT_LIMIT)
    if live:
        depth = _frame_count(max_frames)
        # `frame N` prints its frame line to the terminal, not into a captured string
        # (gdb 13 reports the selection through an observer); `select-frame N` is silent
        # and `frame` then prints the selected frame into the capture.
        for k in range(max(depth, 1)):
            d.run("select-frame %d" % k)
            d.run("frame")
            d.run("info registers")
            if k == 0:
                _frame0_memory(d, inf)
        if depth > 1:
            d.run("select-frame 0")
    else:
        d.run("info registers")
    d.run("info threads")
    d.run("thread apply all bt full")
    d.run("info proc mappings")
    d.run("info sharedlibrary")


def _frame0_memory(d, inf):
    frame = _try(gdb.selected_frame)
    if frame is None:
        return
    for name in _pointer_registers(frame):
        v = _register_value(frame, name)
        if name in ("rsp", "esp", "sp"):
            continue  # written below with more words
        if _readable(inf, v):
            d.run("x/4gx $%s" % name)
    d.run("x/16gx $sp")
    d.run("x/8i $pc")
    _disassemble_if_small(d)


def _parse_args(arg, allow_frames):
    argv = gdb.string_to_argv(arg or "")
    path, frames, overwrite = None, DEFAULT_FRAMES, False
    i = 0
    while i < len(argv):
        a = argv[i]
        if allow_frames and a == "--frames" and i + 1 < len(argv):
            try:
                frames = max(1, int(argv[i + 1]))
            except ValueError:
                raise gdb.GdbError("--frames wants a number, not %r" % argv[i + 1])
            i += 2
            continue
        if allow_frames and a == "--overwrite":
            overwrite = True
        elif a.startswith("--"):
            raise gdb.GdbError("unknown option %s" % a)
        elif path is None:
            path = a
        else:
            raise gdb.GdbError("one file at most")
        i += 1
    return path, frames, overwrite


class CollectCommand(gdb.Command):
    """Write what tracecheck needs about this stop to FILE (appends when it exists).

Usage: tracecheck-collect [--frames N] [--overwrite] [FILE]

Writes the stop reason and $_siginfo, the crashing thread's backtrace, `info registers`
for its innermost N frames (default 16), the memory behind every register that points
into mapped memory and behind the stack pointer, the instructions at pc, every thread's
`bt full`, the memory mappings and the shared libraries; under rr also the event number.
Each command is echoed as `(gdb) cmd`. A command that fails leaves its error text in the
file and the dump goes on. FILE defaults to tracecheck-dump.txt; `-` prints the dump."""

    def __init__(self):
        super().__init__("tracecheck-collect", gdb.COMMAND_STATUS, gdb.COMPLETE_FILENAME)

    def invoke(self, arg, from_tty):
        global _last_file
        path, frames, overwrite = _parse_args(arg, True)
        path = path or DEFAULT_FILE
        text = collect(frames)
        shown = path if path == "-" else os.path.abspath(os.path.expanduser(path))
        header = "(gdb) tracecheck-collect %s\n" % shown
        if path == "-":
            gdb.write(header + text)
            return
        path = shown
        exists = os.path.exists(path) and os.path.getsize(path) > 0 and not overwrite
        try:
            with open(path, "a" if exists else "w") as f:
                if exists:
                    f.write("\n")
                f.write(header)
                f.write(text)
        except OSError as e:
            raise gdb.GdbError("tracecheck-collect: cannot write %s: %s" % (path, e))
        _last_file = path
        gdb.write("tracecheck-collect: %s %s (%d lines)\n" % (
            "appended to" if exists else "wrote", path, text.count("\n") + 1))


def _tracecheck_bin():
    env = os.environ.get("TRACECHECK")
    if env:
        return env
    if not TRACECHECK_BIN.startswith("@") and os.access(TRACECHECK_BIN, os.X_OK):
        return TRACECHECK_BIN
    found = shutil.which("tracecheck")
    if found:
        return found
    raise gdb.GdbError("tracecheck not found: put it on PATH, set $TRACECHECK, or reinstall this "
                       "script with `tracecheck gdbinit`")


def _dump_file(arg):
    path, _, _ = _parse_args(arg, False)
    path = path or _last_file
    if not path:
        if os.path.exists(DEFAULT_FILE):
            path = DEFAULT_FILE
        else:
            raise gdb.GdbError("no dump yet: run tracecheck-collect first, or give a FILE")
    path = os.path.abspath(os.path.expanduser(path))
    if not os.path.exists(path):
        raise gdb.GdbError("%s does not exist" % path)
    return path


class CheckCommand(gdb.Command):
    """Run tracecheck on a dump and print its findings.

Usage: tracecheck-check [FILE]    (default: the last file tracecheck-collect wrote)"""

    def __init__(self):
        super().__init__("tracecheck-check", gdb.COMMAND_STATUS, gdb.COMPLETE_FILENAME)

    def invoke(self, arg, from_tty):
        path = _dump_file(arg)
        exe = _tracecheck_bin()
        color = "always" if _try(lambda: os.isatty(1)) and not os.environ.get("NO_COLOR") else "never"
        try:
            p = subprocess.run([exe, "--color", color, path], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        except OSError as e:
            raise gdb.GdbError("cannot run %s: %s" % (exe, e))
        gdb.write(p.stdout.decode("utf-8", "replace"))
        if p.returncode not in (0, 1):
            gdb.write("tracecheck exited with status %d\n" % p.returncode)


class TuiCommand(gdb.Command):
    """Open tracecheck's terminal UI on a dump; quitting it returns to gdb.

Usage: tracecheck-tui [FILE]    (default: the last file tracecheck-collect wrote)"""

    def __init__(self):
        super().__init__("tracecheck-tui", gdb.COMMAND_STATUS, gdb.COMPLETE_FILENAME)

    def invoke(self, arg, from_tty):
        path = _dump_file(arg)
        exe = _tracecheck_bin()
        # gdb's own TUI owns the screen; leave it while ours runs.
        # `info win` fails with "The TUI is not active." unless gdb's TUI is on.
        try:
            gdb.execute("info win", to_string=True)
            tui_was_on = True
        except gdb.error:
            tui_was_on = False
        if tui_was_on:
            _try(lambda: gdb.execute("tui disable", to_string=True))
        try:
            code = subprocess.call([exe, "tui", path])
        except OSError as e:
            raise gdb.GdbError("cannot run %s: %s" % (exe, e))
        finally:
            if tui_was_on:
                _try(lambda: gdb.execute("tui enable", to_string=True))
        if code != 0:
            gdb.write("tracecheck tui exited with status %d (command: %s)\n"
                      % (code, " ".join(shlex.quote(x) for x in (exe, "tui", path))))


CollectCommand()
CheckCommand()
TuiCommand()
