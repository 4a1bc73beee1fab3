-- limpio_table1: Table I of the Limpio paper on master_worker — per-rank MPI call counts and
-- time shares, the master apart from the workers — printed and written as CSV, then whether
-- each of the paper's statements holds, computed from this run.
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
  local ratio = prof:ratio()
  return {lines = lines, csv = csv, prof = prof, ratio = ratio, statements = M.statements(ratio)}
end

-- M.statements checks, on this run's MPI time shares, what the paper's Table I shows:
-- {text, holds} per statement, the text naming the measured shares.
function M.statements(ratio)
  local measured = string.format(" (master %.1f%%, mean worker %.1f%%)", 100 * ratio.master, 100 * ratio.workers)
  return {
    {holds = ratio.master > 0.5, text = "the master spends most of its run time in MPI" .. measured},
    {holds = ratio.master > ratio.workers, text = "the master's share in MPI is larger than the workers'" .. measured},
  }
end

if arg and arg[0] and arg[0]:match("limpio_table1%.lua$") then
  local r = M.run()
  for _, l in ipairs(r.lines) do print(l) end
  for _, st in ipairs(r.statements) do print((st.holds and "holds: " or "does not hold: ") .. st.text) end
end

return M
