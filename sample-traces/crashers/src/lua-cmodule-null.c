/* A Lua 5.4 C module (require "luacmod") whose counter() reads a userdata's state through a
 * pointer the constructor never set. Run by the stock lua5.4 interpreter. */
#include <lauxlib.h>
#include <lua.h>

struct counter {
    long *cells;
    int n;
};

static int counter_new(lua_State *L)
{
    struct counter *c = lua_newuserdatauv(L, sizeof *c, 0);
    c->n = (int)luaL_checkinteger(L, 1);
    c->cells = NULL; /* allocated lazily by counter_add, never called */
    return 1;
}

static int counter_total(lua_State *L)
{
    struct counter *c = lua_touserdata(L, 1);
    long s = 0;
    for (int i = 0; i < c->n; i++)
        s += c->cells[i];
    lua_pushinteger(L, s);
    return 1;
}

static const luaL_Reg funcs[] = {{"new", counter_new}, {"total", counter_total}, {NULL, NULL}};

int luaopen_luacmod(lua_State *L)
{
    luaL_newlib(L, funcs);
    return 1;
}
