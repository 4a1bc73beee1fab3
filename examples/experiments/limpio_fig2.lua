-- limpio_fig2: Fig 2 of the Limpio paper — the communication ratio (MPI time over total
-- time, virtual) of master_worker's master and mean worker as ranks grow, as CSV and SVG;
-- it prints, computed from this run, whether each of the paper's statements holds.
--   Run: go run ./cmd/dpclsh examples/experiments/limpio_fig2.lua [dir]   (4 ... 1,024 ranks)
local C = dofile("examples/experiments/common.lua")
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
  local svg = C.figure("lines", {file = dir .. "/limpio_fig2.svg", title = "master_worker: time in MPI",
    x_label = "ranks", y_label = "% of run time in MPI", log_x = true,
    series = {{name = "master (rank 0)", x = xs, y = master}, {name = "mean worker", x = xs, y = workers}}})
  return {rows = rows, csv = csv, svg = svg, statements = M.statements(rows)}
end

-- M.statements checks, on this run's rows ({ranks, master, mean worker}), what the paper's
-- Fig 2 shows: {text, holds} per statement, the text naming the measured fractions.
function M.statements(rows)
  local above, grows, seen = true, true, {}
  for i, r in ipairs(rows) do
    above = above and r[2] > r[3]
    if i > 1 then grows = grows and r[3] > rows[i - 1][3] end
    seen[#seen + 1] = string.format("%d ranks: master %.1f%%, worker %.1f%%", r[1], 100 * r[2], 100 * r[3])
  end
  local measured = " (" .. table.concat(seen, "; ") .. ")"
  return {
    {holds = above, text = "the master spends a larger share of its time in MPI than the mean worker" .. measured},
    {holds = grows, text = "the mean worker's share in MPI grows with the ranks, the master becoming the bottleneck" .. measured},
  }
end

if arg and arg[0] and arg[0]:match("limpio_fig2%.lua$") then
  for _, st in ipairs(M.run{dir = arg[1]}.statements) do print((st.holds and "holds: " or "does not hold: ") .. st.text) end
end

return M
