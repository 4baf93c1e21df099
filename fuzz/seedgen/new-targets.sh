#!/bin/sh
# Seeds of dialects_text, stream_reader and triage_archive, made from recorded inputs in the
# repository (run from fuzz/; needs python3 for the zips). The first byte of a dialects_text
# seed picks the dialect prefix of fuzz_targets/dialects_text.rs (2 ASan, 3 UBSan, 4 TSan,
# 6 Go index, 7 cgo, 8 lldb backtrace); the first byte of a stream_reader seed picks the
# read size and the line limit.
set -eu
W=../tests/wild
S=../sample-traces
mk() { # corpus selector-byte source
    mkdir -p "corpus/$1"
    { printf "\\$(printf '%03o' "$2")"; cat "$4"; } > "corpus/$1/$3"
}
mk dialects_text 2 seed-asan-double "$W/san/asan-double.txt"
mk dialects_text 3 seed-ubsan "$W/san/ubsan.txt"
mk dialects_text 4 seed-tsan-race "$W/san/tsan-race.txt"
mk dialects_text 6 seed-go-index "$W/go/index.txt"
mk dialects_text 7 seed-go-cgo "$W/go/cgo.txt"
mk dialects_text 8 seed-lldb-fnptr "$W/lldb/fnptr.txt"
mk stream_reader 0 seed-gdb-null-bt-1byte-reads "$W/gdb/null-bt.txt"
mk stream_reader 71 seed-go-index-8byte-reads "$W/go/index.txt"
mk stream_reader 200 seed-lldb-div-9byte-reads "$W/lldb/div.txt"
mk stream_reader 255 seed-asan-double-64byte-reads "$W/san/asan-double.txt"
mkdir -p corpus/triage_archive
python3 - "$S/triage/ci" <<'PY'
import sys, zipfile
ci = sys.argv[1]
def z(name, members, method):
    with zipfile.ZipFile("corpus/triage_archive/" + name, "w", method) as f:
        for m in members:
            info = zipfile.ZipInfo(m, date_time=(2026, 1, 1, 0, 0, 0))
            info.compress_type = method
            f.writestr(info, open(ci + "/" + m, "rb").read())
z("seed-two-logs-deflate.zip", ["linux-gcc-2.log", "nightly-2.log"], zipfile.ZIP_DEFLATED)
z("seed-one-log-stored.zip", ["linux-gcc-1.log"], zipfile.ZIP_STORED)
PY
