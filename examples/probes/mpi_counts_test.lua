-- Tests of examples/probes/mpi_counts.lua: one snippet on every MPI_* entry, indexing an
-- array by probe.func() (and another by probe.point()), counts exactly what one probe per
-- function counts, on every rank.
local mpi_counts = dofile("examples/probes/mpi_counts.lua")

function TestOneSnippetMatchesOneProbePerFunction(t)
  local single = {}   -- function name -> its own one-element array
  local r = mpi_counts.run{nodes = 16, per_io = 8, quiet = true, out = function() end,
    before_start = function(app)
      for _, fn in ipairs(app:functions("MPI_*")) do
        local pts = app:points(fn.name, "entry")
        if #pts > 0 then
          local one = app:array("int", 1, "one_" .. fn.name)
          app:install(pts, one:set(0, one[0] + 1), {warn = false}):activate()
          single[fn.name] = one
        end
      end
    end}
  t:eq(r.status.exited, 16)
  t:eq(r.overflows, 0)
  local id = {}
  for i, fn in ipairs(r.fns) do id[fn.name] = i end
  local checked, nonzero = 0, 0
  for rank = 0, 15 do
    local compact = r.compact:read(rank)
    for i, pt in ipairs(r.pts) do
      local want = single[pt.func]:read(rank)[1]
      t:eq(r.per_rank[rank][id[pt.func]], want, "rank " .. rank .. " " .. pt.func .. " by func()")
      t:eq(compact[i], want, "rank " .. rank .. " " .. pt.func .. " by point()")
      checked = checked + 1
      if want > 0 then nonzero = nonzero + 1 end
    end
  end
  t:ok(nonzero >= 16 * 8, "most MPI functions were called on every rank (" .. nonzero .. ")")
  t:eq(r.totals.MPI_Sendrecv, 160)
  t:eq(r.totals.MPI_Init, 16)
  r.app:close()
end
