# gdb-multiarch command file for aarch64/julia-trampoline-bad-x20 (see ../README.md).
# ../../regenerate-extra.sh starts the program under `qemu-aarch64 -g PORT` and runs
#   gdb-multiarch -q -batch -nx -x <this file with @PORT@ replaced> build/aarch64/julia-trampoline-bad-x20
# Each command is preceded by `echo (gdb) <command>` so the transcript reads like an
# interactive session.  A failing command ends a command file, so the one expected to
# fail (`p $_siginfo`: qemu's gdbstub does not provide siginfo) comes last.
set pagination off
set width 0
set confirm off
set print pretty off
set sysroot /usr/aarch64-linux-gnu
echo (gdb) target remote :@PORT@\n
target remote :@PORT@
echo (gdb) continue\n
continue
echo (gdb) bt\n
bt
echo (gdb) info registers\n
info registers
echo (gdb) p/x $pc\n
p/x $pc
echo (gdb) x/4gx $x20\n
x/4gx $x20
echo (gdb) x/4gx $x1\n
x/4gx $x1
echo (gdb) info symbol *(void **)$x20\n
info symbol *(void **)$x20
echo (gdb) x/8gx $sp\n
x/8gx $sp
echo (gdb) disassemble\n
disassemble
echo (gdb) x/6i $pc\n
x/6i $pc
echo (gdb) frame 1\n
frame 1
echo (gdb) info registers x20 x29 x30 sp pc\n
info registers x20 x29 x30 sp pc
echo (gdb) frame 2\n
frame 2
echo (gdb) info registers x19 x20 x29 x30 sp pc\n
info registers x19 x20 x29 x30 sp pc
echo (gdb) info frame\n
info frame
echo (gdb) disassemble\n
disassemble
echo (gdb) frame 4\n
frame 4
echo (gdb) info registers x19 x20 x21 x29 x30 sp pc cpsr\n
info registers x19 x20 x21 x29 x30 sp pc cpsr
echo (gdb) x/4gx $x20\n
x/4gx $x20
echo (gdb) x/4gx *(void **)$x20\n
x/4gx *(void **)$x20
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
echo (gdb) p $_siginfo\n
p $_siginfo
