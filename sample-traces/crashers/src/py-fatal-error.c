/* A CPython extension that finds its cache in an impossible state and calls Py_FatalError:
 * "Fatal Python error: check_cache: …", the Python stack, then abort(). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static long cache_fill = -3;

static PyObject *check_cache(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    if (cache_fill < 0)
        Py_FatalError("cache fill count went negative");
    return PyLong_FromLong(cache_fill);
}

static PyMethodDef methods[] = {{"check_cache", check_cache, METH_NOARGS, "check"}, {0}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "py_fatal_error", 0, -1, methods, 0, 0, 0, 0};
PyMODINIT_FUNC PyInit_py_fatal_error(void) { return PyModule_Create(&module); }
