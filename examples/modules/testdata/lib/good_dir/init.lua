-- A directory module: its init.lua gets its name and directory and reads a file beside it.
local name, dir = ...
local conf = dofile(dir .. "/conf.lua")
return {
  query = function() return {description = conf.description .. " (" .. name .. ")"} end,
  init = function() return {actions = {}, sources = {}} end,
}
