# pmusim top-level Makefile.  `make sim` and `make test` are the two commands a
# user needs; everything else is reachable from `make help`.
#
# Each folder owns a fragment (<dir>/<dir>.mk) that adds its objects, binaries and
# tests to the variables below.  Everything built goes under build/ (build-san/ with SAN=1).

SHELL    := /bin/bash

# make test SAN=1 (docs/fuzzing.md): every object, the Verilated models included, built
# with AddressSanitizer and UndefinedBehaviorSanitizer, and undefined behaviour fatal (a
# report alone would let the test pass).  Into build-san/, so that instrumented objects never
# mix with the normal build's.
SAN ?=
ifeq ($(SAN),1)
BUILD     := build-san
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
BUILD     := build
SAN_FLAGS :=
endif
GEN      := $(BUILD)/gen
JOBS     ?= $(shell nproc 2>/dev/null || echo 2)

CC       := gcc
CXX      := g++
OPT      ?= -O2
CFLAGS   := -std=c11 $(OPT) -g -Wall -Wextra -Wshadow -Iinclude -MMD -MP $(SAN_FLAGS)
CXXFLAGS := -std=c++17 $(OPT) -g -Wall -Iinclude -MMD -MP $(SAN_FLAGS)
# The sanitizer flags link the sanitizer runtimes into every program (some links name
# $(LDLIBS) but neither CFLAGS nor CXXFLAGS).
LDLIBS   := -lm $(SAN_FLAGS)

VERILATOR ?= verilator
IVERILOG  ?= iverilog
VVP       ?= vvp
YOSYS     ?= yosys

# The registered families, in their order (include/common/pmu_families.def, read by tools/families.sh):
# the fragments loop over these, never over a list of their own.
PMU_FAMILIES := $(shell CC=$(CC) bash tools/families.sh)
ifeq ($(strip $(PMU_FAMILIES)),)
$(error tools/families.sh found no family in include/common/pmu_families.def)
endif

# make sim overrides
SEED    ?= 1
CYCLES  ?= 1000000
CONFIG  ?=
STREAM  ?=
FAMILY  ?=
WAVES   ?=
JSON    ?=

# Filled in by the fragments.
GTEST_BINS :=     # GoogleTest binaries run by make test
TEST_SCRIPTS :=   # other test scripts run by make test (each prints N passed, N failed)
CLEAN_EXTRA :=

.PHONY: all deps sim test lint synth bench docs help clean formal time-to-check
.DEFAULT_GOAL := all

all: deps pmusim qemu-plugin

help:
	@echo "make sim     run the default workload in RTL/reference lock-step and print the counts"
	@echo "make sim FAMILY=alpha21064   the same on the Alpha 21064, with the pfm pseudo-device's results"
	@echo "make sim FAMILY=alpha21264   the same on the Alpha 21264/EV67, with the perf driver's counts (CONFIG=verilator/cli/ev67/profileme.cfg: ProfileMe)"
	@echo "make sim FAMILY=NAME   any registered family (include/common/pmu_families.def): $(PMU_FAMILIES)"
	@echo "make -s sim JSON=1   the run as one JSON document on stdout (docs/json.md)"
	@echo "make test    build everything and run every test; ends with 'N passed, N failed'"
	@echo "make lint    verilator --lint-only -Wall on the RTL"
	@echo "make synth   Yosys synthesis of the PMU top: cell and flip-flop counts"
	@echo "make synth-check   make test's synthesis check: every top mapped to gates by Yosys, unoptimised, then check -assert"
	@echo "make bench   simulation speed: reference, RTL, lock-step, Icarus"
	@echo "make docs    regenerate the register maps (docs/ita-register-map.md, docs/ev4-register-map.md, docs/ev67-register-map.md) from the .def files"
	@echo "make test SAN=1   the same suite built with ASan + UBSan, in build-san/ (docs/fuzzing.md)"
	@echo "make fuzz [FUZZ_SECONDS=60] [FUZZ_HARNESSES=...]   libFuzzer on each parser (clang; docs/fuzzing.md)"
	@echo "make conformance SEED=1 RUNS=100 CYCLES=1000000 [SHARD=I/N]   every family, model, configuration and service in lock-step (docs/conformance.md)"
	@echo "make conformance-merge   merge the shards' results in build/conformance"
	@echo "make formal [FORMAL_DEPTH=20]   the RTL's properties from the manuals: BMC, k-induction, covers, mutants (docs/formal.md)"
	@echo "make mutants [MUTANT=id]   plant each bug of tests/mutants/catalog in the RTL; the suite must kill every one (docs/mutants.md)"
	@echo "make real [REAL_SHORT=1]   the sample programs recorded under QEMU on every family, in lock-step, with each family's software and checks (docs/real-programs.md)"
	@echo "make install PREFIX=DIR   programs, libraries, headers, pkg-config files pmusim and pmusim-systemc, FuseSoC cores, examples (docs/kit.md)"
	@echo "make fusesoc   each family's RTL as a FuseSoC core in $(BUILD)/kit/fusesoc (docs/kit.md)"
	@echo "make sc-example   build/examples/pmu_sc_example, the PMU in a SystemC platform of its own (docs/systemc.md)"
	@echo "make time-to-check   time make test on a fresh clone, after an edit of one RTL file, and make sim after another (docs/bench.md)"
	@echo "make sv-test | csim-test | stream-test | harness-test | sw-test | drv-test   one suite"

