-- Legal LuaJIT (issue 11, fourth pass): hot loops the JIT compiles to machine code in its
-- mmap'ed trace area (numeric loops, table churn, string building, closures), so interrupts
-- land in generated code with no symbol and in the interpreter's hand-written assembly.
local function mix(x) return (x * 1103515245 + 12345) % 2147483648 end
local t, acc = {}, 0
for round = 1, 1e12 do
  for i = 1, 20000 do acc = mix(acc + i) end
  for i = 1, 2000 do t[i % 511] = (t[i % 511] or 0) + i end
  local parts = {}
  for i = 1, 200 do parts[#parts + 1] = tostring(i * round) end
  local s = table.concat(parts, ",")
  acc = acc + #s
  local f = function(y) return y + acc end
  acc = f(round) % 1e9
end
