package shard

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// A shard process that is killed outright (the kernel's OOM killer, kill -9) cannot say
// what it held, and the launcher then kills the others without a word about it: mpiexec
// only prints the pid and "signal 9". So the process the launcher starts is a supervisor
// that runs the same program again as the worker, which does the simulation and tells
// the supervisor over a pipe which shard it is and what it holds. When the worker dies
// by a signal the supervisor prints that on standard error and exits 128+signal; the
// launcher then ends the other shards (mpiexec's hydra signals each process's whole
// group, workers included), so nothing is left waiting in an exchange.
//
// Either of the two may be the one killed: ps shows both with the same command line. So
// the worker also holds the read end of a second pipe, its lifeline, whose write end only
// the supervisor has and never writes: the supervisor's death, however it comes, closes
// it, and the worker then prints the same kind of line from what it knows itself and
// exits, rather than dying without a word (the kernel's parent-death signal, which this
// replaces, gave it no chance to speak) or running on alone.

// workerEnv is set in the worker's environment to the descriptors of its report pipe and
// its lifeline: "5,6".
const workerEnv = "DPCLSH_SHARD_WORKER"

// pmiFDEnvs name the descriptors a launcher passes to its processes for PMI (MPICH's
// hydra and Slurm's PMI-1 use PMI_FD, PMI-2 PMI2_FD); the worker inherits them.
var pmiFDEnvs = []string{"PMI_FD", "PMI2_FD"}

// workerPipes returns the worker's report pipe and lifeline when this process is the
// worker (either is nil when the supervisor's variable does not name it).
func workerPipes() (report, lifeline *os.File, worker bool) {
	v, ok := os.LookupEnv(workerEnv)
	if !ok {
		return nil, nil, false
	}
	r, l, _ := strings.Cut(v, ",")
	return fdFile(r, "shard report"), fdFile(l, "shard lifeline"), true
}

// fdFile is the inherited descriptor v names, nil when it names none.
func fdFile(v, name string) *os.File {
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil
	}
	// not passed on to what the worker runs in turn
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), name)
}

// watchSupervisor ends the worker when the lifeline closes, which happens only when the
// supervisor (pid supervisor) dies before it: it prints "dpclsh: shard R of P (holding
// ...) died: its supervisor (pid N) was killed; ending the run", who giving the part
// before "died", and exits 128+SIGKILL, as the supervisor would have.
func watchSupervisor(lifeline *os.File, supervisor int, who func() string, stderr io.Writer) {
	go func() {
		var b [1]byte
		for {
			if _, err := lifeline.Read(b[:]); err != nil {
				break
			}
		}
		fmt.Fprintf(stderr, "dpclsh: %s died: its supervisor (pid %d) was killed; ending the run\n", who(), supervisor)
		exit(128 + int(syscall.SIGKILL))
	}()
}

// supervise runs argv (this program again) as the worker with env and the launcher's PMI
// descriptors, forwards signals to it, and returns the status to exit with: the worker's
// own, or 128+signal after a line naming the shard when a signal killed it.
func supervise(argv, env []string, stderr io.Writer) int {
	r, w, err := os.Pipe()
	if err != nil {
		fmt.Fprintf(stderr, "dpclsh: shard supervisor: %v\n", err)
		return 1
	}
	lr, lw, err := os.Pipe()
	if err != nil {
		r.Close()
		w.Close()
		fmt.Fprintf(stderr, "dpclsh: shard supervisor: %v\n", err)
		return 1
	}
	// The lifeline's write end stays open until the worker is gone: closing it earlier
	// would tell the worker its supervisor died.
	defer lw.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, stderr
	cmd.Env, cmd.ExtraFiles = passPMI(env)
	n := 3 + len(cmd.ExtraFiles)
	cmd.Env = append(cmd.Env, fmt.Sprintf("%s=%d,%d", workerEnv, n, n+1))
	cmd.ExtraFiles = append(cmd.ExtraFiles, w, lr)
	who := newShardReport(env)
	err = cmd.Start()
	w.Close()
	lr.Close()
	if err != nil {
		r.Close()
		fmt.Fprintf(stderr, "dpclsh: %s: cannot start its worker: %v\n", who.describe(), err)
		return 1
	}
	read := make(chan struct{})
	go func() { who.read(r); close(read) }()
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGUSR2)
	go func() {
		for s := range sigs {
			cmd.Process.Signal(s)
		}
	}()
	err = cmd.Wait()
	signal.Stop(sigs)
	<-read
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		if err != nil {
			fmt.Fprintf(stderr, "dpclsh: %s: %v\n", who.describe(), err)
			return 1
		}
		return 0
	}
	st, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !st.Signaled() {
		return ee.ExitCode()
	}
	sig := st.Signal()
	fmt.Fprintf(stderr, "dpclsh: %s died: killed by signal %d (%v); ending the run\n", who.describe(), int(sig), sig)
	return 128 + int(sig)
}

// passPMI returns env with every PMI descriptor renumbered to where the worker finds it
// (3, 4, ...) and the files to pass there.
func passPMI(env []string) ([]string, []*os.File) {
	var files []*os.File
	out := make([]string, 0, len(env))
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if k == workerEnv {
			continue
		}
		if isPMIFDEnv(k) {
			if fd, err := strconv.Atoi(v); err == nil {
				kv = fmt.Sprintf("%s=%d", k, 3+len(files))
				files = append(files, os.NewFile(uintptr(fd), k))
			}
		}
		out = append(out, kv)
	}
	return out, files
}

func isPMIFDEnv(k string) bool {
	for _, e := range pmiFDEnvs {
		if k == e {
			return true
		}
	}
	return false
}

// shardReport is what the supervisor knows of its worker: which shard it is (from the
// worker, else from the launcher's PMI_RANK and PMI_SIZE) and what it last said it held.
type shardReport struct {
	mu         sync.Mutex
	rank, size string
	held       string
}

func newShardReport(env []string) *shardReport {
	s := &shardReport{rank: "?", size: "?"}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "PMI_RANK":
			s.rank = v
		case "PMI_SIZE":
			s.size = v
		}
	}
	return s
}

// read takes the worker's lines "shard R P" and "hold TEXT" until the pipe closes.
func (s *shardReport) read(r io.ReadCloser) {
	defer r.Close()
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		kind, rest, _ := strings.Cut(sc.Text(), " ")
		s.mu.Lock()
		switch kind {
		case "shard":
			s.rank, s.size, _ = strings.Cut(rest, " ")
		case "hold":
			s.held = rest
		}
		s.mu.Unlock()
	}
}

func (s *shardReport) describe() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	d := "shard " + s.rank + " of " + s.size
	if s.held != "" {
		d += " (holding " + s.held + ")"
	}
	return d
}

// reportLine formats a line of the worker's report pipe, on one line whatever text holds.
func reportLine(kind, text string) string {
	return kind + " " + strings.ReplaceAll(text, "\n", " ") + "\n"
}
