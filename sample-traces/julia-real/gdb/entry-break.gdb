# gdb command file for the julia-real entry-break case (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/entry-break.gdb --args build/harness LIBDIR entry
# Each command is preceded by an `echo (gdb) <command>` line so the transcript reads like an
# interactive session.  An error ends a command file, so a command that may fail comes last.
# Offsets of jl_task_t / jl_tls_states_t fields are not written here: gdb computes them from
# libjulia-internal's own DWARF (ptype /o in ../README.md).
set pagination off
set width 0
set confirm off
set print pretty off
echo (gdb) break about_to_call\n
break about_to_call
echo (gdb) run\n
run
echo (gdb) set $body = (char *)fn\n
set $body = (char *)fn
echo (gdb) break *($body + 118)\n
break *($body + 118)
echo (gdb) continue\n
continue
echo (gdb) bt\n
bt
echo (gdb) info registers\n
info registers
echo (gdb) info symbol $pc\n
info symbol $pc
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
echo (gdb) x/32i $pc - 118\n
x/32i $pc - 118
echo (gdb) frame 1\n
frame 1
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
echo (gdb) continue\n
continue
