/* libmpi_requests.c: MPI_Cancel, MPI_Test_cancelled, MPI_Request_get_status and
 * MPI_Isendrecv(_replace). Included by libmpi.c after the point-to-point calls.
 *
 * The engine cancels a receive no message has matched yet; a send's data is copied when
 * made and its message is on its way, so cancelling it has no effect (an MPI_Issend still
 * completes when received), which the standard allows. A cancelled request's status has
 * MPI__STATUS_CANCELLED set in its count. A generalized request's cancel callback runs
 * (libmpi_greq.c).
 * Isendrecv is the eager send followed by an Irecv whose request the caller waits for; the
 * send copies the data first, so Isendrecv_replace may receive into the same buffer. */

#define MPI__STATUS_CANCELLED 0x80000000u

MPI_FN int MPI_Cancel(MPI_Request *request)
{
	unsigned long b[1];
	MPI_Request real;
	struct greq *g;
	int rc;

	if (request == NULL)
		lib_error("MPI_Cancel", MPI_ERR_REQUEST, "request is NULL");
	real = persist_real(*request);
	if (real == MPI_REQUEST_NULL) {
		if (is_persist(*request))
			return MPI_SUCCESS; /* an inactive persistent request: nothing to cancel */
		lib_error("MPI_Cancel", MPI_ERR_REQUEST, "request is MPI_REQUEST_NULL");
	}
	b[0] = W(&real);
	rc = dpcl_mpi_cancel((long)b);
	if (rc == MPI_SUCCESS && (g = greq_find(real)) != NULL)
		rc = g->cancel(g->extra, g->complete);
	return rc;
}

MPI_FN int MPI_Test_cancelled(const MPI_Status *status, int *flag)
{
	if (status == NULL || status == MPI_STATUS_IGNORE || flag == NULL)
		lib_error("MPI_Test_cancelled", MPI_ERR_ARG, "status or flag is NULL or MPI_STATUS_IGNORE");
	*flag = ((unsigned)status->count & MPI__STATUS_CANCELLED) != 0;
	return MPI_SUCCESS;
}

MPI_FN int MPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status)
{
	MPI_Request real = persist_real(request);
	MPI_Status local;
	struct greq *g = greq_find(real);
	unsigned long b[] = {W(&real), W(flag), W(g != NULL && (status == MPI_STATUS_IGNORE || status == NULL) ? &local : status)};
	int rc = dpcl_mpi_request_get_status((long)b);

	/* A completed generalized request's status is its query callback's. */
	if (rc != MPI_SUCCESS || g == NULL || !*flag)
		return rc;
	return g->query(g->extra, (MPI_Status *)b[2]);
}

MPI_FN int MPI_Isendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest,
	int sendtag, void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
	MPI_Comm comm, MPI_Request *request)
{
	unsigned long s[] = {W(sendbuf), W(sendcount), W(sendtype), W(dest), W(sendtag), W(comm)};
	unsigned long r[] = {W(recvbuf), W(recvcount), W(recvtype), W(source), W(recvtag), W(comm), W(request)};
	int rc = do_send("MPI_Isendrecv", s, 0);

	if (rc != MPI_SUCCESS)
		return rc;
	return do_irecv(r);
}

MPI_FN int MPI_Isendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int sendtag,
	int source, int recvtag, MPI_Comm comm, MPI_Request *request)
{
	unsigned long s[] = {W(buf), W(count), W(type), W(dest), W(sendtag), W(comm)};
	unsigned long r[] = {W(buf), W(count), W(type), W(source), W(recvtag), W(comm), W(request)};
	int rc = do_send("MPI_Isendrecv_replace", s, 0);

	if (rc != MPI_SUCCESS)
		return rc;
	return do_irecv(r);
}
