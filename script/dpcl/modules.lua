-- modules.lua: DynTG's performance modules over the public API. A module is NAME.lua or
-- NAME/init.lua returning {query = function(caps) ... end, init = function(app, params) ... end}.
-- query returns {description = "...", requires = {counters = {...}, features = {...}}};
-- init returns {actions = {{name =, doc =, probe = function(site, point) -> Exp}, ...},
-- sources = {{name =, unit =, agg =, read = function(rank) -> {[site + 1] = v}}, ...}}.
-- An action with reports = false (a stop) keeps no data at its own sites.
-- Sites are numbered per module and application from 0 (params.sites of them); each point
-- an action is inserted at gets one, and the data sources report per site.
local host = ...
local format, concat, sort = string.format, table.concat, table.sort

local M = {}
local selected, selected_by = {}, {} -- the modules dpcl.load_modules chose, in order
local AGGS = {sum = true, min = true, max = true, avg = true}
local FEATURES = {timebase = true, arrays = true, stacks = true, line_points = true,
  send = true, counters = true}

-- caps is what query() is told about the machine; requirements are checked against it.
local function caps()
  local c, set = {}, {}
  for i, n in ipairs(host.counters) do c[i] = n; set[n] = true end
  local f = {}
  for k in pairs(FEATURES) do f[#f + 1] = k end
  sort(f)
  return {counters = c, features = f, timebase_hz = dpcl.timebase_hz, machine = "bgl"}, set
end

local function names_of(list)
  local out = {}
  for i, e in ipairs(list) do out[i] = e.name end
  return concat(out, ", ")
end

-- unmet says which requirement the machine cannot meet, or nil.
local function unmet(req)
  if req == nil then return nil end
  if type(req) ~= "table" then return "requires must be a table" end
  local _, counters = caps()
  for _, n in ipairs(req.counters or {}) do
    if not counters[n] then
      return format("needs the hardware counter %q, which this machine does not count", n)
    end
  end
  for _, f in ipairs(req.features or {}) do
    if not FEATURES[f] then return format("needs %q, which this machine does not offer", f) end
  end
  return nil
end

-- probe_module loads one module file and runs its query: the entry says ok or why not.
local function probe_module(f)
  local e = {name = f.name, path = f.path, ok = false, description = ""}
  local chunk, err = loadfile(f.path)
  if not chunk then e.reason = "does not load: " .. tostring(err); return e end
  local ok, mod = pcall(chunk, f.name, f.path:match("^(.*)[/\\]") or ".")
  if not ok then e.reason = "does not load: " .. tostring(mod); return e end
  if type(mod) ~= "table" or type(mod.query) ~= "function" or type(mod.init) ~= "function" then
    e.reason = "is not a module: it must return a table with query and init functions"
    return e
  end
  local qok, q = pcall(mod.query, caps())
  if not qok then e.reason = "query failed: " .. tostring(q); return e end
  if type(q) ~= "table" or type(q.description) ~= "string" then
    e.reason = "query must return {description = string, requires = {...}}"
    return e
  end
  e.description, e.module = q.description, mod
  local why = unmet(q.requires)
  if why then e.reason = why; return e end
  e.ok = true
  return e
end

local function library(dir)
  local out = {}
  for _, f in ipairs(host.scan(dir)) do out[#out + 1] = probe_module(f) end
  return out
end

local function module_dir(dir)
  if dir ~= nil and type(dir) ~= "string" then error("dpcl.modules: dir must be a string", 0) end
  return dir or dpcl.module_dir or "examples/modules"
end

function M.modules(dir)
  local out = {}
  for _, e in ipairs(library(module_dir(dir))) do
    out[#out + 1] = {name = e.name, description = e.description, ok = e.ok, reason = e.reason,
      path = e.path}
  end
  return out
end

-- check_init validates what init returned and gives the module's actions and sources
-- their full names.
local function check_init(name, r)
  if type(r) ~= "table" then error("init must return {actions = {...}, sources = {...}}", 0) end
  local inst = {actions = {}, sources = {}, by_action = {}}
  for i, a in ipairs(r.actions or {}) do
    if type(a.name) ~= "string" or a.name:find("%.") or type(a.probe) ~= "function" then
      error(format("action %d needs a name without dots and a probe function", i), 0)
    end
    local act = {name = name .. "." .. a.name, doc = a.doc or "", probe = a.probe,
      reports = a.reports ~= false}
    inst.actions[#inst.actions + 1] = act
    inst.by_action[act.name] = act
  end
  for i, s in ipairs(r.sources or {}) do
    if type(s.name) ~= "string" or type(s.read) ~= "function" then
      error(format("source %d needs a name and a read function", i), 0)
    end
    if not AGGS[s.agg or "sum"] then
      error(format("source %s: agg %q is not sum, min, max or avg", s.name, tostring(s.agg)), 0)
    end
    inst.sources[#inst.sources + 1] = {name = name .. "." .. s.name, unit = s.unit or "",
      agg = s.agg or "sum", read = s.read, scale = s.scale}
  end
  inst.data, inst.warnings = r.data, r.warnings or {}
  return inst
end

-- instantiate runs one selected module's init for an application; nil, reason on failure.
local function instantiate(app, state, sel)
  state.instances = state.instances or {}
  state.by_module = state.by_module or {}
  if state.by_module[sel.name] then return state.by_module[sel.name] end
  local params = {}
  for k, v in pairs(sel.params or {}) do params[k] = v end
  params.sites = params.sites or 256
  local ok, r = pcall(sel.entry.module.init, app, params)
  if not ok then return nil, "init failed: " .. tostring(r) end
  local cok, inst = pcall(check_init, sel.name, r)
  if not cok then return nil, "init failed: " .. tostring(inst) end
  inst.name, inst.description, inst.capacity, inst.next_site = sel.name, sel.entry.description, params.sites, 0
  inst.sites = {}
  for _, w in ipairs(inst.warnings) do host.warn(tostring(w)) end
  state.by_module[sel.name] = inst
  state.instances[#state.instances + 1] = inst
  return inst
end

local function refuse(report, name, reason)
  report[#report + 1] = {name = name, ok = false, reason = reason}
  host.warn(format("dpcl.load_modules: module %s refused: %s", tostring(name), reason))
end

function M.load_modules(spec)
  if type(spec) ~= "table" then error("dpcl.load_modules: a table of module names expected", 0) end
  local dir = module_dir(spec.dir)
  local params = spec.params or {}
  local lib, by = library(dir), {}
  for _, e in ipairs(lib) do by[e.name] = e end
  local report = {}
  for _, name in ipairs(spec) do
    local e = by[name]
    if type(name) ~= "string" then
      refuse(report, name, "module names are strings")
    elseif selected_by[name] then
      refuse(report, name, format("module %s is already loaded (from %s)", name, selected_by[name].entry.path))
    elseif not e then
      refuse(report, name, format("no module %q in %s (modules there: %s)", name, dir, names_of(lib)))
    elseif not e.ok then
      refuse(report, name, e.reason)
    else
      local sel = {name = name, entry = e, params = params[name]}
      local failed
      for _, a in ipairs(host.apps()) do
        local inst, why = instantiate(a.app, a.state, sel)
        if not inst then failed = why end
      end
      if failed then
        refuse(report, name, failed)
      else
        selected[#selected + 1], selected_by[name] = sel, sel
        report[#report + 1] = {name = name, ok = true, description = e.description}
      end
    end
  end
  return report
end

-- launched runs every selected module's init for a new application.
function M.launched(app, state)
  for _, sel in ipairs(selected) do
    local inst, why = instantiate(app, state, sel)
    if not inst then
      host.warn(format("dpcl: module %s excluded from %s: %s", sel.name, tostring(app), why))
    end
  end
end

function M.app_modules(app, state)
  local out = {}
  for _, inst in ipairs(state.instances or {}) do
    local acts, srcs = {}, {}
    for i, a in ipairs(inst.actions) do acts[i] = {name = a.name, doc = a.doc} end
    for i, s in ipairs(inst.sources) do srcs[i] = {name = s.name, unit = s.unit, agg = s.agg} end
    out[#out + 1] = {name = inst.name, description = inst.description, actions = acts,
      sources = srcs, data = inst.data, warnings = inst.warnings}
  end
  return out
end

local function find_action(state, name)
  local all = {}
  for _, inst in ipairs(state.instances or {}) do
    local a = inst.by_action[name]
    if a then return inst, a end
    for _, x in ipairs(inst.actions) do all[#all + 1] = x.name end
  end
  if #all == 0 then
    error(format("app:act: no action %q: no module is loaded for this application (dpcl.load_modules{...})", tostring(name)), 0)
  end
  error(format("app:act: no action %q (actions: %s)", tostring(name), concat(all, ", ")), 0)
end

local Act = {}
Act.__index = Act

function Act:remove()
  if self.removed then return end
  for _, h in ipairs(self.handles) do h:remove() end
  self.removed = true
  local live = self.state.acts
  for i = #live, 1, -1 do
    if live[i] == self then table.remove(live, i) end
  end
end

Act.__tostring = function(a)
  local where = a.file and format("%s:%d", a.file, a.line) or a.func or "?"
  return format("Act %s at %s (%d point%s%s)", a.name, where, #a.points, #a.points == 1 and "" or "s",
    a.removed and ", removed" or "")
end

-- points_of accepts a table of points, one point or a string for app:points.
local function points_of(app, points)
  if type(points) == "string" then return app:points(points) end
  if type(points) == "userdata" then return {points} end
  if type(points) ~= "table" or #points == 0 then
    error("app:act: points must be a non-empty table of points, a point or a string for app:points", 0)
  end
  return points
end

-- new_site numbers a point for a module; the site belongs to the point's line unless the
-- action reports nothing there (a stop: its data goes to the start's site).
local function new_site(inst, action, p)
  if inst.next_site >= inst.capacity then
    error(format("app:act: module %s has no free site (params.sites = %d)", inst.name, inst.capacity), 0)
  end
  local site = inst.next_site
  inst.next_site = site + 1
  if action.reports then
    inst.sites[site] = {file = p.file, line = p.line, func = p.func}
  else
    inst.sites[site] = {}
  end
  return site
end

function M.act(app, state, name, points, opts)
  local inst, action = find_action(state, name)
  local pts = points_of(app, points)
  opts = opts or {}
  local handles, sites = {}, {}
  for _, p in ipairs(pts) do
    local ok, err = pcall(function()
      local site = new_site(inst, action, p)
      local h = app:install({p}, action.probe(site, p), {context = opts.context})
      h:activate()
      handles[#handles + 1], sites[#sites + 1] = h, site
    end)
    if not ok then
      for _, h in ipairs(handles) do h:remove() end
      error(format("app:act: %s at %s: %s", name, tostring(p), tostring(err)), 0)
    end
  end
  local first = pts[1]
  local a = setmetatable({name = name, points = pts, handles = handles, sites = sites,
    file = first.file, line = first.line, func = first.func, state = state, module = inst.name}, Act)
  state.acts = state.acts or {}
  state.acts[#state.acts + 1] = a
  return a
end

function M.acts(app, state)
  local out = {}
  for i, a in ipairs(state.acts or {}) do out[i] = a end
  return out
end

return M
