`include "ita_defines.vh"

// Event select of one generic counter: the (es, umask) pair of the counter's
// PMC and the cycle record give n, the number of occurrences of the selected event in this
// cycle (ita-semantics.md, "A step clock", step 3). Multi-slot events add over the valid slots
// that pass the event's qualification. Only the (es, umask) pairs of the event table count;
// any other pair gives n = 0. Each model has its own rows (the modelled events of its table).
//
// Qualification (ita-semantics.md, "Event qualification ..."): the slots' tags come from the
// shared ita_slot_qual instances, one per slot, for every qualifier set c = {iar, opm}. The
// selected event's iar / opm / dar columns (its event table row) pick its bit: the memory
// qualification mem_q(c) for dar = 1 events, otherwise inst_q(c, k) with k = the umask for
// IA64_TAGGED_INST_RETIRED_IBRPk (code 0x08) and k = 0 (Tag(PMC8)) for every other event.
// Events not attributed to an instruction (CPU_CYCLES, L2_FORCE_RECIRC_ANY) are never
// constrained.
//
// The select is decoded when the PMC is written, as the PMC stores the value, and kept in
// flops beside it (docs/ita-rtl.md, "The event select, decoded at the write"): the row's kind and
// qualifier columns, the slot flags that make a slot carry the event, and the qualification
// bit the event reads. A clock then only compares each slot's flags with the decoded ones,
// instead of searching the event table for every counter in every clock. The same write
// decodes the PMC's plm / ism / pm into the counter's enable table (en_tab_o), which
// ita_cnt_qual looks up: one decoder of the PMC's write for both.
module ita_evt_sel #(
  parameter int          Model    = 1,      // 0 = Itanium (ita_events.def rows), 1 = Itanium 2
  parameter int          Counter  = 4,      // PMC index of this counter (the event table's counter mask)
  parameter int          NW       = 10,     // width of n: holds ITA_MAX_SLOTS, the largest recirc_i
                                            // and ITA_MAX_XEV general events of up to 255 each
  parameter logic [63:0] PmcReset = 64'h0,  // PMC<Counter>'s reset value and writable mask, as
  parameter logic [63:0] PmcWmask = '1      // its ita_pmc_gen stores a write
) (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  logic                                    wr_i,          // the register port writes in this clock
  input  logic                                    pmc_sel_i,     // ... PMC<Counter> (as ita_pmc_gen)
  input  logic [63:0]                             pmc_wdata_i,   // with this value
  input  logic [63:0]                             pmc_i,         // PMC<Counter> stored value
  input  logic [1:0]                              power_i,
  input  logic [2:0]                              recirc_i,
  input  logic [2:0]                              nslots_i,
  input  logic [`ITA_MAX_SLOTS*`ITA_SF_WIDTH-1:0] slot_flags_i,
  // Per-slot qualification (ita_tag_qual): slot s's {inst_q (16), mem_q (4)} at [s*32 +: 20],
  // bits [s*32 + 20 +: 12] 0 (one 32-bit word a slot: docs/ita-rtl.md, "The slots' tags").
  input  logic [`ITA_MAX_SLOTS*32-1:0]            slot_tags_i,
  // The EARs and the BTB capture in this clock (docs/ita-ear-btb.md, "The counter events").
  input  logic                                    iear_cap_i,
  input  logic                                    dear_cap_i,
  input  logic                                    btb_cap_i,
  // General events (ita_xev_qual.sv): entry i at [i*8 +: 8] / [i*4 +: 4] / [i*3 +: 3].
  input  logic [`ITA_MAX_XEV-1:0]                 xev_valid_i,
  input  logic [`ITA_MAX_XEV*8-1:0]               xev_code_i,
  input  logic [`ITA_MAX_XEV*4-1:0]               xev_umask_i,
  input  logic [`ITA_MAX_XEV*8-1:0]               xev_count_i,
  input  logic [`ITA_MAX_XEV-1:0]                 xev_qual_i,    // passes its slot's qualification
  output logic [NW-1:0]                           n_o,
  // The PMC's plm / ism / pm, decoded at the same write for ita_cnt_qual: entry
  // {cpl, is, up, pp} is 1 when they let the counter count.
  output logic [31:0]                             en_tab_o
);

  `include "ita_defs.vh"

  // enum ita_power of include/common/ita/ita_cycle.h
  localparam logic [1:0] PowerNormal   = 2'd0;
  localparam logic [1:0] PowerLowPower = 2'd1;

  // BR_MISPRED_DETAIL umask: u[3:2] selects the branch type, u[1:0] the prediction outcome,
  // 0 = any (ita-semantics.md event table).
  localparam int UmaskTypeLsb = 2;
  localparam int UmaskPredLsb = 0;

  // Tag layout of ita_tag_qual: qualifier set c = {iar, opm}, four IBR pairs per set.
  localparam int NPairs = 4;
  localparam int NSets  = 4;

  localparam int SfW = `ITA_SF_WIDTH;

  logic [ITA_F_PMC_GEN_ES_W-1:0]    es;
  logic [ITA_F_PMC_GEN_UMASK_W-1:0] umask;
  logic                             power_counts;
  logic [`ITA_MAX_SLOTS-1:0]        slot_valid, slot_hit;  // slot_hit: the slot carries the event

  assign es    = pmc_i[ITA_F_PMC_GEN_ES_MSB:ITA_F_PMC_GEN_ES_LSB];
  assign umask = pmc_i[ITA_F_PMC_GEN_UMASK_MSB:ITA_F_PMC_GEN_UMASK_LSB];

  // Cycles and retired instructions count only in the NORMAL and LOW-POWER states.
  assign power_counts = (power_i == PowerNormal) || (power_i == PowerLowPower);

  // Slots 0 .. nslots_i-1 are valid (more than ITA_MAX_SLOTS means all of them).
  assign slot_valid = ~({`ITA_MAX_SLOTS{1'b1}} << nslots_i);

  // ---- the decode, done when the PMC is written -------------------------------------------
  // The event table (build/gen/ita/ita_evt_rows.svh: one ITA_EVT_ROW per modelled event, i.e.
  // per row with a kind, of each model's table include/common/ita/ita_events.def (MODEL 0) and
  // ita2_events.def (MODEL 1)). The rows of this instance's Model select by (es, umask) the
  // kind and give the qualifier columns {iar, opm, dar}; an event whose counter mask excludes
  // this counter counts 0 here. Two rows with one (es, umask) pair (IA64_INST_RETIRED and
  // IA64_TAGGED_INST_RETIRED_IBRP0_PMC8) are one event under two names.
  localparam int RowW = ITA_KIND_W + 3;  // {kind, iar, opm, dar}

`define ITA_EVT_ROW(MODEL, NAME, CODE, UMASK, COUNTERS, IAR, OPM, DAR, KIND)           \
    if (Model == MODEL && es_v == CODE && umask_v == UMASK) begin                        \
      row = {((((COUNTERS) >> Counter) & 8'h01) != 8'h00 ? KIND : ITA_KIND_NONE),          \
             IAR, OPM, DAR};                                                             \
    end

  function automatic logic [RowW-1:0] row_of(input logic [ITA_F_PMC_GEN_ES_W-1:0]    es_v,
                                              input logic [ITA_F_PMC_GEN_UMASK_W-1:0] umask_v);
    logic [RowW-1:0] row;
    row = {ITA_KIND_NONE, 3'b000};
    `include "ita_evt_rows.svh"
    row_of = row;
  endfunction

`undef ITA_EVT_ROW

  // The slot flags of a kind that counts slots: a slot carries the event when
  // (flags & all) == val and, if any is not 0, (flags & any) != 0. BR_MISPRED_DETAIL's umask
  // u[3:2] selects the branch type, u[1:0] the prediction outcome, 0 = any (ita-semantics.md event
  // table); a branch is a slot with br != 0.
  localparam int FlagsW = 3 * SfW + 2;  // {counts slots, gated by the power state, all, val, any}

  function automatic logic [SfW-1:0] sf_bit(input int lsb);
    sf_bit = {{(SfW - 1){1'b0}}, 1'b1} << lsb;
  endfunction

  function automatic logic [FlagsW-1:0] flags_of(input logic [ITA_KIND_W-1:0] kind,
                                                 input logic [ITA_F_PMC_GEN_UMASK_W-1:0] u);
    logic [SfW-1:0] all, val, any, br_type_f, br_pred_f;
    logic           slots, gated;
    all       = '0;
    any       = '0;
    slots     = 1'b1;
    gated     = 1'b0;
    br_type_f = {{(SfW - 2){1'b0}}, 2'b11} << ITA_SF_BR_TYPE_LSB;
    br_pred_f = {{(SfW - 2){1'b0}}, 2'b11} << ITA_SF_BR_PRED_LSB;
    val       = '0;
    case (kind)
      ITA_KIND_INST_RET:  gated = 1'b1;
      ITA_KIND_NOPS:      all = sf_bit(ITA_SF_NOP_LSB);
      ITA_KIND_PRED_OFF:  all = sf_bit(ITA_SF_PRED_OFF_LSB);
      ITA_KIND_FP_OPS:    all = sf_bit(ITA_SF_FP_LSB);
      ITA_KIND_LOADS:     all = sf_bit(ITA_SF_LOAD_LSB);
      ITA_KIND_STORES:    all = sf_bit(ITA_SF_STORE_LSB);
      ITA_KIND_L1D_MISS:  all = sf_bit(ITA_SF_LOAD_LSB) | sf_bit(ITA_SF_L1D_MISS_LSB);
      ITA_KIND_L1D_RSE:   all = sf_bit(ITA_SF_LOAD_LSB) | sf_bit(ITA_SF_L1D_MISS_LSB) |
                                sf_bit(ITA_SF_RSE_LSB);
      ITA_KIND_L2_MISS:   all = sf_bit(ITA_SF_L2_MISS_LSB);
      ITA_KIND_L2_REF:    all = sf_bit(ITA_SF_L2_REF_LSB);
      ITA_KIND_BR_DETAIL: begin
        any = br_type_f;
        if (u[UmaskTypeLsb +: 2] != 2'd0) begin
          all = all | br_type_f;
          val = val | ({{(SfW - 2){1'b0}}, u[UmaskTypeLsb +: 2]} << ITA_SF_BR_TYPE_LSB);
        end
        if (u[UmaskPredLsb +: 2] != 2'd0) begin
          all = all | br_pred_f;
          val = val | ({{(SfW - 2){1'b0}}, u[UmaskPredLsb +: 2]} << ITA_SF_BR_PRED_LSB);
        end
      end
      default:            slots = 1'b0;  // cycle-level events and unimplemented pairs
    endcase
    if (kind != ITA_KIND_BR_DETAIL) begin
      val = all;
    end
    flags_of = {slots, gated, all, val, any};
  endfunction

  // The qualification bit the event reads, one-hot over the slot's tags: the memory
  // qualification mem_q(c) for dar = 1 events, otherwise inst_q(c, k), with c = {iar, opm},
  // k = the umask for IA64_TAGGED_INST_RETIRED_IBRPk (the retired-instruction kind) and
  // k = 0 (Tag(PMC8)) for every other event.
  localparam int QselW = NSets * NPairs + NSets;  // {inst_q select, mem_q select}

  function automatic logic [QselW-1:0] qsel_of(input logic [RowW-1:0] row,
                                               input logic [1:0]      umask_pair);
    logic [1:0] set, pair;
    set  = row[2:1];
    pair = (row[RowW-1:3] == ITA_KIND_INST_RET) ? umask_pair : 2'd0;
    if (row[0]) begin
      qsel_of = {{(NSets * NPairs){1'b0}}, {{(NSets - 1){1'b0}}, 1'b1} << set};
    end else begin
      qsel_of = {{{(NSets * NPairs - 1){1'b0}}, 1'b1} << {set, pair}, {NSets{1'b0}}};
    end
  endfunction

  // What a write stores (ita_pmc_gen): bits outside the writable mask keep their reset value.
  function automatic logic [63:0] stored(input logic [63:0] wdata);
    stored = (wdata & PmcWmask) | (PmcReset & ~PmcWmask);
  endfunction

  // Entry {cpl, is, up, pp} is 1 when plm has cpl, ism does not exclude instruction set is
  // (ism bit k = 1 disables set k; ism = 3 never counts), and the monitor enable the PMC
  // reads is 1 (pm = 1: a privileged monitor, enabled by PSR.pp; pm = 0: a user monitor, by
  // PSR.up).
  function automatic logic [31:0] en_table(input logic [63:0] pmc);
    logic [ITA_F_PMC_GEN_PLM_W-1:0] plm;
    logic [ITA_F_PMC_GEN_ISM_W-1:0] ism;
    logic                           pm;
    logic [4:0]                     key;  // {cpl, is, up, pp}
    logic [31:0]                    t;
    plm = pmc[ITA_F_PMC_GEN_PLM_MSB:ITA_F_PMC_GEN_PLM_LSB];
    ism = pmc[ITA_F_PMC_GEN_ISM_MSB:ITA_F_PMC_GEN_ISM_LSB];
    pm  = pmc[ITA_F_PMC_GEN_PM_LSB];
    for (int i = 0; i < 32; i++) begin
      key  = 5'(i);
      t[i] = plm[key[4:3]] && !ism[key[2]] && (pm ? key[0] : key[1]);
    end
    en_table = t;
  endfunction

  // The whole decode of a stored PMC value: {kind, slot flags, qualification select}.
  localparam int DecW = ITA_KIND_W + FlagsW + QselW;

  function automatic logic [DecW-1:0] decode(input logic [63:0] pmc);
    logic [RowW-1:0]                  row;
    logic [ITA_F_PMC_GEN_UMASK_W-1:0] u;
    u      = pmc[ITA_F_PMC_GEN_UMASK_MSB:ITA_F_PMC_GEN_UMASK_LSB];
    row    = row_of(pmc[ITA_F_PMC_GEN_ES_MSB:ITA_F_PMC_GEN_ES_LSB], u);
    decode = {row[RowW-1:3], flags_of(row[RowW-1:3], u), qsel_of(row, u[1:0])};
  endfunction

  // The slot flags of the decode ({counts slots, gated, all, val, any}) are kept in one flop
  // each: read from one packed flop, each use in every slot's compare shifted them out again
  // (docs/bench.md).
  logic [ITA_KIND_W-1:0] kind_q;
  logic                  slots_q, gated_q;
  logic [SfW-1:0]        all_q, val_q, any_q;
  logic [QselW-1:0]      qsel_q;
  logic [31:0]           en_tab_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      {kind_q, slots_q, gated_q, all_q, val_q, any_q, qsel_q} <= decode(PmcReset);
      en_tab_q <= en_table(PmcReset);
    end else if (wr_i) begin
      // The write strobe tested before the select, as ita_pmc_gen does: the model merges
      // every register's outer test into one (docs/bench.md).
      if (pmc_sel_i) begin
        {kind_q, slots_q, gated_q, all_q, val_q, any_q, qsel_q} <=
          decode(stored(pmc_wdata_i));
        en_tab_q <= en_table(stored(pmc_wdata_i));
      end
    end
  end

  // ---- the clock: each slot against the decoded select ------------------------------------

  // Only valid slots are compared, and none for an event that does not count slots: most
  // cycles carry fewer than ITA_MAX_SLOTS slots, and Verilator evaluates this block for every
  // counter in every clock (docs/bench.md). A clock without slots (a stall, or a counter
  // that does not count: ita_pmu gives it none) skips the loop, which otherwise tests each
  // slot's validity (docs/bench-history.md, "Eighteenth round").
  always_comb begin
    slot_hit = '0;
    if (slots_q && (!gated_q || power_counts) && (nslots_i != 3'd0)) begin
      for (int k = 0; k < `ITA_MAX_SLOTS; k++) begin
        if (slot_valid[k]) begin
          slot_hit[k] = ((slot_flags_i[k*SfW +: SfW] & all_q) == val_q) &&
                        (any_q == '0 || (slot_flags_i[k*SfW +: SfW] & any_q) != '0) &&
                        ((slot_tags_i[k*32 +: QselW] & qsel_q) != '0);
        end
      end
    end
  end

  // Number of set bits: several slots may carry the event in one cycle, and they add.
  function automatic logic [NW-1:0] count_hits(input logic [`ITA_MAX_SLOTS-1:0] hits);
    logic [NW-1:0] sum;
    sum = '0;
    for (int k = 0; k < `ITA_MAX_SLOTS; k++) begin
      sum = sum + {{(NW - 1){1'b0}}, hits[k]};
    end
    count_hits = sum;
  endfunction

  // The count of the slots that carry the event, in a block of its own: Verilator computes
  // it once, where called in the case below it copied the additions into every branch of the
  // case's if-tree, with the function's variables kept in the model's memory
  // (docs/bench-history.md, "Fifteenth round").
  logic [NW-1:0] n_slots;
  always_comb begin
    n_slots = count_hits(slot_hit);
  end

  // General events (docs/ita-ear-btb.md and the stream's xev entries): every entry whose event
  // has code == es and umask == umask and passes its qualification adds its count.
  logic [NW-1:0] n_xev, n_kind;
  // Most clocks carry no general event: then nothing is compared.
  always_comb begin
    n_xev = '0;
    if (xev_valid_i != '0) begin
      for (int i = 0; i < `ITA_MAX_XEV; i++) begin
        if (xev_valid_i[i] && xev_qual_i[i] && xev_code_i[i*8 +: 8] == es &&
            xev_umask_i[i*4 +: 4] == umask) begin
          n_xev = n_xev + {{(NW - 8){1'b0}}, xev_count_i[i*8 +: 8]};
        end
      end
    end
  end

  // Cycle-level events are not attributed to an instruction: no tag constrains them. The EAR
  // and BTB events count the unit's capture, which is qualified by the unit itself.
  always_comb begin
    case (kind_q)
      ITA_KIND_CYCLES: n_kind = {{(NW - 1){1'b0}}, power_counts};
      ITA_KIND_RECIRC: n_kind = {{(NW - 3){1'b0}}, recirc_i};
      ITA_KIND_IEAR:   n_kind = {{(NW - 1){1'b0}}, iear_cap_i};
      ITA_KIND_DEAR:   n_kind = {{(NW - 1){1'b0}}, dear_cap_i};
      ITA_KIND_BTB:    n_kind = {{(NW - 1){1'b0}}, btb_cap_i};
      default:         n_kind = n_slots;
    endcase
  end

  assign n_o = n_kind + n_xev;
  assign en_tab_o = en_tab_q;

endmodule
