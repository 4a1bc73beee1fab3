-- limpio.lua: MPI profiling of unmodified static binaries by dynamic instrumentation, in the
-- manner of Limpio (start/end hooks on every MPI_* function), written over the public API.
-- Counts and times live in the ranks' memory (probe arrays indexed by probe.func()); nothing
-- is sent per call. They are collected through the reduction tree: at each rank's exit (a
-- probe at _exit's entry) or on prof:snapshot() (app:execute), every rank sends its row and
-- the tree's eqclass filter collapses identical rows, so the front-end gets one row per
-- class of ranks, not one per rank. A job that ended with faulted ranks sent nothing
-- (the MPI engine ends the others before _exit): its rows are read from every rank's
-- memory instead (read_memory; prof.partial). limpio_table.lua formats what arrives.
local format = string.format

local limpio = {}

-- warn reports a problem that does not stop the run; the host points it at its stderr.
function limpio.warn(s)
  io.stderr:write(s, "\n")
end

-- write_file and check_write are dpcl's, raising "cannot write PATH: REASON" at the
-- user's call: depth counts the limpio functions between the user and these (error's
-- level 1 is at_user itself, 2 its caller), and the position of limpio.lua's own pcall
-- line in front of the message is dropped.
local function at_user(err, depth)
  error((tostring(err):gsub("^limpio%.lua:%d+: ", "", 1)), depth + 2)
end

function limpio.write_file(path, parts, depth)
  local ok, res = pcall(dpcl.write_file, path, parts)
  if not ok then at_user(res, depth + 1) end
  return res
end

function limpio.check_write(path, depth)
  local ok, err = pcall(dpcl.check_write, path)
  if not ok then at_user(err, depth + 1) end
end

-- mpi_functions lists the program's MPI_* functions; app:functions raises when none match.
local function mpi_functions(app)
  local ok, fns = pcall(app.functions, app, "MPI_*")
  if not ok or #fns == 0 then
    error("limpio: the program has no MPI functions to instrument (no MPI_* symbols)", 4)
  end
  return fns
end

