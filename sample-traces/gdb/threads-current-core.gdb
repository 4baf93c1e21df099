# gdb command file for the threads-current-core sample (see ../README.md): a core of the
# threads-current program, written by gdb's generate-core-file at the crash, opened with gdb.
# Run by ../regenerate.sh (in its scratch build directory, outside the checkout) as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x threads-current-core.gdb ./threads-current threads-current.core
# No `echo (gdb) <command>` lines (gdb -batch -ex ... prints none).  The core renumbers the
# threads (the crashed worker, 3 in the live session, is 1 here): `thread 3` selects a worker
# parked in pause(), whose $_siginfo is the SIGSTOP gdb stopped it with; `thread 1` goes back.
set pagination off
set width 0
set confirm off
set print pretty off
bt
info registers
info threads
thread 3
bt
info registers
p $_siginfo
x/6i $pc
thread 1
p $_siginfo
x/6i $pc
