-- The collective cost bench at reduced size: Allreduce grows with the tree's depth and
-- Alltoall with the ranks (bisection), and both files are written.
local cc = dofile("examples/bench/coll_cost.lua")

function TestCollectiveCostGrowsWithRanks(t)
  local d = os.tmpname()
  os.remove(d)
  os.execute("mkdir -p " .. d)
  local c, csv, svg = cc.run({2, 8, 64}, 64, d)
  t:eq(c.ranks, {2, 8, 64})
  for i = 2, 3 do
    t:ok(c.allreduce_ns[i] > c.allreduce_ns[i - 1], "Allreduce costs more on " .. c.ranks[i] .. " ranks")
    t:ok(c.alltoall_ns[i] > c.alltoall_ns[i - 1], "Alltoall costs more on " .. c.ranks[i] .. " ranks")
  end
  -- 8 times the ranks: the tree is 3 levels deeper, the all-to-all moves 64 times the bytes.
  t:ok(c.allreduce_ns[3] < 2 * c.allreduce_ns[2], "Allreduce grows with depth, not ranks")
  t:ok(c.alltoall_ns[3] > 3 * c.alltoall_ns[2], "Alltoall grows with the data crossing the torus")
  local fh = assert(io.open(csv))
  t:eq(fh:read("*l"), "ranks,bytes,allreduce_ns,alltoall_ns")
  fh:close()
  fh = assert(io.open(svg, "rb"))
  t:ok(fh:read("*a"):find("<svg", 1, true), "an SVG document")
  fh:close()
  t:error(function() cc.measure(2, 12) end, "BYTES must be a positive multiple of 8, got 12")
  t:error(function() cc.measure(2, 8, 0) end, "on 2 ranks: status 2")
  os.execute("rm -rf " .. d)
end
