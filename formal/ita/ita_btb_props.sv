`include "ita_defines.vh"

// Formal properties of the branch trace buffer, PMC12 / PMD8..PMD16 (docs/formal.md,
// docs/ita-ear-btb.md "Branch trace buffer"). A formal-only checker around the unchanged
// ita_btb, for both models, fed as ita_pmu feeds it; every input is free (anyseq): PMC12, the
// record in flight (step, PMC0.fr before the clock, privilege, instruction set, effective
// PSR, the slots and which of them pass BRANCH_EVENT's qualification) and software's writes
// of PMD8..PMD16, one a clock. What it sees is what a read returns. The flops start in any
// state (any bbi, odd ones included); reset is held inactive. Sources: docs/sources.md
// (libpfm-3 pfmlib_itanium2.h pmc12_ita2_reg and pfm_ita2_pmd_reg_t pmd16: bbi, full; Linux
// perfmon_mckinley.h; SDM2 §7.2.2: the freeze stops the model-specific monitors).
module ita_btb_model #(
  parameter int Model = 1   // 0 = Itanium, 1 = Itanium 2
) (
  input logic clk_i
);

  `include "ita_defs.vh"

  localparam bit          Ita    = (Model == 0);
  localparam int          NSlots = `ITA_MAX_SLOTS;
  localparam int          NEnt   = 1 << ITA_F_PMD16_BBI_W;   // PMD8..PMD15
  localparam int          NRegs  = NEnt + 1;                 // and PMD16
  localparam int          BbiW   = ITA_F_PMD16_BBI_W;
  localparam logic [63:0] ResetE = Ita ? ITA_PMD8_RESET_ITA  : ITA_PMD8_RESET_ITA2;
  localparam logic [63:0] WmaskE = Ita ? ITA_PMD8_WMASK_ITA  : ITA_PMD8_WMASK_ITA2;
  localparam logic [63:0] Reset16 = Ita ? ITA_PMD16_RESET_ITA : ITA_PMD16_RESET_ITA2;
  localparam logic [63:0] Wmask16 = Ita ? ITA_PMD16_WMASK_ITA : ITA_PMD16_WMASK_ITA2;

  (* anyseq *) logic [63:0]                     pmc12, wdata;
  (* anyseq *) logic                            step, fr, is, up, pp;
  (* anyseq *) logic [1:0]                      cpl;
  (* anyseq *) logic [2:0]                      nslots;
  (* anyseq *) logic [NSlots*`ITA_SF_WIDTH-1:0] flags;
  (* anyseq *) logic [NSlots*2-1:0]             idx;
  (* anyseq *) logic [NSlots*64-1:0]            ip, target;
  (* anyseq *) logic [NSlots-1:0]               qual;
  (* anyseq *) logic [NRegs-1:0]                we;    // PMD(8+j) at j

  always @* assume ($onehot0(we));  // one register a write

  logic [NRegs*64-1:0] pmd;
  logic                en, cap;

  ita_btb #(
    .Model (Model),
    .NRegs (NRegs)
  ) dut (
    .clk_i         (clk_i),
    .rst_ni        (1'b1),
    .pmc12_i       (pmc12),
    .step_i        (step),
    .fr_i          (fr),
    .cpl_i         (cpl),
    .is_i          (is),
    .psr_up_i      (up),
    .psr_pp_i      (pp),
    .nslots_i      (nslots),
    .slot_flags_i  (flags),
    .slot_ip_i     (ip),
    .slot_idx_i    (idx),
    .slot_target_i (target),
    .slot_qual_i   (qual),
    .pmd_we_i      (we),
    .wdata_i       (wdata),
    .pmd_o         (pmd),
    .en_o          (en),
    .cap_o         (cap)
  );

  // The registers as stored at this clock (the read of the clock before, then its write).
  logic                past_valid = 1'b0;
  logic [NRegs-1:0]    was_we;
  logic [63:0]         was_wdata;
  logic [NRegs*64-1:0] was_pmd, s;
  always @(posedge clk_i) begin
    past_valid <= 1'b1;
    was_we     <= we;
    was_wdata  <= wdata;
    was_pmd    <= pmd;
  end
  for (genvar j = 0; j < NRegs; j++) begin : g_s
    localparam logic [63:0] R = (j == NEnt) ? Reset16 : ResetE;
    localparam logic [63:0] M = (j == NEnt) ? Wmask16 : WmaskE;
    assign s[j*64 +: 64] = was_we[j] ? ((was_wdata & M) | (R & ~M)) : was_pmd[j*64 +: 64];
  end

  logic [63:0]     pmd16, s16;
  logic [BbiW-1:0] bbi, s_bbi, s_bbi_tgt;
  logic            full, s_full;
  assign pmd16     = pmd[NEnt*64 +: 64];
  assign s16       = s[NEnt*64 +: 64];
  assign bbi       = pmd16[ITA_F_PMD16_BBI_MSB:ITA_F_PMD16_BBI_LSB];
  assign full      = pmd16[ITA_F_PMD16_FULL_LSB];
  assign s_bbi     = s16[ITA_F_PMD16_BBI_MSB:ITA_F_PMD16_BBI_LSB];
  assign s_full    = s16[ITA_F_PMD16_FULL_LSB];
  assign s_bbi_tgt = s_bbi + 1'b1;       // mod 8

  // Armed: PMC12 lets the BTB record in this clock (docs/ita-ear-btb.md, "Common rules"): a
  // step, PMC0.fr clear, the cycle's cpl in plm, the monitor enabled (pm = 1: PSR.pp; 0:
  // PSR.up); PMC12 has no ism and only IA-64 branches are recorded.
  logic [3:0] plm;
  logic       pm, armed, some_qual;
  assign plm       = pmc12[ITA_F_PMC12_PLM_MSB:ITA_F_PMC12_PLM_LSB];
  assign pm        = pmc12[ITA_F_PMC12_PM_LSB];
  assign armed     = step && !fr && plm[cpl] && (pm ? pp : up) && !is;
  assign some_qual = (qual & ~({NSlots{1'b1}} << nslots)) != '0;

  // Each property's assertion is a named wire, ok_<name>, that its clocked block asserts: a
  // counterexample's VCD shows which model's fails (`pmusim cex2replay` replays that one).
`ifdef PROP_btb_ring_pointer
  // killed by: btb-ring-steps-one
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // The write pointer: each recorded branch takes two entries, so bbi <- (bbi + 2) mod 8,
  // and full is set when the 3-bit sum carries out (bbi >= 6: the ring wrapped) and stays
  // set until software writes PMD16; a clock that records nothing leaves PMD16
  // (docs/ita-ear-btb.md, "Branch trace buffer"; libpfm-3 pfmlib_itanium2.h pmd16). (The
  // per-entry bits of PMD16 are left out: they follow the records, not the pointer.)
  (* keep *) logic ok_btb_ring_pointer;
  assign ok_btb_ring_pointer = cap ? (bbi == s_bbi + 3'd2 && full == (s_full || s_bbi >= 3'd6))
                                   : (bbi == s_bbi && full == s_full);
  always @(posedge clk_i) begin
    if (past_valid) begin
      assert (ok_btb_ring_pointer);
      cover (cap && s_bbi == 3'd6 && !s_full && bbi == 3'd0 && full);
      cover (cap && s_bbi == 3'd7 && bbi == 3'd1);
    end
  end
`endif
`ifdef PROP_btb_writes_at_pointer
  // killed by: btb-target-entry-skips
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // A recorded branch writes the branch record at PMD(8 + bbi) and the target record at
  // PMD(8 + (bbi + 1) mod 8), and no other entry (docs/ita-ear-btb.md, "Branch trace
  // buffer"); a clock that records nothing changes no entry.
  (* keep *) logic ok_btb_writes_at_pointer;
  always @* begin
    ok_btb_writes_at_pointer = 1'b1;
    for (int j = 0; j < NEnt; j++) begin
      if ((!cap || (j != {29'd0, s_bbi} && j != {29'd0, s_bbi_tgt})) &&
          pmd[j*64 +: 64] != s[j*64 +: 64])
        ok_btb_writes_at_pointer = 1'b0;
    end
  end
  always @(posedge clk_i) begin
    if (past_valid) begin
      assert (ok_btb_writes_at_pointer);
      cover (cap && s_bbi == 3'd7 && pmd[0 +: 64] != s[0 +: 64]);
    end
  end
`endif
`ifdef PROP_btb_records_only_armed
  // killed by: unit-monitor-swapped
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // The BTB records only when armed: a clock that moves the pointer (or signals
  // BRANCH_EVENT; which entries a clock writes is the property above) is an IA-64 step
  // that PMC12's plm and pm let record, with PMC0.fr clear (SDM2 §7.2.2), and a valid
  // slot that passes the event's qualification.
  (* keep *) logic ok_btb_records_only_armed;
  assign ok_btb_records_only_armed = !(cap || bbi != s_bbi || full != s_full) || (armed && some_qual);
  always @(posedge clk_i) begin
    if (past_valid) begin
      assert (ok_btb_records_only_armed);
      cover (cap && pm && !up);
    end
  end
`endif

endmodule

module ita_btb_props (
  input logic clk_i
);
  ita_btb_model #(.Model(0)) u_itanium  (.clk_i(clk_i));
  ita_btb_model #(.Model(1)) u_itanium2 (.clk_i(clk_i));
endmodule
