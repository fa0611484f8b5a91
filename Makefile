# draguard: the two commands of the README, plus benchmarks and fuzzing.
#   make demo   install dependencies, build, run the demo on the bundled examples
#   make test   install dependencies (and clang), build with ASan+UBSan and
#               -Werror, run every test
#   make bench  release build with benchmarks, run them (see docs/benchmarks.md)
#   make fuzz   clang + libFuzzer build, fuzz every target for FUZZ_SECONDS each
#   make image  the container image (Dockerfile) as draguard:dev, checked, with its size
#               (scripts/build-image: docker, or podman with locally made base images)
#   make release-pgo  the profile-guided release build (scripts/build-pgo, build/release-pgo):
#               what install, scripts/release and the image ship
#   make install  the profile-guided release as $(DESTDIR)$(PREFIX)/bin/draguard, with
#               kubectl-draguard beside it (a symlink: kubectl runs `kubectl draguard` through it),
#               kubectl_complete-draguard (a symlink: `kubectl draguard <TAB>`) and the
#               bash and zsh completion scripts
JOBS ?= $(shell nproc)
PREFIX ?= /usr/local
DESTDIR ?=
FUZZ_SECONDS ?= 60
CMAKE_GEN := -G Ninja

.PHONY: all deps build release-pgo demo test bench fuzz image install clean

all: build

deps:
	@scripts/install-deps

build: deps
	cmake -S . -B build/release $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF
	cmake --build build/release -j $(JOBS)

# Twice the compile of `build` plus ~30 s of training, for 17-25% more webhook requests a second
# on specs not seen before (docs/benchmarks.md, "Profile-guided build"); `make demo` keeps the
# quicker plain build.
release-pgo: deps
	JOBS=$(JOBS) scripts/build-pgo build/release-pgo

demo: build
	@scripts/demo build/release/cli/draguard

# The test build compiles with clang: under ASan+UBSan it needs half the CPU of gcc for the same
# tree (docs/benchmarks.md, "Build and test time"); `make demo` builds the release with gcc.
test:
	@scripts/install-deps --test
	CC=clang CXX=clang++ cmake -S . -B build/test $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug \
	  -DDRAGUARD_SANITIZE=address,undefined -DDRAGUARD_WERROR=ON -DBUILD_TESTING=ON \
	  -DDRAGUARD_UNITY_BUILD=ON -DCMAKE_CXX_FLAGS="-O1" -DCMAKE_CXX_FLAGS_DEBUG="-g1"
	cmake --build build/test -j $(JOBS)
	cd build/test && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest -j $(JOBS) --output-on-failure --timeout 600

bench:
	@scripts/install-deps --bench
	cmake -S . -B build/bench $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release \
	  -DDRAGUARD_BUILD_BENCHMARKS=ON -DBUILD_TESTING=OFF
	cmake --build build/bench -j $(JOBS)
	@scripts/run-benchmarks build/bench

fuzz:
	@scripts/install-deps --fuzz
	CC=clang CXX=clang++ cmake -S . -B build/fuzz $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DDRAGUARD_BUILD_FUZZERS=ON -DBUILD_TESTING=OFF -DDRAGUARD_FUZZ_SECONDS=$(FUZZ_SECONDS)
	cmake --build build/fuzz -j $(JOBS) --target fuzz

image:
	@scripts/build-image --tag draguard:dev

# kubectl finds plugins as executables named kubectl-<name> on PATH and execs them with that
# path as argv[0], which is how draguard knows to print "kubectl draguard" in its usage. For
# `kubectl draguard <TAB>` kubectl (1.26+) runs kubectl_complete-draguard from PATH with the
# words typed (k8s.io/kubectl/pkg/cmd/plugin/plugin_completion.go); called by that name,
# draguard prints the candidates. Relative symlinks keep one binary (and survive moving
# DESTDIR into place).
BINDIR = $(DESTDIR)$(PREFIX)/bin
install: release-pgo
	install -d $(BINDIR) $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 0755 build/release-pgo/cli/draguard $(BINDIR)/draguard
	ln -sf draguard $(BINDIR)/kubectl-draguard
	ln -sf draguard $(BINDIR)/kubectl_complete-draguard
	build/release-pgo/cli/draguard completion bash > \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/draguard
	ln -sf draguard $(DESTDIR)$(PREFIX)/share/bash-completion/completions/kubectl-draguard
	build/release-pgo/cli/draguard completion zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_draguard

clean:
	rm -rf build
