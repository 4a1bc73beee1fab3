-- Tests of the hwcounters module's register assignment: a bipartite matching over the
-- registers' event sets in priority order, against first-fit and with events that no free
-- register can count; and the module loaded with such a list.
local hw = loadfile("examples/modules/hwcounters/init.lua")("hwcounters", "examples/modules/hwcounters")

function TestMatchingPlacesWhatFirstFitCannot(t)
  -- First-fit would put PAPI_TOT_INS on pmc0, the only register that counts cycles.
  local placed, unplaced = hw.assign{"PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_LD_INS", "PAPI_SR_INS"}
  t:eq(placed, {PAPI_TOT_CYC = "pmc0", PAPI_TOT_INS = "pmc1", PAPI_LD_INS = "pmc2", PAPI_SR_INS = "pmc3"})
  t:eq(unplaced, {})
end

function TestUnplaceableEventsAreReportedInPriorityOrder(t)
  local placed, unplaced = hw.assign{"PAPI_TOT_CYC", "PAPI_FP_OPS", "PAPI_TOT_INS", "PAPI_BR_TKN",
    "PAPI_LD_INS", "PAPI_SR_INS"}
  t:eq(placed, {PAPI_TOT_CYC = "pmc0", PAPI_FP_OPS = "pmc3", PAPI_TOT_INS = "pmc1", PAPI_LD_INS = "pmc2"})
  t:eq(unplaced, {"PAPI_BR_TKN", "PAPI_SR_INS"})
  -- Higher priority wins a contested register: the same events, branches first.
  placed, unplaced = hw.assign{"PAPI_BR_TKN", "PAPI_SR_INS", "PAPI_TOT_CYC", "PAPI_FP_OPS",
    "PAPI_TOT_INS", "PAPI_LD_INS"}
  t:eq(#unplaced, 2)
  t:ok(placed.PAPI_BR_TKN and placed.PAPI_SR_INS and placed.PAPI_TOT_CYC, "the first three placed")
  t:eq(unplaced, {"PAPI_TOT_INS", "PAPI_LD_INS"})
end

function TestAssignmentIsMaximal(t)
  -- Every subset of the events: the matching places as many as an exhaustive search.
  local names = {}
  for e in pairs(hw.pmu.events) do names[#names + 1] = e end
  table.sort(names)
  local function can(reg, ev)
    for _, e in ipairs(reg.events) do if e == ev then return true end end
  end
  local function best(list, i, used)
    if i > #list then return 0 end
    local b = best(list, i + 1, used)
    for ri, reg in ipairs(hw.pmu.registers) do
      if not used[ri] and can(reg, list[i]) then
        used[ri] = true
        b = math.max(b, 1 + best(list, i + 1, used))
        used[ri] = nil
      end
    end
    return b
  end
  for mask = 1, 2 ^ #names - 1 do
    local list, m = {}, mask
    for i = 1, #names do
      if m % 2 == 1 then list[#list + 1] = names[i] end
      m = math.floor(m / 2)
    end
    local placed, unplaced = hw.assign(list)
    local n = 0
    for _ in pairs(placed) do n = n + 1 end
    t:eq(n, best(list, 1, {}), table.concat(list, ","))
    t:eq(n + #unplaced, #list)
  end
end

function TestUnknownEventIsAnError(t)
  local placed, _, err = hw.assign{"PAPI_TOT_INS", "PAPI_L1_DCM"}
  t:eq(placed, nil)
  t:ok(err:find('unknown event "PAPI_L1_DCM"', 1, true) and err:find("PAPI_BR_NTK", 1, true), err)
end

function TestLoadedWithAnUnplaceableList(t)
  local r = dpcl.load_modules{"hwcounters", params = {hwcounters = {events = {"PAPI_BR_NTK", "PAPI_BR_TKN",
    "PAPI_FP_OPS", "PAPI_SR_INS", "PAPI_TOT_CYC"}}}}
  t:eq(r[1].ok, true)
  local app = dpcl.launch("probes/testdata/lines-O2.elf", {nodes = 1, quiet = true})
  local m = app:modules()[1]
  -- Cycles (pmc0 only) lose to the higher-priority events that need pmc0 and pmc3.
  t:eq(m.data.unplaced, {"PAPI_TOT_CYC"})
  t:eq(m.warnings, {"hwcounters: no free register counts PAPI_TOT_CYC"})
  local names = {}
  for _, s in ipairs(m.sources) do names[#names + 1] = s.name end
  t:eq(names, {"hwcounters.PAPI_BR_NTK", "hwcounters.PAPI_BR_TKN", "hwcounters.PAPI_FP_OPS",
    "hwcounters.PAPI_SR_INS"})
  t:error(function() app:act("hwcounters.start_PAPI_TOT_CYC", app:points("main")) end,
    "no action \"hwcounters.start_PAPI_TOT_CYC\"")
  -- Branches taken and not taken over main: both are counted.
  app:act("hwcounters.start", app:points("main", "entry"))
  app:act("hwcounters.stop", app:points("main", "exit"))
  app:start()
  app:wait()
  local d = app:source_data("lines.c")
  local v = d.program_totals
  t:ok(v["hwcounters.PAPI_BR_NTK"] > 0 and v["hwcounters.PAPI_BR_TKN"] > 0, v)
  t:ok(v["hwcounters.PAPI_SR_INS"] > 0, v)
  t:eq(v["hwcounters.PAPI_FP_OPS"], 0, "lines.c has no floating point")
  app:close()
end
