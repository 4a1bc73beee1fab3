-- Clock-skew detection through the reduction tree (MRNet paper, section 3).
--   dpclsh examples/netreduce/clock_skew.lua [TOPOLOGY] [THRESHOLD_US]
-- Every back-end runs on a host whose clock is off by a few hundred microseconds. The
-- front-end broadcasts its own time several times; each back-end answers with its clock
-- reading and the time it was sent; the skew filter (examples/filters/skew.lua) merges
-- the per-back-end skews on the way up, and the front-end keeps, per back-end, the
-- estimate of the round with the smallest delay (as NTP-style estimators do). It prints
-- the largest skew and the back-ends beyond the threshold.

local M = {}

-- The simulated hosts: back-end r's clock runs off by skew_us(r) microseconds. Back-end
-- functions run in the back-ends' own sandboxed states, so this one is repeated inline
-- in the back-end behaviour below (it cannot capture upvalues).
function M.skew_us(rank)
  return (rank * 7919) % 1201 - 600
end

-- measure returns {[rank] = skew_us} for every back-end of a tree built from topology.
function M.measure(topology, rounds)
  local net = netreduce.new{topology = topology}
  net:on_backend(function(rank, sent_us, round)
    local skew = (rank * 7919) % 1201 - 600
    -- The reading of a skewed clock when the request arrives: the request's delay on
    -- the way down varies from round to round (0, 5 or 10 us); the smallest reading
    -- over three rounds has none.
    local delay = ((rank + round) % 3) * 5
    return sent_us + delay + skew, sent_us
  end)
  local s = net:stream(net:broadcast(), {up = filter.load("examples/filters/skew.lua")})
  local best = {}
  for round = 1, rounds or 3 do
    s:send("%lf %d", net:clock() * 1e6, round)
    local res = {s:recv()}
    local n = res[1]
    for i = 1, n do
      local rank, measured = res[2 * i], res[2 * i + 1]
      if best[rank] == nil or measured < best[rank] then best[rank] = measured end
    end
  end
  net:close()
  return best
end

-- beyond lists, ascending, the ranks whose skew magnitude exceeds threshold_us.
function M.beyond(skews, threshold_us)
  local out = {}
  for rank, us in pairs(skews) do
    if math.abs(us) > threshold_us then out[#out + 1] = rank end
  end
  table.sort(out)
  return out
end

if arg and arg[0] and arg[0]:match("clock_skew%.lua$") then
  local topology = arg[1] or "b:4^3"
  local threshold = tonumber(arg[2] or "550")
  local skews = M.measure(topology, 3)
  local n, worst, worst_rank = 0, 0, -1
  for rank, us in pairs(skews) do
    n = n + 1
    if math.abs(us) > math.abs(worst) then worst, worst_rank = us, rank end
  end
  print(string.format("%d back-ends measured over %s", n, topology))
  print(string.format("largest skew: %+.1f us at back-end %d", worst, worst_rank))
  local far = M.beyond(skews, threshold)
  print(string.format("%d back-ends beyond %g us: %s", #far, threshold, table.concat(far, ",")))
end

return M
