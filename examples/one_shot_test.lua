-- Tests of examples/one_shot.lua: one value per rank, in rank order, each a count the
-- program could have reached (every rank does one MPI_Waitall per iteration).
local one_shot = dofile("examples/one_shot.lua")

function TestOneShotReadsEveryRank(t)
  local r = one_shot.run{nodes = 32, per_io = 8, iters = 200, quiet = true, out = function() end}
  t:eq(r.count, 32, "one value from every rank")
  t:eq(#r.values, 32)
  for rank, v in ipairs(r.values) do
    t:ok(v >= 0 and v <= 200, "rank " .. (rank - 1) .. " count " .. v)
  end
  t:eq(r.status.exited, 32)
end
