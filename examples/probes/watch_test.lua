-- Tests of examples/probes/watch.lua: a watchpoint on x reports exactly the writes watch.c
-- makes (iterations 3, 7 and 12, on the "write:x" line) with their values, on every rank,
-- at -O0 and -O2; reads are reported per read; a run without the watch keeps its virtual
-- time, and the watched run pays WatchTrapCycles per access to x's page.
local watch = dofile("examples/probes/watch.lua")

local function lineOf(text)
  local n = 0
  for l in io.lines("probes/testdata/watch.c") do
    n = n + 1
    if l:find(text, 1, true) then return n end
  end
  error("watch.c has no line with " .. text)
end

function TestWritesOfXAtKnownIterations(t)
  local where = "in main (watch.c:" .. lineOf("/* write:x */") .. ")"
  for _, level in ipairs{"O0", "O2"} do
    local r = watch.run{level = level, on = "write", nodes = 2}
    t:eq(r.status.exited, 2)
    local want = {}
    for rank = 0, 1 do
      for _, v in ipairs{{0, 3}, {3, 10}, {10, 22}} do
        want[#want + 1] = {rank = rank, where = where, write = true, old = v[1], new = v[2]}
      end
    end
    table.sort(r.events, function(a, b) return a.rank < b.rank or (a.rank == b.rank and a.new < b.new) end)
    t:eq(r.events, want, level .. " writes of x")
  end
end

function TestReadsAndVirtualTime(t)
  local r = watch.run{level = "O2", on = "read", nodes = 1}
  -- sum += x on each of 16 iterations, x = x + i three times, printf's argument once.
  t:eq(#r.events, 20, "reads of x")
  local plain1 = watch.run{level = "O2", nodes = 1}
  local plain2 = watch.run{level = "O2", nodes = 1}
  t:eq(plain1.exits[0], plain2.exits[0], "unwatched runs take the same virtual time")
  local removed = watch.run{level = "O2", on = "write", remove = true, nodes = 1}
  t:eq(removed.exits[0], plain1.exits[0], "a watch removed before the start costs nothing")
  t:eq(#removed.events, 0, "a removed watch reports nothing")
  local written = watch.run{level = "O2", on = "write", nodes = 1}
  t:ok(written.exits[0] > plain1.exits[0], "a watched run pays for its traps")
end
