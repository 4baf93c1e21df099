import sys
sys.path.insert(0, ".")
import py_fatal_error

def warm_up():
    return py_fatal_error.check_cache()

print("cache", warm_up())
