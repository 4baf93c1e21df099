# Measures a parsed tree through the C extension (run with -X faulthandler).
import sys
sys.path.insert(0, ".")
import py_faulthandler_reraise

def measure(levels):
    return py_faulthandler_reraise.tree_depth(levels)

def main():
    print("depth", measure(3))

main()
