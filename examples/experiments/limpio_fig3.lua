-- limpio_fig3: Fig 3 of the Limpio paper — a timeline of one jacobi run traced with the most
-- frequent calls excluded (found by a profile run first), as SVG, Perfetto JSON and CSV.
--   Run: go run ./cmd/dpclsh examples/experiments/limpio_fig3.lua [dir]
local C = dofile("examples/experiments/common.lua")
local M = {}

local function launch(o)
  return dpcl.launch("examples/apps/bin/jacobi.elf", {nodes = o.nodes or 64, per_io = 64,
    args = o.args or {"64", "20"}, quiet = true})
end

function M.run(o)
  o = o or {}
  local dir = C.dir(o)
  local app = launch(o)
  local prof = limpio.profile(app)
  app:start()
  app:wait()
  local rows, total = prof:snapshot(), {}
  for r = 0, app.size - 1 do
    for name, n in pairs(rows[r].calls) do total[name] = (total[name] or 0) + n end
  end
  app:close()
  local names = keys(total)
  table.sort(names, function(a, b) return total[a] > total[b] end)
  local exclude = {}
  for i = 1, o.exclude_top or 2 do exclude[i] = names[i] end
  app = launch(o)
  local tr = limpio.trace(app, {exclude = exclude})
  app:start()
  app:wait()
  local r = {exclude = exclude, svg = dir .. "/limpio_fig3.svg", json = dir .. "/limpio_fig3.json",
    csv = dir .. "/limpio_fig3.csv"}
  r.timeline = tr:svg(r.svg, {title = "jacobi without " .. table.concat(exclude, ", ")})
  r.info = tr:perfetto(r.json)
  tr:csv(r.csv)
  r.trace = tr
  app:close()
  return r
end

if arg and arg[0] and arg[0]:match("limpio_fig3%.lua$") then
  local r = M.run{dir = arg[1]}
  print(string.format("excluded %s; %d events, %d bytes", table.concat(r.exclude, ", "), r.info.events, r.info.bytes))
end

return M
