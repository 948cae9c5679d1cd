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

include $(sort $(wildcard rtl/*/family.mk))

.PHONY: lint synth fpga
lint: $(RTL_LINT)
# make synth also prints the last iCE40 table of `make fpga`, when there is one.
synth: $(RTL_SYNTH)
	@if [ -f $(BUILD)/fpga/table.txt ]; then cat $(BUILD)/fpga/table.txt; \
	 else echo "synth: no iCE40 table yet (make fpga writes $(BUILD)/fpga/table.txt)"; fi

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
