-- Seed 004 (MRNet), Figure 5, in virtual time: (a) instantiation latency, (b) round trip
-- of one broadcast followed by one reduction, (c) reduction throughput, for a flat tree
-- (the front-end over every back-end) and balanced 4-ary and 8-ary trees. The back-ends
-- are the I/O-node daemons, each with one rank under it (a map file places the ranks one
-- per I/O node in a partition of 8 compute nodes per I/O node), as each of MRNet's
-- back-ends is one process; default costs.
--   (a) is the creation of the tool's processes as MRNet's first mode does it
--       (app:instantiation().total_ns): each parent starts its children one after the
--       other by remote exec (rsh), each child starts, connects, authenticates and gets
--       its part of the configuration, subtrees grow concurrently and report up when
--       they are complete (the launch_* parameters of app:costs(), with their sources).
--   (b) is app:execute(probe.send(1), {filter = "sum"}): the command down to the last
--       daemon, then the summed value up to the front-end.
--   (c) is waves per virtual second of a sum reduction fed by every rank in a loop.
--
-- Which of the paper's statements hold is computed from the run (M.statements, printed
-- below the table). Absolute values belong to the cost model, not to Blue Pacific. The
-- same benchmark over a real TCP network, with one OS process per back-end and host
-- (wall-clock) times, is `dpclsh examples/bench/microbench.lua 100 1000 flat:64 tcp-procs`.
--
-- Run: go run ./cmd/dpclsh examples/experiments/mrnet_fig5.lua [dir] [max_backends]
-- (default 512 back-ends; 4096 back-ends, 4,096 ranks in a 32,768-node partition, needs
-- `flock /tmp/dpcl-big.lock` on a shared machine). Writes mrnet_fig5.csv and
-- mrnet_fig5_{instantiation,round_trip,throughput}.svg.
local C = dofile("examples/experiments/common.lua")
local M = {}

