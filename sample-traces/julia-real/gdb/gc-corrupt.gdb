# gdb command file for the julia-real gc-corrupt case (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/gc-corrupt.gdb --args build/harness LIBDIR gc-corrupt
# Each command is preceded by an `echo (gdb) <command>` line so the transcript reads like an
# interactive session.  An error ends a command file, so a command that may fail comes last.
# Offsets of jl_task_t / jl_tls_states_t fields are not written here: gdb computes them from
# libjulia-internal's own DWARF (ptype /o in ../README.md).
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
echo (gdb) x/4i $pc\n
x/4i $pc
echo (gdb) info symbol $pc\n
info symbol $pc
echo (gdb) frame function main\n
frame function main
echo (gdb) info locals\n
info locals
echo (gdb) x/6gx (char *)sv - 8\n
x/6gx (char *)sv - 8
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
