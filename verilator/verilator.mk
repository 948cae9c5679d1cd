# verilator fragment: the Verilated RTL backend, the lock-step checker, PMU configuration
# files, the minimal overflow service, the command layer (verilator/cli/: every `pmusim`
# command) and `make sim`.
#
# Variables for other fragments:
#   $(PMUSIM)         build/pmusim
#   $(RTL_LIB)        the Verilated RTL behind include/ita/pmu_rtl.h (both models, the
#                     Verilator runtime and the glue in one archive); link with $(RTL_LDLIBS)
#   $(HARNESS_LIB)    lock-step checker (pmu_cosim.h), the family registry and each family's
#                     harness parts (configuration files, overflow service, command hooks),
#                     and the command layer (pmu_cli.h, pmu_outfile.h, pmu_symtab.h) but not
#                     its main(); link with $(PMUSIM_LIBS) $(COMMON_OBJS)
#   $(PMUSIM_LIBS)    everything a program running the commands links
#   $(STREAM_LIB)     $(BUILD)/libpmustream.a (defined here if stream/ has not)
#
# Verilated variants (include/pmu_rtl.h): Itanium 2 (Model=1, prefix Vita2_pmu) and
# Itanium (Model=0, prefix Vita_pmu), both PmdSext=1, ThrGe=0, FineGran2=0, objects under
# $(BUILD)/verilator/<variant>/.  Verilator runs only when the RTL or the generated
# headers change (a stamp per variant), so a second `make` does nothing.

RTL_SRCS    ?= $(wildcard rtl/*.sv)
RTL_INC     ?= -I$(GEN)
RTL_TOP     ?= ita_pmu
RTL_WAIVERS ?=
STREAM_LIB  ?= $(BUILD)/libpmustream.a
REF_LIB     ?= $(BUILD)/libpmuref.a
SW_LIB      ?= $(BUILD)/libpmusw.a

VLT_ROOT := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
VLT_OUT  := $(BUILD)/verilator

# -O3 and fast X handling: the RTL resets every register, so X never reaches an output.
# The time unit is one cycle record = 1 ns (see verilator/ita/rtl_backend.cpp).
VLT_FLAGS := --cc --trace-fst -O3 --x-assign fast --x-initial fast --noassert \
             --timescale 1ns/1ps --top-module $(RTL_TOP) $(RTL_INC) $(RTL_WAIVERS)

# The sub-make compiles the generated C++; these override whatever `make OPT=...` passed.
VLT_SUBMAKE := $(MAKE) --no-print-directory OPT= OPT_FAST=-O2 OPT_SLOW=-O1 OPT_GLOBAL=-O2 \
               VK_CPPFLAGS_WALL= CFG_CXXFLAGS_STD=-std=c++17

# $(call vlt_variant,<dir>,<prefix>,<Model>)
define vlt_variant
VLT_STAMP_$(1) := $(VLT_OUT)/$(1)/verilated.stamp
VLT_LIB_$(1)   := $(VLT_OUT)/$(1)/$(2)__ALL.a

$(VLT_OUT)/$(1)/verilated.stamp: $(RTL_SRCS) $(GEN_VH) $(RTL_WAIVERS) verilator/verilator.mk
	@mkdir -p $(VLT_OUT)/$(1)
	$(VERILATOR) $(VLT_FLAGS) -GModel=$(3) "-GPmdSext=1'b1" "-GThrGe=1'b0" "-GFineGran2=1'b0" --prefix $(2) \
	  -Mdir $(VLT_OUT)/$(1) $(RTL_SRCS)
	@touch $$@

# Verilator skips identical regenerations, so the archive is touched to stay newer
# than the stamp.
$(VLT_OUT)/$(1)/$(2)__ALL.a: $(VLT_OUT)/$(1)/verilated.stamp
	+$(VLT_SUBMAKE) -C $(VLT_OUT)/$(1) -f $(2).mk $(2)__ALL.a
	@touch $$@
endef

$(eval $(call vlt_variant,ita2,Vita2_pmu,1))
$(eval $(call vlt_variant,ita,Vita_pmu,0))

# The Verilator runtime, compiled once (in the Itanium 2 directory, with its settings).
VLT_RUNTIME := $(VLT_OUT)/ita2/libverilated.a
$(VLT_RUNTIME): $(VLT_LIB_ita2) verilator/vlt_runtime.mk
	+$(VLT_SUBMAKE) -C $(VLT_OUT)/ita2 -f $(CURDIR)/verilator/vlt_runtime.mk \
	  VM_MK=Vita2_pmu.mk libverilated.a
	@touch $@

VLT_CXXFLAGS := $(CXXFLAGS) -I$(VLT_OUT)/ita2 -I$(VLT_OUT)/ita -isystem $(VLT_ROOT)/include \
                -isystem $(VLT_ROOT)/include/vltstd -DVM_TRACE=1 -DVM_TRACE_FST=1 -faligned-new

$(BUILD)/obj/verilator/ita/rtl_backend.o: verilator/ita/rtl_backend.cpp $(VLT_STAMP_ita2) $(VLT_STAMP_ita)
	@mkdir -p $(dir $@)
	$(CXX) $(VLT_CXXFLAGS) -c $< -o $@

RTL_LIB     := $(BUILD)/libpmurtl.a
RTL_LDLIBS  := -lz -pthread -latomic

# One archive: the glue, both models and the runtime (an ar MRI script merges archives).
$(RTL_LIB): $(BUILD)/obj/verilator/ita/rtl_backend.o $(VLT_LIB_ita2) $(VLT_LIB_ita) $(VLT_RUNTIME)
	@rm -f $@
	@printf 'create %s\naddmod %s\naddlib %s\naddlib %s\naddlib %s\nsave\nend\n' \
	  $@ $(BUILD)/obj/verilator/ita/rtl_backend.o $(VLT_LIB_ita2) $(VLT_LIB_ita) $(VLT_RUNTIME) \
	  | $(AR) -M
	@echo "AR $@"

# The command layer's main() stays out of the archive (test binaries bring their own).
HARNESS_SRCS := verilator/cosim.c verilator/family.c verilator/config.c \
                $(filter-out verilator/bench/% verilator/tests/% verilator/cli/main.c,$(wildcard verilator/*/*.c))
