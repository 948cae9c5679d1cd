# systemc fragment: the SystemC / TLM-2.0 platform (docs/systemc.md), built with the
# installed SystemC 2.3.4 (pkg-config systemc).  C++ glue only: the PMUs, the software and
# the streams are the C libraries every other harness links.
#
#   $(SC_LIB)       the parts, the port, the player, the CPU stand-in, the checker, the
#                   platform (no sc_main)
#   $(PMUSIM_SC)    build/pmusim-sc: `pmusim run` on the platform (make sim-sc)
SC_CFLAGS := $(shell pkg-config --cflags systemc 2>/dev/null)
SC_LIBS   := $(or $(shell pkg-config --libs systemc 2>/dev/null),-lsystemc)

SC_MAIN_SRC := systemc/pmusim_sc_main.cpp
SC_SRCS := $(filter-out $(SC_MAIN_SRC),$(wildcard systemc/*.cpp))
SC_OBJS := $(SC_SRCS:%.cpp=$(BUILD)/obj/%.o)
SC_LIB  := $(BUILD)/libpmusc.a
$(SC_OBJS) $(BUILD)/obj/$(SC_MAIN_SRC:.cpp=.o): CXXFLAGS += $(SC_CFLAGS)

$(SC_LIB): $(SC_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

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
TEST_SCRIPTS += systemc/tests/sim_sc.sh

# The example of docs/systemc.md: the PMU in a platform of its own, built and run by make
# test on the RTL and on the reference model.
SC_EXAMPLE := $(BUILD)/examples/pmu_sc_example
$(BUILD)/obj/systemc/example/pmu_sc_example.o: CXXFLAGS += $(SC_CFLAGS)
$(SC_EXAMPLE): $(BUILD)/obj/systemc/example/pmu_sc_example.o $(SC_LIB) $(PMUSIM_LIBS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ $(SC_LIBS) $(RTL_LDLIBS) $(LDLIBS)
TEST_DEPS   += $(SC_EXAMPLE)
# The reference run checks its counts against the model's exact totals; the RTL run must
# print the same counts and interrupts.
TEST_CHECKS += systemc-example-ref=$(SC_EXAMPLE) ref;
TEST_CHECKS += systemc-example-rtl-equals-ref=diff <($(SC_EXAMPLE) | sed 's/(RTL)//') <($(SC_EXAMPLE) ref | sed 's/(reference model)//');

# make sim-sc: make sim's workload (the same SIM_ARGS) on the SystemC platform.
.PHONY: pmusim-sc sim-sc
pmusim-sc: $(PMUSIM_SC)

sim-sc: deps
	@$(MAKE) --no-print-directory pmusim pmusim-sc
	$(PMUSIM_SC) run $(strip $(SIM_ARGS))
