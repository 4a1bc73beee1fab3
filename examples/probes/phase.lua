-- Phases (DPCL's Phase class): sample every rank at a fixed period of virtual time.
-- spin.elf computes on every rank until its clock reaches 1,020 µs, so a 100 µs phase
-- fires 10 times: each firing sends {1, 0, 0} from every rank and the "sum" filter hands
-- the script one message per firing, its first value the number of ranks that ran it.
-- on_begin ({0, 1, 0}) and on_end ({0, 0, 1}) run once per rank, at the start and as each
-- rank exits; they share the phase's filter and callback.
--
--   go run ./cmd/dpclsh examples/probes/phase.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local app = dpcl.launch("runtime/testdata/bin/spin.elf",
    {nodes = opts.nodes or 16, per_io = 8, args = {"1020"}, quiet = true})
  local r = {firings = {}, begin = 0, finish = 0}
  local h = app:phase(100e-6, probe.send(1, 0, 0), {filter = "sum",
    on_begin = probe.send(0, 1, 0), on_end = probe.send(0, 0, 1),
    callback = function(m)
      local tick, begin, finish = m.values[1], m.values[2], m.values[3]
      r.begin, r.finish = r.begin + begin, r.finish + finish
      if tick > 0 then r.firings[#r.firings + 1] = {ranks = tick, time = m.time} end
    end})
  app:start()
  r.status = app:wait()
  for i, f in ipairs(r.firings) do
    out(string.format("firing %2d: %d ranks", i, f.ranks))
  end
  out(string.format("on_begin ran on %d ranks, on_end on %d; %d ranks exited",
    r.begin, r.finish, r.status.exited))
  r.handle, r.app = h, app
  return r
end

if arg and arg[0] and arg[0]:match("phase%.lua$") then
  M.run().app:close()
end

return M
