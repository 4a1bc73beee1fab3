-- plot: the script's own data as line and bar charts (SVG or PNG, by the file's extension).
--
-- Counts how often each rank of ring calls MPI_Recv and MPI_Sendrecv, then plots the counts
-- per rank as lines and as grouped bars.   Run: go run ./cmd/dpclsh examples/plot.lua [dir]
local M = {}

function M.run(opts)
  opts = opts or {}
  local dir = opts.dir or "."
  local app = dpcl.launch("examples/apps/bin/ring.elf", {nodes = opts.nodes or 8, per_io = 8, quiet = true})
  local counts = {send = {}, recv = {}}
  for _, fn in ipairs{"send", "recv"} do
    local h = app:install(app:points(fn == "send" and "MPI_Sendrecv" or "MPI_Recv", "entry"),
      probe.send(probe.rank()), {callback = function(m)
        counts[fn][m.rank + 1] = (counts[fn][m.rank + 1] or 0) + 1
      end})
    h:activate()
  end
  app:start()
  app:wait()
  local ranks, labels, send, recv = {}, {}, {}, {}
  for r = 1, #app do
    ranks[r], labels[r] = r - 1, tostring(r - 1)
    send[r], recv[r] = counts.send[r] or 0, counts.recv[r] or 0
  end
  app:close()
  local lines = plot.lines{file = dir .. "/plot_lines.svg", title = "MPI calls per rank",
    x_label = "rank", y_label = "calls",
    series = {{name = "MPI_Sendrecv", x = ranks, y = send}, {name = "MPI_Recv", x = ranks, y = recv}}}
  local bars = plot.bars{file = dir .. "/plot_bars.png", title = "MPI calls per rank",
    y_label = "calls", labels = labels,
    series = {{name = "MPI_Sendrecv", values = send}, {name = "MPI_Recv", values = recv}}}
  return {lines = lines, bars = bars, send = send, recv = recv}
end

if arg and arg[0] and arg[0]:match("plot%.lua$") then
  local r = M.run{dir = arg[1]}
  print("wrote " .. r.lines .. " and " .. r.bars)
end

return M
