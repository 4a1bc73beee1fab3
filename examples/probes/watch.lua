-- watch: a watchpoint on a program global (probes/testdata/watch.c, at -O0 and -O2). x is
-- written at iterations 3, 7 and 12; every write comes back with the rank, the pc, the
-- function and file:line from DWARF, and the value before and after. noise, on the same
-- page, is written every iteration and never reported. Only that page pays: the run's
-- virtual time grows by 1200 cycles per access to it, and a run without the watch is
-- unchanged.
--   Run: go run ./cmd/dpclsh examples/probes/watch.lua [O0|O2] [write|read|rw]
local M = {}

-- run returns the watch's events ({rank, where, write, old, new}) and each rank's exit
-- time (virtual ns); opts.on = nil runs without a watch, opts.remove removes it before
-- the start.
function M.run(opts)
  opts = opts or {}
  local app = dpcl.launch("probes/testdata/watch-" .. (opts.level or "O2") .. ".elf",
    {nodes = opts.nodes or 2, quiet = true})
  local events, exits = {}, {}
  app:on("exit", function(ev) exits[ev.rank] = ev.time_ns end)
  if opts.on then
    local w = app:watch(app:global("x"), {on = opts.on, callback = function(ev)
      events[#events + 1] = {rank = ev.rank, where = ev.where, write = ev.write, old = ev.old, new = ev.new}
    end})
    if opts.remove then w:remove() end
  end
  app:start()
  local status = app:wait()
  app:close()
  return {events = events, status = status, exits = exits}
end

if arg and arg[0] and arg[0]:match("watch%.lua$") then
  local r = M.run{level = arg[1] or "O2", on = arg[2] or "write", nodes = 1}
  for _, ev in ipairs(r.events) do
    print(string.format("rank %d %s %s: %d -> %d", ev.rank, ev.write and "write" or "read", ev.where, ev.old, ev.new))
  end
end

return M
