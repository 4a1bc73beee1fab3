-- limpio_report.lua: prof:report, the profile after mpiP's report sections, in virtual
-- time: header, MPI time per task, callsites, aggregate time, aggregate sent message size,
-- callsite time and message size statistics, and an imbalance verdict per callsite.
-- Everything comes from the tree's reductions (limpio_callsites.lua): a job of 65,536
-- ranks prints the same page as one of 8. Per-rank rows, when the profile kept them,
-- add the task and per-rank callsite rows, ranks grouped only where their printed rows are
-- equal. Loaded after limpio_callsites.lua.
local limpio = limpio
local Profile = limpio.Profile
local format, concat, sort = string.format, table.concat, table.sort

local function seconds(ticks) return ticks / dpcl.timebase_hz end
local function ms(ticks) return 1000 * ticks / dpcl.timebase_hz end
local function pct(a, b) return b > 0 and 100 * a / b or 0 end

-- spec spells a sorted list of ranks compactly: "0-6,8" (limpio.lua's).
local spec = limpio.rank_spec

-- grouped turns per-rank cell lists into rows of ranks whose cells print the same,
-- in the order of their first rank; the first cell of each row becomes the ranks' spec.
local function grouped(rows_by_rank)
  local by, order = {}, {}
  local ranks = {}
  for r in pairs(rows_by_rank) do ranks[#ranks + 1] = r end
  sort(ranks)
  for _, r in ipairs(ranks) do
    local cells = rows_by_rank[r]
    local key = concat(cells, "\0")
    local g = by[key]
    if not g then
      g = {ranks = {}, cells = cells}
      by[key] = g
      order[#order + 1] = g
    end
    g.ranks[#g.ranks + 1] = r
  end
  local out = {}
  for _, g in ipairs(order) do
    local row = {spec(g.ranks)}
    for _, c in ipairs(g.cells) do row[#row + 1] = c end
    out[#out + 1] = row
  end
  return out
end

-- grid aligns rows of cells: the first column (or the columns marked in left) to the
-- left, the others to the right.
local function grid(rows, lines, left)
  local width = {}
  for _, line in ipairs(rows) do
    for i, cell in ipairs(line) do width[i] = math.max(width[i] or 0, #cell) end
  end
  for _, line in ipairs(rows) do
    local s = {}
    for i, cell in ipairs(line) do
      local l = (left and left[i]) or (not left and i == 1)
      s[i] = format((l and "%-" or "%") .. width[i] .. "s", cell)
    end
    lines[#lines + 1] = (concat(s, "  "):gsub("%s+$", ""))
  end
end

local RULE = string.rep("-", 75)
local function section(lines, title)
  lines[#lines + 1] = RULE
  lines[#lines + 1] = "@--- " .. title .. " " .. string.rep("-", math.max(3, 70 - #title))
  lines[#lines + 1] = RULE
end

-- by_function merges callsites of one MPI function into one row (--no-callsites).
local function by_function(sites)
  local by, out = {}, {}
  for _, c in ipairs(sites) do
    local f = by[c.name]
    if not f then
      f = {name = c.name, id = "-", count = 0, ticks = 0, bytes = 0, call_max = 0, bytes_max = 0,
        rank_max_ticks = -1, nranks = 0, merged = {}}
      by[c.name] = f
      out[#out + 1] = f
    end
    f.count, f.ticks, f.bytes = f.count + c.count, f.ticks + c.ticks, f.bytes + c.bytes
    f.call_max, f.bytes_max = math.max(f.call_max, c.call_max), math.max(f.bytes_max, c.bytes_max)
    if c.call_min then f.call_min = math.min(f.call_min or c.call_min, c.call_min) end
    if c.bytes_min then f.bytes_min = math.min(f.bytes_min or c.bytes_min, c.bytes_min) end
    f.nranks = math.max(f.nranks, c.nranks)
    f.merged[#f.merged + 1] = c
  end
  -- A function's extreme ranks are only known per callsite: the report names the
  -- callsite's extremes for a single-callsite function and leaves them out otherwise.
  for _, f in ipairs(out) do
    if #f.merged == 1 then
      local c = f.merged[1]
      f.rank_max, f.rank_max_ticks, f.rank_min, f.rank_min_ticks = c.rank_max, c.rank_max_ticks, c.rank_min, c.rank_min_ticks
    end
  end
  return out
end

local sorters = {
  time = function(a, b) if a.ticks ~= b.ticks then return a.ticks > b.ticks end return a.index < b.index end,
  count = function(a, b) if a.count ~= b.count then return a.count > b.count end return a.index < b.index end,
  bytes = function(a, b) if a.bytes ~= b.bytes then return a.bytes > b.bytes end return a.index < b.index end,
  name = function(a, b) if a.name ~= b.name then return a.name < b.name end return a.index < b.index end,
}
limpio.report_sorts = {"time", "count", "bytes", "name"}

local report_options = {out = true, path = true, sort = true, top = true, callsites = true,
  command = true, version = true, costs = true}

-- report builds the report's lines; opts as in the help below.
function Profile:report_lines(opts)
  opts = opts or {}
  for k in pairs(opts) do
    if not report_options[k] then
      error(format("prof:report: unknown option %q (out, path, sort, top, callsites, command, version, costs)", tostring(k)), 3)
    end
  end
  local order = opts.sort or "time"
  if not sorters[order] then
    error(format("prof:report: sort must be one of %s, got %q", concat(limpio.report_sorts, ", "), tostring(order)), 3)
  end
  local top = opts.top or 20
  if type(top) ~= "number" or top < 1 or top % 1 ~= 0 then
    error(format("prof:report: top must be a whole number of rows from 1, got %s", tostring(top)), 3)
  end
  local with_sites = opts.callsites ~= false
  local sites = self:callsites()
  local t = self.task_data
  local app = self.app
  local lines = {}
  local function add(s) lines[#lines + 1] = s end

  local daemons = 0
  for _, n in ipairs(app:tree()) do if n.kind == "daemon" then daemons = daemons + 1 end end
  add("@ dpclsh limpio report: mpiP's sections, in virtual time")
  add("@ Command     : " .. (opts.command or "?"))
  if opts.version then add("@ Version     : " .. opts.version) end
  add(format("@ Ranks       : %d (%d I/O-node daemons in the tree)", app.size, daemons))
  add("@ Cost set    : " .. (opts.costs or "default"))
  add(format("@ Start       : %.9f s (virtual, first MPI call)", seconds(t.start)))
  add(format("@ Stop        : %.9f s (virtual, last MPI return)", seconds(t.stop)))
  if self.partial then add("@ Partial     : ranks faulted; counted up to the end, read from every rank's memory") end

  section(lines, "MPI Time (seconds)")
  local rows = {{"Task", "AppTime", "MPITime", "MPI%"}}
  local function cells(app_t, mpi_t) return {format("%.6f", seconds(app_t)), format("%.6f", seconds(mpi_t)), format("%.2f", pct(mpi_t, app_t))} end
  if self.site_rank_rows then
    local per = {}
    for r, row in pairs(self.site_rank_rows) do per[r] = cells(row.app, row.mpi) end
    for _, row in ipairs(grouped(per)) do rows[#rows + 1] = row end
  elseif t.top and #t.top > 0 then
    -- Without every rank's row: the ranks with the most MPI time, most first.
    for _, tr in ipairs(t.top) do
      local r = {tostring(tr.rank)}
      for _, x in ipairs(cells(tr.app, tr.mpi)) do r[#r + 1] = x end
      rows[#rows + 1] = r
    end
  end
  local function row(label, c) local r = {label}; for _, x in ipairs(c) do r[#r + 1] = x end; rows[#rows + 1] = r end
  row("*", cells(t.app_ticks, t.mpi_ticks))
  local n = math.max(t.nranks, 1)
  rows[#rows + 1] = {"max", format("%.6f", seconds(t.app_max)), format("%.6f", seconds(t.mpi_max)), format("%.2f", t.ppm_max / 1e4)}
  rows[#rows + 1] = {"  rank", tostring(t.app_max_rank), tostring(t.mpi_max_rank), tostring(t.ppm_max_rank)}
  row("mean", cells(t.app_ticks / n, t.mpi_ticks / n))
  rows[#rows + 1] = {"min", format("%.6f", seconds(t.app_min)), format("%.6f", seconds(t.mpi_min)), format("%.2f", t.ppm_min / 1e4)}
  rows[#rows + 1] = {"  rank", tostring(t.app_min_rank), tostring(t.mpi_min_rank), tostring(t.ppm_min_rank)}
  grid(rows, lines)
  if not self.site_rank_rows and t.top and #t.top > 0 then
    add(format("(tasks above *: the %d with the most MPI time, chosen in the tree; every rank with per-rank rows)", #t.top))
  end

  local list = with_sites and sites or by_function(sites)
  for i, c in ipairs(list) do c.index = i end
  if with_sites then
    section(lines, format("Callsites: %d", #sites))
    rows = {{"ID", "MPI call", "File:line", "Parent function"}}
    for _, c in ipairs(sites) do rows[#rows + 1] = {tostring(c.id), c.name, c.file .. ":" .. c.line, c.caller} end
    grid(rows, lines, {false, true, true, true})
  end

  local sorted = {}
  for _, c in ipairs(list) do sorted[#sorted + 1] = c end
  sort(sorted, sorters[order])
  local function head(k) return k <= top end

  section(lines, format("Aggregate Time (top %d, by %s, milliseconds)", top, order))
  rows = {{"Call", "Site", "Time", "App%", "MPI%", "Count"}}
  for k, c in ipairs(sorted) do
    if head(k) then
      rows[#rows + 1] = {c.name, tostring(c.id), format("%.3f", ms(c.ticks)), format("%.2f", pct(c.ticks, t.app_ticks)),
        format("%.2f", pct(c.ticks, t.mpi_ticks)), tostring(c.count)}
    end
  end
  grid(rows, lines)

  local sent, total_bytes = {}, 0
  for _, c in ipairs(sorted) do if c.bytes > 0 then sent[#sent + 1] = c; total_bytes = total_bytes + c.bytes end end
  section(lines, format("Aggregate Sent Message Size (top %d, by %s, bytes)", top, order))
  rows = {{"Call", "Site", "Count", "Total", "Avrg", "Sent%"}}
  for k, c in ipairs(sent) do
    if head(k) then
      rows[#rows + 1] = {c.name, tostring(c.id), tostring(c.count), format("%.0f", c.bytes),
        format("%.1f", c.bytes / c.count), format("%.2f", pct(c.bytes, total_bytes))}
    end
  end
  grid(rows, lines)

  section(lines, "Callsite Time statistics (all, milliseconds)")
  rows = {{"Name", "Site", "Rank", "Count", "Max", "Mean", "Min", "App%", "MPI%"}}
  for k, c in ipairs(sorted) do
    if head(k) then
      if with_sites and self.site_rank_rows then
        local per = {}
        for r, rr in pairs(self.site_rank_rows) do
          local s = rr.sites[c.id]
          if s and s.count > 0 then
            per[r] = {tostring(s.count), format("%.3f", ms(s.tmax)), format("%.3f", ms(s.ticks / s.count)),
              format("%.3f", ms(s.tmin)), format("%.2f", pct(s.ticks, rr.app)), format("%.2f", pct(s.ticks, rr.mpi))}
          end
        end
        for _, g in ipairs(grouped(per)) do
          local r = {c.name, tostring(c.id)}
          for _, x in ipairs(g) do r[#r + 1] = x end
          rows[#rows + 1] = r
        end
      end
      rows[#rows + 1] = {c.name, tostring(c.id), "*", tostring(c.count), format("%.3f", ms(c.call_max)),
        format("%.3f", ms(c.ticks / c.count)), format("%.3f", ms(c.call_min or 0)),
        format("%.2f", pct(c.ticks, t.app_ticks)), format("%.2f", pct(c.ticks, t.mpi_ticks))}
    end
  end
  grid(rows, lines)

  section(lines, "Callsite Message Sent statistics (all, sent bytes)")
  rows = {{"Name", "Site", "Rank", "Count", "Max", "Mean", "Min", "Sum"}}
  for k, c in ipairs(sent) do
    if head(k) then
      if with_sites and self.site_rank_rows then
        local per = {}
        for r, rr in pairs(self.site_rank_rows) do
          local s = rr.sites[c.id]
          if s and s.count > 0 then
            per[r] = {tostring(s.count), format("%.0f", s.bmax), format("%.1f", s.bytes / s.count),
              format("%.0f", s.bmin), format("%.0f", s.bytes)}
          end
        end
        for _, g in ipairs(grouped(per)) do
          local r = {c.name, tostring(c.id)}
          for _, x in ipairs(g) do r[#r + 1] = x end
          rows[#rows + 1] = r
        end
      end
      rows[#rows + 1] = {c.name, tostring(c.id), "*", tostring(c.count), format("%.0f", c.bytes_max),
        format("%.1f", c.bytes / c.count), format("%.0f", c.bytes_min or 0), format("%.0f", c.bytes)}
    end
  end
  grid(rows, lines)

  section(lines, "Imbalance (time per rank: max / mean over the ranks that called)")
  rows = {{"Call", "Site", "Ranks", "Max", "rank", "Mean", "Min", "rank", "Max/Mean"}}
  for k, c in ipairs(sorted) do
    if head(k) and c.rank_max then
      local mean = c.ticks / math.max(c.nranks, 1)
      rows[#rows + 1] = {c.name, tostring(c.id), tostring(c.nranks), format("%.3f", ms(c.rank_max_ticks)),
        tostring(c.rank_max), format("%.3f", ms(mean)), format("%.3f", ms(c.rank_min_ticks or 0)),
        tostring(c.rank_min or "-"), format("%.2f", mean > 0 and c.rank_max_ticks / mean or 0)}
    end
  end
  grid(rows, lines)
  if #sorted > top then add(format("(%d more rows not shown: --top)", #sorted - top)) end
  return lines
end

-- report prints the report (opts.out, default print) and writes it to opts.path if given.
function Profile:report(opts)
  opts = opts or {}
  local lines = self:report_lines(opts)
  if opts.path then
    local parts = {}
    for _, l in ipairs(lines) do parts[#parts + 1] = l; parts[#parts + 1] = "\n" end
    limpio.write_file(opts.path, parts, 1)
  end
  if opts.out ~= false then
    local out = opts.out or print
    for _, l in ipairs(lines) do out(l) end
  end
  return lines
end

local function csv_file(path, head, rows)
  local parts = {concat(head, ","), "\n"}
  for _, r in ipairs(rows) do parts[#parts + 1] = concat(r, ","); parts[#parts + 1] = "\n" end
  limpio.write_file(path, parts, 2)
end

-- report_csv writes DIR/PREFIX.callsites.csv (every callsite's reductions) and, with
-- per-rank rows, PREFIX.tasks.csv and PREFIX.ranks.csv (every rank x callsite).
function Profile:report_csv(dir, prefix)
  local sites = self:callsites()
  local hz = dpcl.timebase_hz
  local rows = {}
  for _, c in ipairs(sites) do
    rows[#rows + 1] = {c.id, c.name, c.file .. ":" .. c.line, c.caller, c.count, format("%.9g", c.ticks / hz),
      format("%.0f", c.bytes), c.nranks, c.rank_max, format("%.9g", c.rank_max_ticks / hz), c.rank_min or "",
      format("%.9g", (c.rank_min_ticks or 0) / hz), format("%.9g", c.call_max / hz), format("%.9g", (c.call_min or 0) / hz),
      format("%.0f", c.bytes_max), format("%.0f", c.bytes_min or 0)}
  end
  local written = {dir .. "/" .. prefix .. ".callsites.csv"}
  csv_file(written[1], {"site", "call", "file_line", "caller", "count", "time_s", "bytes", "ranks", "max_rank",
    "max_rank_s", "min_rank", "min_rank_s", "call_max_s", "call_min_s", "bytes_max", "bytes_min"}, rows)
  if self.site_rank_rows then
    local tasks, per = {}, {}
    for r = 0, self.app.size - 1 do
      local rr = self.site_rank_rows[r]
      if rr then
        tasks[#tasks + 1] = {r, format("%.9g", rr.app / hz), format("%.9g", rr.mpi / hz)}
        for _, c in ipairs(sites) do
          local s = rr.sites[c.id]
          if s and s.count > 0 then
            per[#per + 1] = {r, c.id, c.name, s.count, format("%.9g", s.ticks / hz), format("%.9g", s.tmax / hz),
              format("%.9g", s.tmin / hz), format("%.0f", s.bytes), format("%.0f", s.bmax), format("%.0f", s.bmin)}
          end
        end
      end
    end
    written[2] = dir .. "/" .. prefix .. ".tasks.csv"
    csv_file(written[2], {"rank", "app_s", "mpi_s"}, tasks)
    written[3] = dir .. "/" .. prefix .. ".ranks.csv"
    csv_file(written[3], {"rank", "site", "call", "count", "time_s", "max_s", "min_s", "bytes", "bytes_max", "bytes_min"}, per)
  end
  return written
end

sethelp(limpio, [[limpio — MPI profiling and tracing of unmodified programs (Lua over dpcl and probe).
limpio.profile(app, opts) -> Profile: counts, times, callsites and message bytes per rank,
kept in the ranks' memory and reduced through the tree at _exit. prof:report{...} prints
mpiP's sections (help(limpio.profile)); limpio.trace(app, opts) -> Trace records every
call's start and end for Perfetto. limpio.message_bytes(app, fname) is the probe
expression for the bytes a call moves; limpio.callsite_table(app) the program's callsites.
dpclsh profile PROG.elf runs the report from the command line.]])

sethelp(limpio.message_bytes, [[limpio.message_bytes(app, fname) -> Exp | nil, why
The bytes a call of fname moves, evaluated at its entry (int64): count x type size of the
buffer it sends or contributes (a derived type's size read from libmpi's dtypes); the v
variants with a counts array (Scatterv at its root, Alltoallv, Alltoallw with a type per
peer, Reduce_scatter, and their I-forms) sum it with probe.sum over the group the MPI
engine gives the communicator (probe.comm_size; an intercommunicator's remote group where
the call sends to it), on any communicator and at any job size. nil and the reason for a
function that moves no buffer.]])

sethelp(limpio.callsite_table, [[limpio.callsite_table(app) -> {sites = {{index=, ret=, name=, caller=, file=, line=}}, ...}
The program's calls of MPI functions from outside the MPI library (Fortran through the
mpi_*_ bindings), by return address; limpio.profile files each call under one of them or,
for calls from inside the library or through a pointer, "other".]])
