// The instruction address the D-EAR (PMD17) and the BTB (branch records) record, relative to
// the cycle's dispersal window, the bundle of slot 0 (docs/ita-ear-btb.md): an instruction in the
// window's second bundle (ip = window + 16) is recorded as the window with second = 1; any
// other as its own bundle (ip[63:4]) with second = 0.
module ita_window_addr (
  input  logic [63:0] ip_i,       // the instruction's bundle address
  input  logic [63:0] window_i,   // slot 0's bundle address
  output logic [59:0] iaddr_o,    // bits 63:4 of the recorded bundle address
  output logic        second_o
);

  assign second_o = (ip_i == window_i + 64'd16);
  assign iaddr_o  = second_o ? window_i[63:4] : ip_i[63:4];

endmodule
