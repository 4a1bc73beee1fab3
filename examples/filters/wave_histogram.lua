-- A histogram of small integer values per wave, with a wave counter kept in a global.
-- Each tree node has its own globals: `waves` counts the calls of this node only,
-- whichever Lua state of the pool runs the call, so a run gives the same output every
-- time. Packets straight from back-ends (p.rank set) carry one value; packets from a node
-- below carry its histogram followed by its wave count.
return {
  name = "wave_histogram",
  init = function(params)
    waves = 0
    return { bins = params.bins or 4 }
  end,
  filter = function(state, packets)
    waves = waves + 1
    local out = {}
    for v = 1, state.bins do out[v] = 0 end
    for _, p in ipairs(packets) do
      if p.rank then
        local bin = p[1] + 1
        if out[bin] then out[bin] = out[bin] + 1 end
      else
        for v = 1, state.bins do out[v] = out[v] + p[v] end
      end
    end
    out[#out + 1] = waves
    return out
  end,
}
