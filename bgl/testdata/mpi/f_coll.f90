! f_coll: the collectives from Fortran (USE mpi) on INTEGER, REAL and DOUBLE PRECISION
! arrays: BARRIER, BCAST, REDUCE, ALLREDUCE (also with MPI_IN_PLACE), GATHER(V),
! SCATTER(V), ALLGATHER(V), ALLTOALL(V), REDUCE_SCATTER, SCAN and EXSCAN. Values are
! small integers and halves, so every sum is exact whatever order the library adds in.
program f_coll
  use mpi
  implicit none
  integer :: rank, size, ierr, failures = 0
  integer :: i, root, n
  integer, allocatable :: counts(:), displs(:), all(:), mine(:), sendc(:), sdispl(:), recvc(:), rdispl(:)
  integer :: iv(4), isum(4)
  real :: rv(3), rmax(3)
  double precision :: dv(2), dsum(2), dscan(2)
  character(len=200) :: line

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  root = size - 1
  allocate (counts(size), displs(size), sendc(size), sdispl(size), recvc(size), rdispl(size))

  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  iv = 0
  if (rank == root) iv = [7, -3, 12, 40]
  call MPI_Bcast(iv, 4, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  write (line, '(a, 4i4)') 'bcast', iv
  call say(trim(line))

  iv = [rank, 2 * rank, rank * rank, 1]
  call MPI_Reduce(iv, isum, 4, MPI_INTEGER, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    write (line, '(a, 4i6)') 'reduce sum', isum
    call say(trim(line))
  end if
  rv = [real(rank) + 0.5, -real(rank), real(mod(rank * 5, 7))]
  call MPI_Allreduce(rv, rmax, 3, MPI_REAL, MPI_MAX, MPI_COMM_WORLD, ierr)
  write (line, '(a, 3f7.2)') 'allreduce max', rmax
  call say(trim(line))
  dv = [rank + 0.5d0, 1d0]
  call MPI_Allreduce(MPI_IN_PLACE, dv, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  write (line, '(a, 2f9.2)') 'allreduce in place', dv
  call say(trim(line))
  iv(1) = rank + 1
  if (rank == 0) then
    call MPI_Reduce(MPI_IN_PLACE, iv, 1, MPI_INTEGER, MPI_PROD, 0, MPI_COMM_WORLD, ierr)
    call say('reduce in place prod '//itoa(iv(1)))
  else
    call MPI_Reduce(iv, isum, 1, MPI_INTEGER, MPI_PROD, 0, MPI_COMM_WORLD, ierr)
  end if

  ! Gather and gatherv: rank r contributes r+1 values r*10+k.
  allocate (all(size * (size + 1) / 2), mine(size))
  do i = 1, rank + 1
    mine(i) = rank * 10 + i
  end do
  call MPI_Gather(mine, 1, MPI_INTEGER, counts, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  if (rank == root) call say('gather '//join(counts, size))
  do i = 1, size
    counts(i) = i
    displs(i) = (i - 1) * i / 2
  end do
  call MPI_Gatherv(mine, rank + 1, MPI_INTEGER, all, counts, displs, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call say('gatherv '//join(all, size * (size + 1) / 2))
  call MPI_Allgatherv(mine, rank + 1, MPI_INTEGER, all, counts, displs, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(size * (size + 1) / 2) == (size - 1) * 10 + size, 'allgatherv last element')
  call MPI_Allgather(rank * 3, 1, MPI_INTEGER, mine, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call say('allgather '//join(mine, size))

  ! Scatter and scatterv from root: rank r gets r*r, then r+1 values.
  do i = 1, size
    mine(i) = (i - 1) * (i - 1)
  end do
  call MPI_Scatter(mine, 1, MPI_INTEGER, n, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  do i = 1, size * (size + 1) / 2
    all(i) = 1000 + i
  end do
  iv = 0
  call MPI_Scatterv(all, counts, displs, MPI_INTEGER, mine, min(rank + 1, size), MPI_INTEGER, root, &
                    MPI_COMM_WORLD, ierr)
  call say('scatter '//itoa(n)//', scatterv '//join(mine, min(rank + 1, 4)))

  ! Alltoall: rank r sends r*100+d to rank d. Alltoallv: d+1 copies of r to rank d.
  do i = 1, size
    mine(i) = rank * 100 + (i - 1)
  end do
  call MPI_Alltoall(mine, 1, MPI_INTEGER, counts, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call say('alltoall '//join(counts, size))
  do i = 1, size
    sendc(i) = i
    sdispl(i) = (i - 1) * i / 2
    recvc(i) = rank + 1
    rdispl(i) = (i - 1) * (rank + 1)
  end do
  deallocate (all, mine)
  allocate (all(size * (size + 1) / 2), mine(size * (size + 1)))
  all = rank
  call MPI_Alltoallv(all, sendc, sdispl, MPI_INTEGER, mine, recvc, rdispl, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call say('alltoallv '//join(mine, size * (rank + 1)))

  ! Reduce_scatter: every rank gives 1..size*2; rank r keeps two sums.
  deallocate (all)
  allocate (all(2 * size))
  do i = 1, 2 * size
    all(i) = i + rank
  end do
  recvc = 2
  call MPI_Reduce_scatter(all, iv, recvc, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call say('reduce_scatter '//itoa(iv(1))//' '//itoa(iv(2)))

  ! Scan and exscan on doubles.
  dv = [rank + 1d0, 0.5d0]
  call MPI_Scan(dv, dscan, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  dsum = -1
  call MPI_Exscan(dv, dsum, 2, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) dsum = 0
  write (line, '(a, 2f8.2, a, 2f8.2)') 'scan', dscan, ' exscan', dsum
  call say(trim(line))

  if (failures == 0) call say('ok')
  call MPI_Finalize(ierr)

contains
  include 'fcorpus.inc'

  ! join lists the first n values separated by blanks.
  function join(v, n) result(s)
    integer, intent(in) :: v(:), n
    character(len=:), allocatable :: s
    integer :: k
    s = ''
    do k = 1, n
      if (k > 1) s = s//' '
      s = s//itoa(v(k))
    end do
  end function join
end program f_coll
