-- Tests of the example Lua filters: directly (f:apply) and through trees of several
-- shapes, against naive results computed from the inputs.

local topk = filter.load("examples/filters/topk.lua")
local spread = filter.load("examples/filters/spread.lua")

-- value_of is what back-end r sends; repeated inline in the back-end functions below.
local function value_of(r) return (r * 37) % 101 end

local function naive_topk(n, k)
  local items = {}
  for r = 0, n - 1 do items[#items + 1] = { v = value_of(r), r = r } end
  table.sort(items, function(a, b) if a.v ~= b.v then return a.v > b.v end return a.r < b.r end)
  local out = {}
  for i = 1, math.min(k, #items) do
    out[#out + 1] = items[i].v
    out[#out + 1] = items[i].r
  end
  return out
end

function TestTopkApply(t)
  local got = topk:apply({ { 5, rank = 1 }, { 9, rank = 2 }, { 5, rank = 0 }, { 1, rank = 3 } }, { k = 2 })
  t:eq(got, { 9, 2, 5, 0 })
  t:eq(topk.name, "topk")
end

function TestTopkMergesPartials(t)
  local got = topk:apply({ { 9, 2, 5, 0 }, { 7, 4, 1, 3 } }, { k = 3 })
  t:eq(got, { 9, 2, 7, 4, 5, 0 })
end

function TestTopkThroughTrees(t)
  for _, topo in ipairs({ "b:4^3", "b:16", "k:3@40", "g:2:3,1:4,4,4,2" }) do
    local net = netreduce.new{topology = topo}
    net:on_backend(function(rank) return (rank * 37) % 101 end)
    local s = net:stream(net:broadcast(), { up = topk, params = { k = 4 } })
    s:send("%d", 0)
    t:eq({ s:recv() }, naive_topk(net:backends(), 4), topo)
    net:close()
  end
end

function TestSpreadThroughTree(t)
  local net = netreduce.new{topology = "b:8^2"}
  net:on_backend(function(rank) return (rank * 37) % 101 end)
  local s = net:stream(net:communicator("3-40"), { up = spread })
  s:send("%d", 0)
  local lo, lor, hi, hir, mean = s:recv()
  local nlo, nlor, nhi, nhir, sum = math.huge, -1, -math.huge, -1, 0
  for r = 3, 40 do
    local v = value_of(r)
    if v < nlo then nlo, nlor = v, r end
    if v > nhi then nhi, nhir = v, r end
    sum = sum + v
  end
  t:eq({ lo, lor, hi, hir }, { nlo, nlor, nhi, nhir })
  t:ok(math.abs(mean - sum / 38) < 1e-9, "mean " .. mean)
  net:close()
end

function TestBuiltinsListed(t)
  local names = table.concat(filter.builtins(), " ")
  for _, f in ipairs({ "sum", "avg", "min", "max", "concat", "eqclass", "histogram" }) do
    t:ok(names:find(f, 1, true), f .. " listed")
  end
end
