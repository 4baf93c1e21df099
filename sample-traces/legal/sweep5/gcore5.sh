#!/usr/bin/env bash
# Cores of live processes (issue 11, fifth pass): programs that are running fine, dumped with
# gdb's `gcore` (attach, write the core, detach) at a random moment, as an admin snapshots a hung
# or busy service. No thread of them crashed: the cores have no signal; every rule must stay
# quiet on them, or say what the state honestly is (not a crash).
#
#   gcore5.sh OUTDIR [-s SEED] [program ...]     writes OUTDIR/states/gcore-<program>-N.core and
#                                                .meta (exe=…, kind=gcore); `-l` lists programs
# The programs are built by sweep5.sh (run it first with the same OUTDIR, or they are built
# here the same way).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=$(mkdir -p "${1:?usage: gcore5.sh OUTDIR [-s SEED] [program ...]}" && cd "$1" && pwd)
shift
seed=1 list=0 per=2
while getopts "s:k:l" o; do
    case $o in s) seed=$OPTARG ;; k) per=$OPTARG ;; l) list=1 ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
bin=$out/bin work=$out/work
mkdir -p "$bin" "$out/states" "$work"
RANDOM=$seed
have() { command -v "$1" >/dev/null 2>&1; }
all=(asm5 mt5 tls5 iw-splitstack iw-cet iw-i386-sb2 python3 lua54 sleep sqlite3)
if [[ $list == 1 ]]; then printf '%s\n' "${all[@]}"; exit 0; fi
[[ $# -gt 0 ]] && all=("$@")
have gcore || { echo "gcore5.sh: no gcore" >&2; exit 0; }

cmd_of() {
    case $1 in
    asm5 | mt5 | iw-splitstack | iw-cet | iw-i386-sb2)
        bash "$here/sweep5.sh" "$out" -b "$1" 2>/dev/null
        echo "$bin/$1" ;;
    tls5) bash "$here/sweep5.sh" "$out" -b tls5 2>/dev/null; echo "$bin/tls5 $bin/libtls5-dyn.so" ;;
    python3) [[ -x /usr/bin/python3 ]] && echo "/usr/bin/python3 $here/../busy.py" ;;
    lua54) have lua5.4 && echo "$(command -v lua5.4) $here/../sweep4/busy.lua" ;;
    sleep) echo "/usr/bin/sleep 600" ;;
    sqlite3) have sqlite3 && echo "$(command -v sqlite3) :memory: WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c WHERE x < 1000000000" ;;
    esac
}
for p in "${all[@]}"; do
    c=$(cmd_of "$p" | tail -n 1)
    [[ -n $c ]] || { echo "gcore5.sh: $p left out" >&2; continue; }
    if [[ $p == sqlite3 ]]; then
        args=("$(command -v sqlite3)" ":memory:" "${c#*:memory: }")
    else
        read -r -a args <<< "$c"
    fi
    for k in $(seq 1 "$per"); do
        (cd "$work" && exec nice -n 19 "${args[@]}" > /dev/null 2>&1 < /dev/null) &
        pid=$!
        sleep "0.$((RANDOM % 9 + 1))"; sleep $((RANDOM % 2))
        name=gcore-$p-$k
        # the program's own pid (bash's subshell execs it)
        timeout 120 gcore -o "$out/states/$name.core" "$pid" > "$out/$name.gcore.out" 2>&1
        kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
        [[ -f $out/states/$name.core.$pid ]] && mv "$out/states/$name.core.$pid" "$out/states/$name.core"
        printf 'exe=%s\nkind=gcore\ntwin=\n' "${args[0]}" > "$out/states/$name.meta"
    done
done
exit 0