-- excludes merges opts.exclude with MPIINSTR_EXCLUDE of the job's environment
-- (dpcl.launch's env; comma-separated, as Limpio reads it).
local function excludes(app, opts, warn)
  local set, names = {}, {}
  for _, n in ipairs(opts.exclude or {}) do names[#names + 1] = n end
  local ev = app:env("MPIINSTR_EXCLUDE")
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
    error("limpio: every MPI function of the program is excluded; nothing to instrument", 3)
  end
  return entry, exit, names
end

-- Installs is a list of probes made active with one app:install_all: every
-- point's code is placed once, where installs one after another placed a point's code
-- again with each earlier probe there (limpio.profile's many probes at _exit wrote it a
-- dozen times on every rank).
local Installs = {}
Installs.__index = Installs

function limpio.installs(app)
  return setmetatable({app = app, reqs = {}, done = {}}, Installs)
end

-- add queues a probe, to be placed active; done(h) receives its handle once installed.
function Installs:add(points, exp, opts, done)
  local o = {active = true, warn = false}
  for k, v in pairs(opts or {}) do o[k] = v end
  self.reqs[#self.reqs + 1] = {points, exp, o}
  self.done[#self.reqs] = done
end

-- run installs the queued probes, in order, active.
function Installs:run()
  if #self.reqs == 0 then return end
  local hs = self.app:install_all(self.reqs)
  for i, h in ipairs(hs) do
    if self.done[i] then self.done[i](h) end
  end
  self.reqs, self.done = {}, {}
end

-- hooks queues start at the entry and finish at every exit of each MPI function (in
-- opts.installs when given, for the caller to queue more and run; else installed now) and
-- returns the handles, the functions' names and their entry and exit points.
function limpio.hooks(app, opts)
  opts = opts or {}
  local warn = opts.warn or limpio.warn
  local entry, exit, names = mpi_points(app, excludes(app, opts, warn))
  local io_ = {context = opts.context}
  local send = {context = opts.context, callback = opts.callback}
  local h = {names = names, entry = entry, exit = exit}
  local batch = opts.installs or limpio.installs(app)
  if opts.start then
    batch:add(entry, opts.start, io_, function(hd) h.start = hd end)
  end
  if opts.finish then
    batch:add(exit, opts.finish, send, function(hd) h.finish = hd end)
  end
  if not opts.installs then batch:run() end
  return h
end

-- A call's interval is the function's own instructions, the same whichever tool measures
-- it: the clock is read at the entry as the last thing the last probe there does, after
-- every other entry probe's code (clock_in, queued after them), and at the exit as the
-- trampoline read it on arrival (probe.point_timebase), before any probe's code. So the
-- interval does not grow with what a tool's probes do at the entry or the exit.
function limpio.clock_in(batch, hk, timers, context, done)
  batch:add(hk.entry, timers:push(probe.timebase()), {context = context}, done)
end

-- exit_points is where a rank's data leaves it at the end: the entry of _exit, which exit()
-- and a return from main reach after MPI_Finalize, while the rank still exists.
function limpio.exit_points(app)
  for _, name in ipairs({"_exit", "_Exit"}) do
    local ok, pts = pcall(app.points, app, name, "entry")
    if ok and #pts > 0 then return pts end
  end
  error("limpio: the program has no _exit function where ranks could send their data at the end", 3)
end

local Profile = {}
Profile.__index = Profile
limpio.Profile = Profile

-- A row is what one rank sends: counts of the chunk's functions (the class key, with a
-- fingerprint of all counts first when the functions take more than one chunk), their
-- times, the rank's run time and its MPI time in parts per million of it. MAXCHUNK keeps
-- a row plus the rank within probe.send's 256 values.
local MAXCHUNK = 126
local PPM = 1000000

-- chunks splits the names into groups of at most size functions.
local function chunks(names, size)
  local out = {}
  for i = 1, #names, size do
    local c = {}
    for j = i, math.min(i + size - 1, #names) do c[#c + 1] = names[j] end
    out[#out + 1] = c
  end
  return out
end

-- row_exp builds the probe code that fills chunk ci's row array from the counters. The run
-- time is from the rank's first MPI entry to its last MPI exit, whenever it is collected.
function Profile:row_exp(ci)
  local c, row, id = self.chunks[ci], self.row_arrays[ci], self.id
  local calls, ticks, span = self.calls, self.ticks, self.span
  local off, g = self.fp and 1 or 0, #c
  local tot, ppm, mpi = off + 2 * g, off + 2 * g + 1, span[2]
  local s = {mpi:assign(0)}
  if self.fp and ci == 1 then
    s[#s + 1] = row[0]:assign(0)
    for i, name in ipairs(self.names) do
      s[#s + 1] = row[0]:assign(row[0] + calls[id[name]] * probe.int64(self.mult[i]))
    end
  elseif self.fp then
    -- The fingerprint is computed once, in the first chunk's row (filled first), and
    -- copied: a sum over every function in every chunk made the fill grow with functions
    -- x chunks, and each later install at _exit places the fill again.
    s[#s + 1] = row[0]:assign(self.row_arrays[1][0])
  end
  for j, name in ipairs(c) do
    s[#s + 1] = row[off + j - 1]:assign(calls[id[name]])
    s[#s + 1] = row[off + g + j - 1]:assign(ticks[id[name]])
  end
  for _, name in ipairs(self.names) do s[#s + 1] = mpi:assign(mpi + ticks[id[name]]) end
  s[#s + 1] = row[tot]:assign(span[1] - span[0])
  s[#s + 1] = row[ppm]:assign(0)
  s[#s + 1] = probe.when(row[tot]:gt(0), row[ppm]:assign(mpi * PPM / row[tot]))
  return probe.seq(s)
end

-- fill_exp fills every chunk's row at one moment.
function Profile:fill_exp()
  local s = {}
  for ci = 1, #self.chunks do s[ci] = self:row_exp(ci) end
  return probe.seq(s)
end

-- sends lists what a collection sends, in order: per chunk the class row (eqclass over the
-- chunk's counts), then per chunk the rank and its row (concat), with callbacks that file
-- what arrives under tag.
function Profile:sends(tag)
  local out = {}
  for ci = 1, #self.chunks do
    out[#out + 1] = {exp = probe.send(self.row_arrays[ci]),
      opts = {context = self.context, filter = "eqclass", params = {key = self.key[ci]},
        callback = function(m) self:got(tag, "classes", ci, m.values) end}}
  end
  for ci = 1, #self.chunks do
    out[#out + 1] = {exp = probe.send(probe.rank(), self.row_arrays[ci]),
      opts = {context = self.rank_context, filter = "concat",
        callback = function(m) self:got(tag, "ranks", ci, m.values) end}}
  end
  return out
end

-- got files one collected message; when every chunk's classes and rows are in, the
-- profile's classes and rows are rebuilt from them (limpio_table.lua).
function Profile:got(tag, kind, ci, values)
  local c = self.inbox[tag] or {classes = {}, ranks = {}, n = 0}
  self.inbox[tag] = c
  c[kind][ci] = values
  c.n = c.n + 1
  if c.n == 2 * #self.chunks then
    self.inbox[tag] = nil
    self:merge(c)
    self.collected = tag
  end
end

-- options a user may give limpio.profile.
local profile_options = {exclude = true, context = true, warn = true, depth = true,
  per_rank = true, chunk = true, top_ranks = true}

function limpio.profile(app, opts)
  opts = opts or {}
  for k in pairs(opts) do
    if not profile_options[k] then
      error(format("limpio.profile: unknown option %q (exclude, context, per_rank, top_ranks, chunk, depth, warn)", tostring(k)), 2)
    end
  end
  -- Checked before anything is allocated in the job, so that a corrected call can follow.
  local size = opts.chunk or MAXCHUNK
  if type(size) ~= "number" or size < 1 or size > MAXCHUNK or size % 1 ~= 0 then
    error(format("limpio.profile: chunk must be an integer from 1 to %d, got %s", MAXCHUNK, tostring(size)), 2)
  end
  local fns = app:functions("*")
  local calls = app:array("int", #fns, "limpio_calls")
  local ticks = app:array("int64", #fns, "limpio_ticks")
  local span = app:array("int64", 3, "limpio_span") -- first MPI entry, last MPI exit, scratch
  local timers = app:stack("int64", opts.depth or 16, "limpio_timers")
  local f, tb, now = probe.func(), probe.timebase(), probe.point_timebase()
  local self = setmetatable({app = app, calls = calls, ticks = ticks, span = span, timers = timers,
    id = {}, inbox = {}, serial = 0}, Profile)
  -- The callsite code (limpio_callsites.lua) runs at the entry before the call's clock
  -- (limpio.clock_in, queued after the bytes) and at the exit after the duration is known.
  local site_entry, site_exit = self:sites_init(app, opts.depth or 16)
  local d = self.dur
  local batch = limpio.installs(app)
  local hk = limpio.hooks(app, {
    exclude = opts.exclude, context = opts.context, warn = opts.warn, installs = batch,
    start = probe.seq{probe.when(span[0]:eq(0), span[0]:assign(tb)), site_entry},
    -- A call made inside another (the MPI library calling itself, as MPI_Alltoallw's
    -- derived types ask MPI_Comm_size) is part of the outer call, as a PMPI tool sees it:
    -- only calls at depth 0 count, in the function's totals and at the callsites.
    finish = probe.seq{
      d:assign(now - timers:pop()),
      probe.when(timers:depth():eq(0), probe.seq{
        ticks[f]:assign(ticks[f] + d),
        calls[f]:assign(calls[f] + 1),
      }),
      span[1]:assign(now),
      site_exit,
    },
  })
  self.names, self.hooks = hk.names, hk
  local exits = limpio.exit_points(app)
  for i, fn in ipairs(fns) do self.id[fn.name] = i - 1 end
  self.chunks = chunks(self.names, size)
  self.fp = #self.chunks > 1
  self.row_arrays, self.key, self.mult = {}, {}, {}
  local m = 12345
  for i = 1, #self.names do
    m = (m * 1103515245 + 12345) % 2147483648
    self.mult[i] = (m % 1073741824) * 2 + 1 -- odd: a count change always changes the sum
  end
  for ci, c in ipairs(self.chunks) do
    local off = self.fp and 1 or 0
    self.row_arrays[ci] = app:array("int64", off + 2 * #c + 2, "limpio_row" .. ci)
    self.key[ci] = off + #c
  end
  local per_rank = opts.per_rank
  if per_rank == nil then per_rank = app.size <= 4096 end
  self.per_rank = per_rank
  -- Without every rank's row, the k ranks with the most MPI time come through the topk
  -- filter: k rows at the front-end whatever the rank count.
  local k = opts.top_ranks
  if k == nil then k = per_rank and 0 or 8 end
  if type(k) ~= "number" or k < 0 or k % 1 ~= 0 then
    error(format("limpio.profile: top_ranks must be a whole number of ranks from 0, got %s", tostring(k)), 2)
  end
  self.top_ranks = k
  self.context = opts.context
  self.rank_context = opts.context
  if not per_rank then self.rank_context = ctx.single(app, 0) end
  -- The rows are filled once, by a probe of its own before the sends: probes at one point
  -- run in installation order, so every send after it finds the rows filled, and each
  -- send's code stays small (a copy of the fill in every send made the trampolines grow
  -- with functions x chunks and could fill the instrumentation region). Every probe is
  -- installed in one batch, so each point's code is placed once.
  self:install_bytes(app, opts, batch)
  limpio.clock_in(batch, hk, timers, opts.context, function(h) self.clock_handle = h end)
  self:install_site_collection(app, exits, batch)
  batch:add(exits, self:fill_exp(), {context = self.context}, function(h) self.fill_handle = h end)
  self.end_handles = {}
  for _, c in ipairs(self:sends("end")) do
    batch:add(exits, c.exp, c.opts, function(h) self.end_handles[#self.end_handles + 1] = h end)
  end
  batch:run()
  return self
end

-- snapshot collects now: while ranks run, every live rank fills its rows (all at one
-- moment, so classes and per-rank rows agree) and sends them through the tree, one
-- app:execute after another as each answer arrives; once the job has ended, what its ranks
-- sent at exit, or, when ranks faulted, what every rank counted up to the end, read from
-- its memory (read_memory). Returns the per-rank rows (nil when not kept) and the classes.
function Profile:snapshot()
  local app = self.app
  local st = app:status()
  if st == "created" then error("limpio: prof:snapshot() before app:start(): no rank has run yet", 2) end
  if st == "running" or st == "suspended" then
    if st == "suspended" then app:resume() end
    self:collect_now()
    if st == "suspended" then app:suspend() end
  end
  if st == "faulted" and not self.partial then self:read_memory() end
  if not self.classes then
    error("limpio: no profile data arrived (no rank reached _exit or answered)", 2)
  end
  return self.rows, self.classes
end

-- spec spells a sorted list of ranks as the eqclass filter does: "0-2,5".
local function spec(ranks)
  local parts, i = {}, 1
  while i <= #ranks do
    local k = i
    while k < #ranks and ranks[k + 1] == ranks[k] + 1 do k = k + 1 end
    parts[#parts + 1] = k > i and format("%d-%d", ranks[i], ranks[k]) or tostring(ranks[i])
    i = k + 1
  end
  return table.concat(parts, ",")
end
limpio.rank_spec = spec

-- row_of reads rank r's counters from its memory as the row its probe would have sent.
function Profile:row_of(r)
  local calls, ticks, span = self.calls:read(r), self.ticks:read(r), self.span:read(r)
  local row = {rank = r, calls = {}, ticks = {}, ncalls = 0, mpi_ticks = 0}
  for _, name in ipairs(self.names) do
    local i = self.id[name] + 1
    row.calls[name], row.ticks[name] = calls[i], ticks[i]
    row.ncalls, row.mpi_ticks = row.ncalls + calls[i], row.mpi_ticks + ticks[i]
  end
  row.total_ticks = span[2] - span[1]
  row.ppm = 0
  if row.total_ticks > 0 then row.ppm = math.floor(row.mpi_ticks * PPM / row.total_ticks) end
  return row
end

-- read_memory builds the profile from every rank's counters read from its memory once
-- the job has ended: the honest data of a job with faulted ranks, whose other ranks the
-- MPI engine ended before they reached _exit, so no row travelled the tree. Ranks with
-- identical counts form a class, as the eqclass filter would make them; each rank counted
-- the MPI calls it completed before it ended (a call in progress is not counted).
function Profile:read_memory()
  local rows, by, classes = {}, {}, {}
  for r = 0, self.app.size - 1 do
    if not self.context or self.context:contains(r) then
      local row = self:row_of(r)
      rows[r] = row
      local key = {}
      for i, name in ipairs(self.names) do key[i] = row.calls[name] end
      key = table.concat(key, ",")
      local cls = by[key]
      if not cls then
        cls = {list = {}, n = 0, first = r, calls = row.calls, ticks = {}, total = 0, ppm = 0}
        for _, name in ipairs(self.names) do cls.ticks[name] = 0 end
        by[key] = cls
        classes[#classes + 1] = cls
      end
      cls.list[#cls.list + 1], cls.n = r, cls.n + 1
      for _, name in ipairs(self.names) do cls.ticks[name] = cls.ticks[name] + row.ticks[name] end
      cls.total, cls.ppm = cls.total + row.total_ticks, cls.ppm + row.ppm
    end
  end
  for _, cls in ipairs(classes) do cls.ranks, cls.list = spec(cls.list), nil end
  self.classes, self.rank0 = classes, rows[0]
  self.rows = self.per_rank and rows or nil
  self.partial = true
end

-- collect_now runs the sends one by one: ranks blocked in a call answer when it returns,
-- and a job that ends meanwhile closes the waves with the ranks that answered (its exit
-- collection then stands).
function Profile:collect_now()
  local app = self.app
  self.serial = self.serial + 1
  local tag = self.serial
  for i, c in ipairs(self:sends(tag)) do
    local exp = c.exp
    if i == 1 then exp = probe.seq{self:fill_exp(), exp} end
    if not app:execute(exp, c.opts) then return end
    while self.collected ~= tag and (self.inbox[tag] or {n = 0}).n < i do
      local n = dpcl.poll(0.001)
      local now = app:status()
      if n == 0 and now ~= "running" and now ~= "suspended" then return end
    end
  end
end

package.loaded.limpio = limpio
_G.limpio = limpio

-- stats sums h:stats() over the profile's probes: messages is what the front-end received
-- (a message a filter merged in the tree counts once), delivered the ranks' packets merged
-- into them, sent the packets the ranks' probes sent.
function Profile:stats()
  local hs = {self.hooks.start, self.hooks.finish, self.clock_handle, self.fill_handle}
  for _, list in ipairs({self.bytes_handles, self.site_handles, self.end_handles}) do
    for _, h in ipairs(list or {}) do hs[#hs + 1] = h end
  end
  local st = {messages = 0, delivered = 0, sent = 0, probes = 0}
  for _, h in pairs(hs) do
    local s = h:stats()
    st.messages, st.delivered = st.messages + s.messages, st.delivered + s.delivered
    st.sent, st.probes = st.sent + s.sent, st.probes + 1
  end
  return st
end
