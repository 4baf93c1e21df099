#!/usr/bin/env python3
"""Applies the damage pastes suffer to a recorded transcript (tests/wild/record.sh damage).

usage: damage.py KIND[,KIND...] IN OUT
kinds: wrapN (hard wrap every line at N columns, mid-token), noindent (leading whitespace
lost), interleave (application log lines between every 4th line), quote (e-mail `> `),
quote2 (`>> `), truncate (cut at 60% of the text, mid-line), crlf, fence (markdown ``` around
the text), noprompt (the `(gdb) ` prompt lines removed, as when only the output is pasted).
"""
import sys

def apply(kind, text):
    lines = text.split("\n")
    if kind.startswith("wrap"):
        n = int(kind[4:])
        out = []
        for l in lines:
            while len(l) > n:
                out.append(l[:n])
                l = l[n:]
            out.append(l)
        return "\n".join(out)
    if kind == "noindent":
        return "\n".join(l.lstrip(" \t") for l in lines)
    if kind == "interleave":
        out = []
        for i, l in enumerate(lines):
            out.append(l)
            if i % 4 == 3:
                out.append(f"2026-12-01T12:00:{i % 60:02d}.{i * 7919 % 1000:03d}Z INFO [worker-{i % 3}] heartbeat ok queue=0")
        return "\n".join(out)
    if kind == "quote":
        return "\n".join("> " + l if l else ">" for l in lines)
    if kind == "quote2":
        return "\n".join(">> " + l if l else ">>" for l in lines)
    if kind == "truncate":
        return text[: int(len(text) * 0.6)]
    if kind == "crlf":
        return text.replace("\n", "\r\n")
    if kind == "fence":
        return "```\n" + text.rstrip("\n") + "\n```\n"
    if kind == "noprompt":
        return "\n".join(l for l in lines if not l.startswith("(gdb) "))
    raise SystemExit(f"unknown damage {kind}")

kinds, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(src, encoding="utf-8").read()
for k in kinds.split(","):
    text = apply(k, text)
open(dst, "w", encoding="utf-8", newline="").write(text)
