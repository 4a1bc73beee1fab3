-- limpio.lua: MPI profiling of unmodified static binaries by dynamic instrumentation, in the
-- manner of Limpio (start/end hooks on every MPI_* function), written over the public API.
-- Counts and times live in the ranks' memory (probe arrays indexed by probe.func()); nothing
-- is sent per call, and the front-end reads them once when asked.
local format, concat, sort = string.format, table.concat, table.sort

local limpio = {}

-- warn reports a problem that does not stop the run; the host points it at its stderr.
function limpio.warn(s)
  io.stderr:write(s, "\n")
end

-- mpi_functions lists the program's MPI_* functions; app:functions raises when none match.
local function mpi_functions(app)
  local ok, fns = pcall(app.functions, app, "MPI_*")
  if not ok or #fns == 0 then
    error("limpio: the program has no MPI functions to instrument (no MPI_* symbols)", 4)
  end
  return fns
end

-- excludes merges opts.exclude with MPIINSTR_EXCLUDE (comma-separated) of the job's env.
local function excludes(app, opts, warn)
  local set, names = {}, {}
  for _, n in ipairs(opts.exclude or {}) do names[#names + 1] = n end
  local env = opts.env or {}
  local ev = env.MPIINSTR_EXCLUDE
  if ev then
    for n in ev:gmatch("[^,%s]+") do names[#names + 1] = n end
  end
  local known = {}
  for _, fn in ipairs(mpi_functions(app)) do known[fn.name] = true end
  for _, n in ipairs(names) do
    if not known[n] then
      warn(format("limpio: exclude %q is not an MPI function of the program; ignored", n))
    else
      set[n] = true
    end
  end
  return set
end

-- mpi_points returns the entry and exit points of every MPI_* function not excluded.
local function mpi_points(app, ex)
  local entry, exit, names = {}, {}, {}
  for _, fn in ipairs(mpi_functions(app)) do
    if not ex[fn.name] then
      names[#names + 1] = fn.name
      for _, p in ipairs(app:points(fn.name, "entry")) do entry[#entry + 1] = p end
      for _, p in ipairs(app:points(fn.name, "exit")) do exit[#exit + 1] = p end
    end
  end
  if #entry == 0 then
    error("limpio: the program has no MPI functions to instrument (no MPI_* symbols)", 3)
  end
  return entry, exit, names
end

function limpio.hooks(app, opts)
  opts = opts or {}
  local warn = opts.warn or limpio.warn
  local entry, exit, names = mpi_points(app, excludes(app, opts, warn))
  local io_ = {context = opts.context}
  local send = {context = opts.context, callback = opts.callback}
  local h = {names = names}
  if opts.start then
    h.start = app:install(entry, opts.start, io_)
    h.start:activate()
  end
  if opts.finish then
    h.finish = app:install(exit, opts.finish, send)
    h.finish:activate()
  end
  return h
end

local Profile = {}
Profile.__index = Profile

function limpio.profile(app, opts)
  opts = opts or {}
  local nf = #app:functions("*")
  local calls = app:array("int", nf, "limpio_calls")
  local ticks = app:array("int64", nf, "limpio_ticks")
  local span = app:array("int64", 2, "limpio_span")
  local timers = app:stack("int64", opts.depth or 16, "limpio_timers")
  local f, tb = probe.func(), probe.timebase()
  local init_id
  for i, fn in ipairs(app:functions("*")) do
    if fn.name == "MPI_Init" then init_id = i - 1 end
  end
  local start = probe.seq{timers:push(tb), span[1]:assign(tb)}
  if init_id then
    start = probe.seq{timers:push(tb), span[1]:assign(tb),
      probe.when(f:eq(init_id), span[0]:assign(tb))}
  end
  local hk = limpio.hooks(app, {
    exclude = opts.exclude, env = opts.env, context = opts.context, warn = opts.warn,
    start = start,
    finish = probe.seq{
      ticks[f]:assign(ticks[f] + (tb - timers:pop())),
      calls[f]:assign(calls[f] + 1),
      span[1]:assign(tb),
    },
  })
  return setmetatable({app = app, calls = calls, ticks = ticks, span = span, timers = timers,
    names = hk.names, hooks = hk, nf = nf}, Profile)
end

-- snapshot reads every rank's counters now: rows[rank] = {calls = {name = n}, ticks = ...}.
function Profile:snapshot()
  local app, rows = self.app, {}
  local id = {}
  for i, fn in ipairs(app:functions("*")) do id[fn.name] = i end
  for r = 0, app.size - 1 do
    local c, t, s = self.calls:read(r), self.ticks:read(r), self.span:read(r)
    local row = {rank = r, calls = {}, ticks = {}, total_ticks = s[2] - s[1], mpi_ticks = 0, ncalls = 0}
    for _, name in ipairs(self.names) do
      local i = id[name]
      row.calls[name], row.ticks[name] = c[i], t[i]
      row.ncalls = row.ncalls + c[i]
    end
    for _, name in ipairs(self.names) do row.mpi_ticks = row.mpi_ticks + row.ticks[name] end
    rows[r] = row
  end
  self.rows = rows
  return rows
end

-- used lists the functions some rank called, in the program's order.
function Profile:used()
  local rows, out = self.rows or self:snapshot(), {}
  for _, name in ipairs(self.names) do
    for r = 0, self.app.size - 1 do
      if rows[r].calls[name] > 0 then out[#out + 1] = name; break end
    end
  end
  return out
end

local function pct(t, total)
  if total <= 0 then return 0 end
  return 100 * t / total
end

-- ranges prints a sorted list of ranks as "0-3,7".
local function ranges(rs)
  local out, i = {}, 1
  while i <= #rs do
    local j = i
    while j < #rs and rs[j + 1] == rs[j] + 1 do j = j + 1 end
    out[#out + 1] = (i == j) and tostring(rs[i]) or (rs[i] .. "-" .. rs[j])
    i = j + 1
  end
  local s = concat(out, ",")
  if #s > 28 then s = s:sub(1, 20):gsub(",[^,]*$", "") .. ",... (" .. #rs .. " ranks)" end
  return s
end

-- cells formats one row: count(pct%) per used function and the total.
local function cells(used, calls, ticks, total)
  local out, n, t = {}, 0, 0
  for _, name in ipairs(used) do
    out[#out + 1] = format("%d(%.1f%%)", calls[name], pct(ticks[name], total))
    n, t = n + calls[name], t + ticks[name]
  end
  out[#out + 1] = format("%d(%.1f%%)", n, pct(t, total))
  return out
end

-- lines builds Table I. Ranks with the same counts form one equivalence class, printed once
-- with its ranks listed; its percentages are the class's times over the class's total time.
function Profile:lines()
  local rows, used = self.rows or self:snapshot(), self:used()
  local classes, order = {}, {}
  local sumc, sumt, total = {}, {}, 0
  for _, name in ipairs(used) do sumc[name], sumt[name] = 0, 0 end
  for r = 0, self.app.size - 1 do
    local row, key = rows[r], {}
    for i, name in ipairs(used) do key[i] = row.calls[name] end
    key = concat(key, ",")
    local c = classes[key]
    if not c then
      c = {ranks = {}, calls = row.calls, ticks = {}, total = 0}
      for _, name in ipairs(used) do c.ticks[name] = 0 end
      classes[key] = c
      order[#order + 1] = key
    end
    c.ranks[#c.ranks + 1] = r
    c.total = c.total + row.total_ticks
    for _, name in ipairs(used) do
      c.ticks[name] = c.ticks[name] + row.ticks[name]
      sumc[name], sumt[name] = sumc[name] + row.calls[name], sumt[name] + row.ticks[name]
    end
    total = total + row.total_ticks
  end
  local head = {"Ranks"}
  for _, name in ipairs(used) do head[#head + 1] = name end
  head[#head + 1] = "Total"
  local grid = {head}
  for _, key in ipairs(order) do
    local c = classes[key]
    local line = {"#" .. ranges(c.ranks)}
    for _, cell in ipairs(cells(used, c.calls, c.ticks, c.total)) do line[#line + 1] = cell end
    grid[#grid + 1] = line
  end
  local tot = {"Total"}
  for _, cell in ipairs(cells(used, sumc, sumt, total)) do tot[#tot + 1] = cell end
  grid[#grid + 1] = tot
  local width = {}
  for _, line in ipairs(grid) do
    for i, cell in ipairs(line) do width[i] = math.max(width[i] or 0, #cell) end
  end
  local out = {}
  for _, line in ipairs(grid) do
    local s = {}
    for i, cell in ipairs(line) do s[i] = format(i == 1 and "%-" .. width[i] .. "s" or "%" .. width[i] .. "s", cell) end
    out[#out + 1] = concat(s, "  ")
  end
  return out, #order
end

function Profile:table(out)
  out = out or print
  local lines = self:lines()
  for _, l in ipairs(lines) do out(l) end
  return #lines
end

function Profile:csv(path)
  local rows, used = self.rows or self:snapshot(), self:used()
  local f = assert(io.open(path, "w"))
  local head = {"rank"}
  for _, name in ipairs(used) do head[#head + 1] = name .. "_calls"; head[#head + 1] = name .. "_s" end
  head[#head + 1] = "mpi_s"; head[#head + 1] = "total_s"
  f:write(concat(head, ","), "\n")
  for r = 0, self.app.size - 1 do
    local row, line = rows[r], {tostring(r)}
    for _, name in ipairs(used) do
      line[#line + 1] = tostring(row.calls[name])
      line[#line + 1] = format("%.9g", row.ticks[name] / dpcl.timebase_hz)
    end
    line[#line + 1] = format("%.9g", row.mpi_ticks / dpcl.timebase_hz)
    line[#line + 1] = format("%.9g", row.total_ticks / dpcl.timebase_hz)
    f:write(concat(line, ","), "\n")
  end
  f:close()
end

-- ratio: MPI time over total time per rank; master is rank 0, workers the rest.
function Profile:ratio()
  local rows, per = self.rows or self:snapshot(), {}
  local wsum, wn = 0, 0
  for r = 0, self.app.size - 1 do
    local row = rows[r]
    per[r] = row.total_ticks > 0 and row.mpi_ticks / row.total_ticks or 0
    if r > 0 then wsum, wn = wsum + per[r], wn + 1 end
  end
  return {per_rank = per, master = per[0], workers = wn > 0 and wsum / wn or nil}
end

package.loaded.limpio = limpio
_G.limpio = limpio
