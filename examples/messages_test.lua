-- Tests of examples/messages.lua on a smaller job.
local messages = dofile("examples/messages.lua")

function TestMessagesQueueSamplesAndAddresses(t)
  local lines = {}
  local r = messages.run{nodes = 16, laps = 10, out = function(line) lines[#lines + 1] = line end}
  t:ok(r.waves > 0, "waves queued on the handle without a callback")
  t:ok(#r.samples > 0, "the sampling loop took samples and ended with the job")
  for i, s in ipairs(r.samples) do
    t:eq(s.state, "done", "sample " .. i)
    if i > 1 then t:ok(r.maxima[i] >= r.maxima[i - 1], "counts only grow") end
  end
  t:ok(tostring(r.addr):match("^0x%x+$"), tostring(r.addr))
  t:eq((r.addr + r.size) - r.addr, r.size)
  t:ok(lines[1]:find("MPI_Send is at 0x", 1, true), lines[1])
  t:ok(lines[#lines]:find("700000000 Hz", 1, true), lines[#lines])
end
