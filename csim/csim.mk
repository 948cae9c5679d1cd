# csim fragment: the C reference model (libpmuref.a) and its GoogleTest tests.
#
#   $(REF_LIB)                   the model; link it with $(COMMON_OBJS)
#   $(BUILD)/tests/csim_tests    the tests (also in GTEST_BINS, run by make test)
#   make csim-test               build and run them
#   make csim-speed              steps per second of the model (build/csim_speed; not a test)

CSIM_SRCS := $(wildcard csim/*/*.c)
CSIM_OBJS := $(CSIM_SRCS:%.c=$(BUILD)/obj/%.o)
REF_LIB   := $(BUILD)/libpmuref.a

$(REF_LIB): $(CSIM_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

CSIM_TEST_SRCS := $(wildcard csim/*/tests/*.cpp)
CSIM_TEST_OBJS := $(CSIM_TEST_SRCS:%.cpp=$(BUILD)/obj/%.o)
CSIM_TEST_BIN  := $(BUILD)/tests/csim_tests

$(CSIM_TEST_BIN): $(CSIM_TEST_OBJS) $(REF_LIB) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $(CSIM_TEST_OBJS) $(REF_LIB) $(COMMON_OBJS) -o $@ -lgtest -lgtest_main -pthread

GTEST_BINS += $(CSIM_TEST_BIN)

.PHONY: csim-test
csim-test: $(CSIM_TEST_BIN)
	$(CSIM_TEST_BIN)

# Steps per second of the model alone, per qualification setup (not a test).
CSIM_SPEED_BIN := $(BUILD)/csim_speed

# stream.mk is included after this fragment, so its $(STREAM_LIB) is not known yet here.
$(CSIM_SPEED_BIN): $(BUILD)/obj/csim/ita/tests/ref_speed.o $(REF_LIB) $(BUILD)/libpmustream.a $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

.PHONY: csim-speed
csim-speed: $(CSIM_SPEED_BIN)
	$(CSIM_SPEED_BIN)
