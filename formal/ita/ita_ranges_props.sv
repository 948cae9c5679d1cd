`include "ita_defines.vh"

// Formal properties of range qualification by the IBR and DBR pairs (docs/formal.md,
// docs/ita-qualification.md, docs/ita-semantics.md "Event qualification by instruction
// address, opcode and data address"). A formal-only checker around the unchanged
// ita_slot_qual (the IBR / DBR / fine-mode / opcode matches of one retired slot and their
// combining into its tags: the qualification every counter's event select, the D-EAR and
// the BTB read), for both models, fed the registers' fields by ita_qual_cfg's decode
// (combinational here; ita_pmu registers the same decode at the write). Every input is free (anyseq): the slot (ip, data address,
// encoding, privilege, instruction set) and IBR0..7, DBR0..7, PMC8, PMC9, PMC11, PMC13..15.
// The block is combinational: each property holds of every clock (the BMC and the
// induction check each step alone). Sources: docs/sources.md (SDM2 Table 7-1: the IBR / DBR
// match, address bits 63:56 always compared, the mask covering bits 55:0, plm; ITA-PRM
// §6.1.3 Table 6-3: Itanium's PMC13.ta and PMC11.pt; libpfm-3 pfmlib_itanium2.h
// pmc14_ita2_reg, pmc13_ita2_reg, pmc8_9_ita2_reg).
module ita_ranges_model #(
  parameter int Model = 1   // 0 = Itanium, 1 = Itanium 2
) (
  input logic clk_i
);

  `include "ita_defs.vh"

  localparam bit Ita    = (Model == 0);
  localparam int NPairs = 4;
  localparam int SetIar = 2, SetIarOpm = 3;  // qualifier sets c = {iar, opm} with iar = 1

  (* anyseq *) logic              valid, is;
  (* anyseq *) logic [1:0]        cpl, unit;
  (* anyseq *) logic [63:0]       ip, daddr;
  (* anyseq *) logic [40:0]       enc;
  (* anyseq *) logic              mem;
  (* anyseq *) logic [8*64-1:0]   ibr, dbr;
  (* anyseq *) logic [63:0]       pmc8, pmc9, pmc11, pmc13, pmc14, pmc15;

  logic [15:0] inst_q;
  logic [3:0]  mem_q;

  // The registers' fields as ita_pmu decodes them at the write (ita_qual_cfg), here
  // combinational: the registers are free in every step.
  logic [3:0] opc8_unit, opc9_unit, pair_active, need_iq, need_dbr, ibrp_free, opc_free;
  logic       ig_ad, inv, pass_data, tag_all, fine;

  ita_qual_cfg #(
    .Model      (Model),
    .Registered (1'b0)
  ) u_qual_cfg (
    .clk_i         (clk_i),
    .rst_ni        (1'b1),
    .wr_i          (1'b0),
    .pmc8_sel_i    (1'b0),
    .pmc9_sel_i    (1'b0),
    .pmc11_sel_i   (1'b0),
    .pmc13_sel_i   (1'b0),
    .pmc14_sel_i   (1'b0),
    .pmc15_sel_i   (1'b0),
    .wdata_i       (64'd0),
    .pmc8_i        (pmc8),
    .pmc9_i        (pmc9),
    .pmc11_i       (pmc11),
    .pmc13_i       (pmc13),
    .pmc14_i       (pmc14),
    .pmc15_i       (pmc15),
    .opc8_unit_o   (opc8_unit),
    .opc9_unit_o   (opc9_unit),
    .ig_ad_o       (ig_ad),
    .inv_o         (inv),
    .pass_data_o   (pass_data),
    .tag_all_o     (tag_all),
    .pair_active_o (pair_active),
    .need_iq_o     (need_iq),
    .need_dbr_o    (need_dbr),
    .fine_o        (fine),
    .ibrp_free_o   (ibrp_free),
    .opc_free_o    (opc_free)
  );

  ita_slot_qual #(
    .Model     (Model),
    .FineGran2 (1'b0)
  ) dut (
    .valid_i  (valid),
    .is_i     (is),
    .cpl_i    (cpl),
    .ip_i     (ip),
    .enc_i    (enc),
    .unit_i   (unit),
    .mem_i    (mem),
    .daddr_i  (daddr),
    .ibr_i    (ibr),
    .dbr_i    (dbr),
    .pmc8_i        (pmc8),
    .pmc9_i        (pmc9),
    .opc8_unit_i   (opc8_unit),
    .opc9_unit_i   (opc9_unit),
    .ig_ad_i       (ig_ad),
    .inv_i         (inv),
    .pass_data_i   (pass_data),
    .tag_all_i     (tag_all),
    .pair_active_i (pair_active),
    .need_iq_i     (need_iq),
    .need_dbr_i    (need_dbr),
    .fine_i        (fine),
    .ibrp_free_i   (ibrp_free),
    .opc_free_i    (opc_free),
    .inst_q_o (inst_q),
    .mem_q_o  (mem_q)
  );

  // The ranges, as SDM2 Table 7-1 defines a match: pair k is register 2k (the address) and
  // 2k+1 (mask bits 55:0, plm); an address is in the range when it equals the address on
  // every bit the mask sets and on bits 63:56, at a privilege level in plm. The instruction
  // check ignores bits 3:0 (a bundle address); the data check applies to loads and stores.
  logic [NPairs-1:0] in_ibr, in_dbr;
  for (genvar k = 0; k < NPairs; k++) begin : g_range
    logic [63:0] ia, im, da, dm;
    assign ia = ibr[(2*k)*64 +: 64];
    assign im = ibr[(2*k+1)*64 +: 64];
    assign da = dbr[(2*k)*64 +: 64];
    assign dm = dbr[(2*k+1)*64 +: 64];
    assign in_ibr[k] = im[ITA_F_IBR_MASK_PLM_LSB + cpl] &&
                       ((ip ^ ia) & {8'hff, im[55:0]} & ~64'hf) == 64'd0;
    assign in_dbr[k] = mem && dm[ITA_F_DBR_MASK_PLM_LSB + cpl] &&
                       ((daddr ^ da) & {8'hff, dm[55:0]}) == 64'd0;
  end

  // Which pairs constrain an instruction tag, and which memory qualification needs a DBR hit.
  // Itanium 2: pair k constrains inst_q(k) in normal mode (PMC14.fine = 0) when PMC14.ibrp_k
  // is 0, and, for the pairs tied to PMC8 (0, 2), PMC8.ig_ad and inv are 0. Its memory
  // qualification checks data addresses when PMC13 is active and every active pair's cfg_dbrp
  // asks for a DBR hit (0: IBR + opcode + DBR, 2: DBR only). Itanium: PMC13.ta = 0 makes every
  // tag need some IBR pair's range, PMC11.pt = 0 the memory qualification some DBR pair's.
  logic [NPairs-1:0] ibr_checked, active, needs_dbr, ibrp, ena;
  logic [2*NPairs-1:0] cfgs;
  logic              dbr_checked;
  assign ibrp = {pmc14[ITA_F_PMC14_IBRP3_LSB], pmc14[ITA_F_PMC14_IBRP2_LSB],
                 pmc14[ITA_F_PMC14_IBRP1_LSB], pmc14[ITA_F_PMC14_IBRP0_LSB]};
  assign ena  = {pmc13[ITA_F_PMC13_ENA_DBRP3_LSB], pmc13[ITA_F_PMC13_ENA_DBRP2_LSB],
                 pmc13[ITA_F_PMC13_ENA_DBRP1_LSB], pmc13[ITA_F_PMC13_ENA_DBRP0_LSB]};
  assign cfgs = {pmc13[ITA_F_PMC13_CFG_DBRP3_LSB +: 2], pmc13[ITA_F_PMC13_CFG_DBRP2_LSB +: 2],
                 pmc13[ITA_F_PMC13_CFG_DBRP1_LSB +: 2], pmc13[ITA_F_PMC13_CFG_DBRP0_LSB +: 2]};
  for (genvar k = 0; k < NPairs; k++) begin : g_cfg
    logic [1:0] cfg;
    assign cfg            = cfgs[2*k +: 2];
    assign active[k]      = ena[k] && cfg != 2'd3;
    assign needs_dbr[k]   = cfg == 2'd0 || cfg == 2'd2;
    assign ibr_checked[k] = !pmc14[ITA_F_PMC14_FINE_LSB] && !ibrp[k] &&
                            (k % 2 == 1 || (!pmc8[ITA_F_PMC_OPC_IG_AD_LSB] &&
                                            !pmc8[ITA_F_PMC_OPC_INV_LSB]));
  end
  assign dbr_checked = Ita ? !pmc11[ITA_F_PMC11_PT_LSB]
                           : (active != '0 && (active & ~needs_dbr) == '0);

  logic ia64;
  assign ia64 = valid && !is;   // IA-32 slots are never constrained

  // Itanium 2's fine mode (PMC14.fine = 1; libpfm-3 pfmlib_itanium2.h pmc14_ita2_reg,
  // pfmlib_itanium2.c compute_fine_rr()): range A runs from IBR0 (pair 0) to IBR4 (pair 2),
  // range B from IBR2 (pair 1) to IBR6 (pair 3), at bundle granularity, the upper bundle
  // included, inside the lower bound's 4 KB page; both bounds' plm must have the privilege
  // level. Stated as addresses: lo <= ip <= {lo's page, hi's offset}, on bits 63:4.
  logic [1:0] in_fine;
  for (genvar r = 0; r < 2; r++) begin : g_fine
    logic [63:0] lo, hi, lom, him;
    assign lo  = ibr[(2*r)*64 +: 64];
    assign lom = ibr[(2*r+1)*64 +: 64];
    assign hi  = ibr[(2*r+4)*64 +: 64];
    assign him = ibr[(2*r+5)*64 +: 64];
    assign in_fine[r] = lom[ITA_F_IBR_MASK_PLM_LSB + cpl] && him[ITA_F_IBR_MASK_PLM_LSB + cpl] &&
                        ip[63:4] >= lo[63:4] && ip[63:4] <= {lo[63:12], hi[11:4]};
  end
  // Pair k checks a fine range in fine mode when PMC14.ibrp_k = 0 and, for the pairs tied to
  // PMC8 (0, 2), PMC8.ig_ad and inv are 0.
  logic [NPairs-1:0] fine_checked;
  for (genvar k = 0; k < NPairs; k++) begin : g_fchk
    assign fine_checked[k] = !Ita && pmc14[ITA_F_PMC14_FINE_LSB] && !ibrp[k] &&
                             (k % 2 == 1 || (!pmc8[ITA_F_PMC_OPC_IG_AD_LSB] &&
                                             !pmc8[ITA_F_PMC_OPC_INV_LSB]));
  end

  // Each property's assertion is a named wire, ok_<name>, that its clocked block asserts: a
  // counterexample's VCD shows which model's fails (`pmusim cex2replay` replays that one).
`ifdef PROP_ibr_range_qualifies
  // killed by: ibr-top-bits-ignored
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // An instruction-address-qualified event (iar = 1) never counts a slot outside its IBR
  // range: a retired IA-64 slot whose tag inst_q(k) passes, where pair k checks addresses,
  // is in IBR pair k's range (Itanium: in some pair's range, PMC13.ta = 0).
  (* keep *) logic ok_ibr_range_qualifies;
  always @* begin
    ok_ibr_range_qualifies = 1'b1;
    for (int k = 0; k < NPairs; k++) begin
      if (ia64 && (inst_q[SetIar*NPairs + k] || inst_q[SetIarOpm*NPairs + k])) begin
        if (Ita && !pmc13[ITA_F_PMC13_TA_LSB] && in_ibr == '0) ok_ibr_range_qualifies = 1'b0;
        if (!Ita && ibr_checked[k] && !in_ibr[k])             ok_ibr_range_qualifies = 1'b0;
      end
    end
  end
  always @(posedge clk_i) begin
    assert (ok_ibr_range_qualifies);
    cover (ia64 && inst_q[SetIar*NPairs + 1] && (Ita ? !pmc13[ITA_F_PMC13_TA_LSB]
                                                     : ibr_checked[1]) && ip[63:56] != 8'd0);
  end
`endif
`ifdef PROP_fine_range_qualifies
  // killed by: fine-range-any-page
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // In fine mode too, an instruction-address-qualified event never counts a slot outside
  // its range: a retired IA-64 slot whose tag inst_q(k) passes, where pair k checks a fine
  // range, is inside range A (pairs 0, 2) or B (pairs 1, 3). Itanium has no fine mode
  // (ITA-PRM §6.1.3: no PMC14): there fine_checked is 0, and the cover is a slot that
  // passes outside range B with the PMC14.fine bit set, which the Itanium ignores.
  (* keep *) logic ok_fine_range_qualifies;
  always @* begin
    ok_fine_range_qualifies = 1'b1;
    for (int k = 0; k < NPairs; k++) begin
      if (ia64 && fine_checked[k] && (inst_q[SetIar*NPairs + k] || inst_q[SetIarOpm*NPairs + k]) &&
          !in_fine[k % 2])
        ok_fine_range_qualifies = 1'b0;
    end
  end
  always @(posedge clk_i) begin
    assert (ok_fine_range_qualifies);
    cover (ia64 && inst_q[SetIar*NPairs + 3] &&
           (Ita ? pmc14[ITA_F_PMC14_FINE_LSB] && !in_fine[1]
                : fine_checked[3] && ip[11:4] != ibr[2*64 + 4 +: 8]));
  end
`endif
`ifdef PROP_dbr_range_qualifies
  // killed by: dbr-top-bits-ignored
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // A data-address-qualified event (dar = 1) never counts an access outside its DBR
  // range: where the memory qualification checks data addresses, a slot that passes it
  // is a load or store in the range of a DBR pair (Itanium 2: an active pair).
  (* keep *) logic ok_dbr_range_qualifies;
  assign ok_dbr_range_qualifies = !(ia64 && dbr_checked && mem_q != '0) ||
                                  (in_dbr & (Ita ? {NPairs{1'b1}} : active)) != '0;
  always @(posedge clk_i) begin
    assert (ok_dbr_range_qualifies);
    cover (ia64 && dbr_checked && mem_q[0] && daddr[63:56] != 8'd0);
  end
`endif

endmodule

module ita_ranges_props (
  input logic clk_i
);
  ita_ranges_model #(.Model(0)) u_itanium  (.clk_i(clk_i));
  ita_ranges_model #(.Model(1)) u_itanium2 (.clk_i(clk_i));
endmodule
