-- Tests of examples/netreduce/filter_limits.lua: isolated, bounded, deterministic Lua
-- filters and back-end functions.
local limits = dofile("examples/netreduce/filter_limits.lua")

function TestEachNodeKeepsItsOwnGlobals(t)
  local want = { "4 4 4 4 1", "4 4 4 4 2", "4 4 4 4 3" }
  for run = 1, 3 do
    t:eq(limits.counts("b:4^2", 3), want, "run " .. run)
  end
end

function TestBackendStringTooLargeIsACatchableError(t)
  local err = limits.backend_error("b:2")
  t:ok(err:find("string.rep: the result would be 1 TiB, over the limit of 64 MiB", 1, true), err)
end

function TestBackendGlobalsDoNotLeakBetweenCalls(t)
  local net = netreduce.new{topology = "b:4"}
  net:on_backend(function(rank)
    seen = (seen or 0) + 1
    return seen
  end)
  local s = net:stream(net:broadcast(), {up = "sum"})
  for _ = 1, 3 do
    s:send("%d", 0)
    t:eq(s:recv(), 4, "every back-end call starts from fresh globals")
  end
  net:close()
end

function TestBudgetOption(t)
  t:error(function() filter.load("examples/filters/topk.lua", {deadline_ms = 5}) end, "deadline_ms is gone")
  t:error(function() filter.load("examples/filters/topk.lua", {budget = 0}) end, "budget must be")
  local f = filter.load("examples/filters/topk.lua", {budget = 5000})
  t:eq(f:apply({{3, rank = 0}, {9, rank = 1}}, {k = 1}), {9, 1})
end

function TestSessionRefusesHugeStrings(t)
  t:error(function() return string.rep("x", 2^40) end, "string.rep: the result would be 1 TiB")
  t:error(function() return table.concat({"x"}, "", 1, 1) .. string.format("%99999999999d", 1) end,
    "string.format: the result would be 93.13 GiB")
end
