-- Asks for about 60 GiB between two instruction checks: string.rep's 60 MiB and the
-- concatenation's copy, a thousand times, all kept in t.
return {
  name = "hog",
  filter = function(state, packets)
    local t = {}
    for i = 1, 1000 do t[i] = string.rep("x", 60 * 2^20) .. i end
    return {#t}
  end,
}
