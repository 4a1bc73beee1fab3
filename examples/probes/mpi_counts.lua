-- mpi_counts: one snippet on every MPI_* entry counts calls per function, in a probe array
-- indexed by probe.func() (read back per rank at the end), and in a compact array indexed
-- by probe.point() (one entry point per function, in parts of 256: a send's limit) that
-- every rank sends whole from MPI_Finalize, summed element-wise by the "sum" filter on the
-- way up the tree.
--   Run: go run ./cmd/dpclsh examples/probes/mpi_counts.lua
local M = {}

-- PART is how many points one send carries (a send takes at most 256 values).
local PART = 256

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local app = dpcl.launch(opts.exe or "examples/apps/bin/ring.elf", {
    nodes = opts.nodes or 16, per_io = opts.per_io or 8, quiet = opts.quiet,
  })
  local fns = app:functions("*")
  local counts = app:array("int", #fns, "calls")          -- indexed by function id
  local pts = app:points("MPI_*", "entry")                 -- one point per MPI function
  -- A send carries at most 256 values and libmpi has more MPI functions than that, so
  -- the compact array is kept in parts of 256 points: each part's snippet indexes its own
  -- array by probe.point() (the index in the list that probe was installed on), and each
  -- part is sent from MPI_Finalize on its own.
  local parts = {}
  for first = 1, #pts, PART do
    local sub = {}
    for i = first, math.min(first + PART - 1, #pts) do sub[#sub + 1] = pts[i] end
    parts[#parts + 1] = {first = first, pts = sub, arr = app:array("int", #sub, "by_point" .. #parts + 1)}
  end
  local f, p = probe.func(), probe.point()
  local sums = {}
  for _, part in ipairs(parts) do
    local a = part.arr
    app:install(part.pts, probe.seq{counts[f]:assign(counts[f] + 1), a:set(p, a[p] + 1)}):activate()
    app:install(app:points("MPI_Finalize", "entry"), probe.send(a), {filter = "sum",
      callback = function(m)
        for i, v in ipairs(m.values) do sums[part.first + i - 1] = v end
      end}):activate()
  end
  -- compact:read(rank) is every part's values for rank, in the order of pts.
  local compact = {read = function(_, rank)
    local vals = {}
    for _, part in ipairs(parts) do
      for i, v in ipairs(part.arr:read(rank)) do vals[part.first + i - 1] = v end
    end
    return vals
  end}
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
