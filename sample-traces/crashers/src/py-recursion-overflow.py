# A pure-Python program (no extension of its own) raises the recursion limit and prints a
# deeply nested list: list repr recurses in C once per level and overflows the C stack
# (ulimit -s 256) before the interpreter's limit is reached: SIGSEGV inside the interpreter.
import sys

sys.setrecursionlimit(10**6)

def nest(depth):
    v = []
    for _ in range(depth):
        v = [v]
    return v

print(len(repr(nest(100000))))
