# The Alpha 21264/EV67 counter block Verilated with --sc for the SystemC platform
# (included by systemc/systemc.mk): the defaults (the q1r0p1 parameter set of
# rtl/ev67/family.mk, prefix Vev67sc_pmu), the family's model as pmu_family.rtl_create makes it.
$(eval $(call vsc_variant,ev67sc,Vev67sc_pmu,$(EV67_RTL_TOP),$(EV67_RTL_SRCS),$(EV67_RTL_INC),$(call ev67_vlt_params,$(EV67_PARAMS_q1r0p1))))
VSC_GLUE_SRCS += systemc/ev67/rtl_sc.cpp
$(BUILD)/obj/systemc/ev67/rtl_sc.o: $(VSC_PINS_ev67sc)
$(BUILD)/obj/systemc/ev67/rtl_sc.o: VSC_INC += -I$(VLT_OUT)/ev67sc
