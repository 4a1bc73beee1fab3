-- Tests of examples/probes/call_paths.lua: at 1,024 ranks the stacks at MPI_Recv's entry
-- fall into exactly the two classes ring.c builds — rank 0 receives at one call, every
-- other rank at another — each frame named with the call's file:line.
local call_paths = dofile("examples/probes/call_paths.lua")

-- lineOf is the line of ring.c holding text.
local function lineOf(text)
  local n = 0
  for l in io.lines("examples/apps/ring.c") do
    n = n + 1
    if l:find(text, 1, true) then return n end
  end
  error("ring.c has no line with " .. text)
end

function TestStacksAt1024RanksFormTwoClasses(t)
  local r = call_paths.run{nodes = 1024, per_io = 64, quiet = true, out = function() end}
  t:eq(r.status.exited, 1024)
  t:eq(#r.paths, 2, "call paths")
  local others, zero = r.paths[1], r.paths[2]
  t:eq(others.count, 1023)
  t:eq(others.ranks, {"1-1023"})
  t:eq(zero.count, 1)
  t:eq(zero.ranks, {"0"})
  t:ok(others.frames[1]:find("(ring.c:" .. lineOf("MPI_Recv(tok,") .. ")", 1, true),
    "ranks 1-1023 call MPI_Recv(tok, ...): " .. others.frames[1])
  t:ok(zero.frames[1]:find("(ring.c:" .. lineOf("MPI_Recv(in,") .. ")", 1, true),
    "rank 0 calls MPI_Recv(in, ...): " .. zero.frames[1])
  -- Below the call both paths are the same: main's callers in the C library.
  t:eq(#others.frames, #zero.frames)
  for i = 2, #zero.frames do t:eq(others.frames[i], zero.frames[i], "frame " .. i) end
end

function TestStackAndRegisterBindings(t)
  t:eq(tostring(probe.send(probe.lr(), probe.sp(), probe.reg("r3"), probe.ustack(8))),
    'send(lr(), sp(), reg("r3"), ustack(8))')
  t:eq(probe.reg("r31"):type(), "int")
  local ok, err = pcall(probe.reg, "r32")
  t:ok(not ok and err:find('unknown register "r32"', 1, true), tostring(err))
  ok, err = pcall(probe.ustack, 0)
  t:ok(not ok and err:find("ustack depth 0 out of range 1..256", 1, true), tostring(err))
  ok, err = pcall(function() return probe.ustack(4) + 1 end)
  t:ok(not ok and err:find("not a value", 1, true), tostring(err))
end
