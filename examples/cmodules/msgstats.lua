-- msgstats: a C probe module (examples/cmodules/msgstats.c, prebuilt as msgstats.o)
-- loaded into every rank of ring. A probe at the entry of MPI_Send and MPI_Sendrecv calls
-- the module's msg_note(count, dest); the module keeps its statistics in its own globals,
-- one copy per process, read back with mod:read and sent with mod:global in a snippet.
--   Run: go run ./cmd/dpclsh examples/cmodules/msgstats.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local app = dpcl.launch("examples/apps/bin/ring.elf", {
    nodes = opts.nodes or 64, per_io = opts.per_io or 16, quiet = opts.quiet,
    args = {tostring(opts.ints or 16), tostring(opts.laps or 3)},
  })
  local mod = app:load_module(opts.object or "examples/cmodules/msgstats.o")
  out(tostring(mod))
  -- MPI_Send(buf, count, type, dest, ...) and MPI_Sendrecv(sendbuf, sendcount, type, dest, ...):
  -- count is argument 1, dest argument 3 in both. The value of probe.call is msg_note's.
  local pts = app:points("MPI_Send", "entry")
  for _, p in ipairs(app:points("MPI_Sendrecv", "entry")) do pts[#pts + 1] = p end
  local classes = {}
  local note = probe.call(mod, "msg_note", probe.arg(1), probe.arg(3))
  app:install(pts, probe.send(note), {filter = "histogram", params = {min = 0, max = 8, bins = 8},
    callback = function(m)
      for i, n in ipairs(m.values) do classes[i] = (classes[i] or 0) + n end
    end}):activate()
  -- At MPI_Finalize every rank sends its module counter: summed up the tree.
  local sent = {}
  app:install(app:points("MPI_Finalize", "entry"), probe.send(mod:global("notes")),
    {filter = "sum", callback = function(m) sent.notes = m.value end}):activate()
  if opts.before_start then opts.before_start(app, mod) end
  app:start()
  local st = app:wait()
  local r = {app = app, mod = mod, status = st, classes = classes, sent_notes = sent.notes,
    notes = mod:read("notes"), by_class = mod:read("by_class"), elements = mod:read("elements")}
  out(string.format("%d sends of %d elements in all (module counters summed over %d ranks)",
    r.notes, r.elements, app.size))
  for c, n in ipairs(r.by_class) do
    if n > 0 then out(string.format("  size class %d: %d sends", c - 1, n)) end
  end
  out("rank 5's last destinations: " .. table.concat(mod:read("recent", 5), " ", 1, 4))
  return r
end

if arg and arg[0] and arg[0]:match("msgstats%.lua$") then
  M.run().app:close()
end

return M
