-- Seed 000, Figure 5: receive time against the number of messages, for 8 to 1,024 nodes
-- (left), and the same divided by the number of nodes (right). 8 compute nodes per I/O
-- node as on ubgl, a one-level tree (every I/O node's daemon a child of the front-end,
-- the star DPCL and MRNet's flat topology give), costs = "ubgl", no filter: every
-- message reaches the front-end on its own.
--
-- The shape comes from two mechanisms of the cost model (runtime/costs.go), none fitted
-- to this figure: each daemon pays for its 8 compute nodes' messages (CIOD's shipped
-- socket write, the receive, the forward), so with few I/O nodes the daemons are the
-- bottleneck and adding nodes adds daemons working in parallel; the front-end's event
-- loop scans one socket per daemon on every receive (fe_poll_conn_ns), so each message
-- costs it more the more daemons there are. The time per node is least where the
-- daemons' parallelism stops paying against the front-end's growing connection cost.
-- What holds and what does not is computed from the run: M.statements, printed below
-- the table.
--
-- Run: go run ./cmd/dpclsh examples/experiments/fig5_receive.lua [dir]   (writes
-- fig5_receive.csv, fig5_receive.svg and fig5_per_node.svg)
local C = dofile("examples/experiments/common.lua")
local M = {}

-- M.flat is a balanced tree whose fan-out is at least the I/O-node count of any run
-- here (1,024 nodes / 8): one level, every daemon a child of the front-end.
M.flat = "b:1024"

-- M.statements checks the paper's sentences on the rows of one run at the largest
-- message count: {text, holds} per statement, with the numbers that decide it.
function M.statements(rows)
  local m = 0
  for _, row in ipairs(rows) do m = math.max(m, row[2]) end
  local per, nodes = {}, {}
  for _, row in ipairs(rows) do
    if row[2] == m then per[row[1]], nodes[#nodes + 1] = row[5], row[1] end
  end
  local best = nodes[1]
  for _, n in ipairs(nodes) do if per[n] < per[best] then best = n end end
  local out = {}
  local function say(holds, fmt, ...) out[#out + 1] = {text = string.format(fmt, ...), holds = holds} end
  say(best >= 32 and best <= 128, "shortest time per node at 64 nodes (within one step): least at %d nodes, %.4f ms per node (%d messages)",
    best, per[best], m)
  local small = {}
  for _, n in ipairs(nodes) do if n < best / 2 then small[#small + 1] = string.format("%d: %.2fx", n, per[n] / per[best]) end end
  local worst_small = math.huge
  for _, n in ipairs(nodes) do if n < best / 2 then worst_small = math.min(worst_small, per[n] / per[best]) end end
  say(#small > 0 and worst_small >= 1.5, "smaller node counts significantly worse (>= 1.5x the least): %s",
    #small > 0 and table.concat(small, ", ") or "no smaller counts run")
  local large, ok = {}, true
  for _, n in ipairs(nodes) do
    if n > best then
      local f = per[n] / per[best]
      large[#large + 1] = string.format("%d: %.2fx", n, f)
      if n <= 512 and f > 1.3 then ok = false end
    end
  end
  say(#large > 0 and ok, "larger node counts slightly worse (up to 512 nodes within 1.3x the least): %s",
    #large > 0 and table.concat(large, ", ") or "no larger counts run")
  return out
end

function M.run(opts)
  opts = opts or {}
  local nodes = opts.nodes or {8, 16, 32, 64, 128, 256, 512, 1024}
  local msgs = opts.msgs or {1, 10, 100, 1000}
  local rows, total, per = {}, {}, {}
  for _, n in ipairs(nodes) do
    local xs, ys, ps = {}, {}, {}
    for _, m in ipairs(msgs) do
      local r = C.receive{nodes = n, msgs = m, per_io = 8, topology = M.flat, costs = "ubgl"}
      assert(r.sent == r.delivered and r.sent == n * m, "every message delivered")
      rows[#rows + 1] = {n, m, n * m, r.receive_ns / 1e6, r.receive_ns / 1e6 / n, r.busy / 1e6}
      xs[#xs + 1], ys[#ys + 1], ps[#ps + 1] = m, math.max(r.receive_ns / 1e6, 1e-3), r.receive_ns / 1e6 / n
    end
    total[#total + 1] = {name = n .. " nodes", x = xs, y = ys}
    per[#per + 1] = {name = n .. " nodes", x = xs, y = ps}
  end
  local dir = C.dir(opts)
  local out = {rows = rows, statements = M.statements(rows)}
  out.csv = C.csv(dir .. "/fig5_receive.csv",
    {"nodes", "messages", "total_messages", "receive_ms", "receive_ms_per_node", "frontend_busy_ms"}, rows)
  out.svg = C.figure("lines", {file = dir .. "/fig5_receive.svg", title = "Receive time (seed 000, Fig. 5 left)",
    x_label = "messages per node", y_label = "receive time (virtual ms)", log_x = true, log_y = true, series = total})
  out.per_node = C.figure("lines", {file = dir .. "/fig5_per_node.svg", title = "Receive time per node (Fig. 5 right)",
    x_label = "messages per node", y_label = "virtual ms per node", log_x = true, series = per})
  return out
end

if arg and arg[0] and arg[0]:match("fig5_receive%.lua$") then
  local r = M.run{dir = arg[1]}
  print("nodes,messages,receive_ms")
  for _, row in ipairs(r.rows) do print(string.format("%d,%d,%.3f", row[1], row[2], row[4])) end
  for _, st in ipairs(r.statements) do print((st.holds and "holds: " or "does not hold: ") .. st.text) end
  print("wrote " .. r.csv .. ", " .. r.svg .. ", " .. r.per_node)
end

return M
