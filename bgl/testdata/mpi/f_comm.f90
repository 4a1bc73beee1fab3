! f_comm: communicators, groups, Cartesian topologies and the environment from Fortran
! (USE mpi): COMM_SPLIT, COMM_DUP, COMM_COMPARE, COMM_GROUP, GROUP_INCL/EXCL/
! TRANSLATE_RANKS/COMPARE/SIZE/RANK/FREE, COMM_CREATE, COMM_FREE; DIMS_CREATE,
! CART_CREATE with LOGICAL periods, CART_COORDS, CART_RANK, CART_SHIFT, CART_GET,
! CARTDIM_GET, TOPO_TEST and CART_SUB; INITIALIZED, FINALIZED, GET_VERSION,
! GET_PROCESSOR_NAME, WTIME and WTICK (checked, not printed: they differ by machine).
program f_comm
  use mpi
  implicit none
  integer :: rank, size, ierr, failures = 0
  integer :: half, hrank, hsize, dup, res, world_group, evens, odds, newcomm, n, i
  integer :: cart, rowcomm, src, dst, ndims, topo
  integer :: dims(2), coords(2), dims_out(2), ranks(4), trans(4)
  logical :: periods(2), periods_out(2), remain(2), flag
  character(len=MPI_MAX_PROCESSOR_NAME) :: name
  double precision :: t0, t1
  character(len=200) :: line

  call MPI_Initialized(flag, ierr)
  call check(.not. flag, 'not initialized before MPI_Init')
  call MPI_Init(ierr)
  call MPI_Initialized(flag, ierr)
  call check(flag, 'initialized after MPI_Init')
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call MPI_Get_version(i, n, ierr)
  call check(i == MPI_VERSION .and. n == MPI_SUBVERSION .and. i >= 3, 'get_version')
  call MPI_Get_processor_name(name, n, ierr)
  call check(n > 0 .and. len_trim(name) == n, 'processor name blank-padded')
  t0 = MPI_Wtime()
  t1 = MPI_Wtime()
  call check(t1 >= t0 .and. MPI_Wtick() > 0, 'wtime and wtick')

  ! Halves by parity, ordered by descending world rank.
  call MPI_Comm_split(MPI_COMM_WORLD, mod(rank, 2), -rank, half, ierr)
  call MPI_Comm_rank(half, hrank, ierr)
  call MPI_Comm_size(half, hsize, ierr)
  call MPI_Allreduce(rank, n, 1, MPI_INTEGER, MPI_SUM, half, ierr)
  call say('half '//itoa(mod(rank, 2))//': rank '//itoa(hrank)//' of '//itoa(hsize)//', sum of world ranks '//itoa(n))
  call MPI_Comm_dup(MPI_COMM_WORLD, dup, ierr)
  call MPI_Comm_compare(MPI_COMM_WORLD, dup, res, ierr)
  call check(res == MPI_CONGRUENT, 'dup is congruent')
  call MPI_Comm_compare(dup, dup, res, ierr)
  call check(res == MPI_IDENT, 'a communicator is identical to itself')
  call MPI_Comm_free(dup, ierr)
  call check(dup == MPI_COMM_NULL, 'comm_free sets MPI_COMM_NULL')

  ! Groups: the even world ranks, then the others; a communicator of the evens.
  call MPI_Comm_group(MPI_COMM_WORLD, world_group, ierr)
  n = 0
  do i = 0, min(size - 1, 7), 2
    n = n + 1
    ranks(n) = i
  end do
  call MPI_Group_incl(world_group, n, ranks, evens, ierr)
  call MPI_Group_excl(world_group, n, ranks, odds, ierr)
  call MPI_Group_size(odds, i, ierr)
  call MPI_Group_rank(evens, hrank, ierr)
  call MPI_Group_translate_ranks(evens, n, [(i, i = 0, n - 1)], world_group, trans, ierr)
  if (hrank == MPI_UNDEFINED) then
    line = 'none'
  else
    line = itoa(hrank)
  end if
  call say('evens '//itoa(n)//', odds '//itoa(i)//', my rank among evens '//trim(line)//', evens in world ' &
           //itoa(trans(1))//'..'//itoa(trans(n)))
  call MPI_Group_compare(evens, evens, res, ierr)
  call check(res == MPI_IDENT, 'group identical to itself')
  call MPI_Comm_create(MPI_COMM_WORLD, evens, newcomm, ierr)
  if (newcomm /= MPI_COMM_NULL) then
    call MPI_Comm_size(newcomm, n, ierr)
    call say('in the evens communicator of '//itoa(n))
    call MPI_Comm_free(newcomm, ierr)
  end if
  call MPI_Group_free(evens, ierr)
  call MPI_Group_free(odds, ierr)
  call MPI_Group_free(world_group, ierr)
  call check(world_group == MPI_GROUP_NULL, 'group_free sets MPI_GROUP_NULL')

  ! A periodic 2-D grid over all ranks.
  dims = 0
  call MPI_Dims_create(size, 2, dims, ierr)
  periods = [.true., .false.]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call MPI_Topo_test(cart, topo, ierr)
  call MPI_Cartdim_get(cart, ndims, ierr)
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Cart_rank(cart, coords, n, ierr)
  call check(topo == MPI_CART .and. ndims == 2 .and. n == rank, 'topo_test, cartdim_get, cart_rank')
  call MPI_Cart_get(cart, 2, dims_out, periods_out, coords, ierr)
  call check(all(dims_out == dims) .and. periods_out(1) .and. .not. periods_out(2), 'cart_get')
  call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  write (line, '(a, 2i3, a, 2i3, a, 2i4)') 'grid', dims, ' at', coords, ' shift in dim 0:', src, dst
  call say(trim(line))
  call MPI_Cart_shift(cart, 1, 1, src, dst, ierr)
  call check((coords(2) > 0 .eqv. src /= MPI_PROC_NULL), 'non-periodic dimension ends in MPI_PROC_NULL')
  remain = [.false., .true.]
  call MPI_Cart_sub(cart, remain, rowcomm, ierr)
  call MPI_Comm_size(rowcomm, n, ierr)
  call MPI_Allreduce(rank, i, 1, MPI_INTEGER, MPI_MAX, rowcomm, ierr)
  call say('row of '//itoa(n)//', highest world rank in it '//itoa(i))
  call MPI_Comm_free(rowcomm, ierr)
  call MPI_Comm_free(cart, ierr)
  call MPI_Comm_free(half, ierr)

  if (failures == 0) call say('ok')
  call MPI_Finalize(ierr)
  call MPI_Finalized(flag, ierr)
  if (.not. flag) print *, 'MPI_Finalized is false after MPI_Finalize'

contains
  include 'fcorpus.inc'
end program f_comm
