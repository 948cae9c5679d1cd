// Tag combining of one retired slot (combinational; ita-semantics.md, "Tags", Figure 6-5 of the
// seed): from the primitive matches of the slot and the qualification registers, the
// instruction tags inst_q(k) of the four IBR pairs and the memory qualification, for each
// set of qualifiers an event supports.
//
// An event's iar / opm columns (include/common/ita/ita_regs.def) select the qualifier set c = {iar, opm}:
//   inst_q_o[c*4 + k] = (iar ? r_k : 1) && (opm ? o_k : 1)
//   mem_q_o[c]        = the memory qualification (dar = 1 events) built on those inst_q(k)
// so that the event select of every counter only picks bits and the tag logic exists once per
// slot. An IA-32 slot (is_i = 1) is never constrained: every output is 1.
//
// Only a slot that retires in this clock (en_i) is combined: the per-slot work sits in one
// gated always_comb, so that Verilator skips it for the slots past nslots (docs/bench.md,
// "Only the slots that retire"). The outputs of a slot that does not retire are 0; every
// consumer tests the slot's validity itself. (Each variable of the gated blocks is written once
// per evaluation, in one branch or the other: Icarus 11 re-runs an always_comb when a variable
// it reads changes during its own run, so a default followed by an override would loop.)
//
// Itanium 2 (Model 1): range tag r_k from PMC14.ibrp_k, PMC8.ig_ad / inv (pairs 0 and 2) and
// the normal-mode IBR hit or, with PMC14.fine, the fine-mode range hit (A for pairs 0 and 2,
// B for 1 and 3); opcode tag o_k from PMC15 bit k and PMC8 (k even) or PMC9 (k odd); memory
// qualification from PMC13's cfg_dbrp_k / ena_dbrp_k.
// Itanium (Model 0): r_k = PMC13.ta || any IBR hit; o_k = PMC8 (k even) or PMC9 (k odd);
// memory qualification inst_q(0) && (PMC11.pt || any DBR hit).
module ita_tag_qual #(
  parameter int Model = 1   // 0 = Itanium, 1 = Itanium 2
) (
  input  logic        en_i,         // the slot retires in this clock
  input  logic        is_i,         // 0 IA-64, 1 IA-32
  input  logic [3:0]  ibr_hit_i,    // normal-mode match of IBR pair k
  input  logic [1:0]  fine_hit_i,   // fine-mode match of range A (pairs 0+2), B (pairs 1+3)
  input  logic [3:0]  dbr_hit_i,    // match of DBR pair k
  input  logic [1:0]  opm_hit_i,    // match of opcode matcher PMC8 (bit 0), PMC9 (bit 1)
  // The qualification registers' fields, decoded (ita_qual_cfg):
  input  logic        ig_ad_i,       // PMC8.ig_ad
  input  logic        inv_i,         // PMC8.inv
  input  logic        pass_data_i,   // PMC11.pt (Itanium)
  input  logic        tag_all_i,     // PMC13.ta (Itanium)
  input  logic [3:0]  pair_active_i, // PMC13: pair k active, requiring inst_q(k) (need_iq) and
  input  logic [3:0]  need_iq_i,     // a DBR pair k hit (need_dbr)
  input  logic [3:0]  need_dbr_i,
  input  logic        fine_i,        // PMC14.fine
  input  logic [3:0]  ibrp_free_i,   // PMC14.ibrp_k = 1: pair k does not constrain
  input  logic [3:0]  opc_free_i,    // PMC15 bit k = 1: no opcode matcher for pair k
  output logic [15:0] inst_q_o,     // inst_q(k) of qualifier set c = {iar, opm} at [c*4 + k]
  output logic [3:0]  mem_q_o       // memory qualification of qualifier set c
);

  `include "ita_defs.vh"

  localparam bit Ita    = (Model == 0);
  localparam int NPairs = 4;   // IBR0..7 and DBR0..7 form four pairs each
  localparam int NSets  = 4;   // qualifier sets {iar, opm}

  logic [NPairs-1:0]       r_tag, o_tag;  // range and opcode tag of pair k
  logic [NSets*NPairs-1:0] inst_q;        // inst_q(k) of set c at [c*NPairs + k]
  logic [NSets-1:0]        mem_q;         // memory qualification of set c
  // Pair 0's bit, tested by mask (Icarus 11 does not support constant selects in always_*
  // processes).
  localparam logic [NPairs-1:0] Pair0 = 4'b0001;

  // The tags are formed as 4-bit vectors over the pairs (one operation per set, not one per
  // bit: Verilator evaluates this for every retiring slot in every clock; docs/bench.md).
  // inst_q(k) = (iar ? r_k : 1) && (opm ? o_k : 1), sets c = {iar, opm} = 0, 1, 2, 3:
  //   inst_q = {r & o, r, o, 1111}
  // (written out in each model's block: a function called from an always_comb makes Icarus 11
  // re-run the blocks of two instances of this module against each other without end).

  // The opcode matcher of pair k: PMC8 for even k, PMC9 for odd k.
  logic [NPairs-1:0] opm_pair;
  assign opm_pair = {2{opm_hit_i[1], opm_hit_i[0]}};

  if (Ita) begin : g_ita
    // ---- Itanium (Merced): Table 6-3 of the seed ------------------------------------------
    logic tag_all, pass_data;

    assign tag_all   = tag_all_i;     // 1: no instruction-address check
    assign pass_data = pass_data_i;   // 1: no data-address check

    always_comb begin
      if (en_i) begin
        // One IBRRangeTag for all pairs: any IBR pair matches.
        r_tag  = {NPairs{tag_all || (|ibr_hit_i)}};
        o_tag  = opm_pair;
        inst_q = {r_tag & o_tag, r_tag, o_tag, {NPairs{1'b1}}};
        // Tag(PMC8) of each set, i.e. inst_q(c, 0) = {r & o, r, o, 1} of pair 0, and the
        // data-address check (one vector operation, not one per set: docs/bench-history.md,
        // "Eighteenth round").
        mem_q  = {|(r_tag & o_tag & Pair0), |(r_tag & Pair0), |(o_tag & Pair0), 1'b1} &
                 {NSets{pass_data || (|dbr_hit_i)}};
        inst_q_o = is_i ? '1 : inst_q;  // (see "IA-32 slots" below)
        mem_q_o  = is_i ? '1 : mem_q;
      end else begin
        {r_tag, o_tag, inst_q, mem_q, inst_q_o, mem_q_o} = '0;
      end
    end

  end else begin : g_ita2
    // ---- Itanium 2: per-pair selection by PMC14, PMC15 and PMC13 ---------------------------
    logic [NPairs-1:0]   ibrp_free;  // PMC14.ibrp_k = 1: pair k does not constrain
    logic [NPairs-1:0]   opc_free;   // PMC15 bit k = 1: no opcode matcher for pair k
    logic [NPairs-1:0]   need_iq;    // an active pair k requires inst_q(k)
    logic [NPairs-1:0]   need_dbr;   // ... and a DBR pair k hit
    logic [NPairs-1:0]   pair_active, data_ok;
    logic [NPairs-1:0]   fine_pairs;  // the fine-mode range hit of each pair
    logic [NPairs-1:0]   ig_ad_p, inv_p;  // PMC8.ig_ad / inv on the pairs tied to PMC8
    logic                fine, any_active;
    localparam logic [NPairs-1:0] EvenPairs = 4'b0101;

    assign ibrp_free   = ibrp_free_i;
    assign opc_free    = opc_free_i;
    assign pair_active = pair_active_i;
    assign need_iq     = need_iq_i;
    assign need_dbr    = need_dbr_i;
    assign fine        = fine_i;

    // Fine mode: pairs 0 and 2 bound range A, pairs 1 and 3 range B.
    assign fine_pairs = {2{fine_hit_i[1], fine_hit_i[0]}};
    // Pairs 0 and 2 are tied to PMC8, whose ig_ad and inv act on their range tag.
    assign ig_ad_p    = {NPairs{ig_ad_i}} & EvenPairs;
    assign inv_p      = {NPairs{inv_i}} & EvenPairs;
    // PMC13 is active when some pair has ena_dbrp = 1 and cfg_dbrp != 3.
    assign any_active = |pair_active;

    always_comb begin
      if (en_i) begin
        r_tag   = ig_ad_p | ibrp_free | ((fine ? fine_pairs : ibr_hit_i) ^ inv_p);
        o_tag   = opc_free | opm_pair;
        inst_q  = {r_tag & o_tag, r_tag, o_tag, {NPairs{1'b1}}};
        // An active pair k passes a memory access when what its cfg_dbrp_k requires holds:
        // the DBR hit (need_dbr) here, inst_q(c, k) (need_iq) per set below.
        data_ok = pair_active & (~need_dbr | dbr_hit_i);
        // PMC13 not active: memory events are qualified like any event, by Tag(PMC8) =
        // inst_q(0). Set c's inst_q is {r & o, r, o, 1111} (above); one vector operation
        // for the four sets, not one per set (docs/bench-history.md, "Eighteenth round").
        mem_q   = any_active ? {|(data_ok & (~need_iq | (r_tag & o_tag))),
                                |(data_ok & (~need_iq | r_tag)),
                                |(data_ok & (~need_iq | o_tag)),
                                |data_ok}
                             : {|(r_tag & o_tag & Pair0), |(r_tag & Pair0), |(o_tag & Pair0), 1'b1};
        inst_q_o = is_i ? '1 : inst_q;  // (see "IA-32 slots" below)
        mem_q_o  = is_i ? '1 : mem_q;
      end else begin
        {r_tag, o_tag, inst_q, data_ok, mem_q, inst_q_o, mem_q_o} = '0;
      end
    end
  end

  // IA-32 slots: the IA-64-only checks are disabled and do not constrain: each model's block
  // above gives a retiring IA-32 slot (is_i) every output 1. (Formed there, in the gated
  // branch: as continuous assignments the Verilated model formed them for every slot in every
  // clock; docs/bench-history.md, "Eighteenth round".)

endmodule
