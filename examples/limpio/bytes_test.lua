-- Tests of limpio.message_bytes: the bytes each MPI call moves, summed per function in the
-- ranks' memory by an entry probe, against what the test programs send.
local limpio = require("limpio")

-- bytes_by_function runs exe on n ranks with every listed function's entry adding its
-- message_bytes into a per-function array, and returns each rank's sums by name.
local function bytes_by_function(exe, n, names)
  local app = dpcl.launch(exe, {nodes = n, quiet = true})
  local fns = app:functions("*")
  local sums = app:array("int64", #fns, "bytes_test")
  local id = {}
  for i, fn in ipairs(fns) do id[fn.name] = i - 1 end
  for _, name in ipairs(names) do
    local bytes = assert(limpio.message_bytes(app, name))
    local h = app:install(app:points(name, "entry"), sums[id[name]]:assign(sums[id[name]] + bytes))
    h:activate()
  end
  app:start()
  app:wait()
  local out = {}
  for r = 0, n - 1 do
    local v = sums:read(r)
    out[r] = {}
    for _, name in ipairs(names) do out[r][name] = v[id[name] + 1] end
  end
  app:close()
  return out
end

-- Derived types (types.c): a column of 4 doubles and 3 structs {int, double, char[3]}
-- (15 bytes packed) through MPI_Sendrecv; an indexed lower triangle (10 doubles) and a
-- contiguous of 3 structs broadcast.
function TestBytesOfDerivedTypes(t)
  local b = bytes_by_function("bgl/testdata/mpi/bin/types.elf", 4, {"MPI_Sendrecv", "MPI_Bcast"})
  for r = 0, 3 do
    t:eq(b[r].MPI_Sendrecv, 4 * 8 + 3 * 15, "MPI_Sendrecv bytes of rank " .. r)
    t:eq(b[r].MPI_Bcast, 10 * 8 + 3 * 15, "MPI_Bcast bytes of rank " .. r)
  end
end

-- The v variants sum their counts array (coll_alltoall.c on 4 ranks): rank r sends
-- (r + d) % 3 ints to rank d; the last rank scatters d % 3 + 1 doubles to each rank d; a
-- reduce-scatter of the same counts of ints contributes all of them on every rank.
function TestBytesOfCountArrays(t)
  local b = bytes_by_function("bgl/testdata/mpi/bin/coll_alltoall.elf", 4,
    {"MPI_Alltoallv", "MPI_Scatterv", "MPI_Reduce_scatter"})
  for r = 0, 3 do
    local sent = 0
    for d = 0, 3 do sent = sent + (r + d) % 3 end
    t:eq(b[r].MPI_Alltoallv, 4 * sent, "MPI_Alltoallv bytes of rank " .. r)
    t:eq(b[r].MPI_Scatterv, r == 3 and 8 * 7 or 0, "MPI_Scatterv bytes of rank " .. r)
    t:eq(b[r].MPI_Reduce_scatter, 4 * 7, "MPI_Reduce_scatter bytes of rank " .. r)
  end
end

function TestNoBytesForCallsWithoutABuffer(t)
  local app = dpcl.launch("bgl/testdata/mpi/bin/types.elf", {nodes = 2, quiet = true})
  local e, why = limpio.message_bytes(app, "MPI_Barrier")
  t:eq(e, nil)
  t:ok(why and why:find("MPI_Barrier", 1, true), tostring(why))
  app:close()
end

-- probe.sum's count comes from the rank here: -1 on rank 0 (garbage: no term, and a
-- fault in h:stats()), 0, 1 and 2 terms of i + 1 on ranks 1-3; and probe.comm_size of
-- MPI_COMM_WORLD (1) at MPI_Init's exit, answered by the MPI engine.
function TestSumCountFromTheRank(t)
  local app = dpcl.launch("bgl/testdata/mpi/bin/coll_alltoall.elf", {nodes = 4, quiet = true})
  local out = app:array("int64", 2, "sum_test")
  local h = app:install(app:points("MPI_Init", "exit"), probe.seq{
    out[0]:assign(probe.sum(probe.rank() - 1, function(i) return i + 1 end)),
    out[1]:assign(probe.comm_size(1)),
  })
  h:activate()
  app:start()
  app:wait()
  local want = {[0] = 0, 0, 1, 3}
  for r = 0, 3 do
    local v = out:read(r)
    t:eq(v[1], want[r], "sum on rank " .. r)
    t:eq(v[2], 4, "comm_size(MPI_COMM_WORLD) on rank " .. r)
  end
  t:eq(h:stats().faults, 1, "the negative count on rank 0 counted as a fault")
  app:close()
end
