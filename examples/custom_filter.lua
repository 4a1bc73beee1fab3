-- custom_filter: aggregate probe data in the tree with a filter written in Lua.
--
-- examples/filters/topk.lua keeps the K largest values and the ranks that sent them, in
-- every tree node on the way up. Here each rank of jacobi sends the virtual time (timebase
-- ticks) at which it entered its first MPI_Allreduce: the top 5 are the ranks that arrived
-- last, the ones the others waited for.   Run: go run ./cmd/dpclsh examples/custom_filter.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local k = opts.k or 5
  local app = dpcl.launch(opts.exe or "examples/apps/bin/jacobi.elf", {
    nodes = opts.nodes or 256, per_io = opts.per_io or 16, args = {"64", "4"}, quiet = opts.quiet,
  })
  local topk = filter.load("examples/filters/topk.lua")
  local seen, at = app:var("int"), app:var("int64")
  local first = probe.seq{
    probe.when(seen:eq(0), probe.seq{at:assign(probe.timebase()), probe.send(at)}),
    seen:assign(1),
  }
  local result = {}
  local h = app:install(app:points("MPI_Allreduce", "entry"), first, {
    filter = topk, params = {k = k},
    callback = function(m) result.values, result.count = m.values, m.count end,
  })
  h:activate()
  if opts.check then
    -- The same data unaggregated (concat), for comparing with a sort at the front-end:
    -- installed second at the point, it runs after the first probe has set `at`.
    local seen2 = app:var("int")
    local all = app:install(app:points("MPI_Allreduce", "entry"), probe.seq{
      probe.when(seen2:eq(0), probe.send(at)), seen2:assign(1)}, {
      filter = "concat", callback = function(m) result.all = m.values end})
    all:activate()
  end
  app:start()
  result.status = app:wait()
  out(string.format("the %d ranks (of %d) that entered their first MPI_Allreduce last:", k, result.count))
  for i = 1, #result.values, 2 do
    out(string.format("  rank %4d at timebase %d", result.values[i + 1], result.values[i]))
  end
  result.stats = h:stats()
  app:close()
  return result
end

if arg and arg[0] and arg[0]:match("custom_filter%.lua$") then
  M.run()
end

return M
