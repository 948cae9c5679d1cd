`include "ev4_defines.vh"

// Formal properties of the Alpha 21064 counter block (docs/formal.md). A formal-only
// checker: it instantiates the unchanged top ev4_pmu (default parameters: the 21064 with
// PME bits, 16- and 12-bit counters) and watches it through its outputs only (obs_vis_o
// shows ICCSR, HIRR, HIER, CTR0 and CTR1 as reads return them). Every input of the checker
// is free; the solver picks the records and writes.
//
// Each property sits in an `ifdef PROP_<name>` block with its cover (the trigger it
// needs, so that a proof is not vacuous); formal/run.sh selects one with -D. The flops
// start in any state (no reset in the proof: the counters may start anywhere, so a period
// crossing is within reach of a short BMC); reset is held inactive.
// Sources: docs/sources.md (pfm(7), OSF/1, dc21064.h); the rules are docs/ev4.md's.
module ev4_pmu_props (
  input logic                                   clk_i,
  input logic                                   reg_we_i,
  input logic [`EV4_ADDR_W-1:0]                 reg_addr_i,
  input logic [63:0]                            reg_wdata_i,
  input logic                                   cyc_valid_i,
  input logic [`EV4_MODE_W-1:0]                 mode_i,
  input logic [`EV4_NISSUE_W-1:0]               nissue_i,
  input logic [`EV4_MAX_ISSUE*`EV4_CLASS_W-1:0] cls_i,
  input logic [`EV4_MAX_ISSUE-1:0]              replay_i,
  input logic [`EV4_STALL_W-1:0]                stall_i,
  input logic                                   dmiss_i,
  input logic                                   imiss_i,
  input logic                                   mispredict_i,
  input logic                                   pin0_i,
  input logic                                   pin1_i
);

  `include "ev4_defs.vh"

  logic [63:0]            rdata;
  logic                   pmi;
  logic [`EV4_NVIS*64-1:0] vis;

  ev4_pmu dut (
    .clk_i        (clk_i),
    .rst_ni       (1'b1),
    .reg_we_i     (reg_we_i),
    .reg_addr_i   (reg_addr_i),
    .reg_wdata_i  (reg_wdata_i),
    .reg_rdata_o  (rdata),
    .cyc_valid_i  (cyc_valid_i),
    .mode_i       (mode_i),
    .nissue_i     (nissue_i),
    .cls_i        (cls_i),
    .replay_i     (replay_i),
    .stall_i      (stall_i),
    .dmiss_i      (dmiss_i),
    .imiss_i      (imiss_i),
    .mispredict_i (mispredict_i),
    .pin0_i       (pin0_i),
    .pin1_i       (pin1_i),
    .pmi_o        (pmi),
    .obs_vis_o    (vis)
  );

  // ---- what the checker sees ------------------------------------------------------------------
  logic [63:0] iccsr, hirr, hier, ctr0, ctr1;
  assign iccsr = vis[EV4_VIS_ICCSR*64 +: 64];
  assign hirr  = vis[EV4_VIS_HIRR*64 +: 64];
  assign hier  = vis[EV4_VIS_HIER*64 +: 64];
  assign ctr0  = vis[EV4_VIS_CTR0*64 +: 64];
  assign ctr1  = vis[EV4_VIS_CTR1*64 +: 64];

  localparam int W0 = EV4_CTR0_WIDTH;
  localparam int W1 = EV4_CTR1_WIDTH;

  // Counter 0 as halves {COUNT, HALF}; counter 1 as events.
  logic [W0:0]   pair0;
  logic [W1-1:0] cnt1;
  assign pair0 = {ctr0[EV4_F_CTR0_COUNT_LSB +: W0], ctr0[EV4_F_CTR0_HALF_LSB]};
  assign cnt1  = ctr1[EV4_F_CTR1_COUNT_LSB +: W1];

  // The harness's contract (docs/ev4.md, "RTL"): a clock is a write or a step, never both.
  always @* assume (!(reg_we_i && cyc_valid_i));

  // The clock before: was there one, was it a step or a write, and what was visible then.
  logic          past_valid = 1'b0;
  logic          was_step, was_we;
  logic [15:0]   was_addr;
  logic [63:0]   was_wdata, was_iccsr, was_hirr;
  logic [W0:0]   was_pair0;
  logic [W1-1:0] was_cnt1;
  logic [1:0]    was_nissue;
  logic          was_dmiss;
  always @(posedge clk_i) begin
    past_valid <= 1'b1;
    was_step   <= cyc_valid_i;
    was_we     <= reg_we_i;
    was_addr   <= reg_addr_i;
    was_wdata  <= reg_wdata_i;
    was_iccsr  <= iccsr;
    was_hirr   <= hirr;
    was_pair0  <= pair0;
    was_cnt1   <= cnt1;
    was_nissue <= nissue_i;
    was_dmiss  <= dmiss_i;
  end

  // The period of each counter for the ICCSR of the clock before: 2^k events, k from PCn
  // (OSF/1 sys/pfcntr.h PF_C0_INT_EVERY_65536/_4096, PF_C1_INT_EVERY_4096/_256).
  // Counter n has counted through a multiple of 2^k in the last clock when its count's low
  // k bits (counter 0: with HALF below them) went down: an increment is below 2^k, so the
  // low bits wrap exactly when the count passes a multiple of 2^k.
  int unsigned k0, k1;
  assign k0 = was_iccsr[EV4_F_ICCSR_PC0_LSB] ? EV4_CTR0_SHORT : EV4_CTR0_LONG;
  assign k1 = was_iccsr[EV4_F_ICCSR_PC1_LSB] ? EV4_CTR1_SHORT : EV4_CTR1_LONG;
  logic [W0:0]   low0_mask, low0_now, low0_was;
  logic [W1-1:0] low1_mask, low1_now, low1_was;
  assign low0_mask = ({{W0{1'b0}}, 1'b1} << (k0 + 1)) - 1'b1;
  assign low1_mask = (k1 >= W1) ? {W1{1'b1}} : ({{(W1 - 1){1'b0}}, 1'b1} << k1) - 1'b1;
  assign low0_now  = pair0 & low0_mask;
  assign low0_was  = was_pair0 & low0_mask;
  assign low1_now  = cnt1 & low1_mask;
  assign low1_was  = was_cnt1 & low1_mask;
  logic crossed0, crossed1;
  assign crossed0 = low0_now < low0_was;
  assign crossed1 = low1_now < low1_was;

  logic hirr0, hirr1, hier0, hier1, was_hirr0, was_hirr1;
  assign hirr0     = hirr[EV4_F_HIRR_PC0_LSB];
  assign hirr1     = hirr[EV4_F_HIRR_PC1_LSB];
  assign hier0     = hier[EV4_F_HIER_PC0_LSB];
  assign hier1     = hier[EV4_F_HIER_PC1_LSB];
  assign was_hirr0 = was_hirr[EV4_F_HIRR_PC0_LSB];
  assign was_hirr1 = was_hirr[EV4_F_HIRR_PC1_LSB];

  // What the last clock added (modulo the counter's width: a wrap is an addition too).
  logic [W0:0]   delta0;
  logic [W1-1:0] delta1;
  assign delta0 = pair0 - was_pair0;
  assign delta1 = cnt1 - was_cnt1;

  logic was_sl_clr;
  assign was_sl_clr = was_we && was_addr == EV4_ADDR_SL_CLR;

  always @(posedge clk_i) begin
    if (past_valid) begin
`ifdef PROP_ctr0_period
      // killed by: ev4-interval-swapped
      // Counter 0 requests an interrupt exactly when it has counted through a multiple of
      // its period, 2^16 or 2^12 events (pfm(7); OSF/1 sys/pfcntr.h PF_C0_INT_EVERY_*):
      // after a step, HIRR.PC0 is what it was, or set by a crossing.
      if (was_step) assert (hirr0 == (was_hirr0 || crossed0));
      cover (was_step && crossed0 && !was_hirr0 && was_iccsr[EV4_F_ICCSR_PC0_LSB]);
`endif
`ifdef PROP_ctr1_period
      // killed by: ev4-interval-swapped
      // Counter 1: the same, every 2^12 or 2^8 events (OSF/1 sys/pfcntr.h PF_C1_INT_EVERY_*).
      if (was_step) assert (hirr1 == (was_hirr1 || crossed1));
      cover (was_step && crossed1 && !was_hirr1 && was_iccsr[EV4_F_ICCSR_PC1_LSB]);
`endif
`ifdef PROP_hier_masks
      // killed by: ev4-hier-ignored
      // HIER masks a request: a request whose enable is clear does not drive the line
      // (dc21064.h: HIER is the interrupt enable of the HIRR requests; docs/ev4.md).
      if (!hier0 && !(hirr1 && hier1)) assert (!pmi);
      cover (hirr0 && !hier0 && !hirr1);
`endif
`ifdef PROP_pmi_line
      // killed by: ev4-hier-ignored
      // The line is the enabled requests: (HIRR.PC0 & HIER.PC0) | (HIRR.PC1 & HIER.PC1)
      // (dc21064.h HIRR/HIER; docs/ev4.md, "Clocks").
      assert (pmi == ((hirr0 && hier0) || (hirr1 && hier1)));
      cover (pmi && !hirr1);
`endif
`ifdef PROP_ctr0_disabled_holds
      // killed by: ev4-pme0-ignored
      // A disabled counter does not count: a step with PME0 clear leaves counter 0, its half
      // bit included (dc21064.h ICCSR PME0 "Performance Monitor Enable 0").
      if (was_step && !was_iccsr[EV4_F_ICCSR_PME0_LSB]) assert (pair0 == was_pair0);
      cover (was_step && !was_iccsr[EV4_F_ICCSR_PME0_LSB] && was_nissue != 2'd0
             && was_iccsr[EV4_F_ICCSR_MUX0_MSB:EV4_F_ICCSR_MUX0_LSB] == EV4_MUX_PF_ISSUES);
`endif
`ifdef PROP_ctr1_disabled_holds
      // killed by: ev4-pme1-ignored
      // Counter 1 with PME1 clear (dc21064.h ICCSR PME1).
      if (was_step && !was_iccsr[EV4_F_ICCSR_PME1_LSB]) assert (cnt1 == was_cnt1);
      cover (was_step && !was_iccsr[EV4_F_ICCSR_PME1_LSB] && was_dmiss
             && was_iccsr[EV4_F_ICCSR_MUX1_MSB:EV4_F_ICCSR_MUX1_LSB] == EV4_MUX_PF_DCACHE);
`endif
`ifdef PROP_write_keeps_counts
      // killed by: ev4-counter-clears-when-idle
      // A register write counts nothing and clears nothing: the counters are never
      // cleared but by reset (pfm(7): no direct access to the counter values; docs/ev4.md,
      // "Clocks": changing MUX or PC does not clear them).
      if (was_we) assert (pair0 == was_pair0 && cnt1 == was_cnt1);
      cover (was_we && was_addr == EV4_ADDR_ICCSR && was_pair0 != '0 && was_cnt1 != '0);
`endif
`ifdef PROP_hirr_sticky
      // killed by: ev4-hirr-not-sticky
      // A request stays until software clears it through SL_CLR (dc21064.h HIRR, SL_CLR):
      // no clock but an SL_CLR write drops a HIRR bit.
      if (!was_sl_clr) assert ((was_hirr & ~hirr & EV4_HIRR_MASK) == 64'd0);
      cover (!was_sl_clr && was_hirr0 && was_hirr1 && was_step);
`endif
`ifdef PROP_sl_clr_clears
      // killed by: ev4-sl-clr-polarity
      // A 0 in SL_CLR's PC0 or PC1 clears that request (dc21064.h SL_CLR).
      if (was_sl_clr && !was_wdata[EV4_F_SL_CLR_PC0_LSB]) assert (!hirr0);
      if (was_sl_clr && !was_wdata[EV4_F_SL_CLR_PC1_LSB]) assert (!hirr1);
      cover (was_sl_clr && was_hirr0 && was_hirr1 && !was_wdata[EV4_F_SL_CLR_PC0_LSB]
             && !was_wdata[EV4_F_SL_CLR_PC1_LSB]);
`endif
`ifdef PROP_sl_clr_one_keeps
      // killed by: ev4-sl-clr-polarity
      // A 1 in SL_CLR's PCn leaves that request (dc21064.h SL_CLR: write 0 to clear).
      if (was_sl_clr && was_wdata[EV4_F_SL_CLR_PC0_LSB]) assert (hirr0 == was_hirr0);
      if (was_sl_clr && was_wdata[EV4_F_SL_CLR_PC1_LSB]) assert (hirr1 == was_hirr1);
      cover (was_sl_clr && was_hirr0 && was_wdata[EV4_F_SL_CLR_PC0_LSB]
             && !was_wdata[EV4_F_SL_CLR_PC1_LSB]);
`endif
`ifdef PROP_ctr_step_bounded
      // killed by: ev4-whole-event-plus-half
      // The 21064 issues at most two instructions a cycle: a step adds at most 2 events
      // (4 halves) to counter 0 and 2 to counter 1 (pfm(7): Issues counts 1 per dual
      // issue, 1/2 per single issue; docs/ev4.md, "Counting").
      if (was_step) assert (delta0 <= 4 && delta1 <= 2);
      cover (was_step && delta0 == 4 && pair0 < was_pair0);
      cover (was_step && delta1 == 2 && cnt1 < was_cnt1);
`endif
`ifdef PROP_issues_halves
      // killed by: ev4-issues-dual-only
      // PF_ISSUES counts 1 for a dual issue and 1/2 for a single issue (pfm(7)): counter 0
      // with MUX0 = PF_ISSUES and PME0 adds nissue halves.
      if (was_step && was_iccsr[EV4_F_ICCSR_PME0_LSB] && was_nissue <= 2'd2
          && was_iccsr[EV4_F_ICCSR_MUX0_MSB:EV4_F_ICCSR_MUX0_LSB] == EV4_MUX_PF_ISSUES)
        assert (pair0 == was_pair0 + {{(W0 - 1){1'b0}}, was_nissue});
      cover (was_step && was_iccsr[EV4_F_ICCSR_PME0_LSB] && was_nissue == 2'd1
             && was_iccsr[EV4_F_ICCSR_MUX0_MSB:EV4_F_ICCSR_MUX0_LSB] == EV4_MUX_PF_ISSUES);
`endif
`ifdef PROP_dcache_counts
      // killed by: ev4-dcache-reads-imiss
      // PF_DCACHE counts data-cache misses (pfm(7); OSF/1 sys/pfcntr.h PF_MUX1_DCACHE):
      // counter 1 with MUX1 = PF_DCACHE and PME1 adds the record's miss.
      if (was_step && was_iccsr[EV4_F_ICCSR_PME1_LSB]
          && was_iccsr[EV4_F_ICCSR_MUX1_MSB:EV4_F_ICCSR_MUX1_LSB] == EV4_MUX_PF_DCACHE)
        assert (cnt1 == was_cnt1 + {{(W1 - 1){1'b0}}, was_dmiss});
      cover (was_step && was_iccsr[EV4_F_ICCSR_PME1_LSB] && was_dmiss
             && was_iccsr[EV4_F_ICCSR_MUX1_MSB:EV4_F_ICCSR_MUX1_LSB] == EV4_MUX_PF_DCACHE);
`endif
    end
  end

endmodule
