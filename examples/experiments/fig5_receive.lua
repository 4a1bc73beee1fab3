-- Seed 000, Figure 5: receive time against the number of messages, for 8 to 1,024 nodes
-- (left), and the same divided by the number of nodes (right). 8 compute nodes per I/O
-- node as on ubgl, a b:16 tree above the I/O nodes, default costs, no filter: every
-- message reaches the front-end on its own.
--
-- Reproduces: the receive time grows nearly linearly with the number of messages and
-- with the number of nodes, i.e. with their product, the number of messages the
-- front-end receives.
-- Per node (right), smaller counts perform much worse, as in the paper: with 8 or 16
-- nodes (one or two I/O nodes) a daemon, which handles each of its 8 ranks' messages at
-- about 3 times the front-end's cost, is the bottleneck; from 32 nodes on the front-end
-- is, and the time per node and message settles at its per-message cost (about 10 us,
-- default costs), rising only by the extra latency of deeper trees.
-- Does not reproduce: the sweet spot exactly at 64 nodes and the "slightly worse" larger
-- counts: the model's time per node is flat from 32 nodes on (10.02 us at 32, 10.02 at
-- 1,024). The paper's rise comes from what the model leaves out (MRNet's socket buffers
-- and polling, the front-end host's memory and scheduling under load), which the paper
-- does not measure separately.
--
-- Run: go run ./cmd/dpclsh examples/experiments/fig5_receive.lua [dir]   (writes
-- fig5_receive.csv, fig5_receive.svg and fig5_per_node.svg)
local C = dofile("examples/experiments/common.lua")
local M = {}

function M.run(opts)
  opts = opts or {}
  local nodes = opts.nodes or {8, 16, 32, 64, 128, 256, 512, 1024}
  local msgs = opts.msgs or {1, 10, 100, 1000}
  local rows, total, per = {}, {}, {}
  for _, n in ipairs(nodes) do
    local xs, ys, ps = {}, {}, {}
    for _, m in ipairs(msgs) do
      local r = C.receive{nodes = n, msgs = m, per_io = 8, topology = "b:16"}
      assert(r.sent == r.delivered and r.sent == n * m, "every message delivered")
      rows[#rows + 1] = {n, m, n * m, r.receive_ns / 1e6, r.receive_ns / 1e6 / n, r.busy / 1e6}
      xs[#xs + 1], ys[#ys + 1], ps[#ps + 1] = m, math.max(r.receive_ns / 1e6, 1e-3), r.receive_ns / 1e6 / n
    end
    total[#total + 1] = {name = n .. " nodes", x = xs, y = ys}
    per[#per + 1] = {name = n .. " nodes", x = xs, y = ps}
  end
  local dir = C.dir(opts)
  local out = {rows = rows}
  out.csv = C.csv(dir .. "/fig5_receive.csv",
    {"nodes", "messages", "total_messages", "receive_ms", "receive_ms_per_node", "frontend_busy_ms"}, rows)
  out.svg = plot.lines{file = dir .. "/fig5_receive.svg", title = "Receive time (seed 000, Fig. 5 left)",
    x_label = "messages per node", y_label = "receive time (virtual ms)", log_x = true, log_y = true, series = total}
  out.per_node = plot.lines{file = dir .. "/fig5_per_node.svg", title = "Receive time per node (Fig. 5 right)",
    x_label = "messages per node", y_label = "virtual ms per node", log_x = true, series = per}
  return out
end

if arg and arg[0] and arg[0]:match("fig5_receive%.lua$") then
  local r = M.run{dir = arg[1]}
  print("nodes,messages,receive_ms")
  for _, row in ipairs(r.rows) do print(string.format("%d,%d,%.3f", row[1], row[2], row[4])) end
  print("wrote " .. r.csv .. ", " .. r.svg .. ", " .. r.per_node)
end

return M
