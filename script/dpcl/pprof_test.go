package dpcl

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/google/pprof/profile"
)

// TestPprofOfSampledRun samples bgl's hotspots program (70 %, 20 % and 10 % of its
// instructions in hot, warm and cool, each with mix inlined), writes the pprof file and
// reads it back with the pprof package: the leaf functions' shares, mix as an inlined
// frame above them, main as their caller and both sample types.
func TestPprofOfSampledRun(t *testing.T) {
	const period = 7000
	exe := "../../bgl/testdata/bin/hotspots.elf"
	var out bytes.Buffer
	j, err := bgl.Launch(bgl.JobConfig{Exe: exe, Nodes: 1, Stopped: true, Workdir: t.TempDir(), Stdout: &out, Stderr: &out})
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	if err := j.SetSampling(period, 16, nil); err != nil {
		t.Fatal(err)
	}
	j.Start()
	if r := j.Run(); r != bgl.StopDone {
		t.Fatalf("run: %v", r)
	}
	var samples []probes.StackSample
	for _, s := range j.TakeSamples() {
		samples = append(samples, probes.StackSample{Stack: s.Stack, Samples: int64(s.Weight), Cycles: int64(s.Weight) * period})
	}
	path := filepath.Join(t.TempDir(), "hotspots.pb.gz")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := pprofProfile(probes.NewProgram(j.Image()), samples, period).Write(f); err != nil {
		t.Fatal(err)
	}
	f.Close()

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := profile.ParseData(data)
	if err != nil {
		t.Fatalf("pprof cannot read %s: %v", path, err)
	}
	if len(p.SampleType) != 2 || p.SampleType[0].Type != "samples" || p.SampleType[1].Type != "cycles" {
		t.Fatalf("sample types %v", p.SampleType)
	}
	leaf := map[string]int64{}
	var total int64
	inlined, called := 0, 0
	for _, s := range p.Sample {
		if s.Value[1] != s.Value[0]*period {
			t.Fatalf("sample %v: cycles are not samples × period", s.Value)
		}
		lines := s.Location[0].Line
		holder := lines[len(lines)-1].Function.Name
		leaf[holder] += s.Value[0]
		total += s.Value[0]
		if holder == "hot" || holder == "warm" || holder == "cool" {
			if len(lines) == 2 && lines[0].Function.Name == "mix" && lines[0].Line != lines[1].Line {
				inlined++
			}
			if len(s.Location) > 1 && s.Location[1].Line[len(s.Location[1].Line)-1].Function.Name == "main" {
				called++
			}
		}
	}
	for name, want := range map[string]float64{"hot": 70, "warm": 20, "cool": 10} {
		got := 100 * float64(leaf[name]) / float64(total)
		if got < want-2 || got > want+2 {
			t.Errorf("%s: %.1f %% of %d samples, want %.0f %% ± 2 (%v)", name, got, total, want, leaf)
		}
	}
	hotspots := leaf["hot"] + leaf["warm"] + leaf["cool"]
	if inlined == 0 || int64(called) != int64(len(p.Sample))-countOthers(p) {
		t.Errorf("of the samples in hot, warm and cool (%d), %d have mix inlined, %d main as caller", hotspots, inlined, called)
	}
}

// countOthers counts the samples outside hot, warm and cool.
func countOthers(p *profile.Profile) int64 {
	var n int64
	for _, s := range p.Sample {
		lines := s.Location[0].Line
		switch lines[len(lines)-1].Function.Name {
		case "hot", "warm", "cool":
		default:
			n++
		}
	}
	return n
}
