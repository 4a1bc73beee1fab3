package bgl_test

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dpclsh/dpclsh/internal/mpioracle"
	"github.com/dpclsh/dpclsh/internal/oracletest"
)

// conformDir holds MPI conformance programs that are built when the test runs, for the
// simulated machine against target/mpi.h and target/libmpi.a as they are in the tree and
// natively with MPICH: no committed build, so a change to libmpi is checked at once.
const conformDir = "testdata/mpiconf"

// conformSizes are the job sizes each conformance program runs at.
var conformSizes = []int{1, 2, 3, 7}

// buildPPC cross-compiles src as dpclsh cc does, against the tree's libmpi.
func buildPPC(t *testing.T, src string) string {
	t.Helper()
	cc := oracletest.Require(t, "powerpc-linux-gnu-gcc")
	out := filepath.Join(t.TempDir(), strings.TrimSuffix(filepath.Base(src), ".c")+".elf")
	args := append([]string{"-mcpu=440fp", "-static", "-I", "target"}, mpioracle.CFlags...)
	args = append(args, "-o", out, src, "target/libmpi.a", "-lm")
	if msg, err := exec.Command(cc, args...).CombinedOutput(); err != nil || len(strings.TrimSpace(string(msg))) != 0 {
		t.Fatalf("build %s for the PowerPC: %v\n%s", src, err, msg)
	}
	return out
}

// runConform builds the program name of conformDir both ways and compares its output,
// grouped by rank, and its status at every size of conformSizes.
func runConform(t *testing.T, name string) {
	src := filepath.Join(conformDir, name+".c")
	nat := mpioracle.Build(t, src)
	sim := buildPPC(t, src)
	for _, n := range conformSizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			res := mpioracle.Run(t, nat, n, nil, time.Minute)
			if res.TimedOut {
				t.Fatal("mpiexec timed out")
			}
			got, _ := simRun(t, sim, n, nil, mpioracle.Expect{Kind: mpioracle.ExpectExit})
			if want := res.Canonical(); got != want {
				t.Errorf("simulated output differs from mpiexec's\n--- simulated\n%s--- mpiexec\n%s", got, want)
			}
		})
	}
}

// TestMPIDerivedTypesInCollectives: a vector datatype on the send side, the receive side or
// both of every collective that moves data (Gather(v), Scatter(v), Allgather(v),
// Alltoall(v)), in place too, and in Sendrecv, as MPICH does it.
func TestMPIDerivedTypesInCollectives(t *testing.T) { runConform(t, "dt_coll") }

// TestMPITypeConstructors: create_hvector, create_hindexed, create_indexed_block,
// create_hindexed_block, create_resized and dup (sizes, extents, true extents, the _x
// forms, envelopes and contents, data in a ring), and MPI_Pack/Unpack/Pack_size with an
// MPI_PACKED message, as MPICH does them.
func TestMPITypeConstructors(t *testing.T) { runConform(t, "dt_cons") }

// TestMPIGroupSetOperations: Group_union, intersection, difference, range_incl and
// range_excl (negative strides too) with sizes, ranks, translations and comparisons, and a
// communicator created from such a group, as MPICH does them.
func TestMPIGroupSetOperations(t *testing.T) { runConform(t, "groups") }

// TestMPIRequestCalls: MPI_Cancel of unmatched receives completed by Wait, Test and
// Waitall, MPI_Test_cancelled, MPI_Request_get_status (polling, and on MPI_REQUEST_NULL),
// and MPI_Isendrecv(_replace) with a derived type, as MPICH does them.
func TestMPIRequestCalls(t *testing.T) { runConform(t, "requests") }

// TestMPINonblockingCollectives: every nonblocking collective, twelve in flight on two
// communicators around a blocking one, completed by Waitall, Testall, Waitany and Wait,
// as MPICH does them.
func TestMPINonblockingCollectives(t *testing.T) { runConform(t, "icoll") }

