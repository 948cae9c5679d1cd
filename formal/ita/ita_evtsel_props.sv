`include "ita_defines.vh"

// Formal properties of the Itanium / Itanium 2 event select and counting (docs/formal.md): a
// counter never advances by more than its event's maxincr in one cycle. A formal-only
// checker: a counter's counting path is assembled here from the unchanged modules, wired as
// ita_pmu wires them: ita_pmc_gen (its PMC), ita_evt_sel (the event's n from the record),
// ita_cnt_qual (enable and threshold) and ita_counter (its PMD). ita_evtsel_props checks
// PMC4/PMD4 (the counter every modelled event may use) of both models at once (Itanium,
// 32-bit counters; Itanium 2, 47-bit); a counter costs the solver as much again.
//
// Every input is free (anyseq), under the limits of what the machine produces in one cycle:
// the record in flight (power state, recirculations, the slots and their flags, each slot's
// qualification tags, the EAR and BTB captures, the general events), PMC0.fr, the privilege,
// PSR, and the register port (at most one of PMC4..7, PMD4..7 a clock). The assumptions
// (below, "the machine's per-cycle limits") are the stream's validation rules
// (docs/ita-stream-format.md, "Validation"), each bounded by this model's own maxincr of the
// event that counts it (libpfm-3 `itanium2_events.h`, `itanium_events.h`, libpfm_itanium2(3):
// maxincr, the most occurrences of the event in a cycle; build/gen/ita/ita_evt_maxincr.svh).
// The counter starts in any state; the event select and its PMC start from reset (below).

// An event select decodes its PMC when the PMC is written and keeps the decode in flops
// beside it (docs/ita-rtl.md, "The event select, decoded at the write"). From any state
// those flops could disagree with the PMC they were decoded from, which no run reaches, so a
// second ita_evt_sel (the oracle) decodes the stored PMC every clock, and the checker asserts
// that the two decodes agree (an invariant, proven with the property: it makes the induction
// close). The decode flops are read through the probe wires, which
// formal/ita/ita_evtsel_probes.ys connects after flattening (the RTL has no port for them).
//
// Each property sits in an `ifdef PROP_<name> block with its cover; formal/run.sh selects
// one with -D. Sources: docs/sources.md (libpfm-3 maxincr; SDM2 §7.2.1 generic counters);
// ita-semantics.md ("A step clock", step 3).
module ita_evtsel_model #(
  parameter int Model = 1,  // 0 = Itanium, 1 = Itanium 2
  parameter int Ctr   = 0   // the counter checked: PMC/PMD(4 + Ctr)
) (
  input logic clk_i
);

  `include "ita_defs.vh"

  localparam bit          Ita   = (Model == 0);
  localparam int          W     = Ita ? $clog2(ITA_PMD4_7_WMASK_ITA + 64'd1)
                                      : $clog2(ITA_PMD4_7_WMASK_ITA2 + 64'd1);
  localparam int          NCnt  = ITA_F_PMC0_OVF_W;
  localparam int          First = ITA_F_PMC0_OVF_LSB;
  localparam int          NW    = 10;   // as ita_pmu
  localparam int          NS    = `ITA_MAX_SLOTS;
  localparam int          NX    = `ITA_MAX_XEV;
  localparam int          SfW   = `ITA_SF_WIDTH;
  // The decode flops of ita_evt_sel: {kind, slots, gated, all, val, any, qualification select}.
  localparam int          DecW  = ITA_KIND_W + 2 + 3 * SfW + 4 * 4 + 4;

  // ---- the event table's maxincr (build/gen/ita/ita_evt_maxincr.svh) ------------------------
  // The most modelled event (code, umask) of this model adds in a cycle; 0 for another pair.
  function automatic logic [7:0] maxincr_of(input logic [7:0] code, input logic [3:0] umask);
    logic [7:0] m;
    m = 8'd0;
`define ITA_EVT_MAXINCR(MODEL, NAME, CODE, UMASK, MAXINCR, KIND) \
    if (Model == MODEL && code == CODE && umask == UMASK && 8'(MAXINCR) > m) m = 8'(MAXINCR);
    `include "ita_evt_maxincr.svh"