deps:
	@bash tools/install-deps.sh

# ---- generated definitions (one source per family: include/common/<family>/<family>_regs.def) -
# Each family's tables, expanded from its .def (tools/<family>/<family>_defs.c, beside its
# generator): every layer links them.
COMMON_SRCS := $(wildcard tools/*/*_defs.c)
COMMON_OBJS := $(COMMON_SRCS:%.c=$(BUILD)/obj/%.o)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# A GoogleTest source (a .cpp under a tests/ folder) compiles without optimisation: the
# assertion macros make those files the slowest of the build to optimise (2.5 times the
# CPU at -O2), and what they test is in the libraries, which keep $(OPT).  TEST_CXXOPT=
# builds them as the rest.
TEST_CXXOPT ?= -O0
# GoogleTest's header is precompiled once, with those sources' flags, and included first in
# each (-include): it was a third of each one's compile (about 1.1 of 3 CPU s). When a
# source's flags make it unusable, GCC reads the header itself (-Winvalid-pch says so).
GTEST_PCH := $(BUILD)/pch/gtest_pch.h
$(GTEST_PCH).gch: tests/gtest_pch.h
	@mkdir -p $(dir $@)
	cp $< $(GTEST_PCH)
	$(CXX) $(CXXFLAGS) $(TEST_CXXOPT) -x c++-header $(GTEST_PCH) -o $@
$(patsubst %.cpp,$(BUILD)/obj/%.o,$(wildcard */tests/*.cpp */*/tests/*.cpp */*/*/tests/*.cpp)): $(GTEST_PCH).gch
$(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(if $(findstring /tests/,/$<),$(TEST_CXXOPT) -include $(GTEST_PCH) -Winvalid-pch) -c $< -o $@

# One generator per family: tools/gen_defs.c (generic) with tools/<family>/gen_<family>.c
# (include/tools/pmu_gen_defs.h) and tools/gen_rows.c compiled with the family's .def (the rows every
# .def writes alike, include/common/pmu_def.h), linked with the family's tables (its own only: another
# family's new tables must not regenerate this family's RTL includes, which every Verilated
# variant of it depends on).  It writes the family's RTL includes to $(GEN)/<family>/
# (`gen_defs --list` names them) and its register map.
# $(call gen_defs_family,<family>)
define gen_defs_family
$(BUILD)/$(1)/gen_defs: $(BUILD)/obj/tools/gen_defs.o $(BUILD)/obj/tools/$(1)/gen_$(1).o $(BUILD)/obj/tools/$(1)/gen_rows.o $(filter $(BUILD)/obj/tools/$(1)/%,$(COMMON_OBJS))
	@mkdir -p $$(dir $$@)
	$(CC) $(CFLAGS) $$^ -o $$@

$(BUILD)/obj/tools/$(1)/gen_rows.o: tools/gen_rows.c
	@mkdir -p $$(dir $$@)
	$(CC) $(CFLAGS) -DGEN_DEF='"common/$(1)/$(1)_regs.def"' -c $$< -o $$@

$(GEN)/$(1)/%: $(BUILD)/$(1)/gen_defs
	@mkdir -p $$(dir $$@)
	$(BUILD)/$(1)/gen_defs $$* -o $$@
endef

$(foreach f,$(patsubst tools/%/,%,$(dir $(wildcard tools/*/gen_*.c))),$(eval $(call gen_defs_family,$(f))))

# Filled in by each family's rtl/<family>/family.mk.
GEN_VH    :=
GEN_TOOLS :=
DOCS_GEN  :=

include rtl/rtl.mk
include csim/csim.mk
include stream/stream.mk
include verilator/verilator.mk
include sw/sw.mk
include sv_tests/sv_tests.mk
include systemc/systemc.mk
include tests/fuzz/fuzz.mk
include qemu/qemu.mk
include tools/kit/kit.mk
include tests/tests.mk
include verilator/bench/bench.mk

docs: $(DOCS_GEN)

# build/pmusim links every part, so its rule comes after every fragment's variables.
$(PMUSIM): $(BUILD)/obj/verilator/cli/main.o $(PMUSIM_LIBS) $(COMMON_OBJS)
	$(CXX) $(OPT) -g $^ -o $@ $(RTL_LDLIBS) $(LDLIBS)

# The same program with a lock-step pair whose RTL can be told to go wrong (test code only:
# verilator/cli/tests/fault_backend.c), for the end-to-end checks of the mismatch reports.
$(PMUSIM_FAULTY): $(BUILD)/obj/verilator/cli/main.o $(BUILD)/obj/verilator/cli/tests/fault_backend.o $(PMU_FAULT_OBJ) \
                  $(PMUSIM_LIBS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(OPT) -g -Wl,--wrap=pmu_cosim_create $^ -o $@ $(RTL_LDLIBS) $(LDLIBS)

clean:
	rm -rf $(BUILD) $(CLEAN_EXTRA)

# Time to check a change (docs/bench.md): make test on a fresh clone of HEAD, after an edit of
# one RTL file, and make sim after another; wall and CPU seconds of each.
time-to-check:
	@JOBS=$(JOBS) bash tools/time-to-check.sh

DEP_FILES := $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
-include $(DEP_FILES)
# The compiler writes them; make never remakes them (without this it searches the built-in
# rules for each, and one search ran the generator with 'ita_wave_layout.d.c').
$(DEP_FILES): ;
