-- Equivalence classes through the reduction tree (MRNet paper, section 3; STAT does the
-- same with stack traces).
--   dpclsh examples/netreduce/eqclass.lua [TOPOLOGY]
-- Tool daemons usually see the same thing (the same executable, the same function
-- table). Each back-end sends only a checksum of its function table; the built-in
-- "eqclass" filter groups the back-ends by checksum on the way up. The front-end then
-- asks for the full table only from one representative per class, over a second stream
-- whose communicator holds just those ranks, and "concat" brings them back in rank order.

local M = {}

-- The simulated daemons: most run the same build; every 16th back-end starting at 5 has
-- a patched library, and back-end 42 (when present) an old build. Back-end behaviour runs
-- in the back-ends' own states, so this table is rebuilt inline there.
function M.build_of(rank)
  if rank == 42 then return "app-1.0" end
  if rank % 16 == 5 then return "app-1.1+libfoo-2" end
  return "app-1.1"
end

function M.classes(topology)
  local net = netreduce.new{topology = topology}
  net:on_backend(function(rank, what)
    local build = "app-1.1"
    if rank == 42 then build = "app-1.0" elseif rank % 16 == 5 then build = "app-1.1+libfoo-2" end
    if what == "checksum" then
      local h = 0
      for i = 1, #build do h = (h * 31 + string.byte(build, i)) % 1000000007 end
      return h
    end
    return build .. ": main, solve, " .. (build:find("libfoo") and "foo_v2" or "foo_v1")
  end)
  local sums = net:stream(net:broadcast(), {up = "eqclass"})
  sums:send("%s", "checksum")
  local classes = {sums:recv()}
  local reps = {}
  for i, c in ipairs(classes) do
    reps[i] = tonumber(c.ranks:match("^%d+"))
  end
  local details = net:stream(net:communicator(reps), {up = "concat"})
  details:send("%s", "functions")
  local tables = {details:recv()}
  local order = {}
  for i, r in ipairs(reps) do order[i] = r end
  table.sort(order)
  local by_rank = {}
  for i, r in ipairs(order) do by_rank[r] = tables[i] end
  for _, c in ipairs(classes) do
    c.representative = tonumber(c.ranks:match("^%d+"))
    c.functions = by_rank[c.representative]
  end
  net:close()
  return classes
end

if arg and arg[0] and arg[0]:match("eqclass%.lua$") then
  local topology = arg[1] or "b:8^2"
  local classes = M.classes(topology)
  print(string.format("%d equivalence classes over %s", #classes, topology))
  for _, c in ipairs(classes) do
    print(string.format("  checksum %10d  ranks %-28s %s", c.value, c.ranks, c.functions))
  end
end

return M
