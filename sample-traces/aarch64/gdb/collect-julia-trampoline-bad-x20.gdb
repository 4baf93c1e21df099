# gdb-multiarch command file for aarch64/julia-trampoline-bad-x20.collect.txt: the same
# crash as julia-trampoline-bad-x20, dumped by the companion script
# (assets/tracecheck.py, `tracecheck-collect`) instead of by hand.  Run like
# julia-trampoline-bad-x20.gdb; @OUT@ is replaced by the output path.
set pagination off
set confirm off
set sysroot /usr/aarch64-linux-gnu
source ../assets/tracecheck.py
target remote :@PORT@
continue
tracecheck-collect --overwrite --frames 4 @OUT@
