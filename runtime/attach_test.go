package runtime

import (
	"context"
	"fmt"
	"net"
	"testing"

	"github.com/dpclsh/dpclsh/bgl"
	"github.com/dpclsh/dpclsh/probes"
	"github.com/google/go-cmp/cmp"
)

const attachELF = "../examples/apps/bin/jacobi.elf"

// attachAt is where both runs of TestAttachOverTheSocketIsAttachInProcess attach: a
// quantum's end, as a published job chooses.
const attachAt = 40 * DefaultQuantumNS

func launchPlain(t *testing.T) *bgl.Job {
	t.Helper()
	j, err := bgl.Launch(bgl.JobConfig{Exe: attachELF, Args: []string{"32", "30"}, Nodes: 8, PerIO: 8})
	if err != nil {
		t.Fatal(err)
	}
	j.Start()
	if r := j.RunUntil(attachAt); r != bgl.StopTime {
		t.Fatalf("the job stopped (%v) before %d ns", r, attachAt)
	}
	return j
}

// probeRun installs a per-rank probe at MPI_Allreduce's entry sending the rank and its
// instruction count, runs the job to its end and returns every message, then detaches.
func probeRun(a *App) ([]string, error) {
	f, ok := a.Prog.Lookup("MPI_Allreduce")
	if !ok {
		return nil, fmt.Errorf("no MPI_Allreduce")
	}
	pts, err := a.Prog.Points(f, probes.PointEntry)
	if err != nil {
		return nil, err
	}
	h, err := a.Install(pts, probes.Send(probes.Rank(), probes.Counter("instructions")), InstallOptions{})
	if err == nil {
		err = h.Activate()
	}
	var got []string
	for done := false; err == nil && !done; {
		done = a.Done() // one more step once it is: the tree's last messages
		var b *Batch
		if b, err = a.Step(context.Background(), ^uint64(0)); err == nil {
			for _, m := range b.Messages {
				got = append(got, fmt.Sprintf("%d rank %d %v", m.Time, m.Rank, m.Values))
			}
		}
	}
	if err != nil {
		return nil, err
	}
	return got, a.Detach()
}

// TestAttachOverTheSocketIsAttachInProcess: a tool attached to a job in another process
// (here another goroutine, over loopback) at a given virtual time sees exactly what a
// tool attached in-process at that time sees: the same messages at the same virtual
// times, packets and events handed over in the machine's order. A wrong secret is refused
// and leaves the job as it was.
func TestAttachOverTheSocketIsAttachInProcess(t *testing.T) {
	local := launchPlain(t)
	defer local.Close()
	a, err := AttachJob(local, AttachOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := probeRun(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) < 8 {
		t.Fatalf("only %d messages:\n%v", len(want), want)
	}

	job := launchPlain(t)
	defer job.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	secret := []byte("0123456789abcdef0123456789abcdef")
	p := Publish(ln, secret, nil)
	defer p.Close()
	if _, err := Attach(p.Addr(), []byte("fedcba9876543210fedcba9876543210"), AttachOptions{}); err == nil {
		t.Fatal("a wrong secret was accepted")
	}
	type result struct {
		got []string
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := Attach(p.Addr(), secret, AttachOptions{})
		if err != nil {
			done <- result{err: err}
			return
		}
		got, err := probeRun(r)
		done <- result{got, err}
	}()
	// The job's side: take the tool where the job stands (attachAt), serve it until it
	// detaches, then run on alone.
	s := &jobServer{p: p, j: job}
	job.OnEvent(s.onEvent)
	s.serve(context.Background(), <-p.accepted)
	if r := job.Run(); r != bgl.StopDone {
		t.Fatalf("after the detach the job stopped: %v", r)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	if diff := cmp.Diff(want, r.got); diff != "" {
		t.Errorf("messages over the socket differ from in-process (-want +got):\n%s", diff)
	}
}
