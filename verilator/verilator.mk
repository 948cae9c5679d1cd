# verilator fragment: the Verilated RTL backend, the lock-step checker, PMU configuration
# files, the minimal overflow service, the command layer (verilator/cli/: every `pmusim`
# command) and `make sim`.
#
# Variables for other fragments:
#   $(PMUSIM)         build/pmusim
#   $(RTL_LIB)        every family's Verilated RTL with its glue and the Verilator runtime,
#                     in one archive; link with $(RTL_LDLIBS)
#   $(HARNESS_LIB)    lock-step checker (harness/pmu_cosim.h), the family registry and each family's
#                     harness parts (configuration files, overflow service, command hooks),
#                     and the command layer (cli/pmu_cli.h, cli/pmu_outfile.h, cli/pmu_symtab.h) but not
#                     its main(); link with $(PMUSIM_LIBS) $(COMMON_OBJS)
#   $(PMUSIM_LIBS)    everything a program running the commands links
#   $(STREAM_LIB)     $(BUILD)/libpmustream.a (defined here if stream/ has not)
#
# Verilated variants: each family's verilator/<family>/family.mk declares its own with
# vlt_variant (below); objects under $(BUILD)/verilator/<variant>/.

RTL_WAIVERS ?=
STREAM_LIB  ?= $(BUILD)/libpmustream.a
REF_LIB     ?= $(BUILD)/libpmuref.a
SW_LIB      ?= $(BUILD)/libpmusw.a

VLT_ROOT := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
VLT_OUT  := $(BUILD)/verilator

# -O3 and fast X handling: the RTL resets every register, so X never reaches an output.
# The time unit is one cycle record = 1 ns (see verilator/ita/rtl_backend.cpp).
# --no-trace-params: the waveforms carry signals, not parameters. Traced, every localparam of
# the generated includes is declared again in every module instance: 14 MB of the Itanium 2
# top's 17 MB of C++ (3.6 MB without), compiled for each Itanium variant.
VLT_FLAGS := --cc --trace-fst --no-trace-params -O3 --x-assign fast --x-initial fast --noassert \
             --timescale 1ns/1ps $(RTL_WAIVERS)

# The sub-make compiles the generated C++; these override whatever `make OPT=...` passed.
# OPT_SLOW is for code that runs once (construction, the initial settle, the trace
# declarations and the first full dump), never per cycle: at -O0 the Itanium tops' trace
# declarations (~100,000 calls in ~15 MB of C++) compile about 12x faster than at -O1 (9 against 107 CPU s a file)
# (docs/bench-history.md, "Build time").
# USER_CPPFLAGS: under SAN=1 the generated C++ and the runtime are instrumented too, but for
# two checks that Verilator's own trace code fails on purpose on x86: the FST writer it ships
# (gtkwave/fstapi.c) stores words at odd addresses (FST_DO_MISALIGNED_OPS) and shifts
# negative values left, and the trace buffer's inline readers (verilated_trace.h, compiled
# into each model's trace functions) load 64-bit values at 4-byte alignment.  UBSan, fatal,
# would stop every run with waves.  Every other check stays on, and pmusim's own code
# (the glue included) keeps them all.
# OPT_FAST: GCC's straight-line (SLP) vectorizer packs the model's word copies and word
# operations on wide signals into vector registers, with the inserts and extracts that
# takes; without it a clock of the Itanium 2 top is about 40 host instructions shorter
# (docs/bench-history.md, "Fourteenth round").
comma       := ,
VLT_SAN     := $(if $(SAN_FLAGS),$(SAN_FLAGS) -fno-sanitize=alignment$(comma)shift)
VLT_SUBMAKE := $(MAKE) --no-print-directory OPT= OPT_FAST="-O2 -fno-tree-slp-vectorize" OPT_SLOW=-O0 OPT_GLOBAL=-O2 \
               VK_CPPFLAGS_WALL= CFG_CXXFLAGS_STD=-std=c++17 USER_CPPFLAGS="$(VLT_SAN)"

# One Verilated variant of a family's RTL top, objects under $(VLT_OUT)/<dir>/:
#   $(call vlt_variant,<dir>,<prefix>,<top module>,<sources>,<include flags>,<-G parameters>)
# defines VLT_STAMP_<dir> and VLT_LIB_<dir> and adds the variant to VLT_VARIANTS.
define vlt_variant
VLT_STAMP_$(1) := $(VLT_OUT)/$(1)/verilated.stamp
VLT_LIB_$(1)   := $(VLT_OUT)/$(1)/$(2)__ALL.a
VLT_VARIANTS   += $(1)
VLT_PREFIX_$(1) := $(2)
VLT_SRCS_$(1)   := $(4)
VLT_ARGS_$(1)   := --top-module $(3) $(5) $(6) --prefix $(2)

