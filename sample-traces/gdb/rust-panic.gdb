# gdb command file for the rust-panic sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/rust-panic.gdb --args build/rust-panic
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
echo (gdb) frame 16\n
frame 16
echo (gdb) info locals\n
info locals
echo (gdb) p *self\n
p *self
echo (gdb) info registers\n
info registers
echo (gdb) frame 17\n
frame 17
echo (gdb) info args\n
info args
echo (gdb) x/6i $pc\n
x/6i $pc
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
