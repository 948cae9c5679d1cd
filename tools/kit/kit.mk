# kit fragment: the installable kit (docs/kit.md).  Included before tests/tests.mk (its
# test-build rule reads TEST_DEPS as it is parsed).
#
#   make install PREFIX=DIR   the programs, libraries, public headers, pkg-config files
#                             (pmusim, pmusim-systemc), FuseSoC cores and examples under DIR
#                             (default /usr/local; DESTDIR=... stages it)
#   make fusesoc              each family's FuseSoC library entry in $(FUSESOC_DIR)
#   $(DEFS_LIB)               build/libpmudefs.a: the families' tables ($(COMMON_OBJS)) as
#                             a library for the kit (the tree links the objects)
PREFIX  ?= /usr/local
KIT_DIR := $(BUILD)/kit
FUSESOC_DIR := $(KIT_DIR)/fusesoc
DEFS_LIB := $(BUILD)/libpmudefs.a
# The version --version prints (include/cli/pmu_cli.h), for the pkg-config files and cores.
PMUSIM_VERSION := $(shell sed -n 's/^\#define PMUSIM_VERSION "\(.*\)"/\1/p' include/cli/pmu_cli.h)
KIT_LIBS := $(REF_LIB) $(SW_LIB) $(STREAM_LIB) $(DEFS_LIB) $(HARNESS_LIB) $(RTL_LIB) $(SC_LIB)
# The examples a user builds against the installed kit (tests/kit/kit.sh builds them so).
KIT_EXAMPLES := tests/kit/pmu_kit_example.c systemc/example/pmu_sc_example.cpp

$(DEFS_LIB): $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

# Every family's core from its SV_FAMILY_LINES entry ("family|gen dir|generated
# includes|sources", rtl/<family>/family.mk): the one file list make lint and the
# Verilated builds use.
KIT_RTL_FILES := $(filter %.sv %.vh %.svh,$(subst |, ,$(subst ",,$(SV_FAMILY_LINES))))
$(FUSESOC_DIR)/.stamp: $(KIT_RTL_FILES) $(RTL_WAIVERS) tools/kit/gen_core.sh tools/kit/kit.mk
	@mkdir -p $(FUSESOC_DIR)
	@set -e; for l in $(SV_FAMILY_LINES); do \
	  IFS='|' read -r fam gdir gen srcs <<<"$$l"; \
	  echo "FUSESOC $(FUSESOC_DIR)/$$fam/pmusim_$${fam}_pmu.core"; \
	  bash tools/kit/gen_core.sh $(FUSESOC_DIR) $(PMUSIM_VERSION) "$$fam" "$$gen" "$$srcs" $(RTL_WAIVERS); \
	done
	@touch $@

$(KIT_DIR)/examples/%: tests/kit/%
	@mkdir -p $(dir $@)
	cp $< $@.tmp && mv $@.tmp $@
$(KIT_DIR)/examples/%: systemc/example/%
	@mkdir -p $(dir $@)
	cp $< $@.tmp && mv $@.tmp $@
KIT_SHARE := $(FUSESOC_DIR)/.stamp $(addprefix $(KIT_DIR)/examples/,$(notdir $(KIT_EXAMPLES)))

.PHONY: install fusesoc
fusesoc: $(FUSESOC_DIR)/.stamp

install: $(PMUSIM) $(PMUSIM_SC) $(KIT_LIBS) $(KIT_SHARE)
	@bash tools/kit/install.sh "$(PREFIX)" "$(PMUSIM_VERSION)" --bin "$(PMUSIM) $(PMUSIM_SC)" \
	  --lib "$(KIT_LIBS)" --share $(KIT_DIR)

# The kit installed in a scratch prefix, the examples built outside the tree from it and
# run, the cores checked and linted (tests/kit/kit.sh).  Under SAN=1 the libraries are
# instrumented and pkg-config's flags do not say so: skipped.
ifeq ($(SAN),1)
TEST_SKIPPED += tests/kit/kit.sh
else
TEST_SCRIPTS += tests/kit/kit.sh
TEST_DEPS    += $(KIT_LIBS) $(KIT_SHARE) $(PMUSIM_SC)
endif
