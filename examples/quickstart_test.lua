-- Tests of examples/quickstart.lua on a smaller job: the counts the probe delivers equal
-- what jacobi does (two MPI_Allreduce calls per iteration on every odd rank).
local quickstart = dofile("examples/quickstart.lua")

function TestQuickstartCountsMatchTheProgram(t)
  local lines = {}
  local r = quickstart.run{nodes = 64, per_io = 8, grid = 32, iters = 10, quiet = true,
    out = function(line) lines[#lines + 1] = line end}
  t:ok(#r.waves >= 5, "at least the waves before the removal arrive")
  for i = 1, 5 do
    t:eq(r.waves[i], 2 * 32, "iteration " .. i .. ": 2 calls on each of 32 odd ranks")
  end
  t:eq(r.stats.sent, r.stats.delivered, "nothing is lost in the tree")
  -- the waves after the removal were all sent before it reached the ranks (the script
  -- asserts it per wave with m.sent) and are counted and marked as in flight
  t:eq(r.in_flight, #r.waves - 5, "every wave after the removal was in flight")
  t:ok(r.removed_ns and r.removed_ns > 0, "the removal's time is known")
  t:ok(lines[7]:find("^probe removed after iteration 5; the removal reaches every rank at"), lines[7])
  t:ok(lines[8]:find("in flight when removed$"), lines[8])
  t:eq(r.status.exited, 64)
  t:ok(lines[1]:find("installed on 32 of 64 ranks: installed", 1, true), lines[1])
  t:ok(lines[#lines - 1]:find("^cost: "), lines[#lines - 1])
  t:ok(lines[#lines]:find("^job: 64 exited"), lines[#lines])
end
