-- Table 2 of the DynTG paper at reduced size: 4 ranks, small grids.
local T = dofile("examples/experiments/dyntg_table2.lua")

local function dir()
  local d = os.tmpname()
  os.remove(d)
  os.execute("mkdir -p " .. d)
  return d
end

function TestTable2OverheadsAtReducedSize(t)
  T.apps[1].args, T.apps[2].args = {"32", "10"}, {"32", "10"}
  local r = T.run{nodes = 4, dir = dir()}
  t:eq(#r.rows, 2)
  for _, row in ipairs(r.rows) do
    t:ok(row.baseline_s > 0, row.app .. " baseline")
    -- Every module adds work at the location, and hwcounters (four counter reads per action,
    -- each a hypercall) more than the timer (one timebase read), which costs more than a count.
    t:ok(row.counter_pct > 0 and row.counter_pct < row.timer_pct and row.timer_pct < row.hwcounters_pct,
      row.app .. string.format(": %.3f%% < %.3f%% < %.3f%%", row.counter_pct, row.timer_pct, row.hwcounters_pct))
    t:ok(row.executions > 0 and row.per_second > 1000, row.app .. ": thousands of executions per virtual second")
  end
  -- cg calls dot twice per iteration and three times outside the loop, on every rank.
  t:eq(r.rows[1].executions, 2 * 10 + 3)
  local f = assert(io.open(r.csv))
  local csv = f:read("*a")
  f:close()
  t:ok(csv:find("^app,location,ranks,executions,per_second,baseline_s"), csv)
  t:ok(r.lines[3]:find("^cg +dot"), r.lines[3])
  -- The header's statements are computed from the run, and the run bears them out.
  t:eq(#r.statements, 2)
  for i, st in ipairs(r.statements) do
    t:ok(st.holds, st.text)
    t:eq(r.lines[4 + i], "holds: " .. st.text)
  end
end
