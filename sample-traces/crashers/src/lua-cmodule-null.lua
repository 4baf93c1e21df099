package.cpath = "./?.so;" .. package.cpath
local cmod = require("luacmod")
local function report(n)
  local c = cmod.new(n)
  return cmod.total(c)
end
print("total", report(4))
