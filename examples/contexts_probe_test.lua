-- Tests of examples/contexts.lua: every context gets exactly its ranks' data.
local contexts = dofile("examples/contexts.lua")

function TestOneProbeOnSeveralContexts(t)
  local r = contexts.run{nodes = 64, per_io = 8, iters = 4, ionode = 2, quiet = true, out = function() end}
  t:ok(#r.sample > 0, "waves arrive")
  t:eq(#r.sample, #r.ionode, "every context sees every call")
  t:eq(#r.sample, #r.pick)
  for k, m in ipairs(r.sample) do
    t:eq(m.count, 6, "10% of 64 ranks, rounded")
    t:eq(#m.values, 2 * 6, "concat: a (calls, rank) pair from each sampled rank")
    t:eq(m.values[1], k, "wave k: every rank has made k calls")
  end
  for k, m in ipairs(r.ionode) do
    t:eq(m.count, 8, "the 8 ranks of I/O node 2")
    t:eq(m.values[1], k)
    t:eq(m.values[2], 23, "the highest rank of I/O node 2")
  end
  for k, m in ipairs(r.pick) do
    t:eq(m.count, 2, "ranks 0 and 7")
    t:eq(#m.values, 1, "they agree: one class")
    t:eq(m.values[1].value, k)
    t:eq(m.values[1].ranks, "0,7")
  end
  for _, h in ipairs(r.handles) do
    local s = h:stats()
    t:eq(s.sent, s.delivered, "sent = delivered")
  end
end
