-- limpio_bytes.lua: the bytes an MPI call moves, as a probe expression read at the call's
-- entry: count x type size of the buffer the rank sends (or contributes, for reductions and
-- broadcasts), as mpiP's "sent message size". Loaded after limpio.lua.
--
-- A predefined type's handle carries its size in its low byte (mpi.h's MPI__TYPE_SIZE); a
-- derived one (handle MPI__DERIVED + i) is libmpi's dtypes[i], whose size field the probe
-- reads through the program's DWARF (libmpi_types.c keeps it packed, as the engine moves it).
-- The table is a fixed array in programs linked before it could grow, a pointer to
-- ndtypes entries after; both index alike.
local limpio = limpio

local DERIVED, MAX_DTYPES = 0x10000, 1024
-- MPI_ROOT is an intercommunicator collective's root argument at the root itself (mpi.h).
local MPI_ROOT = -4

-- scalar: {count argument, type argument}.
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
-- varray: the v variants whose send side is an array of counts, one per rank of a group:
-- {counts, type, communicator, root (sendcounts are read at the root only), group}. The
-- group is the communicator's ("local": Reduce_scatter's recvcounts, which size each
-- rank's share of the contribution) or the group the call sends to ("peers": the remote
-- group of an intercommunicator). types: the counts pair with an array of types
-- (MPI_Alltoallw's, whose sizes are in bytes of each type).
local varray = {
  MPI_Scatterv = {1, 3, 8, root = 7}, MPI_Iscatterv = {1, 3, 8, root = 7},
  MPI_Alltoallv = {1, 3, 8}, MPI_Ialltoallv = {1, 3, 8},
  MPI_Alltoallw = {1, 3, 8, types = true}, MPI_Ialltoallw = {1, 3, 8, types = true},
  MPI_Reduce_scatter = {2, 3, 5, group = "local"}, MPI_Ireduce_scatter = {2, 3, 5, group = "local"},
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
    local has, ndtypes = pcall(app.global, app, "ndtypes")
    local bound = has and ndtypes or probe.int(MAX_DTYPES)
    derived = probe.when(probe.land(i:lt(bound), dtypes[i].used:ne(0)), dtypes[i].size, probe.int(0))
  end
  return probe.when(t:ge(DERIVED), derived, t:band(0xff))
end

-- peers is the number of ranks a collective on comm sends to: the remote group of an
-- intercommunicator, else the communicator's own.
local function peers(comm)
  local remote = probe.comm_remote_size(comm)
  return probe.when(remote:gt(0), remote, probe.comm_size(comm))
end

-- limpio.message_bytes(app, fname) -> Exp (int64) or nil, why: the bytes a call of fname
-- moves, evaluated at its entry; nil for a function that moves none. A counts array is
-- summed by a loop in the probe over the group the MPI engine says the communicator has
-- (probe.sum, probe.comm_size), on any communicator and at any job size.
function limpio.message_bytes(app, fname)
  local s = scalar[fname]
  if s then
    return probe.int64(0) + word(s[1]) * type_size(app, word(s[2]))
  end
  local v = varray[fname]
  if not v then return nil, fname .. " moves no message buffer" end
  local counts, comm = word(v[1]), word(v[3])
  local n = v.group == "local" and probe.comm_size(comm) or peers(comm)
  local function count(i) return probe.load(counts + i * 4, "int") end
  local bytes
  if v.types then
    local types = word(v[2])
    bytes = probe.sum(n, function(i) return (probe.int64(0) + count(i)) * type_size(app, probe.load(types + i * 4, "int")) end)
  else
    bytes = probe.sum(n, count) * type_size(app, word(v[2]))
  end
  if not v.root then return bytes end
  -- Only the root sends: MPI_ROOT on an intercommunicator, its own rank on an intracommunicator.
  local root = word(v.root)
  local at_root = probe.lor(root:eq(MPI_ROOT), probe.land(probe.comm_remote_size(comm):eq(0), root:eq(probe.comm_rank(comm))))
  return probe.when(at_root, bytes, probe.int64(0))
end
