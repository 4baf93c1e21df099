# gdb command file for the glibc-abort sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/glibc-abort.gdb --args build/glibc-abort
# Each command is preceded by an `echo (gdb) <command>` line so the transcript
# reads like an interactive session.  An error in a command file stops the
# script, so any command expected to fail comes last.
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
echo (gdb) x/6i $pc\n
x/6i $pc
echo (gdb) frame 8\n
frame 8
echo (gdb) info registers\n
info registers
echo (gdb) p *b\n
p *b
echo (gdb) x/8gx b->data\n
x/8gx b->data
echo (gdb) x/s b->data\n
x/s b->data
echo (gdb) frame 9\n
frame 9
echo (gdb) info locals\n
info locals
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
