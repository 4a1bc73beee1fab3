/* libmpi_f_coll.c: Fortran bindings of the collectives, communicators and groups,
 * Cartesian topologies, datatypes and operations. Included by libmpi_f.c. */

/* Collectives: MPI_IN_PLACE and MPI_BOTTOM may stand for any buffer (fbuf). */

void mpi_barrier_(int *comm, int *ierr)
{
	*ierr = MPI_Barrier(*comm);
}

void mpi_bcast_(void *buf, int *count, int *type, int *root, int *comm, int *ierr)
{
	*ierr = MPI_Bcast(fbuf(buf), *count, *type, *root, *comm);
}

void mpi_reduce_(void *sendbuf, void *recvbuf, int *count, int *type, int *op, int *root, int *comm, int *ierr)
{
	*ierr = MPI_Reduce(fbuf(sendbuf), fbuf(recvbuf), *count, *type, *op, *root, *comm);
}

void mpi_allreduce_(void *sendbuf, void *recvbuf, int *count, int *type, int *op, int *comm, int *ierr)
{
	*ierr = MPI_Allreduce(fbuf(sendbuf), fbuf(recvbuf), *count, *type, *op, *comm);
}

void mpi_reduce_scatter_(void *sendbuf, void *recvbuf, int *recvcounts, int *type, int *op, int *comm, int *ierr)
{
	*ierr = MPI_Reduce_scatter(fbuf(sendbuf), fbuf(recvbuf), recvcounts, *type, *op, *comm);
}

void mpi_scan_(void *sendbuf, void *recvbuf, int *count, int *type, int *op, int *comm, int *ierr)
{
	*ierr = MPI_Scan(fbuf(sendbuf), fbuf(recvbuf), *count, *type, *op, *comm);
}

void mpi_exscan_(void *sendbuf, void *recvbuf, int *count, int *type, int *op, int *comm, int *ierr)
{
	*ierr = MPI_Exscan(fbuf(sendbuf), fbuf(recvbuf), *count, *type, *op, *comm);
}

void mpi_gather_(void *sendbuf, int *sendcount, int *sendtype, void *recvbuf, int *recvcount, int *recvtype,
	int *root, int *comm, int *ierr)
{
	*ierr = MPI_Gather(fbuf(sendbuf), *sendcount, *sendtype, fbuf(recvbuf), *recvcount, *recvtype, *root, *comm);
}

void mpi_gatherv_(void *sendbuf, int *sendcount, int *sendtype, void *recvbuf, int *recvcounts, int *displs,
	int *recvtype, int *root, int *comm, int *ierr)
{
	*ierr = MPI_Gatherv(fbuf(sendbuf), *sendcount, *sendtype, fbuf(recvbuf), recvcounts, displs, *recvtype, *root,
		*comm);
}

void mpi_allgather_(void *sendbuf, int *sendcount, int *sendtype, void *recvbuf, int *recvcount, int *recvtype,
	int *comm, int *ierr)
{
	*ierr = MPI_Allgather(fbuf(sendbuf), *sendcount, *sendtype, fbuf(recvbuf), *recvcount, *recvtype, *comm);
}

void mpi_allgatherv_(void *sendbuf, int *sendcount, int *sendtype, void *recvbuf, int *recvcounts, int *displs,
	int *recvtype, int *comm, int *ierr)
{
	*ierr = MPI_Allgatherv(fbuf(sendbuf), *sendcount, *sendtype, fbuf(recvbuf), recvcounts, displs, *recvtype,
		*comm);
}

void mpi_scatter_(void *sendbuf, int *sendcount, int *sendtype, void *recvbuf, int *recvcount, int *recvtype,
	int *root, int *comm, int *ierr)
{
	*ierr = MPI_Scatter(fbuf(sendbuf), *sendcount, *sendtype, fbuf(recvbuf), *recvcount, *recvtype, *root, *comm);
}

void mpi_scatterv_(void *sendbuf, int *sendcounts, int *displs, int *sendtype, void *recvbuf, int *recvcount,
	int *recvtype, int *root, int *comm, int *ierr)
{
	*ierr = MPI_Scatterv(fbuf(sendbuf), sendcounts, displs, *sendtype, fbuf(recvbuf), *recvcount, *recvtype, *root,
		*comm);
}

void mpi_alltoall_(void *sendbuf, int *sendcount, int *sendtype, void *recvbuf, int *recvcount, int *recvtype,
	int *comm, int *ierr)
{
	*ierr = MPI_Alltoall(fbuf(sendbuf), *sendcount, *sendtype, fbuf(recvbuf), *recvcount, *recvtype, *comm);
}

void mpi_alltoallv_(void *sendbuf, int *sendcounts, int *sdispls, int *sendtype, void *recvbuf, int *recvcounts,
	int *rdispls, int *recvtype, int *comm, int *ierr)
{
	*ierr = MPI_Alltoallv(fbuf(sendbuf), sendcounts, sdispls, *sendtype, fbuf(recvbuf), recvcounts, rdispls,
		*recvtype, *comm);
}

/* Communicators and groups. */

void mpi_comm_split_(int *comm, int *color, int *key, int *newcomm, int *ierr)
{
	*ierr = MPI_Comm_split(*comm, *color, *key, newcomm);
}

void mpi_comm_dup_(int *comm, int *newcomm, int *ierr)
{
	*ierr = MPI_Comm_dup(*comm, newcomm);
}

void mpi_comm_create_(int *comm, int *group, int *newcomm, int *ierr)
{
	*ierr = MPI_Comm_create(*comm, *group, newcomm);
}

