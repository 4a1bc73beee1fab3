-- globals: read and write a program's globals by name (app:global, typed from DWARF),
-- follow a pointer (deref), and read memory that is not there without harming the rank:
-- the load yields 0 and the handle counts a fault.
--   Run: go run ./cmd/dpclsh examples/probes/globals.lua
-- The program is probes/testdata/globals.c: a loop calling probe_here(step) three times.
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local app = dpcl.launch(opts.exe or "probes/testdata/globals.elf", {nodes = opts.nodes or 2, quiet = opts.quiet})
  local grid, counter, tbl = app:global("grid"), app:global("counter"), app:global("table")
  local step = probe.arg(0)
  local got = {}
  local e = probe.seq{
    probe.send(counter, grid.n, grid.h, grid.s[1], grid.p:deref("int"), tbl[step], probe.load(16, "int")),
    counter:assign(counter + 1000),
  }
  out(tostring(e))
  local h = app:install(app:points("probe_here", "entry"), e, {callback = function(m)
    got[#got + 1] = m.values
    out(string.format("rank %d: counter %d grid.n %d grid.h %g grid.s[1] %d *grid.p %d table[step] %d *16 %d",
      m.rank, unpack(m.values)))
  end})
  h:activate()
  app:start()
  local st = app:wait()
  out(string.format("%d ranks exited; faults recovered: %d", st.exited, h:stats().faults))
  return {app = app, got = got, status = st, faults = h:stats().faults}
end

if arg and arg[0] and arg[0]:match("globals%.lua$") then
  M.run().app:close()
end

return M
