/* A Node.js native addon that gives up with napi_fatal_error() when its pool is exhausted:
 * "FATAL ERROR: take_slot pool exhausted", Node's native stack, then abort(). */
#include <node_api.h>

static int free_slots = 0;

static napi_value take_slot(napi_env env, napi_callback_info info)
{
    napi_value out;
    (void)info;
    if (free_slots <= 0)
        napi_fatal_error("take_slot", NAPI_AUTO_LENGTH, "pool exhausted", NAPI_AUTO_LENGTH);
    napi_create_int32(env, --free_slots, &out);
    return out;
}

NAPI_MODULE_INIT()
{
    napi_value fn;
    napi_create_function(env, "takeSlot", NAPI_AUTO_LENGTH, take_slot, NULL, &fn);
    napi_set_named_property(env, exports, "takeSlot", fn);
    return exports;
}
