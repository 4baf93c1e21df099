import faulthandler, sys
sys.path.insert(0, ".")
import py_dump_then_assert

def flush(n):
    faulthandler.dump_traceback()
    return py_dump_then_assert.commit_batch(n)

print("flushed", flush(200))
