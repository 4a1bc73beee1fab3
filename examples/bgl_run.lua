-- bgl_run: MPI programs on the simulated Blue Gene/L without a tool.
--
-- Runs hello_mpi on a few ranks and prints each rank's line, then the MPI test corpus's
-- abort program, which ends the job the way mpiexec does: the last rank calls
-- MPI_Abort(MPI_COMM_WORLD, 7) and the job's status is 7.
--   Run: go run ./cmd/dpclsh examples/bgl_run.lua [RANKS]
local M = {}

-- M.hello runs hello_mpi on n ranks and returns bgl.run's result.
function M.hello(n)
  return bgl.run("examples/apps/bin/hello_mpi.elf", { nodes = n })
end

-- M.abort runs the corpus program that aborts on its last rank.
function M.abort(n)
  return bgl.run("bgl/testdata/mpi/bin/abort.elf", { nodes = n })
end

function M.run(n, out)
  out = out or print
  local r = M.hello(n)
  for rank = 0, r.size - 1 do
    out(string.format("rank %d said: %s", rank, (r.stdout[rank]:gsub("\n$", ""))))
  end
  out(string.format("hello_mpi: status %d, %d instructions, %.1f µs virtual", r.status,
    r.instructions, r.time_ns / 1e3))
  local a = M.abort(n)
  out(string.format("abort: status %d; %s", a.status, (a.errors:gsub("\n$", ""))))
  return r, a
end

if arg and arg[0] and arg[0]:match("bgl_run%.lua$") then
  M.run(tonumber(arg[1]) or 4)
end

return M
