// The instruction event address register (docs/ita-ear-btb.md, "I-EAR"): PMC10 configures it,
// PMD0 / PMD1 hold the last capture. In a clock in which it may capture (ita_unit_en on
// PMC10's plm / pm / ism) and the fetch passes L1I_EAR_EVENTS' qualification (qual_i), the
// fetch of the cycle record is captured when it satisfies PMC10's mode and umask. cap_o says
// so in the same clock (the counter event L1I_EAR_EVENTS / INSTRUCTION_EAR_EVENTS).
module ita_iear #(
  parameter int Model = 1   // 0 = Itanium, 1 = Itanium 2
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic [63:0] pmc10_i,    // PMC10 stored value
  input  logic        step_i,
  input  logic        fr_i,
  input  logic [1:0]  cpl_i,
  input  logic        is_i,
  input  logic        psr_up_i,
  input  logic        psr_pp_i,
  input  logic        qual_i,     // the fetch passes the event qualification
  input  logic [63:0] if_addr_i,
  input  logic [15:0] if_lat_i,
  input  logic [1:0]  if_tlb_i,   // enum ita_tlb
  input  logic        if_rab_i,
  input  logic        pmd0_we_i,  // software writes
  input  logic        pmd1_we_i,
  input  logic [63:0] wdata_i,
  output logic [63:0] pmd0_o,
  output logic [63:0] pmd1_o,
  output logic        en_o,       // it may capture in this clock: qual_i matters only then
  output logic        cap_o
);

  `include "ita_defs.vh"

  localparam bit Ita = (Model == 0);

  // PMD1.lat holds 12 bits; a longer latency saturates (Itanium 2: and sets ov).
  localparam int          LatW   = ITA_F_PMD1_LAT_W;
  localparam logic [15:0] LatMax = 16'((1 << LatW) - 1);

  // enum ita_tlb of include/common/ita/ita_cycle.h
  localparam logic [1:0] TlbL1 = 2'd0;

  logic        en, hit, tlb_mode;
  logic [3:0]  plm;
  logic        pm;
  logic [1:0]  ism;
  logic        lat_ov;
  logic [63:0] pmd0_cap, pmd1_cap, line;

  // The captured values are formed only in a clock that captures (cap_o): they feed nothing
  // else, and a run with the I-EAR off skips them (docs/bench.md, "Only the slots that
  // retire"). Each variable of those blocks is written once per evaluation, in one branch or
  // the other (Icarus 11 re-runs an always_comb that reads back a variable it changed twice).
  assign line = if_addr_i & ~((64'd1 << ITA_F_PMD0_ADDR_LSB) - 64'd1);

  if (Ita) begin : g_ita
    // ---- Itanium: PMC10.tlb selects the mode; umask is a threshold or TLB outcomes --------
    logic [3:0] umask;
    logic       cache_hit;

    assign plm      = pmc10_i[ITA_F_PMC10_ITA_PLM_MSB:ITA_F_PMC10_ITA_PLM_LSB];
    assign pm       = pmc10_i[ITA_F_PMC10_ITA_PM_LSB];
    assign ism      = pmc10_i[ITA_F_PMC10_ITA_ISM_MSB:ITA_F_PMC10_ITA_ISM_LSB];
    assign tlb_mode = pmc10_i[ITA_F_PMC10_ITA_TLB_LSB];
    assign umask    = pmc10_i[ITA_F_PMC10_ITA_UMASK_MSB:ITA_F_PMC10_ITA_UMASK_LSB];

    // umask 0..0xa: lat >= 4 << umask; 0xf (LAT_NONE): every miss; others: nothing. (Only a
    // clock in which the unit may capture needs it.)
    always_comb begin
      if (!en) begin
        cache_hit = 1'b0;
      end else if (umask <= 4'ha) begin
        cache_hit = ({16'd0, if_lat_i} >= (32'd4 << umask));
      end else if (umask == 4'hf) begin
        cache_hit = (if_lat_i != 16'd0);
      end else begin
        cache_hit = 1'b0;
      end
    end

    always_comb begin
      if (en) begin
        hit = tlb_mode ? (if_tlb_i != TlbL1 && umask[if_tlb_i]) : cache_hit;
      end else begin
        hit = 1'b0;
      end
    end
    always_comb begin
      if (cap_o) begin
        lat_ov   = (if_lat_i > LatMax);
        pmd0_cap = line | (64'd1 << ITA_F_PMD0_ITA_V_LSB)
                 | ({63'd0, tlb_mode} << ITA_F_PMD0_ITA_TLB_LSB);
        pmd1_cap = tlb_mode ? 64'd0
                 : ({48'd0, lat_ov ? LatMax : if_lat_i} << ITA_F_PMD1_LAT_LSB);
      end else begin
        {lat_ov, pmd0_cap, pmd1_cap} = '0;
      end
    end
  end else begin : g_ita2
    // ---- Itanium 2: PMC10.ct selects the mode (1x cache, 00 TLB, 01 nothing) ---------------
    logic [ITA_F_PMC10_UMASK_W-1:0] umask;
    logic [ITA_F_PMC10_CT_W-1:0]    ct;
    logic [2:0]                     bin;
    logic                           cache_mode, cache_hit;
    logic [1:0]                     stat;

    assign plm   = pmc10_i[ITA_F_PMC10_PLM_MSB:ITA_F_PMC10_PLM_LSB];
    assign pm    = pmc10_i[ITA_F_PMC10_PM_LSB];
    assign ism   = pmc10_i[ITA_F_PMC10_ISM_MSB:ITA_F_PMC10_ISM_LSB];
    assign ct    = pmc10_i[ITA_F_PMC10_CT_MSB:ITA_F_PMC10_CT_LSB];
    assign umask = pmc10_i[ITA_F_PMC10_UMASK_MSB:ITA_F_PMC10_UMASK_LSB];

    // (Bits read by the gated block below are wires: Icarus 11 does not support constant
    // selects in always_* processes.)
    logic bin_mode;
    assign bin_mode   = umask[7];
    assign cache_mode = ct[1];
    assign tlb_mode   = (ct == 2'b00);

    // Latency bins 0 [4,8), 1 [8,16), 2 [16,32), 3 [32,128), 4 [128,256), 5 [256,1024),
    // 6 [1024,4096), 7 [4096,inf). (Only a clock in which the unit may capture needs one.)
    always_comb begin
      if      (!en)                  bin = 3'd0;
      else if (if_lat_i >= 16'd4096) bin = 3'd7;
      else if (if_lat_i >= 16'd1024) bin = 3'd6;
      else if (if_lat_i >= 16'd256)  bin = 3'd5;
      else if (if_lat_i >= 16'd128)  bin = 3'd4;
      else if (if_lat_i >= 16'd32)   bin = 3'd3;
      else if (if_lat_i >= 16'd16)   bin = 3'd2;
      else if (if_lat_i >= 16'd8)    bin = 3'd1;
      else                           bin = 3'd0;
    end

    // umask bit 7 (bin_mode): the latency's bin bit; 0x40: every L1I miss; 0x00: a RAB hit.
    // TLB mode: umask bits 6:0 (PMC10 11:5), bit if_tlb - 1.
    // Formed only in a clock in which the unit may capture: from continuous assignments the
    // Verilated model formed them in every clock (docs/bench-history.md, "Eighteenth round").
    always_comb begin
      if (en) begin
        cache_hit = bin_mode           ? ((if_lat_i >= 16'd4) && umask[bin])
                  : (umask == 8'h40)   ? (if_lat_i != 16'd0)
                  : (umask == 8'h00)   ? if_rab_i
                  : 1'b0;
        hit       = cache_mode ? cache_hit
                  : tlb_mode && (if_tlb_i != TlbL1) && umask[{1'b0, if_tlb_i - 2'd1}];
      end else begin
        cache_hit = 1'b0;
        hit       = 1'b0;
      end
    end

    // stat: cache mode 1 a miss, 3 a RAB hit; TLB mode if_tlb.
    assign stat = tlb_mode ? if_tlb_i : (if_rab_i ? 2'd3 : 2'd1);

    always_comb begin
      if (cap_o) begin
        lat_ov   = (if_lat_i > LatMax);
        pmd0_cap = line | ({62'd0, stat} << ITA_F_PMD0_STAT_LSB);
        pmd1_cap = tlb_mode ? 64'd0
                 : (({48'd0, lat_ov ? LatMax : if_lat_i} << ITA_F_PMD1_LAT_LSB)
                   | ({63'd0, lat_ov} << ITA_F_PMD1_OV_LSB));
      end else begin
        {lat_ov, pmd0_cap, pmd1_cap} = '0;
      end
    end
  end

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
  assign cap_o = en && qual_i && hit;

  ita_cap_reg #(
    .ResetValue (Ita ? ITA_PMD0_RESET_ITA : ITA_PMD0_RESET_ITA2),
    .WriteMask  (Ita ? ITA_PMD0_WMASK_ITA : ITA_PMD0_WMASK_ITA2)
  ) u_pmd0 (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .we_i       (pmd0_we_i),
    .wdata_i    (wdata_i),
    .cap_i      (cap_o),
    .cap_data_i (pmd0_cap),
    .q_o        (),
    .view_o     (pmd0_o)
  );

  ita_cap_reg #(
    .ResetValue (Ita ? ITA_PMD1_RESET_ITA : ITA_PMD1_RESET_ITA2),
    .WriteMask  (Ita ? ITA_PMD1_WMASK_ITA : ITA_PMD1_WMASK_ITA2)
  ) u_pmd1 (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .we_i       (pmd1_we_i),
    .wdata_i    (wdata_i),
    .cap_i      (cap_o),
    .cap_data_i (pmd1_cap),
    .q_o        (),
    .view_o     (pmd1_o)
  );

endmodule
