-- Tests of the probe module: probe expressions, their types, C-like text and the code they
-- compile to (DESIGN.md section 9). Run with: dpclsh test examples/probe_test.lua
-- Variables (app:var) need an application and are tested with the runtime.

function TestConstantsAndNumbers(t)
  t:eq(tostring(probe.int(5)), "5")
  t:eq(tostring(probe.int64(5)), "5LL")
  t:eq(tostring(probe.double(0.5)), "0.5")
  t:eq(tostring(probe.double(2)), "2.0")
  t:eq(probe.int(5):type(), "int")
  t:eq(probe.int64(5):type(), "int64")
  t:eq(probe.double(5):type(), "double")
  -- a Lua number is int when integral and within 32 bits, else double
  t:eq((probe.int(1) + 2):type(), "int")
  t:eq((probe.int(1) + 2.5):type(), "double")
  t:eq((probe.int(1) + 2^40):type(), "double")
  t:error(function() return probe.int(2^40) end, "not a 32%-bit integer")
  t:error(function() return probe.int(1.5) end, "not a 32%-bit integer")
end

function TestArithmeticMetamethods(t)
  local a = probe.arg(0)
  t:eq(tostring(a + 1), "(arg(0) + 1)")
  t:eq(tostring(1 + a), "(1 + arg(0))")
  t:eq(tostring(a - 1), "(arg(0) - 1)")
  t:eq(tostring(a * 2), "(arg(0) * 2)")
  t:eq(tostring(a / 2), "(arg(0) / 2)")
  t:eq(tostring(a % 3), "(arg(0) % 3)")
  t:eq(tostring(-a), "-arg(0)")
  t:eq(tostring((a + 1) * (a - 1)), "((arg(0) + 1) * (arg(0) - 1))")
end

function TestMethods(t)
  local a = probe.arg(1)
  t:eq(tostring(a:band(7)), "(arg(1) & 7)")
  t:eq(tostring(a:bor(1)), "(arg(1) | 1)")
  t:eq(tostring(a:bxor(3)), "(arg(1) ^ 3)")
  t:eq(tostring(a:shl(2)), "(arg(1) << 2)")
  t:eq(tostring(a:shr(1)), "(arg(1) >> 1)")
  t:eq(tostring(a:bnot()), "~arg(1)")
  t:eq(tostring(a:eq(1)), "(arg(1) == 1)")
  t:eq(tostring(a:ne(1)), "(arg(1) != 1)")
  t:eq(tostring(a:lt(1)), "(arg(1) < 1)")
  t:eq(tostring(a:le(1)), "(arg(1) <= 1)")
  t:eq(tostring(a:gt(1)), "(arg(1) > 1)")
  t:eq(tostring(a:ge(1)), "(arg(1) >= 1)")
  t:eq(a:tostring(), "arg(1)")
end

function TestConstructors(t)
  t:eq(tostring(probe.arg(2, "int64")), "arg(2, int64)")
  t:eq(tostring(probe.arg(0, "double")), "arg(0, double)")
  t:eq(tostring(probe.retval()), "retval()")
  t:eq(tostring(probe.retval("double")), "retval(double)")
  t:eq(tostring(probe.rank()), "rank()")
  t:eq(tostring(probe.timebase()), "timebase()")
  t:eq(probe.timebase():type(), "int64")
  t:eq(tostring(probe.counter("cycles")), 'counter("cycles")')
  t:eq(tostring(probe.call("MPI_Wtime")), "MPI_Wtime()")
  t:eq(tostring(probe.call("f", 1, probe.arg(0))), "f(1, arg(0))")
  t:eq(tostring(probe.send(probe.rank(), probe.timebase())), "send(rank(), timebase())")
  t:eq(probe.send(1):type(), "void")
  t:eq(tostring(probe.seq{probe.send(1), probe.rank()}), "(send(1), rank())")
  t:eq(tostring(probe.when(probe.rank():eq(0), probe.send(1))), "if ((rank() == 0)) send(1)")
  t:eq(tostring(probe.when(probe.arg(0), 1, 2.5)), "(arg(0) ? 1 : 2.5)")
  t:eq(probe.when(probe.arg(0), 1, 2.5):type(), "double")
  t:eq(tostring(probe.land(probe.arg(0), probe.arg(1))), "(arg(0) && arg(1))")
  t:eq(tostring(probe.lor(probe.arg(0), 0)), "(arg(0) || 0)")
  t:eq(tostring(probe.lnot(probe.arg(0))), "!arg(0)")
end

function TestTypeErrors(t)
  t:error(function() return probe.double(1):band(1) end, "cannot apply & to a double")
  t:error(function() return probe.double(1) % 2 end, "cannot apply %% to a double")
  t:error(function() return probe.arg(1, "int64") end, "index must be 0, 2, 4 or 6")
  t:error(function() return probe.arg(9) end, "out of range 0..7")
  t:error(function() return probe.arg(0, "float") end, 'unknown type "float"')
  t:error(function() return probe.counter("bogus") end, 'unknown counter "bogus"')
  t:error(function() return probe.send(1) + 1 end, "has no value")
  t:error(function() return probe.send() end, "send takes 1 to 256 values")
  t:eq((probe.int64(7) / 2):type(), "int64")
  t:error(function() return probe.arg(0):assign(1) end, "assign needs an lvalue .*not arg%(0%)")
end

function TestBooleansAreRefused(t)
  t:error(function() return probe.arg(0) + true end, "use e:eq")
  t:error(function() return probe.when(true, 1) end, "use e:eq")
  t:error(function() return probe.land(probe.arg(0), false) end, "use e:eq")
  t:error(function() return probe.int(true) end, "boolean is not a number")
end

function TestDisasm(t)
  local text = (probe.arg(0) + 1):disasm()
  t:ok(text:find("lwz", 1, true), "reads the saved argument register")
  t:ok(text:find("addi", 1, true), "adds the constant")
  local lines = 0
  for _ in text:gmatch("\n") do lines = lines + 1 end
  t:eq(lines, 2, "a load and an add immediate")
  -- the same expression always compiles to the same code
  t:eq((probe.arg(0) + 1):disasm(), text)
  -- placed at another base only the addresses change
  t:ok((probe.arg(0) + 1):disasm(0x1000):find("    1000:", 1, true))
  t:ok(probe.send(probe.rank()):disasm():find("sc", 1, true), "send is a hypercall")
  t:error(function() return probe.call("nosuch"):disasm() end, "function nosuch not found")
end
