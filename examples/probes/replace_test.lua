-- Tests of examples/probes/replace.lua: replacement and skip change exactly the values
-- replace.c computes, and removal restores them, at -O0 and -O2 (where spin's entry is its
-- loop's head).
local replace = dofile("examples/probes/replace.lua")

-- expected computes what replace.c prints: work(n) = 0+1+...+(n-1) (plus work_plus for a
-- replacement), spin(i) by its loop (or spin_fast's i + 7).
local function expected(work_plus, spin_fast)
  local lines = {}
  for i = 1, 3 do
    local n, x = 10 * i, i
    if spin_fast then
      x = i + 7
    else
      repeat x = (x * 5 + 1) % 2^32 until x % 256 == 0x3f
    end
    lines[i] = {n, n * (n - 1) / 2 + work_plus, x}
  end
  return lines
end

function TestReplaceSkipAndRemove(t)
  for _, level in ipairs{"O0", "O2"} do
    local r = replace.run{level = level, quiet = true}
    t:eq(r.lines, expected(0, false), level .. " original")
    t:eq(r.last, {15, 1.5}, level .. " original wide, half")
    r = replace.run{level = level, quiet = true, replace = true}
    t:eq(r.lines, expected(1000000, true), level .. " replaced by work_fast, spin_fast")
    r = replace.run{level = level, quiet = true, replace = true, remove = true}
    t:eq(r.lines, expected(0, false), level .. " replaced, then removed")
    r = replace.run{level = level, quiet = true, module = true}
    t:eq(r.lines, expected(2000000, false), level .. " replaced by the C module's work_closed_form")
    t:eq(r.module_calls, 3, level .. " the module counted its calls")
    r = replace.run{level = level, quiet = true, skip = true}
    t:eq(r.lines, expected(0, false), level .. " skip at spin's entry never fires inside its loop")
    t:eq(r.last, {99, 0.25}, level .. " skipped wide, half")
  end
end

function TestReplaceErrors(t)
  local app = dpcl.launch("probes/testdata/replace-O2.elf", {nodes = 1, quiet = true})
  local ok, err = pcall(app.replace, app, "work", "work_fsat")
  t:ok(not ok and err:find('no function matches function "work_fsat" (did you mean work_fast', 1, true), tostring(err))
  ok, err = pcall(app.replace, app, "work", "work")
  t:ok(not ok and err:find("a function cannot replace itself", 1, true), tostring(err))
  ok, err = pcall(app.install, app, app:points("work", "exit"), probe.skip(1))
  t:ok(not ok and err:find("at its entry only", 1, true), tostring(err))
  app:close()
end
