#!/usr/bin/env bash
# A small CI-like test runner used by record.sh: prints the log lines a CI job prints (with
# GitHub-Actions-style timestamps), and runs each crashing test under gdb the way a CI wrapper
# that collects backtraces does. A test is `ok-NAME` (passes) or `MODE:THREADS:SEED` (runs
# build/inventory, which crashes).
job=$1; shift
ts() { while IFS= read -r l; do printf '%s %s\n' "$(date -u +%Y-%m-%dT%H:%M:%S.%NZ)" "$l"; done; }
{
echo "##[group]Run ./ci/test.sh $job"
echo "Runner: $(uname -sm), $(nproc) cpus"
echo "gcc: $(gcc --version | head -n1)"
echo "gdb: $(gdb --version | head -n1)"
echo "##[endgroup]"
failed=0
for t in "$@"; do
    case $t in
    ok-*)
        echo "test ${t#ok-} ... started"
        for i in 1 2 3; do echo "  ${t#ok-}: case $i of 3: $(( (RANDOM % 90) + 10 )) ms"; done
        echo "test ${t#ok-} ... ok"
        ;;
    *)
        IFS=: read -r mode threads seed <<<"$t"
        echo "test $mode ... started (threads=$threads)"
        gdb -nx -batch -ex 'set pagination off' -ex 'set disable-randomization off' \
            -ex run -ex bt -ex 'info registers' -ex 'thread apply all bt' \
            --args build/inventory "$mode" "$threads" "$seed" 2>&1
        echo "test $mode ... FAILED (process crashed)"
        failed=$((failed + 1))
        ;;
    esac
done
echo "summary: $# tests, $failed failed"
} | ts
