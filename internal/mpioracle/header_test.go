package mpioracle

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/dpclsh/dpclsh/internal/oracletest"
)

const header = "../../bgl/target/mpi.h"

// subset is the MPI interface the simulated machine provides (bgl/doc.go lists what is
// left out and why).
var subset = []string{
	"MPI_Abort", "MPI_Allgather", "MPI_Allgatherv", "MPI_Allreduce", "MPI_Alltoall",
	"MPI_Alltoallv", "MPI_Barrier", "MPI_Bcast", "MPI_Bsend", "MPI_Bsend_init",
	"MPI_Buffer_attach", "MPI_Buffer_detach", "MPI_Cart_coords", "MPI_Cart_create",
	"MPI_Cart_get", "MPI_Cart_rank", "MPI_Cart_shift", "MPI_Cart_sub", "MPI_Cartdim_get",
	"MPI_Comm_compare", "MPI_Comm_create", "MPI_Comm_dup", "MPI_Comm_free", "MPI_Comm_group",
	"MPI_Comm_rank", "MPI_Comm_size", "MPI_Comm_split", "MPI_Dims_create", "MPI_Exscan",
	"MPI_Finalize", "MPI_Finalized", "MPI_Gather", "MPI_Gatherv", "MPI_Get_address",
	"MPI_Get_count", "MPI_Get_processor_name", "MPI_Get_version", "MPI_Group_compare",
	"MPI_Group_excl", "MPI_Group_free", "MPI_Group_incl", "MPI_Group_rank", "MPI_Group_size",
	"MPI_Group_translate_ranks", "MPI_Ibsend", "MPI_Init", "MPI_Initialized", "MPI_Iprobe",
	"MPI_Irecv", "MPI_Irsend", "MPI_Isend", "MPI_Issend", "MPI_Op_create", "MPI_Op_free",
	"MPI_Pcontrol", "MPI_Probe", "MPI_Recv", "MPI_Recv_init", "MPI_Reduce",
	"MPI_Reduce_scatter", "MPI_Request_free", "MPI_Rsend", "MPI_Rsend_init", "MPI_Scan",
	"MPI_Scatter", "MPI_Scatterv", "MPI_Send", "MPI_Send_init", "MPI_Sendrecv",
	"MPI_Sendrecv_replace", "MPI_Ssend", "MPI_Ssend_init", "MPI_Start", "MPI_Startall",
	"MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome", "MPI_Topo_test",
	"MPI_Type_commit", "MPI_Type_contiguous", "MPI_Type_create_struct", "MPI_Type_free",
	"MPI_Type_get_extent", "MPI_Type_indexed", "MPI_Type_size", "MPI_Type_vector", "MPI_Wait",
	"MPI_Waitall", "MPI_Waitany", "MPI_Waitsome", "MPI_Wtick", "MPI_Wtime",
}

// subsetDatatypes are the datatype constructors, queries and MPI_Pack beyond MPI-1's
// (bgl/target/libmpi_dtcons.c), the group set operations, the request calls and the nonblocking collectives.
var subsetDatatypes = []string{
	"MPI_Pack", "MPI_Pack_size", "MPI_Type_create_hindexed", "MPI_Type_create_hindexed_block",
	"MPI_Type_create_hvector", "MPI_Type_create_indexed_block", "MPI_Type_create_resized",
	"MPI_Type_dup", "MPI_Type_get_contents", "MPI_Type_get_envelope", "MPI_Type_get_extent_x",
	"MPI_Type_get_true_extent", "MPI_Type_get_true_extent_x", "MPI_Type_size_x", "MPI_Unpack",
	// bgl/target/libmpi_groups.c
	"MPI_Group_difference", "MPI_Group_intersection", "MPI_Group_range_excl",
	"MPI_Group_range_incl", "MPI_Group_union",
	// bgl/target/libmpi_requests.c
	"MPI_Cancel", "MPI_Isendrecv", "MPI_Isendrecv_replace", "MPI_Request_get_status",
	"MPI_Test_cancelled",
	// bgl/target/libmpi_icoll.c
	"MPI_Iallgather", "MPI_Iallgatherv", "MPI_Iallreduce", "MPI_Ialltoall", "MPI_Ialltoallv",
	"MPI_Ibarrier", "MPI_Ibcast", "MPI_Igather", "MPI_Igatherv", "MPI_Ireduce", "MPI_Iscatter",
	"MPI_Iscatterv", "MPI_Iscan", "MPI_Iexscan", "MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block",
	"MPI_Ialltoallw", "MPI_Reduce_scatter_block", "MPI_Alltoallw",
}

