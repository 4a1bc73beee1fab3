-- fail_at: sums one number per back-end, like "sum", but raises an error at the wave
-- given by params.wave (counted per tree node). Used to show that a failing filter fails
-- its own probe only: the job and every other probe go on.

return {
  name = "fail_at",

  init = function(params)
    return { wave = 0, fail = params.wave or 1 }
  end,

  filter = function(state, packets)
    state.wave = state.wave + 1
    if state.wave >= state.fail then
      error("refusing wave " .. state.wave)
    end
    local sum = 0
    for _, p in ipairs(packets) do sum = sum + p[1] end
    return { sum }
  end,
}
