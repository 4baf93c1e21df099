# gdb command file for the stack-overflow sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/stack-overflow.gdb --args build/stack-overflow
# Each command is preceded by an `echo (gdb) <command>` line so the transcript
# reads like an interactive session.  An error in a command file stops the
# script, so any command expected to fail comes last.
set pagination off
set width 0
set confirm off
set print pretty off
echo (gdb) run\n
run
echo (gdb) bt 30\n
bt 30
echo (gdb) bt -3\n
bt -3
echo (gdb) info registers\n
info registers
echo (gdb) p $_siginfo\n
p $_siginfo
echo (gdb) p $_siginfo._sifields._sigfault.si_addr\n
p $_siginfo._sifields._sigfault.si_addr
echo (gdb) p/x $sp\n
p/x $sp
echo (gdb) x/6i $pc\n
x/6i $pc
echo (gdb) x/4gx $rbp\n
x/4gx $rbp
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info threads\n
info threads
