# gdb command file for the assert-fail sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/assert-fail.gdb --args build/assert-fail
# Each command is preceded by an `echo (gdb) <command>` line so the transcript
# reads like an interactive session.  An error in a command file stops the
# script, so any command expected to fail comes last.
set pagination off
set width 0
set confirm off
set print pretty off
echo (gdb) run\n
run
echo (gdb) where\n
where
echo (gdb) p $_siginfo\n
p $_siginfo
echo (gdb) i r\n
i r
echo (gdb) f 5\n
f 5
echo (gdb) info args\n
info args
echo (gdb) x/s assertion\n
x/s assertion
echo (gdb) x/s file\n
x/s file
echo (gdb) x/s function\n
x/s function
echo (gdb) f 6\n
f 6
echo (gdb) info frame\n
info frame
echo (gdb) p *r\n
p *r
echo (gdb) i r\n
i r
echo (gdb) f 7\n
f 7
echo (gdb) info locals\n
info locals
echo (gdb) info threads\n
info threads
