-- skew: gathers per-back-end clock skews on their way up (seed 004, section 3).
-- Each back-end sends {clock_reading, sent_time}: its own clock when it answered and the
-- front-end's time carried by the request. Its skew is the difference. Every node merges
-- its children's lists, so the front-end gets one flat array sorted by rank:
--   {n, rank1, skew1, rank2, skew2, ...}

return {
  name = "skew",

  filter = function(state, packets)
    local pairs_ = {}
    for _, p in ipairs(packets) do
      if p.rank ~= nil then
        pairs_[#pairs_ + 1] = { p.rank, p[1] - p[2] }
      else
        for i = 2, 2 * p[1], 2 do pairs_[#pairs_ + 1] = { p[i], p[i + 1] } end
      end
    end
    table.sort(pairs_, function(a, b) return a[1] < b[1] end)
    local out = { #pairs_ }
    for _, rs in ipairs(pairs_) do
      out[#out + 1] = rs[1]
      out[#out + 1] = rs[2]
    end
    return out
  end,
}
