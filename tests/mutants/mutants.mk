# mutants fragment (included by tests/tests.mk): `make mutants` (docs/mutants.md) applies each
# mutation of tests/mutants/catalog to a copy of rtl/, builds the Verilated variants it
# changes, links pmusim and the directed tests with them, and runs the fast part of the
# suite against it (tests/mutants/run.sh).  MUTANT=<id> runs one.
#
# The build of one mutant (run.sh calls it): MUTANT_DIR holds the mutated copy (rtl/ under
# it) and MUTANT_VARIANTS the Verilated variants (verilator/<family>/family.mk) that use the
# mutated file, every one of them (mutant-variants lists them); every other object is the
# build's own.

MUTANTS_OUT ?= $(BUILD)/mutants

.PHONY: mutants mutants-check mutant-build mutant-variants mutant-kill-tests
mutants: deps
	@$(MAKE) --no-print-directory pmusim $(addprefix $(BUILD)/tests/,$(RTL_UNIT_TEST_BINS)) $(GEN_VH)
	@bash tests/mutants/run.sh --out $(MUTANTS_OUT) $(if $(MUTANT),--only $(MUTANT))

# The catalog applies to today's RTL: each mutation's text is found exactly once (run by
# make test; it builds nothing).
mutants-check:
	@bash tests/mutants/run.sh --check

# The Verilated variants whose sources include MUTANT_FILE (a path under rtl/), one line:
# a mutated file is built and tested in each of them (Itanium 2 and Itanium alike).  With
# MUTANT_MODEL (a --model name), a variant its family names by another model (VLT_MODEL_<variant>)
# is left out: a replay on one model (formal/replay.sh) runs that model's variant only.
mutant-variants:
	@echo $(foreach v,$(VLT_VARIANTS),$(if $(filter $(MUTANT_FILE),$(VLT_SRCS_$(v))),$(if $(and $(MUTANT_MODEL),$(VLT_MODEL_$(v)),$(filter-out $(MUTANT_MODEL),$(VLT_MODEL_$(v)))),,$(v))))

# The tests that kill a mutant of Verilated variant MUTANT_VARIANT, one "name|command" a line:
# the family's MUTANT_KILL_TESTS_<variant> (verilator/<family>/family.mk), its entries
# separated by ';', each command run for MUTANT_KILL_SIZE.
MUTANT_KILL_SIZE := --runs 6 --cycles 20000
mutant-kill-tests:
	@echo '$(MUTANT_KILL_TESTS_$(MUTANT_VARIANT))' | tr ';' '\n' | sed -e 's/^ *//' -e '/^$$/d'

ifdef MUTANT_DIR
# Compiled at -O1: a mutant runs a few seconds of tests, so compile time is what counts.
MUTANT_SUBMAKE := $(MAKE) --no-print-directory OPT= OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O1 \
                  VK_CPPFLAGS_WALL= CFG_CXXFLAGS_STD=-std=c++17
mutant_srcs = $(patsubst rtl/%,$(MUTANT_DIR)/rtl/%,$(VLT_SRCS_$(1)))
mutant_lib = $(MUTANT_DIR)/vlt/$(1)/$(VLT_PREFIX_$(1))__ALL.a

define mutant_variant
$(MUTANT_DIR)/vlt/$(1)/verilated.stamp: $(call mutant_srcs,$(1)) $(GEN_VH)
	@mkdir -p $(MUTANT_DIR)/vlt/$(1)
	@$(VERILATOR) $(VLT_FLAGS) $(VLT_ARGS_$(1)) -Mdir $(MUTANT_DIR)/vlt/$(1) $(call mutant_srcs,$(1))
	@touch $$@

$(call mutant_lib,$(1)): $(MUTANT_DIR)/vlt/$(1)/verilated.stamp
	+@$(MUTANT_SUBMAKE) -C $(MUTANT_DIR)/vlt/$(1) -f $(VLT_PREFIX_$(1)).mk $(VLT_PREFIX_$(1))__ALL.a > /dev/null
endef
$(foreach v,$(MUTANT_VARIANTS),$(eval $(call mutant_variant,$(v))))

MUTANT_VLT_LIBS := $(foreach v,$(VLT_VARIANTS),$(if $(filter $(v),$(MUTANT_VARIANTS)),$(call mutant_lib,$(v)),$(VLT_LIB_$(v))))

$(MUTANT_DIR)/libpmurtl.a: $(RTL_GLUE_OBJS) $(MUTANT_VLT_LIBS) $(VLT_RUNTIME)
	$(call rtl_archive,$(MUTANT_VLT_LIBS))

$(MUTANT_DIR)/pmusim: $(BUILD)/obj/verilator/cli/main.o $(filter-out $(RTL_LIB),$(PMUSIM_LIBS)) \
                      $(MUTANT_DIR)/libpmurtl.a $(COMMON_OBJS)
	@$(CXX) $(OPT) $(BUILD)/obj/verilator/cli/main.o $(HARNESS_LIB) $(SW_LIB) $(MUTANT_DIR)/libpmurtl.a \
	  $(STREAM_LIB) $(REF_LIB) $(COMMON_OBJS) -o $@ $(RTL_LDLIBS) $(LDLIBS)

# Every family's RTL test binaries (RTL_UNIT_TESTS_<family>, verilator/<family>/family.mk) on the
# mutant's RTL: the kill tests name them.
define mutant_rtl_tests
$(MUTANT_DIR)/$(1): $$($(1)_SRCS:%.cpp=$(BUILD)/obj/%.o) $(MUTANT_DIR)/libpmurtl.a $(REF_LIB) $(STREAM_LIB) $(COMMON_OBJS)
	@$$(CXX) $$(CXXFLAGS) $$^ -o $$@ -lgtest -lgtest_main $$(RTL_LDLIBS) $$(LDLIBS)
endef
$(foreach b,$(RTL_UNIT_TEST_BINS),$(eval $(call mutant_rtl_tests,$(b))))

mutant-build: $(MUTANT_DIR)/pmusim $(addprefix $(MUTANT_DIR)/,$(RTL_UNIT_TEST_BINS))
endif
