# gdb command file for the julia-real shape-* cases (more.c) (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/shape.gdb --args build/harness LIBDIR shape-…
# Each command is preceded by an `echo (gdb) <command>` line so the transcript reads like an
# interactive session.  An error ends a command file, so a command that may fail comes last.
# Offsets of jl_task_t / jl_tls_states_t fields are not written here: gdb computes them from
# libjulia-internal's own DWARF (ptype /o in ../README.md). The dumps through r13 come last:
# in shape-unmapped they fail, and an error ends a command file.
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
echo (gdb) p/x $pc\n
p/x $pc
echo (gdb) x/2i $pc\n
x/2i $pc
echo (gdb) info symbol $pc\n
info symbol $pc
python
# gdb names frames from the DWARF, which this wheel shifts by 0x2000; `info symbol` uses the
# ELF symbol table. Print the real function's first instructions (its r13 prologue).
s = gdb.execute("info symbol $pc", to_string=True)
off = int(s.split(" + ")[1].split()[0]) if " + " in s else 0
cmd = "x/24i $pc - %d" % off
gdb.write("(gdb) %s\n" % cmd)
gdb.execute(cmd)
end
echo (gdb) disassemble\n
disassemble
echo (gdb) frame 1\n
frame 1
echo (gdb) info symbol $pc\n
info symbol $pc
echo (gdb) info registers\n
info registers
echo (gdb) info frame\n
info frame
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
echo (gdb) frame 0\n
frame 0
echo (gdb) x/4gx $r13\n
x/4gx $r13
echo (gdb) x/2gx (char *)$r13 - (long)&((jl_task_t *)0)->gcstack - 8\n
x/2gx (char *)$r13 - (long)&((jl_task_t *)0)->gcstack - 8
echo (gdb) x/gx &((jl_task_t *)((char *)$r13 - (long)&((jl_task_t *)0)->gcstack))->ptls->tid\n
x/gx &((jl_task_t *)((char *)$r13 - (long)&((jl_task_t *)0)->gcstack))->ptls->tid
echo (gdb) x/gx &((jl_task_t *)((char *)$r13 - (long)&((jl_task_t *)0)->gcstack))->ptls->current_task\n
x/gx &((jl_task_t *)((char *)$r13 - (long)&((jl_task_t *)0)->gcstack))->ptls->current_task
echo (gdb) x/gx &((jl_task_t *)((char *)$r13 - (long)&((jl_task_t *)0)->gcstack))->ptls->system_id\n
x/gx &((jl_task_t *)((char *)$r13 - (long)&((jl_task_t *)0)->gcstack))->ptls->system_id
echo (gdb) p ((jl_task_t *)((char *)$r13 - (long)&((jl_task_t *)0)->gcstack))->ptls->tid\n
p ((jl_task_t *)((char *)$r13 - (long)&((jl_task_t *)0)->gcstack))->ptls->tid
