! mpi.f90: the mpi module of the simulated Blue Gene/L's MPI (USE mpi).
!
! The constants, MPI_WTIME/MPI_WTICK and the sentinels are mpif.h's. As in MPICH, the
! routines without a choice (buffer) argument have explicit interfaces, so gfortran
! checks their arguments, a forgotten IERROR included; the routines that take buffers of
! any type (MPI_SEND, MPI_BCAST...) are external, as with mpif.h. dpclsh fc compiles
! this file at every build: a .mod file is readable only by the gfortran that wrote it.
module mpi
  implicit none
  include 'mpif.h'

  interface
    ! Environment.
    subroutine mpi_init(ierror)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_finalize(ierror)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_initialized(flag, ierror)
      logical, intent(out) :: flag
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_finalized(flag, ierror)
      logical, intent(out) :: flag
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_comm_rank(comm, rank, ierror)
      integer, intent(in) :: comm
      integer, intent(out) :: rank, ierror
    end subroutine
    subroutine mpi_comm_size(comm, size, ierror)
      integer, intent(in) :: comm
      integer, intent(out) :: size, ierror
    end subroutine
    subroutine mpi_abort(comm, errorcode, ierror)
      integer, intent(in) :: comm, errorcode
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_pcontrol(level)
      integer, intent(in) :: level
    end subroutine
    subroutine mpi_get_processor_name(name, resultlen, ierror)
      character(len=*), intent(out) :: name
      integer, intent(out) :: resultlen, ierror
    end subroutine
    subroutine mpi_get_version(version, subversion, ierror)
      integer, intent(out) :: version, subversion, ierror
    end subroutine

    ! Communicators and groups.
    subroutine mpi_comm_split(comm, color, key, newcomm, ierror)
      integer, intent(in) :: comm, color, key
      integer, intent(out) :: newcomm, ierror
    end subroutine
    subroutine mpi_comm_dup(comm, newcomm, ierror)
      integer, intent(in) :: comm
      integer, intent(out) :: newcomm, ierror
    end subroutine
    subroutine mpi_comm_create(comm, group, newcomm, ierror)
      integer, intent(in) :: comm, group
      integer, intent(out) :: newcomm, ierror
    end subroutine
    subroutine mpi_comm_free(comm, ierror)
      integer, intent(inout) :: comm
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_comm_compare(comm1, comm2, result, ierror)
      integer, intent(in) :: comm1, comm2
      integer, intent(out) :: result, ierror
    end subroutine
    subroutine mpi_comm_group(comm, group, ierror)
      integer, intent(in) :: comm
      integer, intent(out) :: group, ierror
    end subroutine
    subroutine mpi_group_size(group, size, ierror)
      integer, intent(in) :: group
      integer, intent(out) :: size, ierror
    end subroutine
    subroutine mpi_group_rank(group, rank, ierror)
      integer, intent(in) :: group
      integer, intent(out) :: rank, ierror
    end subroutine
    subroutine mpi_group_incl(group, n, ranks, newgroup, ierror)
      integer, intent(in) :: group, n, ranks(*)
      integer, intent(out) :: newgroup, ierror
    end subroutine
    subroutine mpi_group_excl(group, n, ranks, newgroup, ierror)
      integer, intent(in) :: group, n, ranks(*)
      integer, intent(out) :: newgroup, ierror
    end subroutine
    subroutine mpi_group_translate_ranks(group1, n, ranks1, group2, ranks2, ierror)
      integer, intent(in) :: group1, n, ranks1(*), group2
      integer, intent(out) :: ranks2(*), ierror
    end subroutine
    subroutine mpi_group_compare(group1, group2, result, ierror)
      integer, intent(in) :: group1, group2
      integer, intent(out) :: result, ierror
    end subroutine
    subroutine mpi_group_free(group, ierror)
      integer, intent(inout) :: group
      integer, intent(out) :: ierror
    end subroutine

    ! Cartesian topologies.
    subroutine mpi_dims_create(nnodes, ndims, dims, ierror)
      integer, intent(in) :: nnodes, ndims
      integer, intent(inout) :: dims(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_cart_create(comm_old, ndims, dims, periods, reorder, comm_cart, ierror)
      integer, intent(in) :: comm_old, ndims, dims(*)
      logical, intent(in) :: periods(*), reorder
      integer, intent(out) :: comm_cart, ierror
    end subroutine
    subroutine mpi_cart_coords(comm, rank, maxdims, coords, ierror)
      integer, intent(in) :: comm, rank, maxdims
      integer, intent(out) :: coords(*), ierror
    end subroutine
    subroutine mpi_cart_rank(comm, coords, rank, ierror)
      integer, intent(in) :: comm, coords(*)
      integer, intent(out) :: rank, ierror
    end subroutine
    subroutine mpi_cart_shift(comm, direction, disp, rank_source, rank_dest, ierror)
      integer, intent(in) :: comm, direction, disp
      integer, intent(out) :: rank_source, rank_dest, ierror
    end subroutine
    subroutine mpi_cart_sub(comm, remain_dims, newcomm, ierror)
      integer, intent(in) :: comm
      logical, intent(in) :: remain_dims(*)
      integer, intent(out) :: newcomm, ierror
    end subroutine
    subroutine mpi_cart_get(comm, maxdims, dims, periods, coords, ierror)
      integer, intent(in) :: comm, maxdims
      integer, intent(out) :: dims(*), coords(*), ierror
      logical, intent(out) :: periods(*)
    end subroutine
    subroutine mpi_cartdim_get(comm, ndims, ierror)
      integer, intent(in) :: comm
      integer, intent(out) :: ndims, ierror
    end subroutine
    subroutine mpi_topo_test(comm, status, ierror)
      integer, intent(in) :: comm
      integer, intent(out) :: status, ierror
    end subroutine

    ! Datatypes and operations.
    subroutine mpi_type_contiguous(count, oldtype, newtype, ierror)
      integer, intent(in) :: count, oldtype
      integer, intent(out) :: newtype, ierror
    end subroutine
    subroutine mpi_type_vector(count, blocklength, stride, oldtype, newtype, ierror)
      integer, intent(in) :: count, blocklength, stride, oldtype
      integer, intent(out) :: newtype, ierror
    end subroutine
    subroutine mpi_type_indexed(count, blocklengths, displacements, oldtype, newtype, ierror)
      integer, intent(in) :: count, blocklengths(*), displacements(*), oldtype
      integer, intent(out) :: newtype, ierror
    end subroutine
    subroutine mpi_type_create_struct(count, blocklengths, displacements, types, newtype, ierror)
      import :: MPI_ADDRESS_KIND
      integer, intent(in) :: count, blocklengths(*), types(*)
      integer(kind=MPI_ADDRESS_KIND), intent(in) :: displacements(*)
      integer, intent(out) :: newtype, ierror
    end subroutine
    subroutine mpi_type_commit(datatype, ierror)
      integer, intent(inout) :: datatype
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_type_free(datatype, ierror)
      integer, intent(inout) :: datatype
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_type_size(datatype, size, ierror)
      integer, intent(in) :: datatype
      integer, intent(out) :: size, ierror
    end subroutine
    subroutine mpi_type_get_extent(datatype, lb, extent, ierror)
      import :: MPI_ADDRESS_KIND
      integer, intent(in) :: datatype
      integer(kind=MPI_ADDRESS_KIND), intent(out) :: lb, extent
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_op_create(user_fn, commute, op, ierror)
      external :: user_fn
      logical, intent(in) :: commute
      integer, intent(out) :: op, ierror
    end subroutine
    subroutine mpi_op_free(op, ierror)
      integer, intent(inout) :: op
      integer, intent(out) :: ierror
    end subroutine

    ! Requests and probes.
    subroutine mpi_wait(request, status, ierror)
      integer, intent(inout) :: request
      integer :: status(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_test(request, flag, status, ierror)
      integer, intent(inout) :: request
      logical, intent(out) :: flag
      integer :: status(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_waitall(count, requests, statuses, ierror)
      integer, intent(in) :: count
      integer, intent(inout) :: requests(*)
      integer :: statuses(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_testall(count, requests, flag, statuses, ierror)
      integer, intent(in) :: count
      integer, intent(inout) :: requests(*)
      logical, intent(out) :: flag
      integer :: statuses(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_waitany(count, requests, index, status, ierror)
      integer, intent(in) :: count
      integer, intent(inout) :: requests(*)
      integer, intent(out) :: index
      integer :: status(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_testany(count, requests, index, flag, status, ierror)
      integer, intent(in) :: count
      integer, intent(inout) :: requests(*)
      integer, intent(out) :: index
      logical, intent(out) :: flag
      integer :: status(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_waitsome(incount, requests, outcount, indices, statuses, ierror)
      integer, intent(in) :: incount
      integer, intent(inout) :: requests(*)
      integer, intent(out) :: outcount, indices(*)
      integer :: statuses(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_testsome(incount, requests, outcount, indices, statuses, ierror)
      integer, intent(in) :: incount
      integer, intent(inout) :: requests(*)
      integer, intent(out) :: outcount, indices(*)
      integer :: statuses(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_probe(source, tag, comm, status, ierror)
      integer, intent(in) :: source, tag, comm
      integer :: status(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_iprobe(source, tag, comm, flag, status, ierror)
      integer, intent(in) :: source, tag, comm
      logical, intent(out) :: flag
      integer :: status(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_get_count(status, datatype, count, ierror)
      integer, intent(in) :: status(*), datatype
      integer, intent(out) :: count, ierror
    end subroutine
    subroutine mpi_start(request, ierror)
      integer, intent(inout) :: request
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_startall(count, requests, ierror)
      integer, intent(in) :: count
      integer, intent(inout) :: requests(*)
      integer, intent(out) :: ierror
    end subroutine
    subroutine mpi_request_free(request, ierror)
      integer, intent(inout) :: request
      integer, intent(out) :: ierror
    end subroutine
  end interface
end module mpi
