-- Seed 000, section 5.1: communication latency and round trip of one compute node. The
-- start command goes from the front-end down to the compute node's I/O-node daemon (the
-- activation of a probe, app:last_command().down_ns) and the probe's first message comes
-- back up (its virtual arrival at the front-end minus the virtual time it was sent).
--
-- Reproduces: with costs = "ubgl" the round trip is 107.4 ms and the latency one way
-- about 53.7 ms, as measured on ubgl (8 compute nodes per I/O node). This is a
-- calibration, not a prediction: the "ubgl" set is fitted to exactly this number (see
-- runtime/costs.go). With the default set, plausible for the hardware, the round trip is
-- well under a millisecond; the paper's figure is dominated by its software stack.
--
-- Run: go run ./cmd/dpclsh examples/experiments/sec51_latency.lua [dir]   (writes
-- sec51_latency.csv and sec51_latency.svg)
local C = dofile("examples/experiments/common.lua")
local M = {}

function M.run(opts)
  opts = opts or {}
  local rows, labels, down, up = {}, {}, {}, {}
  for i, set in ipairs{"default", "ubgl"} do
    local r = C.receive{nodes = 1, msgs = 1, per_io = 8, topology = "b:16", costs = set}
    local rt = r.activate.down_ns + r.latency_ns
    rows[i] = {set, r.activate.down_ns / 1e6, r.latency_ns / 1e6, rt / 1e6, r.activate.round_trip_ns / 1e6}
    labels[i], down[i], up[i] = set, r.activate.down_ns / 1e6, r.latency_ns / 1e6
  end
  local dir = C.dir(opts)
  local out = {rows = rows}
  out.csv = C.csv(dir .. "/sec51_latency.csv",
    {"costs", "command_down_ms", "message_latency_ms", "round_trip_ms", "command_round_trip_ms"}, rows)
  out.svg = plot.bars{file = dir .. "/sec51_latency.svg", title = "One compute node: start command down, first message up",
    y_label = "virtual ms", labels = labels,
    series = {{name = "command down", values = down}, {name = "message up", values = up}}}
  return out
end

if arg and arg[0] and arg[0]:match("sec51_latency%.lua$") then
  local r = M.run{dir = arg[1]}
  print("costs,command_down_ms,message_latency_ms,round_trip_ms,command_round_trip_ms")
  for _, row in ipairs(r.rows) do print(string.format("%s,%.4f,%.4f,%.4f,%.4f", unpack(row))) end
  print("wrote " .. r.csv .. ", " .. r.svg)
end

return M
