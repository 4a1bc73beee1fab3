-- A pattern that backtracks through 30^30 ways before it fails, inside one call of
-- string.find.
return {
  name = "backtrack",
  filter = function(state, packets)
    return {string.find(string.rep("a", 30), string.rep("a*", 30) .. "c") or 0}
  end,
}
