! f_p2p: point to point from Fortran (USE mpi): blocking sends of every mode with tags and
! MPI_ANY_SOURCE, the status array (MPI_SOURCE, MPI_TAG, MPI_GET_COUNT), MPI_STATUS_IGNORE,
! nonblocking requests completed by WAIT, WAITALL, WAITANY, TESTANY, WAITSOME and TEST
! (indices counted from 1), SENDRECV and SENDRECV_REPLACE around the ring, PROBE and
! IPROBE, MPI_PROC_NULL, and persistent requests (SEND_INIT, RECV_INIT, STARTALL).
program f_p2p
  use mpi
  implicit none
  integer :: rank, size, ierr, failures = 0
  integer :: right, left, i, n, idx, outcount
  integer :: status(MPI_STATUS_SIZE), statuses(MPI_STATUS_SIZE, 4)
  integer :: reqs(4), indices(4), vals(4), buf(8), got(8)
  double precision :: d(3), dgot(3)
  logical :: flag
  integer, allocatable :: space(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  right = mod(rank + 1, size)
  left = mod(rank + size - 1, size)

  ! Every rank but 0 sends its rank twice (tags 1 and 2); rank 0 takes them from anyone.
  if (rank == 0) then
    do i = 1, 2 * (size - 1)
      call MPI_Recv(n, 1, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, status, ierr)
      call check(n == status(MPI_SOURCE), 'payload names its source')
      vals(1) = status(MPI_TAG)
      call check(vals(1) == 1 .or. vals(1) == 2, 'tag 1 or 2')
    end do
    call say('received '//itoa(2 * (size - 1))//' messages from any source')
  else
    call MPI_Send(rank, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, ierr)
    call MPI_Ssend(rank, 1, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, ierr)
  end if

  ! Three doubles to the right with Rsend after a barrier (the receive is posted first).
  d = [rank + 0.25d0, rank + 0.5d0, rank + 0.75d0]
  call MPI_Irecv(dgot, 3, MPI_DOUBLE_PRECISION, left, 5, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Rsend(d, 3, MPI_DOUBLE_PRECISION, right, 5, MPI_COMM_WORLD, ierr)
  call MPI_Wait(reqs(1), status, ierr)
  call MPI_Get_count(status, MPI_DOUBLE_PRECISION, n, ierr)
  call check(reqs(1) == MPI_REQUEST_NULL, 'wait frees the request')
  write (*, '(a, i0, a, i0, a, 3f6.2)') 'rank ', rank, ': from ', status(MPI_SOURCE), ' count 3: ', dgot
  flush (6)
  call check(n == 3, 'get_count 3')

  ! Four nonblocking receives from the left, completed in three ways.
  do i = 1, 4
    call MPI_Irecv(got(i), 1, MPI_INTEGER, left, 10 + i, MPI_COMM_WORLD, reqs(i), ierr)
  end do
  do i = 4, 1, -1
    buf(i) = 100 * rank + i
    call MPI_Send(buf(i), 1, MPI_INTEGER, right, 10 + i, MPI_COMM_WORLD, ierr)
  end do
  call MPI_Waitany(4, reqs, idx, status, ierr)
  call check(idx >= 1 .and. idx <= 4, 'waitany index from 1')
  call check(status(MPI_TAG) == 10 + idx, 'waitany status tag')
  call MPI_Waitsome(4, reqs, outcount, indices, statuses, ierr)
  do i = 1, outcount
    call check(statuses(MPI_TAG, i) == 10 + indices(i), 'waitsome indices from 1')
  end do
  call MPI_Waitall(4, reqs, MPI_STATUSES_IGNORE, ierr)
  ! Over inactive requests flag is true and index MPI_UNDEFINED (MPICH 4.0.2's Fortran
  ! binding adds 1 to it: only the flag is checked).
  call MPI_Testany(4, reqs, idx, flag, status, ierr)
  call check(flag, 'testany over null requests')
  call say('ring of four: '//itoa(got(1))//' '//itoa(got(2))//' '//itoa(got(3))//' '//itoa(got(4)))

  ! Sendrecv and Sendrecv_replace around the ring.
  call MPI_Sendrecv(rank, 1, MPI_INTEGER, right, 20, n, 1, MPI_INTEGER, left, 20, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  buf(1:2) = [rank, -rank]
  call MPI_Sendrecv_replace(buf, 2, MPI_INTEGER, right, 21, left, 21, MPI_COMM_WORLD, status, ierr)
  call say('sendrecv '//itoa(n)//', replaced '//itoa(buf(1))//' '//itoa(buf(2)))

  ! Probe, then receive what it announced; Iprobe until a message shows; PROC_NULL.
  call MPI_Isend(buf, 1 + mod(rank, 3), MPI_INTEGER, right, 30, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Probe(left, 30, MPI_COMM_WORLD, status, ierr)
  call MPI_Get_count(status, MPI_INTEGER, n, ierr)
  call MPI_Recv(got, n, MPI_INTEGER, left, 30, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call say('probed '//itoa(n)//' integers')
  call MPI_Isend(rank, 1, MPI_INTEGER, right, 31, MPI_COMM_WORLD, reqs(1), ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Iprobe(MPI_ANY_SOURCE, 31, MPI_COMM_WORLD, flag, status, ierr)
  end do
  call MPI_Recv(n, 1, MPI_INTEGER, status(MPI_SOURCE), 31, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  flag = .false.
  do while (.not. flag)
    call MPI_Test(reqs(1), flag, MPI_STATUS_IGNORE, ierr)
  end do
  call MPI_Recv(n, 1, MPI_INTEGER, MPI_PROC_NULL, 32, MPI_COMM_WORLD, status, ierr)
  call check(status(MPI_SOURCE) == MPI_PROC_NULL, 'receive from MPI_PROC_NULL')

  ! Persistent requests, started twice; a buffered send with an attached buffer.
  call MPI_Send_init(buf, 2, MPI_INTEGER, right, 40, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Recv_init(got, 2, MPI_INTEGER, left, 40, MPI_COMM_WORLD, reqs(2), ierr)
  do i = 1, 2
    buf(1:2) = [rank * 10 + i, i]
    call MPI_Startall(2, reqs, ierr)
    call MPI_Waitall(2, reqs, statuses, ierr)
    call say('persistent round '//itoa(i)//': '//itoa(got(1))//' '//itoa(got(2)))
  end do
  call MPI_Request_free(reqs(1), ierr)
  call MPI_Request_free(reqs(2), ierr)
  allocate (space(64))
  call MPI_Buffer_attach(space, 256, ierr)
  call MPI_Irecv(n, 1, MPI_INTEGER, left, 50, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Bsend(rank, 1, MPI_INTEGER, right, 50, MPI_COMM_WORLD, ierr)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE, ierr)
  call say('bsend from '//itoa(n))
  call MPI_Buffer_detach(space, n, ierr)
  call check(n == 256, 'detach gives the size back')

  if (failures == 0) call say('ok')
  call MPI_Finalize(ierr)

contains
  include 'fcorpus.inc'
end program f_p2p
