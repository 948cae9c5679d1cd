# sv_tests fragment: self-checking SystemVerilog testbenches of the RTL, each run under
# Verilator and Icarus by sv_tests/run.sh (outputs in $(BUILD)/sv_tests/).  A family's
# testbenches live in sv_tests/<family>/ and compile with its sources and generated
# includes.

TEST_SCRIPTS += sv_tests/run.sh
# A testbench is rebuilt when a module it instantiates or tb_common.svh changes, and only
# then (run.sh's sources_used; checked on a copy of the files).
TEST_SCRIPTS += sv_tests/rebuild_check.sh

.PHONY: sv-test sv-test-families

sv-test: $(GEN_VH)
	@bash sv_tests/run.sh

# run.sh asks here, one line per testbench folder, for what its testbenches compile with:
#   <folder>|<include directory or empty>|<generated includes>|<RTL sources>
# (and gets the generated includes built).
sv-test-families: $(GEN_VH)
	@for l in $(SV_FAMILY_LINES); do echo "$$l"; done
