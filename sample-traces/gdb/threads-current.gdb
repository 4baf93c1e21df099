# gdb command file for the threads-current sample (see ../README.md).
# Run by ../regenerate.sh (in its scratch build directory, outside the checkout) as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x threads-current.gdb --args ./threads-current
# No `echo (gdb) <command>` lines: the transcript is what `gdb -batch -ex run -ex bt ...`
# prints, commands unechoed, with `bt` and `info registers` before `info threads`.
set pagination off
set width 0
set confirm off
set print pretty off
run
bt
info registers
info threads
p $_siginfo
x/6i $pc
info proc mappings
