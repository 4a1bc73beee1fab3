-- one_shot: read a probe variable from every rank with a one-shot probe (app:execute) and
-- the concat filter, while the job runs.
--
-- A counting probe on jacobi's halo exchange (MPI_Waitall) runs for a while; then one
-- execute sends each rank's count, and concat hands the script every rank's value in rank
-- order in one message.   Run: go run ./cmd/dpclsh examples/one_shot.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local app = dpcl.launch(opts.exe or "examples/apps/bin/jacobi.elf", {
    nodes = opts.nodes or 256, per_io = opts.per_io or 16, args = {"64", tostring(opts.iters or 30)},
    quiet = opts.quiet,
  })
  local n = app:var("int")
  local h = app:install(app:points("MPI_Waitall", "entry"), n:assign(n + 1))
  h:activate()
  app:start()
  dpcl.sleep(opts.sleep or 0.0005)       -- let it run half a virtual millisecond

  local result = {}
  app:execute(probe.send(n), {filter = "concat", callback = function(m)
    result.values, result.count, result.time = m.values, m.count, m.time
  end})
  while not result.values and app:status() == "running" do dpcl.poll() end
  if result.values then
    local lo, hi = math.huge, -math.huge
    for _, v in ipairs(result.values) do lo, hi = math.min(lo, v), math.max(hi, v) end
    out(string.format("at %.3f virtual ms, %d ranks had made %d to %d MPI_Waitall calls",
      result.time * 1e3, result.count, lo, hi))
    out("rank 0..7: " .. table.concat(result.values, " ", 1, math.min(8, #result.values)))
  end
  result.status = app:wait()
  out(string.format("job: %d exited", result.status.exited))
  app:close()
  return result
end

if arg and arg[0] and arg[0]:match("one_shot%.lua$") then
  M.run()
end

return M
