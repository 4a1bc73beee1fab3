package abi

// MPI-IO (MPI_File): libmpi (target/libmpi_io.c) does a file's I/O itself, with the
// POSIX calls the CNK ships to the job's I/O node (CIOD), and syncs a collective call's
// group with the communicator calls. The engine keeps only what no rank can keep alone: a
// file's shared file pointer, and requests for nonblocking I/O. A file's handle is that
// of a private duplicate of the communicator it was opened on. Numbers 0x7150..0x716f.
const (
	// {file, op (FilePtr*), value high word, value low word, result (an MPI_Offset, or 0)}:
	// the shared file pointer, in etypes, before the operation
	HcMPIFilePointer Sysno = 0x7150
	// {file (MPI_FILE_NULL: an independent call), bytes, request}: a request for I/O the
	// call has done; an independent one is complete, a collective one (MPI_File_iread_all
	// and the others) completes as an MPI_Ibarrier on file would; its status counts bytes
	HcMPIFileRequest Sysno = 0x7151
)

// The operations of HcMPIFilePointer.
const (
	FilePtrFetchAdd = iota // add value, return the old pointer
	FilePtrSet             // set to value (the collective MPI_File_seek_shared, set_view)
	FilePtrFree            // forget the file's pointer (MPI_File_close)
)

var mpiIOHypercalls = []Hypercall{
	{HcMPIFilePointer, "dpcl_mpi_file_pointer", 1, "int", "a file's shared file pointer: fetch and add, set, free"},
	{HcMPIFileRequest, "dpcl_mpi_file_request", 1, "int", "a request for nonblocking file I/O done at the call"},
}

// init runs after mpi_err.go's and before mpi_requests.go's (files initialise in name
// order), so the table stays in number order.
func init() {
	MPIBlockWords[HcMPIFilePointer] = 5
	MPIBlockWords[HcMPIFileRequest] = 3
	for _, h := range mpiIOHypercalls {
		Hypercalls = append(Hypercalls, h)
		hypercallByNum[h.Num] = h
		cParams[h.Name] = "long args"
		cArgs[h.Name] = "args, 0"
	}
}
