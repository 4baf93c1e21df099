/* A Node.js native addon (N-API, loaded with process.dlopen): decode_frame() reads the length
 * of a frame header it looked up in a table that has no entry for the frame's kind. */
#include <node_api.h>
#include <stddef.h>

struct frame_kind {
    int id;
    unsigned header_len;
};

static const struct frame_kind kinds[] = {{1, 8}, {2, 12}};

static const struct frame_kind *kind_of(int id)
{
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].id == id)
            return &kinds[i];
    return NULL;
}

static napi_value decode_frame(napi_env env, napi_callback_info info)
{
    size_t argc = 1;
    napi_value argv[1], out;
    int32_t id = 0;
    napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
    napi_get_value_int32(env, argv[0], &id);
    const struct frame_kind *k = kind_of(id);
    napi_create_uint32(env, k->header_len, &out);
    return out;
}

NAPI_MODULE_INIT()
{
    napi_value fn;
    napi_create_function(env, "decodeFrame", NAPI_AUTO_LENGTH, decode_frame, NULL, &fn);
    napi_set_named_property(env, exports, "decodeFrame", fn);
    return exports;
}
