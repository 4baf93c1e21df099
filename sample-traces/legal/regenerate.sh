#!/bin/bash
# Snapshots of legal programs stopped by a SIGSEGV sent from outside (`kill -SEGV`), under gdb:
# real machine states of large optimized programs (python3, perl, bash, awk, node's JIT) where
# nothing is wrong. Every rule must stay quiet on them or say why its evidence is weak; see
# tests/legal_states.rs, whose inputs are cut from these transcripts.
#
#   sample-traces/legal/regenerate.sh OUTDIR        # writes OUTDIR/<name>.gdb.txt
#
# Needs gdb, python3, perl, bash, awk, node and java. The transcripts depend on this machine's
# binaries and are not committed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: regenerate.sh OUTDIR}
mkdir -p "$out"
record() { # NAME DELAY CMD...
  local name=$1 delay=$2; shift 2
  cat > "$out/$name.gdbcmd" <<G
set pagination off
set width 0
set confirm off
run
thread apply all bt full
info registers
x/12i \$pc-24
x/6i \$pc
p \$_siginfo
info proc mappings
info sharedlibrary
kill
G
  timeout 90 gdb -q -nx -batch -x "$out/$name.gdbcmd" --args "$@" > "$out/$name.gdb.txt" 2>&1 < /dev/null &
  local t=$!
  sleep "$delay"
  local g c=
  g=$(pgrep -P "$t" | head -1)
  [ -n "$g" ] && c=$(pgrep -P "$g" | head -1)
  [ -n "$c" ] && kill -SEGV "$c"
  wait "$t"
  rm -f "$out/$name.gdbcmd"
}
record python 3 /usr/bin/python3 "$here/busy.py"
record perl 3 /usr/bin/perl "$here/busy.pl"
record bash 3 /bin/bash "$here/busy.sh"
record awk 3 /usr/bin/awk -f "$here/busy.awk"
record node 5 /usr/bin/node "$here/busy.js"
# The JVM raises its own SIGSEGV at start-up (a probe its handler continues): no kill needed,
# gdb stops on it first.
record java 20 /usr/bin/java "$here/Busy.java"
