-- sample: a sampling profile of bgl/testdata/src/hotspots.c, which spends 70 %, 20 % and
-- 10 % of its instructions in hot, warm and cool. A timer in each rank's virtual time
-- records the pc and the call stack; prof:top names the hot spots, prof:lines the lines,
-- and prof:pprof writes a file for go tool pprof (flame graphs, source views).
--   Run: go run ./cmd/dpclsh examples/probes/sample.lua [HZ] [OUT.pb.gz]
--   Then: go tool pprof -top OUT.pb.gz
local M = {}

-- run profiles hotspots on opts.nodes ranks at opts.hz and returns its top functions,
-- its lines in hotspots.c, and each rank's exit time (virtual ns); opts.pprof names a
-- file to write the profile to; opts.hz = nil runs without sampling.
function M.run(opts)
  opts = opts or {}
  local app = dpcl.launch("bgl/testdata/bin/hotspots.elf", {nodes = opts.nodes or 2, quiet = true})
  local exits = {}
  app:on("exit", function(ev) exits[ev.rank] = ev.time_ns end)
  local prof
  if opts.hz then prof = app:sample{hz = opts.hz, stack = 16} end
  app:start()
  local status = app:wait()
  local r = {status = status, exits = exits}
  if prof then
    prof:stop()
    r.top, r.lines = prof:top(3), prof:lines("hotspots.c")
    if opts.pprof then prof:pprof(opts.pprof) end
  end
  app:close()
  return r
end

if arg and arg[0] and arg[0]:match("sample%.lua$") then
  local r = M.run{hz = tonumber(arg[1] or "100000"), pprof = arg[2] or "hotspots.pb.gz", nodes = 1}
  for _, row in ipairs(r.top) do
    print(string.format("%-6s %6d samples %5.1f %%", row.func, row.samples, row.percent))
  end
  print("wrote " .. (arg[2] or "hotspots.pb.gz"))
end

return M
