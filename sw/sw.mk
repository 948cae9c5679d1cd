# sw fragment: the PMU software under test -- the event library (event table, event
# strings, range restriction, dispatch) and the overflow driver -- and their tests.
# It builds from include/ and sw/ alone: nothing here includes the harness.
#
#   $(SW_LIB)                  build/libpmusw.a; link it with $(COMMON_OBJS)
#   $(BUILD)/tests/sw_tests    GoogleTest tests (in GTEST_BINS, run by make test)
#   make sw-test               build and run them
#   make sw-test-long          the property tests over 50x more random ranges and requests

SW_LIB_SRCS := $(wildcard sw/*/*.c)
SW_LIB_OBJS := $(SW_LIB_SRCS:%.c=$(BUILD)/obj/%.o)
SW_LIB      := $(BUILD)/libpmusw.a

$(SW_LIB): $(SW_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

SW_TEST_SRCS := $(wildcard sw/*/tests/lib_*.cpp)
SW_TEST_OBJS := $(SW_TEST_SRCS:%.cpp=$(BUILD)/obj/%.o)
SW_TEST_BIN  := $(BUILD)/tests/sw_tests

# The encode tests run the command in-process (the Itanium family's encode, in the
# harness library), so the command layer is linked too.
$(SW_TEST_BIN): $(SW_TEST_OBJS) $(PMUSIM_LIBS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ -lgtest -lgtest_main $(RTL_LDLIBS) $(LDLIBS)

GTEST_BINS += $(SW_TEST_BIN)

.PHONY: sw-test sw-test-long
sw-test: $(SW_TEST_BIN)
	$(SW_TEST_BIN)

# ITA_EVLIB_PROPERTY_SCALE multiplies the number of random ranges of the property tests.
sw-test-long: $(SW_TEST_BIN)
	ITA_EVLIB_PROPERTY_SCALE=50 $(SW_TEST_BIN) --gtest_filter='*Property*'

# ---- the overflow driver and the commands on it (count, profile) ------------------------
# The driver (sw/ita/drv.c) is in $(SW_LIB); `pmusim count` and `pmusim profile` are in
# the command layer (verilator/cli/, the Itanium hooks in verilator/ita/).
#   $(DRV_TEST_BIN)   build/tests/drv_tests: the driver's GoogleTest tests (in GTEST_BINS),
#                     with the symbol tables of profile (include/cli/pmu_symtab.h)
#   make drv-test     build and run the driver tests and the command script
DRV_TEST_SRCS := $(wildcard sw/*/tests/drv_*.cpp)
DRV_TEST_OBJS := $(DRV_TEST_SRCS:%.cpp=$(BUILD)/obj/%.o)
DRV_TEST_BIN  := $(BUILD)/tests/drv_tests

$(DRV_TEST_BIN): $(DRV_TEST_OBJS) $(PMUSIM_LIBS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ -lgtest -lgtest_main $(RTL_LDLIBS) $(LDLIBS)

GTEST_BINS   += $(DRV_TEST_BIN)
TEST_SCRIPTS += sw/tests/cmd_count_profile.sh

.PHONY: drv-test
drv-test: $(DRV_TEST_BIN) $(PMUSIM)
	$(DRV_TEST_BIN)
	bash sw/tests/cmd_count_profile.sh
