# A thin wrapper over CMake. The README's two commands:
#   make run    install what is missing, build benchdb and the extension only, load the examples, judge them
#   make test   the whole suite with ctest, then again under ASan + UBSan
#   make check  the quick tier (unit, sql, refused, fuzz replay, fast cli tests): docs/testing.md
#   make bench  timings against the limits (bench/README.md); never part of make test
# two for generated files (docs/testing.md, "Generated files"):
#   make regen        every generator of tools/gen again (R, mpmath, PostgreSQL: install-deps --with-tools)
#   make regen-check  the same into a copy of the tree: fails naming each file that is not as committed
# and two for reliability (docs/reliability.md):
#   make fuzz       the libFuzzer targets, FUZZ_SECONDS each (clang)
#   make memcheck   the suite's representative part under valgrind
BUILD      ?= build
ASAN_BUILD ?= build-asan
BENCH_BUILD ?= build-bench
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
# ctest's parallelism (one test a core: one more measured no better on
# clean clones, 2 cores, twice: docs/testing.md).
TEST_JOBS  ?= $(JOBS)
CMAKE_FLAGS ?=
# The generator of a new build directory: Ninja (Debian's ninja-build,
# which scripts/install-deps installs) where it is installed. The same
# compiles and links as with make's, without the Makefile generator's
# recursive makes and its cmake -E progress and dependency-scan process for
# every target and file: the plain build from scratch 43.5 CPU-seconds
# instead of 50.2 (docs/testing.md). A build directory already made keeps
# its generator (CMake refuses another): no -G for it.
cmake_gen = $(if $(wildcard $(1)/CMakeCache.txt),,$(if $(shell command -v ninja 2>/dev/null),-G Ninja))

.PHONY: all build deps deps-system deps-run run check test test-plain test-asan build-plain build-asan bench fuzz memcheck regen regen-check clean

all: build

deps:
	@scripts/install-deps

# Every Debian package, not the tests' npm modules (make test installs
# those while it builds).
deps-system:
	@scripts/install-deps --system

# Only what building benchdb needs: no npm modules for the browser tests.
deps-run:
	@scripts/install-deps --run

build: deps
	@cmake -S . -B $(BUILD) $(call cmake_gen,$(BUILD)) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

# The program and the loadable extension, nothing else: no test binaries,
# no PostgreSQL module (the first make run is then a minute, not six).
run: deps-run
	@cmake -S . -B $(BUILD) $(call cmake_gen,$(BUILD)) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS) --target benchdb benchstats
	@scripts/run-demo $(BUILD)/benchdb

# The quick tier in the plain build: what a developer runs after each change.
check: deps
	@cmake -S . -B $(BUILD) $(call cmake_gen,$(BUILD)) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBENCHDB_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L quick

