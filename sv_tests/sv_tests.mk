# sv_tests fragment: self-checking SystemVerilog testbenches of the RTL, each run under
# Verilator and Icarus by sv_tests/run.sh (outputs in $(BUILD)/sv_tests/).

TEST_SCRIPTS += sv_tests/run.sh

.PHONY: sv-test sv-test-rtl-srcs

sv-test: $(GEN_VH)
	@bash sv_tests/run.sh

# run.sh asks for the RTL source list here (and gets the generated includes built).
sv-test-rtl-srcs: $(GEN_VH)
	@echo $(RTL_SRCS)
