-- The report on examples/apps/imbalance.c, where every 8th rank works 8 times more before
-- MPI_Allreduce: the light ranks wait there longest and the heavy ones least. The
-- report's extremes, reduced in the tree, must agree with the trace's per-rank sums of the
-- same calls, and its callsite with the source line of the call.
local limpio = require("limpio")

local SRC = "examples/apps/imbalance.c"

-- source_line is the line of SRC that calls fname.
local function source_line(fname)
  local n = 0
  for line in io.lines(SRC) do
    n = n + 1
    if line:find(fname .. "(", 1, true) then return n end
  end
end

local TOLERANCE = 0.01

local function within(t, got, want, what)
  t:ok(math.abs(got - want) <= TOLERANCE * want,
    string.format("%s: report %d ticks, trace %d (beyond %g%%)", what, got, want, 100 * TOLERANCE))
end

-- Each tool runs alone on the same deterministic job: run together, each tool's entry or
-- exit code would run inside the other's interval (a few hundred ticks of a heavy rank's
-- ~2,300-tick calls; 9 % apart on the least). Alone, both measure the call's own
-- instructions (limpio.clock_in: the clock read last at the entry, on the exit
-- trampoline's arrival at the exit), so the heavy ranks' short calls agree to the tick.
-- The light ranks' waits agree to a few ticks a call, not exactly: they end when the
-- last heavy rank reaches the collective, and each tool's entry code, outside the heavy
-- rank's interval, still delays that arrival by its own cost.
local function run(tool)
  local app = dpcl.launch("examples/apps/bin/imbalance.elf", {nodes = 16, quiet = true, args = {"400", "3"}})
  local h = tool(app)
  app:start()
  app:wait()
  return app, h
end

function TestReportNamesTheRanksThatWaitInAllreduce(t)
  local traced, tr = run(limpio.trace)
  traced:close()
  local app, prof = run(limpio.profile)
  local sum = {}
  for _, e in ipairs(tr.events) do
    if e.func == "MPI_Allreduce" then sum[e.rank] = (sum[e.rank] or 0) + (e.finish - e.start) end
  end
  local most, least = 0, 0
  for r = 0, 15 do
    if sum[r] > sum[most] then most = r end
    if sum[r] < sum[least] then least = r end
  end
  local sites = {}
  for _, c in ipairs(prof:callsites()) do if c.name == "MPI_Allreduce" then sites[#sites + 1] = c end end
  t:eq(#sites, 1, "one MPI_Allreduce callsite")
  local c = sites[1]
  t:eq(c.file, "imbalance.c")
  t:eq(c.line, source_line("MPI_Allreduce"), "the callsite's line is the call's")
  t:eq(c.caller, "main")
  t:eq(c.count, 16 * 3)
  t:ok(c.rank_max % 8 ~= 0, "the most time in MPI_Allreduce is a light rank's: " .. c.rank_max)
  t:ok(c.rank_min % 8 == 0, "the least is a heavy rank's: " .. c.rank_min)
  within(t, c.rank_max_ticks, sum[c.rank_max], "max on rank " .. c.rank_max)
  within(t, c.rank_max_ticks, sum[most], "max against the trace's largest sum (rank " .. most .. ")")
  within(t, c.rank_min_ticks, sum[c.rank_min], "min on rank " .. c.rank_min)
  within(t, c.rank_min_ticks, sum[least], "min against the trace's smallest sum (rank " .. least .. ")")
  local text = table.concat(prof:report{out = false, command = "imbalance.elf 400 3"}, "\n")
  t:ok(text:find("%d+ +MPI_Allreduce +imbalance%.c:" .. c.line .. " +main"), "the callsite line:\n" .. text)
  t:ok(text:find(string.format("\nMPI_Allreduce +%d +16 +[%%d.]+ +%d ", c.id, c.rank_max)), "the imbalance line names rank " .. c.rank_max)
  app:close()
end

-- Without every rank's row, the report's task rows are the ranks with the most MPI time,
-- chosen in the tree (topk): the same ranks, in the same order, as a ranking of every
-- rank's row (ties to the higher rank, as the max rows).
function TestTopRanksAreTheRanksWithTheMostMPITime(t)
  local app = dpcl.launch("examples/apps/bin/imbalance.elf", {nodes = 64, quiet = true, args = {"400", "2"}})
  local prof = limpio.profile(app, {per_rank = true, top_ranks = 5})
  app:start()
  app:wait()
  local top = prof:ranks().top
  local all = {}
  for r, row in pairs(prof.site_rank_rows) do all[#all + 1] = {rank = r, mpi = row.mpi, app = row.app} end
  table.sort(all, function(a, b)
    if a.mpi ~= b.mpi then return a.mpi > b.mpi end
    return a.rank > b.rank
  end)
  t:eq(#top, 5, "top rows")
  for i = 1, 5 do
    t:eq(top[i].rank, all[i].rank, "rank of top row " .. i)
    t:eq(top[i].mpi, all[i].mpi, "MPI time of top row " .. i)
    t:eq(top[i].app, all[i].app, "run time of top row " .. i)
  end
  -- The heavy ranks (every 8th) wait least, so none of them is among the top.
  for _, row in ipairs(top) do t:ok(row.rank % 8 ~= 0, "heavy rank " .. row.rank .. " among the most MPI time") end
  app:close()
end
