-- Tests of the probe language's data: arrays, stacks, point identity, program memory and
-- globals, from Lua against running programs, and the errors bad input gets.
local timer_stack = dofile("examples/probes/timer_stack.lua")
local globals = dofile("examples/probes/globals.lua")

local function quiet_ring(nodes)
  return dpcl.launch("examples/apps/bin/ring.elf", {nodes = nodes or 8, per_io = 8, quiet = true})
end

function TestArrayText(t)
  local app = quiet_ring()
  local a = app:array("int", 4, "hits")
  t:eq(#a, 4)
  t:eq(a:type(), "int")
  t:eq(tostring(a[2]), "hits[2]")
  t:eq(tostring(a:set(probe.rank(), a[probe.rank()] + 1)), "(hits[rank()] = (hits[rank()] + 1))")
  t:eq(tostring(a[1]:assign(7)), "(hits[1] = 7)")
  t:eq(tostring(probe.send(a, 1)), "send(hits, 1)")
  t:ok(tostring(a):match("^Array hits int%[4%] at 0x"))
  t:ok(a[0]:disasm():match("cmplw"), "the index is checked against the length")
  app:close()
end

function TestArrayOverflowIsCountedNotWritten(t)
  local app = quiet_ring()
  local a = app:array("int", 3, "small")
  local guard = app:array("int", 1, "after")       -- right after small in the region
  -- MPI_Send's first argument is a buffer address: far out of range as an index
  app:install(app:points("MPI_Sendrecv", "entry"), probe.seq{a:set(probe.arg(0), 1), a:set(2, a[2] + 1)}):activate()
  app:start()
  t:eq(app:wait().exited, 8)
  for r = 0, 7 do
    t:eq(a:read(r), {0, 0, 10}, "rank " .. r)
    t:eq(guard:read(r), {0})
    t:eq(a:overflows(r), 10)
  end
  t:eq(a:overflows(), 80)
  app:close()
end

function TestPointIdentity(t)
  local app = quiet_ring()
  local pts = app:points("MPI_S*", "entry")
  local last = app:array("int", 2, "last")
  app:install(pts, probe.seq{last:set(0, probe.point()), last:set(1, probe.func())}):activate()
  app:start()
  app:wait()
  local l = last:read(0)
  t:eq(pts[l[1] + 1].func, app:func_name(l[2]), "point() indexes the list, func() names it")
  t:error(function() return app:func_name(-1) end, "not a function id")
  app:close()
end

function TestTimerStack(t)
  local r = timer_stack.run{nodes = 8, quiet = true, out = function() end}
  t:eq(r.status.exited, 8)
  t:eq(r.timers:overflows(), 0)
  t:eq(r.timers:underflows(), 0)
  t:eq(r.calls0.MPI_Recv, 10)
  t:ok(r.rank0.MPI_Recv > r.rank0.MPI_Comm_rank, "a blocking receive takes longer than comm_rank")
  for rank = 0, 7 do t:eq(r.timers:read(rank), {}, "stack empty at the end on rank " .. rank) end
  r.app:close()
end

function TestStackOverflowAndUnderflow(t)
  local app = quiet_ring()
  local s = app:stack("int", 2, "tiny")
  local popped = app:array("int", 1)
  t:eq(tostring(s:push(probe.rank())), "tiny.push(rank())")
  t:eq(tostring(s:pop() + s:depth()), "(tiny.pop() + tiny.depth())")
  -- ten MPI_Recv per rank push, nothing pops: 8 refused; then MPI_Reduce pops 3 times
  app:install(app:points("MPI_Recv", "entry"), s:push(probe.rank() + 100)):activate()
  app:install(app:points("MPI_Reduce", "entry"),
    popped:set(0, s:pop() + s:pop() + s:pop())):activate()
  app:start()
  app:wait()
  for r = 0, 7 do
    t:eq(s:overflows(r), 8, "rank " .. r)
    t:eq(s:underflows(r), 1)
    t:eq(popped:read(r), {2 * (r + 100)}, "two real pops and one empty")
  end
  app:close()
end

function TestGlobalsAndFaults(t)
  local r = globals.run{nodes = 2, quiet = true, out = function() end}
  t:eq(r.status.exited, 2)
  t:eq(#r.got, 6)
  t:eq(r.faults, 6, "one faulting load per call per rank")
  local first = r.got[1]
  t:eq(first, {-42, 7, 0.25, -2, 20, 10, 0})
  r.app:close()
end

function TestBadInputNamesTheExpression(t)
  local app = dpcl.launch("probes/testdata/globals.elf", {quiet = true})
  local a = app:array("int", 4, "arr")
  t:error(function() return app:array("float", 4) end, "array element type: unknown type \"float\"")
  t:error(function() return app:array("int", 0) end, "0 elements")
  t:error(function() return a:set(0, 1.5) end, "cannot assign double to an element of int array arr in %(arr%[0%] = 1.5%)")
  t:error(function() return a[probe.int64(1)] end, "index of array arr must be an int")
  t:error(function() return (probe.rank() + 1):assign(2) end, "assign needs an lvalue.*%(rank%(%) %+ 1%)")
  t:error(function() return probe.rank() + a end, "array arr is not a value")
  t:error(function() return app:global("no_such") end, "global no_such: no such global")
  t:error(function() return app:global("un") end, "global un: .*union")
  t:error(function() return app:global("bits") end, "bit%-field")
  t:error(function() return app:global("grid").nope end, "has no field nope")
  t:error(function() return app:global("grid") + 1 end, "grid %(struct grid%) is a struct: take a field")
  t:error(function() return app:global("table")[5] end, "out of range 0..4")
  t:error(function() return app:global("counter"):assign(0.5) end, "cannot store double into int memory")
  t:error(function() return probe.load(probe.double(1), "int") end, "address of load must be an int")
  t:error(function() return probe.load(0, "quad") end, "unknown memory type \"quad\"")
  local s = app:stack("double", 2, "ds")
  t:error(function() return s:push(probe.rank()):assign(1) end, "assign needs an lvalue")
  t:eq(tostring(app:global("grid").s[probe.arg(0)]), "grid.s[arg(0)]")
  t:eq(tostring(app:global("grid").n:assign(3)), "(grid.n = 3)")
  t:eq(tostring(app:global("matrix")[1][2]), "matrix[1][2]")
  t:eq(app:global("ucount"):type(), "int64")
  t:eq(app:global("fl"):type(), "double")
  app:close()
end

function TestTimebaseHz(t)
  t:eq(dpcl.timebase_hz, 700e6)
  t:eq(probe.timebase():type(), "int64")
end

function TestSendLimit(t)
  local app = quiet_ring()
  local big = app:array("int", 256)
  t:ok(probe.send(big), "256 values fit")
  t:error(function() return probe.send(big, 1) end, "send takes 1 to 256 values")
  app:close()
end

function TestDerefThroughDwarf(t)
  local app = dpcl.launch("probes/testdata/globals.elf", {quiet = true})
  local gp = app:global("gp")
  t:eq(tostring(gp:deref().n), "(*gp).n")
  t:eq(tostring(gp:deref("int", 4)), "load(gp + 4, int)")
  t:error(function() return app:global("counter"):deref() end, "pointee's type is not known")
  local seen = app:array("int", 2)
  app:install(app:points("probe_here", "entry"), probe.seq{seen:set(0, gp:deref().n), gp:deref().n:assign(100)}):activate()
  app:start()
  app:wait()
  t:eq(seen:read(0)[1], 101, "grid.n was 100 + main's increment at the second call")
  app:close()
end

function TestExecuteRecoversFaults(t)
  local app = quiet_ring(8)
  app:start()
  dpcl.sleep(0.0001)
  local got = {}
  local h = app:execute(probe.send(probe.load(16, "int"), probe.point(), probe.func()),
    {callback = function(m) got[#got + 1] = m.values end})
  while #got < 8 and app:status() == "running" do dpcl.poll() end
  t:eq(#got, 8)
  t:eq(got[1], {0, -1, -1}, "the load yields 0; a one-shot probe is at no point")
  t:eq(h:stats().faults, 8)
  t:eq(app:wait().exited, 8)
  app:close()
end
