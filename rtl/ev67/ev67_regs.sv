`include "ev67_defines.vh"

// The counter block's registers and register port (docs/ev67.md, "Registers", "write",
// "read"): I_CTL, IER_CM, PCTX and PCTR_CTL's selects as written; PMPC, I_STAT and
// PCTR_CTL's ProfileMe flags as a window's end captures them; the write decode the other
// modules act on; the combinational read port and the visible state.
//  - A write stores the value's RW field bits (EV67_<reg>_WMASK); PCTX at 0x40..0x5f stores
//    PPCE only when address bit EV67_PCTX_SEL_PPCE is 1; read-only, observation and
//    unlisted addresses ignore writes.
//  - A PCTR_CTL read shows, with ReadQuirk, a disabled counter n as count + QINCn (mod 2^20);
//    SEXT copies the shown PCTR0's top bit. HW_INT_CLR and unlisted addresses read 0.
//  - en_o[n] = PCTn_EN & (SPCE | PPCE), from the registers as stored.
module ev67_regs #(
  parameter bit ReadQuirk = 1'b1
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     we_i,
  input  logic [`EV67_ADDR_W-1:0]  addr_i,
  input  logic [63:0]              wdata_i,
  output logic [63:0]              rdata_o,
  // write decode
  output logic                     pctr_we_o,    // PCTR_CTL
  output logic                     clr_we_o,     // HW_INT_CLR
  output logic [1:0]               clr_pc_o,
  output logic [`EV67_CTR_W-1:0]   wr_pctr0_o,   // the PCTR_CTL value's counters
  output logic [`EV67_CTR_W-1:0]   wr_pctr1_o,
  // controls
  output logic [1:0]               en_o,
  output logic                     sl0_o,
  output logic [1:0]               sl1_o,
  output logic [1:0]               pcen_o,
  // a window's end captures PMPC, I_STAT and the flags from the machine's next OBS_PM
  input  logic                     win_end_i,
  input  logic [63:0]              pm_d_i,
  input  logic [63:0]              pmpc_i,
  // state shown by the read port
  input  logic [`EV67_CTR_W-1:0]   ctr0_i,
  input  logic [`EV67_CTR_W-1:0]   ctr1_i,
  input  logic [2:0]               qinc0_i,
  input  logic                     qinc1_i,
  input  logic [1:0]               isum_i,
  input  logic [63:0]              obs_int_i,
  input  logic [63:0]              obs_agg_i,
  input  logic [63:0]              obs_pm_i,
  output logic [`EV67_NVIS*64-1:0] obs_vis_o     // visible register v at [v*64 +: 64]
);

  `include "ev67_defs.vh"

  localparam int AW = `EV67_ADDR_W;
  localparam int CW = `EV67_CTR_W;
  // PCTR_CTL's ProfileMe flags and I_STAT's fields, as a window's end writes them.
  localparam logic [63:0] PmFlags = EV67_F_PCTR_CTL_TAK_MASK | EV67_F_PCTR_CTL_VAL_MASK
                                  | EV67_F_PCTR_CTL_PM_STALLED_MASK | EV67_F_PCTR_CTL_PM_KILLED_BM_MASK;
  localparam logic [63:0] SelBits = EV67_F_PCTR_CTL_SL0_MASK | EV67_F_PCTR_CTL_SL1_MASK;

  // Port address a reaches the register at base with a span of 2^k addresses (span - 1 is
  // the mask of its index bits).
  function automatic logic at(input logic [AW-1:0] a, input logic [AW-1:0] base, input logic [AW-1:0] span);
    at = (a & ~(span - AW'(1))) == base;
  endfunction

  // ---- write decode and next state ------------------------------------------------------------
  logic        ictl_we, ier_we, pctx_we;
  logic [63:0] ictl_q, ictl_d, ier_q, ier_d, pctx_q, pctx_d, sel_q, sel_d;
  logic [63:0] pmpc_q, pmpc_d, istat_q, istat_d, flags_q, flags_d;

  assign pctr_we_o = we_i && at(addr_i, EV67_ADDR_PCTR_CTL, AW'(EV67_PCTR_CTL_SPAN));
  assign clr_we_o  = we_i && at(addr_i, EV67_ADDR_HW_INT_CLR, AW'(EV67_HW_INT_CLR_SPAN));
  assign ictl_we   = we_i && at(addr_i, EV67_ADDR_I_CTL, AW'(EV67_I_CTL_SPAN));
  assign ier_we    = we_i && at(addr_i, EV67_ADDR_IER_CM, AW'(EV67_IER_CM_SPAN));
  assign pctx_we   = we_i && at(addr_i, EV67_ADDR_PCTX, AW'(EV67_PCTX_SPAN)) && addr_i[EV67_PCTX_SEL_PPCE];

  assign clr_pc_o   = wdata_i[EV67_F_HW_INT_CLR_PC_MSB:EV67_F_HW_INT_CLR_PC_LSB];
  assign wr_pctr0_o = wdata_i[EV67_F_PCTR_CTL_PCTR0_MSB:EV67_F_PCTR_CTL_PCTR0_LSB];
  assign wr_pctr1_o = wdata_i[EV67_F_PCTR_CTL_PCTR1_MSB:EV67_F_PCTR_CTL_PCTR1_LSB];

  assign ictl_d = ictl_we ? (wdata_i & EV67_I_CTL_WMASK) : ictl_q;
  assign ier_d  = ier_we ? (wdata_i & EV67_IER_CM_WMASK) : ier_q;
  assign pctx_d = pctx_we ? (wdata_i & EV67_F_PCTX_PPCE_MASK) : pctx_q;
  assign sel_d  = pctr_we_o ? (wdata_i & SelBits) : sel_q;

  // The captured I_STAT: OBS_PM's OVR, ICM, TRAP_TYPE, LSO, TRP, MIS at their I_STAT places.
  function automatic logic [63:0] istat_of(input logic [63:0] pm);
    istat_of = (64'(pm[EV67_F_OBS_PM_OVR_MSB:EV67_F_OBS_PM_OVR_LSB]) << EV67_F_I_STAT_OVR_LSB)
             | (64'(pm[EV67_F_OBS_PM_ICM_LSB]) << EV67_F_I_STAT_ICM_LSB)
             | (64'(pm[EV67_F_OBS_PM_TRAP_TYPE_MSB:EV67_F_OBS_PM_TRAP_TYPE_LSB]) << EV67_F_I_STAT_TRAP_TYPE_LSB)
             | (64'(pm[EV67_F_OBS_PM_LSO_LSB]) << EV67_F_I_STAT_LSO_LSB)
             | (64'(pm[EV67_F_OBS_PM_TRP_LSB]) << EV67_F_I_STAT_TRP_LSB)
             | (64'(pm[EV67_F_OBS_PM_MIS_LSB]) << EV67_F_I_STAT_MIS_LSB);
  endfunction
  function automatic logic [63:0] flags_of(input logic [63:0] pm);
    flags_of = (64'(pm[EV67_F_OBS_PM_TAK_LSB]) << EV67_F_PCTR_CTL_TAK_LSB)
             | (64'(pm[EV67_F_OBS_PM_VAL_LSB]) << EV67_F_PCTR_CTL_VAL_LSB)
             | (64'(pm[EV67_F_OBS_PM_STALLED_LSB]) << EV67_F_PCTR_CTL_PM_STALLED_LSB)
             | (64'(pm[EV67_F_OBS_PM_KBM_LSB]) << EV67_F_PCTR_CTL_PM_KILLED_BM_LSB);
  endfunction

  // OBS_PMPC and PMPC have their PC and PAL fields at the same places (tools/ev67/gen_ev67.c
  // checks it).
  assign pmpc_d  = win_end_i ? (pmpc_i & EV67_PMPC_MASK) : pmpc_q;
  assign istat_d = win_end_i ? istat_of(pm_d_i) : istat_q;
  assign flags_d = win_end_i ? flags_of(pm_d_i) : flags_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ictl_q  <= EV67_I_CTL_RESET & EV67_I_CTL_WMASK;
      ier_q   <= EV67_IER_CM_RESET & EV67_IER_CM_WMASK;
      pctx_q  <= EV67_PCTX_RESET & EV67_PCTX_WMASK;
      sel_q   <= EV67_PCTR_CTL_RESET & SelBits;
      pmpc_q  <= EV67_PMPC_RESET;
      istat_q <= EV67_I_STAT_RESET;
      flags_q <= EV67_PCTR_CTL_RESET & PmFlags;
    end else begin
      ictl_q  <= ictl_d;
      ier_q   <= ier_d;
      pctx_q  <= pctx_d;
      sel_q   <= sel_d;
      pmpc_q  <= pmpc_d;
      istat_q <= istat_d;
      flags_q <= flags_d;
    end
  end

  // ---- controls ---------------------------------------------------------------------------------
  logic spce, ppce;
  assign spce    = ictl_q[EV67_F_I_CTL_SPCE_LSB];
  assign ppce    = pctx_q[EV67_F_PCTX_PPCE_LSB];
  assign en_o[0] = ictl_q[EV67_F_I_CTL_PCT0_EN_LSB] && (spce || ppce);
  assign en_o[1] = ictl_q[EV67_F_I_CTL_PCT1_EN_LSB] && (spce || ppce);
  assign sl0_o   = sel_q[EV67_F_PCTR_CTL_SL0_LSB];
  assign sl1_o   = sel_q[EV67_F_PCTR_CTL_SL1_MSB:EV67_F_PCTR_CTL_SL1_LSB];
  assign pcen_o  = ier_q[EV67_F_IER_CM_PCEN_MSB:EV67_F_IER_CM_PCEN_LSB];

  // ---- read port ---------------------------------------------------------------------------------
  logic [CW-1:0] shown0, shown1;
  logic [63:0]   pctr_rd, isum_rd, ctr_rd;

  assign shown0  = (ReadQuirk && !en_o[0]) ? ctr0_i + CW'(qinc0_i) : ctr0_i;
  assign shown1  = (ReadQuirk && !en_o[1]) ? ctr1_i + CW'(qinc1_i) : ctr1_i;
  assign pctr_rd = sel_q | flags_q
                 | (64'(shown0) << EV67_F_PCTR_CTL_PCTR0_LSB)
                 | (64'(shown1) << EV67_F_PCTR_CTL_PCTR1_LSB)
                 | (shown0[CW-1] ? EV67_F_PCTR_CTL_SEXT_MASK : 64'd0);
  assign isum_rd = 64'(isum_i) << EV67_F_ISUM_PC_LSB;
  assign ctr_rd  = (64'(ctr0_i) << EV67_F_OBS_CTR_PCTR0_LSB) | (64'(ctr1_i) << EV67_F_OBS_CTR_PCTR1_LSB);

  function automatic logic [63:0] read_at(input logic [AW-1:0] a, input logic [63:0] pmpc, ier, isum, ictl,
                                          pctr, istat, pctx, ctr, oint, oagg, opm, opmpc);
    if (at(a, EV67_ADDR_PMPC, AW'(EV67_PMPC_SPAN)))             read_at = pmpc;
    else if (at(a, EV67_ADDR_IER_CM, AW'(EV67_IER_CM_SPAN)))    read_at = ier;
    else if (at(a, EV67_ADDR_ISUM, AW'(EV67_ISUM_SPAN)))        read_at = isum;
    else if (at(a, EV67_ADDR_I_CTL, AW'(EV67_I_CTL_SPAN)))      read_at = ictl;
    else if (at(a, EV67_ADDR_PCTR_CTL, AW'(EV67_PCTR_CTL_SPAN))) read_at = pctr;
    else if (at(a, EV67_ADDR_I_STAT, AW'(EV67_I_STAT_SPAN)))    read_at = istat;
    else if (at(a, EV67_ADDR_PCTX, AW'(EV67_PCTX_SPAN)))        read_at = pctx;
    else if (at(a, EV67_ADDR_OBS_CTR, AW'(EV67_OBS_CTR_SPAN)))  read_at = ctr;
    else if (at(a, EV67_ADDR_OBS_INT, AW'(EV67_OBS_INT_SPAN)))  read_at = oint;
    else if (at(a, EV67_ADDR_OBS_AGG, AW'(EV67_OBS_AGG_SPAN)))  read_at = oagg;
    else if (at(a, EV67_ADDR_OBS_PM, AW'(EV67_OBS_PM_SPAN)))    read_at = opm;
    else if (at(a, EV67_ADDR_OBS_PMPC, AW'(EV67_OBS_PMPC_SPAN))) read_at = opmpc;
    else                                                    read_at = 64'd0;  // HW_INT_CLR, unlisted
  endfunction

  // Every register is an argument, so that the reads follow it in every simulator.
  assign rdata_o = read_at(addr_i, pmpc_q, ier_q, isum_rd, ictl_q, pctr_rd, istat_q, pctx_q, ctr_rd, obs_int_i,
                           obs_agg_i, obs_pm_i, pmpc_i);
  for (genvar v = 0; v < `EV67_NVIS; v++) begin : g_vis
    assign obs_vis_o[v*64 +: 64] = read_at(EV67_VIS_ADDR[v*AW +: AW], pmpc_q, ier_q, isum_rd, ictl_q, pctr_rd,
                                           istat_q, pctx_q, ctr_rd, obs_int_i, obs_agg_i, obs_pm_i, pmpc_i);
  end

endmodule
