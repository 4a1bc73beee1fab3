-- Line points: count how often source lines run, on every rank, by probing the statement
-- starts of "file.c:LINE" (from the program's DWARF line table), as a debugger sets a
-- breakpoint on a line. probes/testdata/lines.c marks each line with how often it runs
-- ("runs N"), so the counts printed here can be checked by eye against the source.
--
--   go run ./cmd/dpclsh examples/probes/line_points.lua [nodes]
local M = {}

M.exe = "probes/testdata/lines-O0.elf"

-- The lines to count, with what lines.c says each runs.
M.lines = {
  {line = 13, runs = 10},   -- square's body
  {line = 20, runs = 177},  -- fib: once per call
  {line = 22, runs = 89},   -- fib: the base case
  {line = 32, runs = 3},    -- classify: case 1
  {line = 47, runs = 4},    -- main: i % 3 == 0
  {line = 55, runs = 9},    -- main: the while body
}

-- run launches the program on opts.nodes ranks, installs one counter per line, runs the
-- job to its end and returns {counts = {[line] = {[rank] = n}}, status =, app =}.
function M.run(opts)
  opts = opts or {}
  local app = dpcl.launch(M.exe, {nodes = opts.nodes or 4, per_io = 8, quiet = true})
  local counters = {}
  for _, l in ipairs(M.lines) do
    local n = app:array("int", 1)
    app:install(app:points("lines.c:" .. l.line), n:set(0, n[0] + 1)):activate()
    counters[l.line] = n
  end
  app:start()
  local status = app:wait()
  local counts = {}
  for line, n in pairs(counters) do
    counts[line] = {}
    for rank = 0, #app - 1 do counts[line][rank] = n:read(rank)[1] end
  end
  return {counts = counts, status = status, app = app}
end

if arg and arg[0] and arg[0]:match("line_points%.lua$") then
  local r = M.run{nodes = tonumber(arg and arg[1]) or 4}
  for _, l in ipairs(M.lines) do
    printf("lines.c:%-3d ran %4d times on rank 0 (the source says %d)\n",
      l.line, r.counts[l.line][0], l.runs)
  end
  local ok, err = pcall(r.app.points, r.app, "lines.c:36")
  print("lines.c:36 -> " .. tostring(err))
  r.app:close()
end

return M
