# The Itanium family's Verilated RTL (included by verilator/verilator.mk).
#
# Variants (include/harness/ita/ita_rtl.h): Itanium 2 (Model=1, prefix Vita2_pmu) and Itanium
# (Model=0, prefix Vita_pmu), both PmdSext=1, ThrGe=0, FineGran2=0.  Verilator runs only
# when the RTL or the generated headers change (a stamp per variant), so a second `make`
# does nothing.
ITA_VLT_PARAMS := "-GPmdSext=1'b1" "-GThrGe=1'b0" "-GFineGran2=1'b0"
# Each variant's --model name (make mutant-variants MUTANT_MODEL=, tests/mutants/mutants.mk).
VLT_MODEL_ita2 := itanium2
VLT_MODEL_ita  := itanium
# ObsPort=0: obs_vis_o stays 0 and the harness reads the visible registers in the RTL's `vis`
# (include/harness/ita/ita_vlt_model.h), made readable by ITA_VLT_VIS; the SystemC platform
# (systemc/ita/family.mk) keeps the port.
ITA_VLT_VIS := verilator/ita/vis_public.vlt
$(eval $(call vlt_variant,ita2,Vita2_pmu,$(RTL_TOP),$(RTL_SRCS),$(RTL_INC),-GModel=1 $(ITA_VLT_PARAMS) "-GObsPort=1'b0" $(ITA_VLT_VIS)))
$(eval $(call vlt_variant,ita,Vita_pmu,$(RTL_TOP),$(RTL_SRCS),$(RTL_INC),-GModel=0 $(ITA_VLT_PARAMS) "-GObsPort=1'b0" $(ITA_VLT_VIS)))
$(VLT_STAMP_ita2) $(VLT_STAMP_ita): $(ITA_VLT_VIS)

$(BUILD)/obj/verilator/ita/rtl_backend.o: verilator/ita/rtl_backend.cpp $(VLT_STAMP_ita2) $(VLT_STAMP_ita)
	@mkdir -p $(dir $@)
	$(CXX) $(VLT_CXXFLAGS) -I$(VLT_OUT)/ita2 -I$(VLT_OUT)/ita -c $< -o $@

RTL_GLUE_OBJS += $(BUILD)/obj/verilator/ita/rtl_backend.o

# The reference model's EAR, BTB and general-event tests (docs/ita-ear-btb.md: every mode,
# threshold and filter) run on the Verilated RTL too (tests/tests.mk).
RTL_UNIT_TESTS_itanium := rtl_unit_tests directed_tests qual_tests
rtl_unit_tests_SRCS := $(addprefix csim/ita/tests/,test_ear.cpp test_btb.cpp test_xev.cpp) \
                       verilator/ita/tests/ita_rtl_backend_for_unit_tests.cpp
# Reset values and writable masks, counting, overflow and freeze, thresholds, privilege-level
# and instruction-set masks, power states and the monitor set-ups of ITA-PRM Figures 6-6..6-8
# (docs/ita-semantics.md), on the reference model and the Verilated RTL.
directed_tests_SRCS := verilator/ita/tests/directed_tests.cpp
# Event qualification (ITA-PRM Table 6-3, the br.cloop opcode example, range edges) on both
# backends (docs/ita-qualification.md).
qual_tests_SRCS := verilator/ita/tests/qual_tests.cpp

# The waveform layout (docs/pmusim.gtkw) that `run --waves` writes beside the FST, compiled in
# as a C string by the family's generator (tools/ita/gen_ita.c).
ITA_WAVE_LAYOUT := $(GEN)/ita/ita_wave_layout.c
$(ITA_WAVE_LAYOUT): docs/pmusim.gtkw
HARNESS_GEN_OBJS += $(BUILD)/obj/$(ITA_WAVE_LAYOUT:.c=.o)

# make mutants (tests/mutants/mutants.mk): the tests a mutant of each variant must fail.
# $(call ita_mutant_kill_tests,<model>)
ita_mutant_kill_tests = conform-mixed|pmusim conform --seed 1 $(MUTANT_KILL_SIZE) --model $(1) --mode mixed; \
    conform-qual|pmusim conform --seed 1 $(MUTANT_KILL_SIZE) --model $(1) --mode qual; \
    conform-driver|pmusim conform --seed 1 $(MUTANT_KILL_SIZE) --model $(1) --service driver; \
    run-builtin|pmusim run --cycles 200000 --model $(1) --quiet; \
    directed-tests|directed_tests; rtl-unit-tests|rtl_unit_tests
MUTANT_KILL_TESTS_ita2 = $(call ita_mutant_kill_tests,$(VLT_MODEL_ita2))
MUTANT_KILL_TESTS_ita  = $(call ita_mutant_kill_tests,$(VLT_MODEL_ita))

# make fuzz (tests/fuzz/fuzz.mk): the sources of its PMU configuration reader, for fuzz_config
# (tests/fuzz/config_itanium.c).
FUZZ_CONFIG_SRCS += $(sort $(wildcard verilator/cli/ita/config_*.c)) verilator/ita/models.c
