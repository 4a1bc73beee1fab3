-- hello.lua: the smallest dpclsh script. Run it with
--   go run ./cmd/dpclsh examples/hello.lua [NAME...]
-- It shows the prelude's helpers: printf, pp, top and hist.

local names = #arg > 0 and arg or { "world" }
for _, name in ipairs(names) do
  printf("hello, %s\n", name)
end

-- Latencies of some imaginary operations, in microseconds.
local latency = { 3, 5, 5, 8, 13, 21, 34, 34, 55, 89, 144, 233, 1024 }
printf("%d samples, total %d us\n", count(latency), sum(latency))
print("largest three:")
for _, e in ipairs(top(latency, 3)) do
  printf("  sample %2d: %5d us\n", e.key, e.value)
end
print("latency histogram (us):")
hist(latency)
pp({ samples = #latency, max = math.max(unpack(latency)) })
