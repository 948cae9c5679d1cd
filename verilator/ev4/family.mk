# The Alpha 21064 family's Verilated RTL (included by verilator/verilator.mk).
#
# Variants (include/harness/ev4/ev4_rtl.h): the 21064 (HasPme=1, prefix Vev4_pmu) and the
# 21064-pass2 (HasPme=0, prefix Vev4p2_pmu), both with the default counter widths and
# Mux0Undef=0: the parameter sets pme and pass2 of rtl/ev4/family.mk.  Verilator runs only
# when the RTL or the generated includes change (a stamp per variant).
$(eval $(call vlt_variant,ev4,Vev4_pmu,$(EV4_RTL_TOP),$(EV4_RTL_SRCS),$(EV4_RTL_INC),$(call ev4_vlt_params,$(EV4_PARAMS_pme))))
$(eval $(call vlt_variant,ev4p2,Vev4p2_pmu,$(EV4_RTL_TOP),$(EV4_RTL_SRCS),$(EV4_RTL_INC),$(call ev4_vlt_params,$(EV4_PARAMS_pass2))))

$(BUILD)/obj/verilator/ev4/rtl_backend.o: verilator/ev4/rtl_backend.cpp $(VLT_STAMP_ev4) $(VLT_STAMP_ev4p2)
	@mkdir -p $(dir $@)
	$(CXX) $(VLT_CXXFLAGS) -I$(VLT_OUT)/ev4 -I$(VLT_OUT)/ev4p2 -c $< -o $@

RTL_GLUE_OBJS += $(BUILD)/obj/verilator/ev4/rtl_backend.o

# The counter-block tests written for the reference model (csim/ev4/tests/: registers,
# every mux code, half counts, periods, requests) run on the Verilated RTL too (tests/tests.mk).
RTL_UNIT_TESTS_alpha21064 := ev4_rtl_unit_tests
ev4_rtl_unit_tests_SRCS := $(addprefix csim/ev4/tests/,test_ev4_regs.cpp test_ev4_counting.cpp test_ev4_irq.cpp) \
                           verilator/ev4/tests/ev4_rtl_backend_for_unit_tests.cpp

# make mutants (tests/mutants/mutants.mk): the tests a mutant of each variant must fail.
MUTANT_KILL_TESTS_ev4 = conform|pmusim conform --family alpha21064 --model all --seed 1 $(MUTANT_KILL_SIZE); \
    conform-driver|pmusim conform --family alpha21064 --model all --seed 1 $(MUTANT_KILL_SIZE) --service driver; \
    run-builtin|pmusim run --family alpha21064 --cycles 200000 --quiet
MUTANT_KILL_TESTS_ev4p2 = $(MUTANT_KILL_TESTS_ev4)

# make fuzz (tests/fuzz/fuzz.mk): the sources of its setup reader, for fuzz_config
# (tests/fuzz/config_alpha21064.c).
FUZZ_CONFIG_SRCS += verilator/cli/ev4/setup.c
