package bgl

import (
	"fmt"
	"strings"

	"github.com/dpclsh/dpclsh/bgl/abi"
)

// mpiLife is where a rank is in MPI's life cycle. The standard allows MPI_Init once,
// every other call only between MPI_Init and MPI_Finalize, and MPI_Abort at any time;
// MPICH ends the job for a call outside that window, and so does the engine, with an
// MPI-style error naming the call (the job's status is the error class).
type mpiLife uint8

const (
	mpiBeforeInit mpiLife = iota
	mpiInitialized
	mpiFinalized
)

// enter checks that call num may be made now and moves the rank along its life cycle.
func (l *mpiLife) enter(num abi.Sysno) error {
	name := mpiCallName(num)
	switch {
	case num == abi.HcMPIAbort:
		return nil
	case num == abi.HcMPIInit && *l == mpiBeforeInit:
		*l = mpiInitialized
		return nil
	case num == abi.HcMPIInit && *l == mpiInitialized:
		return mpiErrorf(mpiErrOther, "MPI_Init called a second time (MPI may be initialized only once)")
	case num == abi.HcMPIInit:
		return mpiErrorf(mpiErrOther, "MPI_Init called after MPI_Finalize")
	case *l == mpiBeforeInit:
		return mpiErrorf(mpiErrOther, "%s called before MPI_Init", name)
	case *l == mpiFinalized:
		return mpiErrorf(mpiErrOther, "%s called after MPI_Finalize", name)
	case num == abi.HcMPIFinalize:
		*l = mpiFinalized
	}
	return nil
}

// warnUnreceived writes one warning line on the front-end's stderr naming the messages
// that were sent but never received when every rank has called MPI_Finalize. MPICH
// finishes such a job normally; so does the engine, but it says what was lost.
func (e *mpiEngine) warnUnreceived(j *Job) {
	var parts []string
	total := 0
	for rank := range e.ranks {
		r := &e.ranks[rank]
		for _, m := range append(append([]*mpiMsg(nil), r.unexpected...), r.future...) {
			total++
			if len(parts) < 4 {
				parts = append(parts, fmt.Sprintf("rank %d -> rank %d (tag %d, %d bytes)", m.src, rank, m.tag, len(m.data)))
			}
		}
	}
	if total == 0 {
		return
	}
	if e.sh != nil { // this shard's ranks only: process 0 puts the line together
		e.sh.unreceived(total, parts)
		return
	}
	j.fe.notice(1, unreceivedWarning(total, parts))
}

// unreceivedWarning is the warning line for total unreceived messages, parts naming the
// first of them.
func unreceivedWarning(total int, parts []string) string {
	more := ""
	if total > len(parts) {
		more = fmt.Sprintf(" and %d more", total-len(parts))
	}
	return fmt.Sprintf("dpclsh: warning: MPI_Finalize: %d message(s) sent but never received: %s%s\n",
		total, strings.Join(parts, ", "), more)
}
