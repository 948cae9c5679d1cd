`include "ev67_defines.vh"

// Formal properties of the Alpha 21264/EV67 counter block (docs/formal.md): the checker of
// formal/ev4/ev4_pmu_props.sv (its header says how a property block, its cover and its
// mutant are written, and the proof setup) for the unchanged top ev67_pmu with its defaults
// (ReadQuirk, no IsumRace, ParkBlock). It sees the registers as reads return them and the
// observation registers: OBS_CTR the true counts, OBS_INT the latches and requests, OBS_PM
// the ProfileMe machine. Lines of a block that tune its run (formal/run.sh):
//  - "// smtbmc: --unroll": every property of this design needs it; without it z3 does not
//    finish even the first BMC step (with it a step takes milliseconds);
//  - "// yosys: cutpoint w:dut.u_pm.*_o": a property that is not about ProfileMe cuts the
//    ProfileMe machine's outputs to the counters and requests (increments, PCTR1 latch enable,
//    window end), which become free inputs. What holds for any ProfileMe outputs holds for
//    the real ones; the model loses about 40% of its cells;
//  - "// yosys: setattr -set init 64'd0 w:dut.u_regs.flags_q; opt_dff -sat": a property that
//    reads SL0 or SL1 starts the register of the flags a window's end captures at 0, as reset
//    leaves it; the SAT pass proves its bits outside TAK, VAL, PM_STALLED and PM_KILLED_BM
//    stay 0 and makes them constants. A PCTR_CTL read ORs those flags with the selects, so
//    from a free start the checker would read selects the counters do not use.
// Sources: docs/sources.md (HRM, coreboot ev6); the rules are docs/ev67.md's.
module ev67_pmu_props (
  input logic                                     clk_i,
  input logic                                     reg_we_i,
  input logic [`EV67_ADDR_W-1:0]                  reg_addr_i,
  input logic [63:0]                              reg_wdata_i,
  input logic                                     cyc_valid_i,
  input logic                                     pal_i,
  input logic [`EV67_CNT_W-1:0]                   nfetch_i,
  input logic [`EV67_FETCH_MAX*64-1:0]            fetch_pc_i,
  input logic [`EV67_FETCH_MAX*`EV67_TAG_W-1:0]   fetch_tag_i,
  input logic [`EV67_FETCH_MAX*`EV67_FLAGS_W-1:0] fetch_flags_i,
  input logic [`EV67_CNT_W-1:0]                   nstall_i,
  input logic [`EV67_TAG_W-1:0]                   stall_first_i,
  input logic                                     trap_i,
  input logic [`EV67_TRAP_TYPE_W-1:0]             trap_type_i,
  input logic                                     trap_mis_i,
  input logic                                     trap_lso_i,
  input logic [`EV67_TAG_W-1:0]                   trap_tag_i,
  input logic [`EV67_CNT_W-1:0]                   nretire_i,
  input logic [`EV67_RETIRE_MAX*`EV67_TAG_W-1:0]  retire_i,
  input logic [`EV67_CNT_W-1:0]                   nsquash_i,
  input logic [`EV67_SQUASH_MAX*`EV67_TAG_W-1:0]  squash_i,
  input logic                                     abort_i,
  input logic [`EV67_TAG_W-1:0]                   abort_first_i,
  input logic [`EV67_TAG_W-1:0]                   kbm_first_i,
  input logic [`EV67_TAG_W-1:0]                   head_i,
  input logic                                     bcmiss_i,
  input logic                                     mreplay_i
);

  `include "ev67_defs.vh"

  logic [63:0]              rdata;
  logic                     pmi;
  logic [`EV67_NVIS*64-1:0] vis;

  ev67_pmu dut (
    .clk_i         (clk_i),
    .rst_ni        (1'b1),
    .reg_we_i      (reg_we_i),
    .reg_addr_i    (reg_addr_i),
    .reg_wdata_i   (reg_wdata_i),
    .reg_rdata_o   (rdata),
    .cyc_valid_i   (cyc_valid_i),
    .pal_i         (pal_i),
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
    .pmi_o         (pmi),
    .obs_vis_o     (vis)
  );

  // ---- what the checker sees ------------------------------------------------------------------
  localparam int CW = `EV67_CTR_W;
  logic [63:0] ier, isum_r, ictl, pctr, pctx, octr, oint, opm;
  assign ier    = vis[EV67_VIS_IER_CM*64 +: 64];
  assign isum_r = vis[EV67_VIS_ISUM*64 +: 64];
  assign ictl   = vis[EV67_VIS_I_CTL*64 +: 64];
  assign pctr   = vis[EV67_VIS_PCTR_CTL*64 +: 64];
  assign pctx   = vis[EV67_VIS_PCTX*64 +: 64];
  assign octr   = vis[EV67_VIS_OBS_CTR*64 +: 64];
  assign oint   = vis[EV67_VIS_OBS_INT*64 +: 64];
  assign opm    = vis[EV67_VIS_OBS_PM*64 +: 64];

  logic [CW-1:0] c0, c1;          // the true counts
  logic [1:0]    s1, s2, req, pexit, pcen, isum, sl1, en;
  logic          pal, sl0;
  logic [1:0]    phase;
  assign c0    = octr[EV67_F_OBS_CTR_PCTR0_LSB +: CW];
  assign c1    = octr[EV67_F_OBS_CTR_PCTR1_LSB +: CW];
  assign s1    = oint[EV67_F_OBS_INT_S1_MSB:EV67_F_OBS_INT_S1_LSB];
  assign s2    = oint[EV67_F_OBS_INT_S2_MSB:EV67_F_OBS_INT_S2_LSB];
  assign req   = oint[EV67_F_OBS_INT_REQ_MSB:EV67_F_OBS_INT_REQ_LSB];
  assign pexit = oint[EV67_F_OBS_INT_PEXIT_MSB:EV67_F_OBS_INT_PEXIT_LSB];
  assign pal   = oint[EV67_F_OBS_INT_PAL_LSB];
  assign pcen  = ier[EV67_F_IER_CM_PCEN_MSB:EV67_F_IER_CM_PCEN_LSB];
  assign isum  = isum_r[EV67_F_ISUM_PC_MSB:EV67_F_ISUM_PC_LSB];
  assign sl0   = pctr[EV67_F_PCTR_CTL_SL0_LSB];
  assign sl1   = pctr[EV67_F_PCTR_CTL_SL1_MSB:EV67_F_PCTR_CTL_SL1_LSB];
  assign phase = opm[EV67_F_OBS_PM_PHASE_MSB:EV67_F_OBS_PM_PHASE_LSB];
  // en(n) = PCTn_EN & (SPCE | PPCE) (HRM Table 5-15; docs/ev67.md, "Clocks").
  assign en[0] = ictl[EV67_F_I_CTL_PCT0_EN_LSB]
              && (ictl[EV67_F_I_CTL_SPCE_LSB] || pctx[EV67_F_PCTX_PPCE_LSB]);
  assign en[1] = ictl[EV67_F_I_CTL_PCT1_EN_LSB]
              && (ictl[EV67_F_I_CTL_SPCE_LSB] || pctx[EV67_F_PCTX_PPCE_LSB]);

  // The harness's contract (docs/ev67.md, "RTL"): a clock is a write or a step, never both.
  always @* assume (!(reg_we_i && cyc_valid_i));

  logic pctr_we, clr_we;
  assign pctr_we = reg_we_i && reg_addr_i == EV67_ADDR_PCTR_CTL;
  assign clr_we  = reg_we_i && reg_addr_i == EV67_ADDR_HW_INT_CLR;

  // The clock before: what it was and what was visible then.
  logic          past_valid = 1'b0, past2_valid = 1'b0;
  logic          was_step, was_pal_in, was_pctr_we, was2_pctr_we, was_clr_we;
  logic [63:0]   was_wdata;
  logic [CW-1:0] was_c0, was_c1;
  logic [1:0]    was_s1, was_s2, was_req, was_pexit, was_sl1, was_en, was2_s1, was2_s2;
  logic          was_sl0, was_ended;
  logic [1:0]    was_phase, was_endcnt;
  logic          was_fetch;
  always @(posedge clk_i) begin
    past_valid   <= 1'b1;
    past2_valid  <= past_valid;
    was_step     <= cyc_valid_i;
    was_pal_in   <= pal_i;
    was_pctr_we  <= pctr_we;
    was2_pctr_we <= was_pctr_we;
    was_clr_we   <= clr_we;
    was_wdata    <= reg_wdata_i;
    was_c0       <= c0;
    was_c1       <= c1;
    was_s1       <= s1;
    was_s2       <= s2;
    was2_s1      <= was_s1;
    was2_s2      <= was_s2;
    was_req      <= req;
    was_pexit    <= pexit;
    was_sl0      <= sl0;
    was_sl1      <= sl1;
    was_en       <= en;
    was_phase    <= phase;
    was_ended    <= opm[EV67_F_OBS_PM_ENDED_LSB];
    was_endcnt   <= opm[EV67_F_OBS_PM_ENDCNT_MSB:EV67_F_OBS_PM_ENDCNT_LSB];
    was_fetch    <= nfetch_i != '0;
  end

  // An aggregate step: a step in aggregate mode (SL0 = 0).
  logic agg_step;
  assign agg_step = was_step && !was_sl0;
  // A counter's row of HRM Table 5-16 counts cycles: PCTR0 for SL1 = x1, PCTR1 for SL1 = 00.
  logic cyc0, cyc1;
  assign cyc0 = was_sl1[0];
  assign cyc1 = was_sl1 == 2'b00;

  logic [1:0] was_clr_pc;
  assign was_clr_pc = was_wdata[EV67_F_HW_INT_CLR_PC_MSB:EV67_F_HW_INT_CLR_PC_LSB];
  // Each counter above its legal write maximum before the clock ("at the overflow threshold":
  // HRM §6.10.2.1 allows writes up to 2^20 - 16 for PCTR0, 2^20 - 4 for PCTR1).
  logic [1:0] was_near;
  assign was_near = {was_c1 > EV67_CTR1_WMAX, was_c0 > EV67_CTR0_WMAX};

  always @(posedge clk_i) begin
    if (past_valid) begin
`ifdef PROP_agg_ctr0_continues
      // killed by: ev67-ctr-stops-at-overflow
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // yosys: setattr -set init 64'd0 w:dut.u_regs.flags_q; opt_dff -sat; opt_clean
      // smtbmc: --unroll
      // An aggregate counter keeps counting after overflow (HRM §6.10.2.1: "Counters
      // continue to count after overflow"): PCTR0 counting cycles adds 1 a step, modulo 2^20.
      if (agg_step && was_en[0] && cyc0) assert (c0 == was_c0 + 1'b1);
      cover (agg_step && was_en[0] && cyc0 && was_c0 == '1);
`endif
`ifdef PROP_agg_ctr1_continues
      // killed by: ev67-ctr-stops-at-overflow
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // yosys: setattr -set init 64'd0 w:dut.u_regs.flags_q; opt_dff -sat; opt_clean
      // smtbmc: --unroll
      // The same for PCTR1 counting cycles (HRM §6.10.2.1; HRM Table 5-16, SL1 = 00).
      if (agg_step && was_en[1] && cyc1) assert (c1 == was_c1 + 1'b1);
      cover (agg_step && was_en[1] && cyc1 && was_c1 == '1);
`endif
`ifdef PROP_overflow_enters_latch
      // killed by: ev67-carry-stuck-0
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // yosys: setattr -set init 64'd0 w:dut.u_regs.flags_q; opt_dff -sat; opt_clean
      // smtbmc: --unroll
      // An aggregate overflow, and only an overflow, is latched (HRM §6.10.1, §6.10.2.1): after
      // an aggregate step, S1[n] is set exactly when counter n passed 2^20 - 1 (a step adds at
      // most 8, so the count wrapped exactly when it went down).
      if (agg_step) assert (s1[0] == (c0 < was_c0) && s1[1] == (c1 < was_c1));
      cover (agg_step && c0 < was_c0 && c1 < was_c1);
`endif
`ifdef PROP_no_pmi_in_pal
      // killed by: ev67-pmi-in-pal
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // smtbmc: --unroll
      // No interrupt is delivered in PALmode (HRM §6.10.1: interrupts are held off in
      // PALmode): after a step whose record is PAL the line is low, requests or not.
      if (was_step && was_pal_in) assert (!pmi);
      assert (!(pmi && pal));
      cover (was_step && was_pal_in && (req & pcen) != 2'b00);
`endif
`ifdef PROP_pmi_line
      // killed by: ev67-pmi-in-pal
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // smtbmc: --unroll
      // The line is an enabled request outside PALmode (HRM §5.2.11 ISUM = pending enabled
      // requests; HRM §6.10.1): pmi = ((REQ & PCEN) != 0) & !PAL.
      assert (pmi == ((req & pcen) != 2'b00 && !pal));
      cover (pmi);
`endif
`ifdef PROP_isum_line
      // killed by: ev67-isum-ignores-pcen
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // smtbmc: --unroll
      // ISUM shows the pending requests that are enabled (HRM §5.2.11), IsumRace off.
      assert (isum == (req & pcen));
      cover (req == 2'b11 && pcen == 2'b01);
`endif
`ifdef PROP_two_writes_clear
      // killed by: ev67-write-keeps-s1
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // smtbmc: --unroll
      // Two PCTR_CTL writes clear the overflow latch (HRM §6.10.1; coreboot ev6 start.inc
      // writes PCTR_CTL twice "to clear the 2nd stage overflow flag").
      if (past2_valid && was_pctr_we && was2_pctr_we) assert (s1 == 2'b00 && s2 == 2'b00);
      cover (past2_valid && was_pctr_we && was2_pctr_we && was2_s1 == 2'b11 && was2_s2 == 2'b11);
`endif
`ifdef PROP_one_write_shifts
      // killed by: ev67-write-clears-latch
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // smtbmc: --unroll
      // One PCTR_CTL write is not enough: it shifts the latch once, S2 = S1, S1 = 0, so an
      // overflow in S1 still raises its request (HRM §6.10.1; docs/ev67.md, "Precautions" 1).
      if (was_pctr_we) assert (s2 == was_s1 && s1 == 2'b00);
      cover (was_pctr_we && was_s1 == 2'b11);
`endif
`ifdef PROP_pm_stopped_holds
      // killed by: ev67-pm-stopped-counts-fetches
      // yosys: cutpoint w:dut.u_pm.*_hit w:dut.u_pm.abort_cov
      // yosys: setattr -set init 64'd0 w:dut.u_regs.flags_q; opt_dff -sat; opt_clean
      // smtbmc: --unroll
      // After the ProfileMe window ends, PCTR0 stands still until PCTR_CTL is written (HRM
      // §6.10.3: "PCTR0 does not count until PCTR_CTL is next written"); PCTR1 too, and the
      // machine stays STOPPED (docs/ev67.md, "ProfileMe"). In ProfileMe mode (SL0 = 1), the
      // only mode in which the machine runs: any clock but a PCTR_CTL write.
      if (was_phase == EV67_PM_STOPPED && was_sl0 && !was_pctr_we)
        assert (c0 == was_c0 && c1 == was_c1 && phase == EV67_PM_STOPPED);
      cover (was_phase == EV67_PM_STOPPED && was_sl0 && was_step && was_en == 2'b11 && was_fetch);
`endif
`ifdef PROP_pm_end_stops
      // killed by: ev67-pm-end-rearms
      // yosys: cutpoint w:dut.u_pm.*_hit w:dut.u_pm.abort_cov
      // yosys: setattr -set init 64'd0 w:dut.u_regs.flags_q; opt_dff -sat; opt_clean
      // smtbmc: --unroll
      // The window's end stops the machine and raises counter 0's request (HRM §6.10.3;
      // HRM Table 5-15: the only counter-0 interrupt in ProfileMe is the window's end). The
      // window ends in the second step after its end event (docs/ev67.md: ENDCNT counts them).
      if (was_step && was_sl0 && was_phase == EV67_PM_SELECTED && was_ended && was_endcnt == 2'd1)
        assert (phase == EV67_PM_STOPPED && req[0]);
      cover (was_step && was_sl0 && was_phase == EV67_PM_SELECTED && was_ended && was_endcnt == 2'd1
             && was_req == 2'b00);
`endif
`ifdef PROP_req_sticky
      // killed by: ev67-hw-int-clr-inverted
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // smtbmc: --unroll
      // Only HW_INT_CLR clears a request, and only where its PC bit is 1 (HRM Table 5-8,
      // write-1-to-clear): a request bit falls in no other clock.
      assert ((was_req & ~req & ~(was_clr_we ? was_clr_pc : 2'b00)) == 2'b00);
      cover (was_clr_we && was_req == 2'b11 && was_clr_pc == 2'b01);
`endif
`ifdef PROP_hw_int_clr_clears
      // killed by: ev67-hw-int-clr-inverted
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // smtbmc: --unroll
      // An HW_INT_CLR write clears the requests (and the pending PAL-exit interrupts) whose
      // PC bit is 1 (HRM Table 5-8; docs/ev67.md, "Precautions" 2).
      if (was_clr_we) assert ((req & was_clr_pc) == 2'b00 && (pexit & was_clr_pc) == 2'b00);
      cover (was_clr_we && was_req == 2'b11 && was_pexit == 2'b11 && was_clr_pc == 2'b11);
`endif
`ifdef PROP_ctr0_disabled_holds
      // killed by: ev67-en0-ignored
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // yosys: setattr -set init 64'd0 w:dut.u_regs.flags_q; opt_dff -sat; opt_clean
      // smtbmc: --unroll
      // A disabled counter does not count: an aggregate step with en(0) = 0 leaves PCTR0
      // (HRM Table 5-15 PCT0_EN; coreboot ev6 dc21264.h I_CTL SPCE, PCTX PPCE).
      if (agg_step && !was_en[0]) assert (c0 == was_c0);
      cover (agg_step && !was_en[0] && cyc0);
`endif
`ifdef PROP_pctr_write_loads
      // killed by: ev67-write-ignores-value
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // smtbmc: --unroll
      // A PCTR_CTL write loads both counters from the value's PCTR0 and PCTR1 fields (HRM
      // Figure 5-25, Table 5-15; docs/ev67.md, "write").
      if (was_pctr_we)
        assert (c0 == was_wdata[EV67_F_PCTR_CTL_PCTR0_MSB:EV67_F_PCTR_CTL_PCTR0_LSB]
                && c1 == was_wdata[EV67_F_PCTR_CTL_PCTR1_MSB:EV67_F_PCTR_CTL_PCTR1_LSB]);
      cover (was_pctr_we && was_c0 != was_wdata[EV67_F_PCTR_CTL_PCTR0_MSB:EV67_F_PCTR_CTL_PCTR0_LSB]
             && was_c1 != was_wdata[EV67_F_PCTR_CTL_PCTR1_MSB:EV67_F_PCTR_CTL_PCTR1_LSB]);
`endif
`ifdef PROP_pctr_write_arms_pexit
      // killed by: ev67-pexit-not-armed
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // smtbmc: --unroll
      // A PCTR_CTL write to a counter at its overflow threshold arms its PAL-exit interrupt
      // (HRM §6.10.1; docs/ev67.md, "Precautions" 2): PEXIT[n] |= near(n) before the write.
      if (was_pctr_we) assert (pexit == (was_pexit | was_near));
      cover (was_pctr_we && was_pexit == 2'b00 && was_near == 2'b11);
`endif
`ifdef PROP_pexit_on_pal_exit
      // killed by: ev67-pexit-kept
      // yosys: cutpoint w:dut.u_pm.*_o; opt_clean
      // smtbmc: --unroll
      // A counter written at its overflow threshold interrupts on leaving PALmode (HRM
      // §6.10.1; docs/ev67.md, "Precautions" 2): the first step with a non-PAL record moves
      // PEXIT into REQ and clears it.
      if (was_step && !was_pal_in) assert (pexit == 2'b00 && (was_pexit & ~req) == 2'b00);
      cover (was_step && !was_pal_in && was_pexit != 2'b00 && was_req == 2'b00);
`endif
    end
  end

endmodule
