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

-- The natural sampling loop: execute while the job runs; when the ranks have ended,
-- app:execute returns nil and a reason instead of raising, so the loop just ends.
function TestSamplingLoopEndsCleanly(t)
  local app = dpcl.launch("examples/apps/bin/jacobi.elf", {nodes = 16, per_io = 8, args = {"32", "5"}, quiet = true})
  local n = app:var("int")
  app:install(app:points("MPI_Allreduce", "entry"), n:assign(n + 1)):activate()
  app:start()
  local got = {samples = 0}
  local h, why
  while app:status() == "running" do
    dpcl.sleep(0.0002)
    h, why = app:execute(probe.send(n), {filter = "max", callback = function(m) got.samples = got.samples + 1 end})
    if not h then break end
  end
  app:wait()
  t:ok(got.samples > 0, "some samples arrived")
  local h2, why2 = app:execute(probe.send(n))
  t:eq(h2, nil)
  t:ok(tostring(why2):find("no live rank", 1, true), "a reason: " .. tostring(why2))
  app:close()
end
