// A capture register (the EAR and BTB data registers, docs/ita-ear-btb.md): software writes it
// with its writable mask, (v & WriteMask) | (ResetValue & ~WriteMask), and the unit that owns
// it stores a captured value as is. A write and a capture in one clock: the write wins
// (docs/ita-semantics.md).
//
// q_o is the stored value, which the unit's own logic reads; view_o is the value with this
// clock's capture applied, which a register read shows (docs/ita-rtl.md, "The record in flight").
module ita_cap_reg #(
  parameter logic [63:0] ResetValue = 64'h0,
  parameter logic [63:0] WriteMask  = 64'h0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        we_i,        // software write
  input  logic [63:0] wdata_i,
  input  logic        cap_i,       // capture
  input  logic [63:0] cap_data_i,
  output logic [63:0] q_o,
  output logic [63:0] view_o
);

  logic [63:0] reg_q;

  // The flop is written only by a write or a capture: a clock with neither stores nothing
  // (the Verilated model then skips it; docs/bench.md).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg_q <= ResetValue;
    end else if (we_i) begin
      reg_q <= (wdata_i & WriteMask) | (ResetValue & ~WriteMask);
    end else if (cap_i) begin
      reg_q <= cap_data_i;
    end
  end

  assign q_o    = reg_q;
  assign view_o = cap_i ? cap_data_i : reg_q;

endmodule
