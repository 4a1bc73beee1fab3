-- timer: wall-clock time of code regions (DynTG's Timer module), on the virtual timebase.
-- start pushes the time and its site on a timer stack in the rank's memory; stop pops the
-- most recently started timer and adds the difference to that start site's inclusive time
-- (so nested and recursive regions each count their own inclusive time). Both actions read
-- the timebase first, with the same code, so their fixed costs cancel in the difference.
-- A stop with no timer started counts as unmatched; starts past params.depth are not timed
-- (dropped) and neither are their stops.
local M = {}

function M.query(caps)
  return {description = "Inclusive wall-clock time between start and stop actions (timer stack)",
    requires = {features = {"timebase", "arrays", "stacks"}}}
end

function M.init(app, params)
  local n, depth = params.sites, params.depth or 64
  local ticks = app:array("int64", n, "timer_ticks")
  local calls = app:array("int64", n, "timer_calls")
  local unmatched = app:array("int64", n, "timer_unmatched")
  local starts = app:stack("int64", depth, "timer_starts")
  local owners = app:stack("int", depth, "timer_sites")
  local now, top, dropped = app:var("int64"), app:var("int"), app:var("int")
  local hz = dpcl.timebase_hz

  local function start(site)
    return probe.seq{
      now:assign(probe.timebase()),
      probe.when(owners:depth():lt(depth),
        probe.seq{starts:push(now), owners:push(site)},
        dropped:assign(dropped + 1)),
    }
  end

  local function stop(site)
    return probe.seq{
      now:assign(probe.timebase()),
      probe.when(dropped:gt(0), dropped:assign(dropped - 1),
        probe.when(owners:depth():gt(0),
          probe.seq{
            top:assign(owners:pop()),
            ticks[top]:assign(ticks[top] + (now - starts:pop())),
            calls[top]:assign(calls[top] + 1),
          },
          unmatched[site]:assign(unmatched[site] + 1))),
    }
  end

  local function seconds(rank)
    local t = ticks:read(rank)
    for i, v in ipairs(t) do t[i] = v / hz end
    return t
  end

  return {
    actions = {
      {name = "start", doc = "Start a timer here (pushed on the rank's timer stack)", probe = start},
      {name = "stop", doc = "Stop the most recently started timer; its time goes to its start line",
        probe = stop, reports = false},
    },
    sources = {
      {name = "time", unit = "s", agg = "sum", read = seconds},
      {name = "calls", unit = "count", agg = "sum", read = function(rank) return calls:read(rank) end},
    },
    data = {ticks = ticks, calls = calls, unmatched = unmatched, stack = owners},
  }
end

return M
