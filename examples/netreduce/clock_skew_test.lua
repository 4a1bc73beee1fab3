-- Tests of examples/netreduce/clock_skew.lua against the simulated clocks it reads.
local skew = dofile("examples/netreduce/clock_skew.lua")

local function check(t, topology, nback)
  local got = skew.measure(topology, 3)
  local n = 0
  for rank, us in pairs(got) do
    n = n + 1
    -- One of the three rounds has no delay, so the best estimate is the skew itself.
    t:eq(us, skew.skew_us(rank), string.format("rank %d", rank))
  end
  t:eq(n, nback, "every back-end measured once")
end

function TestSkewsMatchSimulatedClocksBalanced(t)
  check(t, "b:4^3", 64)
end

function TestSkewsMatchSimulatedClocksUnbalanced(t)
  check(t, "g:3:1,4,2:2,1,1,1,1,1,3", 10)
end

function TestBeyondThreshold(t)
  local skews = { [0] = -600, [1] = 10, [2] = 551, [3] = -550 }
  t:eq(skew.beyond(skews, 550), { 0, 2 })
end
