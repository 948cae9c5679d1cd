# The Alpha 21064 counter block RTL (rtl/ev4): its sources, generated includes, lint and
# synthesis (included by rtl/rtl.mk).  docs/ev4.md is the model of a cycle.
#
# Variables used by other fragments:
#   EV4_RTL_TOP     the top module
#   EV4_RTL_SRCS    its sources, leaves first
#   EV4_RTL_INC     include path of its generated includes (build/gen/ev4: ev4_defines.vh,
#                   ev4_defs.vh)
#   EV4_GEN_VH      those includes (every RTL build of the family depends on them)

EV4_RTL_TOP  := ev4_pmu
EV4_RTL_SRCS := rtl/ev4/ev4_evt_inc.sv rtl/ev4/ev4_counter.sv rtl/ev4/ev4_regs.sv rtl/ev4/ev4_pmu.sv
EV4_RTL_INC  := -I$(GEN)/ev4

# The generated includes (tools/ev4/gen_ev4.c), the register map, and what the tests ask.
EV4_GEN_VH := $(addprefix $(GEN)/ev4/,ev4_defines.vh ev4_defs.vh)
GEN_VH += $(EV4_GEN_VH)
GEN_TOOLS += $(BUILD)/ev4/gen_defs
# Its generator writes the block layout the Alpha families share (tools/gen_block.c).
$(BUILD)/ev4/gen_defs: $(BUILD)/obj/tools/gen_block.o
DOCS_GEN += docs-ev4
SV_FAMILY_LINES += "ev4|$(GEN)/ev4|$(EV4_GEN_VH)|$(EV4_RTL_SRCS)"
TEST_CHECKS += ev4-register-map-doc-up-to-date=$(BUILD)/ev4/gen_defs ev4-register-map.md | diff -u docs/ev4-register-map.md -;
RTL_LINT += lint-ev4
RTL_SYNTH += synth-ev4

.PHONY: docs-ev4 lint-ev4 synth-ev4 rtl-iverilog-ev4
docs-ev4: $(BUILD)/ev4/gen_defs
	$(BUILD)/ev4/gen_defs ev4-register-map.md -o docs/ev4-register-map.md

# The parameter sets linted, compiled by Icarus and synthesized, by name:
#   pme     the 21064 (HasPme=1), default widths, Mux0Undef=0
#   pass2   the 21064-pass2 (HasPme=0)
#   wide    HasPme=1, 32-bit counters, Mux0Undef=1 (the other end of every parameter)
EV4_VARIANTS := pme pass2 wide
EV4_PARAMS_pme   := HasPme=1 Ctr0Width=16 Ctr1Width=12 Mux0Undef=0
EV4_PARAMS_pass2 := HasPme=0 Ctr0Width=16 Ctr1Width=12 Mux0Undef=0
EV4_PARAMS_wide  := HasPme=1 Ctr0Width=32 Ctr1Width=32 Mux0Undef=1
FPGA_LINES += $(foreach v,$(EV4_VARIANTS),"ev4|$(v)|$(EV4_RTL_TOP)|$(EV4_RTL_SRCS)|$(EV4_RTL_INC)|$(EV4_PARAMS_$(v))")

# Verilator's -G options of a parameter list: the one-bit parameters as 1'bN (-Wall checks
# the width of a -G value).
ev4_vlt_params = $(foreach p,$(1),"-G$(if $(filter HasPme=% Mux0Undef=%,$(p)),$(subst =,=1'b,$(p)),$(p))")

EV4_SYNTH_LOGS    := $(foreach v,$(EV4_VARIANTS),$(SYNTH_OUT)/$(EV4_RTL_TOP)_$(v).log)
EV4_IVERILOG_OUTS := $(foreach v,$(EV4_VARIANTS),$(BUILD)/rtl/$(EV4_RTL_TOP)_$(v).vvp)

# Lint: every variant, every warning on; waivers only in rtl/lint/waivers.vlt. The Icarus
# compile of every variant (below) must be warning-free too.
lint-ev4: $(EV4_GEN_VH) $(EV4_RTL_SRCS) $(RTL_WAIVERS) $(EV4_IVERILOG_OUTS)
	@set -e; $(foreach v,$(EV4_VARIANTS), \
	  echo "verilator --lint-only -Wall $(EV4_PARAMS_$(v)) $(EV4_RTL_TOP)"; \
	  $(VERILATOR) --lint-only -Wall $(EV4_RTL_INC) $(call ev4_vlt_params,$(EV4_PARAMS_$(v))) \
	    --top-module $(EV4_RTL_TOP) $(RTL_WAIVERS) $(EV4_RTL_SRCS);)
	@echo "lint: clean (verilator -Wall and iverilog -Wall, ev4 variants: $(EV4_VARIANTS))"

# Synthesis: one Yosys run per variant; logs in $(SYNTH_OUT)/ (rtl/rtl.mk).
$(SYNTH_OUT)/$(EV4_RTL_TOP)_%.log: $(EV4_GEN_VH) $(EV4_RTL_SRCS)
	@mkdir -p $(dir $@)
	@$(YOSYS) -q -l $@.tmp -p "read_verilog -sv $(EV4_RTL_INC) $(EV4_RTL_SRCS); \
	  $(foreach p,$(EV4_PARAMS_$*),chparam -set $(subst =, ,$(p)) $(EV4_RTL_TOP);) \
	  $(call yosys_synth,$(EV4_RTL_TOP)); stat" > /dev/null \
	  || { echo "yosys failed for $(EV4_PARAMS_$*): see $@.tmp"; exit 1; }
	@mv $@.tmp $@

# Cells: the total of the final stat. Flip-flops: the $_*DFF*_ cells of that stat.
synth-ev4: $(EV4_SYNTH_LOGS)
	@for v in $(EV4_VARIANTS); do \
	  log=$(SYNTH_OUT)/$(EV4_RTL_TOP)_$$v.log; \
	  cells=$$(awk '/Number of cells:/ { n = $$4 } END { print n }' $$log); \
	  ffs=$$(awk '/Printing statistics/ { f = 0 } /\$$_.*DFF.*_/ { f += $$2 } END { print f + 0 }' $$log); \
	  echo "synth $(EV4_RTL_TOP) $$v: cells $$cells"; \
	  echo "synth $(EV4_RTL_TOP) $$v: flip-flops $$ffs"; \
	done

# Icarus must compile every variant on its own (sv_tests rely on it). -Wno-floating-nets:
# compiled alone, the top's inputs have no drivers.
rtl-iverilog-ev4: $(EV4_IVERILOG_OUTS)
$(BUILD)/rtl/$(EV4_RTL_TOP)_%.vvp: $(EV4_GEN_VH) $(EV4_RTL_SRCS)
	@mkdir -p $(dir $@)
	@echo "iverilog -g2012 -Wall $(EV4_PARAMS_$*) $(EV4_RTL_TOP)"
	@$(IVERILOG) -g2012 -Wall -Wno-floating-nets $(EV4_RTL_INC) -s $(EV4_RTL_TOP) \
	  $(addprefix -P$(EV4_RTL_TOP).,$(EV4_PARAMS_$*)) -o $@ $(EV4_RTL_SRCS) 2> $@.log || { cat $@.log; exit 1; }
	@if [ -s $@.log ]; then cat $@.log; echo "iverilog: warnings for $(EV4_PARAMS_$*)"; rm -f $@; exit 1; fi
