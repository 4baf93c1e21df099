# gdb command file for the rust-thread-panic-join sample (see ../README.md).
# Run by ../regenerate.sh as:
#   env -i PATH=/usr/bin:/bin HOME=/tmp LANG=C gdb -q -batch -nx -x gdb/rust-thread-panic-join.gdb --args build/rust-thread-panic-join
# The program exits (status 101, no signal), so there is no stack after `run`: `bt` fails and
# ends the command file, as it does when a user types it after such a run.
set pagination off
set width 0
set confirm off
set print pretty off
echo (gdb) run\n
run
echo (gdb) bt\n
bt
