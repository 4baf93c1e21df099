# gdb-multiarch command file for aarch64/null-field (see ../README.md): ../../src/null-field.c
# cross-compiled for AArch64, a read of field +0x18 through NULL.  Run like
# julia-trampoline-bad-x20.gdb.
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
echo (gdb) info registers x0 x1 x2 x3 x4 x5 x6 x7 x8 x9 x10 x11 x12 x13 x14 x15 x16 x17 x18 x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 x30 sp pc cpsr fpsr fpcr\n
info registers x0 x1 x2 x3 x4 x5 x6 x7 x8 x9 x10 x11 x12 x13 x14 x15 x16 x17 x18 x19 x20 x21 x22 x23 x24 x25 x26 x27 x28 x29 x30 sp pc cpsr fpsr fpcr
echo (gdb) x/4i $pc\n
x/4i $pc
echo (gdb) frame 1\n
frame 1
echo (gdb) p *r\n
p *r
echo (gdb) info locals\n
info locals
echo (gdb) frame 0\n
frame 0
echo (gdb) x/8gx $sp\n
x/8gx $sp
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
