-- Probes without a callback keep their messages for h:next() and h:messages(); a
-- callback that keeps failing is reported once and deactivated after 3 errors.
local function launch()
  return dpcl.launch("runtime/testdata/bin/loop.elf", {nodes = 8, per_io = 8, args = {"10"}, quiet = true})
end

function TestMessagesWithoutCallbackAreQueued(t)
  local app = launch()
  local h = app:install(app:points("tick", "entry"), probe.send(probe.rank()), {filter = "sum"})
  h:activate()
  app:start()
  app:wait()
  local st = h:stats()
  t:ok(st.queued > 0 and st.delivered == st.sent, "messages are waiting, none lost")
  local first = h:next()
  t:eq(first.value, 0 + 1 + 2 + 3 + 4 + 5 + 6 + 7, "the first wave sums every rank")
  t:eq(first.count, 8)
  local msgs, ranks = 1, first.count
  for m in h:messages() do
    msgs, ranks = msgs + 1, ranks + m.count
  end
  t:eq(msgs, st.queued, "every queued message is taken")
  t:eq(ranks, st.delivered, "they carry every rank's packet")
  t:eq(h:next(), nil)
  t:eq(h:stats().queued, 0)
  app:close()
end

function TestFailingCallbackIsDeactivatedAfterThree(t)
  local app = launch()
  local calls = {n = 0}
  local h = app:install(app:points("tick", "entry"), probe.send(1), {callback = function(m)
    calls.n = calls.n + 1
    error("bad callback " .. calls.n)
  end})
  h:activate()
  app:start()
  app:wait()
  t:eq(calls.n, 3)
  t:eq(h:stats().errors, 3)
  t:eq(h.state, "installed")
  app:close()
end
