// The first (oldest) set bit of a per-slot hit vector (combinational): the D-EAR and the BTB
// capture at most one slot per cycle, the first in slot order (docs/ita-ear-btb.md, "One capture
// per unit per cycle").
module ita_first_slot #(
  parameter int NSlots = 6,
  parameter int IdxW   = 3
) (
  input  logic [NSlots-1:0] hit_i,
  output logic              any_o,
  output logic [IdxW-1:0]   idx_o
);

  // The lowest set bit, isolated; index bit b is set when it is at a slot k with bit b set.
  logic [NSlots-1:0] first;
  assign first = hit_i & (~hit_i + 1'b1);

  for (genvar b = 0; b < IdxW; b++) begin : g_bit
    logic [NSlots-1:0] with_b;   // slots whose index has bit b set
    for (genvar k = 0; k < NSlots; k++) begin : g_slot
      assign with_b[k] = ((k >> b) & 1) != 0;
    end
    assign idx_o[b] = |(first & with_b);
  end

  assign any_o = |hit_i;

endmodule
