# formal fragment: `make formal` (docs/formal.md) proves each family's properties
# (formal/<family>/<family>_pmu_props.sv) with Yosys and yosys-smtbmc: BMC to FORMAL_DEPTH
# steps, k-induction, the covers, and the mutant each property must catch (formal/run.sh).

FORMAL_FAMILIES := $(sort $(patsubst formal/%/,%,$(dir $(wildcard formal/*/*_pmu_props.sv))))
FORMAL_DEPTH    ?= 20
FORMAL_OUT      ?= $(BUILD)/formal

.PHONY: formal formal-files
formal: deps $(GEN_VH)
	@bash formal/run.sh --depth $(FORMAL_DEPTH) --out $(FORMAL_OUT) $(FORMAL_FAMILIES)

# The sources and the include option of family FORMAL_PREFIX (EV4, EV67: its rtl/<family>/family.mk
# variables), one a line (run.sh asks).
formal-files:
	@echo '$($(FORMAL_PREFIX)_RTL_SRCS)'
	@echo '$($(FORMAL_PREFIX)_RTL_INC)'

# make test runs the quick version (depth 8, under a minute) and run.sh's usage checks, and
# the replay of a counterexample kept in the tree (cex2replay, run --writes, formal/replay.sh).
TEST_SCRIPTS += formal/tests/formal.sh formal/tests/replay.sh
