package mpichsuite

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// A Result is what became of one entry.
type Result struct {
	Entry
	Built       bool   // built for the machine
	BuildReason string // why not
	Native      bool   // built and passed under MPICH
	NativeWhy   string // why not
	Passed      bool   // passed on the machine
	Reason      string // why not: the build's, or the run's
}

// Suite is one run of the runner.
type Suite struct {
	Root    string // the suite's test/mpi directory
	Work    string // scratch directory: harness objects, programs, workdirs
	BGL     *Harness
	Native  *Harness
	Sim     Runner
	Host    Runner
	Slow    float64 // how much longer than timeLimit a simulated run may take
	Workers int     // builds and runs at once (at most 2 on a 2-core machine)
	Log     io.Writer
}

// Run builds and runs every entry that runtests would run (skipped ones are returned with
// their reason and count as not listed-to-run) and returns the results in order.
func (s *Suite) Run(ctx context.Context, entries []Entry) []Result {
	res := make([]Result, len(entries))
	next := make(chan int)
	var wg sync.WaitGroup
	// A fixed pool takes the entries in order, so a long run's log follows the testlists.
	for range max(1, s.Workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				s.one(ctx, &res[i], i)
				if s.Log != nil {
					fmt.Fprintf(s.Log, "%-50s %s\n", res[i].Key(), res[i].Outcome())
				}
			}
		}()
	}
	for i, e := range entries {
		res[i].Entry = e
		if e.Skip == "" {
			next <- i
		}
	}
	close(next)
	wg.Wait()
	return res
}

func (s *Suite) one(ctx context.Context, r *Result, i int) {
	base := filepath.Join(s.Work, fmt.Sprintf("%04d-%s", i, r.Program))
	if why := s.Native.Build(ctx, r.Entry, base+".native"); why != "" {
		r.NativeWhy = "native build: " + why
	} else if wd, err := TempWorkdir(s.Work, r.Key()); err != nil {
		r.NativeWhy = err.Error()
	} else {
		r.NativeWhy = Run(ctx, s.Host, r.Entry, base+".native", wd, 1)
		r.Native = r.NativeWhy == ""
		os.RemoveAll(wd)
	}
	if why := s.BGL.Build(ctx, r.Entry, base+".elf"); why != "" {
		r.BuildReason, r.Reason = why, "build: "+why
		return
	}
	r.Built = true
	wd, err := TempWorkdir(s.Work, r.Key())
	if err != nil {
		r.Reason = err.Error()
		return
	}
	defer os.RemoveAll(wd)
	r.Reason = Run(ctx, s.Sim, r.Entry, base+".elf", wd, s.Slow)
	r.Passed = r.Reason == ""
}

// Outcome is a one-word summary with the reason.
func (r Result) Outcome() string {
	switch {
	case r.Skip != "":
		return "skipped: " + r.Skip
	case !r.Native:
		return "not counted (fails natively: " + clip(r.NativeWhy) + ")"
	case r.Passed:
		return "passed"
	}
	return "FAILED: " + r.Reason
}

// A Row is one directory's line of the table.
type Row struct {
	Dir                                   string
	Listed, Built, Native, Passed, Failed int
}

// Table sums results per top-level directory, in the order the directories first appear.
func Table(res []Result) []Row {
	var rows []Row
	at := map[string]int{}
	for _, r := range res {
		dir, _, _ := strings.Cut(r.Dir, "/")
		i, ok := at[dir]
		if !ok {
			i = len(rows)
			at[dir] = i
			rows = append(rows, Row{Dir: dir})
		}
		row := &rows[i]
		if r.Skip != "" {
			continue
		}
		row.Listed++
		if r.Built {
			row.Built++
		}
		if r.Native {
			row.Native++
			if r.Passed {
				row.Passed++
			} else {
				row.Failed++
			}
		}
	}
	return rows
}

// WriteTable prints the table, then every failure of a natively passing entry with its
// reason.
func WriteTable(w io.Writer, res []Result) {
	fmt.Fprintf(w, "%-10s %7s %6s %16s %7s %7s\n", "directory", "listed", "built", "passed natively", "passed", "failed")
	var tot Row
	for _, r := range Table(res) {
		fmt.Fprintf(w, "%-10s %7d %6d %16d %7d %7d\n", r.Dir, r.Listed, r.Built, r.Native, r.Passed, r.Failed)
		tot.Listed += r.Listed
		tot.Built += r.Built
		tot.Native += r.Native
		tot.Passed += r.Passed
		tot.Failed += r.Failed
	}
	fmt.Fprintf(w, "%-10s %7d %6d %16d %7d %7d\n", "total", tot.Listed, tot.Built, tot.Native, tot.Passed, tot.Failed)
	for _, r := range res {
		if r.Skip == "" && r.Native && !r.Passed {
			fmt.Fprintf(w, "failed: %s: %s\n", r.Key(), r.Reason)
		}
	}
}

// WriteCSV writes one line per entry.
func WriteCSV(w io.Writer, res []Result) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"directory", "program", "np", "args", "skipped", "built", "passed_natively", "passed", "reason"})
	for _, r := range res {
		reason := r.Reason
		if !r.Native && r.Skip == "" {
			reason = r.NativeWhy
		}
		cw.Write([]string{r.Dir, r.Program, fmt.Sprint(r.NP), strings.Join(append(append([]string{}, r.Args...), r.Env...), " "),
			r.Skip, fmt.Sprint(r.Built), fmt.Sprint(r.Native), fmt.Sprint(r.Passed), reason})
	}
	cw.Flush()
	return cw.Error()
}

// KnownFailures reads the committed list: one entry key per line ("dir/prog np args"),
// "#" comments and a reason after " -- " allowed.
func KnownFailures(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("mpichsuite: %w", err)
	}
	known := map[string]string{}
	for n, l := range strings.Split(string(b), "\n") {
		if i := strings.Index(l, "#"); i == 0 {
			continue
		}
		key, why, _ := strings.Cut(l, " -- ")
		key = strings.TrimSpace(key)
		if key == "" {
			continue
		}
		if _, dup := known[key]; dup {
			return nil, fmt.Errorf("mpichsuite: %s:%d: %q listed twice", path, n+1, key)
		}
		known[key] = strings.TrimSpace(why)
	}
	return known, nil
}

// Regressions are the natively passing entries that failed and are not known failures,
// and the known failures that now pass (the list should shrink with them).
func Regressions(res []Result, known map[string]string) (failed, fixed []string) {
	for _, r := range res {
		if r.Skip != "" || !r.Native {
			continue
		}
		_, isKnown := known[r.Key()]
		switch {
		case !r.Passed && !isKnown:
			failed = append(failed, r.Key()+": "+r.Reason)
		case r.Passed && isKnown:
			fixed = append(fixed, r.Key())
		}
	}
	sort.Strings(failed)
	sort.Strings(fixed)
	return failed, fixed
}
