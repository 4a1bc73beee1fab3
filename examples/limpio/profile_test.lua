-- Tests of limpio.profile's collection through the tree and of MPIINSTR_EXCLUDE.
local profile = dofile("examples/limpio/profile.lua")

local function lines_of(o)
  local out = {}
  o.out = function(l) out[#out + 1] = l end
  local r = profile.run(o)
  r.lines = out
  return r
end

function TestExcludeFromTheJobsEnvironment(t)
  local warned = {}
  local r = lines_of{nodes = 4, warn = function(s) warned[#warned + 1] = s end,
    env = {MPIINSTR_EXCLUDE = "MPI_Comm_rank, MPI_Nope"}}
  t:ok(not r.lines[1]:find("MPI_Comm_rank", 1, true), "MPI_Comm_rank excluded: " .. r.lines[1])
  t:ok(r.lines[1]:find("MPI_Comm_size", 1, true), "MPI_Comm_size kept: " .. r.lines[1])
  t:eq(#warned, 1)
  t:ok(warned[1] and warned[1]:find('"MPI_Nope" is not an MPI function', 1, true), tostring(warned[1]))
  r.app:close()
end

-- The classes arrive from the eqclass filter: one message for all ranks, no per-rank rows.
function TestClassesComeThroughTheTree(t)
  local r = lines_of{nodes = 64, per_io = 8, per_rank = false}
  local classes = r.prof.classes
  local n = 0
  for _, c in ipairs(classes) do n = n + c.n end
  t:eq(n, 64, "every rank in some class")
  t:ok(#classes <= 8, #classes .. " classes")
  t:eq(r.prof.rows, nil, "no per-rank rows kept")
  local st = r.prof.end_handles[1]:stats()
  t:eq(st.sent, 64)
  t:eq(st.delivered, 64)
  t:eq(st.first, st.last, "one message")
  t:eq(r.prof.rank0.rank, 0, "rank 0's own row for the ratio")
  t:ok(#r.lines == #classes + 2, "a line per class, a header and Total")
  r.app:close()
end

-- Rows split over several messages (24 functions each) make the same table: the same
-- classes, counts and times (the collection at _exit takes no part in what is measured).
function TestChunkedRowsMakeTheSameTable(t)
  local one = lines_of{nodes = 12, env = {}}
  local many = lines_of{nodes = 12, env = {}, chunk = 60}
  t:ok(#many.prof.chunks > 2, #many.prof.chunks .. " chunks")
  t:eq(table.concat(many.lines, "\n"), table.concat(one.lines, "\n"))
  for r = 0, 11 do
    for name, c in pairs(one.prof.rows[r].calls) do t:eq(many.prof.rows[r].calls[name], c, name .. " of rank " .. r) end
  end
  one.app:close()
  many.app:close()
end

-- A snapshot while the job runs (app:execute on every rank) sees part of the calls; the
-- classes agree with the per-rank rows, and the end collection sees them all. The job
-- runs long enough (400 sweeps) to outlast the snapshot's collection, whose rows queue at
-- the daemon behind CIOD's shipped writes and take one execute per chunk of the ~140 MPI
-- functions libmpi now has.
function TestSnapshotWhileRunning(t)
  local o = {exe = "examples/apps/bin/jacobi.elf", nodes = 8, args = {"32", "400"}, env = {},
    snapshot_after = 0.0004}
  local r = lines_of(o)
  local mid = o.snapshot_after
  local at_end = r.prof.rows
  local some, fewer = 0, 0
  for rank = 0, 7 do
    local m, e = mid.rows[rank].calls.MPI_Allreduce, at_end[rank].calls.MPI_Allreduce
    some = some + m
    if m < e then fewer = fewer + 1 end
  end
  t:ok(some > 0 and fewer == 8, "mid-run Allreduce counts " .. some .. ", below the end on " .. fewer .. " ranks")
  local from_classes = 0
  for _, c in ipairs(mid.classes) do from_classes = from_classes + c.calls.MPI_Allreduce * c.n end
  t:eq(from_classes, some, "classes and rows agree")
  r.app:close()
end

-- A rank that faults ends the job before any rank reaches _exit: nothing travels the
-- tree, and the profile is what each rank counted up to the end, read from its memory.
function TestFaultedJobProfilesFromMemory(t)
  local app = dpcl.launch("bgl/testdata/bin/mpicrash.elf", {nodes = 4, quiet = true})
  local prof = limpio.profile(app)
  app:start()
  local st = app:wait()
  t:eq(st.faulted, 1)
  t:ok(st.reports[1]:find("^rank 3: uncaught signal 11 %(Segmentation fault%) at pc 0x%x+ in deref %(src/mpicrash.c:8%); called from step"),
    tostring(st.reports[1]))
  local rows, classes = prof:snapshot()
  t:ok(prof.partial, "labelled as counted up to the fault")
  t:eq(#classes, 1)
  t:eq(classes[1].ranks, "0-3")
  for r = 0, 3 do
    t:eq(rows[r].calls.MPI_Allreduce, 2, "rank " .. r .. "'s completed MPI_Allreduce calls")
    t:ok(rows[r].total_ticks > 0, "rank " .. r .. " ran")
  end
  app:close()
end
