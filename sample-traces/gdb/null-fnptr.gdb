# gdb command file for the null-fnptr sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/null-fnptr.gdb --args build/null-fnptr
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
echo (gdb) i r\n
i r
echo (gdb) p $_siginfo\n
p $_siginfo
echo (gdb) p/x $pc\n
p/x $pc
echo (gdb) x/4gx $sp\n
x/4gx $sp
echo (gdb) info symbol *(void **)$sp\n
info symbol *(void **)$sp
echo (gdb) f 1\n
f 1
echo (gdb) info frame\n
info frame
echo (gdb) i r rip rsp rbp\n
i r rip rsp rbp
echo (gdb) p *s\n
p *s
echo (gdb) p *s->ops\n
p *s->ops
echo (gdb) x/6i $pc\n
x/6i $pc
echo (gdb) f 2\n
f 2
echo (gdb) info locals\n
info locals
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
echo (gdb) f 0\n
f 0
echo (gdb) x/2i $pc\n
x/2i $pc
