-- Tests of examples/netreduce/eqclass.lua against a naive grouping of the simulated builds.
local eq = dofile("examples/netreduce/eqclass.lua")

local function naive(n)
  local groups, order = {}, {}
  for r = 0, n - 1 do
    local b = eq.build_of(r)
    if not groups[b] then groups[b] = {}; order[#order + 1] = b end
    table.insert(groups[b], r)
  end
  return groups
end

local function spec_members(spec)
  local out = {}
  for part in spec:gmatch("[^,]+") do
    local lo, hi = part:match("^(%d+)-(%d+)$")
    if lo then
      for r = tonumber(lo), tonumber(hi) do out[#out + 1] = r end
    else
      out[#out + 1] = tonumber(part)
    end
  end
  return out
end

function TestClassesMatchNaiveGrouping(t)
  for _, topo in ipairs({ "b:8^2", "b:4^3", "k:2@50", "flat:20" }) do
    local classes = eq.classes(topo)
    local _, n = netreduce.topology(topo)
    local want = naive(n)
    local nwant = 0
    for _ in pairs(want) do nwant = nwant + 1 end
    t:eq(#classes, nwant, topo .. ": number of classes")
    for i, c in ipairs(classes) do
      local build = c.functions:match("^([^:]+):")
      t:eq(spec_members(c.ranks), want[build], topo .. ": members of " .. tostring(build))
      if i > 1 then t:ok(classes[i - 1].value < c.value, "sorted by value") end
    end
  end
end

function TestRepresentativesOnlyAreAsked(t)
  local classes = eq.classes("b:4^3")
  for _, c in ipairs(classes) do
    t:eq(c.representative, spec_members(c.ranks)[1])
    t:ok(c.functions ~= nil, "representative answered")
  end
end
