# gdb command file for the smashed-stack sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/smashed-stack.gdb --args build/smashed-stack
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
echo (gdb) p/x $pc\n
p/x $pc
echo (gdb) x/4i $pc\n
x/4i $pc
echo (gdb) x/8gx $sp\n
x/8gx $sp
echo (gdb) info frame\n
info frame
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info threads\n
info threads
