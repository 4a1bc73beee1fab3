-- Attach to a running job, as DPCL attaches to a running POE job through its MPIR
-- proctable: the job starts without the tool, runs a while, the tool's daemons and tree
-- come in where it stands, a probe counts its MPI_Allreduce calls, and app:detach()
-- removes the probe and leaves the job to run to its end.
--
-- The same from another process:
--   dpclsh exec --listen 127.0.0.1:7070 --secret-file job.secret --nodes 16 --per-io 8 \
--       examples/apps/bin/jacobi.elf 32 200
--   dpclsh -e 'local app = dpcl.attach("127.0.0.1:7070", {secret_file = "job.secret"}) ...'
--
-- Run: dpclsh examples/attach.lua
local M = {}

function M.run(o)
  o = o or {}
  local out = o.out or print
  local job = bgl.launch("examples/apps/bin/jacobi.elf",
    {nodes = o.nodes or 16, per_io = 8, args = {"32", tostring(o.iters or 200)}, quiet = o.quiet})
  job:run(o.before_s or 0.002)                 -- the job runs alone for 2 virtual ms
  local app = dpcl.attach(job)
  local at = app:attached()
  out(string.format("attached at %.3f virtual ms to %d ranks", at / 1e6, app.size))
  local calls, messages, times = 0, 0, {}
  local h = app:install(app:points("MPI_Allreduce", "entry"), probe.send(1),
    {filter = "sum", callback = function(m)
      calls, messages = calls + m.value, messages + 1
      times[messages] = m.time
    end})
  h:activate()
  while messages < (o.messages or 3) do dpcl.poll(0.00005) end   -- 50 virtual us at a time
  app:detach()
  out(string.format("%d MPI_Allreduce calls in %d waves; detached at %.3f virtual ms, probe %s",
    calls, messages, job:now() / 1e6, h.state))
  local status = job:wait()                    -- the job runs on without the tool
  out(string.format("the job ended with status %d at %.3f virtual ms", status, job:now() / 1e6))
  local end_ns = job:now()
  job:close()
  return {attached_at = at, calls = calls, messages = messages, times = times, state = h.state,
    status = status, end_ns = end_ns}
end

if arg and arg[0] and arg[0]:match("attach%.lua$") then
  M.run()
end

return M
