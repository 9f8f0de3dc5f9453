# The README's two commands: `make run` and `make check`. Both install what is
# missing (Debian packages, via scripts/install-deps.sh) and build first.
PRESET ?= dev
BUILD = build/$(PRESET)
JOBS ?= $(shell nproc)
CLI = $(BUILD)/app/cli/stampede-cli

.PHONY: all deps configure build run check bench bench-streams bench-soak bench-pool bench-record bench-gui fuzz asan format format-check clean

all: build

deps:
	@bash scripts/install-deps.sh

configure: deps
	@test -f $(BUILD)/build.ninja || cmake --preset $(PRESET)

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The main job: the demo scenario against the embedded mock server.
run: build
	@bash scripts/run-demo.sh $(CLI) $(BUILD)/app/gui/stampede

check: build format-check
	@cd $(BUILD) && ctest --output-on-failure -j 2 --timeout 300

# Benchmarks are programs, not tests: they print figures and ratios to wrk.
bench: PRESET = release
bench: build
	@/usr/bin/python3 scripts/bench_http1.py --cli build/release/app/cli/stampede-cli

bench-streams: PRESET = release
bench-streams: build
	@scripts/install-deps.sh --bench
	@/usr/bin/python3 scripts/bench_streams.py --cli build/release/app/cli/stampede-cli

bench-soak: PRESET = release
bench-soak: build
	@/usr/bin/python3 scripts/bench_http1.py --cli build/release/app/cli/stampede-cli --soak

bench-pool: PRESET = release
bench-pool: build
	@/usr/bin/python3 scripts/bench_pool.py --cli build/release/app/cli/stampede-cli

bench-record: PRESET = release
bench-record: build
	@/usr/bin/python3 scripts/bench_record.py --cli build/release/app/cli/stampede-cli

bench-gui: build
	@QT_QPA_PLATFORM=offscreen $(BUILD)/tests/bench/bench_gui $(CLI) $${SECONDS_OF_RUN:-30}

asan: deps
	@cmake --preset asan >/dev/null && cmake --build build/asan -j $(JOBS) && cd build/asan && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ctest --output-on-failure -j 2 --timeout 600

# Each fuzz target runs for FUZZ_SECONDS (default 60).
FUZZ_SECONDS ?= 60
fuzz: deps
	@cmake --preset fuzz >/dev/null && cmake --build build/fuzz -j $(JOBS)
	@bash scripts/run-fuzz.sh build/fuzz $(FUZZ_SECONDS)

FORMAT_FILES = $(shell git ls-files --cached --others --exclude-standard '*.cpp' '*.h')
format:
	@clang-format -i $(FORMAT_FILES)

format-check:
	@clang-format --dry-run --Werror $(FORMAT_FILES)

clean:
	@rm -rf build
