-- Seed 000, Figure 7: receive time at 256 tasks with MRNet's sum filter on every tree node
-- against no filter, for 1 to 1,000 messages per task. 8 compute nodes per I/O node, b:16
-- above them, default costs.
--
-- Reproduces: the sum filter receives much faster, because the front-end gets one
-- aggregated message per wave instead of 256; the filter's own work is small next to
-- what it saves (the model charges a call and a per-value cost on every node).
-- The factor printed is the model's (none / sum at the largest message count).
-- Does not reproduce: the paper's absolute times (its figure's axis values belong to
-- ubgl's software stack; run with costs = "ubgl" for its latency).
--
-- Run: go run ./cmd/dpclsh examples/experiments/fig7_sum.lua [dir]   (writes fig7_sum.csv, .svg)
local C = dofile("examples/experiments/common.lua")
local M = {}

function M.run(opts)
  opts = opts or {}
  local tasks = opts.tasks or 256
  local msgs = opts.msgs or {1, 10, 100, 1000}
  local rows, none, sum, labels = {}, {}, {}, {}
  for i, m in ipairs(msgs) do
    local a = C.receive{nodes = tasks, msgs = m}
    local b = C.receive{nodes = tasks, msgs = m, filter = "sum"}
    assert(a.sent == a.delivered and b.sent == b.delivered, "every message delivered")
    none[i], sum[i], labels[i] = a.receive_ns / 1e6, b.receive_ns / 1e6, tostring(m)
    rows[i] = {tasks, m, none[i], sum[i], b.receive_ns > 0 and a.receive_ns / b.receive_ns or 0}
  end
  local dir = C.dir(opts)
  local out = {rows = rows, factor = rows[#rows][5]}
  out.csv = C.csv(dir .. "/fig7_sum.csv", {"tasks", "messages", "none_ms", "sum_ms", "factor"}, rows)
  out.svg = plot.bars{file = dir .. "/fig7_sum.svg", title = string.format("Sum filter at %d tasks (seed 000, Fig. 7)", tasks),
    x_label = "messages per task", y_label = "receive time (virtual ms)", labels = labels,
    series = {{name = "no filter", values = none}, {name = "sum filter", values = sum}}}
  return out
end

if arg and arg[0] and arg[0]:match("fig7_sum%.lua$") then
  local r = M.run{dir = arg[1]}
  print("tasks,messages,none_ms,sum_ms,factor")
  for _, row in ipairs(r.rows) do print(string.format("%d,%d,%.3f,%.3f,%.2f", unpack(row))) end
  print(string.format("the sum filter receives %.1f times faster (model, %d messages per task)", r.factor, r.rows[#r.rows][2]))
  print("wrote " .. r.csv .. ", " .. r.svg)
end

return M
