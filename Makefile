# g16: thin wrapper around CMake.  `make` builds everything into build/bin/.
#   make          configure (Release) and build into build/
#   make deps     install Debian packages and tools/node_modules when missing
#   make test     deps + build + ctest (all labels but fuzz, gpu,
#                 gpu-emulate-large and witness-large)
#   make test-large  deps + build + the gpu-emulate-large label (the
#                 emulated GPU kernels on large sizes: minutes on 2 cores)
#                 and the witness-large label (circomlib's EdDSA and sparse
#                 Merkle tree circuits: minutes to compile on 2 cores)
#   make asan     deps + ASan/UBSan build in build-asan + the same tests
#   make fuzz     deps + clang libFuzzer build in build-fuzz + ctest -L fuzz
#   make demo     deps + build + prove the bundled examples, verify with snarkjs
#   make install  build, then install libg16, libg16_memwatch and libg16_client
#                 (.so and .a), the headers, their .pc files and the programs
#                 with their man pages under PREFIX (default /usr/local)
#   make package  build, then the Debian packages g16 and g16-dev (CPack) in
#                 build/: programs, the libraries, man pages, the systemd units
#                 and /etc/g16d.conf; headers, the .a/.so links and .pc files
#   make node     build, then the Node.js package in bindings/node (npm install,
#                 offline: its addon links build/'s libg16.so)
#   make format   apply .clang-format to every tracked C/CUDA source
#   make clean    remove the build directories

PREFIX   ?= /usr/local
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)
BUILD    ?= build
ASAN_DIR ?= build-asan
FUZZ_DIR ?= build-fuzz
# The fuzz label's time: G16_FUZZ_SECONDS is passed to the fuzz tests in the
# environment (how long each target should run); FUZZ_TIMEOUT is ctest's hard
# per-test limit on top of it.
G16_FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 600
CTEST_FLAGS ?= --output-on-failure --no-tests=error
# Labels the test suite (make test, make asan) leaves out: fuzz and gpu have
# targets of their own; gpu-emulate-large and witness-large are make
# test-large.
SUITE_EXCLUDED := ^(fuzz|gpu|gpu-emulate-large|witness-large)$$
# make asan also leaves out the Node.js package's test: under ASan it runs
# node with the sanitizer preloaded (six minutes on two cores, measured) for
# a few hundred lines of glue that make test runs; and circomlib's circuits
# (witness.circomlib: the same evaluator and operations witness.graph_ops
# and the fixtures' graphs run under ASan, on larger circuits: 10-11 s);
# and the Debian packages (label package: package.deb packs the tree with
# CPack, installs it with dpkg and proves with the installed g16, the
# programs e2e and daemon run under ASan; package.units checks systemd
# units, no C at all: what they test is the packaging, not our C code);
# CI's 20 minutes cannot hold them.
ASAN_EXCLUDED := ^(fuzz|gpu|gpu-emulate-large|witness-large|node|circomlib|package)$$

# A build with no record of its tests' times (a clean clone) would start
# the long ones late and end on one of them beside an idle core:
# tests/costs.txt seeds ctest's record (name, runs, seconds) once; later
# runs keep ctest's own.
seed_costs = test -s $(1)/Testing/Temporary/CTestCostData.txt || { \
	  mkdir -p $(1)/Testing/Temporary && \
	  awk '!/^\#/ && NF == 2 { print $$1, 1, $$2 } END { print "---" }' tests/costs.txt \
	    >$(1)/Testing/Temporary/CTestCostData.txt; }

# CMake enables the CUDA backend when nvcc is found.
ifneq ($(wildcard /usr/local/cuda/bin/nvcc),)
export PATH := /usr/local/cuda/bin:$(PATH)
endif

.PHONY: all build configure deps test test-large asan fuzz demo install package node format clean

all: build

$(BUILD)/CMakeCache.txt:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

configure: $(BUILD)/CMakeCache.txt

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS)

deps:
	@bash scripts/install-deps.sh

test: deps
	$(MAKE) build
	@$(call seed_costs,$(BUILD))
	cd $(BUILD) && ctest $(CTEST_FLAGS) -j$(JOBS) -LE '$(SUITE_EXCLUDED)'

test-large: deps
	$(MAKE) build
	cd $(BUILD) && ctest $(CTEST_FLAGS) -j$(JOBS) -L '^(gpu-emulate-large|witness-large)$$'

# -O1 -g keeps assertions on and stacks readable; sanitizers come from
# G16_SANITIZE in CMakeLists.txt.
$(ASAN_DIR)/CMakeCache.txt:
	cmake -S . -B $(ASAN_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_C_FLAGS_RELWITHDEBINFO='-O1 -g' \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O1 -g' -DG16_SANITIZE=ON \
	  -DG16_TEST_CIRCUITS=$(CURDIR)/$(BUILD)/test-circuits

asan: deps $(ASAN_DIR)/CMakeCache.txt
	cmake --build $(ASAN_DIR) -j$(JOBS)
	@$(call seed_costs,$(ASAN_DIR))
	cd $(ASAN_DIR) && \
	  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest $(CTEST_FLAGS) -j$(JOBS) -LE '$(ASAN_EXCLUDED)'

$(FUZZ_DIR)/CMakeCache.txt:
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_DIR) \
	  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DG16_FUZZ=ON \
	  -DCMAKE_C_FLAGS_RELWITHDEBINFO='-O1 -g' \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO='-O1 -g'

fuzz: deps $(FUZZ_DIR)/CMakeCache.txt
	cmake --build $(FUZZ_DIR) -j$(JOBS) --target fuzz_targets
	cd $(FUZZ_DIR) && G16_FUZZ_SECONDS=$(G16_FUZZ_SECONDS) \
	  ctest $(CTEST_FLAGS) -j$(JOBS) --timeout $(FUZZ_TIMEOUT) -L fuzz

demo: deps
	$(MAKE) build
	bash scripts/demo.sh $(BUILD)

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

package: build
	cmake --build $(BUILD) --target package

node: build
	cd bindings/node && npm install --offline --no-audit --no-fund

format:
	git ls-files '*.c' '*.h' '*.cu' '*.cuh' | grep -v '^tools/' | xargs clang-format -i

clean:
	rm -rf $(BUILD) $(ASAN_DIR) $(FUZZ_DIR)
