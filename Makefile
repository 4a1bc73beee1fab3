# Top-level build helpers. The Go code needs only `go build ./cmd/dpclsh`; the prebuilt
# PowerPC target binaries are committed, and `make apps` rebuilds every one of them with
# the cross compiler (powerpc-linux-gnu-gcc, DESIGN.md section 7) by running each
# directory's own Makefile.

# libmpi (bgl/target) comes before the MPI programs that link it.
APP_DIRS = ppc/testdata/isa ppc/testdata/exec bgl/target bgl/testdata bgl/testdata/mpi \
	probes/testdata runtime/testdata examples/apps

.PHONY: all apps dpclsh clean-apps

all: dpclsh

dpclsh:
	go build -o dpclsh ./cmd/dpclsh

apps:
	@set -e; for d in $(APP_DIRS); do $(MAKE) -C $$d; done

clean-apps:
	@set -e; for d in $(APP_DIRS); do $(MAKE) -C $$d clean; done