// environment is the rest of what mpi.h declares: error handlers and strings, info,
// attributes, names, thread levels. Programs may call it; MPICH's own test suite
// (internal/mpichsuite, run on the machine and natively) is what checks it, so the corpus
// need not call each.
var environment = []string{
	"MPI_Add_error_class", "MPI_Add_error_code", "MPI_Add_error_string", "MPI_Alloc_mem",
	"MPI_Attr_delete", "MPI_Attr_get", "MPI_Attr_put", "MPI_Comm_call_errhandler",
	"MPI_Comm_create_errhandler", "MPI_Comm_create_keyval", "MPI_Comm_delete_attr",
	"MPI_Comm_free_keyval", "MPI_Comm_get_attr", "MPI_Comm_get_errhandler", "MPI_Comm_get_name",
	"MPI_Comm_set_attr", "MPI_Comm_set_errhandler", "MPI_Comm_set_name", "MPI_Errhandler_free",
	"MPI_Error_class", "MPI_Error_string", "MPI_Free_mem", "MPI_Get_library_version",
	"MPI_Info_create", "MPI_Info_create_env", "MPI_Info_delete", "MPI_Info_dup", "MPI_Info_free", "MPI_Info_get",
	"MPI_Info_get_nkeys", "MPI_Info_get_nthkey", "MPI_Info_get_string", "MPI_Info_get_valuelen",
	"MPI_Info_set", "MPI_Init_thread", "MPI_Is_thread_main", "MPI_Keyval_create",
	"MPI_Keyval_free", "MPI_Query_thread",
	// bgl/target/libmpi_inter.c and libmpi_tattr.c: intercommunicators, the other
	// communicator constructors, datatype attributes
	"MPI_Comm_create_group", "MPI_Comm_dup_with_info", "MPI_Comm_get_info", "MPI_Comm_idup",
	"MPI_Comm_idup_with_info", "MPI_Comm_remote_group", "MPI_Comm_remote_size",
	"MPI_Comm_set_info", "MPI_Comm_split_type", "MPI_Comm_test_inter", "MPI_Get_elements",
	"MPI_Get_elements_x", "MPI_Intercomm_create", "MPI_Intercomm_merge",
	"MPI_Type_create_keyval", "MPI_Type_delete_attr", "MPI_Type_free_keyval",
	"MPI_Type_get_attr", "MPI_Type_set_attr",
	// bgl/target/libmpi_win.c and libmpi_rma.c: one-sided communication
	"MPI_Accumulate", "MPI_Compare_and_swap", "MPI_Fetch_and_op", "MPI_Get",
	"MPI_Get_accumulate", "MPI_Put", "MPI_Raccumulate", "MPI_Rget", "MPI_Rget_accumulate",
	"MPI_Rput", "MPI_Win_allocate", "MPI_Win_allocate_shared", "MPI_Win_attach",
	"MPI_Win_call_errhandler", "MPI_Win_complete", "MPI_Win_create", "MPI_Win_create_dynamic",
	"MPI_Win_create_errhandler", "MPI_Win_create_keyval", "MPI_Win_delete_attr",
	"MPI_Win_detach", "MPI_Win_fence", "MPI_Win_flush", "MPI_Win_flush_all",
	"MPI_Win_flush_local", "MPI_Win_flush_local_all", "MPI_Win_free", "MPI_Win_free_keyval",
	"MPI_Win_get_attr", "MPI_Win_get_errhandler", "MPI_Win_get_group", "MPI_Win_get_info",
	"MPI_Win_get_name", "MPI_Win_lock", "MPI_Win_lock_all", "MPI_Win_post",
	"MPI_Win_set_attr", "MPI_Win_set_errhandler", "MPI_Win_set_info", "MPI_Win_set_name",
	"MPI_Win_shared_query", "MPI_Win_start", "MPI_Win_sync", "MPI_Win_test",
	"MPI_Win_unlock", "MPI_Win_unlock_all", "MPI_Win_wait",
	// bgl/target/libmpi_io.c and libmpi_darray.c: MPI-IO and the array datatypes
	"MPI_File_c2f", "MPI_File_call_errhandler", "MPI_File_close", "MPI_File_create_errhandler",
	"MPI_File_delete", "MPI_File_get_amode", "MPI_File_get_atomicity", "MPI_File_get_byte_offset",
	"MPI_File_get_errhandler", "MPI_File_get_group", "MPI_File_get_info", "MPI_File_get_position",
	"MPI_File_get_position_shared", "MPI_File_get_size", "MPI_File_get_type_extent",
	"MPI_File_get_view", "MPI_File_iread", "MPI_File_iread_all", "MPI_File_iread_at",
	"MPI_File_iread_at_all", "MPI_File_iread_shared", "MPI_File_iwrite", "MPI_File_iwrite_all",
	"MPI_File_iwrite_at", "MPI_File_iwrite_at_all", "MPI_File_iwrite_shared", "MPI_File_open",
	"MPI_File_preallocate", "MPI_File_read", "MPI_File_read_all", "MPI_File_read_all_begin",
	"MPI_File_read_all_end", "MPI_File_read_at", "MPI_File_read_at_all",
	"MPI_File_read_at_all_begin", "MPI_File_read_at_all_end", "MPI_File_read_ordered",
	"MPI_File_read_ordered_begin", "MPI_File_read_ordered_end", "MPI_File_read_shared",
	"MPI_File_seek", "MPI_File_seek_shared", "MPI_File_set_atomicity", "MPI_File_set_errhandler",
	"MPI_File_set_info", "MPI_File_set_size", "MPI_File_set_view", "MPI_File_sync",
	"MPI_File_write", "MPI_File_write_all", "MPI_File_write_all_begin", "MPI_File_write_all_end",
	"MPI_File_write_at", "MPI_File_write_at_all", "MPI_File_write_at_all_begin",
	"MPI_File_write_at_all_end", "MPI_File_write_ordered", "MPI_File_write_ordered_begin",
	"MPI_File_write_ordered_end", "MPI_File_write_shared", "MPI_Type_create_darray",
	"MPI_Type_create_subarray",
	// bgl/target/libmpi_graph.c, libmpi_mprobe.c and libmpi_dtnames.c: graph topologies
	// and maps, matched probes, datatype names and MPI_Type_match_size
	"MPI_Cart_map", "MPI_Dist_graph_create", "MPI_Dist_graph_create_adjacent",
	"MPI_Dist_graph_neighbors", "MPI_Dist_graph_neighbors_count", "MPI_Graph_create",
	"MPI_Graph_get", "MPI_Graph_map", "MPI_Graph_neighbors", "MPI_Graph_neighbors_count",
	"MPI_Graphdims_get", "MPI_Improbe", "MPI_Imrecv", "MPI_Mprobe", "MPI_Mrecv",
	"MPI_Type_get_name", "MPI_Type_match_size", "MPI_Type_set_name",
	// bgl/target/libmpi_collmore.c
	"MPI_Op_commutative", "MPI_Reduce_local",
	// bgl/target/libmpi_packext.c
	"MPI_Pack_external", "MPI_Pack_external_size", "MPI_Unpack_external",
	// bgl/target/libmpi_dtlarge.c
	"MPI_Type_size_c", "MPI_Type_get_extent_c", "MPI_Type_get_true_extent_c", "MPI_Type_contiguous_c",
	"MPI_Type_vector_c", "MPI_Type_create_hvector_c", "MPI_Type_indexed_c", "MPI_Type_create_hindexed_c",
	"MPI_Type_create_indexed_block_c", "MPI_Type_create_hindexed_block_c", "MPI_Type_create_struct_c",
	"MPI_Type_create_resized_c", "MPI_Pack_size_c", "MPI_Pack_c", "MPI_Unpack_c", "MPI_Pack_external_size_c",
	"MPI_Pack_external_c", "MPI_Unpack_external_c",
	// bgl/target/libmpi_neighbor.c
	"MPI_Neighbor_allgather", "MPI_Neighbor_allgatherv", "MPI_Neighbor_alltoall",
	"MPI_Neighbor_alltoallv", "MPI_Neighbor_alltoallw", "MPI_Ineighbor_allgather",
	"MPI_Ineighbor_allgatherv", "MPI_Ineighbor_alltoall", "MPI_Ineighbor_alltoallv",
	"MPI_Ineighbor_alltoallw",
}

