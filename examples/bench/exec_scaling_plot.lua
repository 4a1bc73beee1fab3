-- Plots examples/bench/exec_scaling.csv (written by exec_scaling.sh): per-rank CPU time
-- and memory of `dpclsh exec hello_mpi.elf` from 1,024 to 65,536 ranks. Flat lines mean
-- the cost per rank does not grow with the machine.
--
--   go run ./cmd/dpclsh examples/bench/exec_scaling_plot.lua [CSV [DIR]]
--   (writes DIR/exec_scaling_cpu.svg and DIR/exec_scaling_rss.svg; DIR defaults to the CSV's)
local M = {}

-- read parses the CSV into columns by header name.
function M.read(path)
  local f = assert(io.open(path))
  local header, cols = nil, {}
  for line in f:lines() do
    local fields = {}
    for v in line:gmatch("[^,]+") do fields[#fields + 1] = v end
    if not header then
      header = fields
      for _, h in ipairs(header) do cols[h] = {} end
    else
      for i, h in ipairs(header) do table.insert(cols[h], tonumber(fields[i])) end
    end
  end
  f:close()
  return cols
end

function M.run(csv, dir)
  local c = M.read(csv)
  local cpu = plot.lines{file = dir .. "/exec_scaling_cpu.svg", title = "exec hello_mpi: CPU time per rank",
    x_label = "ranks", y_label = "µs per rank", log_x = true,
    series = {{name = "user + system", x = c.ranks, y = c.cpu_us_per_rank}}}
  local rss = plot.lines{file = dir .. "/exec_scaling_rss.svg", title = "exec hello_mpi: peak RSS per rank",
    x_label = "ranks", y_label = "bytes per rank", log_x = true,
    series = {{name = "peak RSS / ranks", x = c.ranks, y = c.rss_bytes_per_rank}}}
  return cpu, rss
end

if arg and arg[0] and arg[0]:match("exec_scaling_plot%.lua$") then
  local csv = arg[1] or "examples/bench/exec_scaling.csv"
  local cpu, rss = M.run(csv, arg[2] or csv:match("^(.*)/") or ".")
  print("wrote " .. cpu .. " and " .. rss)
end

return M
