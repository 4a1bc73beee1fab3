package bgl

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// TestFaultRedirect patches main to run a load from address 0 in the instrumentation
// region: without a redirection the rank dies of SIGSEGV at the load; with one, it resumes
// at the fixup (the displaced instruction and the branch back) and the program runs.
func TestFaultRedirect(t *testing.T) {
	for _, redirect := range []bool{false, true} {
		var out bytes.Buffer
		j := launch(t, "hello", 1, &out)
		main := symbol(t, j, "main")
		d := j.Debug(0)
		orig, _ := d.ReadMem(0, main, 4)
		tramp := j.Image().InstrRegion.Start
		const lwzFromZero = 0x81200000 // lwz r9,0(0)
		back := uint32(0x48000000) | (main+4-(tramp+8))&0x03fffffc
		code := binary.BigEndian.AppendUint32(nil, lwzFromZero)
		code = append(code, orig...)
		code = binary.BigEndian.AppendUint32(code, back)
		if err := d.WriteMem(0, tramp, code); err != nil {
			t.Fatal(err)
		}
		to := uint32(0x48000000) | (tramp-main)&0x03fffffc
		d.WriteMem(0, main, binary.BigEndian.AppendUint32(nil, to))
		if redirect {
			if err := d.RedirectFault(tramp, tramp+4); err != nil {
				t.Fatal(err)
			}
		}
		var faults []Event
		j.OnEvent(func(ev Event) {
			if ev.Kind == EventFault {
				faults = append(faults, ev)
			}
		})
		j.Start()
		j.Run()
		switch {
		case redirect && (len(faults) != 0 || out.String() != "Hello, world!\n"):
			t.Fatalf("redirected: faults %v, output %q", faults, out.String())
		case !redirect && (len(faults) != 1 || faults[0].PC != tramp || faults[0].Signal != 11):
			t.Fatalf("not redirected: faults %+v, want one SIGSEGV at 0x%x", faults, tramp)
		}
		j.Close()
	}
}
