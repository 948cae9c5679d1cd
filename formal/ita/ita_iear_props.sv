`include "ita_defines.vh"

// Formal properties of the instruction event address register, PMC10 / PMD0 / PMD1
// (docs/formal.md, docs/ita-ear-btb.md "Common rules" and "I-EAR"). A formal-only checker
// around the unchanged ita_iear, for both models (Itanium: PMC10's Itanium layout; Itanium 2),
// fed as ita_pmu feeds it; every input is free (anyseq): PMC10, the record in flight (step,
// PMC0.fr before the clock, privilege, instruction set, effective PSR, the fetch and whether
// it passes L1I_EAR_EVENTS' qualification) and software's writes of PMD0 / PMD1. What it
// sees is what a read returns (the registers with this clock's capture applied). The flops
// start in any state; reset is held inactive. Sources: docs/sources.md (SDM2 §7.2.2: the
// freeze stops the model-specific monitors; libpfm-3 pfmlib_itanium2.h pmc10_ita2_cache_reg,
// pfmlib_itanium.h: PMC10's plm, pm and ism).
module ita_iear_model #(
  parameter int Model = 1   // 0 = Itanium, 1 = Itanium 2
) (
  input logic clk_i
);

  `include "ita_defs.vh"

  localparam bit          Ita    = (Model == 0);
  localparam logic [63:0] Reset0 = Ita ? ITA_PMD0_RESET_ITA : ITA_PMD0_RESET_ITA2;
  localparam logic [63:0] Wmask0 = Ita ? ITA_PMD0_WMASK_ITA : ITA_PMD0_WMASK_ITA2;
  localparam logic [63:0] Reset1 = Ita ? ITA_PMD1_RESET_ITA : ITA_PMD1_RESET_ITA2;
  localparam logic [63:0] Wmask1 = Ita ? ITA_PMD1_WMASK_ITA : ITA_PMD1_WMASK_ITA2;

  (* anyseq *) logic [63:0] pmc10, if_addr, wdata;
  (* anyseq *) logic        step, fr, is, up, pp, qual, if_rab, we0, we1;
  (* anyseq *) logic [1:0]  cpl, if_tlb;
  (* anyseq *) logic [15:0] if_lat;

  always @* assume (!(we0 && we1));  // one register a write

  logic [63:0] pmd0, pmd1;
  logic        en, cap;

  ita_iear #(
    .Model (Model)
  ) dut (
    .clk_i     (clk_i),
    .rst_ni    (1'b1),
    .pmc10_i   (pmc10),
    .step_i    (step),
    .fr_i      (fr),
    .cpl_i     (cpl),
    .is_i      (is),
    .psr_up_i  (up),
    .psr_pp_i  (pp),
    .qual_i    (qual),
    .if_addr_i (if_addr),
    .if_lat_i  (if_lat),
    .if_tlb_i  (if_tlb),
    .if_rab_i  (if_rab),
    .pmd0_we_i (we0),
    .pmd1_we_i (we1),
    .wdata_i   (wdata),
    .pmd0_o    (pmd0),
    .pmd1_o    (pmd1),
    .en_o      (en),
    .cap_o     (cap)
  );

  // Armed: PMC10 lets the unit capture in this clock (docs/ita-ear-btb.md, "Common rules"): a
  // step, PMC0.fr clear, the cycle's cpl in plm, the monitor enabled (pm = 1: PSR.pp; 0:
  // PSR.up) and the instruction set not masked by ism.
  logic [3:0] plm;
  logic       pm;
  logic [1:0] ism;
  assign plm = Ita ? pmc10[ITA_F_PMC10_ITA_PLM_MSB:ITA_F_PMC10_ITA_PLM_LSB]
                   : pmc10[ITA_F_PMC10_PLM_MSB:ITA_F_PMC10_PLM_LSB];
  assign pm  = Ita ? pmc10[ITA_F_PMC10_ITA_PM_LSB] : pmc10[ITA_F_PMC10_PM_LSB];
  assign ism = Ita ? pmc10[ITA_F_PMC10_ITA_ISM_MSB:ITA_F_PMC10_ITA_ISM_LSB]
                   : pmc10[ITA_F_PMC10_ISM_MSB:ITA_F_PMC10_ISM_LSB];
  logic armed;
  assign armed = step && !fr && plm[cpl] && (pm ? pp : up) && !ism[is];

  // The registers as stored at this clock: what a read showed in the clock before, then that
  // clock's write, (v & wmask) | (reset & ~wmask) (ita-semantics.md, "Register writes").
  logic        past_valid = 1'b0;
  logic        was_we0, was_we1;
  logic [63:0] was_wdata, was_pmd0, was_pmd1, s0, s1;
  always @(posedge clk_i) begin
    past_valid <= 1'b1;
    was_we0    <= we0;
    was_we1    <= we1;
    was_wdata  <= wdata;
    was_pmd0   <= pmd0;
    was_pmd1   <= pmd1;
  end
  assign s0 = was_we0 ? ((was_wdata & Wmask0) | (Reset0 & ~Wmask0)) : was_pmd0;
  assign s1 = was_we1 ? ((was_wdata & Wmask1) | (Reset1 & ~Wmask1)) : was_pmd1;

  // The property's assertion is a named wire, ok_<name>, that its clocked block asserts: a
  // counterexample's VCD shows which model's fails (`pmusim cex2replay` replays that one).
`ifdef PROP_iear_captures_only_armed
  // killed by: unit-monitor-swapped
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // The I-EAR captures only when armed: a clock that changes PMD0 or PMD1 (or signals
  // L1I_EAR_EVENTS) is a step that PMC10's plm, pm and ism let capture, not frozen, with
  // a fetch that passes the event's qualification (docs/ita-ear-btb.md, "Common rules").
  (* keep *) logic ok_iear_captures_only_armed;
  assign ok_iear_captures_only_armed = !(cap || pmd0 != s0 || pmd1 != s1) || (armed && qual);
  always @(posedge clk_i) begin
    if (past_valid) begin
      assert (ok_iear_captures_only_armed);
      cover (cap && pm && !up && pmd0 != s0);
    end
  end
`endif

endmodule

module ita_iear_props (
  input logic clk_i
);
  ita_iear_model #(.Model(0)) u_itanium  (.clk_i(clk_i));
  ita_iear_model #(.Model(1)) u_itanium2 (.clk_i(clk_i));
endmodule
