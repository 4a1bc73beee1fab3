-- limpio_fig2: Fig 2 of the Limpio paper — the communication ratio (MPI time over total
-- time, virtual) of master_worker's master and mean worker as ranks grow, as CSV and SVG.
--   Run: go run ./cmd/dpclsh examples/experiments/limpio_fig2.lua   (4 ... 1,024 ranks)
local M = {}

function M.run(o)
  o = o or {}
  local dir = o.dir or "."
  local sizes = o.sizes or {4, 16, 64, 256, 1024}
  local rows, xs, master, workers = {}, {}, {}, {}
  for _, n in ipairs(sizes) do
    local app = dpcl.launch("examples/apps/bin/master_worker.elf", {nodes = n, per_io = 64, quiet = true})
    local prof = limpio.profile(app)
    app:start()
    app:wait()
    local r = prof:ratio()
    app:close()
    rows[#rows + 1] = {n, r.master, r.workers}
    xs[#xs + 1], master[#master + 1], workers[#workers + 1] = n, 100 * r.master, 100 * r.workers
  end
  local csv = dir .. "/limpio_fig2.csv"
  local out = {"ranks,master_mpi_fraction,mean_worker_mpi_fraction\n"}
  for _, r in ipairs(rows) do out[#out + 1] = string.format("%d,%.6f,%.6f\n", r[1], r[2], r[3]) end
  dpcl.write_file(csv, out)
  local svg = plot.lines{file = dir .. "/limpio_fig2.svg", title = "master_worker: time in MPI",
    x_label = "ranks", y_label = "% of run time in MPI", log_x = true,
    series = {{name = "master (rank 0)", x = xs, y = master}, {name = "mean worker", x = xs, y = workers}}}
  return {rows = rows, csv = csv, svg = svg}
end

if arg and arg[0] and arg[0]:match("limpio_fig2%.lua$") then
  M.run()
end

return M
