`include "ita_defines.vh"

// Qualification of the cycle's general events (combinational; docs/ita-ear-btb.md, "General
// events"): an entry attributed to a slot is qualified
// like that slot for the event's own iar / opm / dar (the memory qualification of set
// {iar, opm} for dar = 1, else inst_q({iar, opm}, pair 0), as the modelled events are); an
// unattributed entry (slot ITA_XEV_NO_SLOT) is not constrained, like L2_FORCE_RECIRC_ANY. An
// entry naming a slot that is not valid passes nothing. One instance, shared by the counters.
// Most clocks carry no general event: then nothing is looked at and every output is 0 (the
// event selects test each entry's validity themselves; docs/bench.md, "Only the slots that
// retire").
module ita_xev_qual (
  input  logic [`ITA_MAX_XEV-1:0]      xev_valid_i,
  input  logic [2:0]                   nslots_i,
  input  logic [`ITA_MAX_XEV*8-1:0]    xev_slot_i,     // slot index or ITA_XEV_NO_SLOT
  input  logic [`ITA_MAX_XEV*3-1:0]    xev_iod_i,      // {iar, opm, dar} of the entry's event
  input  logic [`ITA_MAX_SLOTS*32-1:0] slot_tags_i,    // slot s's {inst_q, mem_q} at [s*32 +: 20]
  output logic [`ITA_MAX_XEV-1:0]      xev_qual_o
);

  `include "ita_defs.vh"

  // Entry i: its slot at xev_slot_i[i*8 +: 8], {iar, opm} at xev_iod_i[i*3 + 1 +: 2], dar at
  // xev_iod_i[i*3]. The qualification of the entry's slot for the entry's event: mem_q(set) of
  // slot s at [s*32 + set], inst_q(set, pair 0) at [s*32 + 4 + set*4] (ita_tag_qual). Only the
  // named slot is looked at (a slot out of range passes nothing). (Selects by the loop index
  // only: Icarus 11 does not support constant selects in always_* processes.)
  always_comb begin
    if (xev_valid_i != '0) begin
      xev_qual_o = '0;  // (so that Verilator sees every bit assigned)
      for (int i = 0; i < `ITA_MAX_XEV; i++) begin
        xev_qual_o[i] =
          (xev_slot_i[i*8 +: 8] == ITA_XEV_NO_SLOT) ||
          ((xev_slot_i[i*8 +: 8] < 8'(`ITA_MAX_SLOTS)) && (xev_slot_i[i*8 +: 3] < nslots_i) &&
           (xev_iod_i[i*3] ? slot_tags_i[{xev_slot_i[i*8 +: 3], 3'd0, xev_iod_i[i*3 + 1 +: 2]}]
                           : slot_tags_i[{xev_slot_i[i*8 +: 3], 5'd4 + {1'd0, xev_iod_i[i*3 + 1 +: 2], 2'd0}}]));
      end
    end else begin
      xev_qual_o = '0;
    end
  end

endmodule
