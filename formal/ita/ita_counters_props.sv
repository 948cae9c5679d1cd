`include "ita_defines.vh"

// Formal properties of the Itanium / Itanium 2 generic counters and PMC0 (docs/formal.md).
// A formal-only checker: the whole ita_pmu is too big for the solver, so each model's
// counting datapath is assembled here from the unchanged modules, wired as ita_pmu wires
// them: four ita_cnt_qual / ita_counter pairs (PMD4..7) and ita_ovf_ctrl (PMC0: fr, the
// sticky overflow bits, the interrupt), with each model's widths, reset values and
// writable masks. ita_counters_props checks both models at once (Itanium, 32-bit counters;
// Itanium 2, 47-bit). What the checker sees is what a read returns (cnt_o, pmc0_o: the
// register with this clock's record applied) and the interrupt line.
//
// Every input is free (anyseq): the record in flight (step, privilege, PSR, the event count
// n of each counter, up to the largest maxincr: MaxN below), each counter's PMC (oi, threshold, its decoded plm / ism / pm table)
// and the register port; at most one register is written in a clock, and a write may come
// with the record in flight, as inside ita_pmu (docs/ita-rtl.md, "The record in flight").
// The flops start in any state and reset is held inactive, so a counter may start next to
// its wrap and k-induction makes a proof unbounded.
//
// Each property sits in an `ifdef PROP_<name> block with its cover; formal/run.sh selects
// one with -D. Sources: docs/sources.md (SDM2 §7.2.1 generic counters, §7.2.2 PMC0 fr and
// overflow bits); the rules are docs/ita-semantics.md's ("Register writes", "5. Counting
// and overflow").
module ita_counters_model #(
  parameter int Model = 1   // 0 = Itanium, 1 = Itanium 2
) (
  input logic clk_i
);

  `include "ita_defs.vh"

  localparam bit          Ita      = (Model == 0);
  localparam int          W        = Ita ? $clog2(ITA_PMD4_7_WMASK_ITA + 64'd1)
                                         : $clog2(ITA_PMD4_7_WMASK_ITA2 + 64'd1);
  localparam int          NCnt     = ITA_F_PMC0_OVF_W;
  localparam int          NW       = 10;   // as ita_pmu
  localparam int          Ovf      = ITA_F_PMC0_OVF_LSB;
  localparam int          Fr       = ITA_F_PMC0_FR_LSB;
  localparam logic [63:0] P0Reset  = Ita ? ITA_PMC0_RESET_ITA : ITA_PMC0_RESET_ITA2;
  localparam logic [63:0] P0Wmask  = Ita ? ITA_PMC0_WMASK_ITA : ITA_PMC0_WMASK_ITA2;
  localparam logic [63:0] StickyMask =
    ({{(64 - NCnt){1'b0}}, {NCnt{1'b1}}} << Ovf) | (64'd1 << Fr);

  // ---- free inputs --------------------------------------------------------------------------
  (* anyseq *) logic              step;       // a record in flight at this clock
  (* anyseq *) logic [1:0]        cpl;
  (* anyseq *) logic              is;
  (* anyseq *) logic              up, pp;     // the effective PSR of the record
  (* anyseq *) logic [NCnt:0]     we;         // PMD(4+k) at k, PMC0 at NCnt: at most one
  (* anyseq *) logic [63:0]       wdata;
  (* anyseq *) logic [NCnt*64-1:0] pmc;       // PMC(4+k): oi and thres
  (* anyseq *) logic [NCnt*32-1:0] en_tab;    // its plm / ism / pm, decoded (ita_evt_sel)
  (* anyseq *) logic [NCnt*NW-1:0] n;         // occurrences of its event in the record

  always @* assume ($onehot0(we));

  // What one record adds to a counter: no event occurs more than its maxincr times in a
  // cycle, and no event of either model's table has a maxincr above MaxN (libpfm-3
  // itanium2_events.h: RSE_CURRENT_REGS_* and RSE_DIRTY_REGS_*; the stream's validation
  // holds a record's counts to it, docs/ita-stream-format.md "Validation"). Within it, a
  // counterexample's counts are counts of general events a record can carry, so
  // `pmusim cex2replay` replays it (docs/formal.md, "The Itanium's replay").
  localparam int MaxN = 7;
  for (genvar k = 0; k < NCnt; k++) begin : g_n
    always @* assume (n[k*NW +: NW] <= MaxN);
  end

  // ---- the datapath, as in ita_pmu -------------------------------------------------------------
  logic [NCnt-1:0]   carry, oi, en;
  logic [NCnt*W-1:0] cnt;
  logic [63:0]       pmc0;
  logic              fr, pmi;

  for (genvar k = 0; k < NCnt; k++) begin : g_cnt
    logic [NW-1:0] inc;

    ita_cnt_qual #(
      .NW    (NW),
      .ThrGe (1'b0)
    ) u_cnt_qual (
      .pmc_i    (pmc[k*64 +: 64]),
      .en_tab_i (en_tab[k*32 +: 32]),
      .step_i   (step),
      .fr_i     (fr),
      .cpl_i    (cpl),
      .is_i     (is),
      .psr_up_i (up),
      .psr_pp_i (pp),
      .n_i      (n[k*NW +: NW]),
      .en_o     (en[k]),
      .inc_o    (inc)
    );

    ita_counter #(
      .Width    (W),
      .IncWidth (NW)
    ) u_counter (
      .clk_i   (clk_i),
      .rst_ni  (1'b1),
      .we_i    (we[k]),
      .wdata_i (wdata[W-1:0]),
      .en_i    (en[k]),
      .inc_i   (inc),
      .cnt_o   (cnt[k*W +: W]),
      .carry_o (carry[k])
    );

    assign oi[k] = pmc[k*64 + ITA_F_PMC_GEN_OI_LSB];
  end

  ita_ovf_ctrl #(
    .ResetValue (P0Reset),
    .WriteMask  (P0Wmask),
    .NCounters  (NCnt),
    .FrBit      (Fr),
    .OvfLsb     (Ovf)
  ) u_ovf_ctrl (
    .clk_i   (clk_i),
    .rst_ni  (1'b1),
    .we_i    (we[NCnt]),
    .wdata_i (wdata),
    .carry_i (carry),
    .oi_i    (oi),
    .pmc0_o  (pmc0),
    .fr_o    (fr),
    .pmi_o   (pmi)
  );

  // ---- the clock before, and the registers as stored at this clock -------------------------
  // A read in the clock before showed was_cnt / was_pmc0 (its record applied); the write of
  // that clock then stored its register: (v & wmask) | (reset & ~wmask) (ita-semantics.md,
  // "Register writes"). cq / p0q are the registers this clock's record starts from.
  logic              past_valid = 1'b0;
  logic [NCnt:0]     was_we;
  logic [63:0]       was_wdata, was_pmc0;
  logic [NCnt*W-1:0] was_cnt;
  always @(posedge clk_i) begin
    past_valid <= 1'b1;
    was_we     <= we;
    was_wdata  <= wdata;
    was_pmc0   <= pmc0;
    was_cnt    <= cnt;
  end

  logic [63:0]       p0q;
  logic [NCnt*W-1:0] cq;
  logic [NCnt-1:0]   wrapped, p0q_ovf;
  assign p0q     = was_we[NCnt] ? ((was_wdata & P0Wmask) | (P0Reset & ~P0Wmask)) : was_pmc0;
  assign p0q_ovf = p0q[Ovf +: NCnt];
  for (genvar k = 0; k < NCnt; k++) begin : g_was
    assign cq[k*W +: W] = was_we[k] ? was_wdata[W-1:0] : was_cnt[k*W +: W];
    // Counter k wrapped in this clock: a count only goes up, by less than 2^W, so it wrapped
    // exactly when the read is below the stored count.
    assign wrapped[k]   = cnt[k*W +: W] < cq[k*W +: W];
  end

  // Each property's assertion is a named wire, ok_<name>, that its clocked block asserts: a
  // counterexample's VCD shows which model's fails (`pmusim cex2replay` replays that one).
`ifdef PROP_ovf_set_by_wrap
  // killed by: counter-subtracts
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // An overflow bit of PMC0 is set by hardware only when its counter wraps past
  // 2^W - 1 (SDM2 §7.2.2; ita-semantics.md step 5): a bit the read shows that the
  // stored PMC0 does not have is a counter that wrapped in this clock. (Its oi does
  // not matter: oi decides fr and the interrupt, below.)
  (* keep *) logic ok_ovf_set_by_wrap;
  always @* begin
    ok_ovf_set_by_wrap = 1'b1;
    for (int k = 0; k < NCnt; k++) begin
      if (pmc0[Ovf + k] && !p0q[Ovf + k] && !wrapped[k]) ok_ovf_set_by_wrap = 1'b0;
    end
  end
  always @(posedge clk_i) begin
    if (past_valid) begin
      assert (ok_ovf_set_by_wrap);
      cover (pmc0[Ovf] && !p0q[Ovf] && !oi[0]);
    end
  end
