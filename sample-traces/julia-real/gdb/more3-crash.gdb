# gdb command file for the julia-real third-pass crash cases (src/more3.c; threads2-sizes runs
# harness.c's `sizes` mode with JULIA_NUM_THREADS=2) (see ../README.md). Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/more3-crash.gdb --args build/harness LIBDIR MODE
# Each command is preceded by an `echo (gdb) <command>` line so the transcript reads like an
# interactive session. After the first stop the program is continued once: shape-rome shows
# what the runtime's own handler does with the fault.
set pagination off
set width 0
set confirm off
set print pretty off
echo (gdb) run\n
run
echo (gdb) bt\n
bt
echo (gdb) info registers\n
info registers
echo (gdb) p $_siginfo\n
p $_siginfo
echo (gdb) x/2i $pc\n
x/2i $pc
echo (gdb) info symbol $pc\n
info symbol $pc
python
# gdb names frames from the DWARF, which this wheel shifts by 0x2000; `info symbol` uses the
# ELF symbol table. Print the real function's first instructions.
s = gdb.execute("info symbol $pc", to_string=True)
off = int(s.split(" + ")[1].split()[0]) if " + " in s else 0
if off < 4096:
    cmd = "x/24i $pc - %d" % off
    gdb.write("(gdb) %s\n" % cmd)
    gdb.execute(cmd)
end
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
echo (gdb) thread apply all bt\n
thread apply all bt
python
import os
core = os.environ.get("JULIA_REAL_CORE_FILE")
if core:
    gdb.execute("generate-core-file " + core, to_string=True)
end
echo (gdb) continue\n
continue
echo (gdb) bt\n
bt
