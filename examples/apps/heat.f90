! heat: a Fortran 90 MPI program (USE mpi). Jacobi iterations of the 1-D heat equation on
! a rod whose left end is held at 100 degrees and right end at 0.
!
! Usage: heat [points [iterations]]   (defaults 70 and 50)
!
! Rank 0 reads the arguments and broadcasts them (MPI_BCAST). The interior points are
! split in contiguous blocks over the ranks in order; each sweep exchanges one halo value
! with each neighbour (MPI_SENDRECV, with MPI_PROC_NULL past the ends) and replaces every
! point by the mean of its neighbours. Every iterations/10 sweeps MPI_ALLREDUCE gives the largest change
! (MAX, exact) and the heat in the rod (SUM, printed to 6 digits: a sum's last bits depend
! on the order MPI adds in). At the end MPI_GATHERV brings the rod to rank 0, which prints
! the temperature at six places exactly: every value is computed point by point with the
! same IEEE operations on every machine and rank count. A malformed argument ends every
! rank with status 2.
program heat
  use mpi
  implicit none
  integer :: rank, size, ierr, comm, left, right, n, iters, it, lo, cnt, i
  integer :: params(3)
  integer, allocatable :: counts(:), displs(:)
  double precision, allocatable :: u(:), v(:), rod(:)
  double precision :: change, maxchange, heat_mine, heat_all

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  if (rank == 0) call read_arguments(params)
  call MPI_Bcast(params, 3, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  if (params(3) /= 0) then
    call MPI_Finalize(ierr)
    call exit_with(2)
  end if
  n = params(1)
  iters = params(2)

  comm = MPI_COMM_WORLD
  left = rank - 1
  if (rank == 0) left = MPI_PROC_NULL
  right = rank + 1
  if (rank == size - 1) right = MPI_PROC_NULL
  call block(n, size, rank, lo, cnt)
  ! u(0) and u(cnt+1) are the halo: the neighbours' values, or the ends' temperatures.
  allocate (u(0:cnt + 1), v(0:cnt + 1))
  u = 0
  if (left == MPI_PROC_NULL) u(0) = 100
  if (rank == 0) then
    write (*, '(a, i0, a, i0, a, i0, a)') 'heat: ', size, ' ranks, ', n, ' points, ', iters, ' sweeps'
    flush (6)
  end if

  do it = 1, iters
    call MPI_Sendrecv(u(cnt), 1, MPI_DOUBLE_PRECISION, right, 1, u(0), 1, MPI_DOUBLE_PRECISION, left, 1, &
                      comm, MPI_STATUS_IGNORE, ierr)
    call MPI_Sendrecv(u(1), 1, MPI_DOUBLE_PRECISION, left, 2, u(cnt + 1), 1, MPI_DOUBLE_PRECISION, right, 2, &
                      comm, MPI_STATUS_IGNORE, ierr)
    change = 0
    do i = 1, cnt
      v(i) = (u(i - 1) + u(i + 1)) / 2
      change = max(change, abs(v(i) - u(i)))
    end do
    u(1:cnt) = v(1:cnt)
    if (mod(it, max(iters / 10, 1)) == 0 .or. it == iters) then
      heat_mine = sum(u(1:cnt))
      call MPI_Allreduce(change, maxchange, 1, MPI_DOUBLE_PRECISION, MPI_MAX, comm, ierr)
      call MPI_Allreduce(heat_mine, heat_all, 1, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
      if (rank == 0) then
        write (*, '(a, i5, a, es22.15, a, es12.5)') 'sweep', it, ': largest change', maxchange, ', heat', heat_all
        flush (6)
      end if
    end if
  end do

  allocate (counts(size), displs(size), rod(n))
  do i = 1, size
    call block(n, size, i - 1, displs(i), counts(i))
  end do
  call MPI_Gatherv(u(1), cnt, MPI_DOUBLE_PRECISION, rod, counts, displs, MPI_DOUBLE_PRECISION, 0, comm, ierr)
  if (rank == 0) then
    do i = 1, n, max(n / 5, 1)
      write (*, '(a, i4, a, f24.20)') 'u(', i, ') =', rod(i)
    end do
    write (*, '(a, i4, a, f24.20)') 'u(', n, ') =', rod(n)
    flush (6)
  end if
  call MPI_Finalize(ierr)

contains

  ! block gives part k of p its share of n points: from lo (0-based), cnt of them; the
  ! first mod(n, p) parts get one more.
  subroutine block(n, p, k, lo, cnt)
    integer, intent(in) :: n, p, k
    integer, intent(out) :: lo, cnt
    cnt = n / p
    lo = k * cnt + min(k, mod(n, p))
    if (k < mod(n, p)) cnt = cnt + 1
  end subroutine block

  ! read_arguments parses points and iterations into p(1:2); p(3) is 0, or 1 after an
  ! error (printed here).
  subroutine read_arguments(p)
    integer, intent(out) :: p(3)
    integer, parameter :: lims(2, 2) = reshape([1, 1000000, 0, 1000000], [2, 2])
    character(len=64) :: arg
    integer :: k, st, v
    p = [70, 50, 0]
    do k = 1, min(command_argument_count(), 2)
      call get_command_argument(k, arg)
      read (arg, *, iostat=st) v
      if (st /= 0 .or. v < lims(1, k) .or. v > lims(2, k) .or. verify(trim(arg), '0123456789') /= 0) then
        write (0, '(a, i0, a, i0, a, i0, 3a)') 'heat: argument ', k, ': want an integer in [', lims(1, k), &
          ', ', lims(2, k), '], got "', trim(arg), '"'
        p(3) = 1
        return
      end if
      p(k) = v
    end do
  end subroutine read_arguments

  ! exit_with ends the program with status st and no message.
  subroutine exit_with(st)
    integer, intent(in) :: st
    interface
      subroutine c_exit(status) bind(c, name='exit')
        use, intrinsic :: iso_c_binding, only: c_int
        integer(c_int), value :: status
      end subroutine c_exit
    end interface
    call c_exit(st)
  end subroutine exit_with
end program heat
