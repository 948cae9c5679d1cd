// The fields of the qualification registers PMC8, PMC9, PMC11 and PMC13..15 that the per-slot
// qualification reads, decoded once for all slots (ita-semantics.md, "Tags"; docs/ita-rtl.md,
// "The qualification registers, decoded at the write"): the opcode matchers' unit bits, the
// range tag controls of PMC14 / PMC8 and the opcode ties of PMC15, PMC13's pair requirements,
// and Itanium's PMC13.ta / PMC11.pt.
//
// Registered = 1 (ita_pmu): the fields are flops, decoded when the port writes their register,
// from the value that register stores (v & wmask) | (reset & ~wmask), like ita_evt_sel
// decodes its PMC: a clock then reads them as they are, instead of decoding the six registers
// in every clock. The register values (pmc*_i) are not read.
// Registered = 0 (the formal checkers and the unit tests of ita_slot_qual): the same decode,
// combinational, of the register values pmc*_i; the write port is not read.
module ita_qual_cfg #(
  parameter int Model      = 1,  // 0 = Itanium, 1 = Itanium 2
  parameter bit Registered = 1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        wr_i,         // the register port writes in this clock
  input  logic        pmc8_sel_i,   // ... this register (as its ita_pmc_gen)
  input  logic        pmc9_sel_i,
  input  logic        pmc11_sel_i,
  input  logic        pmc13_sel_i,
  input  logic        pmc14_sel_i,
  input  logic        pmc15_sel_i,
  input  logic [63:0] wdata_i,
  input  logic [63:0] pmc8_i,       // stored values (Registered = 0)
  input  logic [63:0] pmc9_i,
  input  logic [63:0] pmc11_i,
  input  logic [63:0] pmc13_i,
  input  logic [63:0] pmc14_i,
  input  logic [63:0] pmc15_i,
  output logic [3:0]  opc8_unit_o,  // PMC8's / PMC9's m, i, f, b bits, indexed by enum ita_unit
  output logic [3:0]  opc9_unit_o,
  output logic        ig_ad_o,      // PMC8.ig_ad
  output logic        inv_o,        // PMC8.inv
  output logic        pass_data_o,  // PMC11.pt (Itanium)
  output logic        tag_all_o,    // PMC13.ta (Itanium)
  output logic [3:0]  pair_active_o,  // PMC13: pair k is active (ena_dbrp_k, cfg_dbrp_k != 3)
  output logic [3:0]  need_iq_o,      // ... and requires inst_q(k) (cfg_dbrp_k 0 or 1)
  output logic [3:0]  need_dbr_o,     // ... and a DBR pair k hit (cfg_dbrp_k 0 or 2)
  output logic        fine_o,       // PMC14.fine
  output logic [3:0]  ibrp_free_o,  // PMC14.ibrp_k = 1: pair k does not constrain
  output logic [3:0]  opc_free_o    // PMC15 bit k = 1: no opcode matcher for pair k
);

  `include "ita_defs.vh"

  localparam bit Ita = (Model == 0);

  // enum ita_unit of include/common/ita/ita_cycle.h
  localparam int UnitM = 0, UnitI = 1, UnitF = 2, UnitB = 3;

  // PMC13.cfg_dbrp_k: what an active pair k requires of a memory access (docs/ita-semantics.md,
  // "Tags"; libpfm-3 lib/pfmlib_itanium2.c, iod_tab).
  localparam logic [1:0] CfgInstAndData = 2'd0;  // IBR + opcode + DBR
  localparam logic [1:0] CfgInst        = 2'd1;  // IBR + opcode
  localparam logic [1:0] CfgData        = 2'd2;  // DBR only
  localparam logic [1:0] CfgNone        = 2'd3;  // pair k not used

  // ---- the decode of each register's stored value -------------------------------------------
  function automatic logic [3:0] opc_unit(input logic [63:0] v);
    logic [3:0] u;
    u[UnitM] = v[ITA_F_PMC_OPC_M_LSB];
    u[UnitI] = v[ITA_F_PMC_OPC_I_LSB];
    u[UnitF] = v[ITA_F_PMC_OPC_F_LSB];
    u[UnitB] = v[ITA_F_PMC_OPC_B_LSB];
    opc_unit = u;
  endfunction

  // PMC8: {unit bits, ig_ad, inv}
  function automatic logic [5:0] dec8(input logic [63:0] v);
    dec8 = {opc_unit(v), v[ITA_F_PMC_OPC_IG_AD_LSB], v[ITA_F_PMC_OPC_INV_LSB]};
  endfunction

  // PMC11: pt
  function automatic logic dec11(input logic [63:0] v);
    dec11 = v[ITA_F_PMC11_PT_LSB];
  endfunction

  // PMC13: {ta, pair_active, need_iq, need_dbr}
  function automatic logic [12:0] dec13(input logic [63:0] v);
    logic [3:0] ena, active, iq, dbr;
    logic [7:0] cfg;  // cfg_dbrp_k at [k*2 +: 2]
    ena[0] = v[ITA_F_PMC13_ENA_DBRP0_LSB];
    ena[1] = v[ITA_F_PMC13_ENA_DBRP1_LSB];
    ena[2] = v[ITA_F_PMC13_ENA_DBRP2_LSB];
    ena[3] = v[ITA_F_PMC13_ENA_DBRP3_LSB];
    cfg[0*2 +: 2] = v[ITA_F_PMC13_CFG_DBRP0_MSB:ITA_F_PMC13_CFG_DBRP0_LSB];
    cfg[1*2 +: 2] = v[ITA_F_PMC13_CFG_DBRP1_MSB:ITA_F_PMC13_CFG_DBRP1_LSB];
    cfg[2*2 +: 2] = v[ITA_F_PMC13_CFG_DBRP2_MSB:ITA_F_PMC13_CFG_DBRP2_LSB];
    cfg[3*2 +: 2] = v[ITA_F_PMC13_CFG_DBRP3_MSB:ITA_F_PMC13_CFG_DBRP3_LSB];
    for (int k = 0; k < 4; k++) begin
      active[k] = ena[k] && (cfg[k*2 +: 2] != CfgNone);
      iq[k]     = (cfg[k*2 +: 2] == CfgInstAndData) || (cfg[k*2 +: 2] == CfgInst);
      dbr[k]    = (cfg[k*2 +: 2] == CfgInstAndData) || (cfg[k*2 +: 2] == CfgData);
    end
    dec13 = {v[ITA_F_PMC13_TA_LSB], active, iq, dbr};
  endfunction

  // PMC14: {fine, ibrp_free}
  function automatic logic [4:0] dec14(input logic [63:0] v);
    dec14 = {v[ITA_F_PMC14_FINE_LSB], v[ITA_F_PMC14_IBRP3_LSB], v[ITA_F_PMC14_IBRP2_LSB],
             v[ITA_F_PMC14_IBRP1_LSB], v[ITA_F_PMC14_IBRP0_LSB]};
  endfunction

  // PMC15: opc_free
  function automatic logic [3:0] dec15(input logic [63:0] v);
    dec15 = {v[ITA_F_PMC15_IBRP3_PMC9_LSB], v[ITA_F_PMC15_IBRP2_PMC8_LSB],
             v[ITA_F_PMC15_IBRP1_PMC9_LSB], v[ITA_F_PMC15_IBRP0_PMC8_LSB]};
  endfunction

  // What a write stores (ita_pmc_gen): bits outside the writable mask keep their reset value.
  function automatic logic [63:0] stored(input logic [63:0] v, input logic [63:0] rst,
                                         input logic [63:0] wmask);
    stored = (v & wmask) | (rst & ~wmask);
  endfunction

  if (Registered) begin : g_reg
    localparam logic [63:0] Reset8  = Ita ? ITA_PMC8_RESET_ITA  : ITA_PMC8_RESET_ITA2;
    localparam logic [63:0] Wmask8  = Ita ? ITA_PMC8_WMASK_ITA  : ITA_PMC8_WMASK_ITA2;
    localparam logic [63:0] Reset9  = Ita ? ITA_PMC9_RESET_ITA  : ITA_PMC9_RESET_ITA2;
    localparam logic [63:0] Wmask9  = Ita ? ITA_PMC9_WMASK_ITA  : ITA_PMC9_WMASK_ITA2;
    localparam logic [63:0] Reset11 = Ita ? ITA_PMC11_RESET_ITA : ITA_PMC11_RESET_ITA2;
    localparam logic [63:0] Wmask11 = Ita ? ITA_PMC11_WMASK_ITA : ITA_PMC11_WMASK_ITA2;
    localparam logic [63:0] Reset13 = Ita ? ITA_PMC13_RESET_ITA : ITA_PMC13_RESET_ITA2;
    localparam logic [63:0] Wmask13 = Ita ? ITA_PMC13_WMASK_ITA : ITA_PMC13_WMASK_ITA2;
    localparam logic [63:0] Reset14 = Ita ? ITA_PMC14_RESET_ITA : ITA_PMC14_RESET_ITA2;
    localparam logic [63:0] Wmask14 = Ita ? ITA_PMC14_WMASK_ITA : ITA_PMC14_WMASK_ITA2;
    localparam logic [63:0] Reset15 = Ita ? ITA_PMC15_RESET_ITA : ITA_PMC15_RESET_ITA2;
    localparam logic [63:0] Wmask15 = Ita ? ITA_PMC15_WMASK_ITA : ITA_PMC15_WMASK_ITA2;

    logic [5:0]  dec8_q;
    logic [3:0]  dec9_q;
    logic        pt_q;
    logic [12:0] dec13_q;
    logic [4:0]  dec14_q;
    logic [3:0]  dec15_q;

    // The write strobe tested before the selects, as ita_pmc_gen does (docs/bench.md).
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        dec8_q  <= dec8(Reset8);
        dec9_q  <= opc_unit(Reset9);
        pt_q    <= dec11(Reset11);
        dec13_q <= dec13(Reset13);
        dec14_q <= dec14(Reset14);
        dec15_q <= dec15(Reset15);
      end else if (wr_i) begin
        if (pmc8_sel_i) begin
          dec8_q <= dec8(stored(wdata_i, Reset8, Wmask8));
        end
        if (pmc9_sel_i) begin
          dec9_q <= opc_unit(stored(wdata_i, Reset9, Wmask9));
        end
        if (pmc11_sel_i) begin
          pt_q <= dec11(stored(wdata_i, Reset11, Wmask11));
        end
        if (pmc13_sel_i) begin
          dec13_q <= dec13(stored(wdata_i, Reset13, Wmask13));
        end
        if (pmc14_sel_i) begin
          dec14_q <= dec14(stored(wdata_i, Reset14, Wmask14));
        end
        if (pmc15_sel_i) begin
          dec15_q <= dec15(stored(wdata_i, Reset15, Wmask15));
        end
      end
    end

    assign {opc8_unit_o, ig_ad_o, inv_o}                    = dec8_q;
    assign opc9_unit_o                                      = dec9_q;
    assign pass_data_o                                      = pt_q;
    assign {tag_all_o, pair_active_o, need_iq_o, need_dbr_o} = dec13_q;
    assign {fine_o, ibrp_free_o}                            = dec14_q;
    assign opc_free_o                                       = dec15_q;
  end else begin : g_comb
    assign {opc8_unit_o, ig_ad_o, inv_o}                    = dec8(pmc8_i);
    assign opc9_unit_o                                      = opc_unit(pmc9_i);
    assign pass_data_o                                      = dec11(pmc11_i);
    assign {tag_all_o, pair_active_o, need_iq_o, need_dbr_o} = dec13(pmc13_i);
    assign {fine_o, ibrp_free_o}                            = dec14(pmc14_i);
    assign opc_free_o                                       = dec15(pmc15_i);
  end

endmodule
