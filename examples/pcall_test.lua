-- Errors caught by pcall, xpcall or t:error leave the caller's locals intact: a closure
-- that counts in a captured local keeps counting after a caught error.

function TestCounterAfterPcall(t)
  local bad = 0
  local function check(ok) if not ok then bad = bad + 1 end end
  check(pcall(error, "first"))
  check(pcall(error, "second"))
  check(xpcall(function() error("third") end, function(e) return e end))
  t:eq(bad, 3)
end

function TestCounterAfterTError(t)
  local n = 0
  local function raise() n = n + 1; error("expected") end
  t:error(raise, "expected")
  t:error(raise, "expected")
  t:eq(n, 2)
end

function TestYieldThroughPcall(t)
  local gen = coroutine.wrap(function()
    for i = 1, 3 do
      local ok, err = pcall(function() coroutine.yield(i) end)
      if not ok then error(err) end
    end
  end)
  t:eq({gen(), gen(), gen()}, {1, 2, 3})
end

function TestCounterInProbeCallbackAfterPcall(t)
  local app = dpcl.launch("examples/apps/bin/jacobi.elf", {nodes = 16, per_io = 8, args = {"16", "4"}, quiet = true})
  local n = 0
  local h = app:install(app:points("MPI_Allreduce", "entry"), probe.send(1), {
    callback = function(m)
      n = n + 1
      pcall(error, "caught inside the callback")
    end,
  })
  h:activate()
  app:start()
  app:wait()
  local delivered = h:stats().delivered
  t:ok(delivered > 16, "every rank calls MPI_Allreduce more than once: " .. delivered)
  t:eq(n, delivered, "the script's local counts every callback")
  app:close()
end
