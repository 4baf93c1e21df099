#!/usr/bin/env python3
"""Cut the stdout of `gdb -x gdb/legal.py` into one transcript per recorded state.

    split-states.py STREAM OUTDIR

Chunks start with a \\x01BEGIN line; a chunk with a \\x01NAME <name> line is written to
OUTDIR/<name>.gdb.txt (without the marker lines); other chunks (steps that were not kept) are
dropped. Prints the number of states written.
"""
import os
import sys

stream, outdir = sys.argv[1], sys.argv[2]
os.makedirs(outdir, exist_ok=True)
with open(stream, "rb") as f:
    data = f.read().decode("utf-8", "replace")
n = 0
for chunk in data.split("\x01BEGIN\n")[1:]:
    lines = chunk.splitlines(keepends=True)
    names = [l[len("\x01NAME "):].strip() for l in lines if l.startswith("\x01NAME ")]
    if not names:
        continue
    body = "".join(l for l in lines if not l.startswith("\x01"))
    with open(os.path.join(outdir, names[0] + ".gdb.txt"), "w") as f:
        f.write(body)
    n += 1
print(n)
