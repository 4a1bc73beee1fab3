-- node_limits: what a compute node refuses, seen from the tool. A rank that mallocs until
-- NULL gets its node's memory (memory_mb, default BG/L's 512 MiB) and a "memory" event;
-- fork and execve get ENOSYS and an "unsupported" event (CNK runs one process per node).
--   Run: go run ./cmd/dpclsh examples/node_limits.lua
local M = {}

local hostile = "bgl/testdata/bin/hostile.elf"

-- run launches hostile.elf in mode ("memory" or "fork") and returns the events by kind.
function M.run(mode, opts)
  opts = opts or {}
  local out = opts.out or print
  local app = dpcl.launch(hostile, {nodes = opts.nodes or 2, per_io = 8, args = {mode},
    memory_mb = opts.memory_mb, quiet = opts.quiet})
  local seen = {memory = {}, unsupported = {}}
  for kind, list in pairs(seen) do
    app:on(kind, function(ev)
      list[#list + 1] = ev
      out(ev.message)
    end)
  end
  app:start()
  seen.status = app:wait()
  app:close()
  return seen
end

if arg and arg[0] and arg[0]:match("node_limits%.lua$") then
  M.run("memory", {memory_mb = 64})
  M.run("fork")
end
return M
