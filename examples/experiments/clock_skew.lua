-- Seed 004 (MRNet), section 3: clock-skew detection through the tree, checked against
-- the truth. Every daemon and comm node's clock is off by a seeded offset (launch option
-- clocks; the front-end is the reference); one rank per I/O node sends a few rounds of
-- one value each through examples/filters/skew_tree.lua, which estimates, link by link,
-- the skew between a process and its child and adds it up the tree, so the front-end
-- ends with every daemon's offset. The script compares the estimates with the true
-- offsets (app:tree()) and keeps, per daemon, the round whose estimate is least delayed.
-- It runs twice: with a filter that knows the cost model's processing costs (it replays
-- each process's queue from its arrival stamps) and with one that knows only the links'
-- latency and bandwidth.
--
-- Reproduces: the two ideas of MRNet's algorithm, a local skew per link and the
-- cumulative skew computed up the tree, give every daemon's offset from the front-end.
-- Knowing the costs, the estimate is exact here: the simulated processes are
-- deterministic and do nothing else meanwhile, which a real host is not. Knowing the link
-- latencies only, every hop's processing shows up as skew: tens of microseconds per
-- level, growing with the depth, against offsets of up to a millisecond (MRNet's round
-- trips cancel part of that).
-- The filter's two estimates take each link's latency from the cost model. A third
-- column is MRNet's algorithm proper (app:measure_clocks): a probe down every link and
-- back, the offset from each round trip's four clock readings (queueing included, taken
-- mid-run while the ranks' data flows), added up the tree; nothing reads the true
-- offsets but the comparison. Its median absolute error against the seeded skew range
-- is computed from the run (M.statements). Clocks here are offset, not drifting.
--
-- Run: go run ./cmd/dpclsh examples/experiments/clock_skew.lua [dir]   (writes
-- clock_skew.csv and clock_skew.svg)
local C = dofile("examples/experiments/common.lua")
local M = {}

-- estimate runs the detection once; the filter knows the cost model's values for the
-- keys in knows (all of them when knows is nil) and takes the others as 0. It returns
-- the estimated offset per I/O node and the true ones.
local function estimate(opts, knows)
  local nodes, per_io, rounds = opts.nodes or 256, 8, opts.rounds or 4
  local app = dpcl.launch(C.loop, {nodes = nodes, per_io = per_io, topology = opts.topology or "b:4",
    args = {tostring(rounds)}, quiet = true, clocks = {seed = opts.seed or 7, max_skew_ns = opts.max_skew_ns or 1e6}})
  local costs = {}
  for k, v in pairs(app:costs()) do
    costs[k] = (knows == nil or knows[k]) and v or 0
  end
  local est = {}
  local h = app:install(app:points("step", "entry"), probe.send(1), {
    context = ctx.where(app, function(r) return r % per_io == 0 end),
    filter = filter.load("examples/filters/skew_tree.lua"), params = {costs = costs, per_io = per_io},
    callback = function(m)
      for i = 3, #m.values, 2 do
        local io, c = m.values[i], m.values[i + 1]
        if est[io] == nil or c < est[io] then est[io] = c end
      end
    end,
  })
  h:activate()
  app:start()
  app:wait()
  local truth = {}
  for _, n in ipairs(app:tree()) do
    if n.kind == "daemon" then truth[n.index] = n.offset_ns end
  end
  app:close()
  for io, c in pairs(est) do est[io] = -c end
  return est, truth, nodes / per_io
end

-- measure runs MRNet's two-phase detection proper (app:measure_clocks): a probe down
-- every link and back, each process reading its own clock, the offsets taken from the
-- round trips and added up the tree. It measures mid-run, while every rank's probe data
-- flows up, so the round trips include queueing. Nothing here reads the true offsets.
local function measure(opts)
  local nodes, rounds = opts.nodes or 256, opts.rounds or 4
  local app = dpcl.launch(C.loop, {nodes = nodes, per_io = 8, topology = opts.topology or "b:4",
    args = {tostring(rounds * 50)}, quiet = true, clocks = {seed = opts.seed or 7, max_skew_ns = opts.max_skew_ns or 1e6}})
  local h = app:install(app:points("step", "entry"), probe.send(1), {callback = function() end})
  h:activate()
  app:start()
  dpcl.sleep(0.0002)
  local got = app:measure_clocks()
  app:wait()
  app:close()
  return got
end

-- M.statements says, from a run's rows, how the offsets measured by round trips compare
-- with the true seeded ones: {text, holds}.
function M.statements(rows)
  local errs, lo, hi = {}, math.huge, -math.huge
  for _, row in ipairs(rows) do
    errs[#errs + 1] = math.abs(row[8])
    lo, hi = math.min(lo, row[2]), math.max(hi, row[2])
  end
  table.sort(errs)
  local median = errs[math.floor((#errs + 1) / 2)]
  return {{holds = median < 0.1 * (hi - lo),
    text = string.format("offsets measured by round trips (queueing included): median absolute error %.0f ns, %.2f%% of the seeded skew range %.0f ns (want < 10%%), worst %.0f ns",
      median, 100 * median / (hi - lo), hi - lo, errs[#errs])}}
end

function M.run(opts)
  opts = opts or {}
  local full, truth, ios = estimate(opts)
  local measured = measure(opts)
  local links = estimate(opts, {io_latency_ns = true, io_ns_per_byte = true, comm_latency_ns = true, comm_ns_per_byte = true})
  local rows, xs, ts, es, ls = {}, {}, {}, {}, {}
  local worst = {full = 0, links = 0}
  for io = 0, ios - 1 do
    rows[#rows + 1] = {io, truth[io], full[io], full[io] - truth[io], links[io], links[io] - truth[io],
      measured[io], measured[io] - truth[io]}
    xs[#xs + 1], ts[#ts + 1], es[#es + 1], ls[#ls + 1] = io, truth[io] / 1e3, full[io] / 1e3, links[io] / 1e3
    worst.full = math.max(worst.full, math.abs(full[io] - truth[io]))
    worst.links = math.max(worst.links, math.abs(links[io] - truth[io]))
  end
  local dir = C.dir(opts)
  local out = {rows = rows, worst = worst, statements = M.statements(rows)}
  out.csv = C.csv(dir .. "/clock_skew.csv", {"io_node", "true_offset_ns", "estimated_ns", "error_ns",
    "estimated_links_only_ns", "error_links_only_ns", "measured_ns", "error_measured_ns"}, rows)
  out.svg = C.figure("lines", {file = dir .. "/clock_skew.svg", title = "Daemon clock offsets: true and found in the tree",
    x_label = "I/O node", y_label = "offset from the front-end (virtual us)",
    series = {{name = "true", x = xs, y = ts}, {name = "estimated (costs known)", x = xs, y = es},
      {name = "estimated (link latencies only)", x = xs, y = ls}}})
  return out
end

if arg and arg[0] and arg[0]:match("clock_skew%.lua$") then
  local r = M.run{dir = arg[1]}
  print("io_node,true_offset_ns,estimated_ns,error_ns,estimated_links_only_ns,error_links_only_ns,measured_ns,error_measured_ns")
  for _, row in ipairs(r.rows) do print(string.format("%d,%d,%.0f,%.0f,%.0f,%.0f,%.0f,%.0f", unpack(row))) end
  for _, st in ipairs(r.statements) do print((st.holds and "holds: " or "does not hold: ") .. st.text) end
  print(string.format("largest error: %.0f ns knowing the costs, %.0f ns knowing link latencies only; wrote %s, %s",
    r.worst.full, r.worst.links, r.csv, r.svg))
end

return M
