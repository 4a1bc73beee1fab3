-- cg_counter.lua: DynTG's source browser for cg on 64 ranks.
--
--   dpclsh ui examples/ui/cg_counter.lua
--
-- prints a URL with a token; open it in a browser. The counter and timer modules give
-- the page its actions and columns; the script inserts one counter at the update of r in
-- iterate (cg.c:110) before the start, so the column fills as soon as the job runs. On the
-- page: start the job, right-click a marked line to insert or remove actions, pick a
-- context (one I/O node, a sample, a rank spec) to aggregate over. Each action is printed
-- here as the Lua line it runs; app is a global so that those lines also work at the
-- prompt of `dpclsh -i examples/ui/cg_counter.lua`, where app:serve() opens the same page.
dpcl.load_modules{"counter", "timer"}
app = dpcl.launch("examples/apps/bin/cg.elf", {nodes = 64, per_io = 16, args = {"256", "2000"}, quiet = true})
app:act("counter.count", app:points("cg.c:110"))
return app
