# gdb command file for the misaligned-sse sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/misaligned-sse.gdb --args build/misaligned-sse
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
echo (gdb) x/i $pc\n
x/i $pc
echo (gdb) p/x $rbp - 0x10\n
p/x $rbp - 0x10
echo (gdb) p/x $sp\n
p/x $sp
echo (gdb) p (long)$sp % 16\n
p (long)$sp % 16
echo (gdb) p (long)$rbp % 16\n
p (long)$rbp % 16
echo (gdb) x/16wx $sp\n
x/16wx $sp
echo (gdb) frame 1\n
frame 1
echo (gdb) info registers rip rsp rbp\n
info registers rip rsp rbp
echo (gdb) disassemble\n
disassemble
echo (gdb) info frame\n
info frame
echo (gdb) frame 2\n
frame 2
echo (gdb) info locals\n
info locals
echo (gdb) x/6i $pc\n
x/6i $pc
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
