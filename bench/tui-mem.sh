#!/usr/bin/env bash
# Peak RSS (VmHWM) of the real `tracecheck tui FILE` process: started in a detached tmux
# session (200x50), left WAIT seconds to load the whole file and draw, then quit with `q`;
# `TRACECHECK_REPORT_PEAK_RSS=1` makes it print its VmHWM at exit (docs/tui.md).
#
# Usage: bench/tui-mem.sh TRACECHECK FILE      env: WAIT (default 8 s; 100 MB needs ~30 s
#        on a loaded 2-core machine: the load must be complete before `q`)
# Needs tmux.
set -euo pipefail
bin=$(realpath "$1")
file=$(realpath "$2")
s=tuimem$$
err=$(mktemp)
trap 'rm -f "$err"; tmux kill-session -t "$s" 2>/dev/null || true' EXIT
tmux new-session -d -s "$s" -x 200 -y 50 "TRACECHECK_REPORT_PEAK_RSS=1 '$bin' tui '$file' 2>'$err'"
sleep "${WAIT:-8}"
tmux send-keys -t "$s" q
sleep 1
kb=$(tr -d '\r' <"$err" | sed -n 's/.*peak RSS \([0-9]*\) kB.*/\1/p')
size=$(stat -c %s "$file")
awk -v k="$kb" -v s="$size" 'BEGIN { printf "peak RSS %.1f MB = %.2fx the input (%.1f MB)\n", k * 1024 / 1e6, k * 1024 / s, s / 1e6 }'
