/* A C "library" built without unwind tables (-fno-asynchronous-unwind-tables): it calls
 * the application's callback for every record. */
typedef int (*record_cb)(int id, void *ctx);

__attribute__((noinline)) int for_each_record(int n, record_cb cb, void *ctx)
{
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += cb(i, ctx);
    return sum;
}
