// A configuration register with a writable mask: the generic counter configurations PMC4..7
// and the qualification registers PMC8/9/11/13/14/15, IBR0..7, DBR0..7. A write stores
// (v & WriteMask) | (ResetValue & ~WriteMask): bits outside the writable mask keep their reset
// value, which is how Itanium's 7-bit event select and 2-bit PMC6/7 threshold appear, and why
// Itanium's PMC14/15 (writable mask 0) read 0.
module ita_pmc_gen #(
  parameter logic [63:0] ResetValue = 64'h0,
  parameter logic [63:0] WriteMask  = 64'h0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        wr_i,     // the register port writes in this clock
  input  logic        sel_i,    // ... and this register
  input  logic [63:0] wdata_i,
  output logic [63:0] q_o
);

  logic [63:0] pmc_q;

  // The stored value changes only with a write: the next value is formed under the write
  // enable, so a simulator computes it only in a clock that writes. The port's write strobe
  // is tested before the register's select: every configuration register has the same outer
  // test, which Verilator merges into one for all of them, so a clock without a write skips
  // them all with one branch (docs/bench.md).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pmc_q <= ResetValue;
    end else if (wr_i) begin
      if (sel_i) begin
        pmc_q <= (wdata_i & WriteMask) | (ResetValue & ~WriteMask);
      end
    end
  end

  assign q_o = pmc_q;

endmodule
