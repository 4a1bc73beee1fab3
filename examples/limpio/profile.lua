-- profile: an mpiP-style profile of an unmodified program with limpio.profile. Counts and
-- inclusive times per MPI function live in each rank's memory; the table (Table I of the
-- Limpio paper) collapses identical ranks into one line.
--   Run: go run ./cmd/dpclsh examples/limpio/profile.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local env = opts.env
  local app = dpcl.launch(opts.exe or "examples/apps/bin/master_worker.elf", {
    nodes = opts.nodes or 16, per_io = opts.per_io or 8, quiet = opts.quiet ~= false, args = opts.args,
  })
  local prof = require("limpio").profile(app, {exclude = opts.exclude, env = env, warn = opts.warn})
  app:start()
  local st = app:wait()
  prof:snapshot()
  prof:table(out)
  return {app = app, prof = prof, status = st}
end

if arg and arg[0] and arg[0]:match("profile%.lua$") then
  M.run().app:close()
end

return M
