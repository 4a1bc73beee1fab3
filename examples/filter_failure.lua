-- filter_failure: a Lua filter that raises an error fails its own probe only.
--
-- Two probes on MPI_Allreduce's entry of jacobi: one counts calls with the built-in sum,
-- the other goes through examples/filters/fail_at.lua, which refuses a chosen wave. The
-- failing probe's handle turns "failed", h:stats().failed names the tree node whose
-- filter failed and why (the error is reported once, as it happens); the counting probe
-- and the job run to their end.   Run: go run ./cmd/dpclsh examples/filter_failure.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local iters = opts.iters or 6
  local app = dpcl.launch("examples/apps/bin/jacobi.elf", {
    nodes = opts.nodes or 16, per_io = 8, args = {"16", tostring(iters)}, quiet = true,
  })
  local calls = app:var("int")
  local counted = {n = 0}
  local bad
  local good = app:install(app:points("MPI_Allreduce", "entry"),
    probe.seq{calls:assign(calls + 1), probe.send(1)},
    {filter = "sum", callback = function(m)
      counted.n = counted.n + m.value
      -- With remove_failed, the failed probe is taken out while the job runs.
      if opts.remove_failed and bad.state == "failed" then bad:remove() end
    end})
  bad = app:install(app:points("MPI_Allreduce", "entry"), probe.send(1), {
    filter = filter.load("examples/filters/fail_at.lua"), params = {wave = opts.fail_wave or 3},
    callback = function() end,
  })
  good:activate()
  bad:activate()
  app:start()
  local st = app:wait()
  local r = {status = st, bad = bad:stats(), good = good:stats(), bad_state = bad.state,
    good_state = good.state, counted = counted.n}
  for node, why in pairs(r.bad.failed) do
    out(string.format("failing probe: %s at the %s: %s", bad.state, node, why))
  end
  out(string.format("counting probe: %s, %d calls counted, sent %d, delivered %d",
    good.state, counted.n, r.good.sent, r.good.delivered))
  out(string.format("job: %d exited, %d faulted", st.exited, st.faulted))
  app:close()
  return r
end

if arg and arg[0] and arg[0]:match("filter_failure%.lua$") then
  M.run()
end

return M
