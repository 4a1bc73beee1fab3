-- topk: the K largest values of a stream and the ranks that sent them.
-- Each back-end sends one number; the result is a flat array
--   {value1, rank1, value2, rank2, ...}, largest value first (ties: lower rank first).
-- params: {k = 5} (default 3).
-- Internal nodes keep only their subtree's top K, so what travels up stays small.

local function better(a, b)
  if a.v ~= b.v then return a.v > b.v end
  return a.r < b.r
end

return {
  name = "topk",

  init = function(params)
    return { k = params.k or 3 }
  end,

  filter = function(state, packets)
    local items = {}
    for _, p in ipairs(packets) do
      if p.rank ~= nil then
        items[#items + 1] = { v = p[1], r = p.rank }
      else
        for i = 1, #p, 2 do items[#items + 1] = { v = p[i], r = p[i + 1] } end
      end
    end
    table.sort(items, better)
    local out = {}
    for i = 1, math.min(state.k, #items) do
      out[#out + 1] = items[i].v
      out[#out + 1] = items[i].r
    end
    return out
  end,
}
