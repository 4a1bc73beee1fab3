-- limpio_table.lua: what limpio.profile's collection brings back, and Table I. The classes
-- come from the tree's eqclass filter (one row per class of ranks with identical counts,
-- their times summed per class on the way up); per-rank rows (concat) feed the CSV and the
-- per-rank ratios. Loaded after limpio.lua.
local limpio = limpio
local Profile = limpio.Profile
local format, concat, sort = string.format, table.concat, table.sort

-- spec_info reads a rank spec "0-3,7": how many ranks, the first one.
local function spec_info(spec)
  local n, first = 0, nil
  for item in spec:gmatch("[^,]+") do
    local a, b = item:match("^(%d+)%-(%d+)$")
    a, b = tonumber(a or item), tonumber(b or item)
    if not a or not b then error("limpio: malformed rank spec " .. spec, 0) end
    n = n + b - a + 1
    first = first or a
  end
  return n, first
end

-- class_part files one eqclass class of chunk ci into cls.
function Profile:class_part(cls, ci, cl)
  local c, off = self.chunks[ci], self.fp and 1 or 0
  local v, s = cl.value, cl.sums
  for j, name in ipairs(c) do
    cls.calls[name], cls.ticks[name] = v[off + j], s[j]
  end
  cls.total, cls.ppm = s[#c + 1], s[#c + 2]
end

-- merge_classes joins the chunks' classes. With one chunk they are the classes; with more,
-- every chunk's key starts with the same fingerprint of all counts, so each chunk splits
-- the ranks alike and the classes join on their rank lists.
function Profile:merge_classes(c)
  local by, order = {}, {}
  for ci = 1, #self.chunks do
    for _, cl in ipairs(c.classes[ci] or {}) do
      local cls = by[cl.ranks]
      if not cls then
        local n, first = spec_info(cl.ranks)
        cls = {ranks = cl.ranks, n = n, first = first, calls = {}, ticks = {}, parts = 0}
        by[cl.ranks] = cls
        order[#order + 1] = cls
      end
      self:class_part(cls, ci, cl)
      cls.parts = cls.parts + 1
    end
  end
  for _, cls in ipairs(order) do
    if cls.parts ~= #self.chunks then
      error("limpio: the chunks of the profile rows split the ranks differently " ..
        "(two count rows share a fingerprint); profile with a larger chunk", 0)
    end
  end
  sort(order, function(a, b) return a.first < b.first end)
  return order
end

-- merge_rows reads the concat messages: per chunk, every sending rank's rank and row.
function Profile:merge_rows(c)
  local rows, off = {}, self.fp and 1 or 0
  for ci, chunk in ipairs(self.chunks) do
    local v, g = c.ranks[ci] or {}, #chunk
    local stride = 1 + off + 2 * g + 2
    for k = 1, #v, stride do
      local r = v[k]
      local row = rows[r] or {rank = r, calls = {}, ticks = {}}
      rows[r] = row
      for j, name in ipairs(chunk) do
        row.calls[name], row.ticks[name] = v[k + off + j], v[k + off + g + j]
      end
      row.total_ticks, row.ppm = v[k + off + 2 * g + 1], v[k + off + 2 * g + 2]
    end
  end
  for _, row in pairs(rows) do
    row.ncalls, row.mpi_ticks = 0, 0
    for _, name in ipairs(self.names) do
      row.ncalls = row.ncalls + row.calls[name]
      row.mpi_ticks = row.mpi_ticks + row.ticks[name]
    end
  end
  return rows
end

-- merge installs one complete collection as the profile's data.
function Profile:merge(c)
  self.classes = self:merge_classes(c)
  local rows = self:merge_rows(c)
  self.rank0 = rows[0]
  self.rows = self.per_rank and rows or nil
end

-- data is the profile's classes, collected first when nothing arrived yet or when ranks
-- faulted after what arrived at exit (the counters in memory then cover every rank).
local function data(self)
  if not self.classes or (not self.partial and self.app:status() == "faulted") then self:snapshot() end
  return self.classes
end

-- used lists the functions some rank called, in the program's order.
function Profile:used()
  local classes, out = data(self), {}
  for _, name in ipairs(self.names) do
    for _, cls in ipairs(classes) do
      if cls.calls[name] > 0 then out[#out + 1] = name; break end
    end
  end
  return out
end

local function pct(t, total)
  if total <= 0 then return 0 end
  return 100 * t / total
end

-- short abbreviates a long rank spec, saying how many ranks it holds.
local function short(spec, n)
  if #spec <= 28 then return spec end
  return spec:sub(1, 20):gsub(",[^,]*$", "") .. ",... (" .. n .. " ranks)"
end

-- cells formats one row: count(pct%) per used function and the total.
local function cells(used, calls, ticks, total, times)
  local out, n, t = {}, 0, 0
  for _, name in ipairs(used) do
    local c = calls[name] * times
    out[#out + 1] = format("%d(%.1f%%)", c, pct(ticks[name], total))
    n, t = n + c, t + ticks[name]
  end
  out[#out + 1] = format("%d(%.1f%%)", n, pct(t, total))
  return out
end

-- grid aligns the cells: the first column left, the others right.
local function grid(rows)
  local width, out = {}, {}
  for _, line in ipairs(rows) do
    for i, cell in ipairs(line) do width[i] = math.max(width[i] or 0, #cell) end
  end
  for _, line in ipairs(rows) do
    local s = {}
    for i, cell in ipairs(line) do s[i] = format(i == 1 and "%-" .. width[i] .. "s" or "%" .. width[i] .. "s", cell) end
    out[#out + 1] = concat(s, "  ")
  end
  return out
end

-- lines builds Table I: a line per class of ranks with identical counts (its counts are
-- every member's; its percentages the class's summed times over its summed run time), then
-- the Total row over all ranks.
function Profile:lines()
  local classes, used = data(self), self:used()
  local sumc, sumt, total = {}, {}, 0
  for _, name in ipairs(used) do sumc[name], sumt[name] = 0, 0 end
  local head = {"Ranks"}
  for _, name in ipairs(used) do head[#head + 1] = name end
  head[#head + 1] = "Total"
  local rows = {head}
  for _, cls in ipairs(classes) do
    local line = {"#" .. short(cls.ranks, cls.n)}
    for _, cell in ipairs(cells(used, cls.calls, cls.ticks, cls.total, 1)) do line[#line + 1] = cell end
    rows[#rows + 1] = line
    for _, name in ipairs(used) do
      sumc[name], sumt[name] = sumc[name] + cls.calls[name] * cls.n, sumt[name] + cls.ticks[name]
    end
    total = total + cls.total
  end
  local tot = {"Total"}
  for _, cell in ipairs(cells(used, sumc, sumt, total, 1)) do tot[#tot + 1] = cell end
  rows[#rows + 1] = tot
  return grid(rows), #classes
end

function Profile:table(out)
  out = out or print
  local lines = self:lines()
  for _, l in ipairs(lines) do out(l) end
  return #lines
end

local function need_rows(self, what)
  data(self)
  if not self.rows then
    error("limpio: " .. what .. " needs per-rank rows; profile with {per_rank = true}", 3)
  end
  return self.rows
end

function Profile:csv(path)
  local rows, used = need_rows(self, "prof:csv"), self:used()
  local head = {"rank"}
  for _, name in ipairs(used) do head[#head + 1] = name .. "_calls"; head[#head + 1] = name .. "_s" end
  head[#head + 1] = "mpi_s"; head[#head + 1] = "total_s"
  local out = {concat(head, ","), "\n"}
  for r = 0, self.app.size - 1 do
    local row = rows[r]
    if row then
      local line = {tostring(r)}
      for _, name in ipairs(used) do
        line[#line + 1] = tostring(row.calls[name])
        line[#line + 1] = format("%.9g", row.ticks[name] / dpcl.timebase_hz)
      end
      line[#line + 1] = format("%.9g", row.mpi_ticks / dpcl.timebase_hz)
      line[#line + 1] = format("%.9g", row.total_ticks / dpcl.timebase_hz)
      out[#out + 1] = concat(line, ",")
      out[#out + 1] = "\n"
    end
  end
  limpio.write_file(path, out, 1)
end

-- ratio: MPI time over run time; master is rank 0, workers the mean of the other ranks.
-- Without per-rank rows the workers' mean comes from the classes' summed per-rank ratios
-- (parts per million, computed in each rank) less rank 0's.
function Profile:ratio()
  local classes = data(self)
  local r0 = self.rank0
  local master = r0 and r0.ppm / 1e6
  if self.rows then
    local per, wsum, wn = {}, 0, 0
    for r, row in pairs(self.rows) do
      per[r] = row.total_ticks > 0 and row.mpi_ticks / row.total_ticks or 0
      if r > 0 then wsum, wn = wsum + per[r], wn + 1 end
    end
    return {per_rank = per, master = per[0], workers = wn > 0 and wsum / wn or nil}
  end
  local sum, n = 0, 0
  for _, cls in ipairs(classes) do sum, n = sum + cls.ppm, n + cls.n end
  local wn = n - (r0 and 1 or 0)
  return {master = master, workers = wn > 0 and (sum - (r0 and r0.ppm or 0)) / 1e6 / wn or nil}
end

sethelp(limpio.profile, [[limpio.profile(app, {exclude = {...}, context = c, per_rank = bool, top_ranks = 8, chunk = 126}) -> Profile
Counts and inclusive time per MPI function per rank, kept in the ranks' memory (no message
per call; excludes also from MPIINSTR_EXCLUDE in the job's env). A call's time is the
function's own, as limpio.trace measures it (help(limpio.clock_in)). Collected through the
tree when each rank reaches _exit, or now with prof:snapshot(): every rank sends its row
and the eqclass filter collapses identical count rows, summing their times. When ranks
faulted, the rows are read from every rank's memory once the job ended (prof.partial:
the calls each rank completed up to the fault).
prof:table([out]) prints Table I: a line per class with its ranks listed, count(time % of
run) per function, a Total column and row. Per-rank rows (concat; default per_rank when
app.size <= 4096) feed prof:csv(path) and prof:snapshot() -> rows, classes;
prof:ratio() -> {master =, workers =, per_rank = {}}. chunk: functions per message.
prof:report{out = fn|false, path =, sort = "time"|"count"|"bytes"|"name", top = 20,
callsites = true, command =, version =, costs =} prints (and writes to path) mpiP's
sections in virtual time: MPI time per task (sum, max and min with their ranks, mean;
with per-rank rows also each group of ranks whose printed row is equal), callsites
(file:line and caller from the link register at entry), aggregate time and sent bytes,
per-call time and size statistics, imbalance (max/mean per callsite and its ranks).
prof:callsites() -> {{id=, name=, file=, line=, caller=, count=, ticks=, bytes=, nranks=,
call_max=, call_min=, bytes_max=, bytes_min=, rank_max=, rank_max_ticks=, rank_min=,
rank_min_ticks=}}; prof:ranks() -> {app_ticks=, mpi_ticks=, app_max=, app_max_rank=, ...,
start=, stop=, top = {{rank=, app=, mpi=}}}: without per-rank rows, top lists the top_ranks
ranks (default 8; 0: none) with the most MPI time, most first, chosen in the tree by the
topk filter, and the report prints them as its task rows; prof:report_csv(dir, prefix) writes PREFIX.callsites.csv (and per-rank
.tasks.csv, .ranks.csv). These are reduced in the tree at _exit (sum, max, min filters):
O(callsites) messages whatever the rank count. prof:stats() -> {messages =, delivered =,
sent =, probes =} sums h:stats() over the profile's probes: the messages the front-end
received, the ranks' packets merged into them and the packets the ranks sent.]])
