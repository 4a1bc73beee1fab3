/* libmpi_f.c: the Fortran bindings of the simulated Blue Gene/L's MPI (mpif.h and the
 * mpi module), for gfortran: MPI_SEND is the symbol mpi_send_ (lower case, one trailing
 * underscore), every argument comes by reference, ierror is the last one, and a CHARACTER
 * argument's length follows all of them as a hidden size_t.
 *
 * Each routine converts its arguments and calls the C function, so the C entry is the one
 * place every MPI call goes through: the engine's checks, its costs, and the probes tools
 * put on MPI_* (limpio's among them) see Fortran calls too. This file is a member of
 * libmpi.a of its own: a C program never references mpi_xxx_, so it links exactly what it
 * linked before.
 *
 * Handles (communicators, groups, datatypes, operations, requests) are the C handles,
 * plain integers, so they pass unchanged. A status is INTEGER(MPI_STATUS_SIZE) laid out
 * as C's MPI_Status (MPI_SOURCE, MPI_TAG, MPI_ERROR, then the byte count), so arrays of
 * them pass unchanged too. gfortran's LOGICAL is 4 bytes, .TRUE. = 1 and .FALSE. = 0, so
 * a C flag written as 0 or 1 is a valid LOGICAL, and a LOGICAL read by C is true when
 * nonzero. Indices Fortran counts from 1 (Waitany, Testany, Waitsome, Testsome) are
 * converted; ranks and coordinates are 0-based in both languages.
 *
 * The sentinels MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE are
 * variables of the common block /MPIFPRIV/ (as MPICH does it): Fortran passes their
 * addresses, which the wrappers recognise and replace with C's sentinels. The common
 * block is defined here, so it exists whether or not the program names a sentinel. */
#include <stddef.h>
#include <string.h>

#include "mpi.h"

/* /MPIFPRIV/: mpif.h declares it as
 *   INTEGER MPI_BOTTOM, MPI_IN_PLACE, MPI_STATUS_IGNORE(MPI_STATUS_SIZE),
 *   MPI_STATUSES_IGNORE(MPI_STATUS_SIZE,1) */
struct mpifpriv {
	int bottom, in_place;
	MPI_Status status_ignore, statuses_ignore[1];
};
/* gfortran aligns common blocks to 16 bytes; a smaller alignment here would draw a
 * warning from the linker. */
struct mpifpriv mpifpriv_ __attribute__((aligned(16)));

/* fbuf maps a choice buffer's address to C's: MPI_BOTTOM and MPI_IN_PLACE by identity. */
static void *fbuf(void *p)
{
	if (p == &mpifpriv_.bottom)
		return MPI_BOTTOM;
	if (p == &mpifpriv_.in_place)
		return MPI_IN_PLACE;
	return p;
}

/* fstatus maps a status (or status array) argument: the IGNORE variables to C's. */
static MPI_Status *fstatus(int *s)
{
	if (s == (int *)&mpifpriv_.status_ignore || s == (int *)mpifpriv_.statuses_ignore)
		return MPI_STATUS_IGNORE;
	return (MPI_Status *)s;
}

/* Environment. */

void mpi_init_(int *ierr)
{
	*ierr = MPI_Init(NULL, NULL);
}

void mpi_finalize_(int *ierr)
{
	*ierr = MPI_Finalize();
}

void mpi_initialized_(int *flag, int *ierr)
{
	*ierr = MPI_Initialized(flag);
}

void mpi_finalized_(int *flag, int *ierr)
{
	*ierr = MPI_Finalized(flag);
}

void mpi_comm_rank_(int *comm, int *rank, int *ierr)
{
	*ierr = MPI_Comm_rank(*comm, rank);
}

void mpi_comm_size_(int *comm, int *size, int *ierr)
{
	*ierr = MPI_Comm_size(*comm, size);
}

double mpi_wtime_(void)
{
	return MPI_Wtime();
}

double mpi_wtick_(void)
{
	return MPI_Wtick();
}

void mpi_abort_(int *comm, int *errorcode, int *ierr)
{
	*ierr = MPI_Abort(*comm, *errorcode);
}

/* MPI_PCONTROL(LEVEL) has no ierror. */
void mpi_pcontrol_(int *level)
{
	MPI_Pcontrol(*level);
}

/* The name is blank-padded to the CHARACTER's length (hidden argument), as Fortran
 * strings are; resultlen is the name's own length. */
void mpi_get_processor_name_(char *name, int *resultlen, int *ierr, size_t name_len)
{
	char buf[MPI_MAX_PROCESSOR_NAME];
	int n = 0;

	*ierr = MPI_Get_processor_name(buf, &n);
	if ((size_t)n > name_len)
		n = (int)name_len;
	memcpy(name, buf, n);
	memset(name + n, ' ', name_len - n);
	*resultlen = n;
}

void mpi_get_version_(int *version, int *subversion, int *ierr)
{
	*ierr = MPI_Get_version(version, subversion);
}

#include "libmpi_f_p2p.c"
#include "libmpi_f_coll.c"
