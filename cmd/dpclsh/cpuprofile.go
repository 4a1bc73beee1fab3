package main

import (
	"os"
	"runtime/pprof"
)

// startCPUProfile samples dpclsh's own host CPU into path until the returned stop runs:
// what a run at many ranks spends, read with go tool pprof.
func startCPUProfile(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}
