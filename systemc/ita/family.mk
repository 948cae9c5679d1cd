# The Itanium 2 PMU Verilated with --sc for the SystemC platform (included by
# systemc/systemc.mk): Model=1 with the parameters of verilator/ita/family.mk (prefix
# Vita2sc_pmu), the family's default model.  The Itanium runs on the platform as the model
# Verilated with --cc (one more --sc build of this size was not worth its build time).
$(eval $(call vsc_variant,ita2sc,Vita2sc_pmu,$(RTL_TOP),$(RTL_SRCS),$(RTL_INC),-GModel=1 $(ITA_VLT_PARAMS)))
VSC_GLUE_SRCS += systemc/ita/rtl_sc.cpp
$(BUILD)/obj/systemc/ita/rtl_sc.o: $(VSC_PINS_ita2sc)
$(BUILD)/obj/systemc/ita/rtl_sc.o: VSC_INC += -I$(VLT_OUT)/ita2sc