HARNESS_OBJS := $(HARNESS_SRCS:%.c=$(BUILD)/obj/%.o)
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
HARNESS_TEST_SRCS := $(wildcard verilator/tests/*.cpp)
HARNESS_TEST_OBJS := $(HARNESS_TEST_SRCS:%.cpp=$(BUILD)/obj/%.o)
HARNESS_TEST_BIN  := $(BUILD)/tests/harness_tests

# The wave tests read FST files with the reader Verilator ships (gtkwave/fstapi.h).
$(HARNESS_TEST_OBJS): CXXFLAGS += -isystem $(VLT_ROOT)/include

$(HARNESS_TEST_BIN): $(HARNESS_TEST_OBJS) $(PMUSIM_LIBS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ -lgtest -lgtest_main $(RTL_LDLIBS) $(LDLIBS)

GTEST_BINS   += $(HARNESS_TEST_BIN)
TEST_SCRIPTS += verilator/tests/cli.sh verilator/tests/files.sh
TEST_DEPS    += $(PMUSIM)

# ---- make sim -------------------------------------------------------------------------
# With STREAM set, --cycles is passed only when CYCLES was given (it caps the stream).
SIM_ARGS = $(if $(STREAM),--stream $(STREAM) $(if $(filter command line environment,$(origin CYCLES)),--cycles $(CYCLES)),--seed $(SEED) --cycles $(CYCLES)) \
           $(if $(CONFIG),--config $(CONFIG)) \
           $(if $(filter-out 0 no,$(WAVES)),--waves $(BUILD)/sim.fst)

.PHONY: pmusim harness-test
pmusim: $(PMUSIM)

sim: deps
	@$(MAKE) --no-print-directory pmusim
	$(PMUSIM) run $(strip $(SIM_ARGS))

harness-test: $(HARNESS_TEST_BIN) $(PMUSIM)
	$(HARNESS_TEST_BIN)
	bash verilator/tests/cli.sh
	bash verilator/tests/files.sh
