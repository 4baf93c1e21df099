# gdb command file for the threads-crash sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/threads-crash.gdb --args build/threads-crash
# Each command is preceded by an `echo (gdb) <command>` line so the transcript
# reads like an interactive session.  An error in a command file stops the
# script, so any command expected to fail comes last.
set pagination off
set width 0
set confirm off
set print pretty off
echo (gdb) run\n
run
echo (gdb) info threads\n
info threads
echo (gdb) bt\n
bt
echo (gdb) thread apply all bt full\n
thread apply all bt full
echo (gdb) info registers\n
info registers
echo (gdb) p $_siginfo\n
p $_siginfo
echo (gdb) x/6i $pc\n
x/6i $pc
echo (gdb) frame 1\n
frame 1
echo (gdb) info locals\n
info locals
echo (gdb) p *j\n
p *j
echo (gdb) thread 1\n
thread 1
echo (gdb) bt\n
bt
echo (gdb) thread 2\n
thread 2
echo (gdb) bt 3\n
bt 3
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info sharedlibrary\n
info sharedlibrary