// TestMPINonblockingCollectiveTiming: on the simulated machine a nonblocking collective
// is not complete at its call (the first MPI_Test after MPI_Iallreduce and MPI_Ibcast says
// so), and MPI_Iallreduce then MPI_Wait takes the blocking MPI_Allreduce's virtual time
// from the same start, within the few calls' overhead either way (the two library paths
// run different instructions around the same network cost).
func TestMPINonblockingCollectiveTiming(t *testing.T) {
	exe := buildPPC(t, filepath.Join(conformDir, "icoll_time.c"))
	const ranks = 4
	out, _ := simRun(t, exe, ranks, nil, mpioracle.Expect{Kind: mpioracle.ExpectExit})
	for _, want := range []string{"iallreduce first test 0", "ibcast first test 0"} {
		if n := strings.Count(out, want); n != ranks {
			t.Errorf("%q on %d ranks, want %d\n%s", want, n, ranks, out)
		}
	}
	times := regexp.MustCompile(`allreduce (\d+) ns, iallreduce\+wait (\d+) ns`).FindAllStringSubmatch(out, -1)
	if len(times) != ranks {
		t.Fatalf("%d timing lines, want %d\n%s", len(times), ranks, out)
	}
	for _, m := range times {
		blocking, _ := strconv.Atoi(m[1])
		nonblocking, _ := strconv.Atoi(m[2])
		if nonblocking < blocking-2000 || nonblocking > blocking+2000 {
			t.Errorf("Iallreduce+Wait took %d ns, Allreduce %d ns: want the same network cost", nonblocking, blocking)
		}
	}
}

// TestMPIGraphTopologies: MPI_Graph_create (no nodes, all but one rank) and its queries,
// distributed graphs (adjacent and general, weighted and not, kept by MPI_Comm_dup),
// MPI_Graph_map, MPI_Cart_map, MPI_Cart_sub keeping no dimension, MPI_Dims_create's
// balanced choices (MPICH's ties included) and 600 groups held at once, as MPICH does them.
func TestMPIGraphTopologies(t *testing.T) { runConform(t, "topo_graph") }

// TestMPIMatchedProbes: MPI_Mprobe and MPI_Improbe from MPI_ANY_SOURCE with MPI_Mrecv and
// MPI_Imrecv (ints and a vector type), MPI_PROC_NULL's MPI_MESSAGE_NO_PROC, statuses that
// keep the program's MPI_ERROR, and types freed while a persistent send and a receive
// still use them, as MPICH does them.
func TestMPIMatchedProbes(t *testing.T) { runConform(t, "mprobe") }

// TestMPIMorePredefinedTypes: long double (alone and with an int), wchar_t, the booleans,
// the fixed-size integers and the C and C++ complex types (sizes, extents, a ring, sums),
// MPI_Type_match_size, datatype names and MPI_Type_commit of a predefined type, as MPICH
// does them.
func TestMPIMorePredefinedTypes(t *testing.T) { runConform(t, "dt_more") }

// TestMPICollectivesMore: MPI_Reduce_scatter(_block) with a non-commutative user operation
// (in place too), MPI_Alltoallw with derived per-peer types (zero counts and in place
// too), MPI_Reduce_local with predefined and user operations and MPI_Op_commutative, as
// MPICH does them.
func TestMPICollectivesMore(t *testing.T) { runConform(t, "coll_more") }

// TestMPINeighborhoodCollectives: MPI_Neighbor_allgather(v) and MPI_Neighbor_alltoall(v/w)
// and I-forms over a periodic ring (one or two ranks being both neighbours), a
// non-periodic grid, a graph with a repeated edge and a distributed graph, with a vector
// type on either side, as MPICH does them.
func TestMPINeighborhoodCollectives(t *testing.T) { runConform(t, "neighbor") }

// TestMPINonblockingUserReductions: MPI_Ireduce, Iallreduce, Iscan, Iexscan,
// Ireduce_scatter(_block) with a non-commutative user operation (in place too), completed
// by Wait, Test and Waitall, and a strided type with an operation freed before the Wait,
// as MPICH does them.
func TestMPINonblockingUserReductions(t *testing.T) { runConform(t, "icoll_uop") }
