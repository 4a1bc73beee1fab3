-- segment: count MPI_Isend calls only between the 3rd and the 6th MPI_Allreduce of
-- jacobi (one Allreduce per iteration), with limpio.segment.
--   Run: go run ./cmd/dpclsh examples/limpio/segment.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local app = dpcl.launch("examples/apps/bin/jacobi.elf", {nodes = opts.nodes or 4, per_io = 8,
    args = {"32", "20"}, quiet = true})
  local inside = app:array("int", 1, "inside")
  local seg = limpio.segment(app, {boundary = "MPI_Allreduce", from = opts.from or 3, to = opts.to or 6,
    on = function(seg)
      app:install(app:points("MPI_Isend", "entry"), seg:guard(inside:set(0, inside[0] + 1))):activate()
    end})
  local tr = opts.trace and limpio.trace(app, {})
  app:start()
  app:wait()
  local r = {app = app, seg = seg, inside = {}, trace = tr}
  for rank = 0, app.size - 1 do r.inside[rank] = inside:read(rank)[1] end
  if not opts.quiet then
    for rank = 0, app.size - 1 do print("rank " .. rank .. ": " .. r.inside[rank] .. " MPI_Isend inside") end
  end
  return r
end

if arg and arg[0] and arg[0]:match("segment%.lua$") then
  M.run().app:close()
end

return M
