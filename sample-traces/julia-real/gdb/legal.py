# gdb Python driver for the julia-real `legal` states (see ../README.md, docs/julia.md).
#
#   gdb -q -batch -nx -x gdb/legal.py --args build/harness LIBDIR legal
#
# The harness's `legal` mode does nothing wrong: valid and invalid (caught) calls of the
# library's C entry, allocations, a full GC, and a foreign pthread that the C entry adopts.
# This script stops it at many points inside real Julia-compiled code (julia_*, jfptr_*,
# japi1_*, the jlcapi_* C entry) and inside the runtime (ijl_*, jl_*, the GC, exception
# handling, thread adoption): at function entries (one-shot breakpoints) and at every
# instruction of a function's first run (`nexti` walks, which step over calls). At each state
# it writes OUT/<name>.gdb.txt with what a user would type at such a stop (bt, registers, the
# pgcstack dumps, disassembly, mappings, threads). Some states get a fault-signal twin: SIGSEGV
# sent to the stopped thread with tgkill, so the same pc stops again with a signal, as a crash
# does (`<name>+SEGV.gdb.txt`); gdb does not pass the signal on (handle nopass), the run goes
# on.
#
# Everything goes to gdb's stdout as one stream (stop lines, command output, the program's own
# output, in order); chunks start with a \x01BEGIN line and a kept chunk has a \x01NAME line;
# split-states.py cuts the stream into one transcript per state.
#
# Environment: LEGAL_STRIDE (record every Nth instruction of
# a walk, default 1), LEGAL_MAX (instructions per walk, default 4000), LEGAL_TWIN (a twin every
# Nth state, default 7; 0 = none), LEGAL_ENTRIES (1 = a one-shot entry stop on every julia_*,
# jfptr_*, japi1_*, jlcapi_* function of the library instead of the walks, default 0), LEGAL_LIMIT (stop after this many
# states, default unlimited).
#
# Addresses come from the ELF symbol tables (.symtab), read here: the wheel's DWARF is 0x2000
# below the code, so gdb's own name lookup would put every breakpoint 0x2000 too low.
import ctypes
import os
import struct

import gdb

STRIDE = int(os.environ.get("LEGAL_STRIDE", "1"))
MAX = int(os.environ.get("LEGAL_MAX", "4000"))
TWIN = int(os.environ.get("LEGAL_TWIN", "7"))
ENTRIES = os.environ.get("LEGAL_ENTRIES", "0") == "1"
LIMIT = int(os.environ.get("LEGAL_LIMIT", "1000000"))

# (library, function, which call to walk (1 = first)); walked instruction by instruction.
WALKS = [
    ("libetcouple.so", "jlcapi_etc_couple_4559", 1),
    ("libetcouple.so", "julia_etc_couple_4561", 1),
    ("libetcouple.so", "julia_etc_couple_4561", 2),  # the invalid spec (mn = -1)
    ("libetcouple.so", "julia_validate_12636", 1),
    ("libetcouple.so", "julia_required_sizes_4607", 1),
    ("libetcouple.so", "japi1_compute_4612", 1),
    ("libjulia-internal", "ijl_enter_handler", 1),
    ("libjulia-internal", "ijl_pop_handler_noexcept", 1),
    ("libjulia-internal", "ijl_call0", 1),
    ("libjulia-internal", "ijl_apply_generic", 1),
    ("libjulia-internal", "ijl_throw", 1),
    ("libjulia-internal", "ijl_throw", 2),
    ("libjulia-internal", "throw_internal", 1),
    ("libjulia-internal", "ijl_exception_occurred", 1),
    ("libjulia-internal", "ijl_pop_handler", 1),
    ("libjulia-internal", "ijl_restore_excstack", 1),
    ("libjulia-internal", "ijl_excstack_state", 1),
    ("libjulia-internal", "ijl_alloc_svec", 1),
    ("libjulia-internal", "ijl_box_int64", 1),
    ("libjulia-internal", "ijl_gc_small_alloc", 1),
    ("libjulia-internal", "ijl_gc_small_alloc", 5000),
    ("libjulia-internal", "ijl_gc_collect", 1),
    ("libjulia-internal", "_jl_gc_collect", 1),
    ("libjulia-internal", "gc_mark_loop", 1),
    ("libjulia-internal", "gc_mark_and_steal", 1),
    ("libjulia-internal", "gc_mark_roots", 1),
    ("libjulia-internal", "jl_safepoint_start_gc", 1),
    ("libjulia-internal", "jl_gc_wait_for_the_world", 1),
    ("libjulia-internal", "ijl_autoinit_and_adopt_thread", 1),
    ("libjulia-internal", "ijl_adopt_thread", 1),
    ("libetcouple.so", "jlcapi_etc_couple_4559", 3),  # on the foreign thread
]

