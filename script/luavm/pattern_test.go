package luavm

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

var rewritePatterns = flag.Bool("rewrite-patterns", false, "rewrite testdata/patterns.golden with the stand-alone lua5.1")

// patternCases are Lua expressions over the pattern functions; their results, as Lua
// 5.1.5 gives them, are in testdata/patterns.golden.
var patternCases = []string{
	// find: plain, specials, init
	`("hello world"):find("o w")`, `("hello world"):find("o", 6)`, `("hello"):find("l", -2)`,
	`("hello"):find("l", -10)`, `("hello"):find("", 10)`, `("hello"):find("", 3)`, `("hello"):find("")`,
	`("a.b"):find(".", 1, true)`, `("a.b"):find("%.")`, `("a+b"):find("+", 1, true)`, `("abc"):find("b", 0)`,
	`("abc"):find("c", 3.7)`, `("abc"):find("x")`, `("aaa"):find("a-", 2)`, `(""):find("")`, `(""):find("a*")`,
	`("abc"):find("abcd")`, `("abc"):find("]")`, `("a]c"):find("]")`,
	// classes
	`("  x1_Y"):find("%a+")`, `("ab12cd"):match("%d+")`, `("ab12cd"):match("%D+")`, `("Hello World"):match("%u%l+")`,
	`("tab\there"):match("%s")`, `("a\0b"):find("%z")`, `("a\0b"):match("%Z+")`, `("x!y?"):match("%p")`,
	`("cafe0F9g"):match("%x+")`, `("a\1b"):match("%c")`, `("a_b c"):match("%w+")`, `("a_b"):match("%W")`,
	`("1.5e3"):match("^%d+%.?%d*e%d+$")`, `("\200\201"):match(".")`, `("a%b"):match("%%")`, `("a-b"):match("%-")`,
	// sets
	`("hello"):match("[aeiou]+")`, `("hello"):match("[^aeiou]+")`, `("x]y"):match("[]]")`, `("x]y"):match("[^]]+")`,
	`("a-z"):match("[a-]+")`, `("-a"):match("[-a]+")`, `("b-"):match("[%a-z]+")`, `("Zz09"):match("[a-zA-Z0-9]+")`,
	`("a^b"):match("[%^b]+")`, `("a^b"):match("[b^]+")`, `("[x]"):match("[%[%]]")`, `("abc"):match("[c-a]")`,
	`("\255x"):match("[\200-\255]")`, `("a.b"):match("[.]")`, `("ab"):match("[%]")`,
	// anchors
	`("abc"):match("^b")`, `("abc"):match("^a")`, `("abc"):match("c$")`, `("a$c"):match("$c")`, `("a$c"):match("a$")`,
	`("abc"):find("^", 2)`, `("abc"):find("$")`, `("ab^c"):match("b^c")`, `("abc"):match("^abc$")`, `("$"):match("^$$")`,
	// repetitions
	`("aaab"):match("a*")`, `("aaab"):match("a-b")`, `("aaab"):match("a+")`, `("b"):match("a+")`, `("ab"):match("a?b")`,
	`("b"):match("a?b")`, `("aab"):match("a?ab")`, `("<a><b>"):match("<.->")`, `("<a><b>"):match("<.*>")`,
	`("xaaay"):match("a-y")`, `("abc"):match(".-$")`, `("abc"):match(".-")`, `("*a"):match("*a")`, `("a+"):match("a%+")`,
	`("?"):match("?")`, `("x"):match("x**")`, `("aaa"):match("^(a-)(a*)$")`,
	// captures
	`("key = value"):match("(%w+)%s*=%s*(%w+)")`, `("abc"):match("()b()")`, `("abc"):find("(b)(c)")`,
	`("hello"):match("(h)(e)(l)(l)(o)")`, `("abc"):match("a(b?)c")`, `("ac"):match("a(b?)c")`, `("abc"):find("()")`,
	`("x=1, y=2"):match("((%a)=(%d))")`, `("abcabc"):match("(abc)%1")`, `("abab"):match("(a)(b)%2")`,
	`("aa"):match("(a)%1")`, `("ab"):match("(a)%1")`, `("a"):match("()%1")`, `("xyz"):match("(()y)")`,
	`("abc"):match("(a)(b)(c)(.?)")`,
	// balance and frontier
	`("f(a(b)c)d"):match("%b()")`, `("f(a(b c)d"):match("%b()")`, `("[[x]]"):match("%b[]")`, `("'a'b'"):match("%b''")`,
	`("THE (quick) fox"):find("%f[%a]%a+%f[%A]")`, `("hello world"):gsub("%f[%w]%w+", "X")`, `("aaa"):find("%f[a]")`,
	`("x"):find("%f[%z]")`, `("ab"):find("%f[^a]")`,
	// gmatch
	`gm("hello world from lua", "%a+")`, `gm("k1=v1, k2=v2", "(%w+)=(%w+)")`, `gm("abc", "")`, `gm("abc", "b*")`,
	`gm("a^b^", "^b")`, `gm("one two", "()%a+()")`, `gm("aaa", "a-")`, `gm("", ".*")`, `gm("x,y,,z", "([^,]*)")`,
	// gsub
	`("hello world"):gsub("o", "0")`, `("hello world"):gsub("(%w+)", "<%1>")`, `("hello"):gsub("", "-")`,
	`("abc"):gsub("%w", "%0%0")`, `("abc"):gsub("b", "%%")`, `("abc"):gsub("b", "%x")`, `("abc"):gsub("b", "%")`,
	`("abc"):gsub("b", 5)`, `("abc"):gsub("%w", "x", 2)`, `("abc"):gsub("%w", "x", 0)`, `("abc"):gsub("%w", "x", -1)`,
	`("abc"):gsub("%w", "x", 2.9)`, `("abc"):gsub("^%w", "x")`, `("aaa"):gsub("^a", "b")`, `("abc"):gsub("x*", "-")`,
	`("hello world"):gsub("%w+", {hello = "HI", world = false})`, `("a b"):gsub("%w", {a = 1})`,
	`("a=1, b=2"):gsub("(%w+)=(%w+)", "%2=%1")`, `("abc"):gsub("()", "%1")`, `("abc"):gsub("(b)", "[%0|%1]")`,
	`("abc"):gsub("%w", function(c) return c:upper() .. "." end)`, `("abc"):gsub("%w", function(c) if c == "b" then return nil end return 1 end)`,
	`("x y"):gsub("(%w)", function(a, b) return tostring(b) end)`, `("abc"):gsub("b", function() return false end)`,
	`("abc"):gsub("()b()", function(a, b) return a .. ":" .. b end)`, `("a,b"):gsub(",", "%0%0", 1)`,
	`("abc"):gsub(".", {a = "[a]", c = 3.5})`, `("hello"):gsub("l+", string.upper)`, `("  trim  "):gsub("^%s*(.-)%s*$", "%1")`,
	`("abc"):gsub("", "")`, `(""):gsub("", "x")`,
	// errors
	`("a"):find("%")`, `("a"):find("[a")`, `("a"):find("[")`, `("a"):find("[^")`, `("a"):find("(a")`, `("a"):match("(a")`,
	`("a"):find("a)")`, `("a"):find("%1")`, `("a"):find("(a)%2")`, `("a"):find("%0")`, `("a"):find("%b")`, `("a"):find("%ba")`,
	`("a"):find("%f")`, `("a"):find("%fa")`, `("a"):gsub("a", "%1")`, `("a"):gsub("(a)", "%2")`, `string.gsub("a", "a", true)`,
	`("a"):gsub("a", function() return {} end)`, `("a"):find(("()"):rep(33))`, `("a"):find(("()"):rep(32))`,
	`("aa"):find("((a)%2)")`, `("a"):find("[%")`, `("a"):gsub("(a", "x")`, `gm("a", "(a")`,
}

