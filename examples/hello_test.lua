-- Tests of the things hello.lua shows; run with `dpclsh test examples/hello_test.lua`.

function TestGreeting(t)
  t:eq(string.format("hello, %s", "world"), "hello, world")
end

function TestArgHoldsTheScriptName(t)
  t:eq(arg[0], "examples/hello_test.lua", "arg[0] is the file being run")
  t:eq(#arg, 0)
end

function TestHelloHistogramShape(t)
  local out = format_hist({ 3, 5, 5, 8, 13, 21, 34, 34, 55, 89, 144, 233, 1024 })
  local lines = {}
  for line in out:gmatch("[^\n]+") do lines[#lines + 1] = line end
  t:eq(#lines, 10, "buckets [2, 4) to [1K, 2K)")
  t:ok(lines[1]:find("^%[2, 4%)%s+1 |"), lines[1])
  t:ok(lines[10]:find("^%[1K, 2K%)%s+1 |"), lines[10])
end

function TestTopOfLatencies(t)
  local latency = { 3, 5, 89, 34, 1024 }
  t:eq(top(latency, 2), { { key = 5, value = 1024 }, { key = 3, value = 89 } })
end

function TestErrorsCarryTheirLine(t)
  t:error(function() error("no such rank 70000") end, "hello_test.lua:%d+: no such rank")
end
