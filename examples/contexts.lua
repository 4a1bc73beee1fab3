-- contexts: one probe on several probe contexts at once (DPCL on BG/L, section 4).
--
-- A counting probe on MPI_Allreduce in jacobi keeps each rank's number of calls; one
-- expression, send(calls, rank), then goes to the same point on three contexts, each with
-- its own aggregation: a 10% random sample (concat: every sampled rank's pair), the ranks
-- of one I/O node (max), and the ranks a predicate picks (eqclass: ranks grouped by their
-- count, one class while they agree).
--   Run: go run ./cmd/dpclsh examples/contexts.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local app = dpcl.launch(opts.exe or "examples/apps/bin/jacobi.elf", {
    nodes = opts.nodes or 512, per_io = opts.per_io or 16, args = {"64", tostring(opts.iters or 6)},
    quiet = opts.quiet,
  })
  local sample = ctx.all(app):sample(10, 42)
  local io = ctx.ionode(app, opts.ionode or 3)
  local pick = ctx.where(app, function(r) return r % 64 == 7 end) + ctx.single(app, 0)
  local calls = app:var("int")
  local points = app:points("MPI_Allreduce", "entry")
  -- Installed first, so it runs first at the point: the sends see the updated count.
  app:install(points, calls:assign(calls + 1)):activate()
  local e = probe.send(calls, probe.rank())

  local result = {}
  local specs = {
    {name = "sample", c = sample, filter = "concat"},
    {name = "ionode", c = io, filter = "max"},
    {name = "pick", c = pick, filter = "eqclass"},
  }
  local handles = {}
  for _, s in ipairs(specs) do
    result[s.name] = {}
    handles[#handles + 1] = app:install(points, e, {
      context = s.c, filter = s.filter,
      callback = function(m) table.insert(result[s.name], m) end,
    })
    out(string.format("%-6s %s -> %s", s.name, tostring(s.c), s.filter))
  end
  for _, h in ipairs(handles) do h:activate() end
  app:start()
  result.status = app:wait()
  local first = result.sample[1]
  out(string.format("sample: %d waves; the first holds %d values from %d ranks", #result.sample,
    #first.values, first.count))
  local last = result.ionode[#result.ionode]
  out(string.format("ionode: %d waves; the last: most calls %d, highest rank %d", #result.ionode,
    last.values[1], last.values[2]))
  local classes = result.pick[#result.pick].values
  out(string.format("pick:   %d waves; the last has %d class(es), the first: %d calls on ranks %s",
    #result.pick, #classes, classes[1].value, classes[1].ranks))
  result.handles = handles
  app:close()
  return result
end

if arg and arg[0] and arg[0]:match("contexts%.lua$") then
  M.run()
end

return M
