-- Tests of examples/custom_filter.lua: the Lua filter in the tree gives the same top K as
-- sorting every rank's value at the front-end.
local custom = dofile("examples/custom_filter.lua")

function TestTopKInTheTreeMatchesTheFrontEnd(t)
  local r = custom.run{nodes = 64, per_io = 8, k = 4, check = true, quiet = true, out = function() end}
  t:eq(r.count, 64, "one value from every rank merged")
  t:eq(#r.values, 8, "k = 4 pairs")
  for i = 3, #r.values, 2 do
    t:ok(r.values[i] <= r.values[i - 2], "sorted, largest first")
  end
  local naive = {}
  for rank, v in ipairs(r.all) do naive[#naive + 1] = {v = v, r = rank - 1} end
  table.sort(naive, function(a, b) if a.v ~= b.v then return a.v > b.v end return a.r < b.r end)
  for i = 1, 4 do
    t:eq(r.values[2 * i - 1], naive[i].v)
    t:eq(r.values[2 * i], naive[i].r)
  end
  t:eq(r.stats.sent, 64)
  t:eq(r.stats.delivered, 64)
end
