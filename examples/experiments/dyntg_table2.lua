-- dyntg_table2: Table 2 of the DynTG paper — run time without instrumentation (baseline) and
-- with one module's action at one central location, and the overhead, for the counter,
-- timer and hwcounters modules on two applications; with how often the location ran and how
-- often per virtual second. All times are virtual (the simulated machine's), so the table is
-- the same every run. The counter counts at the location's entry; timer and hwcounters start
-- at its entry and stop at its exits (the pair of actions a region needs). Below the table it
-- prints, computed from this run, whether each of the paper's statements holds.
--   Run: go run ./cmd/dpclsh examples/experiments/dyntg_table2.lua
local C = dofile("examples/experiments/common.lua")
local M = {}

-- M.apps: the applications, their central location (a function run thousands of times per
-- virtual second on every rank, as sPPM's location was) and the full-size runs. jacobi's own
-- functions are all inlined, so its location is the MPI call of its halo exchange.
M.apps = {
  {name = "cg", exe = "examples/apps/bin/cg.elf", location = "dot", nodes = 64, args = {"256", "60"}},
  {name = "jacobi", exe = "examples/apps/bin/jacobi.elf", location = "MPI_Isend", nodes = 64, args = {"256", "100"}},
}

M.configs = {
  {name = "baseline"},
  {name = "counter", entry = "counter.count"},
  {name = "timer", entry = "timer.start", exit = "timer.stop"},
  {name = "hwcounters", entry = "hwcounters.start", exit = "hwcounters.stop"},
}

local function load()
  for _, r in ipairs(dpcl.load_modules{"counter", "timer", "hwcounters"}) do
    if not r.ok and not r.reason:find("already loaded", 1, true) then
      error("dyntg_table2: module " .. r.name .. ": " .. r.reason)
    end
  end
end

-- run1 runs one application under one configuration and returns its virtual run time (from
-- the start to the last rank's exit, ns) and the location's executions on rank 0.
function M.run1(a, cfg, o)
  local app = dpcl.launch(a.exe, {nodes = o.nodes or a.nodes, per_io = 64, args = o.args or a.args, quiet = true})
  local last = 0
  app:on("exit", function(ev) if ev.time_ns > last then last = ev.time_ns end end)
  if cfg.entry then app:act(cfg.entry, app:points(a.location, "entry")) end
  if cfg.exit then app:act(cfg.exit, app:points(a.location, "exit")) end
  local count
  if cfg.name == "counter" then
    for _, m in ipairs(app:modules()) do if m.name == "counter" then count = m end end
  end
  local t0 = app:now()
  app:start()
  local st = app:wait()
  if st.exited ~= app.size then error("dyntg_table2: " .. a.name .. " under " .. cfg.name .. " did not end cleanly") end
  local r = {ns = last - t0}
  if cfg.name == "counter" then
    r.executions = app:source_data(app:functions(a.location)[1].file, {context = ctx.single(app, 0)})
      .program_totals["counter.count"]
  end
  app:close()
  return r
end

function M.run(o)
  o = o or {}
  load()
  local rows, lines = {}, {}
  for _, a in ipairs(M.apps) do
    local t = {}
    for _, cfg in ipairs(M.configs) do t[cfg.name] = M.run1(a, cfg, o) end
    local base = t.baseline.ns
    local row = {app = a.name, location = a.location, ranks = o.nodes or a.nodes,
      executions = t.counter.executions, per_second = t.counter.executions / (base / 1e9)}
    for _, cfg in ipairs(M.configs) do
      row[cfg.name .. "_s"] = t[cfg.name].ns / 1e9
      if cfg.name ~= "baseline" then row[cfg.name .. "_pct"] = 100 * (t[cfg.name].ns - base) / base end
    end
    rows[#rows + 1] = row
  end
  local header = {"app", "location", "ranks", "executions", "per_second", "baseline_s", "counter_s", "timer_s",
    "hwcounters_s", "counter_pct", "timer_pct", "hwcounters_pct"}
  local csv_rows = {}
  for i, r in ipairs(rows) do
    csv_rows[i] = {}
    for j, h in ipairs(header) do csv_rows[i][j] = r[h] end
  end
  local csv = C.csv(C.dir(o) .. "/dyntg_table2.csv", header, csv_rows)
  lines[1] = "Table 2: run time (virtual ms) and overhead of the DynTG modules at one location"
  lines[2] = string.format("%-8s %-9s %9s %9s %9s %9s %8s %8s %8s %10s %10s", "app", "location", "baseline",
    "counter", "timer", "hwcount", "counter", "timer", "hwcount", "executions", "per vsec")
  for _, r in ipairs(rows) do
    lines[#lines + 1] = string.format("%-8s %-9s %9.3f %9.3f %9.3f %9.3f %7.2f%% %7.2f%% %7.2f%% %10d %10.0f",
      r.app, r.location, r.baseline_s * 1e3, r.counter_s * 1e3, r.timer_s * 1e3, r.hwcounters_s * 1e3,
      r.counter_pct, r.timer_pct, r.hwcounters_pct, r.executions, r.per_second)
  end
  local statements = M.statements(rows)
  for _, st in ipairs(statements) do
    lines[#lines + 1] = (st.holds and "holds: " or "does not hold: ") .. st.text
  end
  return {rows = rows, lines = lines, csv = csv, statements = statements}
end

-- M.statements checks, on this run's rows, what the paper's Table 2 shows: {text, holds}
-- per statement, the text naming the measured numbers.
function M.statements(rows)
  local order, often, apps = true, true, {}
  for _, r in ipairs(rows) do
    order = order and r.counter_pct > 0 and r.counter_pct < r.timer_pct and r.timer_pct < r.hwcounters_pct
    often = often and r.per_second >= 1000
    apps[#apps + 1] = string.format("%s %.2f%% < %.2f%% < %.2f%%, %.0f/vs", r.app, r.counter_pct, r.timer_pct,
      r.hwcounters_pct, r.per_second)
  end
  local seen = table.concat(apps, "; ")
  return {
    {holds = order, text = "every module adds run time, counter less than timer less than hwcounters (" .. seen .. ")"},
    {holds = often, text = "the location runs thousands of times per virtual second (" .. seen .. ")"},
  }
end

if arg and arg[0] and arg[0]:match("dyntg_table2%.lua$") then
  for _, l in ipairs(M.run().lines) do print(l) end
end

return M
