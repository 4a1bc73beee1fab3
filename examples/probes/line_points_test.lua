-- Tests of examples/probes/line_points.lua and of app:points' other selections: line points
-- fire as often as lines.c says its lines run, on every rank; address points are checked
-- like any point; function selections that match nothing say what was meant.
local line_points = dofile("examples/probes/line_points.lua")

function TestLinePointsCountAsTheSourceSays(t)
  local r = line_points.run{nodes = 4}
  t:eq(r.status.exited, 4)
  for _, l in ipairs(line_points.lines) do
    for rank = 0, 3 do
      t:eq(r.counts[l.line][rank], l.runs, "lines.c:" .. l.line .. " on rank " .. rank)
    end
  end
  r.app:close()
end

function TestLineWithoutCodeNamesTheNearestLines(t)
  local app = dpcl.launch(line_points.exe, {nodes = 1, quiet = true})
  t:error(function() app:points("lines.c:36") end, "nearest lines with code: lines.c:34, lines.c:37")
  t:error(function() app:points("nosuch.c:3") end, "nosuch.c")
  app:close()
end

function TestAddressPointsAndSelections(t)
  local app = dpcl.launch(line_points.exe, {nodes = 1, quiet = true})
  local sq = app:functions("square")[1]
  local pts = app:points(sq.addr + 4)
  t:eq(#pts, 1)
  t:eq(pts[1].addr, sq.addr + 4)
  t:error(function() app:points(sq.addr + 2) end, "not an instruction boundary")
  local re = app:points{regex = "^(square|fib)$", kind = "entry"}
  t:eq(#re, 2)
  t:eq(#app:functions{regex = "^classify$"}, 1)
  t:error(function() app:points("fbi") end, "did you mean fib")
  t:error(function() app:functions{regex = "^squar$"} end, "did you mean square")
  app:close()
end

function TestRetvalAtTailCallIsAnInstallError(t)
  local app = dpcl.launch("probes/testdata/points-O2.elf", {nodes = 1, quiet = true})
  t:error(function() app:install(app:points("tail", "exit"), probe.retval()) end,
    "retval at a tail call to twice")
  local h = app:install(app:points("gcd", "exit"), probe.send(probe.retval()))
  t:eq(h.state, "installed")
  app:close()
end
