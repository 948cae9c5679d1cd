// The overflow-control register (the Itanium's PMC0): the freeze bit fr and the sticky overflow
// bits ovf[i] of the generic counters, and the performance-monitor interrupt. The family gives
// the register's layout as parameters (fr at bit FrBit, counter k's ovf bit at OvfLsb + k).
//  - A counter carry sets its ovf bit; hardware never clears it.
//  - A carry of a counter whose PMC has oi = 1 sets fr, and raises the interrupt only when that
//    counter's ovf bit was 0 before the clock (edge-triggered on the 0->1 of the sticky bit).
//  - A software write stores (v & WriteMask) | (ResetValue & ~WriteMask): it may set or clear
//    fr and the ovf bits and never raises the interrupt.
// pmc0_o and pmi_o show this clock's step applied: the register as a read returns it, and
// the interrupt line as a one-clock pulse while the record that raised it is in flight
// (docs/ita-rtl.md, "The record in flight"); fr_o is the stored freeze that record counts under.
module ita_ovf_ctrl #(
  parameter logic [63:0] ResetValue = 64'h1,
  parameter logic [63:0] WriteMask  = 64'h0,
  parameter int          NCounters  = 4,
  parameter int          FrBit      = 0,  // position of fr
  parameter int          OvfLsb     = 4   // position of counter 0's overflow bit
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 we_i,      // register-port write of the register
  input  logic [63:0]          wdata_i,
  input  logic [NCounters-1:0] carry_i,   // counter k wrapped in this clock
  input  logic [NCounters-1:0] oi_i,      // counter k's overflow interrupt enable
  output logic [63:0]          pmc0_o,    // with this clock's carries (the register read value)
  output logic                 fr_o,      // freeze, as stored (takes effect from the next step)
  output logic                 pmi_o
);

  logic [63:0]          pmc0_q, pmc0_step;
  logic [NCounters-1:0] ovf_q, raise;

  assign ovf_q = pmc0_q[OvfLsb +: NCounters];
  assign raise = carry_i & oi_i;

  // A carry sets its sticky bit; an oi carry also sets fr. Everything else is kept.
  assign pmc0_step = pmc0_q
                   | ({{(64 - NCounters){1'b0}}, carry_i} << OvfLsb)
                   | ({{63{1'b0}}, |raise} << FrBit);

  // The write wins over a carry of the same clock (the harness never does both). The flop is
  // written in the always_ff itself, not through a combinational next value, which the
  // Verilated model would evaluate whenever the port's inputs change (docs/bench.md).
  // Only an oi carry whose sticky bit was clear interrupts; a second carry before software
  // clears the bit freezes again but stays silent.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pmc0_q <= ResetValue;
    end else if (we_i) begin
      pmc0_q <= (wdata_i & WriteMask) | (ResetValue & ~WriteMask);
    end else begin
      pmc0_q <= pmc0_step;
    end
  end

  assign pmc0_o = pmc0_step;
  assign fr_o   = pmc0_q[FrBit];
  assign pmi_o  = |(raise & ~ovf_q);

endmodule
