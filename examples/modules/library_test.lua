-- Tests of the module library: scanning, exclusion with reasons, loading what is healthy,
-- refusing a module loaded twice, and action names that do not exist.
local LIB = "examples/modules/testdata/lib"
local EXE = "probes/testdata/lines-O0.elf"

local function match(t, s, pattern)
  t:ok(type(s) == "string" and s:find(pattern) ~= nil, string.format("%q should match %q", tostring(s), pattern))
end

local function by_name(list)
  local out = {}
  for _, e in ipairs(list) do out[e.name] = e end
  return out
end

function TestScanRunsQueryAndSaysWhyModulesAreExcluded(t)
  local m = by_name(dpcl.modules(LIB))
  t:eq(m.good.ok, true)
  t:eq(m.good.description, "a good module")
  t:eq(m.good_dir.ok, true)
  t:eq(m.good_dir.description, "a directory module (good_dir)")
  t:eq(m.bad_init.ok, true, "query is fine; init fails only when loaded")
  t:eq(m.bad_query.ok, false)
  match(t, m.bad_query.reason, "query failed: .*cannot find libpfm")
  t:eq(m.needs_pmapi.ok, false)
  match(t, m.needs_pmapi.reason, 'hardware counter "pm_fpu_fdiv"')
  t:eq(m.not_a_module.ok, false)
  match(t, m.not_a_module.reason, "query and init")
  t:eq(#dpcl.modules(LIB), 6)
  local shipped = by_name(dpcl.modules("examples/modules"))
  t:eq(shipped.counter.ok and shipped.timer.ok and shipped.hwcounters.ok, true)
  t:eq(shipped.testdata, nil, "a directory without init.lua is not a module")
  t:error(function() dpcl.modules("examples/modules/nosuch") end, "cannot read the module library")
end

function TestFailingModulesAreRefusedAndTheOthersLoad(t)
  local early = dpcl.launch(EXE, {nodes = 2, quiet = true})
  local report = by_name(dpcl.load_modules{"bad_query", "good", "needs_pmapi", "bad_init", "nosuch", dir = LIB})
  t:eq(report.good.ok, true)
  t:eq(report.bad_query.ok, false)
  match(t, report.bad_query.reason, "cannot find libpfm")
  t:eq(report.needs_pmapi.ok, false)
  t:eq(report.bad_init.ok, false)
  match(t, report.bad_init.reason, "init failed: .*no room for the trace buffer")
  match(t, report.nosuch.reason, 'no module "nosuch" in .*modules there: bad_init, bad_query, good')
  -- init ran at once for the application launched before, and runs at launch for a new one.
  for _, app in ipairs{early, dpcl.launch(EXE, {nodes = 2, quiet = true})} do
    local mods = app:modules()
    t:eq(#mods, 1)
    t:eq(mods[1].name, "good")
    t:eq(mods[1].actions[1].name, "good.hit")
    t:eq(mods[1].sources[1].name, "good.hits")
    t:eq(mods[1].sources[1].agg, "max")
    app:close()
  end
end

function TestAModuleLoadedTwiceIsRefused(t)
  local r = dpcl.load_modules{"good", dir = LIB}
  t:eq(r[1].ok, false)
  match(t, r[1].reason, "module good is already loaded")
end

function TestUnknownActionListsTheActions(t)
  local app = dpcl.launch(EXE, {nodes = 1, quiet = true})
  t:error(function() app:act("good.count", app:points("fib")) end, 'no action "good.count" %(actions: good.hit%)')
  t:error(function() app:act("good.hit", {}) end, "points must be a non%-empty table")
  local a = app:act("good.hit", "lines.c:20")
  t:eq(a.name, "good.hit")
  t:eq(a.file, "lines.c")
  t:eq(a.line, 20)
  t:eq(#app:acts(), 1)
  a:remove()
  t:eq(#app:acts(), 0)
  app:close()
end
