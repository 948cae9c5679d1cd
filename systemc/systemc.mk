# systemc fragment: the SystemC / TLM-2.0 platform (docs/systemc.md), built with the
# installed SystemC 2.3.4 (pkg-config systemc).  C++ glue only: the PMUs, the software and
# the streams are the C libraries every other harness links.
#
#   $(SC_LIB)       the parts, the port, the player, the CPU stand-in, the checker, the
#                   platform (no sc_main), with each family's --sc glue and Verilated --sc
#                   top: one archive, linked before $(PMUSIM_LIBS) $(COMMON_OBJS)
#   $(PMUSIM_SC)    build/pmusim-sc: `pmusim run` on the platform (make sim-sc)
SC_CFLAGS := $(shell pkg-config --cflags systemc 2>/dev/null)
SC_LIBS   := $(or $(shell pkg-config --libs systemc 2>/dev/null),-lsystemc)

# ---- each family's RTL top Verilated with --sc (pmu_rtl_sc, include/sc/pmu_vsc_glue.h) ----
# $(call vsc_variant,<dir>,<prefix>,<top>,<sources>,<include flags>,<-G parameters>):
# like vlt_variant (verilator/verilator.mk) with --sc; defines VSC_PINS_<dir> (the pin
# list, tools/gen_vsc_pins.sh) and adds its archive to VSC_LIBS.  The generated C++ is
# compiled as the C harness's (-O2): loosely timed (docs/systemc.md, "The quantum"), the
# model's evaluation is most of what the platform spends a record on; the code that runs
# once (OPT_SLOW) at -O0, as in verilator/verilator.mk.  The Verilator runtime is the C harness's ($(RTL_LIB)); under SAN=1
# the same sanitizer flags as the C harness's models (VLT_SAN, verilator/verilator.mk).
VSC_FLAGS   := $(subst --cc,--sc,$(VLT_FLAGS))
VSC_SUBMAKE := $(MAKE) --no-print-directory OPT= OPT_FAST=-O2 OPT_SLOW=-O0 OPT_GLOBAL=-O2 \
               VK_CPPFLAGS_WALL= CFG_CXXFLAGS_STD=-std=c++17 USER_CPPFLAGS="$(VLT_SAN)"
VSC_LIBS    :=
VSC_GLUE_SRCS :=
define vsc_variant
VSC_PINS_$(1) := $(VLT_OUT)/$(1)/$(2)_pins.h
VSC_LIBS      += $(VLT_OUT)/$(1)/$(2)__ALL.a

$(VLT_OUT)/$(1)/verilated.stamp: $(4) $(GEN_VH) $(RTL_WAIVERS) verilator/verilator.mk systemc/systemc.mk
	@mkdir -p $(VLT_OUT)/$(1)
	$(VERILATOR) $(VSC_FLAGS) --top-module $(3) $(5) $(6) --prefix $(2) -Mdir $(VLT_OUT)/$(1) $(4)
	@touch $$@

$(VLT_OUT)/$(1)/$(2)_pins.h: $(VLT_OUT)/$(1)/verilated.stamp tools/gen_vsc_pins.sh
	bash tools/gen_vsc_pins.sh $(VLT_OUT)/$(1)/$(2).h $(shell echo $(2) | tr a-z A-Z)_PINS > $$@.tmp
	mv $$@.tmp $$@

$(VLT_OUT)/$(1)/$(2)__ALL.a: $(VLT_OUT)/$(1)/verilated.stamp
	+$(VSC_SUBMAKE) -C $(VLT_OUT)/$(1) -f $(2).mk $(2)__ALL.a
	@touch $$@
endef

