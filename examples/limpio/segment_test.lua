-- Tests of limpio.segment: what ran inside the segment equals what the full trace shows
-- between the from-th and to-th boundary calls' entries, on every rank.
local segment = dofile("examples/limpio/segment.lua")

function TestSegmentCountsExactly(t)
  local r = segment.run{nodes = 4, from = 4, to = 9, trace = true, quiet = true}
  local per = {}
  local ev = r.trace.events
  table.sort(ev, function(a, b) return a.start < b.start end)
  for rank = 0, 3 do per[rank] = {n = 0, inside = 0} end
  for _, e in ipairs(ev) do
    local p = per[e.rank]
    if e.func == "MPI_Allreduce" then p.n = p.n + 1 end
    if e.func == "MPI_Isend" and p.n >= 4 and p.n < 9 then p.inside = p.inside + 1 end
  end
  for rank = 0, 3 do
    t:eq(r.inside[rank], per[rank].inside, "rank " .. rank)
    t:eq(r.seg:boundaries(rank), per[rank].n, "rank " .. rank .. " boundaries")
  end
  t:ok(per[1].inside > 0, "some calls inside the segment")
  r.app:close()
end
