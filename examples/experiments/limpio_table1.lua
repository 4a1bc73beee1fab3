-- limpio_table1: Table I of the Limpio paper on master_worker — per-rank MPI call counts and
-- time shares, the master apart from the workers — printed and written as CSV.
--   Run: go run ./cmd/dpclsh examples/experiments/limpio_table1.lua   (256 ranks)
local M = {}

function M.run(o)
  o = o or {}
  local dir = o.dir or "."
  local app = dpcl.launch("examples/apps/bin/master_worker.elf", {nodes = o.nodes or 256, per_io = 64,
    args = o.args, quiet = true})
  local prof = limpio.profile(app)
  app:start()
  app:wait()
  prof:snapshot()
  local lines = {}
  prof:table(function(l) lines[#lines + 1] = l end)
  local csv = dir .. "/limpio_table1.csv"
  prof:csv(csv)
  app:close()
  return {lines = lines, csv = csv, prof = prof, ratio = prof:ratio()}
end

if arg and arg[0] and arg[0]:match("limpio_table1%.lua$") then
  for _, l in ipairs(M.run().lines) do print(l) end
end

return M
