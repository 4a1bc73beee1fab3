-- Tests of examples/trace/one_liners.lua: each README one-liner's maps equal what a script
-- written by hand with the existing API (arrays, probe.send, callbacks) gives, at 1, 7 and
-- 64 ranks.
local one = dofile("examples/trace/one_liners.lua")
local SIZES = {1, 7, 64}
local quiet = function() end

local function launch(name, nodes)
  return dpcl.launch(one.programs[name].exe, {nodes = nodes, per_io = 8, quiet = true})
end

-- hand_calls counts each MPI function's entries with an array of its own, read from every
-- rank's memory at the end and added up.
local function hand_calls(nodes, name)
  local app = launch(name or "calls", nodes)
  local arrays = {}
  for _, fn in ipairs(app:functions("MPI_*")) do
    local ok, pts = pcall(app.points, app, fn.name, "entry")
    if ok and #pts > 0 then
      local a = app:array("int", 1)
      app:install(pts, a:set(0, a[0] + 1)):activate()
      arrays[fn.name] = a
    end
  end
  app:start()
  app:wait()
  local out = {}
  for name, a in pairs(arrays) do
    local n = 0
    for r = 0, nodes - 1 do n = n + a:read(r)[1] end
    if n > 0 then out[name] = n end
  end
  app:close()
  return out
end

function TestCallCountsEqualHandWritten(t)
  for _, n in ipairs(SIZES) do
    local got = one.run("calls", {nodes = n, out = quiet}).maps[""]
    local want = hand_calls(n)
    t:eq(got, want, n .. " ranks")
    t:eq(got.MPI_Init, n, n .. " ranks: one MPI_Init per rank")
  end
end

-- log2_bucket is hist()'s bucket (1-based) of x, computed in Lua.
local function hist_bucket(x)
  if x < 0 then return 1 end
  if x == 0 then return 2 end
  local b = 0
  while 2 ^ (b + 1) <= x do b = b + 1 end
  return b + 3
end

-- hand_bytes sends every MPI_Send's rank and count to the front-end and builds the
-- histograms there.
local function hand_bytes(nodes)
  local app = launch("bytes", nodes)
  local out = {}
  app:install(app:points("MPI_Send", "entry"), probe.send(probe.rank(), probe.arg(1)), {
    print = false,
    callback = function(m)
      local key = string.format("%d", m.values[1])
      out[key] = out[key] or {}
      local b = hist_bucket(m.values[2] * 4)
      out[key][b] = (out[key][b] or 0) + 1
    end}):activate()
  app:start()
  app:wait()
  app:close()
  return out
end

-- nonzero keeps a histogram's non-empty buckets.
local function nonzero(maps)
  local out = {}
  for key, b in pairs(maps) do
    out[key] = {}
    for i, c in ipairs(b) do if c > 0 then out[key][i] = c end end
  end
  return out
end

function TestBytesHistogramEqualsHandWritten(t)
  for _, n in ipairs(SIZES) do
    local got = one.run("bytes", {nodes = n, out = quiet}).maps.bytes
    t:eq(nonzero(got), hand_bytes(n), n .. " ranks")
  end
end

-- The bucket code at the ranks against Lua's, on values that cover every kind of bucket:
-- negative, zero, one, and powers of two up to 2^40 and their neighbours.
function TestHistBucketsAtTheRanks(t)
  local app = dpcl.launch("examples/apps/bin/ring.elf", {nodes = 64, per_io = 8, quiet = true})
  local r = dpcl.trace(app, [[
MPI_Init:entry { @h[rank] = hist((rank - 2) << (rank / 3)); @l = lhist(rank * 3 - 20, 0, 150, 10) }]],
    {out = quiet})
  app:close()
  for rank = 0, 63 do
    local x = (rank - 2) * 2 ^ math.floor(rank / 3)
    local want = {[hist_bucket(x)] = 1}
    t:eq(nonzero({r.maps.h[tostring(rank)]})[1], want, "rank " .. rank .. ": x = " .. x)
  end
  local want = {}
  for rank = 0, 63 do
    local x = rank * 3 - 20
    local b = x < 0 and 1 or x >= 150 and 17 or math.floor(x / 10) + 2
    want[b] = (want[b] or 0) + 1
  end
  t:eq(nonzero(r.maps.l)[""], want, "lhist")
