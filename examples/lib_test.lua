-- Tests of the prelude (lib.lua) that every session loads.

local function bar(n) return string.rep("@", n) .. string.rep(" ", 52 - n) end
local function row(label, n, width) return string.format("%-16s%8d |%s|", label, n, bar(width)) end

function TestKeysAreSortedNumbersThenStrings(t)
  t:eq(keys({ b = 1, a = 2, [3] = 0, [1] = 0 }), { 1, 3, "a", "b" })
  t:eq(values({ b = 1, a = 2 }), { 2, 1 })
  t:eq(keys({}), {})
end

function TestMapKeepReduce(t)
  t:eq(map({ 1, 2, 3 }, function(v) return v * v end), { 1, 4, 9 })
  t:eq(map({ x = 2 }, function(v, k) return k .. v end), { x = "x2" })
  t:eq(keep({ 5, 6, 7, 8 }, function(v) return v % 2 == 0 end), { 6, 8 })
  t:eq(keep({ a = 1, b = 2 }, function(v) return v > 1 end), { b = 2 })
  t:eq(reduce({ 1, 2, 3, 4 }, function(a, v) return a + v end, 0), 10)
  t:eq(sorted({ 3, 1, 2 }), { 1, 2, 3 })
  t:eq(sorted({ 3, 1, 2 }, function(a, b) return a > b end), { 3, 2, 1 })
  t:eq(sum({ 1.5, 2.5 }), 4)
  t:eq(count({ 1, 2, x = 3 }), 3)
end

function TestTop(t)
  local calls = { MPI_Send = 10, MPI_Recv = 10, MPI_Barrier = 3, MPI_Allreduce = 40 }
  t:eq(top(calls, 3), {
    { key = "MPI_Allreduce", value = 40 },
    { key = "MPI_Recv", value = 10 }, -- ties in key order
    { key = "MPI_Send", value = 10 },
  })
  t:eq(#top(calls), 4)
  t:eq(top({}, 5), {})
end

function TestHistPowerOfTwoBuckets(t)
  local want = table.concat({
    row("(..., 0)", 1, 26),
    row("[0]", 1, 26),
    row("[1]", 2, 52),
    row("[2, 4)", 2, 52),
    row("[4, 8)", 0, 0),
    row("[8, 16)", 1, 26),
  }, "\n") .. "\n"
  t:eq(format_hist({ -3, 0, 1, 1, 2, 3, 15 }), want)
  t:eq(format_hist({}), "")
end

function TestHistUnitsOfPowersOf1024(t)
  local out = format_hist({ 1024, 2047, 1048576 })
  t:ok(out:find("[1K, 2K)", 1, true), "1K bucket")
  t:ok(out:find("[512K, 1M)", 1, true), "empty buckets between are drawn")
  t:ok(out:find("[1M, 2M)", 1, true), "1M bucket")
end

function TestLhist(t)
  local want = table.concat({
    row("(..., 0)", 1, 52),
    row("[0, 10)", 1, 52),
    row("[10, 20)", 0, 0),
    row("[20, 25)", 1, 52),
    row("[25, ...)", 1, 52),
  }, "\n") .. "\n"
  t:eq(format_lhist({ -1, 5, 24.5, 99 }, 0, 25, 10), want)
  t:error(function() format_lhist({ 1 }, 5, 5, 1) end, "need min < max")
  t:error(function() format_lhist({ "x" }, 0, 10, 1) end, "number expected")
end

function TestPrintf(t)
  t:eq(type(printf), "function")
end
