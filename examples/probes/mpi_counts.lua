-- mpi_counts: one snippet on every MPI_* entry counts calls per function, in a probe array
-- indexed by probe.func() (read back per rank at the end), and in a compact array indexed
-- by probe.point() (one entry point per function) that every rank sends whole from
-- MPI_Finalize, summed element-wise by the "sum" filter on the way up the tree.
--   Run: go run ./cmd/dpclsh examples/probes/mpi_counts.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local app = dpcl.launch(opts.exe or "examples/apps/bin/ring.elf", {
    nodes = opts.nodes or 16, per_io = opts.per_io or 8, quiet = opts.quiet,
  })
  local fns = app:functions("*")
  local counts = app:array("int", #fns, "calls")          -- indexed by function id
  local pts = app:points("MPI_*", "entry")                 -- one point per MPI function
  local compact = app:array("int", #pts, "by_point")       -- indexed by point
  local f, p = probe.func(), probe.point()
  local h = app:install(pts, probe.seq{counts[f]:assign(counts[f] + 1), compact:set(p, compact[p] + 1)})
  h:activate()
  local sums = {}
  local hs = app:install(app:points("MPI_Finalize", "entry"), probe.send(compact),
    {filter = "sum", callback = function(m) sums = m.values end})
  hs:activate()
  if opts.before_start then opts.before_start(app) end
  app:start()
  local st = app:wait()
  local result = {per_rank = {}, totals = {}, overflows = counts:overflows(), status = st,
    fns = fns, compact = compact, pts = pts}
  for r = 0, app.size - 1 do result.per_rank[r] = counts:read(r) end
  for i, pt in ipairs(pts) do
    local total = sums[i] or 0
    result.totals[pt.func] = total
    if total > 0 then out(string.format("%-16s %6d calls", pt.func, total)) end
  end
  result.app = app
  return result
end

if arg and arg[0] and arg[0]:match("mpi_counts%.lua$") then
  M.run().app:close()
end

return M
