# tests fragment: `make test` builds everything, then runs every suite through
# tests/run_all.sh, which ends with "N passed, M failed".

# Each family's test binaries that link its Verilated RTL: its reference-model tests run on the
# RTL too (the same objects, linked with the RTL as the backend they create), and tests that
# run one scenario on both backends.  The family names them in its fragment
# (verilator/<family>/family.mk): RTL_UNIT_TESTS_<family> := <binary>..., and <binary>_SRCS :=
# its sources; in the order the families are registered (RTL_UNIT_TEST_BINS, verilator/verilator.mk).
# make mutants links each of them with a mutant's RTL too (tests/mutants/mutants.mk).
define rtl_unit_tests
$(BUILD)/tests/$(1): $$($(1)_SRCS:%.cpp=$(BUILD)/obj/%.o) $$(RTL_LIB) $$(REF_LIB) $$(STREAM_LIB) $$(COMMON_OBJS)
	@mkdir -p $$(dir $$@)
	$$(CXX) $$(CXXFLAGS) $$^ -o $$@ -lgtest -lgtest_main $$(RTL_LDLIBS) $$(LDLIBS)
GTEST_BINS += $(BUILD)/tests/$(1)
endef
$(foreach b,$(RTL_UNIT_TEST_BINS),$(eval $(call rtl_unit_tests,$(b))))

# Random lock-step conformance (pmusim conform), and conformance at scale: shards, their
# JSON and JUnit results, conform-merge.
TEST_SCRIPTS += tests/conform.sh tests/conform_shards.sh

# A stream with no records (empty, comments only, CR only, an empty binary stream) is
# refused by every command that runs one, on every family.
TEST_SCRIPTS += tests/no_records.sh

# The README's and docs/'s examples ("$ " lines in fenced blocks) run in a scratch directory
# and print what the page shows; every page of docs/ is in docs/README.md's index.
TEST_SCRIPTS += tests/doc_test.sh

# --plot (docs/plots.md): every command's picture in every format, the timeline's size and
# geometry on a tiny run, bounded memory, and bad --plot arguments refused.
TEST_SCRIPTS += tests/plots.sh

# A new family is its own files plus one registration line: tools/new-family.sh scaffolds one
# in a copy of the tree, which builds (only what it adds), runs in lock-step and passes its
# tests (docs/adding-a-family.md, "What the scaffold writes").
TEST_SCRIPTS += tests/new_family.sh

# Each family's command-line tests (verilator/cli/<family>/tests/*.sh).
TEST_SCRIPTS += $(sort $(wildcard verilator/cli/*/tests/*.sh))

# One-command checks, each counted as one test (name=command;...).
TEST_CHECKS += lint=$(MAKE) --no-print-directory lint;
# Yosys maps every top and parameter set to gates (make synth-check, rtl/rtl.mk: make synth
# without its optimisations, the passes that can refuse a design kept, and check -assert).
TEST_CHECKS += synth-check=$(MAKE) --no-print-directory synth-check;
# The include rules between folders (tools/check-layers.sh), and that the check catches
# a planted violation of each rule.
TEST_CHECKS += layers=bash tools/check-layers.sh;
TEST_CHECKS += layers-check-catches-violations=bash tools/check-layers-test.sh;
# Every repository path the docs and comments cite exists (tools/check-cited-paths.sh), and
# the check catches a stale one.
TEST_CHECKS += cited-paths=bash tools/check-cited-paths.sh;
TEST_SCRIPTS += tools/check-cited-paths-test.sh

# A slip in include/common/ita/ita_regs.def fails the build: a row with two named columns swapped does
# not compile, a .def the generated RTL cannot use stops the generator (one test per case).
TEST_SCRIPTS += tools/tests/def_checks.sh

# The mutation catalog applies to today's RTL (make mutants runs it: docs/mutants.md).
TEST_SCRIPTS += tests/mutants/check.sh

# Tests this build cannot run (named by run_all.sh, neither run nor counted).
TEST_SKIPPED ?=

# run_all.sh runs the suites JOBS at a time; the longest start first (its durations file,
# else this list: the slowest suites of a fresh build, longest first, docs/bench.md).
TEST_FIRST ?= formal/tests/formal.sh sv_tests/run.sh synth-check qemu/tests/record_cli.sh \
              qemu/tests/real_short.sh stream_tests tests/new_family.sh

.PHONY: test test-build conformance
test: deps
	@$(MAKE) --no-print-directory -j$(JOBS) test-build
	@BUILD=$(BUILD) PMUSIM=$(PMUSIM) GEN=$(PMUSIM) PMUSIM_SC=$(PMUSIM_SC) JOBS=$(JOBS) \
	  bash tests/run_all.sh --gtest "$(GTEST_BINS)" --scripts "$(TEST_SCRIPTS)" --checks "$(TEST_CHECKS)" \
	  --first "$(TEST_FIRST)" \
	  $(if $(strip $(TEST_SKIPPED)),--skipped "$(strip $(TEST_SKIPPED))" --skip-reason "skipped under SAN=1")

test-build: $(GEN_TOOLS) $(GEN_VH) $(GTEST_BINS) $(TEST_DEPS)

# Conformance at scale (docs/conformance.md): every family x model x configuration (random,
# workload, qual) x service (harness, driver), RUNS seeds from SEED, CYCLES records each.
# SHARD=I/N runs the I-th of N deterministic slices (independent processes: a Slurm array, a
# CI matrix, GNU parallel); each writes $(CONFORM_OUT)/shard-I-of-N.{xml,json}.  Without
# SHARD the one shard's results are merged at once; `make conformance-merge` merges the
# shards found in $(CONFORM_OUT) into merged.json / merged.xml and prints the report.
RUNS        ?= 100
SHARD       ?= 1/1
CONFORM_OUT ?= $(BUILD)/conformance
CONFORM_SHARD_FILE = $(CONFORM_OUT)/shard-$(subst /,-of-,$(SHARD))
.PHONY: conformance-merge
conformance: deps
	@$(MAKE) --no-print-directory pmusim
	@mkdir -p $(CONFORM_OUT)
	$(PMUSIM) conform --matrix --seed $(SEED) --runs $(RUNS) --cycles $(CYCLES) --shard $(SHARD) \
	  --junit $(CONFORM_SHARD_FILE).xml --json $(CONFORM_SHARD_FILE).json
	@if [ "$(SHARD)" = 1/1 ]; then $(MAKE) --no-print-directory conformance-merge; fi

conformance-merge:
	$(PMUSIM) conform-merge -o $(CONFORM_OUT)/merged.json --junit $(CONFORM_OUT)/merged.xml \
	  $(wildcard $(CONFORM_OUT)/shard-*-of-*.json)

# make mutants (tests/mutants/mutants.mk).
include tests/mutants/mutants.mk

# make formal (formal/formal.mk).
include formal/formal.mk
