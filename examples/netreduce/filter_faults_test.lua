-- Lua filter faults are contained: a filter that loops forever or raises an error fails
-- its own stream, once, with the filter's file:line and the node's rank; the tree goes on
-- serving other streams.

local function tree()
  local net = netreduce.new{topology = "b:4^2"}
  net:on_backend(function(rank, x) return rank + x end)
  return net
end

function TestInfiniteLoopIsStoppedByTheBudget(t)
  local net = tree()
  local spin = filter.load("examples/netreduce/testdata/spin_filter.lua", { budget = 100000 })
  local bad = net:stream(net:broadcast(), { up = spin })
  local good = net:stream(net:broadcast(), { up = "sum" })
  bad:send("%d", 0)
  local v, err = bad:recv()
  t:eq(v, nil)
  t:ok(err:find("spin_filter.lua:%d+"), err)
  t:ok(err:find("budget exceeded: more than 100000 Lua instructions"), err)
  t:ok(err:find("at tree node %d+"), err)
  t:eq(bad:error(), err, "the stream keeps its one error")
  t:error(function() bad:send("%d", 1) end, "filter failed")
  good:send("%d", 1)
  t:eq(good:recv(), 136, "another stream still works")
  net:close()
end

function TestRuntimeErrorNamesFileLineAndRank(t)
  local net = tree()
  local unlucky = filter.load("examples/netreduce/testdata/error_filter.lua")
  local s = net:stream(net:broadcast(), { up = unlucky })
  local good = net:stream(net:broadcast(), { up = "max" })
  s:send("%d", 100)
  t:eq(s:recv(), 4, "waves without 13 pass")
  s:send("%d", 0)  -- back-end 13 now sends 13; the node above it fails
  local v, err = s:recv()
  t:eq(v, nil)
  t:ok(err:find("error_filter.lua:6:"), err)
  t:ok(err:find("at tree node 1[67]") or err:find("at tree node 19"), "the node serving back-end 13: " .. err)
  local again, err2 = s:recv()
  t:eq(again, nil)
  t:eq(err2, err, "reported once, the same error afterwards")
  good:send("%d", 0)
  t:eq(good:recv(), 15)
  net:close()
end

function TestSandboxHidesHostLibraries(t)
  local net = tree()
  local f = filter.load("examples/netreduce/testdata/escape_filter.lua")
  local s = net:stream(net:broadcast(), { up = f })
  s:send("%d", 0)
  -- Reading a name the sandbox leaves out fails the filter, naming the name and why.
  local v, err = s:recv()
  t:eq(v, nil)
  t:ok(err and err:find("escape_filter.lua:5: io is not available in the sandbox of filters and back-ends (no file access)", 1, true), err)
  net:close()
end

function TestBackendFunctionWithUpvaluesIsRefused(t)
  local net = tree()
  local k = 3
  t:error(function() net:on_backend(function(rank) return rank + k end) end, "upvalue")
  net:close()
end

function TestBadFilterFilesFailAtLoad(t)
  t:error(function() filter.load("examples/netreduce/testdata/no_such.lua") end, "no such file")
  t:error(function() filter.load("examples/netreduce/testdata/not_a_filter.lua") end, "must return a table")
end

function TestTimeoutSyncAndPoll(t)
  local net = netreduce.new{topology = "b:4^2"}
  net:on_backend(function(rank, x) if rank ~= 5 then return 1 end end)
  local s = net:stream(net:broadcast(), { up = "sum", sync = "timeout", timeout = 0.005 })
  s:send("%d", 0)
  t:eq(s:poll(), nil, "nothing before the timeout")
  local v, why = s:recv(0.001)
  t:eq({ v, why }, { nil, "timeout" })
  net:advance(0.010)
  t:eq(s:poll(), 15, "the wave closed without back-end 5")
  t:eq(net:lost(), "")
  net:kill(5)
  net:sync()
  t:eq(net:lost(), "5")
  net:close()
end
