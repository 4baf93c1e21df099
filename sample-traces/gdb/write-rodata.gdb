# gdb command file for the write-rodata sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/write-rodata.gdb --args build/write-rodata
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
echo (gdb) x/4i $pc\n
x/4i $pc
echo (gdb) p s\n
p s
echo (gdb) x/s s\n
x/s s
echo (gdb) info symbol s\n
info symbol s
echo (gdb) x/32bx s\n
x/32bx s
echo (gdb) frame 1\n
frame 1
echo (gdb) x/s greeting\n
x/s greeting
echo (gdb) info frame\n
info frame
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
