`include "ev4_defines.vh"

// The 21064 counter block's registers and register port (docs/ev4.md, "Registers" and
// "Interrupt requests"): ICCSR (the mux and period selects, and PME0/PME1 only with HasPme),
// HIER (the interrupt enables), HIRR (the sticky interrupt requests) and the write-only
// SL_CLR, plus the observation addresses CTR0 and CTR1 through which the checker sees the
// counters. Every position comes from build/gen/ev4/ev4_defs.vh.
//  - A write stores the field bits of the value in ICCSR or HIER; a 0 in SL_CLR's PC0 or PC1
//    clears that request; writes elsewhere (HIRR, CTR0, CTR1, unlisted) change nothing.
//  - A crossing of counter n (cross_i[n]) sets HIRR.PCn, whatever HIER says; a crossing
//    while it is set is lost (the request is one bit). In a clock that both clears and sets
//    a request (a write and a step together, which the harness never does) the set wins.
//  - The read port and obs_vis_o are combinational: a register reads its fields, SL_CLR and
//    unlisted addresses read 0.
//  - pmi_o = (HIRR.PC0 & HIER.PC0) | (HIRR.PC1 & HIER.PC1), from the registers.
module ev4_regs #(
  parameter bit HasPme    = 1'b1,
  parameter int Ctr0Width = 16,
  parameter int Ctr1Width = 12
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,
  input  logic                      we_i,
  input  logic [`EV4_ADDR_W-1:0]    addr_i,
  input  logic [63:0]               wdata_i,
  output logic [63:0]               rdata_o,      // read of addr_i
  input  logic [1:0]                cross_i,      // counter n crossed its period this clock
  input  logic [Ctr0Width-1:0]      ctr0_count_i,
  input  logic                      ctr0_half_i,
  input  logic [Ctr1Width-1:0]      ctr1_count_i,
  output logic [63:0]               iccsr_o,      // ICCSR as stored
  output logic                      pmi_o,
  output logic [`EV4_NVIS*64-1:0]   obs_vis_o     // visible register v at [v*64 +: 64]
);

  `include "ev4_defs.vh"

  // The bits each register holds: its fields (ICCSR without PME0/PME1 on a model without them).
  localparam logic [63:0] PmeBits   = EV4_F_ICCSR_PME0_MASK | EV4_F_ICCSR_PME1_MASK;
  localparam logic [63:0] IccsrBits = HasPme ? EV4_ICCSR_MASK : (EV4_ICCSR_MASK & ~PmeBits);
  localparam logic [63:0] HierBits  = EV4_HIER_MASK;
  localparam logic [63:0] HirrBits  = EV4_HIRR_MASK;

  // ---- write decode and next state ----------------------------------------------------------
  logic        iccsr_we, hier_we, sl_clr_we;
  logic [63:0] iccsr_q, iccsr_d, hier_q, hier_d, hirr_q, hirr_d;
  logic [63:0] hirr_set, hirr_clr;

  assign iccsr_we  = we_i && (addr_i == EV4_ADDR_ICCSR);
  assign hier_we   = we_i && (addr_i == EV4_ADDR_HIER);
  assign sl_clr_we = we_i && (addr_i == EV4_ADDR_SL_CLR);

  assign iccsr_d = iccsr_we ? (wdata_i & IccsrBits) : iccsr_q;
  assign hier_d  = hier_we ? (wdata_i & HierBits) : hier_q;

  assign hirr_set = (cross_i[0] ? EV4_F_HIRR_PC0_MASK : '0) | (cross_i[1] ? EV4_F_HIRR_PC1_MASK : '0);
  assign hirr_clr = (sl_clr_we && !wdata_i[EV4_F_SL_CLR_PC0_LSB] ? EV4_F_HIRR_PC0_MASK : '0)
                  | (sl_clr_we && !wdata_i[EV4_F_SL_CLR_PC1_LSB] ? EV4_F_HIRR_PC1_MASK : '0);
  assign hirr_d   = ((hirr_q & ~hirr_clr) | hirr_set) & HirrBits;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      iccsr_q <= EV4_ICCSR_RESET & IccsrBits;
      hier_q  <= EV4_HIER_RESET & HierBits;
      hirr_q  <= EV4_HIRR_RESET & HirrBits;
    end else begin
      iccsr_q <= iccsr_d;
      hier_q  <= hier_d;
      hirr_q  <= hirr_d;
    end
  end

  // ---- read port ---------------------------------------------------------------------------
  // The counters as the observation port shows them: COUNT at its field's LSB, HALF at its bit.
  logic [63:0] ctr0_rd, ctr1_rd;
  assign ctr0_rd = ({{(64 - Ctr0Width){1'b0}}, ctr0_count_i} << EV4_F_CTR0_COUNT_LSB)
                 | ({{63{1'b0}}, ctr0_half_i} << EV4_F_CTR0_HALF_LSB);
  assign ctr1_rd = {{(64 - Ctr1Width){1'b0}}, ctr1_count_i} << EV4_F_CTR1_COUNT_LSB;

  function automatic logic [63:0] read_at(input logic [`EV4_ADDR_W-1:0] a,
                                          input logic [63:0] iccsr, hirr, hier, ctr0, ctr1);
    case (a)
      EV4_ADDR_ICCSR: read_at = iccsr;
      EV4_ADDR_HIRR:  read_at = hirr;
      EV4_ADDR_HIER:  read_at = hier;
      EV4_ADDR_CTR0:  read_at = ctr0;
      EV4_ADDR_CTR1:  read_at = ctr1;
      default:        read_at = '0;  // SL_CLR (write-only) and unlisted addresses
    endcase
  endfunction

  assign rdata_o = read_at(addr_i, iccsr_q, hirr_q, hier_q, ctr0_rd, ctr1_rd);

  for (genvar v = 0; v < `EV4_NVIS; v++) begin : g_vis
    assign obs_vis_o[v*64 +: 64] = read_at(EV4_VIS_ADDR[v*`EV4_ADDR_W +: `EV4_ADDR_W],
                                           iccsr_q, hirr_q, hier_q, ctr0_rd, ctr1_rd);
  end

  // ---- interrupt line ------------------------------------------------------------------------
  assign pmi_o = (hirr_q[EV4_F_HIRR_PC0_LSB] && hier_q[EV4_F_HIER_PC0_LSB])
              || (hirr_q[EV4_F_HIRR_PC1_LSB] && hier_q[EV4_F_HIER_PC1_LSB]);

  assign iccsr_o = iccsr_q;

endmodule