# make test: the plain build; then its tests, while the sanitized build
# compiles beside them at the lowest priority (it gets the cores the tests
# leave idle while they wait on a server, Chromium or a lock, about a
# minute of compiling in all); the sanitized tests start as soon as their
# build is done, beside the end of the plain pass, rather than after it,
# so that neither pass's last tests leave a core idle (docs/testing.md,
# "The sanitized pass starts with its build"). Their output goes to
# $(ASAN_BUILD)/test.log and is shown, as it comes, once the plain pass has
# printed its own. The sanitized build's output goes to
# $(ASAN_BUILD)/build.log, shown when it fails.
# The tests' npm modules install while the plain build compiles (the
# Debian packages first: node, npm and the compilers come from them) and,
# when they are not done with it, beside the plain tests: the three tests
# that need them wait for the install ($(BUILD)/npm-deps.log.pid names it
# while it runs, .rc says how it ended: tests/cli/lib/npm_wait.sh) rather
# than every test. What install-deps says is shown after the plain pass,
# and its failure fails make test, as either pass's failure does.
test: deps-system
	@mkdir -p $(BUILD) $(ASAN_BUILD); log=$(BUILD)/npm-deps.log; rm -f $$log.rc $$log.pid; \
	( scripts/install-deps --npm >$$log 2>&1; echo $$? >$$log.rc ) & echo $$! >$$log.pid; \
	$(MAKE) --no-print-directory build-plain || { rc=$$?; wait; exit $$rc; }; \
	alog=$(ASAN_BUILD)/build.log tlog=$(ASAN_BUILD)/test.log; rm -f $$alog.rc $$tlog.rc; : >$$tlog; \
	( nice -n 19 $(MAKE) --no-print-directory build-asan >$$alog 2>&1; r=$$?; echo $$r >$$alog.rc; \
	  [ $$r = 0 ] || exit 0; (cd $(ASAN_BUILD) && exec ctest --output-on-failure -j $(TEST_JOBS)) >$$tlog 2>&1; \
	  echo $$? >$$tlog.rc ) & apid=$$!; \
	(cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS)); rc=$$?; \
	echo "make test: the sanitized pass ($(ASAN_BUILD)):"; tail -s 0.2 -n +1 -f --pid=$$apid $$tlog; \
	wait; cat $$log >&2; \
	if [ "$$(cat $$log.rc 2>/dev/null)" != 0 ]; then echo "make test: installing the tests' npm modules failed (above)" >&2; exit 1; fi; \
	if [ "$$(cat $$alog.rc 2>/dev/null)" != 0 ]; then cat $$alog; echo "make test: the sanitized build failed (above)" >&2; exit 1; fi; \
	[ $$rc = 0 ] || { echo "make test: the plain pass failed (its tests above)" >&2; exit $$rc; }; \
	[ "$$(cat $$tlog.rc 2>/dev/null)" = 0 ] || { echo "make test: the sanitized pass failed (above)" >&2; exit 1; }

test-plain: build-plain
	@cd $(BUILD) && ctest --output-on-failure -j $(TEST_JOBS)

test-asan: build-asan
	@cd $(ASAN_BUILD) && ctest --output-on-failure -j $(TEST_JOBS)

build-plain:
	@cmake -S . -B $(BUILD) $(call cmake_gen,$(BUILD)) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBENCHDB_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

build-asan:
	@cmake -S . -B $(ASAN_BUILD) $(call cmake_gen,$(ASAN_BUILD)) -DCMAKE_BUILD_TYPE=Debug -DBENCHDB_WERROR=ON -DBENCHDB_SANITIZE=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

bench: deps
	@t0=$$(date +%s); \
	cmake -S . -B $(BENCH_BUILD) $(call cmake_gen,$(BENCH_BUILD)) -DCMAKE_BUILD_TYPE=Release -DBENCHDB_TESTS=OFF -DBENCHDB_BENCH=ON $(CMAKE_FLAGS) >/dev/null && \
	cmake --build $(BENCH_BUILD) -j $(JOBS) && \
	python3 bench/run.py $(BENCH_BUILD) --t0 $$t0

# Every generated file from its generator (tools/gen/regen.py); some need
# the build (benchdb, the extension) and R, which CI does not have: the
# python tier alone runs in make test (cli/gen_current).
regen: build
	@python3 tools/gen/regen.py --build $(BUILD)

regen-check: build
	@python3 tools/gen/regen.py --check --build $(BUILD)

# libFuzzer targets (tests/fuzz/, clang): each runs FUZZ_SECONDS; crashes
# land in $(FUZZ_BUILD)/fuzz-crashes. 'make test' replays the corpora.
FUZZ_BUILD   ?= build-fuzz
FUZZ_SECONDS ?= 60
fuzz:
	@CC=clang cmake -S . -B $(FUZZ_BUILD) $(call cmake_gen,$(FUZZ_BUILD)) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBENCHDB_FUZZ=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS)
	@tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# valgrind memcheck over the suite's representative part (tests/memcheck/run.sh).
MEMCHECK_BUILD ?= build-memcheck
memcheck:
	@cmake -S . -B $(MEMCHECK_BUILD) $(call cmake_gen,$(MEMCHECK_BUILD)) -DCMAKE_BUILD_TYPE=Debug -DBENCHDB_WERROR=ON $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(MEMCHECK_BUILD) -j $(JOBS)
	@tests/memcheck/run.sh $(MEMCHECK_BUILD)

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(BENCH_BUILD) $(FUZZ_BUILD) $(MEMCHECK_BUILD)
