-- Tests of examples/attach.lua and of attaching to a job of this session.
local attach = dofile("examples/attach.lua")

function TestAttachCountsAndDetaches(t)
  local r = attach.run{nodes = 16, iters = 100, messages = 3, quiet = true, out = function() end}
  t:ok(r.attached_at >= 2000000, "attached where job:run left the job: " .. r.attached_at)
  t:ok(r.messages >= 3 and r.messages < 100, "waves received before detaching: " .. r.messages)
  t:eq(r.calls, 16 * r.messages, "every rank's call in each wave")
  t:eq(r.state, "removed")
  t:eq(r.status, 0)
end

-- The job chooses the moment of the attach (where job:run left it); from there on the
-- job advances only as the tool waits, so two runs give the same messages at the same
-- virtual times, and the same end.
function TestAttachIsReproducible(t)
  local o = {nodes = 16, iters = 100, messages = 3, quiet = true, out = function() end}
  local a, b = attach.run(o), attach.run(o)
  t:eq(a.attached_at, b.attached_at)
  t:eq(#a.times, #b.times)
  for i, at in ipairs(a.times) do t:eq(b.times[i], at, "message " .. i) end
  t:eq(a.end_ns, b.end_ns)
end

function TestAttachedJobIsTheToolsToRun(t)
  local job = bgl.launch("examples/apps/bin/jacobi.elf", {nodes = 8, per_io = 8, args = {"32", "20"}, quiet = true})
  local app = dpcl.attach(job)
  local ok, err = pcall(job.run, job, 0.001)
  t:ok(not ok and tostring(err):find("has a tool attached", 1, true), tostring(err))
  ok, err = pcall(dpcl.attach, job)
  t:ok(not ok and tostring(err):find("already has a tool attached", 1, true), tostring(err))
  app:detach()
  t:eq(app:status(), "closed")
  t:eq(job:wait(), 0)
  job:close()
end

function TestDetachOnlyWhatWasAttached(t)
  local app = dpcl.launch("examples/apps/bin/jacobi.elf", {nodes = 8, per_io = 8, args = {"32", "5"}, quiet = true})
  t:eq(app:attached(), nil)
  local ok, err = pcall(app.detach, app)
  t:ok(not ok and tostring(err):find("app:close() ends it", 1, true), tostring(err))
  app:close()
end

function TestAttachRefusesAWrongSecret(t)
  local dir = os.getenv("TMPDIR") or "/tmp"
  local good, bad = dir .. "/attach_good.secret", dir .. "/attach_bad.secret"
  local f = io.open(good, "w") f:write(string.rep("ab", 32)) f:close()
  f = io.open(bad, "w") f:write(string.rep("cd", 32)) f:close()
  local job = bgl.launch("examples/apps/bin/jacobi.elf",
    {nodes = 8, per_io = 8, args = {"32", "5"}, quiet = true, listen = "127.0.0.1:0", secret_file = good})
  local ok, err = pcall(dpcl.attach, job:address(), {secret_file = bad})
  t:ok(not ok and tostring(err):find("the job refused the secret", 1, true), tostring(err))
  t:eq(job:wait(), 0)
  job:close()
  os.remove(good) os.remove(bad)
end
