# gdb command file for the cpp-uncaught sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/cpp-uncaught.gdb --args build/cpp-uncaught
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
echo (gdb) frame 11\n
frame 11
echo (gdb) p *this\n
p *this
echo (gdb) frame 12\n
frame 12
echo (gdb) p inv\n
p inv
echo (gdb) info frame\n
info frame
echo (gdb) i r rip rsp rbp\n
i r rip rsp rbp
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
