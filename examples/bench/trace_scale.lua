-- trace_scale: what `@[func] = count()` on MPI_*:entry costs the front-end as the job
-- grows: the ranks' packets are merged by key in the tree ("mapmerge"), so the front-end
-- receives one message per stream of the map, whatever the number of ranks.
--   Run: go run ./cmd/dpclsh examples/bench/trace_scale.lua [NODES...]   (default 64 512 4096)
local sizes = {}
for i = 1, #(arg or {}) do sizes[#sizes + 1] = tonumber(arg[i]) end
if #sizes == 0 then sizes = {64, 512, 4096} end
for _, n in ipairs(sizes) do
  local app = dpcl.launch("examples/apps/bin/ring.elf", {nodes = n, per_io = 64, args = {"4", "1"}, quiet = true})
  local r = dpcl.trace(app, "MPI_*:entry { @[func] = count() }", {out = function() end})
  local c = r.collections[""]
  printf("%6d ranks: %d packets from the ranks, %d merged message(s) at the front-end on %d stream(s); MPI_Init counted %d\n",
    n, c.sent, c.messages, c.streams, r.maps[""].MPI_Init)
  app:close()
end
