# The Alpha 21264/EV67 counter block RTL (rtl/ev67): its sources, generated includes, lint and
# synthesis (included by rtl/rtl.mk).  docs/ev67.md is the model of a cycle.
#
# Variables used by other fragments:
#   EV67_RTL_TOP     the top module
#   EV67_RTL_SRCS    its sources, leaves first
#   EV67_RTL_INC     include path of its generated includes (build/gen/ev67: ev67_defines.vh,
#                    ev67_defs.vh)
#   EV67_GEN_VH      those includes (every RTL build of the family depends on them)
#   EV67_PARAMS_<v>  the parameter set called v (below)

EV67_RTL_TOP  := ev67_pmu
EV67_RTL_SRCS := $(addprefix rtl/ev67/,ev67_ctr.sv ev67_agg.sv ev67_pm.sv ev67_irq.sv ev67_regs.sv ev67_pmu.sv)
EV67_RTL_INC  := -I$(GEN)/ev67

# The generated includes (tools/ev67/gen_ev67.c), the register map, and what the tests ask.
EV67_GEN_VH := $(addprefix $(GEN)/ev67/,ev67_defines.vh ev67_defs.vh)
GEN_VH += $(EV67_GEN_VH)
GEN_TOOLS += $(BUILD)/ev67/gen_defs
# Its generator writes the block layout the Alpha families share (tools/gen_block.c).
$(BUILD)/ev67/gen_defs: $(BUILD)/obj/tools/gen_block.o
DOCS_GEN += docs-ev67
SV_FAMILY_LINES += "ev67|$(GEN)/ev67|$(EV67_GEN_VH)|$(EV67_RTL_SRCS)"
TEST_CHECKS += ev67-register-map-doc-up-to-date=$(BUILD)/ev67/gen_defs ev67-register-map.md | diff -u docs/ev67-register-map.md -;
RTL_LINT += lint-ev67
RTL_SYNTH += synth-ev67

.PHONY: docs-ev67 lint-ev67 synth-ev67 rtl-iverilog-ev67
docs-ev67: $(BUILD)/ev67/gen_defs
	$(BUILD)/ev67/gen_defs ev67-register-map.md -o docs/ev67-register-map.md

# The parameter sets, by name q<ReadQuirk>r<IsumRace>p<ParkBlock> (docs/ev67.md, "Models and
# parameters"): every combination is linted and compiled by Icarus; the defaults (q1r0p1) and
# the other end of every parameter (q0r1p0) are synthesized.
EV67_BITS     := 0 1
EV67_VARIANTS := $(foreach q,$(EV67_BITS),$(foreach r,$(EV67_BITS),$(foreach p,$(EV67_BITS),q$(q)r$(r)p$(p))))
ev67_params_of = ReadQuirk=$(word 2,$(subst q, ,$(subst r, ,$(subst p, ,$(1))))) \
                 IsumRace=$(word 3,$(subst q, ,$(subst r, ,$(subst p, ,$(1))))) \
                 ParkBlock=$(word 4,$(subst q, ,$(subst r, ,$(subst p, ,$(1)))))
$(foreach v,$(EV67_VARIANTS),$(eval EV67_PARAMS_$(v) := $(strip $(call ev67_params_of,x$(v)))))
EV67_SYNTH_VARIANTS := q1r0p1 q0r1p0
FPGA_LINES += $(foreach v,$(EV67_SYNTH_VARIANTS),"ev67|$(v)|$(EV67_RTL_TOP)|$(EV67_RTL_SRCS)|$(EV67_RTL_INC)|$(EV67_PARAMS_$(v))")

# Verilator's -G options of a parameter list: every parameter is one bit, given as 1'bN (-Wall
# checks the width of a -G value).
ev67_vlt_params = $(foreach p,$(1),"-G$(subst =,=1'b,$(p))")

