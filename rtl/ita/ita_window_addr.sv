// The instruction address the D-EAR (PMD17) and the BTB (branch records) record, relative to
// the cycle's dispersal window, the bundle of slot 0 (docs/ita-ear-btb.md): an instruction in the
// window's second bundle (ip = window + 16) is recorded as the window with second = 1; any
// other as its own bundle (ip[63:4]) with second = 0.
// Formed only when en_i (the unit captures in this clock); otherwise both outputs are 0, and
// the Verilated model skips the compare in a clock without a capture (docs/bench-history.md,
// "Eighteenth round").
module ita_window_addr (
  input  logic        en_i,       // the unit captures in this clock
  input  logic [63:0] ip_i,       // the instruction's bundle address
  input  logic [63:0] window_i,   // slot 0's bundle address
  output logic [59:0] iaddr_o,    // bits 63:4 of the recorded bundle address
  output logic        second_o
);

  always_comb begin
    if (en_i) begin
      second_o = (ip_i == window_i + 64'd16);
      // Bits 63:4, by a shift (Icarus 11 does not support constant selects in always_*
      // processes).
      iaddr_o  = 60'((second_o ? window_i : ip_i) >> 4);
    end else begin
      second_o = 1'b0;
      iaddr_o  = '0;
    end
  end

endmodule
