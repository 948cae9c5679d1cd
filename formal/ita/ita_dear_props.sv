`include "ita_defines.vh"

// Formal properties of the data event address register, PMC11 / PMD2 / PMD3 / PMD17
// (docs/formal.md, docs/ita-ear-btb.md "Common rules" and "D-EAR"). A formal-only checker
// around the unchanged ita_dear, for both models, fed as ita_pmu feeds it; every input is
// free (anyseq): PMC11, the record in flight (step, PMC0.fr before the clock, privilege,
// instruction set, effective PSR, the slots and which of them pass DATA_EAR_EVENTS'
// qualification) and software's writes of PMD2 / PMD3 / PMD17. What it sees is what a read
// returns. The flops start in any state; reset is held inactive. Sources: docs/sources.md
// (SDM2 §7.2.2: the freeze stops the model-specific monitors; libpfm-3 pfmlib_itanium2.h
// pmc11_ita2_reg, pfmlib_itanium.h: PMC11's plm, pm and ism).
module ita_dear_model #(
  parameter int Model = 1   // 0 = Itanium, 1 = Itanium 2
) (
  input logic clk_i
);

  `include "ita_defs.vh"

  localparam bit          Ita     = (Model == 0);
  localparam int          NSlots  = `ITA_MAX_SLOTS;
  localparam logic [63:0] Reset2  = Ita ? ITA_PMD2_RESET_ITA  : ITA_PMD2_RESET_ITA2;
  localparam logic [63:0] Wmask2  = Ita ? ITA_PMD2_WMASK_ITA  : ITA_PMD2_WMASK_ITA2;
  localparam logic [63:0] Reset3  = Ita ? ITA_PMD3_RESET_ITA  : ITA_PMD3_RESET_ITA2;
  localparam logic [63:0] Wmask3  = Ita ? ITA_PMD3_WMASK_ITA  : ITA_PMD3_WMASK_ITA2;
  localparam logic [63:0] Reset17 = Ita ? ITA_PMD17_RESET_ITA : ITA_PMD17_RESET_ITA2;
  localparam logic [63:0] Wmask17 = Ita ? ITA_PMD17_WMASK_ITA : ITA_PMD17_WMASK_ITA2;

  (* anyseq *) logic [63:0]                             pmc11, wdata;
  (* anyseq *) logic                                    step, fr, is, up, pp, we2, we3, we17;
  (* anyseq *) logic [1:0]                              cpl;
  (* anyseq *) logic [2:0]                              nslots;
  (* anyseq *) logic [NSlots*`ITA_SF_WIDTH-1:0]         flags;
  (* anyseq *) logic [NSlots*16-1:0]                    lat;
  (* anyseq *) logic [NSlots*2-1:0]                     tlb, idx;
  (* anyseq *) logic [NSlots*64-1:0]                    ip, daddr;
  (* anyseq *) logic [NSlots-1:0]                       qual;

  always @* assume ($onehot0({we2, we3, we17}));  // one register a write

  logic [63:0] pmd2, pmd3, pmd17;
  logic        en, cap;

  ita_dear #(
    .Model (Model)
  ) dut (
    .clk_i        (clk_i),
    .rst_ni       (1'b1),
    .pmc11_i      (pmc11),
    .step_i       (step),
    .fr_i         (fr),
    .cpl_i        (cpl),
    .is_i         (is),
    .psr_up_i     (up),
    .psr_pp_i     (pp),
    .nslots_i     (nslots),
    .slot_flags_i (flags),
    .slot_lat_i   (lat),
    .slot_tlb_i   (tlb),
    .slot_ip_i    (ip),
    .slot_idx_i   (idx),
    .slot_daddr_i (daddr),
    .slot_qual_i  (qual),
    .pmd2_we_i    (we2),
    .pmd3_we_i    (we3),
    .pmd17_we_i   (we17),
    .wdata_i      (wdata),
    .pmd2_o       (pmd2),
    .pmd3_o       (pmd3),
    .pmd17_o      (pmd17),
    .en_o         (en),
    .cap_o        (cap)
  );

  // Armed: PMC11 lets the unit capture in this clock (docs/ita-ear-btb.md, "Common rules").
  logic [3:0] plm;
  logic       pm, armed, some_qual;
  logic [1:0] ism;
  assign plm = pmc11[ITA_F_PMC11_PLM_MSB:ITA_F_PMC11_PLM_LSB];
  assign pm  = pmc11[ITA_F_PMC11_PM_LSB];
  assign ism = pmc11[ITA_F_PMC11_ISM_MSB:ITA_F_PMC11_ISM_LSB];
  assign armed = step && !fr && plm[cpl] && (pm ? pp : up) && !ism[is];
  // Some valid slot passes the event's qualification (slots 0 .. nslots-1 are valid).
  assign some_qual = (qual & ~({NSlots{1'b1}} << nslots)) != '0;

  // The registers as stored at this clock (the read of the clock before, then its write).
  logic        past_valid = 1'b0;
  logic        was_we2, was_we3, was_we17;
  logic [63:0] was_wdata, was_pmd2, was_pmd3, was_pmd17, s2, s3, s17;
  always @(posedge clk_i) begin
    past_valid <= 1'b1;
    was_we2    <= we2;
    was_we3    <= we3;
    was_we17   <= we17;
    was_wdata  <= wdata;
    was_pmd2   <= pmd2;
    was_pmd3   <= pmd3;
    was_pmd17  <= pmd17;
  end
  assign s2  = was_we2  ? ((was_wdata & Wmask2)  | (Reset2  & ~Wmask2))  : was_pmd2;
  assign s3  = was_we3  ? ((was_wdata & Wmask3)  | (Reset3  & ~Wmask3))  : was_pmd3;
  assign s17 = was_we17 ? ((was_wdata & Wmask17) | (Reset17 & ~Wmask17)) : was_pmd17;

  // The property's assertion is a named wire, ok_<name>, that its clocked block asserts: a
  // counterexample's VCD shows which model's fails (`pmusim cex2replay` replays that one).
`ifdef PROP_dear_captures_only_armed
  // killed by: dear-freeze-ignored
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // The D-EAR captures only when armed: a clock that changes PMD2, PMD3 or PMD17 (or
  // signals DATA_EAR_EVENTS) is a step that PMC11's plm, pm and ism let capture, with
  // PMC0.fr clear (the freeze stops it: SDM2 §7.2.2), and a valid slot that passes the
  // event's qualification (docs/ita-ear-btb.md, "Common rules").
  (* keep *) logic ok_dear_captures_only_armed;
  assign ok_dear_captures_only_armed = !(cap || pmd2 != s2 || pmd3 != s3 || pmd17 != s17) ||
                                       (armed && some_qual);
  always @(posedge clk_i) begin
    if (past_valid) begin
      assert (ok_dear_captures_only_armed);
      cover (cap && pmd2 != s2 && pmd17 != s17);
    end
  end
`endif

endmodule

module ita_dear_props (
  input logic clk_i
);
  ita_dear_model #(.Model(0)) u_itanium  (.clk_i(clk_i));
  ita_dear_model #(.Model(1)) u_itanium2 (.clk_i(clk_i));
endmodule
