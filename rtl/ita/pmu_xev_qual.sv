`include "pmu_defines.vh"

// Qualification of the cycle's general events (combinational; docs/ear-btb.md, "General
// events"): an entry attributed to a slot is qualified
// like that slot for the event's own iar / opm / dar (the memory qualification of set
// {iar, opm} for dar = 1, else inst_q({iar, opm}, pair 0), as the modelled events are); an
// unattributed entry (slot PMU_XEV_NO_SLOT) is not constrained, like L2_FORCE_RECIRC_ANY. An
// entry naming a slot that is not valid passes nothing. One instance, shared by the counters.
module pmu_xev_qual (
  input  logic [2:0]                   nslots_i,
  input  logic [`PMU_MAX_XEV*8-1:0]    xev_slot_i,     // slot index or PMU_XEV_NO_SLOT
  input  logic [`PMU_MAX_XEV*3-1:0]    xev_iod_i,      // {iar, opm, dar} of the entry's event
  input  logic [`PMU_MAX_SLOTS*16-1:0] slot_inst_q_i,  // pmu_tag_qual, slot s at [s*16 +: 16]
  input  logic [`PMU_MAX_SLOTS*4-1:0]  slot_mem_q_i,
  output logic [`PMU_MAX_XEV-1:0]      xev_qual_o
);

  `include "pmu_defs.vh"

  for (genvar i = 0; i < `PMU_MAX_XEV; i++) begin : g_xev
    logic [7:0] slot;
    logic [1:0] set;   // {iar, opm}
    logic       dar;

    assign slot = xev_slot_i[i*8 +: 8];
    assign set  = xev_iod_i[i*3 + 1 +: 2];
    assign dar  = xev_iod_i[i*3];

    // The qualification of the entry's slot for the entry's event: mem_q(set) of slot s at
    // [s*4 + set], inst_q(set, pair 0) at [s*16 + set*4] (pmu_tag_qual). Only the named slot is
    // looked at (a slot out of range passes nothing).
    logic in_range, pass;
    assign in_range = (slot < 8'(`PMU_MAX_SLOTS)) && ({5'd0, slot[2:0]} < {5'd0, nslots_i});
    assign pass     = dar ? slot_mem_q_i[{slot[2:0], set}]
                          : slot_inst_q_i[{slot[2:0], set, 2'b00}];
    assign xev_qual_o[i] = (slot == PMU_XEV_NO_SLOT) || (in_range && pass);
  end

endmodule
