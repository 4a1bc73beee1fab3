-- profile: an mpiP-style profile of an unmodified program with limpio.profile. Counts and
-- inclusive times per MPI function live in each rank's memory; at each rank's exit they
-- travel up the reduction tree, where the eqclass filter collapses identical rows, so the
-- table (Table I of the Limpio paper) prints one line per class of ranks. MPIINSTR_EXCLUDE
-- in the job's environment leaves functions out, as Limpio's does.
--   Run: go run ./cmd/dpclsh examples/limpio/profile.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local app = dpcl.launch(opts.exe or "examples/apps/bin/master_worker.elf", {
    nodes = opts.nodes or 16, per_io = opts.per_io or 8, quiet = opts.quiet ~= false, args = opts.args,
    env = opts.env or {MPIINSTR_EXCLUDE = "MPI_Comm_rank,MPI_Comm_size"},
  })
  local prof = require("limpio").profile(app, {exclude = opts.exclude, warn = opts.warn,
    per_rank = opts.per_rank, chunk = opts.chunk})
  app:start()
  if opts.snapshot_after then
    dpcl.sleep(opts.snapshot_after)
    local rows, classes = prof:snapshot()
    opts.snapshot_after = {rows = rows, classes = classes, table = prof:lines()}
  end
  local st = app:wait()
  prof:table(out)
  return {app = app, prof = prof, status = st}
end

if arg and arg[0] and arg[0]:match("profile%.lua$") then
  M.run().app:close()
end

return M
