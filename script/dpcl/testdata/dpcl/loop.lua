-- A whole tool session over runtime/testdata/bin/loop.elf: a counting probe with a sum
-- filter on odd ranks, an unaggregated probe on one I/O node, a callback that raises an
-- error once, removal half way, a one-shot read, events. Its output must be the same bytes
-- on every run and under any GOMAXPROCS.
-- The tool's processes cost nothing here (only the collective network's latency is
-- left), so the waves arrive while the short job still runs and the removal catches
-- ranks mid-run.
local free = {}
for _, k in ipairs{"io_latency_ns", "io_ns_per_byte", "comm_latency_ns", "comm_ns_per_byte", "daemon_recv_ns",
  "daemon_fwd_ns", "daemon_ns_per_byte", "daemon_filter_ns", "daemon_filter_value_ns", "comm_recv_ns",
  "comm_fwd_ns", "comm_node_ns_per_byte", "comm_filter_ns", "comm_filter_value_ns", "fe_recv_ns",
  "fe_ns_per_byte", "fe_filter_ns", "fe_filter_value_ns", "ciod_ship_ns", "daemon_poll_stream_ns", "comm_poll_conn_ns", "fe_poll_conn_ns"} do free[k] = 0 end
local app = dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 32, per_io = 8, args = {"12"}, topology = "b:2",
  costs = free})
print(app, app.size, #app, app:status())
local n = app:var("int")
local ticks = app:var("int")
local odd = ctx.where(app, function(r) return r % 2 == 1 end)
local waves = 0
local h
h = app:install(app:points("step", "entry"), probe.seq{n:assign(n + 1), probe.send(n)}, {
  context = odd, filter = "sum",
  callback = function(m)
    waves = waves + 1
    print(string.format("wave %d: sum %d over %d ranks at %d ns", waves, m.value, m.count, m.time_ns))
    if waves == 3 then error("callback failure on wave 3") end
    if waves == 6 then h:remove(); print("removed:", h.state) end
  end,
})
local raw = app:install(app:points("tick", "exit"), probe.seq{ticks:assign(ticks + 1),
  probe.when(ticks:eq(5), probe.send(probe.rank(), ticks))}, {
  context = ctx.ionode(app, 2),
  callback = function(m) print("rank", m.rank, "values", m.values[1], m.values[2], "count", m.count) end,
})
h:activate()
raw:activate()
app:on("exit", function(ev) if ev.rank % 8 == 0 then print("exit", ev.rank, ev.status) end end)
app:start()
local st = app:wait()
print("exited", st.exited, "faulted", st.faulted, "running", st.running, app:status())
local s = h:stats()
print("sum probe: sent", s.sent, "delivered", s.delivered, "ranks", s.ranks, h.state)
s = raw:stats()
print("raw probe: sent", s.sent, "delivered", s.delivered, "ranks", s.ranks, raw.state)