`undef ITA_EVT_MAXINCR
    maxincr_of = m;
  endfunction

  // The maxincr of this model's events of a kind (the largest), or NS when it has none.
  function automatic logic [7:0] kind_max(input logic [ITA_KIND_W-1:0] kind);
    logic [7:0] m;
    logic       seen;
    m    = 8'd0;
    seen = 1'b0;
`define ITA_EVT_MAXINCR(MODEL, NAME, CODE, UMASK, MAXINCR, KIND) \
    if (Model == MODEL && KIND == kind) begin seen = 1'b1; if (8'(MAXINCR) > m) m = 8'(MAXINCR); end
    `include "ita_evt_maxincr.svh"
`undef ITA_EVT_MAXINCR
    kind_max = seen ? m : 8'(NS);
  endfunction

  // ---- free inputs --------------------------------------------------------------------------
  (* anyseq *) logic                 step, fr, is, up, pp;
  (* anyseq *) logic [1:0]           cpl, power;
  (* anyseq *) logic [2:0]           recirc, nslots;
  (* anyseq *) logic [NS*SfW-1:0]    slot_flags;
  (* anyseq *) logic [NS*16-1:0]     slot_inst_q;
  (* anyseq *) logic [NS*4-1:0]      slot_mem_q;
  logic [NS*32-1:0]                  slot_tags;  // each slot's {inst_q, mem_q} word
  for (genvar s = 0; s < NS; s++) begin : g_tags
    assign slot_tags[s*32 +: 32] = {12'd0, slot_inst_q[s*16 +: 16], slot_mem_q[s*4 +: 4]};
  end
  (* anyseq *) logic                 iear_cap, dear_cap, btb_cap;
  (* anyseq *) logic [NX-1:0]        xev_valid, xev_qual;
  (* anyseq *) logic [NX*8-1:0]      xev_code, xev_count;
  (* anyseq *) logic [NX*4-1:0]      xev_umask;
  (* anyseq *) logic [2*NCnt-1:0]    we;      // PMC(4+k) at k, PMD(4+k) at NCnt+k: at most one
  (* anyseq *) logic [63:0]          wdata;

  always @* assume ($onehot0(we));

  // ---- the machine's per-cycle limits (docs/ita-stream-format.md, "Validation") ------------
  // A record has at most ITA_MAX_SLOTS slots; among its valid slots, the ones that carry a
  // modelled event are at most that event's maxincr (retired instructions, nops and
  // predicated-off ones are bounded by the slots); recirculations at most L2_FORCE_RECIRC_ANY's;
  // the general events below, per counter. The EAR and BTB captures are one bit each
  // (maxincr 1).
  logic [NS-1:0] valid;
  assign valid = ~({NS{1'b1}} << nslots);

  function automatic logic [3:0] slots_with(input logic [SfW-1:0] all, input logic [SfW-1:0] any);
    logic [3:0] c;
    c = 4'd0;
    for (int s = 0; s < NS; s++) begin
      if (valid[s] && (slot_flags[s*SfW +: SfW] & all) == all &&
          (any == '0 || (slot_flags[s*SfW +: SfW] & any) != '0)) c = c + 4'd1;
    end
    slots_with = c;
  endfunction

  function automatic logic [SfW-1:0] f(input int lsb);
    f = {{(SfW - 1){1'b0}}, 1'b1} << lsb;
  endfunction

  always @* begin
    assume (nslots <= 3'(NS));
    assume (recirc <= kind_max(ITA_KIND_RECIRC));
    assume (8'(slots_with(f(ITA_SF_LOAD_LSB), '0)) <= kind_max(ITA_KIND_LOADS));
    assume (8'(slots_with(f(ITA_SF_STORE_LSB), '0)) <= kind_max(ITA_KIND_STORES));
    assume (8'(slots_with(f(ITA_SF_FP_LSB), '0)) <= kind_max(ITA_KIND_FP_OPS));
    assume (8'(slots_with(f(ITA_SF_LOAD_LSB) | f(ITA_SF_L1D_MISS_LSB), '0)) <= kind_max(ITA_KIND_L1D_MISS));
    assume (8'(slots_with(f(ITA_SF_LOAD_LSB) | f(ITA_SF_L1D_MISS_LSB) | f(ITA_SF_RSE_LSB), '0))
            <= kind_max(ITA_KIND_L1D_RSE));
    assume (8'(slots_with(f(ITA_SF_L2_MISS_LSB), '0)) <= kind_max(ITA_KIND_L2_MISS));
    assume (8'(slots_with(f(ITA_SF_L2_REF_LSB), '0)) <= kind_max(ITA_KIND_L2_REF));
    assume (8'(slots_with('0, f(ITA_SF_BR_TYPE_LSB) | f(ITA_SF_BR_TYPE_MSB))) <= kind_max(ITA_KIND_BR_DETAIL));
  end

  // ---- what a record may hold (docs/ita-stream-format.md, "Validation": flag consistency) ------
  // Each valid slot's flags are a record's: no bit outside the flags (ALAT_MISS is the top
  // one), an L1D miss, an RSE fill and an ALAT miss are a load's, an L2 reference is an
  // access's and an L2 miss an L2 reference's, a nop or squashed slot is no access, fp or
  // branch, a prediction or taken bit is a branch's; in the halt states nothing retires. The
  // stream reader refuses any other record, so a counterexample is one `pmusim cex2replay`
  // replays as it is (docs/formal.md, "The Itanium's replay").
  always @* begin
    assume (power < 2'd2 || nslots == 3'd0);
    for (int s = 0; s < NS; s++) begin
      if (valid[s]) begin
        logic [SfW-1:0] fl;
        logic           acc;
        fl  = slot_flags[s*SfW +: SfW];
        acc = fl[ITA_SF_LOAD_LSB] || fl[ITA_SF_STORE_LSB];
        assume ((fl >> (ITA_SF_ALAT_MISS_LSB + 1)) == '0);
        assume (!(fl[ITA_SF_L1D_MISS_LSB] || fl[ITA_SF_RSE_LSB] || fl[ITA_SF_ALAT_MISS_LSB]) ||
                fl[ITA_SF_LOAD_LSB]);
        assume (!fl[ITA_SF_L2_REF_LSB] || acc);
        assume (!fl[ITA_SF_L2_MISS_LSB] || fl[ITA_SF_L2_REF_LSB]);
        assume (!(fl[ITA_SF_NOP_LSB] || fl[ITA_SF_PRED_OFF_LSB]) ||
                !(acc || fl[ITA_SF_FP_LSB] || fl[ITA_SF_BR_TYPE_MSB:ITA_SF_BR_TYPE_LSB] != 2'd0));
        assume (!(fl[ITA_SF_BR_PRED_MSB:ITA_SF_BR_PRED_LSB] != 2'd0 || fl[ITA_SF_TAKEN_LSB]) ||
                fl[ITA_SF_BR_TYPE_MSB:ITA_SF_BR_TYPE_LSB] != 2'd0);
      end
    end
  end

  // ---- the datapath, as in ita_pmu -------------------------------------------------------------
  // The event select and its PMC start from reset (a run does): a free start state could
  // hold a decode no PMC write made. The induction, which never sees the initial state,
  // has the invariant dec_ok instead.
  logic              sel_rst_n;
  assign sel_rst_n = !$initstate;

  logic              past_valid = 1'b0;
  logic [2*NCnt-1:0] was_we;
  logic [63:0]       was_wdata;
  always @(posedge clk_i) begin
    past_valid <= 1'b1;
    was_we     <= we;
    was_wdata  <= wdata;
  end

  logic at_max;   // the counter advanced by exactly its event's maxincr > 1
  logic over;     // ... by more than its event's maxincr
  logic dec_ok;   // its event select's decode flops hold the stored PMC's decode

  for (genvar k = Ctr; k <= Ctr; k++) begin : g_cnt
    localparam logic [63:0] PmcReset = Ita ? ITA_CNT_CFG_RESET_ITA[k*64 +: 64]
                                           : ITA_CNT_CFG_RESET_ITA2[k*64 +: 64];
    localparam logic [63:0] PmcWmask = Ita ? ITA_CNT_CFG_WMASK_ITA[k*64 +: 64]
                                           : ITA_CNT_CFG_WMASK_ITA2[k*64 +: 64];

    logic [63:0]   pmc, pmc_next;
    logic [NW-1:0] n, inc;
    // The oracle's outputs are kept through prep, so that its decode flops are still there
    // for the probes; formal/ita/ita_evtsel_probes.ys then drops them.
    (* keep *) logic [NW-1:0] n_oracle;
    logic          en, carry;
    logic [31:0]   en_tab, en_tab_oracle;
    logic [W-1:0]  cnt, was_cnt, cq, adv;
    logic [7:0]    mi_tab, mi;
    logic          mod;
    // The maxincr of a general event (an event the record does not count itself): free. The
    // stream bounds its counts by it (below), so a property that holds for every bound holds
    // for the table's.
    (* anyseq *) logic [7:0] mi_gen;
    // The decode flops of u_evt_sel and u_oracle (connected by ita_evtsel_probes.ys).
    logic [DecW-1:0] probe_dec, probe_oracle;

    ita_pmc_gen #(
      .ResetValue (PmcReset),
      .WriteMask  (PmcWmask)
    ) u_pmc (
      .clk_i   (clk_i),
      .rst_ni  (sel_rst_n),
      .wr_i    (|we),
      .sel_i   (we[k]),
      .wdata_i (wdata),
      .q_o     (pmc)
    );

    ita_evt_sel #(
      .Model    (Model),
      .Counter  (First + k),
      .NW       (NW),
      .PmcReset (PmcReset),
      .PmcWmask (PmcWmask)
    ) u_evt_sel (
      .clk_i         (clk_i),
      .rst_ni        (sel_rst_n),
      .wr_i          (|we),
      .pmc_sel_i     (we[k]),
      .pmc_wdata_i   (wdata),
      .pmc_i         (pmc),
      .power_i       (power),
      .recirc_i      (recirc),
      .nslots_i      (nslots),
      .slot_flags_i  (slot_flags),
      .slot_tags_i   (slot_tags),
      .iear_cap_i    (iear_cap),
      .dear_cap_i    (dear_cap),
      .btb_cap_i     (btb_cap),
      .xev_valid_i   (xev_valid),
      .xev_code_i    (xev_code),
      .xev_umask_i   (xev_umask),
      .xev_count_i   (xev_count),
      .xev_qual_i    (xev_qual),
      .n_o           (n),
      .en_tab_o      (en_tab)
    );

    // The oracle: decodes, at every clock, the PMC the next clock stores.
    assign pmc_next = we[k] ? ((wdata & PmcWmask) | (PmcReset & ~PmcWmask)) : pmc;

    ita_evt_sel #(
      .Model    (Model),
      .Counter  (First + k),
      .NW       (NW),
      .PmcReset (PmcReset),
      .PmcWmask (PmcWmask)
    ) u_oracle (
      .clk_i         (clk_i),
      .rst_ni        (sel_rst_n),
      .wr_i          (1'b1),
      .pmc_sel_i     (1'b1),
      .pmc_wdata_i   (pmc_next),
      .pmc_i         (pmc),
      .power_i       (power),
      .recirc_i      (recirc),
      .nslots_i      (nslots),
      .slot_flags_i  (slot_flags),
      .slot_tags_i   (slot_tags),
      .iear_cap_i    (iear_cap),
      .dear_cap_i    (dear_cap),
      .btb_cap_i     (btb_cap),
      .xev_valid_i   (xev_valid),
      .xev_code_i    (xev_code),
      .xev_umask_i   (xev_umask),
      .xev_count_i   (xev_count),
      .xev_qual_i    (xev_qual),
      .n_o           (n_oracle),
      .en_tab_o      (en_tab_oracle)
    );

    ita_cnt_qual #(
      .NW    (NW),
      .ThrGe (1'b0)
    ) u_cnt_qual (
      .pmc_i    (pmc),
      .en_tab_i (en_tab),
      .step_i   (step),
      .fr_i     (fr),
      .cpl_i    (cpl),
      .is_i     (is),
      .psr_up_i (up),
      .psr_pp_i (pp),
      .n_i      (n),
      .en_o     (en),
      .inc_o    (inc)
    );

    ita_counter #(
      .Width    (W),
      .IncWidth (NW)
    ) u_counter (
      .clk_i   (clk_i),
      .rst_ni  (1'b1),
      .we_i    (we[NCnt + k]),
      .wdata_i (wdata[W-1:0]),
      .en_i    (en),
      .inc_i   (inc),
      .cnt_o   (cnt),
      .carry_o (carry)
    );

    // The count this clock's record starts from: what a read showed in the clock before, or
    // what that clock's PMD write stored; the advance is modulo 2^W (a wrap is an advance).
    always @(posedge clk_i) was_cnt <= cnt;
    assign cq  = was_we[NCnt + k] ? was_wdata[W-1:0] : was_cnt;
    assign adv = cnt - cq;
    assign mi_tab = maxincr_of(pmc[ITA_F_PMC_GEN_ES_MSB:ITA_F_PMC_GEN_ES_LSB],
                               pmc[ITA_F_PMC_GEN_UMASK_MSB:ITA_F_PMC_GEN_UMASK_LSB]);
    assign mod    = mi_tab != 8'd0;
    assign mi     = mod ? mi_tab : mi_gen;
    assign at_max = mod && adv == W'(mi) && mi > 8'd1;

    // The general events of this counter's event (docs/ita-stream-format.md, "Validation": a
    // general event is none the record counts itself, and one event's counts in a cycle add
    // to at most its maxincr). Only the entries this counter's event select compares matter,
    // so the limit is assumed for its event alone: a weaker assumption than the stream's.
    always @* begin
      logic [9:0] sum;
      sum = 10'd0;
      for (int i = 0; i < NX; i++) begin
        if (xev_valid[i] && xev_code[i*8 +: 8] == pmc[ITA_F_PMC_GEN_ES_MSB:ITA_F_PMC_GEN_ES_LSB] &&
            xev_umask[i*4 +: 4] == pmc[ITA_F_PMC_GEN_UMASK_MSB:ITA_F_PMC_GEN_UMASK_LSB])
          sum = sum + 10'(xev_count[i*8 +: 8]);
      end
      assume (sum <= (mod ? 10'd0 : 10'(mi_gen)));
    end

    assign over   = adv > W'(mi);
    assign dec_ok = probe_dec == probe_oracle;
  end

  // Immediate assertions (always @*): each step's values are checked in that step.
  always @* begin
    if (past_valid) begin
`ifdef PROP_ctr_step_maxincr
      // killed by: br-detail-any-slot
      // smtbmc: --unroll -S combined_solver.solver2_timeout=200
      // yosys: script formal/ita/ita_evtsel_probes.ys
      // A counter never advances by more than its event's maxincr in one cycle (libpfm-3
      // itanium2_events.h, itanium_events.h, man pages libpfm_itanium2(3), libpfm_itanium(3);
      // VTune): the event PMC(4+k) stores, the one this clock's record counts under. With
      // it, the invariant that makes the induction close: the decode the record counts under
      // is the stored PMC's.
      assert (!over);
      assert (dec_ok);
      cover (at_max);
`endif
    end
  end

endmodule

// The checker: both models side by side (independent inputs, one clock).
module ita_evtsel_props (
  input logic clk_i
);
  ita_evtsel_model #(.Model(0), .Ctr(0)) u_itanium  (.clk_i(clk_i));
  ita_evtsel_model #(.Model(1), .Ctr(0)) u_itanium2 (.clk_i(clk_i));
endmodule
