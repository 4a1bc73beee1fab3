package dpcl

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/script"
)

// envChunk launches with an environment and reads envp off rank 3's initial stack, the
// array glibc's getenv walks: argc at r1, then argv, NULL, envp, NULL.
const envChunk = `
local app = dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 4, per_io = 8, args = {"3"}, quiet = true,
  env = {MPIINSTR_EXCLUDE = "MPI_Send,MPI_Recv", OMP_NUM_THREADS = 4}})
local p = app:process(3)
local function word(a) local b = p:read(a, 4); return ((b:byte(1) * 256 + b:byte(2)) * 256 + b:byte(3)) * 256 + b:byte(4) end
local function cstring(a) local t = {}; for i = 0, 255 do local c = p:read(a + i, 1); if c == "\0" then break end; t[#t + 1] = c end; return table.concat(t) end
local sp = p:reg("r1")
local argc = word(sp)
local envp, seen = sp + 4 * (argc + 2), {}
while word(envp) ~= 0 do seen[#seen + 1] = cstring(word(envp)); envp = envp + 4 end
ENVP = table.concat(seen, " ")
ONE = app:env("MPIINSTR_EXCLUDE")
NONE = tostring(app:env("HOME"))
ALL = app:env().OMP_NUM_THREADS
app:close()
`

func TestLaunchEnvIsWhatRanksSee(t *testing.T) {
	var out bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.DoString(envChunk, "env.lua"); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	get := func(name string) string { return s.L.GetGlobal(name).String() }
	if got, want := get("ENVP"), "MPIINSTR_EXCLUDE=MPI_Send,MPI_Recv OMP_NUM_THREADS=4"; got != want {
		t.Errorf("envp of rank 3: %q, want %q", got, want)
	}
	if get("ONE") != "MPI_Send,MPI_Recv" || get("NONE") != "nil" || get("ALL") != "4" {
		t.Errorf("app:env: %q %q %q", get("ONE"), get("NONE"), get("ALL"))
	}
}

func TestLaunchEnvBadInput(t *testing.T) {
	cases := []struct{ env, want string }{
		{`"X=1"`, "env must be a table"},
		{`{"A=1"}`, "env keys must be variable names, got number 1"},
		{`{["A=B"] = "1"}`, `env: "A=B" is not a variable name`},
		{`{["1X"] = "1"}`, `env: "1X" is not a variable name`},
		{`{X = {}}`, "env.X must be a string or a number, got table"},
		{`{X = "a\0b"}`, "env: X contains a NUL byte"},
		{`{X = string.rep("x", 200000)}`, "arguments and environment take"},
	}
	for _, c := range cases {
		var out bytes.Buffer
		s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out})
		if err != nil {
			t.Fatal(err)
		}
		err = s.DoString(`dpcl.launch("../../runtime/testdata/bin/loop.elf", {env = `+c.env+`})`, "bad.lua")
		s.Close()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("env = %s: error %v, want %q", c.env, err, c.want)
		}
	}
}

// exportChunk launches with env, export and the session's own variables and reads envp off
// rank 1's initial stack, as envChunk does.
const exportChunk = `
local app = dpcl.launch("../../runtime/testdata/bin/loop.elf", {nodes = 2, per_io = 8, args = {"3"}, quiet = true,
  env = {B = "set"}, export = {"DPCL_TEST_EXPORTED"}})
local p = app:process(1)
local function word(a) local b = p:read(a, 4); return ((b:byte(1) * 256 + b:byte(2)) * 256 + b:byte(3)) * 256 + b:byte(4) end
local function cstring(a) local t = {}; for i = 0, 255 do local c = p:read(a + i, 1); if c == "\0" then break end; t[#t + 1] = c end; return table.concat(t) end
local sp = p:reg("r1")
local envp, seen = sp + 4 * (word(sp) + 2), {}
while word(envp) ~= 0 do seen[#seen + 1] = cstring(word(envp)); envp = envp + 4 end
ENVP = table.concat(seen, " ")
app:close()
`

// TestLaunchExport: export passes the host's value of each name it lists, beside env and
// the session's Options.Env, and nothing else of the host's environment reaches a rank.
func TestLaunchExport(t *testing.T) {
	t.Setenv("DPCL_TEST_EXPORTED", "from the host")
	t.Setenv("DPCL_TEST_NOT_EXPORTED", "secret")
	var out bytes.Buffer
	s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out, Env: []string{"A_SESSION=1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.DoString(exportChunk, "export.lua"); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got, want := s.L.GetGlobal("ENVP").String(), "A_SESSION=1 B=set DPCL_TEST_EXPORTED=from the host"; got != want {
		t.Errorf("envp of rank 1: %q, want %q", got, want)
	}
}

func TestLaunchExportBadInput(t *testing.T) {
	t.Setenv("DPCL_TEST_EXPORTED", "x")
	t.Setenv("DPCL_TEST_UNSET", "") // restored after the test
	os.Unsetenv("DPCL_TEST_UNSET")
	cases := []struct{ opts, want string }{
		{`export = "DPCL_TEST_EXPORTED"`, "export must be an array of variable names"},
		{`export = {x = "DPCL_TEST_EXPORTED"}`, `export must be an array of variable names, but it has the key "x"`},
		{`export = {1}`, "export[1] must be a variable name, got number 1"},
		{`export = {"DPCL_TEST_UNSET"}`, "export: DPCL_TEST_UNSET is not set on the host"},
		{`export = {"1X"}`, `export: "1X" is not a variable name`},
		{`export = {"DPCL_TEST_EXPORTED", "DPCL_TEST_EXPORTED"}`, "export: DPCL_TEST_EXPORTED is given twice"},
		{`env = {DPCL_TEST_EXPORTED = "1"}, export = {"DPCL_TEST_EXPORTED"}`, "export: DPCL_TEST_EXPORTED is given twice"},
		{`env = {A_SESSION = "2"}`, "env: A_SESSION is given twice"},
	}
	for _, c := range cases {
		var out bytes.Buffer
		s, err := script.NewSessionWith(script.Options{Stdout: &out, Stderr: &out, Env: []string{"A_SESSION=1"}})
		if err != nil {
			t.Fatal(err)
		}
		err = s.DoString(`dpcl.launch("../../runtime/testdata/bin/loop.elf", {`+c.opts+`})`, "bad.lua")
		s.Close()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.opts, err, c.want)
		}
	}
}
