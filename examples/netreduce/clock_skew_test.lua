-- Tests of examples/netreduce/clock_skew.lua: the measured offsets against the seeded ones.
local skew = dofile("examples/netreduce/clock_skew.lua")

local function check(t, topology, nback)
  local measured, seeded = skew.measure(topology, 3, 1)
  local n, exact = 0, 0
  for rank, us in pairs(measured) do
    n = n + 1
    t:ok(seeded[rank] ~= nil, string.format("rank %d has a seeded offset", rank))
    if us == seeded[rank] then exact = exact + 1 end
  end
  t:eq(n, nback, "every back-end measured once")
  local err = skew.median_error(measured, seeded)
  t:ok(err < 0.1 * skew.RANGE_US, string.format("median error %.1f us is under 10%% of the range", err))
  -- The readings carry queueing that differs each way: a measurement, not the truth copied.
  t:ok(exact < nback, string.format("%d of %d back-ends recovered to the nanosecond", exact, nback))
end

function TestMeasuredSkewsNearSeededBalanced(t)
  check(t, "b:4^3", 64)
end

function TestMeasuredSkewsNearSeededUnbalanced(t)
  check(t, "g:3:1,4,2:2,1,1,1,1,1,3", 10)
end

function TestMeasuredSkewsNearSeededFlat(t)
  check(t, "flat:64", 64)
end

function TestMedianError(t)
  t:eq(skew.median_error({ [0] = 10, [1] = -5, [2] = 0 }, { [0] = 0, [1] = 0, [2] = 0 }), 5)
end

function TestBeyondThreshold(t)
  local skews = { [0] = -600, [1] = 10, [2] = 551, [3] = -550 }
  t:eq(skew.beyond(skews, 550), { 0, 2 })
end
