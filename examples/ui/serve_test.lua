-- Tests of app:serve and app:counts (the page itself is tested from Go with a browser:
-- script/ui and script/dpcl/serve_test.go).

local function launch()
  return dpcl.launch("examples/apps/bin/cg.elf", {nodes = 8, per_io = 8, args = {"16", "2"}, quiet = true})
end

function TestServeGivesOneLoopbackURLWithAToken(t)
  local app = launch()
  local url = app:serve()
  t:ok(url:match("^http://127%.0%.0%.1:%d+/%?token=%x+$") ~= nil, url)
  t:eq(app:serve(), url, "a second call returns the same page")
  app:close()
  t:ok(not pcall(app.serve, app), "a closed application has no page")
end

function TestServeNamesABadAddress(t)
  local app = launch()
  local ok, err = pcall(app.serve, app, "127.0.0.1:notaport")
  t:ok(not ok, "a bad address is an error")
  t:ok(tostring(err):find("127.0.0.1:notaport", 1, true) ~= nil, tostring(err))
  app:close()
end

function TestCountsFollowTheJob(t)
  local app = launch()
  local c = app:counts()
  t:eq(c.exited, 0)
  t:eq(c.faulted, 0)
  app:start()
  app:wait()
  c = app:counts()
  t:eq(c.exited, 8)
  t:eq(c.running, 0)
  t:eq(c.codes[0], 0)
  app:close()
end

function TestExampleScriptLeavesAnApplication(t)
  local app = dofile("examples/ui/cg_counter.lua")
  t:eq(#app:acts(), 1)
  t:eq(app:acts()[1].line, 110)
  app:close()
  app = nil
end
