`include "pmu_defines.vh"

// Event select of one generic counter (combinational): the (es, umask) pair of the counter's
// PMC and the cycle record give n, the number of occurrences of the selected event in this
// cycle (semantics.md, "A step clock", step 3). Multi-slot events add over the valid slots.
// Only the (es, umask) pairs of the event table count; any other pair gives n = 0.
module pmu_evt_sel #(
  parameter int Counter = 4,  // PMC index of this counter: L2_FORCE_RECIRC_ANY is PMC4 only
  parameter int NW      = 3   // width of n: holds PMU_MAX_SLOTS and the largest recirc_i
) (
  input  logic [63:0]                             pmc_i,         // PMC<Counter> stored value
  input  logic [1:0]                              power_i,
  input  logic [2:0]                              recirc_i,
  input  logic [2:0]                              nslots_i,
  input  logic [`PMU_MAX_SLOTS*`PMU_SF_WIDTH-1:0] slot_flags_i,
  // Per-slot qualification tag: 1 = the slot may count. Issue 3 (IBR/DBR/opcode matching)
  // drives it; until then the top ties it to all ones.
  input  logic [`PMU_MAX_SLOTS-1:0]               slot_qual_i,
  output logic [NW-1:0]                           n_o
);

  `include "pmu_defs.vh"

  // enum pmu_power of include/pmu_cycle.h
  localparam logic [1:0] PowerNormal   = 2'd0;
  localparam logic [1:0] PowerLowPower = 2'd1;

  // Counter mask of L2_FORCE_RECIRC_ANY (data/pmu_regs.def: PMC4 only).
  localparam logic [7:0] RecircCounters = PMU_EV_L2_FORCE_RECIRC_ANY_COUNTERS;
  localparam bit RecircWired = RecircCounters[Counter];

  // BR_MISPRED_DETAIL umask: u[3:2] selects the branch type, u[1:0] the prediction outcome,
  // 0 = any (semantics.md event table).
  localparam int UmaskTypeLsb = 2;
  localparam int UmaskPredLsb = 0;

  // Event kinds: what one slot contributes (or, for cycles/recirc, what the cycle gives).
  localparam logic [3:0] EvNone     = 4'd0;
  localparam logic [3:0] EvCycles   = 4'd1;
  localparam logic [3:0] EvInstRet  = 4'd2;
  localparam logic [3:0] EvNops     = 4'd3;
  localparam logic [3:0] EvPredOff  = 4'd4;
  localparam logic [3:0] EvFpOps    = 4'd5;
  localparam logic [3:0] EvLoads    = 4'd6;
  localparam logic [3:0] EvStores   = 4'd7;
  localparam logic [3:0] EvBrDetail = 4'd8;
  localparam logic [3:0] EvL1dMiss  = 4'd9;
  localparam logic [3:0] EvL1dRse   = 4'd10;
  localparam logic [3:0] EvL2Miss   = 4'd11;
  localparam logic [3:0] EvL2Ref    = 4'd12;
  localparam logic [3:0] EvRecirc   = 4'd13;

  logic [PMU_F_PMC_GEN_ES_W-1:0]    es;
  logic [PMU_F_PMC_GEN_UMASK_W-1:0] umask;
  logic [3:0]                       kind;
  logic [1:0]                       br_type_sel, br_pred_sel;
  logic                             power_counts;
  logic [`PMU_MAX_SLOTS-1:0]        slot_valid, slot_hit;

  assign es    = pmc_i[PMU_F_PMC_GEN_ES_MSB:PMU_F_PMC_GEN_ES_LSB];
  assign umask = pmc_i[PMU_F_PMC_GEN_UMASK_MSB:PMU_F_PMC_GEN_UMASK_LSB];

  assign br_type_sel = umask[UmaskTypeLsb +: 2];
  assign br_pred_sel = umask[UmaskPredLsb +: 2];

  // Cycles and retired instructions count only in the NORMAL and LOW-POWER states.
  assign power_counts = (power_i == PowerNormal) || (power_i == PowerLowPower);

  // Slots 0 .. nslots_i-1 are valid (more than PMU_MAX_SLOTS means all of them).
  assign slot_valid = ~({`PMU_MAX_SLOTS{1'b1}} << nslots_i);

  always_comb begin
    kind = EvNone;
    if (es == PMU_EV_CPU_CYCLES_CODE && umask == PMU_EV_CPU_CYCLES_UMASK) begin
      kind = EvCycles;
    end else if (es == PMU_EV_IA64_INST_RETIRED_CODE &&
                 umask == PMU_EV_IA64_INST_RETIRED_UMASK) begin
      kind = EvInstRet;
    end else if (es == PMU_EV_NOPS_RETIRED_CODE && umask == PMU_EV_NOPS_RETIRED_UMASK) begin
      kind = EvNops;
    end else if (es == PMU_EV_PREDICATE_SQUASHED_RETIRED_CODE &&
                 umask == PMU_EV_PREDICATE_SQUASHED_RETIRED_UMASK) begin
      kind = EvPredOff;
    end else if (es == PMU_EV_FP_OPS_RETIRED_CODE && umask == PMU_EV_FP_OPS_RETIRED_UMASK) begin
      kind = EvFpOps;
    end else if (es == PMU_EV_LOADS_RETIRED_CODE && umask == PMU_EV_LOADS_RETIRED_UMASK) begin
      kind = EvLoads;
    end else if (es == PMU_EV_STORES_RETIRED_CODE && umask == PMU_EV_STORES_RETIRED_UMASK) begin
      kind = EvStores;
    end else if (es == PMU_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED_CODE) begin
      // The event table lists all 16 umasks of BR_MISPRED_DETAIL; the umask only filters.
      kind = EvBrDetail;
    end else if (es == PMU_EV_L1D_READ_MISSES_ALL_CODE &&
                 umask == PMU_EV_L1D_READ_MISSES_ALL_UMASK) begin
      kind = EvL1dMiss;
    end else if (es == PMU_EV_L1D_READ_MISSES_RSE_FILL_CODE &&
                 umask == PMU_EV_L1D_READ_MISSES_RSE_FILL_UMASK) begin
      kind = EvL1dRse;
    end else if (es == PMU_EV_L2_MISSES_CODE && umask == PMU_EV_L2_MISSES_UMASK) begin
      kind = EvL2Miss;
    end else if (es == PMU_EV_L2_REFERENCES_CODE && umask == PMU_EV_L2_REFERENCES_UMASK) begin
      kind = EvL2Ref;
    end else if (es == PMU_EV_L2_FORCE_RECIRC_ANY_CODE &&
                 umask == PMU_EV_L2_FORCE_RECIRC_ANY_UMASK && RecircWired) begin
      kind = EvRecirc;
    end
  end

  // Does slot k carry one occurrence of the selected event?
  for (genvar k = 0; k < `PMU_MAX_SLOTS; k++) begin : g_slot
    logic [`PMU_SF_WIDTH-1:0] flags;
    logic [1:0]               br_type, br_pred;
    logic                     nop, pred_off, load, store, fp, l1d_miss, l2_ref, l2_miss, rse;
    logic                     br_match, evt_match;

    assign flags    = slot_flags_i[k*`PMU_SF_WIDTH +: `PMU_SF_WIDTH];
    assign nop      = flags[PMU_SF_NOP_LSB];
    assign pred_off = flags[PMU_SF_PRED_OFF_LSB];
    assign load     = flags[PMU_SF_LOAD_LSB];
    assign store    = flags[PMU_SF_STORE_LSB];
    assign fp       = flags[PMU_SF_FP_LSB];
    assign l1d_miss = flags[PMU_SF_L1D_MISS_LSB];
    assign l2_ref   = flags[PMU_SF_L2_REF_LSB];
    assign l2_miss  = flags[PMU_SF_L2_MISS_LSB];
    assign rse      = flags[PMU_SF_RSE_LSB];
    assign br_type  = flags[PMU_SF_BR_TYPE_MSB:PMU_SF_BR_TYPE_LSB];
    assign br_pred  = flags[PMU_SF_BR_PRED_MSB:PMU_SF_BR_PRED_LSB];

    // A branch (type != 0) of the umask's type and prediction outcome (0 = any).
    assign br_match = (br_type != 2'd0) &&
                      (br_type_sel == 2'd0 || br_type == br_type_sel) &&
                      (br_pred_sel == 2'd0 || br_pred == br_pred_sel);

    always_comb begin
      case (kind)
        EvInstRet:  evt_match = power_counts;
        EvNops:     evt_match = nop;
        EvPredOff:  evt_match = pred_off;
        EvFpOps:    evt_match = fp;
        EvLoads:    evt_match = load;
        EvStores:   evt_match = store;
        EvBrDetail: evt_match = br_match;
        EvL1dMiss:  evt_match = load && l1d_miss;
        EvL1dRse:   evt_match = load && l1d_miss && rse;
        EvL2Miss:   evt_match = l2_miss;
        EvL2Ref:    evt_match = l2_ref;
        default:    evt_match = 1'b0;  // cycle-level events and unimplemented pairs
      endcase
    end

    assign slot_hit[k] = slot_valid[k] && slot_qual_i[k] && evt_match;
  end

  // Number of set bits: several slots may carry the event in one cycle, and they add.
  function automatic logic [NW-1:0] count_hits(input logic [`PMU_MAX_SLOTS-1:0] hits);
    logic [NW-1:0] sum;
    sum = '0;
    for (int k = 0; k < `PMU_MAX_SLOTS; k++) begin
      sum = sum + {{(NW - 1){1'b0}}, hits[k]};
    end
    count_hits = sum;
  endfunction

  always_comb begin
    case (kind)
      EvCycles: n_o = {{(NW - 1){1'b0}}, power_counts};
      EvRecirc: n_o = recirc_i;
      default:  n_o = count_hits(slot_hit);
    endcase
  end

endmodule
