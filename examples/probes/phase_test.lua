-- Tests of examples/probes/phase.lua and app:phase's controls and errors.
local phase = dofile("examples/probes/phase.lua")

function TestPhaseFiresEveryPeriod(t)
  local r = phase.run{nodes = 16, out = function() end}
  t:eq(r.status.exited, 16)
  t:eq(#r.firings, 10)
  for i, f in ipairs(r.firings) do
    t:eq(f.ranks, 16, "firing " .. i)
  end
  t:eq(r.begin, 16)
  t:eq(r.finish, 16)
  t:eq(r.handle.state, "active")
  r.app:close()
end

function TestRemovedPhaseStopsFiring(t)
  local app = dpcl.launch("runtime/testdata/bin/spin.elf",
    {nodes = 8, per_io = 8, args = {"1020"}, quiet = true})
  local seen = {n = 0}
  local h = app:phase(100e-6, probe.send(1), {filter = "sum",
    callback = function(m) seen.n = seen.n + 1 end})
  app:start()
  dpcl.sleep(350e-6)               -- firings at 100, 200 and 300 µs
  h:remove()
  t:eq(h.state, "removed")
  app:wait()
  t:eq(seen.n, 3)
  app:close()
end

function TestPhaseErrors(t)
  local app = dpcl.launch("runtime/testdata/bin/spin.elf", {nodes = 1, quiet = true})
  t:error(function() app:phase(0, probe.send(1)) end, "period must be a positive number")
  t:error(function() app:phase(1e-9, probe.send(1)) end, "shorter than the minimum")
  t:error(function() app:phase(1e-4, probe.send(1), {on_end = 3}) end, "on_end must be a probe expression")
  app:close()
end
