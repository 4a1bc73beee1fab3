-- MRNet's micro-benchmark experiment (seed 004, section 4.1): instantiation, round-trip
-- latency of one broadcast followed by one sum reduction, and pipelined reduction
-- throughput.
--   dpclsh examples/bench/microbench.lua ROUNDTRIPS REDUCTIONS TOPOLOGY [tcp|tcp-procs|inproc] [WINDOW]
-- TOPOLOGY is an MRNet topology file (examples/bench/topologies/4x4.top ...) or a
-- generator spec ("b:4^2", "flat:64"). Over tcp every internal node is its own `dpclsh
-- comm` process and the back-ends run in this process; with tcp-procs every back-end is
-- a process too (`dpclsh comm --backend`, the burst behaviour: a request {1} is answered
-- with {1}), as in MRNet's microbench, so instantiation counts each back-end's creation,
-- connection and handshake. Reductions are pipelined with WINDOW
-- (default 64) broadcasts outstanding: every reduction is a broadcast request and one
-- wave of one packet per back-end, summed on the way up. Times are wall-clock.

local function usage()
  io.stderr:write("usage: dpclsh examples/bench/microbench.lua ROUNDTRIPS REDUCTIONS TOPOLOGY [tcp|tcp-procs|inproc] [WINDOW]\n")
  os.exit(2)
end

local M = {}

function M.run(roundtrips, reductions, topology, transport, window)
  local t0 = os.clock()
  local net
  if transport == "tcp-procs" then
    net = netreduce.new{topology = topology, transport = "tcp", backend_processes = "burst"}
  else
    net = netreduce.new{topology = topology, transport = transport}
  end
  local inst = os.clock() - t0
  net:on_backend(function(rank, x) return x end)
  local s = net:stream(net:broadcast(), {up = "sum"})
  local nb = net:backends()
  s:send("%d", 1)
  assert(s:recv() == nb, "warm-up reduction")

  t0 = os.clock()
  for i = 1, roundtrips do
    s:send("%d", 1)
    local v = s:recv()
    if v ~= nb then error(string.format("round trip %d: sum %s, want %d", i, tostring(v), nb)) end
  end
  local rt = (os.clock() - t0) / math.max(roundtrips, 1)

  t0 = os.clock()
  local sent, got = 0, 0
  while got < reductions do
    while sent < reductions and sent - got < window do
      s:send("%d", 1)
      sent = sent + 1
    end
    local v = s:recv()
    if v ~= nb then error(string.format("reduction %d: sum %s, want %d", got + 1, tostring(v), nb)) end
    got = got + 1
  end
  local secs = os.clock() - t0
  net:close()
  return {backends = nb, instantiation_ms = inst * 1e3, roundtrip_ms = rt * 1e3,
          reductions_per_s = reductions / secs, packets_per_s = reductions * nb / secs}
end

if arg and arg[0] and arg[0]:match("microbench%.lua$") then
  local roundtrips, reductions, topology = tonumber(arg[1]), tonumber(arg[2]), arg[3]
  if not (roundtrips and reductions and topology) then usage() end
  local transport = arg[4] or "tcp"
  local r = M.run(roundtrips, reductions, topology, transport, tonumber(arg[5] or "64"))
  print(string.format("%-34s %-6s back-ends %6d  instantiation %8.2f ms  round trip %8.3f ms  %10.0f reductions/s  %12.0f packets/s",
    topology, transport, r.backends, r.instantiation_ms, r.roundtrip_ms, r.reductions_per_s, r.packets_per_s))
end

return M
