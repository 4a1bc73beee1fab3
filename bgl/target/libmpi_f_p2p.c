/* libmpi_f_p2p.c: Fortran bindings of point-to-point and request completion. Included by
 * libmpi_f.c (one object: the Fortran member of libmpi.a). */

void mpi_send_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *ierr)
{
	*ierr = MPI_Send(fbuf(buf), *count, *type, *dest, *tag, *comm);
}

void mpi_ssend_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *ierr)
{
	*ierr = MPI_Ssend(fbuf(buf), *count, *type, *dest, *tag, *comm);
}

void mpi_rsend_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *ierr)
{
	*ierr = MPI_Rsend(fbuf(buf), *count, *type, *dest, *tag, *comm);
}

void mpi_bsend_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *ierr)
{
	*ierr = MPI_Bsend(fbuf(buf), *count, *type, *dest, *tag, *comm);
}

void mpi_recv_(void *buf, int *count, int *type, int *source, int *tag, int *comm, int *status, int *ierr)
{
	*ierr = MPI_Recv(fbuf(buf), *count, *type, *source, *tag, *comm, fstatus(status));
}

void mpi_isend_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *request, int *ierr)
{
	*ierr = MPI_Isend(fbuf(buf), *count, *type, *dest, *tag, *comm, request);
}

void mpi_issend_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *request, int *ierr)
{
	*ierr = MPI_Issend(fbuf(buf), *count, *type, *dest, *tag, *comm, request);
}

void mpi_irsend_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *request, int *ierr)
{
	*ierr = MPI_Irsend(fbuf(buf), *count, *type, *dest, *tag, *comm, request);
}

void mpi_ibsend_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *request, int *ierr)
{
	*ierr = MPI_Ibsend(fbuf(buf), *count, *type, *dest, *tag, *comm, request);
}

void mpi_irecv_(void *buf, int *count, int *type, int *source, int *tag, int *comm, int *request, int *ierr)
{
	*ierr = MPI_Irecv(fbuf(buf), *count, *type, *source, *tag, *comm, request);
}

void mpi_sendrecv_(void *sendbuf, int *sendcount, int *sendtype, int *dest, int *sendtag, void *recvbuf,
	int *recvcount, int *recvtype, int *source, int *recvtag, int *comm, int *status, int *ierr)
{
	*ierr = MPI_Sendrecv(fbuf(sendbuf), *sendcount, *sendtype, *dest, *sendtag, fbuf(recvbuf), *recvcount,
		*recvtype, *source, *recvtag, *comm, fstatus(status));
}

void mpi_sendrecv_replace_(void *buf, int *count, int *type, int *dest, int *sendtag, int *source,
	int *recvtag, int *comm, int *status, int *ierr)
{
	*ierr = MPI_Sendrecv_replace(fbuf(buf), *count, *type, *dest, *sendtag, *source, *recvtag, *comm,
		fstatus(status));
}

void mpi_probe_(int *source, int *tag, int *comm, int *status, int *ierr)
{
	*ierr = MPI_Probe(*source, *tag, *comm, fstatus(status));
}

void mpi_iprobe_(int *source, int *tag, int *comm, int *flag, int *status, int *ierr)
{
	*ierr = MPI_Iprobe(*source, *tag, *comm, flag, fstatus(status));
}

void mpi_get_count_(int *status, int *type, int *count, int *ierr)
{
	*ierr = MPI_Get_count((const MPI_Status *)status, *type, count);
}

void mpi_buffer_attach_(void *buffer, int *size, int *ierr)
{
	*ierr = MPI_Buffer_attach(buffer, *size);
}

/* Fortran cannot use the buffer's address; MPI_BUFFER_DETACH only hands back the size. */
void mpi_buffer_detach_(void *buffer_addr, int *size, int *ierr)
{
	void *addr;

	(void)buffer_addr;
	*ierr = MPI_Buffer_detach(&addr, size);
}

/* Persistent requests. */

void mpi_send_init_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *request, int *ierr)
{
	*ierr = MPI_Send_init(fbuf(buf), *count, *type, *dest, *tag, *comm, request);
}

void mpi_ssend_init_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *request, int *ierr)
{
	*ierr = MPI_Ssend_init(fbuf(buf), *count, *type, *dest, *tag, *comm, request);
}

void mpi_rsend_init_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *request, int *ierr)
{
	*ierr = MPI_Rsend_init(fbuf(buf), *count, *type, *dest, *tag, *comm, request);
}

void mpi_bsend_init_(void *buf, int *count, int *type, int *dest, int *tag, int *comm, int *request, int *ierr)
{
	*ierr = MPI_Bsend_init(fbuf(buf), *count, *type, *dest, *tag, *comm, request);
}

void mpi_recv_init_(void *buf, int *count, int *type, int *source, int *tag, int *comm, int *request, int *ierr)
{
	*ierr = MPI_Recv_init(fbuf(buf), *count, *type, *source, *tag, *comm, request);
}

void mpi_start_(int *request, int *ierr)
{
	*ierr = MPI_Start(request);
}

void mpi_startall_(int *count, int *requests, int *ierr)
{
	*ierr = MPI_Startall(*count, requests);
}

void mpi_request_free_(int *request, int *ierr)
{
	*ierr = MPI_Request_free(request);
}

/* Completion. Fortran counts indices from 1; MPI_UNDEFINED stays as it is. */

static void from_one(int *index)
{
	if (*index != MPI_UNDEFINED)
		(*index)++;
}

void mpi_wait_(int *request, int *status, int *ierr)
{
	*ierr = MPI_Wait(request, fstatus(status));
}

void mpi_test_(int *request, int *flag, int *status, int *ierr)
{
	*ierr = MPI_Test(request, flag, fstatus(status));
}

void mpi_waitall_(int *count, int *requests, int *statuses, int *ierr)
{
	*ierr = MPI_Waitall(*count, requests, fstatus(statuses));
}

void mpi_testall_(int *count, int *requests, int *flag, int *statuses, int *ierr)
{
	*ierr = MPI_Testall(*count, requests, flag, fstatus(statuses));
}

void mpi_waitany_(int *count, int *requests, int *index, int *status, int *ierr)
{
	*ierr = MPI_Waitany(*count, requests, index, fstatus(status));
	from_one(index);
}

void mpi_testany_(int *count, int *requests, int *index, int *flag, int *status, int *ierr)
{
	*ierr = MPI_Testany(*count, requests, index, flag, fstatus(status));
	from_one(index);
}

void mpi_waitsome_(int *incount, int *requests, int *outcount, int *indices, int *statuses, int *ierr)
{
	int i;

	*ierr = MPI_Waitsome(*incount, requests, outcount, indices, fstatus(statuses));
	for (i = 0; *outcount != MPI_UNDEFINED && i < *outcount; i++)
		indices[i]++;
}

void mpi_testsome_(int *incount, int *requests, int *outcount, int *indices, int *statuses, int *ierr)
{
	int i;

	*ierr = MPI_Testsome(*incount, requests, outcount, indices, fstatus(statuses));
	for (i = 0; *outcount != MPI_UNDEFINED && i < *outcount; i++)
		indices[i]++;
}
