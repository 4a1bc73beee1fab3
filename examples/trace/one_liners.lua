-- one_liners: the README's page of `dpclsh trace` examples, run from Lua with dpcl.trace.
-- Each prints its maps as bpftrace does and returns them (result.maps[name][key]).
--   Run: go run ./cmd/dpclsh examples/trace/one_liners.lua [NODES]
local M = {}

M.programs = {
  -- MPI call counts per function, merged over every rank in the tree
  calls = {exe = "examples/apps/bin/ring.elf", program = "MPI_*:entry { @[func] = count() }"},
  -- bytes sent per rank as a power-of-two histogram (ring sends ints: count * 4 bytes)
  bytes = {exe = "examples/apps/bin/ring.elf", program = "MPI_Send:entry { @bytes[rank] = hist(arg1 * 4) }"},
  -- time in MPI_Wait per rank, in virtual ns: count, average and total
  wait = {exe = "examples/apps/bin/ring.elf", program = [[
MPI_Wait:entry { @start = nsecs }
MPI_Wait:exit { @wait_ns[rank] = stats(nsecs - @start) }]]},
  -- time in MPI_Wait by callsite stack (8 frames; ustack(N) walks N), merged by stack in
  -- the tree and printed frame by frame
  wait_stack = {exe = "examples/apps/bin/ring.elf", program = [[
MPI_Wait:entry { @start = nsecs }
MPI_Wait:exit { @wait_ns[ustack] = stats(nsecs - @start) }]]},
  -- MPI calls per function in each 100 µs of virtual time, merged in the tree every
  -- interval; clear() starts the next interval at zero, and what is left prints at exit
  intervals = {exe = "examples/apps/bin/ring.elf", program = [[
MPI_*:entry { @[func] = count() }
interval:us:100 { printf("--\n"); print(@); clear(@) }]]},
  -- a 99 Hz profile by function: the machine's timer interrupt on every rank, counted by
  -- the function each sample stopped in (CG's time goes to matvec and dot)
  profile = {exe = "examples/apps/bin/cg.elf", args = {"64", "2000"},
    program = "profile:hz:99 { @[func] = count() }"},
  -- a counter per source line (probes/testdata/lines.c marks how often each line runs)
  lines = {exe = "probes/testdata/lines-O0.elf",
    program = "lines.c:13, lines.c:20, lines.c:22, lines.c:32, lines.c:47, lines.c:55 { @[probe] = count() }"},
}

M.order = {"calls", "bytes", "wait", "wait_stack", "intervals", "profile", "lines"}

-- run launches example name's program on opts.nodes ranks and traces it to its end;
-- opts.exe, opts.args and opts.program replace the example's own. opts.with(app), when
-- given, runs after the trace is installed and before the job starts (other probes on the
-- same run).
function M.run(name, opts)
  opts = opts or {}
  local ex = M.programs[name]
  local app = dpcl.launch(opts.exe or ex.exe, {nodes = opts.nodes or 7, per_io = 8, quiet = true,
    args = opts.args or ex.args})
  local ok, r = pcall(function()
    local t = dpcl.trace(app, opts.program or ex.program, {out = opts.out, run = opts.with == nil})
    if not opts.with then return t end
    opts.with(app)
    app:start()
    t.status = app:wait()
    return t.finish()
  end)
  app:close()
  if not ok then error(r, 0) end
  return r
end

if arg and arg[0] and arg[0]:match("one_liners%.lua$") then
  for _, name in ipairs(M.order) do
    print("-- " .. M.programs[name].program:gsub("\n", " "))
    M.run(name, {nodes = tonumber(arg[1]) or 7})
  end
end

return M