end

-- The timing examples are checked against scripts installed on the same run: nsecs and
-- probe.point_timebase are the time base as the trampoline read it on arrival at the
-- point, before it saves what any snippet uses, so every snippet at a point sees one time
-- and both measure the same calls to the nanosecond. (Run apart, the two differ by a few
-- ns a call: the exit's code differs, a send there, a slot of rank memory here, and its
-- cycles move the rank's later calls in virtual time, which the MPI engine's timing of the
-- next MPI_Wait sees.)
local function ns() return probe.point_timebase() * probe.int64(10) / probe.int64(7) end

-- hand_wait times MPI_Wait per rank with a variable at entry and a send at exit, both in
-- ns computed at the rank (700 MHz ticks * 10 / 7), as nsecs is; its result is ready
-- once the job ended.
local function hand_wait(app)
  local start = app:var("int64")
  app:install(app:points("MPI_Wait", "entry"), start:assign(ns())):activate()
  local out = {}
  app:install(app:points("MPI_Wait", "exit"), probe.send(ns() - start, probe.rank()), {
    print = false,
    callback = function(m)
      local key = string.format("%d", m.values[2])
      local s = out[key] or {count = 0, average = 0, total = 0}
      s.count, s.total = s.count + 1, s.total + m.values[1]
      s.average = math.floor(s.total / s.count)
      out[key] = s
    end}):activate()
  return out
end

function TestWaitStatsEqualHandWritten(t)
  for _, n in ipairs(SIZES) do
    local want
    local got = one.run("wait", {nodes = n, out = quiet, with = function(app) want = hand_wait(app) end}).maps.wait_ns
    t:eq(got, want, n .. " ranks")
    t:ok(next(want) ~= nil, n .. " ranks: MPI_Wait was timed")
  end
end

-- hand_wait_stack times MPI_Wait by call stack: the entry keeps the time, the exit sends
-- the interval with probe.ustack(8), and the front-end names the frames (app:symbolize)
-- and adds the intervals up by stack.
local function hand_wait_stack(app)
  local start = app:var("int64")
  app:install(app:points("MPI_Wait", "entry"), start:assign(ns())):activate()
  local out = {}
  app:install(app:points("MPI_Wait", "exit"), probe.send(ns() - start, probe.ustack(8)), {
    print = false,
    callback = function(m)
      local pcs = {}
      for i = 2, #m.values do pcs[#pcs + 1] = m.values[i] end
      local key = table.concat(app:symbolize(pcs), "\n")
      local s = out[key] or {count = 0, average = 0, total = 0}
      s.count, s.total = s.count + 1, s.total + m.values[1]
      s.average = math.floor(s.total / s.count)
      out[key] = s
    end}):activate()
  return out
end

