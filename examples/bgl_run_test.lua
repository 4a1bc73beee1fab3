-- Tests of examples/bgl_run.lua: MPI programs run by bgl.run print what MPICH prints.
local run = dofile("examples/bgl_run.lua")

function TestHelloMPIEveryRankSpeaks(t)
  local r = run.hello(5)
  t:eq(r.status, 0)
  t:eq(r.size, 5)
  for rank = 0, 4 do
    t:eq(r.stdout[rank], string.format("hello from rank %d of 5\n", rank))
    t:eq(r.codes[rank], 0)
  end
  t:ok(r.time_ns > 0, "virtual time passed")
end

function TestAbortEndsTheJobWithItsCode(t)
  local r = run.abort(3)
  t:eq(r.status, 7, "mpiexec's rule: the status is MPI_Abort's code")
  for rank = 0, 2 do
    t:eq(r.stdout[rank], string.format("rank %d: before the barrier\n", rank))
  end
  t:ok(r.errors:find("rank 2: MPI_Abort(MPI_COMM_WORLD, 7)", 1, true), r.errors)
end

function TestRunPrintsEachRank(t)
  local lines = {}
  run.run(2, function(l) lines[#lines + 1] = l end)
  t:eq(lines[1], "rank 0 said: hello from rank 0 of 2")
  t:eq(lines[2], "rank 1 said: hello from rank 1 of 2")
  t:ok(lines[4]:find("^abort: status 7"), lines[4])
end
