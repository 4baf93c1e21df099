# gdb command file for the stack-chk sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/stack-chk.gdb --args build/stack-chk
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
echo (gdb) p $_siginfo\n
p $_siginfo
echo (gdb) info registers\n
info registers
echo (gdb) frame 6\n
frame 6
echo (gdb) info frame\n
info frame
echo (gdb) info registers rip rsp rbp\n
info registers rip rsp rbp
echo (gdb) x/8gx $sp\n
x/8gx $sp
echo (gdb) x/6i $pc\n
x/6i $pc
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
