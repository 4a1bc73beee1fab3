-- counter: how often a location runs (DynTG's Counter module). One int64 per site in each
-- rank's memory; the action adds one, the data source reads the counts back.
local M = {}

function M.query(caps)
  return {description = "Counts how often a location runs, per rank",
    requires = {features = {"arrays"}}}
end

function M.init(app, params)
  local counts = app:array("int64", params.sites, "counter_counts")
  return {
    actions = {
      {name = "count", doc = "Count here: adds one every time the location runs",
        probe = function(site) return counts[site]:assign(counts[site] + 1) end},
    },
    sources = {
      {name = "count", unit = "count", agg = "sum",
        read = function(rank) return counts:read(rank) end},
    },
  }
end

return M
