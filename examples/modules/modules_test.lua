-- Tests of the shipped modules against independent computations: the timer's inclusive
-- times and hwcounters' events equal the interpreter's counters read by separate probes at
-- the same points (the reference probe is installed first at each point, with the same code
-- everywhere, so its reads precede the module's by a constant); the counter column of
-- app:source equals a line-point count of the same lines.
dpcl.load_modules{"counter", "timer", "hwcounters",
  params = {hwcounters = {events = {"PAPI_TOT_INS", "PAPI_TOT_CYC"}}}}

local function module_data(app, name)
  for _, m in ipairs(app:modules()) do
    if m.name == name then return m.data end
  end
end

-- regions returns the start and stop points of timers.c: the calls of timer_start and
-- timer_stop (one site per call site) and fib's entry and exits (recursive).
local function regions(app)
  local starts, stops = {}, {}
  for _, p in ipairs(app:points("*", "call")) do
    if p.target == "timer_start" then starts[#starts + 1] = p end
    if p.target == "timer_stop" then stops[#stops + 1] = p end
  end
  for _, p in ipairs(app:points("fib", "entry")) do starts[#starts + 1] = p end
  for _, p in ipairs(app:points("fib", "exit")) do stops[#stops + 1] = p end
  return starts, stops
end

-- reference logs (counter values..., point number) at every point into rank memory.
local function reference(app, points, counters)
  local width = #counters + 1
  local log = app:array("int64", 40000, "reference_log")
  local n = app:var("int")
  local vals = {}
  for i = 1, #counters do vals[i] = app:var("int64") end
  for k, p in ipairs(points) do
    local seq = {}
    for i, c in ipairs(counters) do seq[#seq + 1] = vals[i]:assign(probe.counter(c)) end
    for i = 1, #counters do seq[#seq + 1] = log[n + (i - 1)]:assign(vals[i]) end
    seq[#seq + 1] = log[n + #counters]:assign(k)
    seq[#seq + 1] = n:assign(n + width)
    app:install({p}, probe.seq(seq)):activate()
  end
  return function(rank)
    local raw, out = log:read(rank), {}
    for i = 1, #raw, width do
      if raw[i + #counters] == 0 then break end
      local e = {point = raw[i + #counters]}
      for j = 1, #counters do e[j] = raw[i + j - 1] end
      out[#out + 1] = e
    end
    return out
  end
end

-- inclusive matches the logged starts and stops with a stack, as the timer module should,
-- and sums stop - start per start point, for each counter.
local function inclusive(events, is_start, ncounters)
  local stack, sum = {}, {}
  for _, e in ipairs(events) do
    if is_start[e.point] then
      stack[#stack + 1] = e
    else
      local s = table.remove(stack)
      sum[s.point] = sum[s.point] or {}
      for j = 1, ncounters do sum[s.point][j] = (sum[s.point][j] or 0) + e[j] - s[j] end
    end
  end
  return sum, #stack
end

local function run_regions(t, exe, start_action, stop_action, counters)
  local app = dpcl.launch(exe, {nodes = 2, quiet = true})
  local starts, stops = regions(app)
  t:eq(#starts, 4, exe .. ": three timer_start calls and fib's entry")
  local all, is_start = {}, {}
  for _, p in ipairs(starts) do all[#all + 1] = p; is_start[#all] = true end
  for _, p in ipairs(stops) do all[#all + 1] = p end
  local read = reference(app, all, counters)
  local site = {}
  for k, p in ipairs(all) do
    local a = app:act(is_start[k] and start_action or stop_action, {p})
    site[k] = a.sites[1]
  end
  app:start()
  t:eq(app:wait().exited, 2)
  return app, read, site, is_start
end

function TestTimerInclusiveTimesEqualCycleCounts(t)
  for _, exe in ipairs{"probes/testdata/timers-O0.elf", "probes/testdata/timers-O2.elf"} do
    local app, read, site, is_start = run_regions(t, exe, "timer.start", "timer.stop", {"cycles"})
    local data = module_data(app, "timer")
    for rank = 0, 1 do
      local want, open = inclusive(read(rank), is_start, 1)
      t:eq(open, 0, exe .. ": every region closed")
      local ticks, calls = data.ticks:read(rank), data.calls:read(rank)
      local regions = 0
      for k in pairs(is_start) do
        t:ok(want[k] and want[k][1] > 0, exe .. ": region " .. k .. " ran")
        t:eq(ticks[site[k] + 1], want[k][1], exe .. " rank " .. rank .. ": inclusive ticks of region " .. k)
        regions = regions + calls[site[k] + 1]
      end
      local stops = 0
      for _, e in ipairs(read(rank)) do if not is_start[e.point] then stops = stops + 1 end end
      t:eq(regions, stops, exe .. ": one timed region per stop")
      if exe:find("O0") then
        t:eq(regions, 4 * 2 + 4 * 2 + (25 + 41) * 2, "timers.c at -O0: 2 regions and 2 inner per rep, fib's calls")
      end
      t:eq(data.unmatched:read(rank)[1], 0)
    end
    -- The time column is the same in seconds, summed over the ranks.
    local d = app:source_data("timers.c")
    local total = 0
    for rank = 0, 1 do for _, v in ipairs(data.ticks:read(rank)) do total = total + v end end
    t:eq(math.floor(d.program_totals["timer.time"] * dpcl.timebase_hz + 0.5), total)
    app:close()
  end
end

function TestHwcountersEqualTheInterpretersCounters(t)
  local app, read, site, is_start = run_regions(t, "probes/testdata/timers-O2.elf",
    "hwcounters.start", "hwcounters.stop", {"instructions", "cycles"})
  local data = module_data(app, "hwcounters")
  t:eq(data.placed, {PAPI_TOT_INS = "pmc1", PAPI_TOT_CYC = "pmc0"})
  local src = {}
  for _, s in ipairs(app:modules()[3].sources) do src[#src + 1] = s.name end
  t:eq(src, {"hwcounters.PAPI_TOT_INS", "hwcounters.PAPI_TOT_CYC"})
  for rank = 0, 1 do
    local want = inclusive(read(rank), is_start, 2)
    local d = app:source_data("timers.c", {context = ctx.single(app, rank)})
    -- per start line (two starts may share one), the module's columns against the reference
    local by_line = {}
    for k in pairs(is_start) do
      local l = app:acts()[k].line
      by_line[l] = by_line[l] or {0, 0}
      by_line[l][1], by_line[l][2] = by_line[l][1] + want[k][1], by_line[l][2] + want[k][2]
    end
    for l, v in pairs(by_line) do
      t:eq(d.lines[l].values["hwcounters.PAPI_TOT_INS"], v[1], "instructions at timers.c:" .. l)
      t:eq(d.lines[l].values["hwcounters.PAPI_TOT_CYC"], v[2], "cycles at timers.c:" .. l)
    end
  end
  app:close()
end

function TestSourceCountsMatchLinePointCounts(t)
  local app = dpcl.launch("examples/apps/bin/cg.elf", {nodes = 4, args = {"24", "6"}, quiet = true})
  local lines = {57, 59, 61, 72, 105, 110}
  local ref = {}
  for _, l in ipairs(lines) do
    local pts = app:points("cg.c:" .. l)
    ref[l] = app:array("int64", 1)
    app:install(pts, ref[l][0]:assign(ref[l][0] + 1)):activate()
    app:act("counter.count", pts)
  end
  app:start()
  t:eq(app:wait().exited, 4)
  local function sum_ref(l, ranks)
    local s = 0
    for _, r in ipairs(ranks) do s = s + ref[l]:read(r)[1] end
    return s
  end
  for _, c in ipairs{{nil, {0, 1, 2, 3}}, {ctx.single(app, 2), {2}}} do
    local d = app:source_data("cg.c", {context = c[1]})
    t:eq(d.columns[1], {name = "counter.count", unit = "count", agg = "sum"})
    local file = 0
    for _, l in ipairs(lines) do
      local want = sum_ref(l, c[2])
      t:ok(want > 0, "cg.c:" .. l .. " runs")
      t:eq(d.lines[l].values["counter.count"], want, "cg.c:" .. l)
      t:eq(d.lines[l].instrumentable, true)
      file = file + want
    end
    t:eq(d.file_totals["counter.count"], file)
    t:eq(d.program_totals["counter.count"], file)
    for _, f in ipairs(d.functions) do
      local s = 0
      for _, l in ipairs(lines) do
        if l >= f.first and l <= f.last then s = s + sum_ref(l, c[2]) end
      end
      if f.name == "matvec" or f.name == "dot" or f.name == "iterate" then
        t:eq(f.values["counter.count"], s, "function " .. f.name)
      end
    end
    t:eq(d.lines[52].instrumentable, false, "a blank line has no code")
    t:eq(d.lines[52].values["counter.count"], nil)
  end
  local printed = {}
  app:source("cg.c", {from = 55, to = 58, out = function(s) printed[#printed + 1] = s end})
  local text = table.concat(printed, "\n")
  t:ok(text:find("counter.count", 1, true), text)
  t:ok(text:find("   57: +" .. sum_ref(57, {0, 1, 2, 3}) .. " ") ~= nil, text)
  -- The header says the unit and how ranks combine; every row's values start in one column.
  t:ok(text:find("count, total", 1, true), text)
  local function value_end(prefix)
    for line in text:gmatch("[^\n]+") do
      if line:sub(1, #prefix) == prefix then
        local _, e = line:find("%d+", #prefix + 1)
        return e
      end
    end
  end
  t:eq(value_end("   57:"), value_end("program"), "line 57's count ends under the program's")
  app:close()
end

function TestSourceViewExample(t)
  local out = {}
  local r = dofile("examples/dyntg_source.lua").run{out = function(s) out[#out + 1] = s end}
  t:eq(r.status.exited, 4)
  local text = table.concat(out, "\n")
  t:ok(text:find("matvec (26-62)", 1, true), text)
  t:ok(text:find("timer.calls", 1, true), text)
  r.app:close()
end

function TestFollowReprintsAsTheDataChange(t)
  local app = dpcl.launch("examples/apps/bin/cg.elf", {nodes = 2, args = {"24", "20"}, quiet = true})
  app:act("counter.count", "cg.c:57")
  app:start()
  local printed = {}
  app:source("cg.c", {follow = true, interval = 0.0001, from = 57, to = 57,
    out = function(s) printed[#printed + 1] = s end})
  t:eq(app:status(), "exited")
  local counts = {}
  for _, s in ipairs(printed) do
    local n = s:match("\n%s+57:%s+(%d+)")
    if n then counts[#counts + 1] = tonumber(n) end
  end
  t:ok(#counts >= 3, "reprinted while the job ran: " .. #counts .. " prints")
  for i = 2, #counts do t:ok(counts[i] > counts[i - 1], "counts grow: " .. table.concat(counts, " ")) end
  t:eq(counts[#counts], app:source_data("cg.c").lines[57].values["counter.count"])
  t:error(function() app:source("cg.c", {interval = 0}) end, "interval must be a positive number")
  app:close()
end

function TestActWhileTheJobRuns(t)
  local app = dpcl.launch("examples/apps/bin/cg.elf", {nodes = 2, args = {"24", "20"}, quiet = true})
  app:start()
  dpcl.sleep(0.0005)
  t:eq(app:status(), "running")
  app:act("counter.count", "cg.c:57")
  app:wait()
  -- 24 x 24 unknowns, 21 matrix-vector products: the action saw only the later ones.
  local n = app:source_data("cg.c").lines[57].values["counter.count"]
  t:ok(n > 0 and n < 24 * 24 * 21, "counted from the insertion on: " .. n)
  app:close()
end