EV67_SYNTH_LOGS    := $(foreach v,$(EV67_SYNTH_VARIANTS),$(SYNTH_OUT)/$(EV67_RTL_TOP)_$(v).log)
EV67_IVERILOG_OUTS := $(foreach v,$(EV67_VARIANTS),$(BUILD)/rtl/$(EV67_RTL_TOP)_$(v).vvp)

# Lint: every variant, every warning on; waivers only in rtl/lint/waivers.vlt. The Icarus
# compile of every variant (below) must be warning-free too.
lint-ev67: $(EV67_GEN_VH) $(EV67_RTL_SRCS) $(RTL_WAIVERS) $(EV67_IVERILOG_OUTS)
	@set -e; $(foreach v,$(EV67_VARIANTS), \
	  echo "verilator --lint-only -Wall $(EV67_PARAMS_$(v)) $(EV67_RTL_TOP)"; \
	  $(VERILATOR) --lint-only -Wall $(EV67_RTL_INC) $(call ev67_vlt_params,$(EV67_PARAMS_$(v))) \
	    --top-module $(EV67_RTL_TOP) $(RTL_WAIVERS) $(EV67_RTL_SRCS);)
	@echo "lint: clean (verilator -Wall and iverilog -Wall, ev67 variants: $(EV67_VARIANTS))"

# Synthesis: one Yosys run per variant; logs in $(SYNTH_OUT)/ (rtl/rtl.mk).
$(SYNTH_OUT)/$(EV67_RTL_TOP)_%.log: $(EV67_GEN_VH) $(EV67_RTL_SRCS)
	@mkdir -p $(dir $@)
	@$(YOSYS) -q -l $@.tmp -p "read_verilog -sv $(EV67_RTL_INC) $(EV67_RTL_SRCS); \
	  $(foreach p,$(EV67_PARAMS_$*),chparam -set $(subst =, ,$(p)) $(EV67_RTL_TOP);) \
	  $(call yosys_synth,$(EV67_RTL_TOP)); stat" > /dev/null \
	  || { echo "yosys failed for $(EV67_PARAMS_$*): see $@.tmp"; exit 1; }
	@mv $@.tmp $@

# Cells: the total of the final stat. Flip-flops: the $_*DFF*_ cells of that stat.
synth-ev67: $(EV67_SYNTH_LOGS)
	@for v in $(EV67_SYNTH_VARIANTS); do \
	  log=$(SYNTH_OUT)/$(EV67_RTL_TOP)_$$v.log; \
	  cells=$$(awk '/Number of cells:/ { n = $$4 } END { print n }' $$log); \
	  ffs=$$(awk '/Printing statistics/ { f = 0 } /\$$_.*DFF.*_/ { f += $$2 } END { print f + 0 }' $$log); \
	  echo "synth $(EV67_RTL_TOP) $$v: cells $$cells"; \
	  echo "synth $(EV67_RTL_TOP) $$v: flip-flops $$ffs"; \
	done

# Icarus must compile every variant on its own (sv_tests rely on it). -Wno-floating-nets:
# compiled alone, the top's inputs have no drivers.
rtl-iverilog-ev67: $(EV67_IVERILOG_OUTS)
$(BUILD)/rtl/$(EV67_RTL_TOP)_%.vvp: $(EV67_GEN_VH) $(EV67_RTL_SRCS)
	@mkdir -p $(dir $@)
	@echo "iverilog -g2012 -Wall $(EV67_PARAMS_$*) $(EV67_RTL_TOP)"
	@$(IVERILOG) -g2012 -Wall -Wno-floating-nets $(EV67_RTL_INC) -s $(EV67_RTL_TOP) \
	  $(addprefix -P$(EV67_RTL_TOP).,$(EV67_PARAMS_$*)) -o $@ $(EV67_RTL_SRCS) 2> $@.log || { cat $@.log; exit 1; }
	@if [ -s $@.log ]; then cat $@.log; echo "iverilog: warnings for $(EV67_PARAMS_$*)"; rm -f $@; exit 1; fi
