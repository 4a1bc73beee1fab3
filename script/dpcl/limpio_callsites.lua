-- limpio_callsites.lua: limpio.profile's callsites. A callsite is a call of an MPI function
-- from the program, known by its return address: the link register at the function's entry.
-- The program's calls of MPI_* (and, from Fortran, of the mpi_*_ wrappers, whose own call
-- of MPI_* is seen through the wrapper's saved return address) are listed from its code
-- before the run; each gets an index, which the entry probe finds by comparing the link
-- register in a balanced tree of constants (a few compares, no table in memory). Calls from
-- anywhere else (function pointers) share the last index, "other"; a call made inside
-- another (the MPI library calling itself) belongs to the outer call and is not counted. Per rank and callsite the ranks keep count, time, bytes and the longest
-- and shortest call and message; at _exit they go up the tree through the sum, max and min
-- filters (a rank's total in the high bits and its rank in the low 17 bits, so max and min
-- also say which rank holds them), so the front-end receives a few messages per 64
-- callsites whatever the number of ranks. Loaded after limpio_bytes.lua.
local limpio = limpio
local Profile = limpio.Profile
local format = string.format

local RANK_BITS = 131072 -- 2^17: a rank below 131,072 fits under a total in one int64
local NONE = 2 ^ 62      -- what a rank without calls of a callsite sends to the min filter
local SLOTS = 64         -- callsites per message: 4 values each within probe.send's 256
local WRAPPER = -2       -- the tree's answer for a return address inside a Fortran wrapper

-- mpi_name maps a Fortran wrapper (mpi_send_) to the MPI function it calls (MPI_Send).
local function mpi_names(app)
  local by = {}
  local ok, fns = pcall(app.functions, app, "MPI_*")
  for _, fn in ipairs(ok and fns or {}) do by[fn.name:lower() .. "_"] = fn.name end
  return by
end