// pt2ptSessions are mpi.h's "pt2pt and sessions" section: MPI 4 sessions
// (bgl/target/libmpi_session.c), the large-count point-to-point calls
// (libmpi_pt2pt_c.c) and generalized requests (libmpi_greq.c).
var pt2ptSessions = []string{
	"MPI_Comm_create_from_group", "MPI_Group_from_session_pset", "MPI_Session_finalize",
	"MPI_Session_get_errhandler", "MPI_Session_get_info", "MPI_Session_get_nth_pset",
	"MPI_Session_get_num_psets", "MPI_Session_get_pset_info", "MPI_Session_init",
	"MPI_Session_set_errhandler",
	"MPI_Bsend_c", "MPI_Get_count_c", "MPI_Ibsend_c", "MPI_Irecv_c", "MPI_Irsend_c",
	"MPI_Isend_c", "MPI_Issend_c", "MPI_Recv_c", "MPI_Recv_init_c", "MPI_Rsend_c",
	"MPI_Send_c", "MPI_Send_init_c", "MPI_Sendrecv_c", "MPI_Sendrecv_replace_c",
	"MPI_Ssend_c",
	// libmpi_greq.c: generalized requests and the status setters
	"MPI_Grequest_complete", "MPI_Grequest_start", "MPI_Status_set_cancelled",
	"MPI_Status_set_elements", "MPI_Status_set_elements_x",
}

