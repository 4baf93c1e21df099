/* A CPython extension module: row_total() looks a record up by id and reads its total
 * without checking the lookup, which returns NULL for an unknown id (issue #11: a crash in a
 * C extension under the interpreter; gdb stops at the SIGSEGV, Python's frames below). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

struct record {
    const char *name;
    long total;
};

static struct record table[] = {{"north", 12}, {"south", 30}};

static struct record *find_record(long id)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if ((long)i == id)
            return &table[i];
    return NULL;
}

static PyObject *row_total(PyObject *self, PyObject *args)
{
    long id;
    (void)self;
    if (!PyArg_ParseTuple(args, "l", &id))
        return NULL;
    struct record *r = find_record(id);
    return PyLong_FromLong(r->total * 2);
}

static PyMethodDef methods[] = {{"row_total", row_total, METH_VARARGS, "total of a row"}, {0}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "py_ext_null", 0, -1, methods, 0, 0, 0, 0};
PyMODINIT_FUNC PyInit_py_ext_null(void) { return PyModule_Create(&module); }
