-- The scaling plot script reads the committed CSV and draws both SVGs.
local scaling = dofile("examples/bench/exec_scaling_plot.lua")

function TestScalingPlots(t)
  local d = os.tmpname()
  os.remove(d)
  os.execute("mkdir -p " .. d)
  local c = scaling.read("examples/bench/exec_scaling.csv")
  t:eq(c.ranks, {1024, 4096, 16384, 65536})
  local cpu, rss = scaling.run("examples/bench/exec_scaling.csv", d)
  for _, f in ipairs{cpu, rss} do
    local fh = assert(io.open(f, "rb"))
    t:ok(fh:read("*a"):find("<svg", 1, true), f .. " is an SVG document")
    fh:close()
  end
end
