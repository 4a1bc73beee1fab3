/* libmpi_mprobe.c: matched probes (MPI_Mprobe, MPI_Improbe) and their receives
 * (MPI_Mrecv, MPI_Imrecv). Included by libmpi.c after libmpi_requests.c.
 *
 * The engine keeps the message a matched probe took under the handle it returns; a
 * derived type is received packed and unpacked as MPI_Recv and MPI_Irecv do (an
 * MPI_Imrecv's when a Wait or Test frees its request). */

MPI_FN int MPI_Improbe(int source, int tag, MPI_Comm comm, int *flag, MPI_Message *message, MPI_Status *status)
{
	unsigned long b[] = {W(source), W(tag), W(comm), W(flag), W(message), W(status)};

	return dpcl_mpi_improbe((long)b);
}

MPI_FN int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message *message, MPI_Status *status)
{
	unsigned long b[] = {W(source), W(tag), W(comm), W(message), W(status)};

	return dpcl_mpi_mprobe((long)b);
}

MPI_FN int MPI_Mrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Status *status)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(message), W(status)};
	MPI_Status st;
	char *packed;
	int rc;

	if (!is_derived(type))
		return dpcl_mpi_mrecv((long)b);
	packed = dt_alloc("MPI_Mrecv", dt_use("MPI_Mrecv", type)->size * count + 1);
	b[0] = W(packed);
	b[1] = W(dt_size(type) * count);
	b[2] = W(MPI_BYTE);
	b[4] = W(&st);
	st.MPI_ERROR = status != MPI_STATUS_IGNORE && status != NULL ? status->MPI_ERROR : MPI_SUCCESS;
	rc = dpcl_mpi_mrecv((long)b);
	if (rc == MPI_SUCCESS)
		dt_unpack(packed, st.count, buf, count, type);
	free(packed);
	if (status != MPI_STATUS_IGNORE && status != NULL)
		*status = st;
	return rc;
}

MPI_FN int MPI_Imrecv(void *buf, int count, MPI_Datatype type, MPI_Message *message, MPI_Request *request)
{
	unsigned long b[] = {W(buf), W(count), W(type), W(message), W(request)};
	char *packed;
	int bytes, rc;

	if (!is_derived(type))
		return dpcl_mpi_imrecv((long)b);
	bytes = (int)(dt_use("MPI_Imrecv", type)->size * count);
	packed = dt_alloc("MPI_Imrecv", bytes + 1);
	b[0] = W(packed);
	b[1] = W(bytes);
	b[2] = W(MPI_BYTE);
	rc = dpcl_mpi_imrecv((long)b);
	if (rc != MPI_SUCCESS) {
		free(packed);
		return rc;
	}
	pending_add(*request, packed, bytes, buf, count, type);
	return rc;
}

/* Message handles are the same integers in Fortran. */
MPI_FN MPI_Message MPI_Message_f2c(MPI_Fint message)
{
	return (MPI_Message)message;
}

MPI_FN MPI_Fint MPI_Message_c2f(MPI_Message message)
{
	return (MPI_Fint)message;
}

/* The profiling names of the two conversions (MPICH's mprobe test calls them). */
MPI_FN MPI_Message PMPI_Message_f2c(MPI_Fint message)
{
	return MPI_Message_f2c(message);
}

MPI_FN MPI_Fint PMPI_Message_c2f(MPI_Message message)
{
	return MPI_Message_c2f(message);
}