include $(sort $(wildcard systemc/*/family.mk))

# Each family's glue (systemc/<family>/rtl_sc.cpp, added by its family.mk) is compiled
# with its Verilated model's headers: it defines pmu_vsc_<family>, which pmu_rtl_sc pairs
# with the family's descriptor for every family registered in include/common/pmu_families.def
# (a strong reference, so a registered family without it does not link).  The glue and the
# --sc tops go into $(SC_LIB) beside pmu_rtl_sc: the linker rescans an archive until no
# member resolves anything more, so the one archive pulls its glue and models in.
VSC_GLUE_OBJS := $(VSC_GLUE_SRCS:%.cpp=$(BUILD)/obj/%.o)
$(VSC_GLUE_OBJS): $(BUILD)/obj/%.o: %.cpp
	@mkdir -p $(dir $@)
	$(CXX) $(VLT_CXXFLAGS) $(SC_CFLAGS) -DVM_SC=1 $(VSC_INC) -MMD -MP -c $< -o $@

SC_MAIN_SRC := systemc/pmusim_sc_main.cpp
SC_SRCS := $(filter-out $(SC_MAIN_SRC),$(wildcard systemc/*.cpp))  # the parts, the platform
SC_OBJS := $(SC_SRCS:%.cpp=$(BUILD)/obj/%.o)
SC_LIB  := $(BUILD)/libpmusc.a
$(SC_OBJS) $(BUILD)/obj/$(SC_MAIN_SRC:.cpp=.o): CXXFLAGS += $(SC_CFLAGS)

# An ar MRI script merges the Verilated archives' members (as rtl_archive does,
# verilator/verilator.mk).
$(SC_LIB): $(SC_OBJS) $(VSC_GLUE_OBJS) $(VSC_LIBS)
	@mkdir -p $(dir $@)
	@rm -f $@; \
	{ echo "create $@"; for o in $(SC_OBJS) $(VSC_GLUE_OBJS); do echo "addmod $$o"; done; \
	  for l in $(VSC_LIBS); do echo "addlib $$l"; done; echo save; echo end; } | $(AR) -M; echo "AR $@"

PMUSIM_SC := $(BUILD)/pmusim-sc
$(PMUSIM_SC): $(BUILD)/obj/$(SC_MAIN_SRC:.cpp=.o) $(SC_LIB) $(PMUSIM_LIBS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ $(SC_LIBS) $(RTL_LDLIBS) $(LDLIBS)

# The socket's unit tests: sc_main is the test's own (SystemC elaborates once), so no
# gtest_main.
SC_TEST_SRCS := $(wildcard systemc/tests/*.cpp)
SC_TEST_OBJS := $(SC_TEST_SRCS:%.cpp=$(BUILD)/obj/%.o)
SC_TEST_BIN  := $(BUILD)/tests/sc_tests
$(SC_TEST_OBJS): CXXFLAGS += $(SC_CFLAGS)
$(SC_TEST_BIN): $(SC_TEST_OBJS) $(SC_LIB) $(PMUSIM_LIBS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ -lgtest $(SC_LIBS) $(RTL_LDLIBS) $(LDLIBS)
GTEST_BINS   += $(SC_TEST_BIN)
TEST_DEPS    += $(PMUSIM_SC)
TEST_SCRIPTS += systemc/tests/sim_sc.sh systemc/tests/quantum_sc.sh

# The platform's host instructions per simulated cycle (callgrind, lock-step, its default
# quantum) against verilator/bench/ir_baseline_systemc.txt, as the C harness's rows are checked
# (verilator/bench/bench.mk; skipped under SAN=1, which callgrind cannot run).
ifeq ($(SAN),1)
TEST_SKIPPED += instructions-per-cycle-within-baseline-systemc
else
# (pmusim-sc has no gen: pmusim makes the stream.)
TEST_CHECKS += instructions-per-cycle-within-baseline-systemc=mkdir -p $(BUILD)/ir-systemc && $(PMUSIM) gen --seed 1 --cycles 40000 --format binary -o $(BUILD)/ir-systemc/ir-stream.bin > /dev/null && bash verilator/bench/ir_per_cycle.sh --pmusim $(PMUSIM_SC) --config verilator/bench/bench.cfg --stream $(BUILD)/ir-systemc/ir-stream.bin --backends cosim --out $(BUILD)/ir-systemc --baseline verilator/bench/ir_baseline_systemc.txt;
endif

# The example of docs/systemc.md: the PMU in a platform of its own, built and run by make
# test on the RTL and on the reference model.
SC_EXAMPLE := $(BUILD)/examples/pmu_sc_example
$(BUILD)/obj/systemc/example/pmu_sc_example.o: CXXFLAGS += $(SC_CFLAGS)
$(SC_EXAMPLE): $(BUILD)/obj/systemc/example/pmu_sc_example.o $(SC_LIB) $(PMUSIM_LIBS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ $(SC_LIBS) $(RTL_LDLIBS) $(LDLIBS)
TEST_DEPS   += $(SC_EXAMPLE)
# The reference run checks its counts against the model's exact totals; the RTL run (the
# top Verilated with --sc) must print the same counts and interrupts (its register writes
# take clocks of their own, so not the same time).
TEST_CHECKS += systemc-example-ref=$(SC_EXAMPLE) ref;
TEST_CHECKS += systemc-example-rtl-equals-ref=diff <($(SC_EXAMPLE) | sed -e 's/(RTL)//' -e 's/, [0-9]* ns$$//') <($(SC_EXAMPLE) ref | sed -e 's/(reference model)//' -e 's/, [0-9]* ns$$//');

# make sim-sc: make sim's workload (the same SIM_ARGS) on the SystemC platform.
# make sc-example: build/examples/pmu_sc_example (README's SystemC section).
.PHONY: pmusim-sc sim-sc sc-example
pmusim-sc: $(PMUSIM_SC)
sc-example: $(SC_EXAMPLE)

sim-sc: deps
	@$(MAKE) --no-print-directory pmusim pmusim-sc
	$(PMUSIM_SC) run $(strip $(SIM_ARGS))
