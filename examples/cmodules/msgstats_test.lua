-- Tests of examples/cmodules/msgstats.lua: the C module's counters, read from every rank,
-- equal what a probe array counts at the same points; bad objects are refused with the
-- reason and the job goes on.
local msgstats = dofile("examples/cmodules/msgstats.lua")

function TestModuleCountsMatchProbeArray(t)
  local twin
  local r = msgstats.run{nodes = 64, per_io = 16, laps = 3, quiet = true, out = function() end,
    before_start = function(app, mod)
      twin = app:array("int", 2, "twin")   -- sends, elements: counted by the probe language
      local pts = app:points("MPI_Send", "entry")
      for _, p in ipairs(app:points("MPI_Sendrecv", "entry")) do pts[#pts + 1] = p end
      app:install(pts, probe.seq{twin:set(0, twin[0] + 1), twin:set(1, twin[1] + probe.arg(1))}):activate()
    end}
  local mod = r.mod
  t:eq(r.status.exited, 64)
  -- 63 ranks pass the token on with MPI_Send each lap; every rank Sendrecvs each lap.
  t:eq(r.notes, 63 * 3 + 64 * 3, "notes summed over the ranks")
  t:eq(r.sent_notes, r.notes, "mod:global sent from a probe, summed by the tree")
  t:eq(r.elements, 16 * r.notes, "16 ints per send")
  t:eq(r.by_class, {0, 0, 0, 0, r.notes, 0, 0, 0}, "16 elements: size class 4")
  t:eq(r.classes[5], r.notes, "msg_note's return values, through the histogram filter")
  for rank = 0, 63 do
    local tw = twin:read(rank)
    t:eq(mod:read("notes", rank), tw[1], "rank " .. rank .. " notes")
    t:eq(mod:read("elements", rank), tw[2], "rank " .. rank .. " elements")
    local d = (rank + 1) % 64
    local want = rank == 0 and {0, d, d, d, 0, 0, 0, 0} or {d, d, d, d, 0, 0, 0, 0}
    t:eq(mod:read("recent", rank), want, "rank " .. rank .. " recent destinations")
  end
  r.app:close()
end

function TestModuleSurface(t)
  local app = dpcl.launch("examples/apps/bin/ring.elf", {nodes = 4, per_io = 8, args = {"4", "1"}, quiet = true})
  local mod = app:load_module("examples/cmodules/msgstats.o")
  t:eq(mod.name, "msgstats")
  t:ok(tostring(mod):find("^CModule msgstats at 0x0f"), tostring(mod))
  local names = {}
  for _, f in ipairs(mod:functions()) do names[f.name] = f.static end
  t:eq(names, {msg_note = false, size_class = true}, "functions, static ones marked")
  t:ok(tostring(probe.call(mod, "msg_note", 1, 2)):find("msgstats.msg_note(1, 2)", 1, true))
  t:eq(mod:global("depth"):type(), "int")
  t:eq(mod:global("elements"):type(), "int64", "long long from the module's DWARF")
  t:eq(mod:read("depth"), 16, "depth = 4 on each of 4 ranks")
  t:error(function() app:load_module("examples/cmodules/msgstats.o") end, "already loaded")
  t:error(function() probe.call(mod, "nosuch") end, "no function nosuch.*msg_note")
  t:error(function() mod:global("nosuch") end, "no global nosuch.*notes")
  t:error(function() app:load_module("probes/cobj/testdata/counters-fpic.o") end, "R_PPC_GOT16")
  t:error(function() app:load_module("probes/cobj/testdata/undefined.o") end, "no_such_function_anywhere")
  t:error(function() app:load_module("probes/cobj/testdata/toobig.o") end, "%.bss: .* do not fit")
  -- The job is unharmed: it runs to its end with the module loaded.
  app:start()
  t:eq(app:wait().exited, 4)
  app:close()
end
