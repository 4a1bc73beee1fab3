-- Tests of examples/probes/sample.lua: the profile of hotspots.c puts hot, warm and cool
-- first with 70, 20 and 10 % of the samples (± 2), on every rank; the lines are those of
-- the three loops; the pprof file is written; and sampling costs virtual time.
local sample = dofile("examples/probes/sample.lua")

function TestHotSpotsShares(t)
  local d = os.tmpname()
  local r = sample.run{hz = 100000, nodes = 2, pprof = d}
  t:eq(r.status.exited, 2)
  local want = {{"hot", 70}, {"warm", 20}, {"cool", 10}}
  for i, w in ipairs(want) do
    local row = r.top[i] or {}
    t:eq(row.func, w[1], "function " .. i)
    t:ok(row.percent and math.abs(row.percent - w[2]) <= 2,
      string.format("%s has %s %% of the samples, want %d ± 2", w[1], tostring(row.percent), w[2]))
  end
  t:ok(#r.lines > 0 and r.lines[1].line:match("^hotspots%.c:%d+$"), "lines of hotspots.c")
  local f = io.open(d, "rb")
  local head = f and f:read(2)
  if f then f:close() end
  os.remove(d)
  t:eq(head, "\31\139", "the pprof file is gzipped")
end

function TestSamplingCostsVirtualTime(t)
  local plain = sample.run{nodes = 1}
  local sampled = sample.run{hz = 100000, nodes = 1}
  t:ok(sampled.exits[0] > plain.exits[0], "a sampled run pays for its samples")
end
