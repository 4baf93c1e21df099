/* A C program embedding Lua 5.4 that calls into its configuration outside a protected call:
 * the script's table lacks `limits`, indexing nil raises an error with no handler to catch it,
 * and Lua's panic function prints "PANIC: unprotected error in call to Lua API (…)" and the
 * program ends with abort(). */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>

static const char *config = "config = { name = 'edge', retries = 3 }\n"
                            "function max_conn() return config.limits.connections end\n";

static long read_limit(lua_State *L)
{
    lua_getglobal(L, "max_conn");
    lua_call(L, 0, 1); /* unprotected: an error here has no handler */
    long v = (long)lua_tointeger(L, -1);
    lua_pop(L, 1);
    return v;
}

int main(void)
{
    lua_State *L = luaL_newstate();
    luaL_openlibs(L);
    if (luaL_dostring(L, config) != LUA_OK)
        return 1;
    printf("limit %ld\n", read_limit(L));
    lua_close(L);
    return 0;
}
