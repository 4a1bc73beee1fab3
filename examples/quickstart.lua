-- quickstart: DPCL on a simulated Blue Gene/L in one page.
--
-- Launches jacobi on 1,024 ranks (8 per I/O node), counts the MPI_Allreduce calls of each
-- iteration on the odd ranks with a probe whose data is summed inside the reduction tree,
-- prints the aggregated counts as they arrive, removes the probe half way and prints what
-- it cost.   Run: go run ./cmd/dpclsh examples/quickstart.lua
--
-- Data lags: a wave climbs the tree while the ranks compute on, so when the script removes
-- the probe after iteration 20 the ranks are already further along, and the waves they
-- sent before the removal reached them are still in the tree. Those arrive afterwards;
-- each message's m.sent (when its data left the ranks) tells them apart from data sent
-- after the removal, of which there is none.
--
-- jacobi's own last line is u at the grid's centre. The top edge is held at 1 and the heat
-- spreads about sqrt(sweeps) rows, so after 40 sweeps the centre of the 32 x 32 grid, 16
-- rows down, has only begun to warm (about 1e-4); with many more sweeps it tends to 0.25,
-- the steady state (by symmetry: the four rotations of the problem sum to 1).
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local iters = opts.iters or 40
  local app = dpcl.launch(opts.exe or "examples/apps/bin/jacobi.elf", {
    nodes = opts.nodes or 1024, per_io = opts.per_io or 8, topology = "b:8",
    args = {tostring(opts.grid or 32), tostring(iters)}, quiet = opts.quiet,
  })
  local odd = ctx.where(app, function(r) return r % 2 == 1 end)

  -- Per process: Allreduce calls so far, and the count at the last report.
  local calls, reported = app:var("int"), app:var("int")
  -- jacobi makes two Allreduces per sweep (residual and largest change): report at the
  -- second one how many calls this iteration made.
  local count = probe.seq{
    calls:assign(calls + 1),
    probe.when(calls:band(1):eq(0), probe.seq{
      probe.send(calls - reported),
      reported:assign(calls),
    }),
  }
  local result = {waves = {}, in_flight = 0}
  local h, removed_ns
  h = app:install(app:points("MPI_Allreduce", "entry"), count, {
    context = odd, filter = "sum",
    callback = function(m)
      local it = #result.waves + 1
      result.waves[it] = m.value
      local note = ""
      if removed_ns then
        -- sent before the removal reached the ranks: it was in the tree all along
        assert(m.sent.last_ns < removed_ns, "a wave sent after the removal took effect")
        result.in_flight = result.in_flight + 1
        note = "  in flight when removed"
      end
      out(string.format("iteration %3d: %5d MPI_Allreduce calls on %d odd ranks  (sent %.3f ms, arrived %.3f ms)%s",
        it, m.value, m.count, m.sent.last * 1e3, m.time * 1e3, note))
      if it == math.floor(iters / 2) then
        h:remove()
        removed_ns = app:now() + app:last_command().down_ns
        result.removed_ns = removed_ns
        out(string.format("probe removed after iteration %d; the removal reaches every rank at %.3f ms, "
          .. "waves sent before that still arrive", it, removed_ns / 1e6))
      end
    end,
  })
  out(string.format("installed on %d of %d ranks: %s", #odd, #app, h.state))
  h:activate()
  app:start()
  result.status = app:wait()
  local s = h:stats()
  result.stats = s
  out(string.format("%d waves were in flight when the probe was removed; none was sent after", result.in_flight))
  out(string.format("cost: %d packets sent by the ranks, %d messages delivered to this script " ..
    "(the tree summed the rest); the snippet is %d instructions, compiled once",
    s.sent, #result.waves, select(2, h:disasm():gsub("\n", "\n"))))
  out(string.format("job: %d exited, %d faulted, status %s", result.status.exited,
    result.status.faulted, app:status()))
  app:close()
  return result
end

if arg and arg[0] and arg[0]:match("quickstart%.lua$") then
  M.run()
end

return M
