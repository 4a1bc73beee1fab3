-- call_paths: which call paths reach MPI_Recv, and on how many ranks (STAT's question).
-- One snippet at MPI_Recv's entry sends the call stack (probe.ustack, a walk of the r1
-- back chain compiled into the snippet); the "eqclass" filter with params {key = depth}
-- merges ranks with the same stack on the way up the tree, so the front-end receives a
-- handful of classes whatever the number of ranks, and app:symbolize names their frames
-- (function+offset and file:line from DWARF).
--   Run: go run ./cmd/dpclsh examples/probes/call_paths.lua [NODES]
local M = {}

-- members counts the ranks of a rank spec such as "0,3-5".
function M.members(spec)
  local n = 0
  for part in spec:gmatch("[^,]+") do
    local lo, hi = part:match("^(%d+)-(%d+)$")
    n = n + (lo and tonumber(hi) - tonumber(lo) + 1 or 1)
  end
  return n
end

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local depth = opts.depth or 4
  local nodes = opts.nodes or 64
  -- ring: rank 0 receives the token in one place of token_lap, every other rank in another.
  local app = dpcl.launch(opts.exe or "examples/apps/bin/ring.elf", {
    nodes = nodes, per_io = opts.per_io or 16, args = {"4", "1"}, quiet = opts.quiet,
  })
  local paths, order = {}, {}
  local h = app:install(app:points("MPI_Recv", "entry"), probe.send(probe.ustack(depth)), {
    filter = "eqclass", params = {key = depth},
    callback = function(m)
      for _, c in ipairs(m.values) do
        local frames = app:symbolize(c.value)
        local key = table.concat(frames, " <- ")
        if not paths[key] then
          paths[key] = {frames = frames, ranks = {}, count = 0}
          order[#order + 1] = key
        end
        local p = paths[key]
        p.ranks[#p.ranks + 1] = c.ranks
        p.count = p.count + M.members(c.ranks)
      end
    end,
  })
  h:activate()
  app:start()
  local status = app:wait()
  table.sort(order, function(a, b) return paths[a].count > paths[b].count end)
  out(string.format("%d call paths reach MPI_Recv on %d ranks", #order, nodes))
  local result = {status = status, paths = {}}
  for _, key in ipairs(order) do
    local p = paths[key]
    out(string.format("  %d ranks (%s):", p.count, table.concat(p.ranks, " ")))
    for _, f in ipairs(p.frames) do out("    " .. f) end
    result.paths[#result.paths + 1] = p
  end
  app:close()
  return result
end

if arg and arg[0] and arg[0]:match("call_paths%.lua$") then
  M.run{nodes = tonumber(arg[1])}
end

return M
