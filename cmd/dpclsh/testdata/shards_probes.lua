-- A probe-heavy session for sharded runs (mpiexec -n P dpclsh --shards): jacobi with a
-- counting probe summed in the tree, a histogram of message sizes, limpio's profile
-- probes on every MPI function, a one-shot snippet and reads of probe data from every
-- rank. Each process of a sharded run runs it whole; its output must be one process's.
--   dpclsh testdata/shards_probes.lua [NODES [SWEEPS]]
local nodes, sweeps = tonumber(arg[1] or "32"), arg[2] or "6"
local app = dpcl.launch("../../examples/apps/bin/jacobi.elf", {
  nodes = nodes, per_io = 8, topology = "b:2", args = {"32", sweeps},
})

-- Allreduce calls per sweep on the odd ranks, summed in the tree (quickstart's probe).
local odd = ctx.where(app, function(r) return r % 2 == 1 end)
local calls, reported = app:var("int"), app:var("int")
local marks = app:array("int", 2, "marks") -- Allreduce calls; one-shot marks
local count = probe.seq{
  calls:assign(calls + 1),
  marks:set(0, marks[0] + 1),
  probe.when(calls:band(1):eq(0), probe.seq{probe.send(calls - reported), reported:assign(calls)}),
}
local waves = 0
local h = app:install(app:points("MPI_Allreduce", "entry"), count, {context = odd, filter = "sum",
  callback = function(m)
    waves = waves + 1
    print(string.format("wave %d: %d calls on %d ranks, sent %d-%d ns, arrived %d ns",
      waves, m.value, m.count, m.sent.first_ns, m.sent.last_ns, m.time_ns))
  end})
h:activate()

-- Message sizes of the halo exchange (MPI_Isend's count), as a histogram.
local bins = {}
app:install(app:points("MPI_Isend", "entry"), probe.send(probe.arg(1)),
  {filter = "histogram", params = {min = 0, max = 64, bins = 8}, callback = function(m)
    for i, n in ipairs(m.values) do bins[i] = (bins[i] or 0) + n end
  end}):activate()

-- limpio's mpiP-style profile: probes on every MPI function's entry and exit.
local prof = require("limpio").profile(app, {warn = false})

app:start()
dpcl.sleep(100e-6)
-- A one-shot snippet on every rank while the job runs, and the counter read back.
app:execute(marks:set(1, marks[1] + 7))
print(string.format("at %d ns: %s", app:now(), h.state))
local st = app:wait()
print(string.format("job: %d exited, %d faulted", st.exited, st.faulted))
print("isend sizes: " .. table.concat(bins, " "))
local sum = 0
for r = 0, app.size - 1 do
  local m = marks:read(r)
  sum = sum + m[1] + m[2]
end
print(string.format("Allreduce calls and one-shot marks over %d ranks: %d", app.size, sum))
local s = h:stats()
print(string.format("counting probe: %d sent, %d delivered, %d waves", s.sent, s.delivered, waves))
prof:table(print)
app:close()
