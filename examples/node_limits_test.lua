-- Tests of examples/node_limits.lua: the machine's refusals reach the script as events.
local limits = dofile("examples/node_limits.lua")

function TestMemoryEventPerRank(t)
  local seen = limits.run("memory", {nodes = 2, memory_mb = 32, quiet = true, out = function() end})
  t:eq(#seen.memory, 2, "one memory event per rank")
  for _, ev in ipairs(seen.memory) do
    t:ok(ev.message:find("ENOMEM", 1, true), ev.message)
  end
  t:eq(seen.status.exited, 2)
end

function TestForkIsReported(t)
  local seen = limits.run("fork", {nodes = 1, quiet = true, out = function() end})
  local calls = {}
  for _, ev in ipairs(seen.unsupported) do
    calls[#calls + 1] = ev.message:match("(%w+): CNK runs one process per node")
  end
  t:eq(table.concat(calls, ","), "clone,execve")
end
