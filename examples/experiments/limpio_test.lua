-- The Limpio experiments at reduced sizes.
local function dir()
  local d = os.tmpname()
  os.remove(d)
  os.execute("mkdir -p " .. d)
  return d
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("*a")
  f:close()
  return s
end

function TestTable1MasterApartFromWorkers(t)
  local r = dofile("examples/experiments/limpio_table1.lua").run{dir = dir(), nodes = 16}
  t:ok(r.lines[2]:find("^#0 "), "the master is a row of its own: " .. r.lines[2])
  t:ok(r.lines[#r.lines]:find("^Total"), "a Total row")
  t:ok(#r.lines <= 18, #r.lines .. " lines")
  local csv = read(r.csv)
  t:ok(csv:find("^rank,MPI_Init_calls"), "CSV header")
  local n = 0
  for _ in csv:gmatch("\n") do n = n + 1 end
  t:eq(n, 17, "a header and a line per rank")
  t:ok(r.ratio.master > 0 and r.ratio.master < 1 and r.ratio.workers > 0, "ratios are fractions")
  t:eq(#r.statements, 2)
  for _, st in ipairs(r.statements) do t:ok(st.holds, st.text) end
end

function TestFig2RatioPerSize(t)
  local r = dofile("examples/experiments/limpio_fig2.lua").run{dir = dir(), sizes = {4, 16}}
  t:ok(read(r.csv):find("^ranks,master_mpi_fraction"), "CSV header")
  t:ok(read(r.svg):find("<svg", 1, true), "an SVG")
  t:eq(#r.rows, 2)
  for _, row in ipairs(r.rows) do t:ok(row[2] > 0 and row[2] < 1 and row[3] > 0 and row[3] < 1, "fractions at " .. row[1]) end
  -- The statements the script prints are computed from the run, and the run bears them out.
  t:eq(#r.statements, 2)
  for _, st in ipairs(r.statements) do t:ok(st.holds, st.text) end
  t:ok(r.statements[1].text:find("4 ranks: master", 1, true), r.statements[1].text)
end

function TestFig3TimelineWithoutTheMostFrequent(t)
  local r = dofile("examples/experiments/limpio_fig3.lua").run{dir = dir(), nodes = 8, args = {"32", "5"}}
  t:eq(#r.exclude, 2)
  for _, e in ipairs(r.trace.events) do
    t:ok(e.func ~= r.exclude[1] and e.func ~= r.exclude[2], "excluded call traced: " .. e.func)
    if e.func == r.exclude[1] then break end
  end
  local svg = read(r.svg)
  t:ok(svg:find("<svg", 1, true) and svg:find(r.timeline.functions[1], 1, true), "an SVG with a legend")
  local rects = 0
  for _ in svg:gmatch("<rect ") do rects = rects + 1 end
  t:eq(rects, r.info.events + #r.timeline.functions, "a span per event and a legend box per function")
end
