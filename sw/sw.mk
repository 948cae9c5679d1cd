# sw fragment: the PMU software library (event table, event strings, range
# restriction, dispatch, the overflow driver) and its tests.
#
#   $(SW_LIB)                  build/libpmusw.a; link it with $(COMMON_OBJS)
#   $(SW_INC)                  -I flag for sw/pmulib.h and sw/sw_cmds.h
#   $(SW_CMD_OBJS)             the pmusim sub-commands (encode, count, profile) for build/pmusim
#   $(BUILD)/tests/sw_tests    GoogleTest tests (in GTEST_BINS, run by make test)
#   make sw-test               build and run them
#   make sw-test-long          the property tests over 50x more random ranges and requests

SW_INC      := -Isw
SW_CMD_SRCS := $(wildcard sw/cmd_*.c)
SW_LIB_SRCS := $(wildcard sw/*/*.c) $(filter-out $(SW_CMD_SRCS),$(wildcard sw/*.c))
SW_LIB_OBJS := $(SW_LIB_SRCS:%.c=$(BUILD)/obj/%.o)
SW_CMD_OBJS := $(SW_CMD_SRCS:%.c=$(BUILD)/obj/%.o)
SW_LIB      := $(BUILD)/libpmusw.a

$(SW_LIB_OBJS) $(SW_CMD_OBJS): CFLAGS += $(SW_INC)

$(SW_LIB): $(SW_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

SW_TEST_SRCS := $(wildcard sw/*/tests/lib_*.cpp)
SW_TEST_OBJS := $(SW_TEST_SRCS:%.cpp=$(BUILD)/obj/%.o)
SW_TEST_BIN  := $(BUILD)/tests/sw_tests

$(SW_TEST_OBJS): CXXFLAGS += $(SW_INC)

# The encode tests run the command in-process, so the command objects are linked too.
$(SW_TEST_BIN): $(SW_TEST_OBJS) $(BUILD)/obj/sw/cmd_encode.o $(SW_LIB) $(REF_LIB) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ -lgtest -lgtest_main -pthread $(LDLIBS)

GTEST_BINS += $(SW_TEST_BIN)

.PHONY: sw-test sw-test-long
sw-test: $(SW_TEST_BIN)
	$(SW_TEST_BIN)

# PMULIB_PROPERTY_SCALE multiplies the number of random ranges of the property tests.
sw-test-long: $(SW_TEST_BIN)
	PMULIB_PROPERTY_SCALE=50 $(SW_TEST_BIN) --gtest_filter='*Property*'

# ---- the overflow driver, `pmusim count` and `pmusim profile` (issue 4, part B) --------
# The driver (sw/drv.c) and the code count and profile share (sw/drv_cli.c, sw/drv_syms.c)
# are in $(SW_LIB) through the sw/*.c wildcard above; the commands are in $(SW_CMD_OBJS).
# A binary linking $(SW_CMD_OBJS) also needs $(HARNESS_LIB) $(RTL_LIB) $(STREAM_LIB)
# $(REF_LIB) and $(RTL_LDLIBS) (the commands run the lock-step pair).
#   $(DRV_TEST_BIN)   build/tests/drv_tests: the driver's GoogleTest tests (in GTEST_BINS)
#   make drv-test     build and run the driver tests and the command script
$(BUILD)/obj/sw/drv_cli.o $(BUILD)/obj/sw/cmd_count.o $(BUILD)/obj/sw/cmd_profile.o: CFLAGS += $(HARNESS_INC)

DRV_TEST_SRCS := $(wildcard sw/*/tests/drv_*.cpp)
DRV_TEST_OBJS := $(DRV_TEST_SRCS:%.cpp=$(BUILD)/obj/%.o)
DRV_TEST_BIN  := $(BUILD)/tests/drv_tests

$(DRV_TEST_OBJS): CXXFLAGS += $(SW_INC)

$(DRV_TEST_BIN): $(DRV_TEST_OBJS) $(SW_LIB) $(RTL_LIB) $(REF_LIB) $(STREAM_LIB) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ -lgtest -lgtest_main $(RTL_LDLIBS) $(LDLIBS)

GTEST_BINS   += $(DRV_TEST_BIN)
TEST_SCRIPTS += sw/tests/cmd_count_profile.sh

.PHONY: drv-test
drv-test: $(DRV_TEST_BIN) $(PMUSIM)
	$(DRV_TEST_BIN)
	bash sw/tests/cmd_count_profile.sh
