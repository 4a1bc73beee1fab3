-- messages: what a probe without a callback does, a sampling loop, addresses and units.
--
--   * A probe installed without a callback queues its messages on the handle; take them
--     with h:next() or `for m in h:messages() do`. (The interactive shell prints them as
--     they arrive instead, bpftrace-style, unless the probe has print = false.)
--   * app:execute runs a probe once; its handle ends as "done". On an ended job it returns
--     nil and the reason, so the sampling loop below ends cleanly with the job.
--   * Times are virtual seconds (m.time) with the exact nanoseconds in m.time_ns;
--     addresses print as 0x... and still do arithmetic.
-- Run: go run ./cmd/dpclsh examples/messages.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local app = dpcl.launch(opts.exe or "examples/apps/bin/ring.elf", {
    nodes = opts.nodes or 64, per_io = 8, args = {"16", tostring(opts.laps or 40)}, quiet = true,
  })
  local f = app:functions("MPI_Send")[1]
  out(string.format("MPI_Send is at %s (%d bytes, ends at %s)", f.addr, f.size, f.addr + f.size))

  -- Every rank's MPI_Send calls, summed per wave in the tree; no callback: queued.
  local sends = app:var("int")
  local h = app:install(app:points("MPI_Send", "entry"), probe.seq{sends:assign(sends + 1), probe.send(1)},
    {filter = "sum"})
  h:activate()
  app:start()

  -- Sample the send counters of all ranks every 50 virtual microseconds until the job ends.
  local samples = {}
  while app:status() == "running" do
    dpcl.sleep(50e-6)
    local one = app:execute(probe.send(sends), {print = false})
    if one then samples[#samples + 1] = one end
  end
  app:wait()

  local waves, first, last = 0, nil, nil
  for m in h:messages() do
    waves = waves + 1
    first = first or m
    last = m
  end
  out(string.format("%d waves of MPI_Send calls queued; the first at %.6f virtual s (%d ns), the last at %.6f s",
    waves, first.time, first.time_ns, last.time))
  -- Each sample holds one message per rank that ran it (a rank blocked in MPI runs it when
  -- its call returns); its largest value is the busiest rank's count so far.
  local maxima, every10, done = {}, {}, 0
  for i, s in ipairs(samples) do
    local hi = 0
    for m in s:messages() do hi = math.max(hi, m.value) end
    maxima[i] = hi
    if i % 10 == 0 then every10[#every10 + 1] = hi end
    if s.state == "done" then done = done + 1 end
  end
  out(string.format("%d one-shot samples (%d done); the most MPI_Send calls of a rank, every 10th sample: %s",
    #samples, done, table.concat(every10, " ")))
  out(string.format("the timebase runs at %d Hz: one tick is %.3f ns", dpcl.timebase_hz, 1e9 / dpcl.timebase_hz))
  local result = {waves = waves, samples = samples, maxima = maxima, addr = f.addr, size = f.size}
  app:close()
  return result
end

if arg and arg[0] and arg[0]:match("messages%.lua$") then
  M.run()
end

return M
