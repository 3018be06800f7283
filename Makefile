# Quick start wrapper: `make run` and `make test` install what is missing, build, and run.
BUILD ?= build
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
PACKAGES = build-essential cmake pkg-config liblua5.4-dev libreadline-dev libhdf5-dev libpng-dev zlib1g-dev hdf5-tools

.PHONY: run test build deps clean bench perf-doc device-bundle
run: build
	$(BUILD)/cardiac protocols/quickstart.lua

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@./scripts/install-deps.sh $(PACKAGES)

# On a machine with an NVIDIA GPU: GPU tests, then the full benchmark (CSV under results/).
bench: build
	cd $(BUILD) && ctest --output-on-failure -L gpu
	$(BUILD)/cardiac protocols/benchmark.lua full results/benchmark.csv

# Regenerates docs/performance.md from the benchmark CSVs kept in docs/data/.
perf-doc: build
	$(BUILD)/cardiac scripts/performance_doc.lua

# The binary and the libraries the GPU machine lacks, in .device/ (under the
# 64 MiB that the device tool carries; ../shared/device/README.md).
device-bundle: build
	rm -rf .device
	../shared/device/bundle.sh $(BUILD) .device
	cd .device/build && rm -rf CMakeFiles core cuda shell tests Testing

clean:
	rm -rf $(BUILD)
