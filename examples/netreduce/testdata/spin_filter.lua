-- A filter that never returns: its node's per-call instruction budget must stop it.
return {
  name = "spin",
  filter = function(state, packets)
    local n = 0
    while true do
      n = n + 1
    end
  end,
}
