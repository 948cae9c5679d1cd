# formal fragment: `make formal` (docs/formal.md) proves each family's properties
# (its checkers formal/<family>/<family>_*_props.sv) with Yosys and yosys-smtbmc: BMC to FORMAL_DEPTH
# steps, k-induction, the covers, and the mutant each property must catch (formal/run.sh).
# A property whose inputs are unchanged since it passed reuses that result, kept in
# FORMAL_CACHE (run.sh --cache; FORMAL_CACHE= proves every property again).

FORMAL_FAMILIES := $(sort $(foreach d,$(wildcard formal/*/),$(if $(wildcard $(d)$(notdir $(d:/=))_*_props.sv),$(notdir $(d:/=)))))
FORMAL_DEPTH    ?= 20
FORMAL_OUT      ?= $(BUILD)/formal
FORMAL_CACHE    ?= $(BUILD)/formal-cache

.PHONY: formal formal-files formal-families
formal: deps $(GEN_VH)
	@bash formal/run.sh --depth $(FORMAL_DEPTH) --out $(FORMAL_OUT) $(if $(FORMAL_CACHE),--cache $(FORMAL_CACHE)) $(FORMAL_FAMILIES)

# The families with a checker, one line.
formal-families:
	@echo '$(FORMAL_FAMILIES)'

# The prefix of family FORMAL_FAMILY's rtl/<family>/family.mk variables (<prefix>RTL_SRCS,
# <prefix>RTL_INC); the Itanium's have none.
FORMAL_VARS_ev4  := EV4_
FORMAL_VARS_ev67 := EV67_
FORMAL_VARS_ita  :=

# The sources and the include option of family FORMAL_FAMILY, one a line (run.sh asks).
formal-files:
	@$(if $(filter undefined,$(origin FORMAL_VARS_$(FORMAL_FAMILY))),\
	  $(error formal-files: no family '$(FORMAL_FAMILY)' (expected FORMAL_FAMILY=ev4, ev67 or ita)))
	@echo '$($(FORMAL_VARS_$(FORMAL_FAMILY))RTL_SRCS)'
	@echo '$($(FORMAL_VARS_$(FORMAL_FAMILY))RTL_INC)'

# make test runs the quick version (depth 8; the Itanium's 3), its cache in $(BUILD)/formal-cache
# too, and run.sh's usage checks, and
# the replay of a counterexample kept in the tree (cex2replay, run --writes, formal/replay.sh).
TEST_SCRIPTS += formal/tests/formal.sh formal/tests/replay.sh
