-- dyntg_source: DynTG's workflow as a script. Load the counter and timer modules, count the
-- inner line of cg's matrix-vector product, time every call of matvec and dot (start at
-- the entry, stop at each exit), run the job and print cg.c's matvec and dot with one column
-- per data source and the totals of the program, the file and each function.
--   go run ./cmd/dpclsh examples/dyntg_source.lua [nodes] [grid]
-- In the REPL, app:source("cg.c", {follow = true}) reprints as the running job's data change.
local M = {}

function M.run(opts)
  opts = opts or {}
  dpcl.load_modules{"counter", "timer", dir = opts.dir}
  local app = dpcl.launch("examples/apps/bin/cg.elf", {nodes = opts.nodes or 4,
    args = {tostring(opts.grid or 40), "10"}, quiet = true})
  app:act("counter.count", app:points("cg.c:57"))
  for _, fn in ipairs{"matvec", "dot"} do
    app:act("timer.start", app:points(fn, "entry"))
    app:act("timer.stop", app:points(fn, "exit"))
  end
  app:start()
  local st = app:wait()
  app:source("cg.c", {from = 48, to = 75, out = opts.out})
  return {app = app, status = st}
end

if arg and arg[0] and arg[0]:match("dyntg_source%.lua$") then
  M.run{nodes = tonumber(arg and arg[1]), grid = tonumber(arg and arg[2])}
end

return M
