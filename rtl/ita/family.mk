# The Itanium / Itanium 2 PMU RTL (rtl/ita/): its sources, generated includes,
# lint and synthesis (included by rtl/rtl.mk).
#
# Variables used by other fragments:
#   RTL_TOP          the top module
#   RTL_ITA_SRCS     the Itanium family's modules (rtl/ita/), leaves first
#   RTL_SRCS         every RTL source of the Itanium PMU
#   RTL_INC          include path of its generated includes (build/gen/ita: ita_defs.vh,
#                    ita_defines.vh, ita_evt_rows.svh, ita_qual_regs.svh,
#                    ita_evt_maxincr.svh: formal/ita only)
# Every RTL build must depend on $(GEN_VH).

RTL_TOP         := ita_pmu
RTL_ITA_SRCS    := rtl/ita/ita_counter.sv rtl/ita/ita_ovf_ctrl.sv rtl/ita/ita_cap_reg.sv \
                   rtl/ita/ita_pmc_gen.sv rtl/ita/ita_cpu_state.sv rtl/ita/ita_ibr_match.sv \
                   rtl/ita/ita_dbr_match.sv rtl/ita/ita_opc_match.sv rtl/ita/ita_fine_range.sv \
                   rtl/ita/ita_qual_cfg.sv rtl/ita/ita_tag_qual.sv rtl/ita/ita_slot_qual.sv rtl/ita/ita_evt_sel.sv \
                   rtl/ita/ita_cnt_qual.sv rtl/ita/ita_unit_en.sv rtl/ita/ita_first_slot.sv \
                   rtl/ita/ita_window_addr.sv rtl/ita/ita_iear.sv rtl/ita/ita_dear.sv \
                   rtl/ita/ita_btb.sv rtl/ita/ita_xev_qual.sv rtl/ita/ita_pmu.sv
RTL_SRCS        := $(RTL_ITA_SRCS)
RTL_INC         := -I$(GEN)/ita

# The generated includes (tools/ita/gen_ita.c), the register map, and what the tests ask.
ITA_GEN_VH := $(addprefix $(GEN)/ita/,ita_defs.vh ita_defines.vh ita_evt_rows.svh ita_qual_regs.svh ita_evt_maxincr.svh)
GEN_VH += $(ITA_GEN_VH)
GEN_TOOLS += $(BUILD)/ita/gen_defs
DOCS_GEN += docs-ita
SV_FAMILY_LINES += "ita|$(GEN)/ita|$(ITA_GEN_VH)|$(RTL_SRCS)"
TEST_CHECKS += register-map-doc-up-to-date=$(BUILD)/ita/gen_defs ita-register-map.md | diff -u docs/ita-register-map.md -;
RTL_LINT += lint-ita
RTL_SYNTH += synth-ita

.PHONY: docs-ita lint-ita synth-ita
docs-ita: $(BUILD)/ita/gen_defs
	$(BUILD)/ita/gen_defs ita-register-map.md -o docs/ita-register-map.md

RTL_MODELS := 0 1
FPGA_LINES += $(foreach m,$(RTL_MODELS),"ita|model$(m)|$(RTL_TOP)|$(RTL_SRCS)|$(RTL_INC)|Model=$(m)")
RTL_SYNTH_LOGS    := $(foreach m,$(RTL_MODELS),$(SYNTH_OUT)/$(RTL_TOP)_model$(m).log)
RTL_IVERILOG_OUTS := $(foreach m,$(RTL_MODELS),$(BUILD)/rtl/$(RTL_TOP)_model$(m).vvp)

.PHONY: rtl-iverilog

# Lint: both models, every warning on; waivers only in rtl/lint/waivers.vlt; and the
# configuration the harness Verilates (ObsPort=0, verilator/ita/family.mk). The Icarus
# compile of both models (below) must be warning-free too.
lint-ita: $(GEN_VH) $(RTL_SRCS) $(RTL_WAIVERS) $(RTL_IVERILOG_OUTS)
	@set -e; for m in $(RTL_MODELS); do \
	  echo "verilator --lint-only -Wall -GModel=$$m $(RTL_TOP)"; \
	  $(VERILATOR) --lint-only -Wall $(RTL_INC) -GModel=$$m --top-module $(RTL_TOP) \
	    $(RTL_WAIVERS) $(RTL_SRCS); \
	done
	@echo "verilator --lint-only -Wall -GModel=1 -GFineGran2=1 $(RTL_TOP)"
	@$(VERILATOR) --lint-only -Wall $(RTL_INC) -GModel=1 "-GFineGran2=1'b1" --top-module $(RTL_TOP) \
	  $(RTL_WAIVERS) $(RTL_SRCS)
	@echo "verilator --lint-only -Wall -GModel=1 -GObsPort=0 $(RTL_TOP)"
	@$(VERILATOR) --lint-only -Wall $(RTL_INC) -GModel=1 "-GObsPort=1'b0" --top-module $(RTL_TOP) \
	  $(RTL_WAIVERS) $(RTL_SRCS)
	@echo "lint: clean (verilator -Wall and iverilog -Wall, Model=0 and Model=1, FineGran2=1, ObsPort=0)"

# Synthesis: one Yosys run per model; logs in $(SYNTH_OUT)/ (rtl/rtl.mk).

$(SYNTH_OUT)/$(RTL_TOP)_model%.log: $(GEN_VH) $(RTL_SRCS)
	@mkdir -p $(dir $@)
	@$(YOSYS) -q -l $@.tmp -p "read_verilog -sv $(RTL_INC) $(RTL_SRCS); \
	  chparam -set Model $* $(RTL_TOP); $(call yosys_synth,$(RTL_TOP)); stat" > /dev/null \
	  || { echo "yosys failed for Model=$*: see $@.tmp"; exit 1; }
	@mv $@.tmp $@

# Cells: the total of the final stat. Flip-flops: the $_*DFF*_ cells of that stat.
synth-ita: $(RTL_SYNTH_LOGS)
	@for m in $(RTL_MODELS); do \
	  log=$(SYNTH_OUT)/$(RTL_TOP)_model$$m.log; \
	  cells=$$(awk '/Number of cells:/ { n = $$4 } END { print n }' $$log); \
	  ffs=$$(awk '/Printing statistics/ { f = 0 } /\$$_.*DFF.*_/ { f += $$2 } END { print f + 0 }' $$log); \
	  case $$m in 0) name="Itanium";; *) name="Itanium 2";; esac; \
	  echo "synth $(RTL_TOP) Model=$$m ($$name): cells $$cells"; \
	  echo "synth $(RTL_TOP) Model=$$m ($$name): flip-flops $$ffs"; \
	done

# Icarus must compile the RTL of both models on its own (the Icarus bench and sv_tests rely on
# it). -Wno-floating-nets: compiled alone, the top's inputs have no drivers.
rtl-iverilog: $(RTL_IVERILOG_OUTS)
$(BUILD)/rtl/$(RTL_TOP)_model%.vvp: $(GEN_VH) $(RTL_SRCS)
	@mkdir -p $(dir $@)
	@echo "iverilog -g2012 -Wall -P$(RTL_TOP).Model=$* $(RTL_TOP)"
	@$(IVERILOG) -g2012 -Wall -Wno-floating-nets $(RTL_INC) -s $(RTL_TOP) -P$(RTL_TOP).Model=$* \
	  -o $@ $(RTL_SRCS) 2> $@.log || { cat $@.log; exit 1; }
	@if [ -s $@.log ]; then cat $@.log; echo "iverilog: warnings for Model=$*"; rm -f $@; exit 1; fi
