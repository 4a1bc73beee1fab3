! f_types: Fortran datatypes and operations (USE mpi). Reductions on COMPLEX and DOUBLE
! COMPLEX (SUM, PROD), LOGICAL (LAND, LOR, LXOR), the pair types 2INTEGER, 2REAL and
! 2DOUBLE_PRECISION (MINLOC, MAXLOC, ties to the lower index), INTEGER bit operations, the
! sized INTEGER2/INTEGER8/REAL8 and CHARACTER; derived types over Fortran's column-major
! arrays (a row of a matrix as TYPE_VECTOR, TYPE_CONTIGUOUS, TYPE_INDEXED), a
! TYPE_CREATE_STRUCT of absolute addresses sent from MPI_BOTTOM, TYPE_SIZE and
! TYPE_GET_EXTENT; and user operations written in Fortran (OP_CREATE), commutative or not.
program f_types
  use mpi
  implicit none
  integer :: rank, size, ierr, failures = 0
  integer :: i, j, n, rowtype, pairtype, idxtype, structtype, opcat, opmax
  external :: catdigits, absmax
  integer :: blens(2), idispl(2), types(2)
  integer(kind=MPI_ADDRESS_KIND) :: addrs(2), lb, extent
  complex :: c, csum, cprod
  double complex :: z, zsum
  logical :: l(3), lres(3), lor(3), lxor(3)
  integer :: i2(2), i2res(2), bits, bres
  real :: r2(2, 2), r2res(2, 2)
  double precision :: d2(2), d2res(2)
  integer(kind=2) :: short, shortsum
  integer(kind=8) :: big, bigsum
  real(kind=8) :: r8, r8max
  character(len=12) :: word
  integer :: a(4, 3), row(3), cat(2), catres(2)
  double precision :: x
  integer :: k
  character(len=200) :: line

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)

  c = cmplx(real(rank + 1), 1.0)
  call MPI_Allreduce(c, csum, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(c, cprod, 1, MPI_COMPLEX, MPI_PROD, MPI_COMM_WORLD, ierr)
  z = dcmplx(0.5d0 * rank, -1d0)
  call MPI_Reduce(z, zsum, 1, MPI_DOUBLE_COMPLEX, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  write (line, '(a, 2f8.1, a, 2es12.4)') 'complex sum', csum, ' prod', cprod
  call say(trim(line))
  if (rank == 0) then
    write (line, '(a, 2f8.2)') 'double complex sum', zsum
    call say(trim(line))
  end if

  l = [mod(rank, 2) == 0, .true., rank == 1]
  call MPI_Allreduce(l, lres, 3, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(l, lor, 3, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(l, lxor, 3, MPI_LOGICAL, MPI_LXOR, MPI_COMM_WORLD, ierr)
  write (line, '(a, 3l2, a, 3l2, a, 3l2)') 'land', lres, ' lor', lor, ' lxor', lxor
  call say(trim(line))

  i2 = [mod(rank * 5, 3), rank]
  call MPI_Allreduce(i2, i2res, 1, MPI_2INTEGER, MPI_MINLOC, MPI_COMM_WORLD, ierr)
  r2(:, 1) = [real(mod(rank * 7, 4)), real(rank)]
  r2(:, 2) = [-real(mod(rank, 3)), real(rank)]
  call MPI_Allreduce(r2, r2res, 2, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD, ierr)
  d2 = [dble(mod(rank + 2, 3)), dble(rank)]
  call MPI_Reduce(d2, d2res, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, 0, MPI_COMM_WORLD, ierr)
  write (line, '(a, 2i3, a, 4f5.1)') 'minloc', i2res, ' maxloc', r2res
  call say(trim(line))
  if (rank == 0) then
    write (line, '(a, 2f5.1)') '2double minloc', d2res
    call say(trim(line))
  end if

  bits = ishft(1, mod(rank, 5)) + 64
  call MPI_Allreduce(bits, bres, 1, MPI_INTEGER, MPI_BOR, MPI_COMM_WORLD, ierr)
  n = bres
  call MPI_Allreduce(bits, bres, 1, MPI_INTEGER, MPI_BAND, MPI_COMM_WORLD, ierr)
  j = bres
  call MPI_Allreduce(bits, bres, 1, MPI_INTEGER, MPI_BXOR, MPI_COMM_WORLD, ierr)
  short = int(rank * 1000, 2)
  call MPI_Allreduce(short, shortsum, 1, MPI_INTEGER2, MPI_SUM, MPI_COMM_WORLD, ierr)
  big = 3000000000_8 * (rank + 1)
  call MPI_Allreduce(big, bigsum, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
  r8 = 1.5d0 * rank
  call MPI_Allreduce(r8, r8max, 1, MPI_REAL8, MPI_MAX, MPI_COMM_WORLD, ierr)
  write (line, '(a, 3i5, a, i7, a, i12, a, f6.1)') 'bor band bxor', n, j, bres, ' integer2', shortsum, &
    ' integer8', bigsum, ' real8 max', r8max
  call say(trim(line))

  word = ''
  if (rank == 0) word = 'fortran-mpi!'
  call MPI_Bcast(word, 12, MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)
  call say('character '//word)

  ! A(4,3) is stored by columns: row 2 is A(2,1), A(2,2), A(2,3), 4 integers apart.
  do j = 1, 3
    do i = 1, 4
      a(i, j) = 10 * i + j + 100 * rank
    end do
  end do
  call MPI_Type_vector(3, 1, 4, MPI_INTEGER, rowtype, ierr)
  call MPI_Type_commit(rowtype, ierr)
  call MPI_Type_size(rowtype, n, ierr)
  call MPI_Type_get_extent(rowtype, lb, extent, ierr)
  write (line, '(a, i0, a, i0, a, i0)') 'row type size ', n, ' lb ', lb, ' extent ', extent
  call say(trim(line))
  row = -1
  call MPI_Sendrecv(a(2, 1), 1, rowtype, mod(rank + 1, size), 1, row, 3, MPI_INTEGER, &
                    mod(rank + size - 1, size), 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call say('row 2 of the left neighbour '//itoa(row(1))//' '//itoa(row(2))//' '//itoa(row(3)))
  call MPI_Type_contiguous(2, MPI_INTEGER, pairtype, ierr)
  call MPI_Type_commit(pairtype, ierr)
  blens = [1, 2]
  idispl = [0, 2]
  call MPI_Type_indexed(2, blens, idispl, pairtype, idxtype, ierr)
  call MPI_Type_commit(idxtype, ierr)
  if (rank == 0) a = 0
  call MPI_Bcast(a, 1, idxtype, size - 1, MPI_COMM_WORLD, ierr)
  call say('indexed bcast '//itoa(a(1, 1))//' '//itoa(a(2, 1))//' '//itoa(a(1, 2))//' '//itoa(a(4, 2)) &
           //' untouched '//itoa(a(3, 1)))

  ! A struct of two unrelated variables by absolute address, sent from MPI_BOTTOM.
  x = rank + 0.25d0
  k = rank * 7
  call MPI_Get_address(x, addrs(1), ierr)
  call MPI_Get_address(k, addrs(2), ierr)
  blens = [1, 1]
  types = [MPI_DOUBLE_PRECISION, MPI_INTEGER]
  call MPI_Type_create_struct(2, blens, addrs, types, structtype, ierr)
  call MPI_Type_commit(structtype, ierr)
  call MPI_Bcast(MPI_BOTTOM, 1, structtype, 0, MPI_COMM_WORLD, ierr)
  write (line, '(a, f5.2, a, i0)') 'struct from rank 0: ', x, ' ', k
  call say(trim(line))
  call MPI_Type_free(structtype, ierr)
  call MPI_Type_free(idxtype, ierr)
  call MPI_Type_free(pairtype, ierr)
  call MPI_Type_free(rowtype, ierr)
  call check(rowtype == MPI_DATATYPE_NULL, 'type_free sets MPI_DATATYPE_NULL')

  ! User operations: a non-commutative concatenation of decimal digits, and a maximum.
  call MPI_Op_create(catdigits, .false., opcat, ierr)
  call MPI_Op_create(absmax, .true., opmax, ierr)
  cat = [mod(rank, 9) + 1, 10]
  call MPI_Allreduce(cat, catres, 1, MPI_2INTEGER, opcat, MPI_COMM_WORLD, ierr)
  i = (3 * rank - 10) * (-1)**rank ! magnitudes differ: no tie to break
  call MPI_Reduce(i, j, 1, MPI_INTEGER, opmax, 0, MPI_COMM_WORLD, ierr)
  call say('user op concatenation '//itoa(catres(1)))
  if (rank == 0) call say('user op largest magnitude '//itoa(j))
  call MPI_Op_free(opcat, ierr)
  call MPI_Op_free(opmax, ierr)
  call check(opcat == MPI_OP_NULL, 'op_free sets MPI_OP_NULL')

  if (failures == 0) call say('ok')
  call MPI_Finalize(ierr)

contains
  include 'fcorpus.inc'
end program f_types

! catdigits combines (digits, 10**ndigits) pairs, in op inout = in's digits then inout's:
! the result of the reduction lists the ranks' digits in rank order.
subroutine catdigits(invec, inoutvec, len, datatype)
  use mpi
  implicit none
  integer, intent(in) :: len, datatype
  integer, intent(in) :: invec(2, len)
  integer, intent(inout) :: inoutvec(2, len)
  integer :: i
  if (datatype /= MPI_2INTEGER) stop 'catdigits: not MPI_2INTEGER'
  do i = 1, len
    inoutvec(1, i) = invec(1, i) * inoutvec(2, i) + inoutvec(1, i)
    inoutvec(2, i) = invec(2, i) * inoutvec(2, i)
  end do
end subroutine catdigits

! absmax keeps the value of largest magnitude.
subroutine absmax(invec, inoutvec, len, datatype)
  use mpi
  implicit none
  integer, intent(in) :: len, datatype
  integer, intent(in) :: invec(len)
  integer, intent(inout) :: inoutvec(len)
  integer :: i
  if (datatype /= MPI_INTEGER) stop 'absmax: not MPI_INTEGER'
  do i = 1, len
    if (abs(invec(i)) > abs(inoutvec(i))) inoutvec(i) = invec(i)
  end do
end subroutine absmax
