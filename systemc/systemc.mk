# systemc fragment: the SystemC / TLM-2.0 parts (docs/systemc.md), built with the
# installed SystemC 2.3.4 (pkg-config systemc).  C++ glue only: the PMUs, the software and
# the streams are the C libraries every other harness links.
SC_CFLAGS := $(shell pkg-config --cflags systemc 2>/dev/null)
SC_LIBS   := $(or $(shell pkg-config --libs systemc 2>/dev/null),-lsystemc)

SC_SRCS := $(wildcard systemc/*.cpp)
SC_OBJS := $(SC_SRCS:%.cpp=$(BUILD)/obj/%.o)
$(SC_OBJS): CXXFLAGS += $(SC_CFLAGS)

# The socket's unit tests: sc_main is the test's own (SystemC elaborates once), so no
# gtest_main.
SC_TEST_SRCS := $(wildcard systemc/tests/*.cpp)
SC_TEST_OBJS := $(SC_TEST_SRCS:%.cpp=$(BUILD)/obj/%.o)
SC_TEST_BIN  := $(BUILD)/tests/sc_tests
$(SC_TEST_OBJS): CXXFLAGS += $(SC_CFLAGS)
$(SC_TEST_BIN): $(SC_TEST_OBJS) $(SC_OBJS) $(PMUSIM_LIBS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ -lgtest $(SC_LIBS) $(RTL_LDLIBS) $(LDLIBS)
GTEST_BINS += $(SC_TEST_BIN)
