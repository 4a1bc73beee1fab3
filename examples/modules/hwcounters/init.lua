-- hwcounters: PAPI-style hardware events of the simulated core (DynTG's PMAPI module). The
-- user gives a priority list of events (params.events); the module places them on the
-- counter registers of registers.lua, each of which counts only its own event set, by
-- bipartite matching: events are taken in priority order and each is placed if an
-- augmenting path exists, so the placed set is the best one for the priority order (the
-- greedy algorithm is optimal on this transversal matroid), unlike first-fit, which can
-- block a later event that only one register counts. Events that cannot be placed are
-- reported. Actions start and stop all placed events, or one (start_PAPI_TOT_INS ...), on a
-- stack per event as the timer module does; counts go to the start site.
local name, dir = ...
local M = {}
M.pmu = dofile(dir .. "/registers.lua")
M.default_events = {"PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_LD_INS", "PAPI_SR_INS"}

-- assign places the events of priority (names, highest first) on pmu's registers. It returns
-- {[event] = register name} for the placed ones, the unplaced events in priority order, and
-- an error for a name the PMU does not know.
function M.assign(priority, pmu)
  pmu = pmu or M.pmu
  local owner = {} -- register index -> event
  local function try(ev, seen)
    for ri, reg in ipairs(pmu.registers) do
      local can = false
      for _, e in ipairs(reg.events) do if e == ev then can = true end end
      if can and not seen[ri] then
        seen[ri] = true
        if owner[ri] == nil or try(owner[ri], seen) then
          owner[ri] = ev
          return true
        end
      end
    end
    return false
  end
  local unplaced, seen_ev = {}, {}
  for _, ev in ipairs(priority) do
    if not pmu.events[ev] then
      local known = {}
      for k in pairs(pmu.events) do known[#known + 1] = k end
      table.sort(known)
      return nil, nil, string.format("unknown event %q (events: %s)", tostring(ev), table.concat(known, ", "))
    end
    if not seen_ev[ev] then
      seen_ev[ev] = true
      if not try(ev, {}) then unplaced[#unplaced + 1] = ev end
    end
  end
  local placed = {}
  for ri, ev in pairs(owner) do placed[ev] = pmu.registers[ri].name end
  return placed, unplaced
end

function M.query(caps)
  local need = {}
  for _, c in pairs(M.pmu.events) do need[#need + 1] = c end
  table.sort(need)
  return {description = "PAPI-style hardware counter events on limited counter registers",
    requires = {counters = need, features = {"arrays", "stacks"}}}
end

-- event builds one placed event's state and expressions.
local function event(app, ev, counter, n, depth)
  local e = {name = ev, counter = counter}
  e.acc = app:array("int64", n, "hwc_" .. ev)
  e.values = app:stack("int64", depth, "hwc_values_" .. ev)
  e.sites = app:stack("int", depth, "hwc_sites_" .. ev)
  e.now, e.top, e.dropped = app:var("int64"), app:var("int"), app:var("int")
  e.read = e.now:assign(probe.counter(counter))
  e.push = function(site)
    return probe.when(e.sites:depth():lt(depth), probe.seq{e.values:push(e.now), e.sites:push(site)},
      e.dropped:assign(e.dropped + 1))
  end
  e.pop = probe.when(e.dropped:gt(0), e.dropped:assign(e.dropped - 1),
    probe.when(e.sites:depth():gt(0), probe.seq{
      e.top:assign(e.sites:pop()),
      e.acc[e.top]:assign(e.acc[e.top] + (e.now - e.values:pop())),
    }))
  return e
end

function M.init(app, params)
  local placed, unplaced, err = M.assign(params.events or M.default_events)
  if not placed then error("hwcounters: " .. err, 0) end
  local evs, depth = {}, params.depth or 64
  for _, ev in ipairs(params.events or M.default_events) do
    if placed[ev] then evs[#evs + 1] = event(app, ev, M.pmu.events[ev], params.sites, depth) end
  end
  local function all(pick)
    return function(site)
      local seq = {}
      for _, e in ipairs(evs) do seq[#seq + 1] = e.read end
      for _, e in ipairs(evs) do seq[#seq + 1] = pick(e, site) end
      return probe.seq(seq)
    end
  end
  local actions = {
    {name = "start", doc = "Start every placed event here", probe = all(function(e, s) return e.push(s) end)},
    {name = "stop", doc = "Stop every placed event (the most recent start)", probe = all(function(e) return e.pop end),
      reports = false},
  }
  local sources = {}
  for _, e in ipairs(evs) do
    actions[#actions + 1] = {name = "start_" .. e.name, doc = "Start " .. e.name .. " here",
      probe = function(site) return probe.seq{e.read, e.push(site)} end}
    actions[#actions + 1] = {name = "stop_" .. e.name, doc = "Stop " .. e.name,
      probe = function() return probe.seq{e.read, e.pop} end, reports = false}
    sources[#sources + 1] = {name = e.name, unit = "events", agg = "sum",
      read = function(rank) return e.acc:read(rank) end}
  end
  local warnings = {}
  if #unplaced > 0 then
    warnings[1] = "hwcounters: no free register counts " .. table.concat(unplaced, ", ")
  end
  return {actions = actions, sources = sources, warnings = warnings,
    data = {placed = placed, unplaced = unplaced}}
end

return M