function TestWaitByStackEqualsHandWritten(t)
  for _, n in ipairs(SIZES) do
    local lines, want = {}, nil
    local got = one.run("wait_stack", {nodes = n, with = function(app) want = hand_wait_stack(app) end,
      out = function(text)
        for l in (text .. "\n"):gmatch("([^\n]*)\n") do lines[#lines + 1] = l end
      end}).maps.wait_ns
    t:eq(got, want, n .. " ranks")
    t:ok(next(want) ~= nil, n .. " ranks: MPI_Wait was timed")
    -- printed as bpftrace prints a stack: "@wait_ns[", one indented frame a line, "]: ..."
    t:eq(lines[1], "@wait_ns[", n .. " ranks: first line")
    t:ok((lines[2] or ""):match("^    main%+0x%x+ %(ring%.c:%d+%)$") ~= nil, n .. " ranks: innermost frame " .. tostring(lines[2]))
    local close
    for _, l in ipairs(lines) do if l:match("^%]: count %d+") then close = l end end
    t:ok(close ~= nil, n .. " ranks: a line \"]: count ...\" closes the key")
  end
end

-- A stack map keeps T.STACKS stacks per rank; a stack key with other parts, and stacks
-- cut short by ustack(N), merge by stack and key across ranks.
function TestStackKeysWithRankAndDepth(t)
  local app = dpcl.launch("examples/apps/bin/ring.elf", {nodes = 7, per_io = 8, quiet = true})
  local r = dpcl.trace(app, [[
MPI_Recv:entry { @r[ustack(1), rank] = count(); @all[ustack(2)] = count() }]], {out = quiet})
  app:close()
  local by = {}
  for k, v in pairs(r.maps.r) do by[#by + 1] = k .. " = " .. v end
  table.sort(by)
  -- rank 0 receives at ring.c:33 (10 laps), ranks 1..6 at ring.c:39 (10 laps each)
  t:eq(#by, 7, "keys: " .. table.concat(by, "; "))
  for _, k in ipairs(by) do
    local line, rank, n = k:match("^main%+0x%x+ %(ring%.c:(%d+)%), (%d) = (%d+)$")
    t:eq({line, n}, {rank == "0" and "33" or "39", "10"}, k)
  end
  local total = 0
  for k, v in pairs(r.maps.all) do
    total = total + v
    t:ok(select(2, k:gsub("\n", "")) == 1, "two frames: " .. k)
  end
  t:eq(total, 70, "every MPI_Recv once")
end

-- hand_intervals counts each MPI function's entries in a compact array indexed by point
-- (one entry point per function) and sends it whole every 100 µs from a phase of its own,
-- summed by the "sum" filter; an interval is the difference of two firings' sums, and
-- what the ranks hold at the end past the last firing every rank ran is the remainder.
local function hand_intervals(app, nodes)
  -- the entries of the MPI functions some code calls (a send carries at most 256 values
  -- and libmpi has more functions than that; one the trace counts outside these shows as
  -- a difference)
  local called, pts = {}, {}
  for _, c in ipairs(app:points("*", "call")) do
    if type(c.target) == "string" and c.target:match("^MPI_") then called[c.target] = true end
  end
  for _, pt in ipairs(app:points("MPI_*", "entry")) do
    if called[pt.func] then pts[#pts + 1] = pt end
  end
  assert(#pts <= 256, #pts .. " MPI functions are called: more than one send carries")
  local compact = app:array("int64", #pts)
  local p = probe.point()
  app:install(pts, compact:set(p, compact[p] + 1)):activate()
  local firings, partial = {}, false
  app:phase(100e-6, probe.send(compact), {filter = "sum", print = false, callback = function(m)
    -- a firing some rank missed (it had exited) and every later one fold into the end's
    partial = partial or m.count < nodes
    if not partial then firings[#firings + 1] = m.values end
  end})
  return function()
    local totals = {}
    for i = 1, #pts do
      totals[i] = 0
      for r = 0, nodes - 1 do totals[i] = totals[i] + compact:read(r)[i] end
    end
    local out, before = {}, {}
    for k, f in ipairs(firings) do
      local iv = {}
      for i, pt in ipairs(pts) do
        local d = f[i] - (before[i] or 0)
        if d ~= 0 then iv[pt.func] = d end
      end
      out[k] = iv
      before = f
    end
    local rest = {}
    for i, pt in ipairs(pts) do
      if totals[i] ~= (before[i] or 0) then rest[pt.func] = totals[i] - (before[i] or 0) end
    end
    out[#out + 1] = rest
    return out
  end
end

-- Each interval's counts per function, as the tree merged them, equal the hand-written
-- phase's on the same run (the two phases fire at the same boundaries, where each rank
-- runs both snippets), and the intervals and the remainder add up to every call.
function TestIntervalCountsEqualHandWritten(t)
  for _, n in ipairs(SIZES) do
    local lines, hand = {}, nil
    local r = one.run("intervals", {nodes = n, out = function(l) lines[#lines + 1] = l end,
      with = function(app) hand = hand_intervals(app, n) end})
    local got = {}
    for k, iv in ipairs(r.intervals) do got[k] = iv[""] end
    got[#got + 1] = r.maps[""]
    local want = hand()
    if n < 64 then
      t:eq(got, want, n .. " ranks")
    else
      -- A firing is a command through the tree, and a daemon takes daemon_cmd_rank_ns of
      -- virtual time per rank per command while the job runs: the trace's phase and the
      -- hand phase reach a rank that runs at the boundary one after the other, and at 64
      -- ranks it may enter one more MPI call in between. Each interval agrees within one
      -- call per function, and the totals below exactly.
      t:eq(#got, #want, n .. " ranks: intervals")
      for k = 1, math.min(#got, #want) do
        local keys = {}
        for f in pairs(got[k]) do keys[f] = true end
        for f in pairs(want[k]) do keys[f] = true end
        for f in pairs(keys) do
          local d = math.abs((got[k][f] or 0) - (want[k][f] or 0))
          t:ok(d <= 1, string.format("%d ranks, interval %d, %s: %d against %d", n, k, f, got[k][f] or 0, want[k][f] or 0))
        end
      end
    end
    t:ok(#got >= 4, n .. " ranks: " .. #got .. " intervals")
    local marks = 0
    for _, l in ipairs(lines) do if l == "--" then marks = marks + 1 end end
    t:eq(marks, #r.intervals, n .. " ranks: the block's printf once an interval")
    local sum = {}
    for _, iv in ipairs(got) do for k, c in pairs(iv) do sum[k] = (sum[k] or 0) + c end end
    t:eq(sum, hand_calls(n, "intervals"), n .. " ranks: the intervals add up to every call")
  end
end

-- hand_profile samples with app:sample and counts by function with prof:top. The
-- example's rate and run are cut down here (jacobi, 9999 Hz) to keep the test quick; the
-- sampler takes one frame, as profile:hz:N asks it to.
local PROFILE = {args = {"16", "2"}, exe = "examples/apps/bin/jacobi.elf", hz = 9999}

local function hand_profile(nodes)
  local app = dpcl.launch(PROFILE.exe, {nodes = nodes, per_io = 8, quiet = true, args = PROFILE.args})
  local prof = app:sample{hz = PROFILE.hz, stack = 1}
  app:start()
  app:wait()
  local out = {}
  for _, row in ipairs(prof:top(1e9)) do out[row.func] = row.samples end
  app:close()
  return out
end

function TestProfileByFunctionEqualsHandWritten(t)
  for _, n in ipairs(SIZES) do
    local r = one.run("profile", {nodes = n, out = quiet, exe = PROFILE.exe, args = PROFILE.args,
      program = "profile:hz:" .. PROFILE.hz .. " { @[func] = count() }"})
    local want = hand_profile(n)
    t:eq(r.maps[""], want, n .. " ranks")
    t:ok(next(want) ~= nil, n .. " ranks: some samples")
  end
end

function TestLineCountersEqualHandWritten(t)
  local line_points = dofile("examples/probes/line_points.lua")
  for _, n in ipairs(SIZES) do
    local got = one.run("lines", {nodes = n, out = quiet}).maps[""]
    local hand = line_points.run{nodes = n}
    hand.app:close()
    for _, l in ipairs(line_points.lines) do
      local total = 0
      for r = 0, n - 1 do total = total + hand.counts[l.line][r] end
      t:eq(got["lines.c:" .. l.line], total, n .. " ranks: line " .. l.line)
      t:eq(total, l.runs * n, n .. " ranks: line " .. l.line .. " as the source says")
    end
  end
end
