// The CPU state the PMU observes: PSR.up/pp, IPSR.up/pp and DCR.pp, and the effective PSR of
// the current cycle record (ita-semantics.md, "A step clock", step 1):
//   1. intr ENTRY:  IPSR.{up,pp} <- PSR.{up,pp}; PSR.pp <- DCR.pp
//   2. intr RETURN: PSR.{up,pp} <- IPSR.{up,pp}
//   3. then up_we / pp_we write PSR.up / PSR.pp.
// The effective PSR qualifies counting in the same cycle and becomes the stored PSR after a step.
// A register write of PSR/IPSR/DCR beats the step update of that register.
module ita_cpu_state #(
  parameter logic [63:0] PsrReset  = 64'h0,
  parameter logic [63:0] PsrWmask  = 64'h0,
  parameter logic [63:0] IpsrReset = 64'h0,
  parameter logic [63:0] IpsrWmask = 64'h0,
  parameter logic [63:0] DcrReset  = 64'h0,
  parameter logic [63:0] DcrWmask  = 64'h0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  // register port
  input  logic        psr_we_i,
  input  logic        ipsr_we_i,
  input  logic        dcr_we_i,
  input  logic [63:0] wdata_i,
  // cycle record
  input  logic        step_i,     // a cycle record is consumed at this clock
  input  logic [1:0]  intr_i,     // 0 none, 1 entry, 2 return (include/common/ita/ita_cycle.h)
  input  logic        up_we_i,
  input  logic        up_i,
  input  logic        pp_we_i,
  input  logic        pp_i,
  // effective PSR of this cycle (used for counting whenever step_i is 1)
  output logic        eff_up_o,
  output logic        eff_pp_o,
  // stored values (the register read values)
  output logic [63:0] psr_o,
  output logic [63:0] ipsr_o,
  output logic [63:0] dcr_o
);

  `include "ita_defs.vh"

  // enum ita_intr of include/common/ita/ita_cycle.h
  localparam logic [1:0] IntrEntry  = 2'd1;
  localparam logic [1:0] IntrReturn = 2'd2;

  logic [63:0] psr_q, psr_eff, psr_view;
  logic [63:0] ipsr_q, ipsr_eff, ipsr_view;
  logic [63:0] dcr_q;
  logic        psr_up, psr_pp, ipsr_up, ipsr_pp, dcr_pp;
  logic        eff_up, eff_pp, eff_ipsr_up, eff_ipsr_pp;

  // A PSR-format value with its up and pp bits replaced.
  function automatic logic [63:0] with_up_pp(input logic [63:0] psr, input logic up, input logic pp);
    logic [63:0] v;
    v = psr;
    v[ITA_F_PSR_UP_LSB] = up;
    v[ITA_F_PSR_PP_LSB] = pp;
    with_up_pp = v;
  endfunction

  assign psr_up  = psr_q[ITA_F_PSR_UP_LSB];
  assign psr_pp  = psr_q[ITA_F_PSR_PP_LSB];
  assign ipsr_up = ipsr_q[ITA_F_PSR_UP_LSB];
  assign ipsr_pp = ipsr_q[ITA_F_PSR_PP_LSB];
  assign dcr_pp  = dcr_q[ITA_F_DCR_PP_LSB];

  always_comb begin
    eff_up      = psr_up;
    eff_pp      = psr_pp;
    eff_ipsr_up = ipsr_up;
    eff_ipsr_pp = ipsr_pp;
    case (intr_i)
      IntrEntry: begin
        eff_ipsr_up = psr_up;
        eff_ipsr_pp = psr_pp;
        eff_pp      = dcr_pp;
      end
      IntrReturn: begin
        eff_up = ipsr_up;
        eff_pp = ipsr_pp;
      end
      default: begin
        // no interruption activity (the value 3 is not produced by the stream reader)
      end
    endcase
    if (up_we_i) begin
      eff_up = up_i;
    end
    if (pp_we_i) begin
      eff_pp = pp_i;
    end
  end

  assign psr_eff  = with_up_pp(psr_q, eff_up, eff_pp);
  assign ipsr_eff = with_up_pp(ipsr_q, eff_ipsr_up, eff_ipsr_pp);

  // The registers with this clock's step applied: what a read shows while the record is in
  // flight (docs/ita-rtl.md, "The record in flight"); a write of the same clock comes after it.
  assign psr_view  = step_i ? psr_eff : psr_q;
  assign ipsr_view = step_i ? ipsr_eff : ipsr_q;

  // A write stores the written value, else a step its effect; the flops are written in the
  // always_ff itself, not through combinational next values, which the Verilated model would
  // evaluate whenever the port's inputs change (docs/bench.md).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      psr_q  <= PsrReset;
      ipsr_q <= IpsrReset;
      dcr_q  <= DcrReset;
    end else begin
      if (psr_we_i) begin
        psr_q <= (wdata_i & PsrWmask) | (PsrReset & ~PsrWmask);
      end else if (step_i) begin
        psr_q <= psr_eff;
      end
      if (ipsr_we_i) begin
        ipsr_q <= (wdata_i & IpsrWmask) | (IpsrReset & ~IpsrWmask);
      end else if (step_i) begin
        ipsr_q <= ipsr_eff;
      end
      if (dcr_we_i) begin
        dcr_q <= (wdata_i & DcrWmask) | (DcrReset & ~DcrWmask);
      end
    end
  end

  assign eff_up_o = eff_up;
  assign eff_pp_o = eff_pp;
  assign psr_o    = psr_view;
  assign ipsr_o   = ipsr_view;
  assign dcr_o    = dcr_q;

endmodule