-- limpio.callsite_table(app) -> {sites = {{index=, ret=, name=, caller=, file=, line=}},
-- direct = {ret -> index}, fortran = {ret -> index}, wrappers = {ret -> true}}: the
-- program's calls of MPI functions from outside the MPI library, indexed from 0 by return
-- address; index #sites is "other".
function limpio.callsite_table(app)
  local fortran_of = mpi_names(app)
  local t = {sites = {}, direct = {}, fortran = {}, wrappers = {}}
  local list = {}
  for _, p in ipairs(app:points("*", "call")) do
    local target, file = p.target, p.file or ""
    if type(target) == "string" then
      local ret = p.addr:num() + 4
      local in_lib = file:match("libmpi")
      if in_lib and file:match("libmpi_f") and fortran_of[p.func] == target then
        t.wrappers[ret] = true
      elseif not in_lib and target:match("^MPI_") then
        list[#list + 1] = {ret = ret, name = target, caller = p.func, file = file, line = p.line, kind = "direct"}
      elseif not in_lib and fortran_of[target] then
        list[#list + 1] = {ret = ret, name = fortran_of[target], caller = p.func, file = file, line = p.line, kind = "fortran"}
      end
    end
  end
  table.sort(list, function(a, b) return a.ret < b.ret end)
  for i, s in ipairs(list) do
    s.index = i - 1
    t.sites[i] = s
    t[s.kind][s.ret] = s.index
  end
  return t
end

-- BUCKET bounds one tree of compares: the code generator nests at most 8 conditionals,
-- so the entries go in buckets of 64 (6 levels) tried one after another by range.
local BUCKET = 64

-- lookup is probe code storing into target the value filed under key among entries
-- ({addr, value}, sorted by addr), else miss: per bucket a range test, then a balanced
-- tree of compares whose leaves store.
local function lookup(target, key, entries, miss)
  local function build(lo, hi)
    if lo > hi then return target:assign(miss) end
    if lo == hi then
      return probe.when(key:eq(entries[lo].addr), target:assign(entries[lo].value))
    end
    local mid = math.floor((lo + hi + 1) / 2)
    return probe.when(key:lt(entries[mid].addr), build(lo, mid - 1), build(mid, hi))
  end
  local code = {target:assign(miss)}
  for lo = 1, #entries, BUCKET do
    local hi = math.min(lo + BUCKET - 1, #entries)
    code[#code + 1] = probe.when(probe.land(key:ge(entries[lo].addr), key:le(entries[hi].addr)), build(lo, hi))
  end
  return probe.seq(code)
end

local function sorted_entries(...)
  local out = {}
  for _, m in ipairs({...}) do
    for addr, v in pairs(m) do out[#out + 1] = {addr = addr, value = v == true and WRAPPER or v} end
  end
  table.sort(out, function(a, b) return a.addr < b.addr end)
  return out
end

-- sites_init makes the per-rank callsite arrays and returns the code the entry and exit
-- probes add: the entry finds the callsite and pushes it (calls nest inside the library),
-- the exit pops it and files the call's duration d (an lvalue the exit fills first).
function Profile:sites_init(app, depth)
  local t = limpio.callsite_table(app)
  local n = #t.sites + 1
  self.site_table, self.nsites = t, n
  local a = function(ty, name) return app:array(ty, n, "limpio_site_" .. name) end
  self.s = {count = a("int", "count"), ticks = a("int64", "ticks"), bytes = a("int64", "bytes"),
    tmax = a("int64", "tmax"), tmin = a("int64", "tmin"), bmax = a("int64", "bmax"), bmin = a("int64", "bmin")}
  self.site_stack = app:stack("int", depth, "limpio_site_stack")
  self.cur = app:var("int")
  self.dur = app:var("int64")
  self.outer = app:array("int64", 1, "limpio_mpi_outer") -- time in calls not nested in another
  -- The return address goes through a variable: the tree's compares then each need one
  -- register, however deep the tree.
  local ret = app:var("int")
  local lr2 = probe.load(probe.load(probe.reg("sp"), "pointer"), "pointer", 4)
  local other = n - 1
  -- A program with no Fortran callsites never enters MPI through a wrapper: its tree
  -- holds its own calls only (libmpi's ~200 wrapper return addresses would otherwise make
  -- every MPI entry's code large enough to fill the instrumentation region).
  local entry
  if next(t.fortran) == nil then
    entry = probe.seq{
      ret:assign(probe.lr()),
      lookup(self.cur, ret, sorted_entries(t.direct), other),
      self.site_stack:push(self.cur),
    }
  else
    entry = probe.seq{
      ret:assign(probe.lr()),
      lookup(self.cur, ret, sorted_entries(t.direct, t.wrappers), other),
      probe.when(self.cur:eq(WRAPPER), probe.seq{ret:assign(lr2),
        lookup(self.cur, ret, sorted_entries(t.fortran), other)}),
      self.site_stack:push(self.cur),
    }
  end
  local s, c, d = self.s, self.site_stack:pop(), self.dur
  -- Only a call at depth 0 is the program's: one nested in another is the library's own.
  local exit = probe.seq{
    self.cur:assign(c),
    probe.when(self.site_stack:depth():eq(0), probe.seq{
      probe.when(probe.lor(s.count[self.cur]:eq(0), d:lt(s.tmin[self.cur])), s.tmin[self.cur]:assign(d)),
      probe.when(d:gt(s.tmax[self.cur]), s.tmax[self.cur]:assign(d)),
      s.ticks[self.cur]:assign(s.ticks[self.cur] + d),
      s.count[self.cur]:assign(s.count[self.cur] + 1),
      self.outer[0]:assign(self.outer[0] + d),
    }),
  }
  return entry, exit
end

-- install_bytes queues in batch, at the entry of every function that moves a buffer, its bytes to the
-- callsite the common entry probe (installed before, so run first) just found.
function Profile:install_bytes(app, opts, batch)
  local s, c, b = self.s, self.cur, app:var("int64")
  self.bytes_handles = {}
  for _, name in ipairs(self.names) do
    local e = limpio.message_bytes(app, name)
    if e then
      -- Counted for the program's own calls only (the entry probe pushed this one: depth 1).
      batch:add(app:points(name, "entry"), probe.when(self.site_stack:depth():eq(1), probe.seq{
        b:assign(e),
        s.bytes[c]:assign(s.bytes[c] + b),
        probe.when(probe.lor(s.count[c]:eq(0), b:lt(s.bmin[c])), s.bmin[c]:assign(b)),
        probe.when(b:gt(s.bmax[c]), s.bmax[c]:assign(b)),
      }), {context = opts.context}, function(h) self.bytes_handles[#self.bytes_handles + 1] = h end)
    end
  end
end

-- with_rank packs v (>= 0) and the rank into one int64 that orders by v, then rank.
local function with_rank(v)
  return (probe.int64(0) + v) * RANK_BITS + probe.rank()
end

-- site_rows builds the fill code and the arrays sent per chunk of callsites: sums (count,
-- time, bytes, 1 when the rank called it), maxima (time with rank, longest call, largest
-- message) and minima (time with rank, shortest call, smallest message; NONE when the
-- rank never called it), and the task arrays (run time, MPI time, MPI share in ppm).
function Profile:site_rows(app)
  local s, span = self.s, self.span
  self.site_chunks = {}
  local fill = {}
  for lo = 0, self.nsites - 1, SLOTS do
    local hi = math.min(lo + SLOTS, self.nsites) - 1
    local k = hi - lo + 1
    local ch = {lo = lo, hi = hi,
      sum = app:array("int64", 4 * k, "limpio_csum" .. lo),
      max = app:array("int64", 3 * k, "limpio_cmax" .. lo),
      min = app:array("int64", 3 * k, "limpio_cmin" .. lo)}
    for i = lo, hi do
      local j = i - lo
      local called = s.count[i]:gt(0)
      fill[#fill + 1] = probe.seq{
        ch.sum[4 * j]:assign(s.count[i]), ch.sum[4 * j + 1]:assign(s.ticks[i]),
        ch.sum[4 * j + 2]:assign(s.bytes[i]), ch.sum[4 * j + 3]:assign(probe.when(called, probe.int64(1), probe.int64(0))),
        ch.max[3 * j]:assign(with_rank(s.ticks[i])), ch.max[3 * j + 1]:assign(s.tmax[i]),
        ch.max[3 * j + 2]:assign(s.bmax[i]),
        ch.min[3 * j]:assign(probe.when(called, with_rank(s.ticks[i]), probe.int64(NONE))),
        ch.min[3 * j + 1]:assign(probe.when(called, s.tmin[i] + probe.int64(0), probe.int64(NONE))),
        ch.min[3 * j + 2]:assign(probe.when(called, s.bmin[i] + probe.int64(0), probe.int64(NONE))),
      }
    end
    self.site_chunks[#self.site_chunks + 1] = ch
  end
  local task = {sum = app:array("int64", 3, "limpio_tsum"), max = app:array("int64", 4, "limpio_tmax"),
    min = app:array("int64", 4, "limpio_tmin")}
  self.task = task
  local run, mpi = span[1] - span[0], self.outer[0]
  local ppm = probe.when(run:gt(0), mpi * 1000000 / run, probe.int64(0))
  fill[#fill + 1] = probe.seq{
    task.sum[0]:assign(run), task.sum[1]:assign(mpi), task.sum[2]:assign(1),
    task.max[0]:assign(with_rank(run)), task.max[1]:assign(with_rank(mpi)), task.max[2]:assign(with_rank(ppm)),
    task.max[3]:assign(span[1]),
    task.min[0]:assign(with_rank(run)), task.min[1]:assign(with_rank(mpi)), task.min[2]:assign(with_rank(ppm)),
    task.min[3]:assign(probe.when(span[0]:gt(0), span[0] + probe.int64(0), probe.int64(NONE))),
  }
  return probe.seq(fill)
end

-- install_site_collection queues in batch the fill and the sends of the callsite and task
-- arrays at _exit through the sum, max and min filters; site_got files what arrives.
function Profile:install_site_collection(app, exits, batch)
  self.site_handles = {}
  local function keep(h) self.site_handles[#self.site_handles + 1] = h end
  batch:add(exits, self:site_rows(app), {context = self.context}, keep)
  self.site_inbox = {n = 0}
  local sends = {}
  for ci, ch in ipairs(self.site_chunks) do
    for _, f in ipairs({"sum", "max", "min"}) do sends[#sends + 1] = {ch[f], f, ci} end
  end
  for _, f in ipairs({"sum", "max", "min"}) do sends[#sends + 1] = {self.task[f], f, 0} end
  -- Per-rank rows (the report's grouped rows, the CSV) travel whole: the rank, then the
  -- same arrays, concatenated in rank order.
  if self.per_rank then
    for ci, ch in ipairs(self.site_chunks) do
      for _, f in ipairs({"sum", "max", "min"}) do sends[#sends + 1] = {ch[f], f, ci, true} end
    end
    sends[#sends + 1] = {self.task.sum, "sum", 0, true}
  end
  -- The k ranks with the most MPI time: the rank, then its run time, MPI time and 1
  -- (task.sum), ranked by the MPI time in the tree.
  if self.top_ranks > 0 then sends[#sends + 1] = {self.task.sum, "topk", 0, true} end
  self.site_expected = #sends
  for _, sd in ipairs(sends) do
    local arr, f, ci, each = sd[1], sd[2], sd[3], sd[4]
    local exp, o = probe.send(arr), {context = self.context, filter = f,
      callback = function(m) self:site_got(f, ci, m.values) end}
    if f == "topk" then
      exp, o.params = probe.send(probe.rank(), arr), {k = self.top_ranks, key = 3}
    elseif each then
      exp, o.filter = probe.send(probe.rank(), arr), "concat"
      o.callback = function(m) self:site_got("rank" .. f, ci, m.values) end
    end
    batch:add(exits, exp, o, keep)
  end
end

local function split(v)
  return math.floor(v / RANK_BITS), v % RANK_BITS
end

-- site_got files one reduced message; when all are in, the callsites and tasks are built.
function Profile:site_got(f, ci, values)
  self.site_messages = (self.site_messages or 0) + 1
  local box = self.site_inbox
  box[f .. ci] = values
  box.n = box.n + 1
  if box.n == self.site_expected then
    self.site_inbox = {n = 0}
    self:site_merge(box)
  end
end

-- top_rows reads the topk filter's rows (rank, run time, MPI time, 1; in rank order) as
-- {{rank =, app =, mpi =}}, the most MPI time first (ties: the higher rank, as the max
-- rows).
local function by_mpi_time(a, b)
  if a.mpi ~= b.mpi then return a.mpi > b.mpi end
  return a.rank > b.rank
end

local function top_rows(v)
  local rows = {}
  for k = 1, #v, 4 do rows[#rows + 1] = {rank = v[k], app = v[k + 1], mpi = v[k + 2]} end
  table.sort(rows, by_mpi_time)
  return rows
end

-- site_merge turns the reduced arrays into self.callsite_data and self.task_data.
function Profile:site_merge(box)
  local out = {}
  for ci, ch in ipairs(self.site_chunks) do
    local sum, mx, mn = box["sum" .. ci], box["max" .. ci], box["min" .. ci]
    for i = ch.lo, ch.hi do
      local j = i - ch.lo
      local cs = {index = i, count = sum[4 * j + 1], ticks = sum[4 * j + 2], bytes = sum[4 * j + 3],
        nranks = sum[4 * j + 4], call_max = mx[3 * j + 2], bytes_max = mx[3 * j + 3]}
      cs.rank_max_ticks, cs.rank_max = split(mx[3 * j + 1])
      if mn[3 * j + 1] < NONE then
        cs.rank_min_ticks, cs.rank_min = split(mn[3 * j + 1])
        cs.call_min, cs.bytes_min = mn[3 * j + 2], mn[3 * j + 3]
      end
      out[i + 1] = cs
    end
  end
  self.callsite_data = out
  self.task_data = self:task_merge(box.sum0, box.max0, box.min0)
  if box.topk0 then self.task_data.top = top_rows(box.topk0) end
  if self.per_rank then self.site_rank_rows = self:site_rank_merge(box) end
end

-- site_rank_merge reads the concatenated per-rank arrays into rows[rank] = {app =, mpi =,
-- [index + 1] = {count, ticks, bytes, tmax, tmin, bmax, bmin}} (times in ticks).
function Profile:site_rank_merge(box)
  local rows = {}
  local v = box.ranksum0
  for k = 1, #v, 4 do rows[v[k]] = {rank = v[k], app = v[k + 1], mpi = v[k + 2], sites = {}} end
  for ci, ch in ipairs(self.site_chunks) do
    local n = ch.hi - ch.lo + 1
    local sum, mx, mn = box["ranksum" .. ci], box["rankmax" .. ci], box["rankmin" .. ci]
    for k = 0, #sum / (4 * n + 1) - 1 do
      local a, b, c = k * (4 * n + 1) + 1, k * (3 * n + 1) + 1, k * (3 * n + 1) + 1
      local row = rows[sum[a]]
      for j = 0, n - 1 do
        row.sites[ch.lo + j + 1] = {count = sum[a + 1 + 4 * j], ticks = sum[a + 2 + 4 * j],
          bytes = sum[a + 3 + 4 * j], tmax = mx[b + 2 + 3 * j], bmax = mx[b + 3 + 3 * j],
          tmin = mn[c + 2 + 3 * j], bmin = mn[c + 3 + 3 * j]}
      end
    end
  end
  return rows
end

function Profile:task_merge(sum, mx, mn)
  local t = {app_ticks = sum[1], mpi_ticks = sum[2], nranks = sum[3], stop = mx[4],
    start = mn[4] < NONE and mn[4] or 0}
  t.app_max, t.app_max_rank = split(mx[1])
  t.mpi_max, t.mpi_max_rank = split(mx[2])
  t.ppm_max, t.ppm_max_rank = split(mx[3])
  t.app_min, t.app_min_rank = split(mn[1])
  t.mpi_min, t.mpi_min_rank = split(mn[2])
  t.ppm_min, t.ppm_min_rank = split(mn[3])
  return t
end

-- site_rank_row reads rank r's callsite and task values from its memory.
function Profile:site_rank_row(r)
  local row = {rank = r}
  for k, arr in pairs(self.s) do row[k] = arr:read(r) end
  local span = self.span:read(r)
  row.app = span[2] - span[1]
  row.mpi = self.outer:read(r)[1]
  row.first, row.last = span[1], span[2]
  return row
end

-- sites_read_memory reduces every rank's callsite arrays read from its memory, as the
-- filters would have: for a job whose ranks faulted before _exit.
function Profile:sites_read_memory()
  local n, cs = self.nsites, {}
  for i = 0, n - 1 do cs[i + 1] = {index = i, count = 0, ticks = 0, bytes = 0, nranks = 0, call_max = 0,
    bytes_max = 0, rank_max_ticks = -1} end
  local t = {app_ticks = 0, mpi_ticks = 0, nranks = 0, stop = 0, start = NONE}
  local rows = {}
  for r = 0, self.app.size - 1 do
    if not self.context or self.context:contains(r) then
      local row = self:site_rank_row(r)
      rows[r] = row
      for i = 1, n do
        local c = cs[i]
        local k = row.count[i]
        c.count, c.ticks, c.bytes = c.count + k, c.ticks + row.ticks[i], c.bytes + row.bytes[i]
        if row.ticks[i] > c.rank_max_ticks then c.rank_max_ticks, c.rank_max = row.ticks[i], r end
        c.call_max, c.bytes_max = math.max(c.call_max, row.tmax[i]), math.max(c.bytes_max, row.bmax[i])
        if k > 0 then
          c.nranks = c.nranks + 1
          if not c.rank_min_ticks or row.ticks[i] < c.rank_min_ticks then c.rank_min_ticks, c.rank_min = row.ticks[i], r end
          c.call_min = math.min(c.call_min or NONE, row.tmin[i])
          c.bytes_min = math.min(c.bytes_min or NONE, row.bmin[i])
        end
      end
      local ppm = row.app > 0 and math.floor(row.mpi * 1000000 / row.app) or 0
      t.app_ticks, t.mpi_ticks, t.nranks = t.app_ticks + row.app, t.mpi_ticks + row.mpi, t.nranks + 1
      t.stop = math.max(t.stop, row.last)
      if row.first > 0 then t.start = math.min(t.start, row.first) end
      for _, k in ipairs({{"app", row.app}, {"mpi", row.mpi}, {"ppm", ppm}}) do
        local name, v = k[1], k[2]
        if not t[name .. "_max"] or v >= t[name .. "_max"] then t[name .. "_max"], t[name .. "_max_rank"] = v, r end
        if not t[name .. "_min"] or v < t[name .. "_min"] then t[name .. "_min"], t[name .. "_min_rank"] = v, r end
      end
    end
  end
  if t.start == NONE then t.start = 0 end
  self.callsite_data, self.task_data = cs, t
  if self.top_ranks > 0 then
    local all = {}
    for r, row in pairs(rows) do all[#all + 1] = {rank = r, app = row.app, mpi = row.mpi} end
    table.sort(all, by_mpi_time)
    t.top = {}
    for i = 1, math.min(self.top_ranks, #all) do t.top[i] = all[i] end
  end
  if self.per_rank then
    local out = {}
    for r, row in pairs(rows) do
      local o = {rank = r, app = row.app, mpi = row.mpi, sites = {}}
      for i = 1, n do
        o.sites[i] = {count = row.count[i], ticks = row.ticks[i], bytes = row.bytes[i], tmax = row.tmax[i],
          tmin = row.tmin[i], bmax = row.bmax[i], bmin = row.bmin[i]}
      end
      out[r] = o
    end
    self.site_rank_rows = out
  end
end

-- callsites returns the callsites some rank called, with their place in the program:
-- {id =, name =, file =, line =, caller =, ret =, count =, ticks =, bytes =, nranks =,
-- call_max =, call_min =, bytes_max =, bytes_min =, rank_max =, rank_max_ticks =,
-- rank_min =, rank_min_ticks =}, ids from 1 in the program's address order; "other" last.
function Profile:callsites()
  self:snapshot()
  if self.app:status() == "faulted" and not self.callsite_data_mem then
    self:sites_read_memory()
    self.callsite_data_mem = true
  end
  if not self.callsite_data then
    error("limpio: no callsite data arrived (no rank reached _exit)", 2)
  end
  local out = {}
  for i, cs in ipairs(self.callsite_data) do
    if cs.count > 0 then
      local site = self.site_table.sites[i]
      local c = {}
      for k, v in pairs(cs) do c[k] = v end
      if site then
        c.id, c.name, c.file, c.line, c.caller, c.ret = i, site.name, site.file, site.line, site.caller, site.ret
      else
        c.id, c.name, c.file, c.line, c.caller = i, "(other)", "?", 0, "inside the MPI library or through a pointer"
      end
      out[#out + 1] = c
    end
  end
  return out
end

-- ranks returns the MPI time per task: sums over the ranks and the extremes with their
-- ranks (ticks of dpcl.timebase_hz; ppm = parts per million of the rank's run time).
function Profile:ranks()
  self:callsites()
  return self.task_data
end