// patternProgram prints one line per case: its index and its results (or its error).
func patternProgram() string {
	var b strings.Builder
	b.WriteString(`local function esc(s)
  local out = {}
  for i = 1, #s do
    local c = s:byte(i)
    if c >= 32 and c < 127 and c ~= 92 and c ~= 34 then out[#out + 1] = string.char(c)
    else out[#out + 1] = "\\" .. c end
  end
  return '"' .. table.concat(out) .. '"'
end
local function show(...)
  local out = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    out[i] = type(v) == "string" and esc(v) or tostring(v)
  end
  return select("#", ...) .. ": " .. table.concat(out, ", ")
end
function gm(s, p)
  local r = {}
  for a, b in string.gmatch(s, p) do r[#r + 1] = show(a, b) end
  return table.concat(r, " | ")
end
local function run(i, f)
  local function report(ok, ...)
    if ok then print(i, show(...)) else print(i, "error: " .. tostring((...))) end
  end
  report(pcall(f))
end
`)
	for i, c := range patternCases {
		fmt.Fprintf(&b, "run(%d, function() return %s end)\n", i, c)
	}
	return b.String()
}

// errorPosition is the file:line of the Lua code that called the library function; the
// chunk names differ between the two interpreters.
var errorPosition = regexp.MustCompile(`(?m)error: [^:\s]+:\d+: `)

// TestPatternsLikeLua51 runs every case on the session's string library and compares the
// results with Lua 5.1.5's. With -rewrite-patterns it asks lua5.1 for them first.
func TestPatternsLikeLua51(t *testing.T) {
	prog := patternProgram()
	golden := "testdata/patterns.golden"
	if *rewritePatterns {
		cmd := exec.Command("lua5.1", "-")
		cmd.Stdin = strings.NewReader(prog)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("lua5.1: %v\n%s", err, out)
		}
		out = []byte(errorPosition.ReplaceAllString(string(out), "error: "))
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	got := errorPosition.ReplaceAllString(runLua(t, prog), "error: ")
	gotLines, wantLines := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	if len(gotLines) != len(wantLines) {
		t.Fatalf("%d lines of output, want %d:\n%s", len(gotLines), len(wantLines), got)
	}
	for i := range wantLines {
		if gotLines[i] != wantLines[i] {
			t.Errorf("case %s\n got: %s\nwant: %s", caseOf(wantLines[i]), gotLines[i], wantLines[i])
		}
	}
	if !bytes.Equal([]byte(got), want) {
		t.Log("output differs from the golden file")
	}
}

// caseOf names the case a line of output belongs to.
func caseOf(line string) string {
	var i int
	if _, err := fmt.Sscanf(line, "%d", &i); err == nil && i >= 0 && i < len(patternCases) {
		return patternCases[i]
	}
	return "?"
}
