-- limpio_bytes.lua: the bytes an MPI call moves, as a probe expression read at the call's
-- entry: count x type size of the buffer the rank sends (or contributes, for reductions and
-- broadcasts), as mpiP's "sent message size". Loaded after limpio.lua.
--
-- A predefined type's handle carries its size in its low byte (mpi.h's MPI__TYPE_SIZE); a
-- derived one (handle MPI__DERIVED + i) is libmpi's dtypes[i], whose size field the probe
-- reads through the program's DWARF (libmpi_types.c keeps it packed, as the engine moves it).
local limpio = limpio

local DERIVED, MAX_DTYPES, WORLD = 0x10000, 1024, 1
-- MAX_UNROLL bounds the send-count arrays a probe sums (one load per element): the v
-- variants whose send side is an array are summed in jobs of at most this many ranks.
local MAX_UNROLL = 256

-- scalar: {count argument, type argument}; varray: {counts array, type, communicator, root}.
local scalar = {
  MPI_Send = {1, 2}, MPI_Isend = {1, 2}, MPI_Ssend = {1, 2}, MPI_Rsend = {1, 2},
  MPI_Bsend = {1, 2}, MPI_Issend = {1, 2}, MPI_Ibsend = {1, 2}, MPI_Irsend = {1, 2},
  MPI_Sendrecv = {1, 2}, MPI_Sendrecv_replace = {1, 2},
  MPI_Isendrecv = {1, 2}, MPI_Isendrecv_replace = {1, 2},
  MPI_Bcast = {1, 2}, MPI_Ibcast = {1, 2},
  MPI_Reduce = {2, 3}, MPI_Allreduce = {2, 3}, MPI_Scan = {2, 3}, MPI_Exscan = {2, 3},
  MPI_Ireduce = {2, 3}, MPI_Iallreduce = {2, 3}, MPI_Iscan = {2, 3}, MPI_Iexscan = {2, 3},
  MPI_Reduce_scatter_block = {2, 3}, MPI_Ireduce_scatter_block = {2, 3},
  MPI_Gather = {1, 2}, MPI_Gatherv = {1, 2}, MPI_Allgather = {1, 2}, MPI_Allgatherv = {1, 2},
  MPI_Scatter = {1, 2}, MPI_Alltoall = {1, 2},
  MPI_Igather = {1, 2}, MPI_Igatherv = {1, 2}, MPI_Iallgather = {1, 2},
  MPI_Iallgatherv = {1, 2}, MPI_Iscatter = {1, 2}, MPI_Ialltoall = {1, 2},
}
local varray = {
  MPI_Scatterv = {1, 3, 8, 7}, MPI_Iscatterv = {1, 3, 8, 7},
  MPI_Alltoallv = {1, 3, 8}, MPI_Ialltoallv = {1, 3, 8},
  MPI_Reduce_scatter = {2, 3, 5}, MPI_Ireduce_scatter = {2, 3, 5},
}

-- word is the int argument i at a function's entry: r3..r10, then the caller's parameter
-- save area at 8(r1) onwards (SysV PPC32).
local function word(i)
  if i < 8 then return probe.arg(i) end
  return probe.load(probe.reg("sp"), "int", 8 + 4 * (i - 8))
end

-- type_size is the size in bytes of the datatype handle t, 0 for an unknown handle.
local function type_size(app, t)
  local ok, dtypes = pcall(app.global, app, "dtypes")
  local derived = probe.int(0)
  if ok then
    local i = t - DERIVED
    derived = probe.when(probe.land(i:lt(MAX_DTYPES), dtypes[i].used:ne(0)), dtypes[i].size, probe.int(0))
  end
  return probe.when(t:ge(DERIVED), derived, t:band(0xff))
end

-- sum_counts adds the n ints at address p.
local function sum_counts(p, n)
  local s = probe.int64(0)
  for k = 0, n - 1 do s = s + probe.load(p, "int", 4 * k) end
  return s
end

-- limpio.message_bytes(app, fname) -> Exp (int64) or nil, why: the bytes a call of fname
-- moves, evaluated at its entry; nil for a function that moves none (or whose size a probe
-- cannot sum: MPI_Alltoallw's per-peer types, a counts array in a job of more than
-- MAX_UNROLL ranks or on a communicator other than MPI_COMM_WORLD, which count 0).
function limpio.message_bytes(app, fname)
  local s = scalar[fname]
  if s then
    return probe.int64(0) + word(s[1]) * type_size(app, word(s[2]))
  end
  local v = varray[fname]
  if not v then return nil, fname .. " moves no message buffer" end
  if app.size > MAX_UNROLL then
    return nil, string.format("%s: a counts array is summed only in jobs of at most %d ranks", fname, MAX_UNROLL)
  end
  local bytes = sum_counts(word(v[1]), app.size) * type_size(app, word(v[2]))
  local cond = word(v[3]):eq(WORLD)
  if v[4] then cond = probe.land(cond, word(v[4]):eq(probe.rank())) end -- sendcounts: root only
  return probe.when(cond, bytes, probe.int64(0))
end
