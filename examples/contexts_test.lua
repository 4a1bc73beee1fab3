-- Tests of the ctx module: probe contexts and their algebra (DESIGN.md section 9).
-- Run with: dpclsh test examples/contexts_test.lua
--
-- Error patterns below avoid Lua pattern magic characters so they read the same as plain
-- substrings.

local function spec(c) return c:spec() end
local function joined(list) return table.concat(list, ",") end

function TestConstructors(t)
  t:eq(tostring(ctx.all(8)), "ctx{0-7} (8 of 8)")
  t:eq(tostring(ctx.none(256)), "ctx{} (0 of 256)")
  t:eq(tostring(ctx.single(256, 0)), "ctx{0} (1 of 256)")
  t:eq(tostring(ctx.ranks(256, "1-5,7,9-10")), "ctx{1-5,7,9-10} (8 of 256)")
  t:eq(tostring(ctx.ranks(256, {9, 1, 2, 3, 10})), "ctx{1-3,9-10} (5 of 256)")
  t:eq(spec(ctx.ranks(256, "")), "")
  t:eq(spec(ctx.ranks(256, " 200 , 0-127 ")), "0-127,200")
  t:eq(spec(ctx.ranks(16, {})), "")
  t:eq(#ctx.all(1024), 1024)
  t:eq(ctx.all(1024):size(), 1024)
  t:eq(#ctx.all(0), 0)
  t:eq(#ctx.all(1048576), 1048576, "a full BG/L and then some")
end

function TestConstructorsAcceptAContextAsTheSize(t)
  local c = ctx.ranks(300, "3")
  t:eq(tostring(ctx.all(c)), "ctx{0-299} (300 of 300)")
  t:eq(ctx.none(c):size(), 300)
end

function TestModuleConstants(t)
  t:eq(ctx.max_size, 16777216)
  t:eq(ctx.default_per_io, 64)
  t:eq(require("ctx"), ctx, "require returns the global table")
end

function TestWhere(t)
  t:eq(spec(ctx.where(256, function(r) return r % 64 == 0 end)), "0,64,128,192")
  local seen = {}
  ctx.where(5, function(r) seen[#seen + 1] = r; return nil end)
  t:eq(joined(seen), "0,1,2,3,4", "called once per rank, in order")
  t:eq(#ctx.where(10, function() return 0 end), 10, "0 is true in Lua")
end

function TestIONodeWithPlainSize(t)
  t:eq(spec(ctx.ionode(256, 0)), "0-63", "64 per I/O node by default")
  t:eq(spec(ctx.ionode(256, 3)), "192-255")
  t:eq(spec(ctx.ionode(200, 3)), "192-199", "last group may be short")
  t:eq(spec(ctx.ionode(256, 5, 8)), "40-47")
end

function TestTorusBox(t)
  t:eq(spec(ctx.box(64, {4, 4, 4}, {0, 0, 0}, {1, 1, 0})), "0-1,4-5")
  t:eq(spec(ctx.box(64, {8, 8, 1}, {7, 0, 0}, {0, 1, 0})), "0,7-8,15", "wraps around X")
  t:eq(#ctx.box(512, {8, 8, 8}, {0, 0, 0}, {7, 7, 7}), 512)
  t:eq(spec(ctx.box(10, {4, 4, 1}, {1, 2, 0}, {2, 3, 0})), "9", "ranks past the job are left out")
end

function TestOperators(t)
  local app = 256
  local all = ctx.all(app)
  local c = (all - ctx.single(app, 0)) * ctx.ranks(app, "0-127")
  t:eq(spec(c), "1-127")
  t:eq(spec(ctx.ranks(16, "0-3") + ctx.ranks(16, "2-5")), "0-5")
  t:eq(spec(ctx.ranks(16, "0-3") * ctx.ranks(16, "2-5")), "2-3")
  t:eq(spec(ctx.ranks(16, "0-3") - ctx.ranks(16, "2-5")), "0-1")
  t:eq(spec(-ctx.ranks(16, "0-3,8")), "4-7,9-15")
  t:eq(spec(-ctx.none(70)), "0-69")
  t:eq(#(-ctx.all(70)), 0)
end

function TestOperatorsReturnNewContexts(t)
  local a, b = ctx.ranks(8, "0-3"), ctx.ranks(8, "4")
  local u = a + b
  u:add(7)
  t:eq(spec(a), "0-3")
  t:eq(spec(b), "4")
  t:eq(spec(u), "0-4,7")
  local n = -a
  n:remove(4)
  t:eq(spec(a), "0-3")
end

function TestSetLaws(t)
  for _, n in ipairs({63, 64, 65, 130}) do
    local a = ctx.where(n, function(r) return r % 3 == 0 end)
    local b = ctx.where(n, function(r) return r % 5 < 2 end)
    local c = ctx.ranks(n, "10-40")
    t:ok(-(a + b) == (-a) * (-b), "De Morgan (union) at " .. n)
    t:ok(-(a * b) == (-a) + (-b), "De Morgan (intersection) at " .. n)
    t:ok(-(-a) == a, "double complement at " .. n)
    t:ok(a * (b + c) == (a * b) + (a * c), "distributivity at " .. n)
    t:ok(a - b == a * (-b), "difference at " .. n)
    t:eq(#a + #(-a), n)
  end
end

function TestEquality(t)
  t:ok(ctx.ranks(8, "1-3") == ctx.ranks(8, {3, 2, 1}))
  t:ok(ctx.ranks(8, "1-3") ~= ctx.ranks(8, "1-4"))
  t:ok(ctx.all(8) ~= ctx.all(9), "different sizes are never equal")
  t:ok(ctx.none(8) ~= ctx.none(9))
  t:ok(ctx.all(8) == ctx.all(8):aggregate("sum"), "the aggregation is not compared")
end

function TestAddRemoveInPlace(t)
  local c = ctx.none(64)
  t:eq(c:add(5), c, "add returns the context itself")
  c:add("10-12"):add({20, 21}):add(ctx.ranks(64, "63"))
  t:eq(spec(c), "5,10-12,20-21,63")
  t:eq(c:remove(11), c)
  c:remove("20-30"):remove({63}):remove(ctx.single(64, 5))
  t:eq(spec(c), "10,12")
  c:remove(0)
  t:eq(spec(c), "10,12", "removing a non-member is fine")
end

function TestContains(t)
  local c = ctx.ranks(100, "0,50-60,99")
  t:ok(c:contains(0))
  t:ok(c:contains(55))
  t:ok(not c:contains(61))
  t:ok(not c:contains(100), "outside the application")
  t:ok(not c:contains(-1))
end

function TestCopyListRanks(t)
  local c = ctx.ranks(32, "1,3-5,31")
  local d = c:copy()
  d:add(0)
  t:eq(spec(c), "1,3-5,31")
  t:eq(spec(d), "0-1,3-5,31")
  t:eq(joined(c:list()), "1,3,4,5,31")
  t:eq(#ctx.none(5):list(), 0)
  local seen = {}
  for r in c:ranks() do seen[#seen + 1] = r end
  t:eq(joined(seen), "1,3,4,5,31")
  for r in c:ranks() do c:remove(r) end
  t:eq(#c, 0, "ranks() iterates over a snapshot")
end

function TestSample(t)
  local c = ctx.ranks(256, "1-127")
  local s = c:sample(10, 42)
  t:eq(#s, 13, "floor(127 * 10 / 100 + 0.5)")
  t:ok(s * c == s, "a subset of c")
  t:ok(s == c:sample(10, 42), "same seed, same sample")
  t:ok(s ~= c:sample(10, 43), "another seed, another sample")
  t:eq(#ctx.all(5):sample(10, 1), 1, "0.5 rounds up")
  t:eq(#ctx.all(4):sample(10, 1), 0)
  t:eq(#ctx.all(256):sample(0, 7), 0)
  t:ok(ctx.all(256):sample(100, 7) == ctx.all(256))
  t:eq(#ctx.all(1000):sample(12.5), 125, "seed defaults to 0")
  t:eq(spec(ctx.all(100):sample(10, 42)), "8,17,20,45,48-50,77,86,89", "samples never change")
end

function TestAggregation(t)
  local c = ctx.ranks(16, "0-7")
  t:eq(c:aggregation(), nil)
  local a = c:aggregate{filter = "histogram", params = {min = 0, max = 10, bins = 5, edges = {1, 2}}}
  t:eq(tostring(a), "ctx{0-7} (8 of 16) filter=histogram sync=waitforall")
  local g = a:aggregation()
  t:eq(g.filter, "histogram")
  t:eq(g.sync, "waitforall")
  t:eq(g.params.bins, 5)
  t:eq(joined(g.params.edges), "1,2")
  t:eq(c:aggregation(), nil, "aggregate returns a copy")
  local m = c:aggregate{filter = "max", sync = "timeout", timeout = 0.005}
  t:eq(m:aggregation().timeout, 0.005)
  t:eq(tostring(m), "ctx{0-7} (8 of 16) filter=max sync=timeout timeout=5ms")
  t:eq(c:aggregate("sum"):aggregation().filter, "sum")
  t:eq(a:aggregate(nil):aggregation(), nil)
  t:eq((a + ctx.single(16, 9)):aggregation().filter, "histogram", "operations keep the left aggregation")
  t:eq((-a):aggregation().filter, "histogram")
  t:eq(a:copy():aggregation().params.max, 10)
end

function TestSizeMismatchErrors(t)
  local a, b = ctx.all(256), ctx.all(1024)
  local msg = "cannot combine contexts of different sizes: 256 and 1024"
  t:error(function() return a + b end, msg)
  t:error(function() return a * b end, msg)
  t:error(function() return a - b end, msg)
  t:error(function() a:add(b) end, msg)
  t:error(function() a:remove(b) end, msg)
end

function TestSpecErrors(t)
  t:error(function() ctx.ranks(256, "5,5-2") end, 'item "5')
  t:error(function() ctx.ranks(256, "5-2") end, "descending range")
  t:error(function() ctx.ranks(256, "-3") end, "missing range start")
  t:error(function() ctx.ranks(256, "3-") end, "missing range end")
  t:error(function() ctx.ranks(256, "1,,2") end, 'item "" at offset 2: empty item')
  t:error(function() ctx.ranks(256, "0,300") end, 'item "300" at offset 2: rank 300 out of range')
  t:error(function() ctx.ranks(256, "1,x7") end, 'item "x7" at offset 2: "x7" is not a rank')
end

function TestArgumentErrors(t)
  t:error(function() ctx.all("many") end, 'application or size expected, got string "many"')
  t:error(function() ctx.all(-1) end, "bad size")
  t:error(function() ctx.all(1.5) end, "size must be an integer")
  t:error(function() ctx.single(4, 4) end, "rank 4 out of range")
  t:error(function() ctx.ranks(4, {1, 2.5}) end, "list item 2: rank must be an integer")
  t:error(function() ctx.ranks(4, {1, 9}) end, "list item 2: rank 9 out of range")
  t:error(function() ctx.ranks(4, {1, x = 2}) end, "list of ranks has 1 keys besides items 1 to 1")
  t:error(function() ctx.ranks(4, true) end, "rank, spec string, list of ranks or context expected")
  t:error(function() ctx.where(4, 5) end, "function expected")
  t:error(function() ctx.where(8, function(r) if r == 5 then error("no good") end end) end,
    "predicate failed at rank 5")
  t:error(function() return ctx.all(4) + 1 end, "needs two contexts")
  t:error(function() ctx.all(4):contains("x") end, "rank must be an integer")
  t:error(function() ctx.all(4):sample(101, 1) end, "bad sample percentage 101")
  t:error(function() ctx.all(4):sample(10, -1) end, "seed must be an integer")
end

function TestIONodeAndBoxErrors(t)
  t:error(function() ctx.ionode(256, 4) end, "I/O node 4 out of range")
  t:error(function() ctx.ionode(256, 0, 0) end, "bad ranks per I/O node 0")
  t:error(function() ctx.ionode(ctx.all(256), 0) end, "has no I/O node map")
  t:error(function() ctx.box(64, {4, 4}, {0, 0, 0}, {1, 1, 1}) end, "shape must be")
  t:error(function() ctx.box(64, {4, 4, 2}, {0, 0, 0}, {1, 1, 1}) end, "fewer than 64 ranks")
  t:error(function() ctx.box(64, {4, 4, 4}, {0, 0, 0}, {1, 4, 1}) end, "Y coordinate 4 out of range")
end

function TestAggregationErrors(t)
  local c = ctx.all(4)
  t:error(function() c:aggregate{} end, "no filter")
  t:error(function() c:aggregate{filtr = "sum"} end, 'unknown field string "filtr"')
  t:error(function() c:aggregate{filter = "sum", sync = "later"} end, 'bad sync mode "later"')
  t:error(function() c:aggregate{filter = "sum", sync = "timeout"} end, "needs a positive timeout")
  t:error(function() c:aggregate{filter = "sum", timeout = 0.005} end, 'needs sync "timeout"')
  t:error(function() c:aggregate{filter = "sum", timeout = -1} end, "timeout must be a positive number")
  t:error(function() c:aggregate{filter = 3} end, "filter must be a name or a filter object")
  t:error(function() c:aggregate{filter = "sum", params = {f = print}} end, "params.f: a function cannot be")
  t:error(function() c:aggregate(7) end, "aggregation table, filter name or nil expected")
end
