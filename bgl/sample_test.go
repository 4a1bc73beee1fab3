package bgl

import (
	"bytes"
	"testing"
)

// TestSamplingFindsHotSpots runs hotspots (70 %, 20 % and 10 % of its instructions in
// hot, warm and cool) under the sampling timer and checks the samples' shares of those
// functions, and the cost the samples add to the rank's clock.
func TestSamplingFindsHotSpots(t *testing.T) {
	const period = 7000 // cycles: 100 kHz of virtual time
	var plain bytes.Buffer
	ref := launch(t, "hotspots", 1, &plain)
	ref.Start()
	if r := ref.Run(); r != StopDone {
		t.Fatalf("unsampled run: %v", r)
	}
	var out bytes.Buffer
	j := launch(t, "hotspots", 1, &out)
	if err := j.SetSampling(period, 16, nil); err != nil {
		t.Fatal(err)
	}
	j.Start()
	if r := j.Run(); r != StopDone || out.String() != plain.String() {
		t.Fatalf("sampled run: %v, output %q, want %q", r, out.String(), plain.String())
	}
	samples := j.TakeSamples()
	byFunc := map[string]uint64{}
	var total, frames uint64
	for _, s := range samples {
		if len(s.Stack) == 0 || s.Weight == 0 {
			t.Fatalf("empty sample %+v", s)
		}
		name := "?"
		if sym, ok := j.Image().FuncAt(s.Stack[0]); ok {
			name = sym.Name
		}
		byFunc[name] += s.Weight
		total += s.Weight
		frames += uint64(len(s.Stack) - 1)
	}
	t.Logf("%d samples: %v", total, byFunc)
	if total < 1000 {
		t.Fatalf("only %d samples", total)
	}
	for name, want := range map[string]float64{"hot": 70, "warm": 20, "cool": 10} {
		got := 100 * float64(byFunc[name]) / float64(total)
		if got < want-2 || got > want+2 {
			t.Errorf("%s: %.1f %% of %d samples, want %.0f %% ± 2 (%v)", name, got, total, want, byFunc)
		}
	}
	// A leaf's sample walks its caller: main's call is on the stack.
	if s := samples[len(samples)/2]; len(s.Stack) < 2 {
		t.Errorf("sample in hot has no callers: %x", s.Stack)
	} else if sym, ok := j.Image().FuncAt(s.Stack[1] - 4); !ok || sym.Name != "main" {
		t.Errorf("hot's caller is %v, want main (stack %x)", sym.Name, s.Stack)
	}
	extra := int64(j.nodes[0].clock()) - int64(ref.nodes[0].clock())
	want := int64(len(samples))*SampleCostCycles + int64(frames)*SampleFrameCycles
	// The exit is shipped at a whole virtual nanosecond, so the clocks may differ by a
	// cycle of rounding beyond the samples' cost.
	if extra < want-1 || extra > want+1 {
		t.Errorf("sampling cost %d cycles, want %d for %d samples and %d frames", extra, want, len(samples), frames)
	}
	if len(j.TakeSamples()) != 0 {
		t.Error("TakeSamples returned the samples twice")
	}
	if err := j.SetSampling(period, 0, nil); err == nil {
		t.Error("depth 0 accepted")
	}
}
