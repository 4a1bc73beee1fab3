-- Tests of the plot module and examples/plot.lua.
local ex = dofile("examples/plot.lua")

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

function TestPlotExampleWritesSVGAndPNG(t)
  local r = ex.run{dir = dir()}
  local svg = read(r.lines)
  t:ok(svg:find("<svg", 1, true), "an SVG document")
  t:ok(svg:find("MPI_Sendrecv", 1, true), "the legend names the series")
  t:eq(read(r.bars):sub(2, 4), "PNG", "a PNG image")
  for i = 1, #r.send do
    t:ok(r.send[i] > 0 and r.recv[i] > 0, "rank " .. (i - 1) .. " called both")
  end
end

function TestPlotRefusesBadInput(t)
  local d = dir()
  local cases = {
    {function() plot.lines{file = d .. "/x.txt", series = {{x = {1}, y = {1}}}} end, "extension must be .svg or .png"},
    {function() plot.lines{file = d .. "/x.svg", series = {{x = {1, 2}, y = {1}}}} end, "2 x values for 1 y values"},
    {function() plot.lines{file = d .. "/x.svg", log_y = true, series = {{x = {1}, y = {0}}}} end, "log scale needs positive"},
    {function() plot.bars{file = d .. "/x.svg", labels = {"a"}, series = {{values = {1, 2}}}} end, "2 values for 1 labels"},
    {function() plot.lines{file = d .. "/x.svg", series = {}} end, "series must be a non-empty array"},
  }
  for _, c in ipairs(cases) do
    local ok, err = pcall(c[1])
    t:ok(not ok and tostring(err):find(c[2], 1, true), tostring(err))
  end
end

function TestPlotWriteFailureIsAnError(t)
  local d = dir()
  local function lines(file) plot.lines{file = file, series = {{x = {1, 2}, y = {1, 2}}}} end
  local ok, err = pcall(lines, d .. "/none/x.svg")
  t:ok(not ok and tostring(err):find("cannot write " .. d .. "/none/x.svg: no such file or directory", 1, true), tostring(err))
  -- A device behind a link with the right extension: written in place, its error raised.
  t:ok(os.execute("ln -s /dev/full " .. d .. "/full.svg") == 0, "a link to /dev/full")
  ok, err = pcall(lines, d .. "/full.svg")
  t:ok(not ok and tostring(err):find("cannot write " .. d .. "/full.svg: no space left on device", 1, true), tostring(err))
end
