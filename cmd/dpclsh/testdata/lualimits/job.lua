-- A 16-rank job with three probes on MPI_Allreduce's entry: one counts calls with the
-- built-in sum, the others go through a filter that allocates without bound and one that
-- backtracks without end. The two fail their own probes; the counting one and the job
-- run to their end.
local dir = arg[1]
local app = dpcl.launch("examples/apps/bin/jacobi.elf", {nodes = 16, per_io = 8, args = {"16", "4"}, quiet = true})
local counted = 0
local good = app:install(app:points("MPI_Allreduce", "entry"), probe.send(1),
  {filter = "sum", callback = function(m) counted = counted + m.value end})
local probes = {good = good}
for _, name in ipairs{"hog", "backtrack"} do
  probes[name] = app:install(app:points("MPI_Allreduce", "entry"), probe.send(1),
    {filter = filter.load(dir .. "/" .. name .. "_filter.lua"), callback = function() end})
end
for _, h in pairs(probes) do h:activate() end
app:start()
local st = app:wait()
for _, name in ipairs{"hog", "backtrack"} do
  local h = probes[name]
  local why = {}
  for _, reason in pairs(h:stats().failed) do why[#why + 1] = reason end
  table.sort(why)
  print(name .. ": " .. h.state .. ": " .. tostring(why[1]))
end
print(string.format("counted %d calls; job: %d exited, %d faulted", counted, st.exited, st.faulted))
app:close()
