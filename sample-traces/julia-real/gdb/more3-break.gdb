# gdb command file for the julia-real third-pass legal states (src/more3.c) (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/more3-break.gdb --args build/harness LIBDIR MODE
# shape-finalizer stops inside the throwing finalizer (the harness's own function, which has
# correct debug info); shape-heaphint stops at the entry of ijl_gc_collect, at the address the
# harness passes to stop_at (an ELF-symbol address: a breakpoint by name would use the wheel's
# shifted DWARF). Then the program runs to its end.
set pagination off
set width 0
set confirm off
set print pretty off
echo (gdb) break finalizer\n
break finalizer
echo (gdb) break stop_at\n
break stop_at
echo (gdb) run\n
run
python
f = gdb.selected_frame()
if f.name() == "stop_at":
    gdb.write("(gdb) tbreak *(char *)fn\n")
    gdb.execute("tbreak *(char *)fn")
    gdb.write("(gdb) continue\n")
    gdb.execute("continue")
end
echo (gdb) bt\n
bt
echo (gdb) info registers\n
info registers
echo (gdb) x/2i $pc\n
x/2i $pc
echo (gdb) info symbol $pc\n
info symbol $pc
echo (gdb) info proc mappings\n
info proc mappings
echo (gdb) info sharedlibrary\n
info sharedlibrary
echo (gdb) info threads\n
info threads
echo (gdb) delete\n
delete
echo (gdb) continue\n
continue
