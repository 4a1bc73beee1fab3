t = {}
for i = 1, 1000 do t[i] = string.rep("x", 60 * 2^20) .. i end
print("the session goes on", #t > 0)
t = nil
print(#string.rep("y", 2^20))
