# gdb command file for the c-r13-plain sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/c-r13-plain.gdb --args build/c-r13-plain
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
echo (gdb) bt full\n
bt full
echo (gdb) info all-registers\n
info all-registers
echo (gdb) p $_siginfo\n
p $_siginfo
echo (gdb) x/6i $pc\n
x/6i $pc
echo (gdb) f 1\n
f 1
echo (gdb) i r\n
i r
echo (gdb) x/4gx $r13\n
x/4gx $r13
echo (gdb) info frame\n
info frame
echo (gdb) info locals\n
info locals
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