// constants the header must define.
var constants = []string{
	"MPI_COMM_WORLD", "MPI_CHAR", "MPI_INT", "MPI_LONG", "MPI_LONG_LONG", "MPI_UNSIGNED",
	"MPI_FLOAT", "MPI_DOUBLE", "MPI_BYTE", "MPI_SUM", "MPI_PROD", "MPI_MIN", "MPI_MAX",
	"MPI_LAND", "MPI_LOR", "MPI_BAND", "MPI_BOR", "MPI_ANY_SOURCE", "MPI_ANY_TAG",
	"MPI_STATUS_IGNORE", "MPI_STATUSES_IGNORE", "MPI_SUCCESS", "MPI_REQUEST_NULL",
	"MPI_UNDEFINED", "MPI_ERR_TRUNCATE",
}

// The C library and libgcc functions the programs may call: nothing from libm, whose
// POWER9 instructions qemu-ppc refuses.
var allowedExtern = []string{
	"calloc", "exit", "fprintf", "fputs", "free", "malloc", "memcmp", "memcpy", "memset",
	"printf", "puts", "putchar", "setvbuf", "snprintf", "stderr", "stdout", "strcat", "strtol",
	"vsnprintf",
	// libgcc: 64-bit integer arithmetic and conversions on the 32-bit PowerPC.
	"__ashldi3", "__ashrdi3", "__divdi3", "__fixdfdi", "__fixsfdi", "__floatdidf",
	"__floatdisf", "__lshrdi3", "__moddi3", "__udivdi3", "__umoddi3",
}

var protoRE = regexp.MustCompile(`(?m)^(?:int|double) (MPI_\w+)\(`)

func TestHeaderDeclaresTheSubset(t *testing.T) {
	text, err := os.ReadFile(header)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, m := range protoRE.FindAllStringSubmatch(string(text), -1) {
		declared = append(declared, m[1])
	}
	sort.Strings(declared)
	want := slices.Sorted(slices.Values(slices.Concat(subset, subsetDatatypes, environment, pt2ptSessions)))
	if !slices.Equal(declared, want) {
		t.Errorf("mpi.h declares %v, want exactly %v", declared, want)
	}
	for _, c := range constants {
		if !strings.Contains(string(text), "#define "+c+" ") {
			t.Errorf("mpi.h does not define %s", c)
		}
	}
}

// TestProgramsBuildForPPC compiles every app and corpus program for the 440 against our
// mpi.h, warnings as errors, and checks what each object needs from outside: MPI functions
// mpi.h declares, and allowed C library functions. Together the corpus must call every
// function of the subset.
func TestProgramsBuildForPPC(t *testing.T) {
	t.Parallel()
	gcc := oracletest.Require(t, oracletest.GCC)
	out := t.TempDir()
	compileHeaderAlone(t, gcc, out)
	for _, s := range suites {
		used, built := map[string]bool{}, map[string]bool{}
		for _, e := range s.manifest(t) {
			if built[e.Name] {
				continue
			}
			built[e.Name] = true
			if _, err := os.Stat(filepath.Join(s.dir, e.Name+".c")); err != nil {
				continue // C++ and Fortran programs: TestOtherLanguagesBuildForPPC
			}
			obj := filepath.Join(out, s.name+"_"+e.Name+".o")
			cmd := exec.Command(gcc, "-mcpu=440fp", "-O2", "-Wall", "-Wextra", "-Werror",
				"-ffp-contract=off", "-I", filepath.Dir(header), "-I", s.dir, "-c", "-o", obj,
				filepath.Join(s.dir, e.Name+".c"))
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", e.Name, err, msg)
				continue
			}
			for _, sym := range undefined(t, obj) {
				used[sym] = true
				if !slices.Contains(subset, sym) && !slices.Contains(subsetDatatypes, sym) &&
					!slices.Contains(environment, sym) && !slices.Contains(pt2ptSessions, sym) &&
					!slices.Contains(allowedExtern, sym) {
					t.Errorf("%s.c uses %s: not in the MPI subset nor the allowed C functions", e.Name, sym)
				}
			}
		}
		if s.name != "corpus" {
			continue
		}
		for _, f := range subset {
			if !used[f] {
				t.Errorf("no corpus program calls %s", f)
			}
		}
	}
}

