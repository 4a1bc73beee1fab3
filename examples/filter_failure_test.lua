-- Tests of examples/filter_failure.lua: a failing Lua filter fails its handle only.
local ff = dofile("examples/filter_failure.lua")

local function check(t, r, nodes, iters, state)
  t:eq(r.bad_state, state or "failed", "the failing probe's handle")
  local where = {n = 0}
  for node, why in pairs(r.bad.failed) do
    where.n = where.n + 1
    t:ok(type(node) == "string" and node:find("daemon of I/O node", 1, true), "named by tree node: " .. tostring(node))
    t:ok(why:find("refusing wave", 1, true), why)
  end
  t:eq(where.n, 1, "reported once")
  t:eq(r.good_state, "active", "the other probe goes on")
  t:eq(r.counted, 2 * iters * nodes, "every call counted")
  t:eq(r.good.sent, r.good.delivered, "nothing lost on the other probe")
  t:eq(r.status.exited, nodes, "the job runs to its end")
end

function TestFailingFilterFailsItsHandleOnly(t)
  check(t, ff.run{nodes = 16, iters = 4, fail_wave = 3, out = function() end}, 16, 4)
end

function TestFailureInTheFinalWaveIsReported(t)
  -- jacobi makes two MPI_Allreduce calls per iteration: wave 8 of 4 iterations is the last.
  check(t, ff.run{nodes = 16, iters = 4, fail_wave = 8, out = function() end}, 16, 4)
end

function TestRemovingAFailedProbeRaisesNothing(t)
  check(t, ff.run{nodes = 16, iters = 4, fail_wave = 2, remove_failed = true, out = function() end}, 16, 4, "removed")
end
