# gdb command file for the poison sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/poison.gdb --args build/poison
# Each command is preceded by an `echo (gdb) <command>` line so the transcript
# reads like an interactive session.  An error in a command file stops the
# script, so any command expected to fail comes last.
set pagination off
set width 0
set confirm off
set print pretty off
echo (gdb) set environment MALLOC_PERTURB_=165\n
set environment MALLOC_PERTURB_=165
echo (gdb) show environment MALLOC_PERTURB_\n
show environment MALLOC_PERTURB_
echo (gdb) run\n
run
echo (gdb) bt\n
bt
echo (gdb) info registers\n
info registers
echo (gdb) p $_siginfo\n
p $_siginfo
echo (gdb) x/4i $pc\n
x/4i $pc
echo (gdb) p c\n
p c
echo (gdb) p c->peer\n
p c->peer
echo (gdb) p c->state\n
p c->state
echo (gdb) x/4gx c\n
x/4gx c
echo (gdb) x/8gx &c->peer\n
x/8gx &c->peer
echo (gdb) frame 1\n
frame 1
echo (gdb) info locals\n
info locals
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info threads\n
info threads
