# stream fragment: instruction streams for any PMU family (text and binary forms,
# readers, writers, record sources, the generator's front) and the Itanium record
# dialect (stream/ita/: its text and binary records, validation, the seeded generator,
# the IA-64 instruction classes).  docs/ita-stream-format.md describes the forms.
#
# Variables for other fragments:
#   $(STREAM_LIB)   build/libpmustream.a: include/stream/pmu_stream.h and ita_dialect;
#                   link it with $(COMMON_OBJS) (the event table gives the per-cycle limits)
# Targets:
#   stream-test     builds and runs build/tests/stream_tests (GoogleTest)
STREAM_SRCS := $(wildcard stream/*.c) $(wildcard stream/*/*.c)
STREAM_OBJS := $(STREAM_SRCS:%.c=$(BUILD)/obj/%.o)
STREAM_LIB  := $(BUILD)/libpmustream.a

$(STREAM_LIB): $(STREAM_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

# The generic and Itanium tests (stream/tests/) and each family's own (stream/<family>/tests/).
STREAM_TEST_SRCS := $(wildcard stream/tests/*.cpp) $(wildcard stream/*/tests/*.cpp)
STREAM_TEST_OBJS := $(STREAM_TEST_SRCS:%.cpp=$(BUILD)/obj/%.o)
STREAM_TEST_BIN  := $(BUILD)/tests/stream_tests

# test_doc.cpp checks the examples of the format reference, test_ia64_enc.cpp the class
# tables of both references.
$(STREAM_TEST_OBJS): CXXFLAGS += -DSTREAM_DOC='"$(CURDIR)/docs/ita-stream-format.md"' \
                                 -DCONFIG_DOC='"$(CURDIR)/docs/ita-config-format.md"'

$(STREAM_TEST_BIN): $(STREAM_TEST_OBJS) $(STREAM_LIB) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) $^ -o $@ -lgtest -lgtest_main -pthread $(LDLIBS)

GTEST_BINS += $(STREAM_TEST_BIN)

.PHONY: stream-test
stream-test: $(STREAM_TEST_BIN)
	$(STREAM_TEST_BIN)
