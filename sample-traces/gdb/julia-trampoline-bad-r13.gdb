# gdb command file for the julia-trampoline-bad-r13 sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/julia-trampoline-bad-r13.gdb --args build/julia-trampoline-bad-r13
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
echo (gdb) x/4gx $r13\n
x/4gx $r13
echo (gdb) x/4gx $rsi\n
x/4gx $rsi
echo (gdb) x/4gx $rdi\n
x/4gx $rdi
echo (gdb) info symbol *(void **)$r13\n
info symbol *(void **)$r13
echo (gdb) x/2gx $r13 - 120\n
x/2gx $r13 - 120
echo (gdb) x/8gx $sp\n
x/8gx $sp
echo (gdb) disassemble\n
disassemble
echo (gdb) x/8i $pc\n
x/8i $pc
echo (gdb) frame 1\n
frame 1
echo (gdb) info registers\n
info registers
echo (gdb) disassemble\n
disassemble
echo (gdb) frame 2\n
frame 2
echo (gdb) info registers\n
info registers
echo (gdb) info frame\n
info frame
echo (gdb) frame 3\n
frame 3
echo (gdb) info args\n
info args
echo (gdb) p *Thunk\n
p *Thunk
echo (gdb) p *M\n
p *M
echo (gdb) frame 4\n
frame 4
echo (gdb) info registers\n
info registers
echo (gdb) x/4gx $r13\n
x/4gx $r13
echo (gdb) x/4gx *(void **)$r13\n
x/4gx *(void **)$r13
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
