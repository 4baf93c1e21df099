/* Look-alike of lua-panic-unprotected: the same configuration error is raised inside
 * lua_pcall and caught (the program logs Lua's message, which is not a panic); the program then
 * reads its fallback limit through a NULL table of its own: SIGSEGV. */
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <stdio.h>

static const char *config = "config = { name = 'edge', retries = 3 }\n"
                            "function max_conn() return config.limits.connections end\n";

struct defaults {
    long connections;
};

static struct defaults *fallback;

static long read_limit(lua_State *L)
{
    lua_getglobal(L, "max_conn");
    if (lua_pcall(L, 0, 1, 0) != LUA_OK) {
        fprintf(stderr, "config error (using defaults): %s\n", lua_tostring(L, -1));
        lua_pop(L, 1);
        return fallback->connections;
    }
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
