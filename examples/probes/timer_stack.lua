-- timer_stack: DynTG's timer module in a few lines. Every MPI_* entry pushes the timebase
-- on a per-process stack; every exit pops it and adds the elapsed ticks to a per-function
-- total (indexed by probe.func()). Times are inclusive and correct under nesting (MPI
-- calls that call MPI) and recursion; ticks are 1/dpcl.timebase_hz seconds.
--   Run: go run ./cmd/dpclsh examples/probes/timer_stack.lua
local M = {}

function M.run(opts)
  opts = opts or {}
  local out = opts.out or print
  local app = dpcl.launch(opts.exe or "examples/apps/bin/ring.elf", {
    nodes = opts.nodes or 8, per_io = opts.per_io or 8, quiet = opts.quiet,
  })
  local timers = app:stack("int64", 32, "timers")
  local ticks = app:array("int64", #app:functions("*"), "ticks")
  local calls = app:array("int", #app:functions("*"), "calls")
  local f = probe.func()
  app:install(app:points("MPI_*", "entry"), timers:push(probe.timebase())):activate()
  app:install(app:points("MPI_*", "exit"), probe.seq{
    ticks[f]:assign(ticks[f] + (probe.timebase() - timers:pop())),
    calls[f]:assign(calls[f] + 1),
  }):activate()
  app:start()
  local st = app:wait()
  local r = {status = st, app = app, timers = timers, rank0 = {}, calls0 = {}}
  local t0, c0 = ticks:read(0), calls:read(0)
  out(string.format("rank 0, inclusive time per MPI function (timebase %g Hz):", dpcl.timebase_hz))
  for id, n in ipairs(c0) do
    if n > 0 then
      local name = app:func_name(id - 1)
      r.rank0[name], r.calls0[name] = t0[id], n
      out(string.format("  %-14s %5d calls %10.2f us", name, n, t0[id] / dpcl.timebase_hz * 1e6))
    end
  end
  out(string.format("stack: %d overflows, %d underflows", timers:overflows(), timers:underflows()))
  return r
end

if arg and arg[0] and arg[0]:match("timer_stack%.lua$") then
  M.run().app:close()
end

return M
