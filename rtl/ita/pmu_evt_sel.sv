`include "pmu_defines.vh"

// Event select of one generic counter (combinational): the (es, umask) pair of the counter's
// PMC and the cycle record give n, the number of occurrences of the selected event in this
// cycle (semantics.md, "A step clock", step 3). Multi-slot events add over the valid slots
// that pass the event's qualification. Only the (es, umask) pairs of the event table count;
// any other pair gives n = 0. Each model has its own rows (the modelled events of its table).
//
// Qualification (semantics.md, "Event qualification ..."): the slots' tags come from the
// shared pmu_slot_qual instances, one per slot, for every qualifier set c = {iar, opm}. The
// selected event's iar / opm / dar columns (its event table row) pick its bit: the memory
// qualification mem_q(c) for dar = 1 events, otherwise inst_q(c, k) with k = the umask for
// IA64_TAGGED_INST_RETIRED_IBRPk (code 0x08) and k = 0 (Tag(PMC8)) for every other event.
// Events not attributed to an instruction (CPU_CYCLES, L2_FORCE_RECIRC_ANY) are never
// constrained.
module pmu_evt_sel #(
  parameter int Model   = 1,  // 0 = Itanium (ita_events.def rows), 1 = Itanium 2 (ita2_events.def)
  parameter int Counter = 4,  // PMC index of this counter (the event table's counter mask)
  parameter int NW      = 10  // width of n: holds PMU_MAX_SLOTS, the largest recirc_i and
                              // PMU_MAX_XEV general events of up to 255 each
) (
  input  logic [63:0]                             pmc_i,         // PMC<Counter> stored value
  input  logic [1:0]                              power_i,
  input  logic [2:0]                              recirc_i,
  input  logic [2:0]                              nslots_i,
  input  logic [`PMU_MAX_SLOTS*`PMU_SF_WIDTH-1:0] slot_flags_i,
  // Per-slot qualification (pmu_tag_qual): slot s at [s*16 +: 16] / [s*4 +: 4].
  input  logic [`PMU_MAX_SLOTS*16-1:0]            slot_inst_q_i,
  input  logic [`PMU_MAX_SLOTS*4-1:0]             slot_mem_q_i,
  // The EARs and the BTB capture in this clock (docs/ear-btb.md, "The counter events").
  input  logic                                    iear_cap_i,
  input  logic                                    dear_cap_i,
  input  logic                                    btb_cap_i,
  // General events (pmu_xev_qual.sv): entry i at [i*8 +: 8] / [i*4 +: 4] / [i*3 +: 3].
  input  logic [`PMU_MAX_XEV-1:0]                 xev_valid_i,
  input  logic [`PMU_MAX_XEV*8-1:0]               xev_code_i,
  input  logic [`PMU_MAX_XEV*4-1:0]               xev_umask_i,
  input  logic [`PMU_MAX_XEV*8-1:0]               xev_count_i,
  input  logic [`PMU_MAX_XEV-1:0]                 xev_qual_i,    // passes its slot's qualification
  output logic [NW-1:0]                           n_o
);

  `include "pmu_defs.vh"

  // enum pmu_power of include/ita/pmu_cycle.h
  localparam logic [1:0] PowerNormal   = 2'd0;
  localparam logic [1:0] PowerLowPower = 2'd1;

  // BR_MISPRED_DETAIL umask: u[3:2] selects the branch type, u[1:0] the prediction outcome,
  // 0 = any (semantics.md event table).
  localparam int UmaskTypeLsb = 2;
  localparam int UmaskPredLsb = 0;

  // Tag layout of pmu_tag_qual: qualifier set c = {iar, opm}, four IBR pairs per set.
  localparam int NPairs = 4;
  localparam int NSets  = 4;

  logic [PMU_F_PMC_GEN_ES_W-1:0]    es;
  logic [PMU_F_PMC_GEN_UMASK_W-1:0] umask;
  logic [PMU_KIND_W-1:0]            kind;                    // PMU_KIND_* of the selected event
  logic                             ev_iar, ev_opm, ev_dar;  // the event's qualifier columns
  logic [1:0]                       qual_set;                // {iar, opm}
  logic [1:0]                       tag_pair;                // k of inst_q(k)
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

  // The event table (build/gen/ita/pmu_evt_rows.svh: one PMU_EVT_ROW per modelled event, i.e.
  // per row with a kind, of each model's table include/ita/ita_events.def (MODEL 0) and
  // ita2_events.def (MODEL 1)). The rows of this instance's Model select by (es, umask) the
  // kind and give the qualifier columns; an event whose counter mask excludes this counter
  // counts 0 here. Two rows with one (es, umask) pair (IA64_INST_RETIRED and
  // IA64_TAGGED_INST_RETIRED_IBRP0_PMC8) are one event under two names.
`define PMU_EVT_ROW(MODEL, NAME, CODE, UMASK, COUNTERS, IAR, OPM, DAR, KIND)           \
    if (Model == MODEL && es == CODE && umask == UMASK) begin                            \
      kind   = (((COUNTERS) >> Counter) & 8'h01) != 8'h00 ? KIND : PMU_KIND_NONE;           \
      ev_iar = IAR;                                                                      \
      ev_opm = OPM;                                                                      \
      ev_dar = DAR;                                                                      \
    end

  always_comb begin
    kind   = PMU_KIND_NONE;
    ev_iar = 1'b0;
    ev_opm = 1'b0;
    ev_dar = 1'b0;
    `include "pmu_evt_rows.svh"
  end

`undef PMU_EVT_ROW

  // The qualifier set of the event, and the IBR pair whose tag it counts: umask k for
  // IA64_TAGGED_INST_RETIRED_IBRPk (code 0x08, umask k), pair 0 = Tag(PMC8) otherwise.
  assign qual_set = {ev_iar, ev_opm};
  assign tag_pair = (kind == PMU_KIND_INST_RET) ? umask[1:0] : 2'd0;

  // Does slot k carry one qualified occurrence of the selected event?
  for (genvar k = 0; k < `PMU_MAX_SLOTS; k++) begin : g_slot
    logic [`PMU_SF_WIDTH-1:0] flags;
    logic [NSets*NPairs-1:0]  inst_q;
    logic [NSets-1:0]         mem_q;
    logic [1:0]               br_type, br_pred;
    logic                     nop, pred_off, load, store, fp, l1d_miss, l2_ref, l2_miss, rse;
    logic                     br_match, evt_match, qual;

    assign flags    = slot_flags_i[k*`PMU_SF_WIDTH +: `PMU_SF_WIDTH];
    assign inst_q   = slot_inst_q_i[k*NSets*NPairs +: NSets*NPairs];
    assign mem_q    = slot_mem_q_i[k*NSets +: NSets];
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
        PMU_KIND_INST_RET:  evt_match = power_counts;
        PMU_KIND_NOPS:      evt_match = nop;
        PMU_KIND_PRED_OFF:  evt_match = pred_off;
        PMU_KIND_FP_OPS:    evt_match = fp;
        PMU_KIND_LOADS:     evt_match = load;
        PMU_KIND_STORES:    evt_match = store;
        PMU_KIND_BR_DETAIL: evt_match = br_match;
        PMU_KIND_L1D_MISS:  evt_match = load && l1d_miss;
        PMU_KIND_L1D_RSE:   evt_match = load && l1d_miss && rse;
        PMU_KIND_L2_MISS:   evt_match = l2_miss;
        PMU_KIND_L2_REF:    evt_match = l2_ref;
        default:            evt_match = 1'b0;  // cycle-level events and unimplemented pairs
      endcase
    end

    assign qual = ev_dar ? mem_q[qual_set] : inst_q[{qual_set, tag_pair}];

    assign slot_hit[k] = slot_valid[k] && evt_match && qual;
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

  // General events (docs/ear-btb.md and the stream's xev entries): every entry whose event
  // has code == es and umask == umask and passes its qualification adds its count.
  logic [NW-1:0] n_xev, n_kind;
  always_comb begin
    n_xev = '0;
    for (int i = 0; i < `PMU_MAX_XEV; i++) begin
      if (xev_valid_i[i] && xev_qual_i[i] && xev_code_i[i*8 +: 8] == es &&
          xev_umask_i[i*4 +: 4] == umask) begin
        n_xev = n_xev + {{(NW - 8){1'b0}}, xev_count_i[i*8 +: 8]};
      end
    end
  end

  // Cycle-level events are not attributed to an instruction: no tag constrains them. The EAR
  // and BTB events count the unit's capture, which is qualified by the unit itself.
  always_comb begin
    case (kind)
      PMU_KIND_CYCLES: n_kind = {{(NW - 1){1'b0}}, power_counts};
      PMU_KIND_RECIRC: n_kind = {{(NW - 3){1'b0}}, recirc_i};
      PMU_KIND_IEAR:   n_kind = {{(NW - 1){1'b0}}, iear_cap_i};
      PMU_KIND_DEAR:   n_kind = {{(NW - 1){1'b0}}, dear_cap_i};
      PMU_KIND_BTB:    n_kind = {{(NW - 1){1'b0}}, btb_cap_i};
      default:         n_kind = count_hits(slot_hit);
    endcase
  end

  assign n_o = n_kind + n_xev;

endmodule
