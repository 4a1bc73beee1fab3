package bgl

import (
	"bytes"
	"testing"
)

func TestSmokeHello(t *testing.T) {
	var out, errb bytes.Buffer
	j, err := Launch(JobConfig{Exe: "testdata/bin/hello.elf", Stdout: &out, Stderr: &errb, Workdir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	j.OnEvent(func(e Event) { evs = append(evs, e) })
	r := j.Run()
	j.Close()
	t.Logf("stop %v out %q err %q events %v", r, out.String(), errb.String(), evs)
}
