-- A small in-process run of the micro-benchmark, checking its sums on the topology files.
-- (Over TCP it runs as `dpclsh examples/bench/microbench.lua 100 1000 FILE tcp`; the Go
-- tests of cmd/dpclsh cover TCP trees started from a script.)
local mb = dofile("examples/bench/microbench.lua")

function TestMicrobenchTopologyFiles(t)
  for _, f in ipairs({ "4x4", "8x8", "4x4x4", "8x8x8" }) do
    local r = mb.run(3, 40, "examples/bench/topologies/" .. f .. ".top", "inproc", 8)
    local want = 1
    for fan in f:gmatch("%d+") do want = want * tonumber(fan) end
    t:eq(r.backends, want, f)
    t:ok(r.reductions_per_s > 0 and r.roundtrip_ms > 0, f .. " measured")
  end
end
