`include "ev67_defines.vh"

// The Alpha 21264/EV67 counter block (family alpha21264): two 20-bit counters in PCTR_CTL
// counting in aggregate mode (SL0 = 0) or over ProfileMe windows (SL0 = 1), their two-stage
// overflow latches, the PAL-exit interrupts and the ISUM request summary. docs/ev67.md is the
// normative model of a cycle; build/gen/ev67/ev67_defs.vh has every position, input row and
// limit from include/common/ev67/ev67_regs.def.
//
// Clocks: a register write (reg_we_i) is a clock with no record; a step (cyc_valid_i) is a
// clock consuming the record on the record ports (include/common/ev67/ev67_cycle.h's fields the
// counter block reads; the fetch, retire and squash arrays flattened, entry i at
// [i*W +: W]). A clock with both is a write clock (the harness never makes one). The read
// port, pmi_o and obs_vis_o are combinational from the registers: after each clock they show
// its result, reads as docs/ev67.md "read" defines them.
module ev67_pmu #(
  parameter bit ReadQuirk = 1'b1,  // a read shows a disabled counter as count + its last increment
  parameter bit IsumRace  = 1'b0,  // an ISUM read right after a step that raised a bit returns 0
  parameter bit ParkBlock = 1'b1   // a parked counter holds back the latches' deliveries
) (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,
  // register port: a write takes effect at the clock edge; the read is combinational
  input  logic                                      reg_we_i,
  input  logic [`EV67_ADDR_W-1:0]                   reg_addr_i,
  input  logic [63:0]                               reg_wdata_i,
  output logic [63:0]                               reg_rdata_o,
  // cycle record (consumed at the clock edge when cyc_valid_i = 1)
  input  logic                                      cyc_valid_i,
  input  logic                                      pal_i,
  input  logic [`EV67_CNT_W-1:0]                    nfetch_i,
  input  logic [`EV67_FETCH_MAX*64-1:0]             fetch_pc_i,
  input  logic [`EV67_FETCH_MAX*`EV67_TAG_W-1:0]    fetch_tag_i,
  input  logic [`EV67_FETCH_MAX*`EV67_FLAGS_W-1:0]  fetch_flags_i,
  input  logic [`EV67_CNT_W-1:0]                    nstall_i,
  input  logic [`EV67_TAG_W-1:0]                    stall_first_i,
  input  logic                                      trap_i,
  input  logic [`EV67_TRAP_TYPE_W-1:0]              trap_type_i,
  input  logic                                      trap_mis_i,
  input  logic                                      trap_lso_i,
  input  logic [`EV67_TAG_W-1:0]                    trap_tag_i,
  input  logic [`EV67_CNT_W-1:0]                    nretire_i,
  input  logic [`EV67_RETIRE_MAX*`EV67_TAG_W-1:0]   retire_i,
  input  logic [`EV67_CNT_W-1:0]                    nsquash_i,
  input  logic [`EV67_SQUASH_MAX*`EV67_TAG_W-1:0]   squash_i,
  input  logic                                      abort_i,
  input  logic [`EV67_TAG_W-1:0]                    abort_first_i,
  input  logic [`EV67_TAG_W-1:0]                    kbm_first_i,
  input  logic [`EV67_TAG_W-1:0]                    head_i,
  input  logic                                      bcmiss_i,
  input  logic                                      mreplay_i,
  // interrupt and observation
  output logic                                      pmi_o,
  output logic [`EV67_NVIS*64-1:0]                  obs_vis_o      // visible register v at [v*64 +: 64]
);

  `include "ev67_defs.vh"

  localparam int CW = `EV67_CTR_W;

  logic step, write;
  assign write = reg_we_i;
  assign step  = cyc_valid_i && !reg_we_i;

  // ---- registers and the read port -------------------------------------------------------------
  logic          pctr_we, clr_we, sl0;
  logic [1:0]    clr_pc, en, sl1, pcen;
  logic [CW-1:0] wr_pctr0, wr_pctr1, count0, count1;
  logic [2:0]    qinc0;
  logic          qinc1;
  logic [1:0]    isum;
  logic [63:0]   obs_int, obs_agg, obs_pm, obs_pm_d, obs_pmpc;
  logic          win_end;

  ev67_regs #(
    .ReadQuirk (ReadQuirk)
  ) u_regs (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .we_i       (reg_we_i),
    .addr_i     (reg_addr_i),
    .wdata_i    (reg_wdata_i),
    .rdata_o    (reg_rdata_o),
    .pctr_we_o  (pctr_we),
    .clr_we_o   (clr_we),
    .clr_pc_o   (clr_pc),
    .wr_pctr0_o (wr_pctr0),
    .wr_pctr1_o (wr_pctr1),
    .en_o       (en),
    .sl0_o      (sl0),
    .sl1_o      (sl1),
    .pcen_o     (pcen),
    .win_end_i  (win_end),
    .pm_d_i     (obs_pm_d),
    .pmpc_i     (obs_pmpc),
    .ctr0_i     (count0),
    .ctr1_i     (count1),
    .qinc0_i    (qinc0),
    .qinc1_i    (qinc1),
    .isum_i     (isum),
    .obs_int_i  (obs_int),
    .obs_agg_i  (obs_agg),
    .obs_pm_i   (obs_pm),
    .obs_vis_o  (obs_vis_o)
  );

  // ---- aggregate inputs: catch-up, Bcache gate, read-quirk increments -----------------------------
  logic [3:0] d, agg_inc0, agg_inc1;

  ev67_agg u_agg (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .step_i    (step),
    .write_i   (write),
    .nretire_i (nretire_i),
    .bcmiss_i  (bcmiss_i),
    .mreplay_i (mreplay_i),
    .sl1_i     (sl1),
    .en_i      (en),
    .d_o       (d),
    .inc0_o    (agg_inc0),
    .inc1_o    (agg_inc1),
    .qinc0_o   (qinc0),
    .qinc1_o   (qinc1),
    .obs_agg_o (obs_agg)
  );

  // ---- ProfileMe window machine ----------------------------------------------------------------------
  logic [3:0] pm_inc0, pm_inc1;
  logic       pm_latch1;

  ev67_pm u_pm (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .step_i        (step),
    .rearm_i       (pctr_we),
    .sl0_i         (sl0),
    .sl1_i         (sl1),
    .en_i          (en),
    .pctr0_i       (count0),
    .d_i           (d),
    .nfetch_i      (nfetch_i),
    .fetch_pc_i    (fetch_pc_i),
    .fetch_tag_i   (fetch_tag_i),
    .fetch_flags_i (fetch_flags_i),
    .nstall_i      (nstall_i),
    .stall_first_i (stall_first_i),
    .trap_i        (trap_i),
    .trap_type_i   (trap_type_i),
    .trap_mis_i    (trap_mis_i),
    .trap_lso_i    (trap_lso_i),
    .trap_tag_i    (trap_tag_i),
    .nretire_i     (nretire_i),
    .retire_i      (retire_i),
    .nsquash_i     (nsquash_i),
    .squash_i      (squash_i),
    .abort_i       (abort_i),
    .abort_first_i (abort_first_i),
    .kbm_first_i   (kbm_first_i),
    .head_i        (head_i),
    .bcmiss_i      (bcmiss_i),
    .mreplay_i     (mreplay_i),
    .inc0_o        (pm_inc0),
    .inc1_o        (pm_inc1),
    .latch1_o      (pm_latch1),
    .win_end_o     (win_end),
    .obs_pm_o      (obs_pm),
    .obs_pm_d_o    (obs_pm_d),
    .obs_pmpc_o    (obs_pmpc)
  );

  // ---- the counters and their latches ----------------------------------------------------------------
  logic [1:0] near, parked, s1, s2, deliver;
  logic       hold;

  // parked(n) = !en(n) & near(n) at the start of the step (docs/ev67.md, "Clocks").
  assign parked = ~en & near;
  assign hold   = ParkBlock && (parked != 2'b00);

  ev67_ctr #(
    .Width (EV67_CTR0_WIDTH),
    .Wmax  (EV67_CTR0_WMAX)
  ) u_ctr0 (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .load_i     (pctr_we),
    .load_val_i (wr_pctr0),
    .step_i     (step),
    .inc_i      (sl0 ? pm_inc0 : agg_inc0),
    .latch_en_i (!sl0),
    .hold_i     (hold),
    .count_o    (count0),
    .near_o     (near[0]),
    .s1_o       (s1[0]),
    .s2_o       (s2[0]),
    .deliver_o  (deliver[0])
  );

  ev67_ctr #(
    .Width (EV67_CTR1_WIDTH),
    .Wmax  (EV67_CTR1_WMAX)
  ) u_ctr1 (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .load_i     (pctr_we),
    .load_val_i (wr_pctr1),
    .step_i     (step),
    .inc_i      (sl0 ? pm_inc1 : agg_inc1),
    .latch_en_i (!sl0 || pm_latch1),
    .hold_i     (hold),
    .count_o    (count1),
    .near_o     (near[1]),
    .s1_o       (s1[1]),
    .s2_o       (s2[1]),
    .deliver_o  (deliver[1])
  );

  // ---- interrupt requests ------------------------------------------------------------------------------
  logic [1:0] req, pexit;
  logic       pal, race;

  ev67_irq #(
    .IsumRace (IsumRace)
  ) u_irq (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .step_i    (step),
    .write_i   (write),
    .pal_i     (pal_i),
    .deliver_i (deliver),
    .win_end_i (win_end),
    .pctr_we_i (pctr_we),
    .near_i    (near),
    .clr_we_i  (clr_we),
    .clr_pc_i  (clr_pc),
    .pcen_i    (pcen),
    .req_o     (req),
    .pexit_o   (pexit),
    .pal_o     (pal),
    .race_o    (race),
    .isum_o    (isum),
    .pmi_o     (pmi_o)
  );

  assign obs_int = (64'(s1) << EV67_F_OBS_INT_S1_LSB) | (64'(s2) << EV67_F_OBS_INT_S2_LSB)
                 | (64'(req) << EV67_F_OBS_INT_REQ_LSB) | (64'(pexit) << EV67_F_OBS_INT_PEXIT_LSB)
                 | (64'(pal) << EV67_F_OBS_INT_PAL_LSB) | (64'(race) << EV67_F_OBS_INT_RACE_LSB);

endmodule
