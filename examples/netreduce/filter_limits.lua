-- Lua filters and back-end functions run bounded and isolated.
--   dpclsh examples/netreduce/filter_limits.lua
-- Each tree node runs the filter in an environment of its own (globals, string, table
-- and math are the node's), and every call of init or filter has a budget of Lua
-- instructions (filter.load(path, {budget = n}); default 20e6): a runaway filter stops at
-- the same instruction on any host, and the error names the file, line and node. Strings
-- larger than the node's memory budget (64 MiB) are refused before they are built, with
-- an error pcall can catch.

local M = {}

-- counts runs a filter that keeps globals on a tree and returns what reaches the root
-- after each of `waves` waves, as one line per wave.
function M.counts(topology, waves)
  local net = netreduce.new{topology = topology}
  net:on_backend(function(rank) return rank % 4 end)
  local f = filter.load("examples/filters/wave_histogram.lua", {budget = 100000})
  local s = net:stream(net:broadcast(), {up = f, params = {bins = 4}})
  local lines = {}
  for _ = 1, waves do
    s:send("%d", 0)
    local p, err = s:recv_packet()
    if p == nil then error(err) end
    lines[#lines + 1] = table.concat(p.values, " ")
  end
  net:close()
  return lines
end

-- backend_error returns the error a back-end function gets for a string too large to
-- build, caught inside the back-end.
function M.backend_error(topology)
  local net = netreduce.new{topology = topology}
  net:on_backend(function(rank)
    local ok, err = pcall(string.rep, "x", 2^40)
    if ok then return "built" end
    return err
  end)
  local s = net:stream(net:broadcast(), {up = "concat"})
  s:send("%d", 0)
  local v = s:recv()
  net:close()
  return v
end

if arg and arg[0] and arg[0]:find("filter_limits.lua$") then
  for _, line in ipairs(M.counts("b:4^2", 3)) do print(line) end
  print(M.backend_error("b:2"))
end

return M
