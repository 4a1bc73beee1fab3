-- A filter with a runtime error once it sees a value of 13.
return {
  name = "unlucky",
  filter = function(state, packets)
    for _, p in ipairs(packets) do
      if p[1] == 13 then local t = nil; return t.boom end
    end
    return { #packets }
  end,
}
