// A capture register (the EAR and BTB data registers, docs/ear-btb.md): software writes it
// with its writable mask, (v & WriteMask) | (ResetValue & ~WriteMask), and the unit that owns
// it stores a captured value as is. A write and a capture in one clock: the write wins
// (docs/semantics.md).
module pmu_cap_reg #(
  parameter logic [63:0] ResetValue = 64'h0,
  parameter logic [63:0] WriteMask  = 64'h0
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        we_i,        // software write
  input  logic [63:0] wdata_i,
  input  logic        cap_i,       // capture
  input  logic [63:0] cap_data_i,
  output logic [63:0] q_o
);

  logic [63:0] reg_q, reg_d;

  always_comb begin
    reg_d = reg_q;
    if (we_i) begin
      reg_d = (wdata_i & WriteMask) | (ResetValue & ~WriteMask);
    end else if (cap_i) begin
      reg_d = cap_data_i;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg_q <= ResetValue;
    end else begin
      reg_q <= reg_d;
    end
  end

  assign q_o = reg_q;

endmodule
