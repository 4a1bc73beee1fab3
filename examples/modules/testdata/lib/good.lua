-- A minimal module: counts at its sites (the library test's healthy module).
return {
  query = function() return {description = "a good module", requires = {features = {"arrays"}}} end,
  init = function(app, params)
    local n = app:array("int", params.sites)
    return {
      actions = {{name = "hit", doc = "count", probe = function(site) return n[site]:assign(n[site] + 1) end}},
      sources = {{name = "hits", unit = "count", agg = "max", read = function(rank) return n:read(rank) end}},
    }
  end,
}
