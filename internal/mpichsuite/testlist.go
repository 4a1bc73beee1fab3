package mpichsuite

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// An Entry is one line of a testlist: a program run at a rank count with its arguments.
// Several entries may name one program (other arguments, other rank counts).
type Entry struct {
	Dir        string   // relative to the suite's root, slash-separated: "pt2pt", "coll"
	Program    string   // "sendrecv2": Dir/Program.c is its main source
	NP         int      // ranks
	Args       []string // arg= values, in order
	Env        []string // env= values, NAME=VALUE
	TimeLimit  int      // seconds; runtests' default is 180
	ResultTest string   // "" (the " No Errors" criterion), "TestStatus" or "TestErrFatal"
	Skip       string   // why runtests would not run it here ("" when it runs)
	Where      string   // testlist.in:line, for messages
}

// DefaultTimeLimit is runtests' limit for an entry without timeLimit=.
const DefaultTimeLimit = 180

// Key names an entry uniquely enough for the known-failures file and the CSV:
// "dir/program np [args...]".
func (e Entry) Key() string {
	k := fmt.Sprintf("%s/%s %d", e.Dir, e.Program, e.NP)
	for _, a := range e.Args {
		k += " " + a
	}
	for _, v := range e.Env {
		k += " env:" + v
	}
	return k
}

// Substitutions are what the suite's configure puts for each @name@ of the testlists
// when it targets this machine: C only (the Fortran and C++ directories have their own
// drivers), no spawn, threads, fault tolerance or checkpoints (one process per node,
// single-threaded CNK), no MPIX extensions and no large-memory tests (strict MPI on 512
// MiB nodes). A directory that is left out becomes an empty line; a test that is left out
// is commented away, as configure does.
var Substitutions = map[string]string{
	"rmadir": "rma", "iodir": "io", "partdir": "", "spawndir": "", "perfdir": "",
	"f77dir": "", "cxxdir": "", "f90dir": "", "f08dir": "", "errordir": "",
	"threadsdir": "", "ckpointdir": "", "ftdir": "", "faultsdir": "", "impldir": "",
	"largetest": "#", "mpix": "#", "namepub_tests": "#", "comm_overlap": "#",
}

var substRe = regexp.MustCompile(`@([A-Za-z0-9_]+)@`)

// ReadList reads dir's testlist.in (or testlist) under root, recursing into the
// directories it names as runtests does, and returns its entries in order.
func ReadList(root, dir string) ([]Entry, error) {
	path := filepath.Join(root, filepath.FromSlash(dir), "testlist.in")
	if _, err := os.Stat(path); err != nil {
		path = filepath.Join(root, filepath.FromSlash(dir), "testlist")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("mpichsuite: %w", err)
	}
	defer f.Close()
	var out []Entry
	sc := bufio.NewScanner(f)
	for lineNo := 1; sc.Scan(); lineNo++ {
		where := fmt.Sprintf("%s:%d", path, lineNo)
		line, err := substitute(sc.Text(), where)
		if err != nil {
			return nil, err
		}
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "!") {
			continue
		}
		sub := pathJoin(dir, fields[0])
		if st, err := os.Stat(filepath.Join(root, filepath.FromSlash(sub))); err == nil && st.IsDir() {
			nested, err := ReadList(root, sub)
			if err != nil {
				return nil, err
			}
			out = append(out, nested...)
			continue
		}
		e, err := parseEntry(dir, fields, where)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("mpichsuite: %s: %w", path, err)
	}
	return out, nil
}

func pathJoin(dir, name string) string {
	if dir == "" || dir == "." {
		return name
	}
	return dir + "/" + name
}

func substitute(line, where string) (string, error) {
	var bad string
	line = substRe.ReplaceAllStringFunc(line, func(m string) string {
		v, ok := Substitutions[m[1:len(m)-1]]
		if !ok && bad == "" {
			bad = m
		}
		return v
	})
	if bad != "" {
		return "", fmt.Errorf("mpichsuite: %s: unknown substitution %s", where, bad)
	}
	return line, nil
}

// parseEntry reads "program [np [key=value...]]"; runtests' default rank count is 2 and
// words without "=" after np are ignored, as runtests ignores them.
func parseEntry(dir string, f []string, where string) (Entry, error) {
	e := Entry{Dir: dir, Program: f[0], NP: 2, TimeLimit: DefaultTimeLimit, Where: where}
	if len(f) > 1 {
		np, err := strconv.Atoi(f[1])
		if err != nil || np < 1 {
			return e, fmt.Errorf("mpichsuite: %s: rank count %q of %s is not a positive number", where, f[1], f[0])
		}
		e.NP = np
	}
	for _, kv := range f[min(2, len(f)):] {
		key, value, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		switch key {
		case "arg":
			e.Args = append(e.Args, value)
		case "env":
			e.Env = append(e.Env, value)
		case "timeLimit":
			n, err := strconv.Atoi(value)
			if err != nil || n < 1 {
				return e, fmt.Errorf("mpichsuite: %s: timeLimit=%q of %s is not a positive number", where, value, f[0])
			}
			e.TimeLimit = n
		case "resultTest":
			e.ResultTest = value
		case "xfail":
			// runtests skips expected failures unless configured to run them.
			e.Skip = "xfail=" + value
		case "strict":
			// Non-standard extensions: skipped when a non-MPICH MPI is tested.
			if strings.EqualFold(value, "false") {
				e.Skip = "strict=false (uses MPICH extensions)"
			}
		case "mpix":
			if strings.EqualFold(value, "true") {
				e.Skip = "mpix=true (MPICH extensions)"
			}
		case "mem":
			if v, err := strconv.ParseFloat(value, 64); err == nil && v > 0.5 {
				e.Skip = "mem=" + value + " GB per job is beyond the machine's 512 MiB nodes"
			}
		case "init", "lock", "mpiexecarg":
			// Not used by runtests' plain mpiexec either.
		default:
			return e, fmt.Errorf("mpichsuite: %s: unknown key %q in %s", where, key, kv)
		}
	}
	return e, nil
}
