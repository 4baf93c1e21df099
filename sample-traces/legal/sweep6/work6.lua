-- Legal work for LuaJIT (sixth pass): traces, FFI calls into libc, and FFI callbacks that
-- libc's qsort calls back into (LuaJIT's callback trampolines in its own mapping).
local ffi = require("ffi")
ffi.cdef[[
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
size_t strlen(const char *s);
void *malloc(size_t n);
void free(void *p);
]]
local cmp = ffi.cast("int (*)(const void *, const void *)", function(a, b)
  local x, y = ffi.cast("const int *", a)[0], ffi.cast("const int *", b)[0]
  return x < y and -1 or (x > y and 1 or 0)
end)
local n = 2000
local arr = ffi.new("int[?]", n)
local s, round = 7, 0
while true do
  for i = 0, n - 1 do s = (s * 1103515245 + 12345) % 2147483648; arr[i] = s % 100000 end
  ffi.C.qsort(arr, n, 4, cmp)
  local t = {}
  for i = 1, 3000 do t[i] = tostring(i * s % 977) end
  local str = table.concat(t, ",")
  local p = ffi.C.malloc(#str + 1)
  ffi.copy(p, str)
  s = s + tonumber(ffi.C.strlen(p))
  ffi.C.free(p)
  round = round + 1
  if round % 200 == 0 then io.write("round ", round, "\n") end
end
