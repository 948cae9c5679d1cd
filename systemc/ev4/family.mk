# The Alpha 21064 counter block Verilated with --sc for the SystemC platform (included by
# systemc/systemc.mk): the 21064 (the pme parameter set of rtl/ev4/family.mk, prefix
# Vev4sc_pmu), the family's default model.
$(eval $(call vsc_variant,ev4sc,Vev4sc_pmu,$(EV4_RTL_TOP),$(EV4_RTL_SRCS),$(EV4_RTL_INC),$(call ev4_vlt_params,$(EV4_PARAMS_pme))))
VSC_GLUE_SRCS += systemc/ev4/rtl_sc.cpp
$(BUILD)/obj/systemc/ev4/rtl_sc.o: $(VSC_PINS_ev4sc)
$(BUILD)/obj/systemc/ev4/rtl_sc.o: VSC_INC += -I$(VLT_OUT)/ev4sc