gdb.execute("set pagination off")
gdb.execute("set width 0")
gdb.execute("set confirm off")
gdb.execute("set print pretty off")
gdb.execute("handle SIGSEGV stop print nopass")
gdb.execute("set breakpoint always-inserted on")


def elf_functions(path):
    """name -> (value, size) of the STT_FUNC symbols in .symtab (and .dynsym)."""
    with open(path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    shstr = secs[struct.unpack_from("<H", data, 0x3E)[0]]
    text = 0
    for s in secs:
        o = shstr[4] + s[0]
        if data[o:data.index(b"\0", o)] == b".text":
            text = s[3]
    out = {".text": (text, 0)}
    for s in secs:
        if s[1] not in (2, 11):  # SHT_SYMTAB, SHT_DYNSYM
            continue
        strtab = secs[s[6]]
        for k in range(s[5] // 24):
            name, info, _other, shndx, value, size = struct.unpack_from("<IBBHQQ", data, s[4] + k * 24)
            if info & 0xF != 2 or shndx == 0 or value == 0:
                continue
            o = strtab[4] + name
            n = data[o:data.index(b"\0", o)].decode("latin-1")
            out.setdefault(n.split("@")[0], (value, size))
    return out


def text_starts():
    """file path -> where its .text starts (`info sharedlibrary`'s From column)."""
    starts = {}
    for line in gdb.execute("info sharedlibrary", to_string=True).splitlines():
        p = line.split()
        if len(p) >= 4 and p[0].startswith("0x") and p[-1].startswith("/"):
            starts[p[-1]] = int(p[0], 16)
    return starts


gdb.execute("break legal")
gdb.execute("run")
gdb.execute("delete")
gdb.Breakpoint("checkpoint", internal=True)
funcs = {}  # absolute address -> (name, size)
by_name = {}  # (lib key, name) -> (address, size)
for path, start in text_starts().items():
    key = "libetcouple.so" if path.endswith("/libetcouple.so") else (
        "libjulia-internal" if "libjulia-internal" in path else None)
    if key is None:
        continue
    syms = elf_functions(path)
    base = start - syms[".text"][0]
    for n, (v, sz) in syms.items():
        by_name[(key, n)] = (base + v, sz)
        funcs[base + v] = (n, sz)

count = 0


def run(cmd):
    try:
        return gdb.execute(cmd, to_string=True)
    except gdb.error as e:
        return str(e) + "\n"


def state_commands():
    cmds = ["bt", "info registers", "p $_siginfo", "x/2i $pc", "info symbol $pc"]
    s = run("info symbol $pc")
    if " + " in s:
        off = int(s.split(" + ")[1].split()[0])
        cmds.append("x/24i $pc - %d" % off)
    cmds += ["x/4gx $r13"]
    t = "((jl_task_t *)((char *)$r13 - (long)&((jl_task_t *)0)->gcstack))"
    cmds += [
        "x/2gx (char *)$r13 - (long)&((jl_task_t *)0)->gcstack - 8",
        "x/gx &%s->ptls->tid" % t,
        "x/gx &%s->ptls->current_task" % t,
        "x/gx &%s->ptls->system_id" % t,
        "disassemble",
        "frame 1",
        "info symbol $pc",
        "info registers",
        "info frame",
        "frame 0",
        "info proc mappings",
        "info sharedlibrary",
        "info threads",
    ]
    return cmds


def begin(cmd):
    """Start a chunk of the transcript stream: the stop command, echoed as typed."""
    gdb.write("\x01BEGIN\n(gdb) %s\n" % cmd)


def execute(cmd):
    """Run cmd with its output on gdb's stdout (errors as gdb prints them)."""
    try:
        gdb.execute(cmd)
    except gdb.error as e:
        gdb.write("%s\n" % e)


used = set()


def write_state(name):
    """Keep the current chunk as OUT/<name>.gdb.txt, with the state's commands."""
    global count
    base, k = name, 1
    while name in used:  # a loop passes the same pc again
        k += 1
        name = "%s.%d" % (base, k)
    used.add(name)
    gdb.write("\x01NAME %s\n" % name)
    for c in state_commands():
        gdb.write("(gdb) %s\n" % c)
        execute(c)
    count += 1


def twin(name):
    """SIGSEGV sent to the stopped thread (tgkill), then continue: the same pc stops again."""
    pc = int(gdb.parse_and_eval("$pc"))
    saved = {b.number: b.enabled for b in gdb.breakpoints()}
    for b in gdb.breakpoints():
        b.enabled = False
    gdb.execute("set scheduler-locking on")
    t = gdb.selected_thread().ptid
    ctypes.CDLL(None).syscall(234, t[0], t[1], 11)
    sig = []
    h = lambda ev: sig.append(getattr(ev, "stop_signal", None))
    gdb.events.stop.connect(h)
    begin("continue")
    execute("continue")
    gdb.events.stop.disconnect(h)
    gdb.execute("set scheduler-locking off")
    for b in gdb.breakpoints():
        b.enabled = saved.get(b.number, True)
    if sig == ["SIGSEGV"] and int(gdb.parse_and_eval("$pc")) == pc:
        write_state(name + "+SEGV")


def safe(s):
    return "".join(c if c.isalnum() or c in "_-" else "_" for c in s)


def maybe_record(name):
    if count >= LIMIT:
        return
    write_state(name)
    if TWIN and count % TWIN == 0 and count < LIMIT:
        twin(name)


def walk(fname, start, size, tag):
    """nexti through one run of the function from its entry, recording states."""
    i = 0
    while i < MAX and count < LIMIT:
        pc = int(gdb.parse_and_eval("$pc"))
        if not (start <= pc < start + size):
            break
        if i % STRIDE == 0:
            maybe_record("%s-%s-%04d" % (safe(fname), tag, pc - start))
        begin("nexti")
        execute("nexti")
        i += 1


# One-shot breakpoints: walks (by hit count) and entry stops.
walk_at = {}  # address -> list of (name, hit number)
for lib, n, hit in [] if ENTRIES else WALKS:
    if (lib, n) in by_name:
        walk_at.setdefault(by_name[(lib, n)][0], []).append(hit)
entry_at = set()
if ENTRIES:
    for (lib, n), (a, _sz) in by_name.items():
        if lib == "libetcouple.so" and n.startswith(("julia_", "jfptr_", "japi1_", "jlcapi_")) and a not in walk_at:
            entry_at.add(a)
hits = {}
bps = {}
for a in list(walk_at) + sorted(entry_at):
    bps[a] = gdb.Breakpoint("*%#x" % a, internal=True)

# Walks of the Julia body are exclusive (no other stop interrupts them: every instruction of
# it is visited); a walk of anything else ends where a callee still to be visited is entered,
# and that stop is taken next.
EXCLUSIVE = ("julia_etc_couple_",)
pending = False
while count < LIMIT and bps:
    if not pending:
        begin("continue")
        execute("continue")
    pending = False
    if not gdb.selected_inferior().pid:
        break
    pc = int(gdb.parse_and_eval("$pc"))
    if pc not in bps:
        continue  # a checkpoint
    name, size = funcs[pc]
    hits[pc] = hits.get(pc, 0) + 1
    thread = gdb.selected_thread().num
    if pc in walk_at:
        if hits[pc] in walk_at[pc]:
            exclusive = name.startswith(EXCLUSIVE)
            for b in bps.values() if exclusive else [bps[pc]]:
                b.enabled = False
            walk(name, pc, size, "t%d-call%d" % (thread, hits[pc]))
            for b in bps.values():
                b.enabled = True
            if gdb.selected_inferior().pid:
                now = int(gdb.parse_and_eval("$pc"))
                pending = now in bps and now != pc
        if hits[pc] >= max(walk_at[pc]):
            bps[pc].delete()
            del bps[pc]
    else:
        bps[pc].delete()
        del bps[pc]
        maybe_record("%s-entry" % safe(name))

gdb.write("\x01BEGIN\n")
gdb.write("legal.py: %d states\n" % count, gdb.STDERR)
run("kill")
