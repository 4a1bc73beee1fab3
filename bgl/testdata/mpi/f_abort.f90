! f_abort (negative): after a barrier the last rank calls MPI_ABORT(MPI_COMM_WORLD, 5) while
! every other rank waits in a receive that is never matched. The job must end with status 5
! and the lines printed before the barrier.
program f_abort
  use mpi
  implicit none
  integer :: rank, size, ierr, failures = 0, v

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call say('before the barrier of '//itoa(size)//' ranks')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == size - 1) call MPI_Abort(MPI_COMM_WORLD, 5, ierr)
  call MPI_Recv(v, 1, MPI_INTEGER, size - 1, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call say('unreachable')
  call check(failures == 0, 'no failures')
  call MPI_Finalize(ierr)

contains
  include 'fcorpus.inc'
end program f_abort