func compileHeaderAlone(t *testing.T, gcc, out string) {
	t.Helper()
	src := filepath.Join(out, "header.c")
	if err := os.WriteFile(src, []byte("#include <mpi.h>\nint main(void) { return MPI_SUCCESS; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, std := range []string{"-std=c89", "-std=c99", "-std=c11"} {
		cmd := exec.Command(gcc, "-mcpu=440fp", std, "-pedantic", "-Wall", "-Wextra", "-Werror",
			"-I", filepath.Dir(header), "-c", "-o", filepath.Join(out, "header.o"), src)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("mpi.h alone with %s: %v\n%s", std, err, msg)
		}
	}
}

func undefined(t *testing.T, obj string) []string {
	t.Helper()
	f, err := elf.Open(obj)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	syms, err := f.Symbols()
	if err != nil {
		t.Fatalf("%s: %v", obj, err)
	}
	var names []string
	for _, s := range syms {
		if s.Section == elf.SHN_UNDEF && s.Name != "" && s.Name != "_GLOBAL_OFFSET_TABLE_" {
			names = append(names, s.Name)
		}
	}
	return names
}

// TestManifestsMatchSources keeps each MANIFEST and its folder's programs (every language) in step.
func TestManifestsMatchSources(t *testing.T) {
	for _, s := range suites {
		files, err := Sources(s.dir)
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(files)
		var listed []string
		for _, e := range s.manifest(t) {
			if !slices.Contains(listed, e.Name) {
				listed = append(listed, e.Name)
			}
		}
		sort.Strings(listed)
		if !slices.Equal(files, listed) {
			t.Errorf("%s: sources %v, MANIFEST lists %v", s.dir, files, listed)
		}
	}
}

// TestDeadlockIsNeverRunNatively: the corpus has a deadlock program, for the engine's
// deadlock report, and the manifest keeps mpiexec away from it.
func TestDeadlockIsNeverRunNatively(t *testing.T) {
	var found bool
	for _, s := range suites {
		for _, e := range s.manifest(t) {
			if e.Expect.Kind != ExpectDeadlock {
				continue
			}
			found = true
			if e.Native {
				t.Errorf("%s: deadlock program %s is marked native=run", s.dir, e.Name)
			}
		}
	}
	if !found {
		t.Error("no deadlock program in any MANIFEST")
	}
}

// TestOtherLanguagesBuildForPPC: mpi.h compiles as C++ (every standard, pedantic), each
// C++ program compiles for the 440 with warnings as errors, each Fortran program with no
// warning but the argument mismatches of MPI's choice buffers, and neither needs an MPI
// function (mpi_xxx_ for Fortran) outside the subset.
func TestOtherLanguagesBuildForPPC(t *testing.T) {
	t.Parallel()
	gxx := oracletest.Require(t, oracletest.GXX)
	out := t.TempDir()
	src := filepath.Join(out, "header.cpp")
	if err := os.WriteFile(src, []byte("#include <mpi.h>\nint main() { return MPI_SUCCESS; }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, std := range []string{"-std=c++98", "-std=c++11", "-std=c++17", "-std=c++20"} {
		cmd := exec.Command(gxx, "-mcpu=440fp", std, "-pedantic", "-Wall", "-Wextra", "-Werror",
			"-I", filepath.Dir(header), "-c", "-o", filepath.Join(out, "header.o"), src)
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("mpi.h as C++ with %s: %v\n%s", std, err, msg)
		}
	}
	for _, s := range suites {
		cxx, _ := filepath.Glob(filepath.Join(s.dir, "*.cpp"))
		for _, src := range cxx {
			obj := filepath.Join(out, s.name+"_"+filepath.Base(src)+".o")
			cmd := exec.Command(gxx, "-mcpu=440fp", "-O2", "-Wall", "-Wextra", "-Werror", "-ffp-contract=off",
				"-I", filepath.Dir(header), "-c", "-o", obj, src)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: %v\n%s", src, err, msg)
				continue
			}
			for _, sym := range undefined(t, obj) {
				if strings.HasPrefix(sym, "MPI_") && !slices.Contains(subset, sym) {
					t.Errorf("%s uses %s: not in the MPI subset", src, sym)
				}
			}
		}
	}
	buildFortranForPPC(t, out)
}
