# tests fragment: `make test` builds everything, then runs every suite through
# tests/run_all.sh, which ends with "N passed, M failed".

# One-command checks, each counted as one test (name=command; ...).
TEST_CHECKS += lint=$(MAKE) --no-print-directory lint;
TEST_CHECKS += synth=$(MAKE) --no-print-directory synth;
TEST_CHECKS += register-map-doc-up-to-date=$(BUILD)/gen_defs md | diff -u docs/register-map.md -;

.PHONY: test test-build
test: deps
	@$(MAKE) --no-print-directory -j$(JOBS) test-build
	@bash tests/run_all.sh --gtest "$(GTEST_BINS)" --scripts "$(TEST_SCRIPTS)" --checks "$(TEST_CHECKS)"

test-build: $(BUILD)/gen_defs $(GEN_VH) $(GTEST_BINS) $(TEST_DEPS)