`endif
`ifdef PROP_ovf_sticky
  // killed by: ovf-not-sticky
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // The overflow bits and fr are sticky: hardware only sets them, software clears them
  // (SDM2 §7.2.2): after a clock without a PMC0 write, every bit the read showed before
  // still shows.
  (* keep *) logic ok_ovf_sticky;
  assign ok_ovf_sticky = was_we[NCnt] || (was_pmc0 & ~pmc0 & StickyMask) == 64'd0;
  always @(posedge clk_i) begin
    if (past_valid) begin
      assert (ok_ovf_sticky);
      cover (!was_we[NCnt] && was_pmc0[Ovf] && !pmc0[Fr] && step);
    end
  end
`endif
`ifdef PROP_freeze_holds
  // killed by: freeze-ignored
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // While PMC0.fr is set no counter changes but by a software write (SDM2 §7.2.2: the
  // freeze stops the counters): a record under a stored fr leaves every count, sets no
  // overflow bit and raises no interrupt.
  (* keep *) logic ok_freeze_holds;
  assign ok_freeze_holds = !p0q[Fr] || (cnt == cq && pmc0 == p0q && !pmi);
  always @(posedge clk_i) begin
    if (past_valid) begin
      assert (ok_freeze_holds);
      cover (p0q[Fr] && step && n[NW-1:0] != '0 && en_tab[31:0] == '1 && pmc[0 +: 64] == 64'd0);
    end
  end
`endif
`ifdef PROP_oi_wrap_freezes
  // killed by: carry-stuck-0
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // A counter with oi = 1 that wraps sets PMC0.fr (SDM2 §7.2.2; ita-semantics.md
  // step 5): the read after its wrap shows fr and its overflow bit.
  (* keep *) logic ok_oi_wrap_freezes;
  always @* begin
    ok_oi_wrap_freezes = 1'b1;
    for (int k = 0; k < NCnt; k++) begin
      if (wrapped[k] && oi[k] && !(pmc0[Fr] && pmc0[Ovf + k])) ok_oi_wrap_freezes = 1'b0;
    end
  end
  always @(posedge clk_i) begin
    if (past_valid) begin
      assert (ok_oi_wrap_freezes);
      cover (wrapped[1] && oi[1] && !p0q[Fr] && !p0q[Ovf + 1]);
    end
  end
`endif
`ifdef PROP_pmi_on_oi_wrap
  // killed by: pmi-every-carry
  // smtbmc: --unroll -S combined_solver.solver2_timeout=200
  // The interrupt is raised exactly by an oi counter's wrap whose overflow bit was clear
  // (SDM2 §7.2.2; edge-triggered on the 0->1 of the bit: ita-semantics.md step 5), and
  // never by anything else: not by a write, not by a counter without oi.
  (* keep *) logic ok_pmi_on_oi_wrap;
  assign ok_pmi_on_oi_wrap = pmi == |(wrapped & oi & ~p0q_ovf);
  always @(posedge clk_i) begin
    if (past_valid) begin
      assert (ok_pmi_on_oi_wrap);
      cover (pmi && p0q_ovf == '0);
      cover (wrapped[2] && oi[2] && p0q_ovf[2] && !pmi);
    end
  end
`endif

endmodule

// The checker: both models side by side (independent inputs, one clock).
module ita_counters_props (
  input logic clk_i
);
  ita_counters_model #(.Model(0)) u_itanium  (.clk_i(clk_i));
  ita_counters_model #(.Model(1)) u_itanium2 (.clk_i(clk_i));
endmodule
