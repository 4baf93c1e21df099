# gdb command file for the noncanonical sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/noncanonical.gdb --args build/noncanonical
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
echo (gdb) x/3i $pc\n
x/3i $pc
echo (gdb) p n\n
p n
echo (gdb) info locals\n
info locals
echo (gdb) x/32bx $sp\n
x/32bx $sp
echo (gdb) frame 1\n
frame 1
echo (gdb) p a\n
p a
echo (gdb) p b\n
p b
echo (gdb) p c\n
p c
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info threads\n
info threads
echo (gdb) frame 0\n
frame 0
echo (gdb) p *n\n
p *n
