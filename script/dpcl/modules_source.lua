-- modules_source.lua: per-source-line live data (Tool Gear's source browser, as text). The
-- columns are the loaded modules' data sources; each rank's per-site values are summed per
-- line, function, file and program, then aggregated over the context's ranks with the
-- column's agg (sum, min, max, avg).
local M = ...
local format, concat = string.format, table.concat

local function read_text(path)
  local lines = {}
  if not path then return lines end
  local f = io.open(path, "r")
  if not f then return lines end
  for l in f:lines() do lines[#lines + 1] = l end
  f:close()
  return lines
end

local function ranks_of(app, c)
  if c == nil then
    local out = {}
    for r = 0, app.size - 1 do out[#out + 1] = r end
    return out
  end
  return c:list()
end

local AGG = {
  sum = function(vs) local s = 0 for _, v in ipairs(vs) do s = s + v end return s end,
  min = function(vs) local m = vs[1] for _, v in ipairs(vs) do if v < m then m = v end end return m end,
  max = function(vs) local m = vs[1] for _, v in ipairs(vs) do if v > m then m = v end end return m end,
}
AGG.avg = function(vs) if #vs == 0 then return nil end return AGG.sum(vs) / #vs end

local function bump(t, k, v) t[k] = (t[k] or 0) + v end

-- per_rank sums one column's sites for one rank into lines, functions, file and program.
local function per_rank(src, inst, rank, file)
  local vals = src.read(rank) or {}
  local r = {lines = {}, funcs = {}, file = 0, program = 0}
  for site, s in pairs(inst.sites) do
    local v = vals[site + 1] or 0
    r.program = r.program + v
    if s.file == file then
      r.file = r.file + v
      if s.line then bump(r.lines, s.line, v) end
      if s.func then bump(r.funcs, s.func, v) end
    end
  end
  return r
end

-- column aggregates one data source over the ranks.
local function column(src, inst, ranks, file)
  local per = {}
  for i, rank in ipairs(ranks) do per[i] = per_rank(src, inst, rank, file) end
  local agg = AGG[src.agg]
  local function over(get)
    local vs = {}
    for i, r in ipairs(per) do vs[i] = get(r) or 0 end
    if #vs == 0 then return nil end
    return agg(vs)
  end
  local out = {lines = {}, funcs = {}}
  out.program = over(function(r) return r.program end)
  out.file = over(function(r) return r.file end)
  local lines, funcs = {}, {}
  for _, s in pairs(inst.sites) do
    if s.file == file then
      if s.line then lines[s.line] = true end
      if s.func then funcs[s.func] = true end
    end
  end
  for l in pairs(lines) do out.lines[l] = over(function(r) return r.lines[l] end) end
  for f in pairs(funcs) do out.funcs[f] = over(function(r) return r.funcs[f] end) end
  return out
end

function M.source_data(app, state, file, opts)
  if type(file) ~= "string" then error("app:source_data: a source file name expected", 0) end
  opts = opts or {}
  local ok, info = pcall(app.source_info, app, file)
  if not ok then -- the user called app:source, not this file's helper
    error((tostring(info):gsub("^[^:]*%.lua:%d+: app:source_info: ", "app:source: ")), 0)
  end
  local text, code = read_text(info.path), {}
  for _, l in ipairs(info.lines) do code[l] = true end
  local ranks = ranks_of(app, opts.context)
  local d = {file = info.file, path = info.path, columns = {}, lines = {}, functions = {},
    file_totals = {}, program_totals = {}, ranks = #ranks}
  local cols = {}
  for _, inst in ipairs(state.instances or {}) do
    for _, src in ipairs(inst.sources) do
      d.columns[#d.columns + 1] = {name = src.name, unit = src.unit, agg = src.agg}
      cols[#cols + 1] = {name = src.name, data = column(src, inst, ranks, info.file)}
    end
  end
  local last = #text
  for _, l in ipairs(info.lines) do if l > last then last = l end end
  for n = 1, last do
    local vals = {}
    for _, c in ipairs(cols) do vals[c.name] = c.data.lines[n] end
    d.lines[n] = {line = n, text = text[n] or "", instrumentable = code[n] == true, values = vals}
  end
  for _, f in ipairs(info.functions) do
    local vals = {}
    for _, c in ipairs(cols) do vals[c.name] = c.data.funcs[f.name] end
    d.functions[#d.functions + 1] = {name = f.name, first = f.first, last = f.last, values = vals}
  end
  for _, c in ipairs(cols) do
    d.file_totals[c.name], d.program_totals[c.name] = c.data.file, c.data.program
  end
  return d
end

local function num(v)
  if v == nil then return "" end
  if v == math.floor(v) and math.abs(v) < 1e15 then return format("%d", v) end
  return format("%.4g", v)
end

-- agg_words says how a column combines the ranks' values, in the header's words.
local agg_words = {sum = "total", avg = "mean", min = "min", max = "max"}

-- render turns source data into printed lines: a label column as wide as its longest
-- label (a long path or function name shifts every row alike), the columns' names, then
-- their units and how ranks combine ("count, total", "s, mean").
local function render(d, opts)
  local labels = {"program", "file " .. d.file}
  for _, f in ipairs(d.functions) do labels[#labels + 1] = format("%s (%d-%d)", f.name, f.first, f.last) end
  local lw = 26
  for _, l in ipairs(labels) do lw = math.max(lw, #l) end
  local widths, head1, head2 = {}, {}, {}
  for i, c in ipairs(d.columns) do
    local unit = c.unit .. ", " .. (agg_words[c.agg] or c.agg)
    widths[i] = math.max(10, #c.name, #unit)
    head1[i] = format("%" .. widths[i] .. "s", c.name)
    head2[i] = format("%" .. widths[i] .. "s", unit)
  end
  local function cells(vals)
    local out = {}
    for i, c in ipairs(d.columns) do out[i] = format("%" .. widths[i] .. "s", num(vals[c.name])) end
    return concat(out, " ")
  end
  local out = {format("== %s (%d ranks) ==", d.file, d.ranks)}
  if #d.columns == 0 then
    out[#out + 1] = "(no module data sources: dpcl.load_modules{...} and app:act(...) add columns)"
  end
  local label = "%-" .. lw .. "s "
  out[#out + 1] = format(label, "") .. concat(head1, " ")
  out[#out + 1] = format(label, "") .. concat(head2, " ")
  out[#out + 1] = format(label, labels[1]) .. cells(d.program_totals)
  out[#out + 1] = format(label, labels[2]) .. cells(d.file_totals)
  for i, f in ipairs(d.functions) do
    out[#out + 1] = format(label, labels[i + 2]) .. cells(f.values)
  end
  local from, to = opts.from or 1, opts.to or #d.lines
  for n = from, math.min(to, #d.lines) do
    local l = d.lines[n]
    out[#out + 1] = format(label, format("%5d%s", n, l.instrumentable and ":" or " ")) .. cells(l.values)
      .. " | " .. l.text:gsub("\t", "    ")
  end
  return out
end

local function digest(d)
  local parts = {}
  for _, l in ipairs(d.lines) do
    for _, c in ipairs(d.columns) do
      local v = l.values[c.name]
      if v then parts[#parts + 1] = l.line .. c.name .. v end
    end
  end
  return concat(parts, ";")
end

function M.source(app, state, file, opts)
  opts = opts or {}
  local out = opts.out or print
  local interval = opts.interval or 0.01
  if type(interval) ~= "number" or interval <= 0 then
    error("app:source: interval must be a positive number of virtual seconds", 0)
  end
  local last
  while true do
    local d = M.source_data(app, state, file, opts)
    local key = digest(d)
    if key ~= last then
      if last then out(format("-- at %.6f virtual s", app:now() / 1e9)) end
      out(concat(render(d, opts), "\n"))
      last = key
    end
    if not opts.follow or app:status() ~= "running" then return end
    dpcl.sleep(interval)
  end
end
