`include "ev4_defines.vh"

// The increment of one counter's selected event for the current record (docs/ev4.md,
// "Counting"). Combinational. The counter's MUX field selects a kind from the .def's table
// of its codes (Kinds: build/gen/ev4/ev4_defs.vh, EV4_MUX0_KINDS or EV4_MUX1_KINDS); the
// kind says what the record adds.
//  - Halves = 1 (counter 0, which keeps a HALF bit below COUNT): inc_o counts halves. Issues
//    and Non-issues add one half per issued (not issued) slot; every other kind adds two
//    halves per occurrence.
//  - Halves = 0: inc_o counts events (a half kind would count whole cycles; no MUX1 code
//    selects one).
//  - An undefined code (kind NONE) counts nothing, or with UndefAlias = 1 what the code
//    with bit 0 clear counts (docs/ev4.md, "Undefined mux0 codes": parameter Mux0Undef).
// A record has at most EV4_MAX_ISSUE issues; a larger nissue_i counts as EV4_MAX_ISSUE.
module ev4_evt_inc #(
  parameter int                    MuxW       = `EV4_MUX0_W,
  parameter logic [(1 << MuxW) * `EV4_KIND_W - 1:0] Kinds = '0,  // kind of code c at [c*KW +: KW]
  parameter bit                    Halves     = 1'b0,
  parameter bit                    UndefAlias = 1'b0
) (
  input  logic [MuxW-1:0]                          mux_i,        // the counter's MUX field
  input  logic [`EV4_MODE_W-1:0]                   mode_i,
  input  logic [`EV4_NISSUE_W-1:0]                 nissue_i,
  input  logic [`EV4_MAX_ISSUE*`EV4_CLASS_W-1:0]   cls_i,        // slot i at [i*CW +: CW]
  input  logic [`EV4_STALL_W-1:0]                  stall_i,
  input  logic                                     dmiss_i,
  input  logic                                     imiss_i,
  input  logic                                     mispredict_i,
  input  logic                                     pin0_i,
  input  logic                                     pin1_i,
  output logic [2:0]                               inc_o         // halves (Halves) or events
);

  `include "ev4_defs.vh"

  localparam int KW = `EV4_KIND_W;
  localparam int CW = `EV4_CLASS_W;
  localparam int NI = `EV4_MAX_ISSUE;
  localparam logic [`EV4_NISSUE_W-1:0] MaxIssue = NI[`EV4_NISSUE_W-1:0];

  // ---- the selected kind ------------------------------------------------------------------
  logic [MuxW-1:0] alias_code;
  logic [KW-1:0]   sel_kind, alias_kind, kind;

  assign alias_code = {mux_i[MuxW-1:1], 1'b0};
  assign sel_kind   = Kinds[mux_i * KW +: KW];
  assign alias_kind = Kinds[alias_code * KW +: KW];
  assign kind       = (UndefAlias && sel_kind == EV4_KIND_NONE) ? alias_kind : sel_kind;

  // ---- what the record has ------------------------------------------------------------------
  logic [`EV4_NISSUE_W-1:0] nissue;  // issues, at most EV4_MAX_ISSUE
  logic [1:0]               n_load, n_store, n_branch, n_fpop, n_intop;
  logic                     none_issued;

  assign nissue      = (nissue_i > MaxIssue) ? MaxIssue : nissue_i;
  assign none_issued = (nissue == '0);

  // Slots past nissue are not instructions (the record leaves their class 0, an intop).
  always_comb begin
    n_load   = '0;
    n_store  = '0;
    n_branch = '0;
    n_fpop   = '0;
    n_intop  = '0;
    for (int i = 0; i < NI; i++) begin
      if (i < nissue) begin
        if (cls_i[i*CW +: CW] == EV4_CLASS_LOAD)   n_load   = n_load + 2'd1;
        if (cls_i[i*CW +: CW] == EV4_CLASS_STORE)  n_store  = n_store + 2'd1;
        if (cls_i[i*CW +: CW] == EV4_CLASS_BRANCH) n_branch = n_branch + 2'd1;
        if (cls_i[i*CW +: CW] == EV4_CLASS_FPOP)   n_fpop   = n_fpop + 2'd1;
        if (cls_i[i*CW +: CW] == EV4_CLASS_INTOP)  n_intop  = n_intop + 2'd1;
      end
    end
  end

  // ---- the kind's amount: halves for the half kinds, events for the others ------------------
  logic [1:0] amount;
  logic       half_kind;

  always_comb begin
    half_kind = 1'b0;
    amount    = '0;
    case (kind)
      EV4_KIND_ISSUES: begin
        half_kind = 1'b1;
        amount    = nissue;
      end
      EV4_KIND_NONISSUES: begin
        half_kind = 1'b1;
        amount    = MaxIssue - nissue;
      end
      EV4_KIND_PIPEDRY:    amount = {1'b0, none_issued && stall_i == EV4_STALL_DRY};
      EV4_KIND_PIPEFROZEN: amount = {1'b0, none_issued && stall_i == EV4_STALL_FROZEN};
      EV4_KIND_LOADS:      amount = n_load;
      EV4_KIND_BRANCHES:   amount = n_branch;
      EV4_KIND_CYCLES:     amount = 2'd1;
      EV4_KIND_PALCYCLES:  amount = {1'b0, mode_i == EV4_MODE_PAL};
      EV4_KIND_PIN0:       amount = {1'b0, pin0_i};
      EV4_KIND_DCACHE:     amount = {1'b0, dmiss_i};
      EV4_KIND_ICACHE:     amount = {1'b0, imiss_i};
      EV4_KIND_DUAL:       amount = {1'b0, nissue == MaxIssue};
      EV4_KIND_MISPREDICT: amount = {1'b0, mispredict_i};
      EV4_KIND_FPOPS:      amount = n_fpop;
      EV4_KIND_INTOPS:     amount = n_intop;
      EV4_KIND_STORES:     amount = n_store;
      EV4_KIND_PIN1:       amount = {1'b0, pin1_i};
      default:             amount = '0;  // NONE: an undefined code
    endcase
  end

  assign inc_o = Halves ? (half_kind ? {1'b0, amount} : {amount, 1'b0})
                        : (half_kind ? {2'b00, amount[1]} : {1'b0, amount});

endmodule
