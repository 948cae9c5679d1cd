// Event qualification of one retired slot (combinational): the primitive matches of the slot
// against the four IBR pairs (normal mode), the two fine-mode ranges, the four DBR pairs and
// the two opcode matchers, combined into the slot's tags by ita_tag_qual (ita-semantics.md,
// "Event qualification by instruction address, opcode and data address"). One instance per
// slot, shared by all counters. A slot that does not retire in this clock (valid_i = 0) is not
// evaluated and its outputs are 0 (docs/bench.md, "Only the slots that retire").
module ita_slot_qual #(
  parameter int Model     = 1,  // 0 = Itanium, 1 = Itanium 2
  parameter bit FineGran2 = 0   // fine-mode ranges compare ip[11:5] instead of ip[11:4]
) (
  input  logic        valid_i,   // the slot retires in this clock (s < nslots)
  input  logic        is_i,      // 0 IA-64, 1 IA-32
  input  logic [1:0]  cpl_i,
  input  logic [63:0] ip_i,      // the slot's bundle address
  input  logic [40:0] enc_i,     // its 41-bit encoding
  input  logic [1:0]  unit_i,    // enum ita_unit
  input  logic        mem_i,     // it is a load or a store
  input  logic [63:0] daddr_i,   // its data address
  input  logic [8*64-1:0] ibr_i, // IBR j at [j*64 +: 64]
  input  logic [8*64-1:0] dbr_i, // DBR j at [j*64 +: 64]
  input  logic [63:0] pmc8_i,    // the opcode matchers' match / mask
  input  logic [63:0] pmc9_i,
  // The fields of PMC8, PMC9, PMC11 and PMC13..15 that qualification reads, decoded
  // (ita_qual_cfg: see there).
  input  logic [3:0]  opc8_unit_i,
  input  logic [3:0]  opc9_unit_i,
  input  logic        ig_ad_i,
  input  logic        inv_i,
  input  logic        pass_data_i,
  input  logic        tag_all_i,
  input  logic [3:0]  pair_active_i,
  input  logic [3:0]  need_iq_i,
  input  logic [3:0]  need_dbr_i,
  input  logic        fine_i,
  input  logic [3:0]  ibrp_free_i,
  input  logic [3:0]  opc_free_i,
  output logic [15:0] inst_q_o,  // see ita_tag_qual
  output logic [3:0]  mem_q_o
);

  localparam int NPairs = 4;

  logic [NPairs-1:0] ibr_hit, dbr_hit;
  logic [1:0]        fine_hit, opm_hit;

  // Pair k: the even register 2k holds the address, the odd register 2k+1 mask and plm.
  for (genvar k = 0; k < NPairs; k++) begin : g_pair
    ita_ibr_match u_ibr (
      .en_i       (valid_i),
      .ip_i       (ip_i),
      .cpl_i      (cpl_i),
      .ibr_addr_i (ibr_i[(2*k)*64 +: 64]),
      .ibr_mask_i (ibr_i[(2*k+1)*64 +: 64]),
      .hit_o      (ibr_hit[k])
    );

    ita_dbr_match u_dbr (
      .en_i       (valid_i),
      .daddr_i    (daddr_i),
      .mem_i      (mem_i),
      .cpl_i      (cpl_i),
      .dbr_addr_i (dbr_i[(2*k)*64 +: 64]),
      .dbr_mask_i (dbr_i[(2*k+1)*64 +: 64]),
      .hit_o      (dbr_hit[k])
    );
  end

  // Fine mode (Itanium 2 only): range A = pair 0 (lower) to pair 2 (upper), range B = pair 1
  // to pair 3, i.e. range r has its lower bound in pair r and its upper bound in pair r+2.
  for (genvar r = 0; r < 2; r++) begin : g_fine
    if (Model != 0) begin : g_range
      ita_fine_range #(
        .FineGran2 (FineGran2)
      ) u_fine (
        .en_i      (valid_i),
        .ip_i      (ip_i),
        .cpl_i     (cpl_i),
        .lo_addr_i (ibr_i[(2*r)*64 +: 64]),
        .lo_mask_i (ibr_i[(2*r+1)*64 +: 64]),
        .hi_addr_i (ibr_i[(2*(r+2))*64 +: 64]),
        .hi_mask_i (ibr_i[(2*(r+2)+1)*64 +: 64]),
        .hit_o     (fine_hit[r])
      );
    end else begin : g_none
      assign fine_hit[r] = 1'b0;  // Itanium has no fine mode
    end
  end

  ita_opc_match u_opc8 (
    .en_i      (valid_i),
    .enc_i     (enc_i),
    .unit_i    (unit_i),
    .pmc_i     (pmc8_i),
    .unit_en_i (opc8_unit_i),
    .hit_o     (opm_hit[0])
  );

  ita_opc_match u_opc9 (
    .en_i      (valid_i),
    .enc_i     (enc_i),
    .unit_i    (unit_i),
    .pmc_i     (pmc9_i),
    .unit_en_i (opc9_unit_i),
    .hit_o     (opm_hit[1])
  );

  ita_tag_qual #(
    .Model (Model)
  ) u_tag_qual (
    .en_i          (valid_i),
    .is_i          (is_i),
    .ibr_hit_i     (ibr_hit),
    .fine_hit_i    (fine_hit),
    .dbr_hit_i     (dbr_hit),
    .opm_hit_i     (opm_hit),
    .ig_ad_i       (ig_ad_i),
    .inv_i         (inv_i),
    .pass_data_i   (pass_data_i),
    .tag_all_i     (tag_all_i),
    .pair_active_i (pair_active_i),
    .need_iq_i     (need_iq_i),
    .need_dbr_i    (need_dbr_i),
    .fine_i        (fine_i),
    .ibrp_free_i   (ibrp_free_i),
    .opc_free_i    (opc_free_i),
    .inst_q_o      (inst_q_o),
    .mem_q_o       (mem_q_o)
  );

endmodule
