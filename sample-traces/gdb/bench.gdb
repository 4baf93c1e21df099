# gdb command file for gen-bench.sh (benchmark transcript, not committed).
# Run as: env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/bench.gdb --args build/bench-threads N DEPTH
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
echo (gdb) x/6i $pc\n
x/6i $pc
echo (gdb) thread apply all bt full\n
thread apply all bt full
