import ctypes
lib = ctypes.CDLL("./libpy-ctypes-null.so")
lib.sum_samples.restype = ctypes.c_double
lib.sum_samples.argtypes = [ctypes.POINTER(ctypes.c_double), ctypes.c_size_t]

def average(samples, n):
    return lib.sum_samples(samples, n) / n

print("avg", average(None, 4))
