package main

import (
	"bufio"
	"bytes"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// knownGaps are campaign cases that do not hold yet; any other case that does not hold
// fails the test. There are none now: keep the mechanism for the next finding.
var knownGaps = map[string]bool{}

// TestCampaignReduced runs the reduced fault campaign over a TCP tree with the built
// binary: every category runs cases, nothing is lost, and every case holds (the shell,
// the tree and the rest of the job kept running with a clear error) but the known gaps.
func TestCampaignReduced(t *testing.T) {
	cmd := exec.Command(binary, "examples/bench/campaign.lua", "reduced", "tcp")
	cmd.Dir = "../.."
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("campaign: %v\n%s%s", err, out.String(), errb.String())
	}
	rows := map[string][3]int{}
	sc := bufio.NewScanner(&out)
	for sc.Scan() {
		line := sc.Text()
		if gap, ok := strings.CutPrefix(line, "not held: "); ok {
			name := gap
			if i := strings.Index(gap, ": "); i >= 0 {
				if j := strings.Index(gap[i+2:], ": "); j >= 0 {
					name = gap[:i+2+j]
				}
			}
			if !knownGaps[name] {
				t.Errorf("case does not hold: %s", gap)
			}
			continue
		}
		f := strings.Fields(line)
		if len(f) < 4 || f[0] == "category" {
			continue
		}
		var n [3]int
		for i := range n {
			n[i], _ = strconv.Atoi(f[len(f)-3+i])
		}
		rows[strings.Join(f[:len(f)-3], " ")] = n
	}
	for _, cat := range []string{"malformed inputs", "hostile programs", "MPI misuse", "tool faults",
		"TCP faults", "data loss", "determinism"} {
		n, ok := rows[cat]
		switch {
		case !ok:
			t.Errorf("no row for %s:\n%s", cat, out.String())
		case n[0] == 0:
			t.Errorf("%s: no cases tried", cat)
		case n[2] != 0:
			t.Errorf("%s: %d messages lost", cat, n[2])
		}
	}
	if t.Failed() {
		t.Logf("campaign output:\n%s", out.String())
	}
}
