# Python that handles its own errors (issue 11, fifth pass): an AssertionError caught and its
# traceback printed (`assert`), and an exception that ends a worker thread, printed by
# threading's excepthook while the program goes on (`thread`). Then it keeps hashing, so the
# debugger interrupts a healthy process whose stderr shows a traceback.
import hashlib
import sys
import threading
import traceback


def check(n):
    assert n > 0, "n must be positive"
    return n


def worker():
    raise ValueError("worker gave up on job 3; the pool restarts it")


mode = sys.argv[1] if len(sys.argv) > 1 else "assert"
if mode == "assert":
    try:
        check(0)
    except AssertionError:
        traceback.print_exc()
else:
    t = threading.Thread(target=worker, name="job-3")
    t.start()
    t.join()
sys.stderr.flush()
h = hashlib.sha256()
while True:
    h.update(b"legal" * 1000)