$(VLT_OUT)/$(1)/verilated.stamp: $(4) $(GEN_VH) $(RTL_WAIVERS) verilator/verilator.mk
	@mkdir -p $(VLT_OUT)/$(1)
	$(VERILATOR) $(VLT_FLAGS) --top-module $(3) $(5) $(6) --prefix $(2) -Mdir $(VLT_OUT)/$(1) $(4)
	@touch $$@

# Verilator skips identical regenerations, so the archive is touched to stay newer
# than the stamp.
$(VLT_OUT)/$(1)/$(2)__ALL.a: $(VLT_OUT)/$(1)/verilated.stamp
	+$(VLT_SUBMAKE) -C $(VLT_OUT)/$(1) -f $(2).mk $(2)__ALL.a
	@touch $$@
endef

# Flags for glue that includes Verilated headers; each family adds its variants' output
# directories ($(VLT_OUT)/<variant>).
VLT_CXXFLAGS := $(CXXFLAGS) -isystem $(VLT_ROOT)/include -isystem $(VLT_ROOT)/include/vltstd \
                -DVM_TRACE=1 -DVM_TRACE_FST=1 -faligned-new

# Each family's fragment (verilator/<family>/family.mk) calls vlt_variant for its tops
# and adds its glue objects (C++ around the Verilated classes) to RTL_GLUE_OBJS.
VLT_VARIANTS  :=
RTL_GLUE_OBJS :=
include $(sort $(wildcard verilator/*/family.mk))

# The Verilator runtime, compiled once, in the first variant's directory and with its
# settings (every variant is built with the same tracing options).
VLT_RUNTIME_DIR := $(firstword $(VLT_VARIANTS))
VLT_RUNTIME := $(VLT_OUT)/$(VLT_RUNTIME_DIR)/libverilated.a
# (Under SAN=1, with the model's flags: VLT_SAN above.)
$(VLT_RUNTIME): $(VLT_LIB_$(VLT_RUNTIME_DIR)) verilator/vlt_runtime.mk
	+$(VLT_SUBMAKE) -C $(VLT_OUT)/$(VLT_RUNTIME_DIR) -f $(CURDIR)/verilator/vlt_runtime.mk \
	  VM_MK=$(VLT_PREFIX_$(VLT_RUNTIME_DIR)).mk libverilated.a
	@touch $@

RTL_LIB     := $(BUILD)/libpmurtl.a
# --plot (verilator/cli/plot.c, docs/plots.md) draws with cairo and writes its PNGs with
# libpng: only the command layer includes them; a program that does not reach the plots
# (as-needed) does not load them.
CAIRO_CFLAGS := $(shell pkg-config --cflags cairo libpng 2>/dev/null)
CAIRO_LIBS   := $(or $(shell pkg-config --libs cairo libpng 2>/dev/null),-lcairo -lpng16)
$(BUILD)/obj/verilator/cli/plot.o: CFLAGS += $(CAIRO_CFLAGS)
RTL_LDLIBS  := -lz -pthread -latomic -Wl,--push-state,--as-needed $(CAIRO_LIBS) -Wl,--pop-state
VLT_LIBS    := $(foreach v,$(VLT_VARIANTS),$(VLT_LIB_$(v)))

# One archive: every family's glue, every variant and the runtime (an ar MRI script
# merges archives).  $(call rtl_archive,<variant archives>) is the recipe (make mutants
# builds one with a mutant's variants in place of the build's).
rtl_archive = @rm -f $@; \
	{ echo "create $@"; for o in $(RTL_GLUE_OBJS); do echo "addmod $$o"; done; \
	  for l in $(1) $(VLT_RUNTIME); do echo "addlib $$l"; done; \
	  echo save; echo end; } | $(AR) -M; echo "AR $@"
$(RTL_LIB): $(RTL_GLUE_OBJS) $(VLT_LIBS) $(VLT_RUNTIME)
	$(call rtl_archive,$(VLT_LIBS))

# The command layer's main() stays out of the archive (test binaries bring their own).
# The configuration reader shares the register encodings of the debug-register pairs and
# constraint registers with the event library (sw/ita/ita_encode.c, in $(SW_LIB)).
# verilator/harness/ (generic) and verilator/<family>/: the harness; verilator/cli/ (generic) and
# verilator/cli/<family>/: the command layer.
HARNESS_SRCS := $(filter-out verilator/bench/% verilator/cli/main.c,$(wildcard verilator/*/*.c verilator/cli/*/*.c))
HARNESS_OBJS := $(HARNESS_SRCS:%.c=$(BUILD)/obj/%.o) $(HARNESS_GEN_OBJS)
HARNESS_LIB  := $(BUILD)/libpmuharness.a

$(HARNESS_LIB): $(HARNESS_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

PMUSIM := $(BUILD)/pmusim
PMUSIM_LIBS := $(HARNESS_LIB) $(SW_LIB) $(RTL_LIB) $(STREAM_LIB) $(REF_LIB)

# The $(PMUSIM) link rule is in the top-level Makefile, after every fragment: it links
# the software library of sw/ too (count, profile and conform run its driver).

# ---- tests ----------------------------------------------------------------------------
# The harness's and the command layer's tests (verilator/harness/tests/, verilator/cli/tests/) and
# each family's (verilator/<family>/tests/, verilator/cli/<family>/tests/), but for the sources of
# the family's RTL unit-test binaries (RTL_UNIT_TESTS_<family>, built by tests/tests.mk).
RTL_UNIT_TEST_BINS := $(foreach f,$(PMU_FAMILIES),$(RTL_UNIT_TESTS_$(f)))
RTL_UNIT_TEST_SRCS := $(foreach b,$(RTL_UNIT_TEST_BINS),$($(b)_SRCS))
HARNESS_TEST_SRCS := $(filter-out $(RTL_UNIT_TEST_SRCS),$(wildcard verilator/*/tests/*.cpp verilator/cli/*/tests/*.cpp))
HARNESS_TEST_OBJS := $(HARNESS_TEST_SRCS:%.cpp=$(BUILD)/obj/%.o)
HARNESS_TEST_BIN  := $(BUILD)/tests/harness_tests
# The fault-injecting wrapper (test code only) serves the lock-step tests and the faulty pmusim.
PMU_FAULT_OBJ     := $(BUILD)/obj/verilator/harness/tests/pmu_fault.o

# The wave tests read FST files with the reader Verilator ships (gtkwave/fstapi.h).
$(HARNESS_TEST_OBJS): CXXFLAGS += -isystem $(VLT_ROOT)/include

$(HARNESS_TEST_BIN): $(HARNESS_TEST_OBJS) $(PMU_FAULT_OBJ) $(PMUSIM_LIBS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ -lgtest -lgtest_main $(RTL_LDLIBS) $(LDLIBS)

GTEST_BINS   += $(HARNESS_TEST_BIN)
TEST_SCRIPTS += verilator/cli/tests/cli.sh verilator/cli/tests/files.sh verilator/cli/tests/waves.sh verilator/cli/tests/json.sh
TEST_DEPS    += $(PMUSIM)
# The mismatch reports end to end, from a pmusim whose RTL is told to go wrong (its link rule
# is the top-level Makefile's, next to $(PMUSIM)'s).
PMUSIM_FAULTY := $(BUILD)/tests/pmusim_faulty
TEST_SCRIPTS += verilator/cli/tests/mismatch_reports.sh
TEST_DEPS    += $(PMUSIM_FAULTY)

# ---- make sim -------------------------------------------------------------------------
# With STREAM set, --cycles is passed only when CYCLES was given (it caps the stream).
# WAVES=1 dumps the last WAVE_CYCLES records of the CYCLES the run makes (--wave-from), a
# stream without CYCLES whole; WAVES=all the whole run.  JSON=1: --json, the run's JSON
# document (docs/json.md); `make -s sim JSON=1` leaves it alone on stdout (make echoes no
# command).  Without JSON=1 the run's counter timeline goes to $(BUILD)/sim.png (--plot,
# docs/plots.md).
WAVE_CYCLES ?= 10000
SIM_CYCLES_GIVEN = $(or $(if $(STREAM),,1),$(filter command line environment,$(origin CYCLES)))
SIM_WAVE_FROM = $(if $(and $(filter-out all,$(WAVES)),$(SIM_CYCLES_GIVEN)),--wave-from \
           $(shell c=$$(($(CYCLES))) n=$$(($(WAVE_CYCLES))) && echo $$((c > n ? c - n : 0))))
SIM_ARGS = $(if $(STREAM),--stream $(STREAM) $(if $(filter command line environment,$(origin CYCLES)),--cycles $(CYCLES)),--seed $(SEED) --cycles $(CYCLES)) \
           $(if $(CONFIG),--config $(CONFIG)) $(if $(FAMILY),--family $(FAMILY)) $(if $(MODEL),--model $(MODEL)) \
           $(if $(filter-out 0 no,$(WAVES)),--waves $(BUILD)/sim.fst $(SIM_WAVE_FROM)) $(if $(filter-out 0 no,$(JSON)),--json,--plot $(BUILD)/sim.png)

.PHONY: pmusim harness-test
pmusim: $(PMUSIM)

# The rebuild after an RTL edit (the family's Verilated variants) runs JOBS jobs at once.
sim: deps
	@$(MAKE) --no-print-directory -j$(JOBS) pmusim
	$(PMUSIM) run $(strip $(SIM_ARGS))

harness-test: $(HARNESS_TEST_BIN) $(PMUSIM)
	$(HARNESS_TEST_BIN)
	bash verilator/cli/tests/cli.sh
	bash verilator/cli/tests/files.sh
	bash verilator/cli/tests/waves.sh
	bash verilator/cli/tests/json.sh
