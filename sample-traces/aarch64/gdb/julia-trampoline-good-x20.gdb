# gdb-multiarch command file for aarch64/julia-trampoline-good-x20 (see ../README.md):
# the control.  Breaks in julia_module_callback_4212 right after its GC frame is pushed
# (+48: `bl jl_module_has_functions`), shows a valid pgcstack in x20, then continues to a
# normal exit.  Run like julia-trampoline-bad-x20.gdb.
set pagination off
set width 0
set confirm off
set print pretty off
set sysroot /usr/aarch64-linux-gnu
echo (gdb) target remote :@PORT@\n
target remote :@PORT@
echo (gdb) break *julia_module_callback_4212+48\n
break *julia_module_callback_4212+48
echo (gdb) continue\n
continue
echo (gdb) bt\n
bt
echo (gdb) info registers x0 x1 x19 x20 x21 x29 x30 sp pc cpsr\n
info registers x0 x1 x19 x20 x21 x29 x30 sp pc cpsr
echo (gdb) x/4gx $x20\n
x/4gx $x20
echo (gdb) x/4gx *(void **)$x20\n
x/4gx *(void **)$x20
echo (gdb) x/4i $pc\n
x/4i $pc
echo (gdb) continue\n
continue