-- onePerIONode writes a map file placing n ranks one per I/O node (the first of each I/O
-- node's 8 compute nodes) and returns its path and the partition's size.
local function onePerIONode(dir, n)
  local part = bgl.partition{nodes = n * 8, per_io = 8}
  local lines = {}
  for r = 0, n - 1 do
    local x, y, z = part:coord(r * 8)
    lines[#lines + 1] = string.format("%d %d %d 0\n", x, y, z)
  end
  local path = string.format("%s/mrnet_fig5_%d.map", dir, n)
  dpcl.write_file(path, lines)
  return path, n * 8
end

local function measure(backends, topo, waves, dir)
  local nodes = backends
  local map, partition = onePerIONode(dir, backends)
  local app = dpcl.launch(C.loop, {nodes = nodes, per_io = 8, partition = partition, mapping = map, topology = topo,
    args = {tostring(waves)}, quiet = true})
  local h = app:install(app:points("step", "entry"), probe.send(1), {filter = "sum"})
  local inst = app:instantiation().total_ns
  h:activate()
  app:start()
  app:wait()
  local s = h:stats()
  local thr = s.last > s.first and (waves - 1) / ((s.last - s.first) / 1e9) or 0
  app:close()
  -- (b) on a fresh job held at its entry: nothing else in flight
  app = dpcl.launch(C.loop, {nodes = nodes, per_io = 8, partition = partition, mapping = map, topology = topo,
    args = {"1"}, quiet = true})
  local got = {}
  local t0 = app:now()
  app:execute(probe.send(1), {filter = "sum", callback = function(m) got.time, got.value = m.time_ns, m.value end})
  local down = app:last_command().down_ns
  app:start()
  app:wait()
  app:close()
  assert(got.value == nodes, "the sum over every rank")
  return inst, down + (got.time - t0), thr
end

-- M.statements checks seed 004's sentences about its Figure 5 on a run's rows (smallest
-- and largest back-end counts): {text, holds} per statement.
function M.statements(rows)
  local v, lo, hi = {}, math.huge, 0
  for _, row in ipairs(rows) do
    v[row[1] .. row[2]] = row
    lo, hi = math.min(lo, row[2]), math.max(hi, row[2])
  end
  local function growth(shape, col) return v[shape .. hi][col] - v[shape .. lo][col] end
  local out = {}
  local function say(holds, fmt, ...) out[#out + 1] = {text = string.format(fmt, ...), holds = holds} end
  local inst = growth("flat", 3) > 2 * math.max(growth("4-ary", 3), growth("8-ary", 3))
  say(inst, "flat instantiation grows quickly with back-ends (serialized process creation), multi-level trees slowly " ..
    "(subtrees created concurrently): flat +%.3f ms, 4-ary +%.3f, 8-ary +%.3f from %d to %d back-ends",
    growth("flat", 3), growth("4-ary", 3), growth("8-ary", 3), lo, hi)
  local rt = growth("flat", 4) > 2 * math.max(growth("4-ary", 4), growth("8-ary", 4))
  say(rt, "flat round trip grows rapidly with back-ends, multi-level trees slowly: flat +%.3f ms, 4-ary +%.3f, 8-ary +%.3f",
    growth("flat", 4), growth("4-ary", 4), growth("8-ary", 4))
  local f, k4, k8 = v["flat" .. hi][5] / v["flat" .. lo][5], v["4-ary" .. hi][5] / v["4-ary" .. lo][5],
    v["8-ary" .. hi][5] / v["8-ary" .. lo][5]
  say(f < 0.5 and k4 >= 0.9 and k8 >= 0.9,
    "flat throughput falls, multi-level throughput stays high (pipelined): %d -> %d back-ends keeps flat %.2f, 4-ary %.2f, 8-ary %.2f of it",
    lo, hi, f, k4, k8)
  return out
end

function M.run(opts)
  opts = opts or {}
  local sizes = opts.backends or {8, 64, 512}
  local waves = opts.waves or 50
  local rows, series = {}, {inst = {}, rt = {}, thr = {}}
  for _, shape in ipairs{{"flat", nil}, {"4-ary", "b:4"}, {"8-ary", "b:8"}} do
    local xs, a, b, c = {}, {}, {}, {}
    for _, n in ipairs(sizes) do
      local topo = shape[2] or ("b:" .. math.max(n, 2))
      local inst, rt, thr = measure(n, topo, waves, C.dir(opts))
      rows[#rows + 1] = {shape[1], n, inst / 1e6, rt / 1e6, thr}
      xs[#xs + 1], a[#a + 1], b[#b + 1], c[#c + 1] = n, inst / 1e6, rt / 1e6, thr
    end
    series.inst[#series.inst + 1] = {name = shape[1], x = xs, y = a}
    series.rt[#series.rt + 1] = {name = shape[1], x = xs, y = b}
    series.thr[#series.thr + 1] = {name = shape[1], x = xs, y = c}
  end
  local dir = C.dir(opts)
  local out = {rows = rows, statements = M.statements(rows)}
  out.csv = C.csv(dir .. "/mrnet_fig5.csv", {"topology", "backends", "instantiation_ms", "round_trip_ms", "reductions_per_s"}, rows)
  local function fig(name, title, y, s)
    return C.figure("lines", {file = dir .. "/mrnet_fig5_" .. name .. ".svg", title = title, x_label = "back-ends (I/O-node daemons)",
      y_label = y, log_x = true, series = s})
  end
  out.svg = fig("instantiation", "(a) instantiation latency", "virtual ms", series.inst)
  out.svg_rt = fig("round_trip", "(b) broadcast + reduction round trip", "virtual ms", series.rt)
  out.svg_thr = fig("throughput", "(c) reduction throughput", "reductions per virtual s", series.thr)
  return out
end

if arg and arg[0] and arg[0]:match("mrnet_fig5%.lua$") then
  local max = tonumber(arg[2] or "512")
  local sizes, n = {}, 8
  while n <= max do
    sizes[#sizes + 1] = n
    n = n * 8
  end
  local r = M.run{dir = arg[1], backends = sizes}
  print("topology,backends,instantiation_ms,round_trip_ms,reductions_per_s")
  for _, row in ipairs(r.rows) do print(string.format("%s,%d,%.3f,%.3f,%.1f", unpack(row))) end
  for _, st in ipairs(r.statements) do print((st.holds and "holds: " or "does not hold: ") .. st.text) end
  print("wrote " .. r.csv .. ", " .. r.svg .. ", " .. r.svg_rt .. ", " .. r.svg_thr)
end

return M
