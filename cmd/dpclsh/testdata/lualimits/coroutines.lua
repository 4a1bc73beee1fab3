-- Yields inside pcall and xpcall inside coroutines, run as a script, by -e and at the
-- prompt (coroutines.out is what Lua 5.2 prints, with gopher-lua's messages).
function show(...) local t = {} for i = 1, select("#", ...) do t[i] = tostring((select(i, ...))) end return table.concat(t, " ") end
-- 1 the issue's case
co = coroutine.create(function() local ok, v = pcall(function() return coroutine.yield(1) end); return ok, v end)
print(show(coroutine.resume(co))) print(show(coroutine.resume(co, 2))) print(show(coroutine.resume(co)))
-- 2 xpcall, error after the yield goes to the handler
co = coroutine.create(function(a)
  return xpcall(function() local r = coroutine.yield(a + 1); error("boom " .. r, 0) end, function(m) return "handled: " .. m end)
end)
print(show(coroutine.resume(co, 1))) print(show(coroutine.resume(co, "x")))
-- 3 nested pcalls, several yields, values both ways
co = coroutine.wrap(function(...)
  local out = {pcall(function(...)
    local a = coroutine.yield("outer", ...)
    local ok, b, c = pcall(function() local x, y = coroutine.yield("inner", a) return x, y end)
    return ok, b, c, coroutine.yield("after", b)
  end, ...)}
  return show(unpack(out, 1, 5))
end)
print(show(co(1, 2))) print(show(co(3))) print(show(co(4, 5))) print(show(co(6, 7)))
-- 4 resumed with fewer values than the yield's site takes
co = coroutine.wrap(function() local a, b = coroutine.yield() local ok, c, d = pcall(coroutine.yield) return show(a, b, ok, c, d) end)
co() co("only") print(co())
-- 5 return pcall(f) with f yielding, in a coroutine body
co = coroutine.wrap(function() return pcall(function() coroutine.yield("y") return "done" end) end)
print(show(co())) print(show(co()))
-- 6 a yield outside any coroutine, through pcall
print(show(pcall(coroutine.yield, 1)))
-- 7 wrap inside pcall inside wrap
gen = coroutine.wrap(function()
  for i = 1, 3 do
    local ok, err = pcall(function() coroutine.yield(i) if i == 2 then error("two", 0) end end)
    if not ok then coroutine.yield("caught " .. err) end
  end
  return "end"
end)
print(show(gen(), gen(), gen(), gen(), gen()))
