# stream fragment: instruction streams (text and binary forms, validation, converter,
# seeded generator).  docs/stream-format.md describes the forms.
#
# Variables for other fragments:
#   $(STREAM_LIB)   build/libpmustream.a: include/pmu_stream.h; link it with $(COMMON_OBJS)
#                   (the event table gives the per-cycle limits)
# Targets:
#   stream-test     builds and runs build/tests/stream_tests (GoogleTest)

STREAM_SRCS := $(wildcard stream/*.c)
STREAM_OBJS := $(STREAM_SRCS:%.c=$(BUILD)/obj/%.o)
STREAM_LIB  := $(BUILD)/libpmustream.a

$(STREAM_LIB): $(STREAM_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

STREAM_TEST_SRCS := $(wildcard stream/tests/*.cpp)
STREAM_TEST_OBJS := $(STREAM_TEST_SRCS:%.cpp=$(BUILD)/obj/%.o)
STREAM_TEST_BIN  := $(BUILD)/tests/stream_tests

# test_doc.cpp checks the examples of the format reference.
$(STREAM_TEST_OBJS): CXXFLAGS += -DSTREAM_DOC='"$(CURDIR)/docs/stream-format.md"'

$(STREAM_TEST_BIN): $(STREAM_TEST_OBJS) $(STREAM_LIB) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ -lgtest -lgtest_main -pthread $(LDLIBS)

GTEST_BINS += $(STREAM_TEST_BIN)

.PHONY: stream-test
stream-test: $(STREAM_TEST_BIN)
	$(STREAM_TEST_BIN)
