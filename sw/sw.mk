# sw fragment: the PMU software library (event table, event strings, range
# restriction, dispatch, the overflow driver) and its tests.
#
#   $(SW_LIB)                  build/libpmusw.a; link it with $(COMMON_OBJS)
#   $(SW_INC)                  -I flag for sw/pmulib.h and sw/sw_cmds.h
#   $(SW_CMD_OBJS)             the pmusim sub-commands (encode, count, profile) for build/pmusim
#   $(BUILD)/tests/sw_tests    GoogleTest tests (in GTEST_BINS, run by make test)
#   make sw-test               build and run them
#   make sw-test-long          the range property tests over 50x more random ranges

SW_INC      := -Isw
SW_CMD_SRCS := $(wildcard sw/cmd_*.c)
SW_LIB_SRCS := $(filter-out $(SW_CMD_SRCS),$(wildcard sw/*.c))
SW_LIB_OBJS := $(SW_LIB_SRCS:%.c=$(BUILD)/obj/%.o)
SW_CMD_OBJS := $(SW_CMD_SRCS:%.c=$(BUILD)/obj/%.o)
SW_LIB      := $(BUILD)/libpmusw.a

$(SW_LIB_OBJS) $(SW_CMD_OBJS): CFLAGS += $(SW_INC)

$(SW_LIB): $(SW_LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

SW_TEST_SRCS := $(wildcard sw/tests/lib_*.cpp)
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
	PMULIB_PROPERTY_SCALE=50 $(SW_TEST_BIN) --gtest_filter='RangeProperty*'
