C     f77_ring: a FORTRAN 77 program (fixed form, INCLUDE 'mpif.h'). A vector of REALs goes
C     around the ring: each rank adds its rank to every element and passes it on (IRECV,
C     ISEND, WAITALL with MPI_STATUSES_IGNORE); then the ranks gather the vectors' sums on
C     rank 0, scatter them back, and reduce them (ALLREDUCE with MPI_IN_PLACE, REDUCE with
C     MPI_MAXLOC on 2REAL). Every value is a small integer, exact in any order.
      PROGRAM F77RING
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER N
      PARAMETER (N = 6)
      INTEGER RANK, NPROCS, IERR, I, LAP, RIGHT, LEFT, REQS(2)
      REAL VEC(N), TMP(N), TOTAL, SUMS(64), BACK, PAIR(2), BEST(2)
      CHARACTER*80 LINE
C
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, NPROCS, IERR)
      RIGHT = MOD(RANK + 1, NPROCS)
      LEFT = MOD(RANK + NPROCS - 1, NPROCS)
      DO 10 I = 1, N
         VEC(I) = REAL(I)
   10 CONTINUE
C
      DO 30 LAP = 1, 3
         CALL MPI_IRECV(TMP, N, MPI_REAL, LEFT, LAP, MPI_COMM_WORLD,
     &                  REQS(1), IERR)
         CALL MPI_ISEND(VEC, N, MPI_REAL, RIGHT, LAP, MPI_COMM_WORLD,
     &                  REQS(2), IERR)
         CALL MPI_WAITALL(2, REQS, MPI_STATUSES_IGNORE, IERR)
         DO 20 I = 1, N
            VEC(I) = TMP(I) + REAL(RANK)
   20    CONTINUE
   30 CONTINUE
      WRITE (LINE, 100) RANK, (INT(VEC(I)), I = 1, N)
  100 FORMAT ('rank ', I0, ': after 3 laps', 6I5)
      WRITE (*, '(A)') TRIM(LINE)
      FLUSH (6)
C
      TOTAL = 0.0
      DO 40 I = 1, N
         TOTAL = TOTAL + VEC(I)
   40 CONTINUE
      CALL MPI_GATHER(TOTAL, 1, MPI_REAL, SUMS, 1, MPI_REAL, 0,
     &                MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) THEN
         DO 50 I = 1, NPROCS
            SUMS(I) = SUMS(I) * 2.0
   50    CONTINUE
      END IF
      CALL MPI_SCATTER(SUMS, 1, MPI_REAL, BACK, 1, MPI_REAL, 0,
     &                 MPI_COMM_WORLD, IERR)
      WRITE (LINE, 110) RANK, INT(TOTAL), INT(BACK)
  110 FORMAT ('rank ', I0, ': sum', I6, ' doubled by rank 0', I6)
      WRITE (*, '(A)') TRIM(LINE)
      FLUSH (6)
C
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, TOTAL, 1, MPI_REAL, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      PAIR(1) = BACK
      PAIR(2) = REAL(RANK)
      CALL MPI_REDUCE(PAIR, BEST, 1, MPI_2REAL, MPI_MAXLOC, 0,
     &                MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) THEN
         WRITE (LINE, 120) INT(TOTAL), INT(BEST(1)), INT(BEST(2))
  120    FORMAT ('rank 0: total', I7, ', largest', I6, ' on rank', I3)
         WRITE (*, '(A)') TRIM(LINE)
         FLUSH (6)
      END IF
      CALL MPI_FINALIZE(IERR)
      END
