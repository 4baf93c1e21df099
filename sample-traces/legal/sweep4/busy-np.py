# Legal numpy (issue 11, fourth pass): a Python C extension doing vectorized work (ufuncs,
# reductions, matrix products through BLAS, sorting, fancy indexing, array allocation and
# freeing), so stops land in numpy's compiled loops and in its allocator.
import numpy as np

rng = np.random.default_rng(1)
a = rng.standard_normal((200, 200))
acc = 0.0
while True:
    b = a @ a.T
    c = np.sort(b, axis=1)
    d = np.sin(c) + np.sqrt(np.abs(c))
    idx = rng.integers(0, 200, 500)
    acc += float(d[idx, idx % 7].sum())
    e = np.cumsum(d.ravel())[::3].copy()
    acc += float(e[-1]) + float(np.median(e))
    a = (a * 0.999 + rng.standard_normal((200, 200)) * 0.001).astype(np.float64)
