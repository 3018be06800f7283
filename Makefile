# Quick start wrapper: `make run` and `make test` install what is missing, build, and run.
BUILD ?= build
PREFIX ?= /usr/local
JOBS  ?= $(shell nproc 2>/dev/null || echo 2)
PACKAGES = build-essential cmake pkg-config liblua5.4-dev libreadline-dev libhdf5-openmpi-dev libopenmpi-dev openmpi-bin libpng-dev zlib1g-dev hdf5-tools gnuplot-nox tmux

.PHONY: run test build deps clean bench perf-doc reproduce device-bundle install
run: build
	$(BUILD)/cardiac protocols/quickstart.lua

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build $(BUILD) -j $(JOBS)
	@echo "cardiac: built $(BUILD)/cardiac with the $$(cat $(BUILD)/backends.txt) backend(s); next: make run, make test, or $(BUILD)/cardiac"

# The executable, the Lua library, protocols and docs under PREFIX
# (bin/cardiac, share/cardiac/, share/doc/cardiac/); cardiac then runs from
# any folder.
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)
	@echo "cardiac: installed $(PREFIX)/bin/cardiac; protocols in $(PREFIX)/share/cardiac/protocols"

deps:
	@./scripts/install-deps.sh $(PACKAGES)

# On a machine with an NVIDIA GPU: GPU tests, then the full benchmark (CSV under results/).
bench: build
	cd $(BUILD) && ctest --output-on-failure -L gpu
	$(BUILD)/cardiac protocols/benchmark.lua full results/benchmark.csv

# Reruns the papers' reproductions this machine can run (GPU parts need a GPU)
# and regenerates docs/reproductions.md (scripts/reproduce.lua).
reproduce: build
	$(BUILD)/cardiac scripts/reproduce.lua

# Regenerates docs/performance.md from the benchmark CSVs kept in docs/data/
# (benchmark-h100-tplane.csv: `benchmark.lua tplane`, the volumes with layout
# tplane; `make bench` now times tplane in its full run too).
perf-doc: build
	$(BUILD)/cardiac scripts/performance_doc.lua docs/data/benchmark-h100.csv docs/data/benchmark-h100-tplane.csv

# The binary and the shared libraries a GPU machine without Debian's HDF5 may
# lack, in .device/ (build/cardiac and lib/), to copy there and run with
# LD_LIBRARY_PATH=.device/lib: HDF5 and what it needs (curl and its TLS/LDAP
# stack). MPI, CUDA, readline, libpng, zlib and the C runtime come from that
# machine, and OpenSSL 3 (libcrypto.so.3), which keeps the bundle small.
device-bundle: build
	rm -rf .device && mkdir -p .device/build .device/lib
	cp $(BUILD)/cardiac .device/build/
	for l in $$(ldd $(BUILD)/cardiac | awk '/=>/ {print $$3}'); do case $$(basename $$l) in \
	  libc.so*|libm.so*|libstdc++*|libgcc_s*|ld-linux*|libmpi*|libopen-*|libhwloc*|libevent*|libz.so*|\
	  libreadline*|libtinfo*|libpng16*|libgomp*|libudev*|libresolv*|libcrypto.so*) ;; *) cp -Lu $$l .device/lib/ ;; esac; done
	@echo "bundled into .device/ ($$(du -sh .device | cut -f1)): run .device/build/cardiac with LD_LIBRARY_PATH=.device/lib"

clean:
	rm -rf $(BUILD)