void mpi_comm_free_(int *comm, int *ierr)
{
	*ierr = MPI_Comm_free(comm);
}

void mpi_comm_compare_(int *comm1, int *comm2, int *result, int *ierr)
{
	*ierr = MPI_Comm_compare(*comm1, *comm2, result);
}

void mpi_comm_group_(int *comm, int *group, int *ierr)
{
	*ierr = MPI_Comm_group(*comm, group);
}

void mpi_group_size_(int *group, int *size, int *ierr)
{
	*ierr = MPI_Group_size(*group, size);
}

void mpi_group_rank_(int *group, int *rank, int *ierr)
{
	*ierr = MPI_Group_rank(*group, rank);
}

void mpi_group_incl_(int *group, int *n, int *ranks, int *newgroup, int *ierr)
{
	*ierr = MPI_Group_incl(*group, *n, ranks, newgroup);
}

void mpi_group_excl_(int *group, int *n, int *ranks, int *newgroup, int *ierr)
{
	*ierr = MPI_Group_excl(*group, *n, ranks, newgroup);
}

void mpi_group_translate_ranks_(int *group1, int *n, int *ranks1, int *group2, int *ranks2, int *ierr)
{
	*ierr = MPI_Group_translate_ranks(*group1, *n, ranks1, *group2, ranks2);
}

void mpi_group_compare_(int *group1, int *group2, int *result, int *ierr)
{
	*ierr = MPI_Group_compare(*group1, *group2, result);
}

void mpi_group_free_(int *group, int *ierr)
{
	*ierr = MPI_Group_free(group);
}

/* Cartesian topologies: periods, reorder and remain_dims are LOGICALs. */

void mpi_dims_create_(int *nnodes, int *ndims, int *dims, int *ierr)
{
	*ierr = MPI_Dims_create(*nnodes, *ndims, dims);
}

void mpi_cart_create_(int *comm, int *ndims, int *dims, int *periods, int *reorder, int *comm_cart, int *ierr)
{
	*ierr = MPI_Cart_create(*comm, *ndims, dims, periods, *reorder != 0, comm_cart);
}

void mpi_cart_coords_(int *comm, int *rank, int *maxdims, int *coords, int *ierr)
{
	*ierr = MPI_Cart_coords(*comm, *rank, *maxdims, coords);
}

void mpi_cart_rank_(int *comm, int *coords, int *rank, int *ierr)
{
	*ierr = MPI_Cart_rank(*comm, coords, rank);
}

void mpi_cart_shift_(int *comm, int *direction, int *disp, int *rank_source, int *rank_dest, int *ierr)
{
	*ierr = MPI_Cart_shift(*comm, *direction, *disp, rank_source, rank_dest);
}

void mpi_cart_sub_(int *comm, int *remain_dims, int *newcomm, int *ierr)
{
	*ierr = MPI_Cart_sub(*comm, remain_dims, newcomm);
}

void mpi_cart_get_(int *comm, int *maxdims, int *dims, int *periods, int *coords, int *ierr)
{
	*ierr = MPI_Cart_get(*comm, *maxdims, dims, periods, coords);
}

void mpi_cartdim_get_(int *comm, int *ndims, int *ierr)
{
	*ierr = MPI_Cartdim_get(*comm, ndims);
}

void mpi_topo_test_(int *comm, int *status, int *ierr)
{
	*ierr = MPI_Topo_test(*comm, status);
}

/* Datatypes and operations. INTEGER(KIND=MPI_ADDRESS_KIND) is MPI_Aint (4 bytes). */

void mpi_type_contiguous_(int *count, int *oldtype, int *newtype, int *ierr)
{
	*ierr = MPI_Type_contiguous(*count, *oldtype, newtype);
}

void mpi_type_vector_(int *count, int *blocklength, int *stride, int *oldtype, int *newtype, int *ierr)
{
	*ierr = MPI_Type_vector(*count, *blocklength, *stride, *oldtype, newtype);
}

void mpi_type_indexed_(int *count, int *blocklengths, int *displs, int *oldtype, int *newtype, int *ierr)
{
	*ierr = MPI_Type_indexed(*count, blocklengths, displs, *oldtype, newtype);
}

void mpi_type_create_struct_(int *count, int *blocklengths, MPI_Aint *displs, int *types, int *newtype, int *ierr)
{
	*ierr = MPI_Type_create_struct(*count, blocklengths, displs, types, newtype);
}

void mpi_type_commit_(int *type, int *ierr)
{
	*ierr = MPI_Type_commit(type);
}

void mpi_type_free_(int *type, int *ierr)
{
	*ierr = MPI_Type_free(type);
}

void mpi_type_size_(int *type, int *size, int *ierr)
{
	*ierr = MPI_Type_size(*type, size);
}

void mpi_type_get_extent_(int *type, MPI_Aint *lb, MPI_Aint *extent, int *ierr)
{
	*ierr = MPI_Type_get_extent(*type, lb, extent);
}

void mpi_get_address_(void *location, MPI_Aint *address, int *ierr)
{
	*ierr = MPI_Get_address(fbuf(location), address);
}

/* A Fortran SUBROUTINE F(INVEC, INOUTVEC, LEN, DATATYPE) takes its arguments by reference,
 * which is what the C library passes a user function: it is called as it is. */
void mpi_op_create_(MPI_User_function *fn, int *commute, int *op, int *ierr)
{
	*ierr = MPI_Op_create(fn, *commute != 0, op);
}

void mpi_op_free_(int *op, int *ierr)
{
	*ierr = MPI_Op_free(op);
}
