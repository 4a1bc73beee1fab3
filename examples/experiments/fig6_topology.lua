-- Seed 000, Figure 6: varying where the streams merge, at 8 tasks (left) and 64 tasks
-- (right). ubgl serves 8 compute nodes per I/O node, so the paper's configurations put
-- 1, 2, 4 or 8 tasks under each I/O node by placing them in a larger partition: here a
-- map file per configuration (dpcl.launch's partition and mapping), the tasks on the
-- first k nodes of each I/O node's 8. Above the I/O nodes, comm nodes of fan-out 2, 4
-- or 16 (b:F). 100 one-integer messages per task, no filter, costs = "ubgl".
--
-- The trend comes from the same mechanisms as Fig. 5 (runtime/costs.go): a daemon pays
-- for every message of its tasks, so fewer tasks per I/O node share that work among
-- more daemons; the front-end receives every message whatever the shape and pays more
-- per message the more connections it polls, so once it is the bottleneck (64 tasks)
-- spreading the tasks wider gains little. What holds and what does not is computed
-- from the run: M.statements, printed below the table.
--
-- Run: go run ./cmd/dpclsh examples/experiments/fig6_topology.lua [dir]   (writes
-- fig6_topology.csv, fig6_topology.svg and the map files)
local C = dofile("examples/experiments/common.lua")
local M = {}

local PER_IO = 8

-- mapfile writes an mpirun map file for n tasks, k on each I/O node (the first k of its
-- PER_IO nodes), in a partition of n / k * PER_IO nodes; it returns the path and size.
local function mapfile(dir, n, k)
  local nodes = n / k * PER_IO
  local part = bgl.partition{nodes = nodes, per_io = PER_IO}
  local lines = {}
  for r = 0, n - 1 do
    local x, y, z = part:coord(math.floor(r / k) * PER_IO + r % k)
    lines[#lines + 1] = string.format("%d %d %d 0\n", x, y, z)
  end
  local path = string.format("%s/fig6_%dtasks_%dper_io.map", dir, n, k)
  dpcl.write_file(path, lines)
  return path, nodes
end

-- spread is the largest receive time over the least of a series.
local function spread(ts)
  local lo, hi = math.huge, 0
  for _, v in ipairs(ts) do lo, hi = math.min(lo, v), math.max(hi, v) end
  return hi / lo
end

-- M.statements checks the paper's sentences on a run's rows: {text, holds} per
-- statement, for every fan-out run.
function M.statements(rows, tasks, per_io, fans)
  local at = {}
  for _, row in ipairs(rows) do at[row[1] .. "/" .. row[3] .. "/" .. row[2]] = row[5] end
  local function series(n, fan)
    local ts = {}
    for i, k in ipairs(per_io) do ts[i] = at[n .. "/" .. fan .. "/" .. k] end
    return ts
  end
  local out = {}
  local function say(holds, fmt, ...) out[#out + 1] = {text = string.format(fmt, ...), holds = holds} end
  local n8, n64 = tasks[1], tasks[#tasks]
  local ok, parts = true, {}
  for _, fan in ipairs(fans) do
    local ts = series(n8, fan)
    for i = 2, #ts do if not (ts[i] < ts[i - 1]) then ok = false end end
    if ts[1] / ts[#ts] < 1.5 then ok = false end
    parts[#parts + 1] = string.format("b:%d %s ms (%.2fx)", fan, table.concat((function()
      local s = {}
      for i, v in ipairs(ts) do s[i] = string.format("%.2f", v) end
      return s
    end)(), " > "), ts[1] / ts[#ts])
  end
  say(ok, "%d tasks: fewer tasks per I/O node receive faster (%s per I/O node, each step, >= 1.5x end to end): %s",
    n8, table.concat(per_io, ", "), table.concat(parts, "; "))
  local dir_ok, less_ok, mono, parts64 = true, true, true, {}
  for _, fan in ipairs(fans) do
    local ts8, ts = series(n8, fan), series(n64, fan)
    if not (ts[#ts] < ts[1]) then dir_ok = false end
    if not (spread(ts) < spread(ts8)) then less_ok = false end
    for i = 2, #ts do if not (ts[i] < ts[i - 1]) then mono = false end end
    parts64[#parts64 + 1] = string.format("b:%d %.2f -> %.2f ms (spread %.2fx against %.2fx at %d tasks)",
      fan, ts[1], ts[#ts], spread(ts), spread(ts8), n8)
  end
  say(dir_ok and less_ok, "%d tasks: the same trend, much less clearly (%d per I/O node faster than %d, smaller spread): %s",
    n64, per_io[#per_io], per_io[1], table.concat(parts64, "; "))
  say(mono, "%d tasks: every step of the trend holds too (the paper: \"much less clearly\")", n64)
  return out
end

function M.run(opts)
  opts = opts or {}
  local tasks = opts.tasks or {8, 64}
  local per_io = opts.per_io or {8, 4, 2, 1}
  local fans = opts.fans or {2, 4, 16}
  local msgs = opts.msgs or 100
  local dir = C.dir(opts)
  local rows, series = {}, {}
  for _, n in ipairs(tasks) do
    for _, fan in ipairs(fans) do
      local xs, ys = {}, {}
      for _, k in ipairs(per_io) do
        local map, nodes = mapfile(dir, n, k)
        local r = C.receive{nodes = n, msgs = msgs, per_io = PER_IO, partition = nodes, mapping = map,
          topology = "b:" .. fan, costs = "ubgl"}
        assert(r.sent == r.delivered, "every message delivered")
        rows[#rows + 1] = {n, k, fan, msgs, r.receive_ns / 1e6, r.first / 1e6}
        xs[#xs + 1], ys[#ys + 1] = k, r.receive_ns / 1e6
      end
      series[#series + 1] = {name = string.format("%d tasks, b:%d", n, fan), x = xs, y = ys}
    end
  end
  local out = {rows = rows, statements = M.statements(rows, tasks, per_io, fans)}
  out.csv = C.csv(dir .. "/fig6_topology.csv",
    {"tasks", "tasks_per_io", "fanout", "messages", "receive_ms", "first_arrival_ms"}, rows)
  out.svg = C.figure("lines", {file = dir .. "/fig6_topology.svg", title = "Topology variation (seed 000, Fig. 6)",
    x_label = "tasks per I/O node", y_label = "receive time (virtual ms)", log_x = true,
    series = series})
  return out
end

if arg and arg[0] and arg[0]:match("fig6_topology%.lua$") then
  local r = M.run{dir = arg[1]}
  print("tasks,tasks_per_io,fanout,messages,receive_ms,first_arrival_ms")
  for _, row in ipairs(r.rows) do print(string.format("%d,%d,%d,%d,%.3f,%.3f", unpack(row))) end
  for _, st in ipairs(r.statements) do print((st.holds and "holds: " or "does not hold: ") .. st.text) end
  print("wrote " .. r.csv .. ", " .. r.svg)
end

return M
