-- spread: min, max and mean of one number per back-end, with the ranks holding the extremes.
-- Result: {min, min_rank, max, max_rank, mean}. Partial results carry {min, min_rank,
-- max, max_rank, sum}; the count of ranks merged is the packet's count.

return {
  name = "spread",

  filter = function(state, packets)
    local lo, lor, hi, hir, sum, n
    for _, p in ipairs(packets) do
      local plo, plor, phi, phir, psum
      if p.rank ~= nil then
        plo, plor, phi, phir, psum = p[1], p.rank, p[1], p.rank, p[1]
      else
        plo, plor, phi, phir, psum = p[1], p[2], p[3], p[4], p[5] * p.count
      end
      if lo == nil or plo < lo or (plo == lo and plor < lor) then lo, lor = plo, plor end
      if hi == nil or phi > hi or (phi == hi and phir < hir) then hi, hir = phi, phir end
      sum = (sum or 0) + psum
      n = (n or 0) + p.count
    end
    return { lo, lor, hi, hir, sum / n }
  end,
}
