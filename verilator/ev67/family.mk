# The Alpha 21264/EV67 family's Verilated RTL (included by verilator/verilator.mk).
#
# Variants (include/harness/ev67/ev67_rtl.h): the defaults (ReadQuirk=1 IsumRace=0 ParkBlock=1,
# prefix Vev67_pmu) and the same without the read quirk (ReadQuirk=0, prefix Vev67q0_pmu):
# the parameter sets q1r0p1 and q0r0p1 of rtl/ev67/family.mk.  Verilator runs only when the
# RTL or the generated includes change (a stamp per variant).
$(eval $(call vlt_variant,ev67,Vev67_pmu,$(EV67_RTL_TOP),$(EV67_RTL_SRCS),$(EV67_RTL_INC),$(call ev67_vlt_params,$(EV67_PARAMS_q1r0p1))))
$(eval $(call vlt_variant,ev67q0,Vev67q0_pmu,$(EV67_RTL_TOP),$(EV67_RTL_SRCS),$(EV67_RTL_INC),$(call ev67_vlt_params,$(EV67_PARAMS_q0r0p1))))

$(BUILD)/obj/verilator/ev67/rtl_backend.o: verilator/ev67/rtl_backend.cpp $(VLT_STAMP_ev67) $(VLT_STAMP_ev67q0)
	@mkdir -p $(dir $@)
	$(CXX) $(VLT_CXXFLAGS) -I$(VLT_OUT)/ev67 -I$(VLT_OUT)/ev67q0 -c $< -o $@

RTL_GLUE_OBJS += $(BUILD)/obj/verilator/ev67/rtl_backend.o

# The tests written for the reference model (csim/ev67/tests/: registers, every input row,
# the catch-up, ProfileMe windows and their ends, the precautions) run on the Verilated RTL
# too (tests/tests.mk).
RTL_UNIT_TESTS_alpha21264 := ev67_rtl_unit_tests
ev67_rtl_unit_tests_SRCS := $(addprefix csim/ev67/tests/,test_ev67_regs.cpp test_ev67_counting.cpp test_ev67_irq.cpp test_ev67_profileme.cpp) \
                            verilator/ev67/tests/ev67_rtl_backend_for_unit_tests.cpp

# make mutants (tests/mutants/mutants.mk): the tests a mutant of each variant must fail. The
# unit tests last: the random lock-step runs rarely write PCTR_CTL in the one clock after an
# overflow that S1 holds it, and the precautions' tests do (a write that shifts the latch
# wrongly survives the others).
MUTANT_KILL_TESTS_ev67 = conform|pmusim conform --family alpha21264 --seed 1 $(MUTANT_KILL_SIZE); \
    conform-driver|pmusim conform --family alpha21264 --seed 1 $(MUTANT_KILL_SIZE) --service driver; \
    run-builtin|pmusim run --family alpha21264 --cycles 200000 --quiet; \
    rtl-unit-tests|ev67_rtl_unit_tests
MUTANT_KILL_TESTS_ev67q0 = $(MUTANT_KILL_TESTS_ev67)

# make fuzz (tests/fuzz/fuzz.mk): the sources of its setup reader, for fuzz_config
# (tests/fuzz/config_alpha21264.c).
FUZZ_CONFIG_SRCS += verilator/cli/ev67/setup.c
