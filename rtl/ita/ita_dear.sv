`include "ita_defines.vh"

// The data event address register (docs/ita-ear-btb.md, "D-EAR"): PMC11 configures it, PMD2
// (data address), PMD3 (latency / status) and PMD17 (instruction address) hold the last
// capture. Candidates are the valid slots that retire with a true predicate, pass
// DATA_EAR_EVENTS' qualification (slot_qual_i) and satisfy PMC11's mode and umask; in a
// clock in which the unit may capture (ita_unit_en on PMC11's plm / pm / ism) the first
// candidate in slot order is captured and cap_o is 1 (the counter event DATA_EAR_EVENTS).
module ita_dear #(
  parameter int Model = 1   // 0 = Itanium, 1 = Itanium 2
) (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  logic [63:0]                             pmc11_i,
  input  logic                                    step_i,
  input  logic                                    fr_i,
  input  logic [1:0]                              cpl_i,
  input  logic                                    is_i,
  input  logic                                    psr_up_i,
  input  logic                                    psr_pp_i,
  input  logic [2:0]                              nslots_i,
  input  logic [`ITA_MAX_SLOTS*`ITA_SF_WIDTH-1:0] slot_flags_i,
  input  logic [`ITA_MAX_SLOTS*16-1:0]            slot_lat_i,
  input  logic [`ITA_MAX_SLOTS*2-1:0]             slot_tlb_i,
  input  logic [`ITA_MAX_SLOTS*64-1:0]            slot_ip_i,
  input  logic [`ITA_MAX_SLOTS*2-1:0]             slot_idx_i,
  input  logic [`ITA_MAX_SLOTS*64-1:0]            slot_daddr_i,
  input  logic [`ITA_MAX_SLOTS-1:0]               slot_qual_i,   // passes the qualification
  input  logic                                    pmd2_we_i,
  input  logic                                    pmd3_we_i,
  input  logic                                    pmd17_we_i,
  input  logic [63:0]                             wdata_i,
  output logic [63:0]                             pmd2_o,
  output logic [63:0]                             pmd3_o,
  output logic [63:0]                             pmd17_o,
  output logic                                    en_o,         // it may capture in this clock: slot_qual_i matters only then
  output logic                                    cap_o
);

  `include "ita_defs.vh"

  localparam bit Ita    = (Model == 0);
  localparam int NSlots = `ITA_MAX_SLOTS;

  // Itanium 2 PMC11.mode
  localparam logic [1:0] ModeCache = 2'd0, ModeTlb = 2'd1, ModeAlat = 2'd2;
  // enum ita_tlb of include/common/ita/ita_cycle.h
  localparam logic [1:0] TlbL1 = 2'd0;

  logic [3:0]  plm, umask;
  logic        pm, en, any;
  logic [1:0]  ism, mode;
  logic [2:0]  sel;
  logic [NSlots-1:0] slot_valid, hit;

  assign plm   = pmc11_i[ITA_F_PMC11_PLM_MSB:ITA_F_PMC11_PLM_LSB];
  assign pm    = pmc11_i[ITA_F_PMC11_PM_LSB];
  assign ism   = pmc11_i[ITA_F_PMC11_ISM_MSB:ITA_F_PMC11_ISM_LSB];
  assign umask = pmc11_i[ITA_F_PMC11_UMASK_MSB:ITA_F_PMC11_UMASK_LSB];

  // Itanium has only PMC11.tlb (cache or TLB mode); read it as Itanium 2's mode.
  if (Ita) begin : g_mode_ita
    assign mode = pmc11_i[ITA_F_PMC11_ITA_TLB_LSB] ? ModeTlb : ModeCache;
  end else begin : g_mode_ita2
    assign mode = pmc11_i[ITA_F_PMC11_MODE_MSB:ITA_F_PMC11_MODE_LSB];
  end

  // Cache mode latency threshold of umask, 0 = none (nothing is captured). Itanium 2:
  // 4 << umask for 0..0xa. Itanium: 4 << umask for 0..6, 512 for 7 and 8, 1024 for 9, 2048
  // for 0xa, every miss (lat >= 1) for 0xf (LAT_NONE).
  function automatic logic [15:0] threshold(input logic [3:0] u);
    if (Ita) begin
      if (u <= 4'd6)       threshold = 16'd4 << u;
      else if (u <= 4'd8)  threshold = 16'd512;
      else if (u == 4'd9)  threshold = 16'd1024;
      else if (u == 4'ha)  threshold = 16'd2048;
      else if (u == 4'hf)  threshold = 16'd1;
      else                 threshold = 16'd0;
    end else begin
      threshold = (u <= 4'ha) ? (16'd4 << u) : 16'd0;
    end
  endfunction

  logic [15:0] thr;  // threshold(umask), formed in the gated block below

  assign slot_valid = ~({NSlots{1'b1}} << nslots_i);

  // What PMC11's mode asks of a slot (the flags are tested by mask: Icarus 11 does not support
  // constant bit-selects in always_* processes).
  localparam int             SfW        = `ITA_SF_WIDTH;
  localparam logic [SfW-1:0] LoadBit    = SfW'(1) << ITA_SF_LOAD_LSB;
  localparam logic [SfW-1:0] MemBits    = LoadBit | (SfW'(1) << ITA_SF_STORE_LSB);
  localparam logic [SfW-1:0] AlatBit    = SfW'(1) << ITA_SF_ALAT_MISS_LSB;
  localparam logic [SfW-1:0] PredOffBit = SfW'(1) << ITA_SF_PRED_OFF_LSB;

  function automatic logic mode_hit(input logic [1:0] m, input logic [15:0] t,
                                    input logic [3:0] u, input logic [SfW-1:0] flags,
                                    input logic [15:0] lat, input logic [1:0] tlb);
    case (m)
      ModeCache: mode_hit = ((flags & LoadBit) != '0) && (t != 16'd0) && (lat >= t);
      ModeTlb:   mode_hit = ((flags & MemBits) != '0) && (tlb != TlbL1) && u[tlb];
      ModeAlat:  mode_hit = (flags & AlatBit) != '0;
      default:   mode_hit = 1'b0;
    endcase
  endfunction

  // The slots' hits (a retired slot: valid and not predicated off), looked at only in a clock
  // in which the unit may capture (en), so that a run with the D-EAR off skips them
  // (docs/bench.md, "Only the slots that retire").
  always_comb begin
    if (en) begin
      thr = threshold(umask);
      hit = '0;  // (so that Verilator sees every bit assigned)
      for (int k = 0; k < NSlots; k++) begin
        hit[k] = slot_valid[k] && ((slot_flags_i[k*SfW +: SfW] & PredOffBit) == '0) &&
                 slot_qual_i[k] &&
                 mode_hit(mode, thr, umask, slot_flags_i[k*SfW +: SfW], slot_lat_i[k*16 +: 16],
                          slot_tlb_i[k*2 +: 2]);
      end
    end else begin
      thr = '0;
      hit = '0;
    end
  end

  ita_first_slot #(
    .NSlots (NSlots),
    .IdxW   (3)
  ) u_first (
    .hit_i (hit),
    .any_o (any),
    .idx_o (sel)
  );

  ita_unit_en u_en (
    .step_i   (step_i),
    .fr_i     (fr_i),
    .cpl_i    (cpl_i),
    .is_i     (is_i),
    .psr_up_i (psr_up_i),
    .psr_pp_i (psr_pp_i),
    .plm_i    (plm),
    .pm_i     (pm),
    .ism_i    (ism),
    .en_o     (en)
  );

  assign en_o  = en;
  assign cap_o = en && any;

  // ---- the captured values, from the selected slot ----------------------------------------
  // Formed only in a clock that captures (cap_o): they feed nothing else, and a run with the
  // D-EAR off skips them (docs/bench.md, "Only the slots that retire"). Each variable of the
  // blocks is written once per evaluation, in one branch or the other (Icarus 11 re-runs an
  // always_comb that reads back a variable it changed twice).
  logic [63:0] sel_ip, pmd2_cap, pmd3_cap, pmd17_cap;
  logic [15:0] sel_lat;
  logic [1:0]  sel_tlb, sel_s;

  // The selected slot's address and data address, formed only in a clock that captures
  // (from continuous assignments the Verilated model selected them in every clock).
  always_comb begin
    if (cap_o) begin
      sel_ip   = slot_ip_i[sel*64 +: 64];
      pmd2_cap = slot_daddr_i[sel*64 +: 64];
    end else begin
      {sel_ip, pmd2_cap} = '0;
    end
  end

  if (Ita) begin : g_cap_ita
    // PMD3 = {level, 0, lat[11:0]}: cache mode lat saturated, level 0; TLB mode level = tlb.
    // The latency is the writable low bits of Itanium's PMD3.
    localparam logic [15:0] LatMax = ITA_PMD3_WMASK_ITA[15:0] & ~16'(1 << ITA_F_PMD3_OV_LSB)
                                     & ~16'(((1 << ITA_F_PMD3_STAT_W) - 1) << ITA_F_PMD3_STAT_LSB);
    always_comb begin
      if (cap_o) begin
        sel_lat   = slot_lat_i[sel*16 +: 16];
        sel_tlb   = slot_tlb_i[sel*2 +: 2];
        sel_s     = slot_idx_i[sel*2 +: 2];
        pmd3_cap  = (mode == ModeTlb) ? ({62'd0, sel_tlb} << ITA_F_PMD3_ITA_LEVEL_LSB)
                                      : ({48'd0, (sel_lat > LatMax) ? LatMax : sel_lat}
                                         << ITA_F_PMD3_LAT_LSB);
        // PMD17 = {ip[63:4], slot, 0, vl = 1}
        pmd17_cap = (sel_ip & ~64'hf) | ({62'd0, sel_s} << ITA_F_PMD17_ITA_SLOT_LSB)
                  | (64'd1 << ITA_F_PMD17_ITA_VL_LSB);
      end else begin
        {sel_lat, sel_tlb, sel_s, pmd3_cap, pmd17_cap} = '0;
      end
    end
  end else begin : g_cap_ita2
    // PMD3 = {stat, ov, lat[12:0]}: cache mode stat 1 and the latency saturated; TLB mode
    // stat = tlb; ALAT mode stat 1.
    localparam logic [15:0] LatMax = 16'((1 << ITA_F_PMD3_LAT_W) - 1);
    logic [59:0] iaddr;
    logic        bn, lat_ov;
    logic [1:0]  stat;

    ita_window_addr u_window (
      .en_i     (cap_o),
      .ip_i     (sel_ip),
      .window_i (slot_ip_i[63:0]),
      .iaddr_o  (iaddr),
      .second_o (bn)
    );

    always_comb begin
      if (cap_o) begin
        sel_lat   = slot_lat_i[sel*16 +: 16];
        sel_tlb   = slot_tlb_i[sel*2 +: 2];
        sel_s     = slot_idx_i[sel*2 +: 2];
        lat_ov    = (sel_lat > LatMax);
        stat      = (mode == ModeTlb) ? sel_tlb : 2'd1;
        pmd3_cap  = ({62'd0, stat} << ITA_F_PMD3_STAT_LSB)
                  | ((mode == ModeCache) ? (({48'd0, lat_ov ? LatMax : sel_lat}
                                             << ITA_F_PMD3_LAT_LSB)
                                            | ({63'd0, lat_ov} << ITA_F_PMD3_OV_LSB))
                                         : 64'd0);
        // PMD17 = {iaddr, vl = 1, bn, slot}
        pmd17_cap = ({iaddr, 4'd0}) | (64'd1 << ITA_F_PMD17_VL_LSB)
                  | ({63'd0, bn} << ITA_F_PMD17_BN_LSB)
                  | ({62'd0, sel_s} << ITA_F_PMD17_SLOT_LSB);
      end else begin
        {sel_lat, sel_tlb, sel_s, lat_ov, stat, pmd3_cap, pmd17_cap} = '0;
      end
    end
  end

  ita_cap_reg #(
    .ResetValue (Ita ? ITA_PMD2_RESET_ITA : ITA_PMD2_RESET_ITA2),
    .WriteMask  (Ita ? ITA_PMD2_WMASK_ITA : ITA_PMD2_WMASK_ITA2)
  ) u_pmd2 (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .we_i       (pmd2_we_i),
    .wdata_i    (wdata_i),
    .cap_i      (cap_o),
    .cap_data_i (pmd2_cap),
    .q_o        (),
    .view_o     (pmd2_o)
  );

  ita_cap_reg #(
    .ResetValue (Ita ? ITA_PMD3_RESET_ITA : ITA_PMD3_RESET_ITA2),
    .WriteMask  (Ita ? ITA_PMD3_WMASK_ITA : ITA_PMD3_WMASK_ITA2)
  ) u_pmd3 (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .we_i       (pmd3_we_i),
    .wdata_i    (wdata_i),
    .cap_i      (cap_o),
    .cap_data_i (pmd3_cap),
    .q_o        (),
    .view_o     (pmd3_o)
  );

  ita_cap_reg #(
    .ResetValue (Ita ? ITA_PMD17_RESET_ITA : ITA_PMD17_RESET_ITA2),
    .WriteMask  (Ita ? ITA_PMD17_WMASK_ITA : ITA_PMD17_WMASK_ITA2)
  ) u_pmd17 (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .we_i       (pmd17_we_i),
    .wdata_i    (wdata_i),
    .cap_i      (cap_o),
    .cap_data_i (pmd17_cap),
    .q_o        (),
    .view_o     (pmd17_o)
  );

endmodule
