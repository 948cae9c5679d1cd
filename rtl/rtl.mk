# rtl fragment: every family's RTL.  Each family's rtl/<family>/family.mk gives its sources,
# generated includes, lint and synthesis, and adds
#   RTL_LINT, RTL_SYNTH   its lint and synthesis targets (run by `make lint`, `make synth`)
#   GEN_VH, GEN_TOOLS     its generated includes and generator (built before the RTL and tests)
#   DOCS_GEN              its `make docs` target (the register map)
#   SV_FAMILY_LINES       its sv_tests folder line (sv_tests/sv_tests.mk)
#   FPGA_LINES            one line per synthesized model for `make fpga` (fpga/run.sh)

RTL_WAIVERS     := rtl/lint/waivers.vlt
RTL_LINT  :=
RTL_SYNTH :=
SV_FAMILY_LINES :=
FPGA_LINES :=

# Each family's synthesis rules run Yosys with $(call yosys_synth,<top>) and write their logs
# to $(SYNTH_OUT).  make synth: Yosys' synth -flatten, whose cell and flip-flop counts the
# docs give.  make synth-check (SYNTH_CHECK=1, make test's check): the passes of that script
# that can refuse a design, without its optimisations: every top and parameter set read,
# elaborated (hierarchy -check), its processes converted, flattened, its memories and cells
# mapped to gates (memory, techmap) and its logic by ABC as synth maps it (abc -fast); then
# check -assert fails on the problems (several drivers, logic loops, undriven wires) that
# synth's check only reports.  About a third of synth's CPU (ita_pmu Model=1: 19 against 59
# CPU s); its counts are of the unoptimised netlist.
ifeq ($(SYNTH_CHECK),1)
SYNTH_OUT   := $(BUILD)/synth-check
yosys_synth  = hierarchy -check -top $(1); proc; flatten; opt_clean; memory -nomap; memory_map; \
               techmap; abc -fast; check -assert
else
SYNTH_OUT   := $(BUILD)/synth
yosys_synth  = synth -flatten -top $(1)
endif

include $(sort $(wildcard rtl/*/family.mk))

.PHONY: lint synth synth-check fpga
lint: $(RTL_LINT)
# make synth also prints the last iCE40 table of `make fpga`, when there is one.
synth: $(RTL_SYNTH)
	@if [ -f $(BUILD)/fpga/table.txt ]; then cat $(BUILD)/fpga/table.txt; \
	 else echo "synth: no iCE40 table yet (make fpga writes $(BUILD)/fpga/table.txt)"; fi
synth-check:
	@echo "synth-check: every top and parameter set through Yosys' mapping to gates, unoptimised, then check -assert (logs in $(BUILD)/synth-check/)"
	@$(MAKE) --no-print-directory SYNTH_CHECK=1 $(RTL_SYNTH)

# iCE40 synthesis, place and route of every model (docs/fpga.md); slow, not part of make test.
fpga: $(GEN_VH)
	@tools/install-deps.sh
	@FPGA_OUT=$(BUILD)/fpga YOSYS=$(YOSYS) bash fpga/run.sh $(FPGA_LINES)
# fpga/tests/wrapper.sh (make test: the generated wrappers lint clean and are as wide as the
# PMU's ports; no place and route) asks here for those lines (and gets the includes built).
TEST_SCRIPTS += fpga/tests/wrapper.sh
.PHONY: fpga-lines
fpga-lines: $(GEN_VH)
	@for l in $(FPGA_LINES); do echo "$$l"; done
