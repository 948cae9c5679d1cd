# fuzz fragment: the fuzz harnesses of tests/fuzz/ (docs/fuzzing.md).  Each fuzz_<name>.c is
# one libFuzzer entry point over one parser, built two ways:
#
#   $(BUILD)/fuzz/replay/fuzz_<name>   gcc, with our corpus runner (tests/fuzz/replay.c):
#                                      `make test` replays tests/fuzz/corpus/fuzz_<name>/
#                                      (one check per harness)
#   $(BUILD)/fuzz/bin/fuzz_<name>      clang -fsanitize=fuzzer,address,undefined: `make fuzz`
#
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_HARNESSES="fuzz_config ..."] [FUZZ_MIN_RATE=1000]
#       runs each harness for FUZZ_SECONDS from its in-tree corpus; new inputs go to
#       $(BUILD)/fuzz/corpus/<harness>/, crashes to $(BUILD)/fuzz/crashes/<harness>/.  Fails
#       on a crash, and on a harness under FUZZ_MIN_RATE executions a second of CPU time.

FUZZ_ALL_HARNESSES := $(patsubst tests/fuzz/%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_HARNESSES ?= $(FUZZ_ALL_HARNESSES)
FUZZ_SECONDS   ?= 60
FUZZ_MIN_RATE  ?= 1000
FUZZ_CC        ?= clang-14
FUZZ_OUT       := $(BUILD)/fuzz

# Each registered family's part of fuzz_config (tests/fuzz/config_<family>.c, found by name),
# in an archive of its own: only fuzz_config takes anything from it.
FUZZ_CONFIG_PARTS := $(sort $(wildcard tests/fuzz/config_*.c))
FUZZ_CONFIG_LIB   := $(FUZZ_OUT)/libfuzzconfig.a

$(FUZZ_CONFIG_LIB): $(FUZZ_CONFIG_PARTS:%.c=$(BUILD)/obj/%.o)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

# ---- the replay, with gcc: part of make test ------------------------------------------
# The parsers as every program links them (the archives bring only what is used).
FUZZ_REPLAY_LIBS := $(FUZZ_CONFIG_LIB) $(HARNESS_LIB) $(SW_LIB) $(STREAM_LIB) $(COMMON_OBJS)

$(FUZZ_OUT)/replay/%: $(BUILD)/obj/tests/fuzz/%.o $(BUILD)/obj/tests/fuzz/replay.o $(FUZZ_REPLAY_LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

# (Included before tests/tests.mk: its test-build rule reads TEST_DEPS as it is parsed.)
FUZZ_REPLAY_BINS := $(FUZZ_ALL_HARNESSES:%=$(FUZZ_OUT)/replay/%)
TEST_DEPS += $(FUZZ_REPLAY_BINS)
TEST_CHECKS += $(foreach h,$(FUZZ_ALL_HARNESSES),$(h)-corpus-replay=$(FUZZ_OUT)/replay/$(h) tests/fuzz/corpus/$(h);)

# ---- libFuzzer, with clang: make fuzz -----------------------------------------------------
# The parsers and what they call, compiled with coverage for the fuzzer and both sanitizers
# (a harness's own checks abort; the sanitizers catch what they cannot see).  Each family's
# configuration reader is named by its verilator/<family>/family.mk (FUZZ_CONFIG_SRCS +=,
# read before this fragment).
FUZZ_SAN    := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -O1 -g -Wall -Wextra -Iinclude $(FUZZ_SAN) -MMD -MP
FUZZ_LIB_SRCS := $(STREAM_SRCS) $(SW_LIB_SRCS) $(COMMON_SRCS) $(FUZZ_CONFIG_SRCS) $(FUZZ_CONFIG_PARTS) \
                 verilator/cli/symtab.c verilator/cli/kvfile.c verilator/cli/outfile.c \
                 verilator/cli/conform_report.c
FUZZ_LIB := $(FUZZ_OUT)/libfuzzparsers.a

$(FUZZ_OUT)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_LIB): $(FUZZ_LIB_SRCS:%.c=$(FUZZ_OUT)/obj/%.o)
	@rm -f $@
	$(AR) rcs $@ $^

$(FUZZ_OUT)/bin/%: $(FUZZ_OUT)/obj/tests/fuzz/%.o $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ -o $@ -lm

.PHONY: fuzz fuzz-build fuzz-deps
fuzz-deps:
	@bash tools/install-deps.sh fuzz

fuzz-build: $(FUZZ_HARNESSES:%=$(FUZZ_OUT)/bin/%)

fuzz: fuzz-deps
	@$(MAKE) --no-print-directory fuzz-build
	@bash tests/fuzz/run_fuzz.sh --out $(FUZZ_OUT) --seconds $(FUZZ_SECONDS) --min-rate $(FUZZ_MIN_RATE) $(FUZZ_HARNESSES)

# The objects reached only through the pattern rules above are kept (make would delete them
# as intermediate files and compile them again next time).
.SECONDARY: $(FUZZ_ALL_HARNESSES:%=$(BUILD)/obj/tests/fuzz/%.o) $(BUILD)/obj/tests/fuzz/replay.o \
            $(FUZZ_ALL_HARNESSES:%=$(FUZZ_OUT)/obj/tests/fuzz/%.o)

-include $(shell find $(FUZZ_OUT)/obj -name '*.d' 2>/dev/null)
