-- Clock-skew detection through the reduction tree (MRNet paper, section 3).
--   dpclsh examples/netreduce/clock_skew.lua [TOPOLOGY] [THRESHOLD_US] [SEED]
-- Every back-end runs on a host whose clock is off by a seeded offset within 1.2 ms.
-- net:measure_clocks runs MRNet's two-phase algorithm over the tree's own links:
-- timestamped probes go down each link and back, each link's offset comes from the
-- round trip with the least delay (queueing included), and the offsets add up the tree.
-- The script compares what was measured with the seeded truth, prints the median
-- absolute error, the largest measured skew and the back-ends beyond the threshold.

local M = {}

M.RANGE_US = 1200

-- measure returns {[rank] = measured_us}, {[rank] = seeded_us} for every back-end of a
-- tree built from topology.
function M.measure(topology, rounds, seed)
  local net = netreduce.new{topology = topology}
  local measured, seeded = net:measure_clocks{seed = seed or 1, range_us = M.RANGE_US, rounds = rounds or 3}
  net:close()
  return measured, seeded
end

-- median_error is the median, over back-ends, of |measured - seeded| in microseconds.
function M.median_error(measured, seeded)
  local errs = {}
  for rank, us in pairs(measured) do errs[#errs + 1] = math.abs(us - seeded[rank]) end
  table.sort(errs)
  local n = #errs
  if n == 0 then return 0 end
  if n % 2 == 1 then return errs[(n + 1) / 2] end
  return (errs[n / 2] + errs[n / 2 + 1]) / 2
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
  local measured, seeded = M.measure(topology, 3, tonumber(arg[3] or "1"))
  local n, worst, worst_rank = 0, 0, -1
  for rank, us in pairs(measured) do
    n = n + 1
    if math.abs(us) > math.abs(worst) then worst, worst_rank = us, rank end
  end
  print(string.format("%d back-ends measured over %s", n, topology))
  local err = M.median_error(measured, seeded)
  print(string.format("median absolute error: %.1f us (%.1f %% of the seeded %d us range)",
    err, 100 * err / M.RANGE_US, M.RANGE_US))
  print(string.format("largest skew: %+.1f us at back-end %d (seeded %+.1f us)", worst, worst_rank, seeded[worst_rank]))
  local far = M.beyond(measured, threshold)
  print(string.format("%d back-ends beyond %g us: %s", #far, threshold, table.concat(far, ",")))
end

return M
