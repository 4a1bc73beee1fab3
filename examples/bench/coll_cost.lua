-- Virtual cost of MPI_Allreduce and MPI_Alltoall against the number of ranks, measured by
-- running bgl/testdata/bin/collcost.elf (MPI_Wtime around a few calls, virtual time) on
-- the simulated machine at each job size. Allreduce rides the collective network, so it
-- grows with the tree's depth (log2 of the ranks); Alltoall is bounded by the torus
-- bisection, so it grows about linearly in the ranks. The cost model is in bgl/mpi_cost.go.
--
--   go run ./cmd/dpclsh examples/bench/coll_cost.lua [BYTES [DIR [full]]]
--   writes DIR/coll_cost.csv (ranks,bytes,allreduce_ns,alltoall_ns) and DIR/coll_cost.svg;
--   ranks 2..512 (full: 2..4096). DIR defaults to the current directory.
local M = {}

M.exe = "bgl/testdata/bin/collcost.elf"

-- measure runs the program on n ranks and returns its Allreduce and Alltoall times (ns).
function M.measure(n, bytes, reps)
  if type(bytes) ~= "number" or bytes < 8 or bytes % 8 ~= 0 then
    error("coll_cost: BYTES must be a positive multiple of 8, got " .. tostring(bytes), 2)
  end
  local r = bgl.run(M.exe, {nodes = n, args = {tostring(bytes), tostring(reps or 4)}})
  if r.status ~= 0 then
    error(string.format("coll_cost: %s on %d ranks: status %d: %s", M.exe, n, r.status, r.errors), 2)
  end
  local size, b, ar, a2a = r.stdout[0]:match("^(%d+),(%d+),(%d+),(%d+)")
  if not size or tonumber(size) ~= n or tonumber(b) ~= bytes then
    error(string.format("coll_cost: unexpected output on %d ranks: %q", n, r.stdout[0]), 2)
  end
  return tonumber(ar), tonumber(a2a)
end

-- run measures every size in sizes, writes the CSV and the SVG into dir and returns the
-- columns and both paths.
function M.run(sizes, bytes, dir)
  local c = {ranks = {}, allreduce_ns = {}, alltoall_ns = {}}
  local lines = {"ranks,bytes,allreduce_ns,alltoall_ns"}
  for i, n in ipairs(sizes) do
    local ar, a2a = M.measure(n, bytes)
    c.ranks[i], c.allreduce_ns[i], c.alltoall_ns[i] = n, ar, a2a
    lines[#lines + 1] = string.format("%d,%d,%d,%d", n, bytes, ar, a2a)
  end
  local csv = dir .. "/coll_cost.csv"
  dpcl.write_file(csv, {table.concat(lines, "\n"), "\n"})
  local svg = plot.lines{file = dir .. "/coll_cost.svg",
    title = string.format("virtual cost of one collective call (%d bytes per rank / pair)", bytes),
    x_label = "ranks", y_label = "virtual ns per call", log_x = true, log_y = true,
    series = {{name = "MPI_Allreduce", x = c.ranks, y = c.allreduce_ns},
      {name = "MPI_Alltoall", x = c.ranks, y = c.alltoall_ns}}}
  return c, csv, svg
end

function M.sizes(full)
  local s, n = {}, 2
  while n <= (full and 4096 or 512) do
    s[#s + 1] = n
    n = n * 2
  end
  return s
end

if arg and arg[0] and arg[0]:match("coll_cost%.lua$") then
  local bytes = tonumber(arg[1] or "64")
  local _, csv, svg = M.run(M.sizes(arg[3] == "full"), bytes, arg[2] or ".")
  print("wrote " .. csv .. " and " .. svg)
end

return M
