/* A CPython extension whose parser follows a NULL child pointer. Run with
 * `python3 -X faulthandler`: after gdb's first stop the user continues, faulthandler prints
 * its report ("Fatal Python error: Segmentation fault", the Python stack) and re-raises
 * SIGSEGV from its handler, where gdb stops again. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

struct node {
    struct node *child;
    int depth;
};

static int node_depth(const struct node *n)
{
    return n->child->depth + 1;
}

static PyObject *tree_depth(PyObject *self, PyObject *args)
{
    struct node leaf = {NULL, 0};
    struct node *root = &leaf;
    int levels;
    (void)self;
    if (!PyArg_ParseTuple(args, "i", &levels))
        return NULL;
    return PyLong_FromLong(node_depth(levels > 0 ? root : root));
}

static PyMethodDef methods[] = {{"tree_depth", tree_depth, METH_VARARGS, "depth"}, {0}};
static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "py_faulthandler_reraise", 0, -1, methods, 0, 0, 0, 0};
PyMODINIT_FUNC PyInit_py_faulthandler_reraise(void) { return PyModule_Create(&module); }
