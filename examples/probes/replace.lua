-- replace: function replacement and probe.skip on a plain program (probes/testdata/replace.c,
-- built at -O0 and -O2). app:replace makes every call of work run work_fast and every call
-- of spin (whose first instruction heads its loop at -O2) run spin_fast; probe.skip returns
-- from wide and half at once with values of their types. A probe on printf's entry sends
-- what the program prints, so the effect is seen from the tool; h:remove() restores.
--   Run: go run ./cmd/dpclsh examples/probes/replace.lua [O0|O2]
local M = {}

-- run launches the program with the changes opts asks for ({replace=, module=, skip=,
-- remove=}; module replaces work by examples/cmodules/fastwork.o's work_closed_form) and
-- returns the values it printed: {{n, work(n), spin(i)}, ...} and {wide, half}.
function M.run(opts)
  opts = opts or {}
  local app = dpcl.launch("probes/testdata/replace-" .. (opts.level or "O2") .. ".elf",
    {nodes = 1, quiet = opts.quiet})
  local lines, last = {}, nil
  app:install(app:points("printf", "entry"),
    probe.send(probe.arg(1), probe.arg(2), probe.arg(4), probe.arg(2, "int64"), probe.arg(0, "double")),
    {callback = function(m)
      local v = m.values
      if #lines < 3 then lines[#lines + 1] = {v[1], v[2], v[3] % 2^32} else last = {v[4], v[5]} end
    end}):activate()
  local handles = {}
  if opts.replace then
    handles[#handles + 1] = app:replace("work", "work_fast")
    handles[#handles + 1] = app:replace("spin", "spin_fast")
  end
  local mod
  if opts.module then
    mod = app:load_module("examples/cmodules/fastwork.o")
    handles[#handles + 1] = app:replace("work", mod, "work_closed_form")
  end
  if opts.skip then
    for fn, e in pairs{wide = probe.skip(probe.int64(99)), half = probe.skip(0.25),
      spin = probe.when(probe.arg(0):eq(6), probe.skip(12345))} do
      app:install(app:points(fn, "entry"), e):activate()
    end
  end
  if opts.remove then
    for _, h in ipairs(handles) do h:remove() end
  end
  app:start()
  local status = app:wait()
  local calls = mod and mod:read("calls", 0)
  app:close()
  return {lines = lines, last = last, status = status, module_calls = calls}
end

if arg and arg[0] and arg[0]:match("replace%.lua$") then
  local level = arg[1] or "O2"
  for _, opts in ipairs{{}, {replace = true}, {replace = true, remove = true}, {module = true}, {skip = true}} do
    opts.level, opts.quiet = level, true
    local r = M.run(opts)
    local what = opts.skip and "skip" or opts.module and "C module" or opts.remove and "replaced, removed" or opts.replace and "replaced" or "original"
    print(string.format("%-18s work(10..30) = %d %d %d  spin(1..3) = %d %d %d  wide %d half %g", what,
      r.lines[1][2], r.lines[2][2], r.lines[3][2], r.lines[1][3], r.lines[2][3], r.lines[3][3], r.last[1], r.last[2]))
  end
end

return M
