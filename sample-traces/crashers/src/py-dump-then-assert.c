/* Look-alike: the script prints a live traceback with faulthandler.dump_traceback() (the same
 * "Current thread 0x… (most recent call first):" text a fatal report has, but no fault), then
 * the extension's own assert fails: SIGABRT from an assertion, no segmentation fault. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <assert.h>

static PyObject *commit_batch(PyObject *self, PyObject *args)
{
    int pending;
    (void)self;
    if (!PyArg_ParseTuple(args, "i", &pending))
        return NULL;
    assert(pending <= 64 && "batch larger than the journal");
    return PyLong_FromLong(pending);
}

static PyMethodDef methods[] = {{"commit_batch", commit_batch, METH_VARARGS, "commit"}, {0}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "py_dump_then_assert", 0, -1, methods, 0, 0, 0, 0};
PyMODINIT_FUNC PyInit_py_dump_then_assert(void) { return PyModule_Create(&module); }
