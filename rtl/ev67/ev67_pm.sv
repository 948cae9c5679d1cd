`include "ev67_defines.vh"

// The ProfileMe window machine (docs/ev67.md, "ProfileMe"): OBS_PM and OBS_PMPC, and the
// counters' increments while SL0 = 1. Runs only in steps with SL0 = 1; a PCTR_CTL write
// (rearm_i) clears it to ARMED.
//  - ARMED: counter 0 adds nfetch when en(0); the fetch whose count makes PCTR0 reach 2^20
//    (fetch[2^20 - 1 - PCTR0]) becomes P: PHASE = SELECTED, AGE = 0, TAG, OBS_PMPC, ICM, TAK.
//  - SELECTED: at the start of each later step AGE = min(AGE + 1, 5) and, if ENDED,
//    ENDCNT + 1. AGE = 1: counter 0 adds nfetch (when en(0)) and OVR = PCTR0 after the step.
//    AGE = 5: the window's inputs (EV67_SEL rows, SL0 = 1), each gated by en(n).
//  - Events naming P, in every SELECTED step (the fetch step included): stall, trap and KBM
//    until the end event E (inclusive), a retire (VAL) always. E is the first trap, retire,
//    squash or abort covering P; the window ends in step E + 2 (win_end_o), after counting.
//  - Tags are compared modulo 2^32: a range [first, first + n) contains TAG when
//    TAG - first < n; "TAG >= first" of the abort range is serial-number order,
//    (TAG - first) mod 2^32 < 2^31.
// The counter-0 carry is never an overflow here; a counter-1 carry in the window is
// (latch1_o).
module ev67_pm (
  input  logic                                      clk_i,
  input  logic                                      rst_ni,
  input  logic                                      step_i,
  input  logic                                      rearm_i,        // PCTR_CTL write clock
  input  logic                                      sl0_i,
  input  logic [1:0]                                sl1_i,
  input  logic [1:0]                                en_i,
  input  logic [`EV67_CTR_W-1:0]                    pctr0_i,        // PCTR0 before the step
  input  logic [3:0]                                d_i,            // counted retires
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
  output logic [3:0]                                inc0_o,         // ProfileMe increments
  output logic [3:0]                                inc1_o,
  output logic                                      latch1_o,       // counter 1's carry is an overflow
  output logic                                      win_end_o,      // this step ends the window
  output logic [63:0]                               obs_pm_o,       // OBS_PM as stored
  output logic [63:0]                               obs_pm_d_o,     // OBS_PM after this clock
  output logic [63:0]                               obs_pmpc_o      // OBS_PMPC as stored
);

  `include "ev67_defs.vh"

  localparam int TW = `EV67_TAG_W;
  localparam int FW = `EV67_FLAGS_W;
  localparam int KW = `EV67_KIND_W;
  localparam int NF = `EV67_FETCH_MAX;
  localparam int NR = `EV67_RETIRE_MAX;
  localparam int NS = `EV67_SQUASH_MAX;
  localparam int CW = `EV67_CTR_W;
  localparam int PhW = EV67_F_OBS_PM_PHASE_W;
  localparam int AgW = EV67_F_OBS_PM_AGE_W;
  localparam int EcW = EV67_F_OBS_PM_ENDCNT_W;
  localparam int OvW = EV67_F_OBS_PM_OVR_W;
  localparam int TtW = `EV67_TRAP_TYPE_W;
  localparam logic [AgW-1:0] AgeOvr  = AgW'(EV67_LIM_PME_OVR);
  localparam logic [AgW-1:0] AgeOpen = AgW'(EV67_LIM_PME_OPEN);
  localparam logic [EcW-1:0] EndCnt  = EcW'(EV67_LIM_PME_END);

  // ---- state ------------------------------------------------------------------------------------
  logic [PhW-1:0] phase_q, phase_d;
  logic [AgW-1:0] age_q, age_d;
  logic           ended_q, ended_d;
  logic [EcW-1:0] endcnt_q, endcnt_d;
  logic [OvW-1:0] ovr_q, ovr_d;
  logic           icm_q, icm_d, tak_q, tak_d, trp_q, trp_d, mis_q, mis_d, lso_q, lso_d;
  logic [TtW-1:0] ttype_q, ttype_d;
  logic           val_q, val_d, stalled_q, stalled_d, kbm_q, kbm_d;
  logic [TW-1:0]  tag_q, tag_d;
  logic [63:0]    pmpc_q, pmpc_d;

  // ---- the record, cut to its arrays --------------------------------------------------------
  logic [`EV67_CNT_W-1:0] nfetch, nret, nsq;
  assign nfetch = (nfetch_i > `EV67_CNT_W'(NF)) ? `EV67_CNT_W'(NF) : nfetch_i;
  assign nret   = (nretire_i > `EV67_CNT_W'(NR)) ? `EV67_CNT_W'(NR) : nretire_i;
  assign nsq    = (nsquash_i > `EV67_CNT_W'(NS)) ? `EV67_CNT_W'(NS) : nsquash_i;

  // ---- selection (ARMED) ---------------------------------------------------------------------
  logic          run, armed, selected;
  logic [CW:0]   fsum;
  logic          pick;
  logic [1:0]    idx;
  logic [TW-1:0] p_tag;
  logic [63:0]   p_pc;
  logic [FW-1:0] p_flags;

  assign run      = step_i && sl0_i;
  assign armed    = phase_q == EV67_PM_ARMED;
  assign selected = phase_q == EV67_PM_SELECTED;
  assign fsum     = {1'b0, pctr0_i} + (CW + 1)'(nfetch);
  assign pick     = run && armed && en_i[0] && fsum[CW];
  assign idx      = ~pctr0_i[1:0];  // (2^20 - 1 - PCTR0) mod 4: P's place in this step's fetches
  assign p_tag    = fetch_tag_i[idx * TW +: TW];
  assign p_pc     = fetch_pc_i[idx * 64 +: 64];
  assign p_flags  = fetch_flags_i[idx * FW +: FW];

  // ---- the step's view of P ----------------------------------------------------------------------
  logic           follow, ended_s;
  logic [TW-1:0]  tag;
  logic [AgW-1:0] age_n;
  logic [EcW-1:0] endcnt_n;

  assign follow   = run && (selected || pick);
  assign tag      = pick ? p_tag : tag_q;
  assign ended_s  = pick ? 1'b0 : ended_q;  // ENDED at the start of the step
  assign age_n    = pick ? '0 : ((selected && age_q < AgeOpen) ? age_q + AgW'(1) : age_q);
  assign endcnt_n = pick ? '0 : ((selected && ended_q) ? endcnt_q + EcW'(1) : endcnt_q);

  // ---- events naming P -----------------------------------------------------------------------
  logic          stall_hit, trap_hit, ret_hit, sq_hit, abort_cov, kbm_hit, early, end_ev;
  logic [TW-1:0] stall_off, abort_off, kbm_off;

  assign stall_off = tag - stall_first_i;
  assign abort_off = tag - abort_first_i;
  assign kbm_off   = tag - kbm_first_i;
  assign stall_hit = stall_off < TW'(nstall_i);
  assign trap_hit  = trap_i && trap_tag_i == tag;

  always_comb begin
    ret_hit = 1'b0;
    for (int i = 0; i < NR; i++) begin
      if (i < 32'(nret) && retire_i[i*TW +: TW] == tag) ret_hit = 1'b1;
    end
    sq_hit = 1'b0;
    for (int i = 0; i < NS; i++) begin
      if (i < 32'(nsq) && squash_i[i*TW +: TW] == tag) sq_hit = 1'b1;
    end
  end

  // P is in flight for the abort unless it retired or was squashed in this record.
  assign abort_cov = abort_i && !abort_off[TW-1] && !ret_hit && !sq_hit;
  assign kbm_hit   = abort_cov && !kbm_off[TW-1];
  assign early     = follow && !ended_s;
  assign end_ev    = early && (trap_hit || ret_hit || sq_hit || abort_cov);
  assign win_end_o = run && selected && ended_q && endcnt_n == EndCnt;

  // ---- counting ----------------------------------------------------------------------------------
  logic [KW-1:0] kind0, kind1;
  logic          in_ovr, in_win;

  assign kind0  = EV67_SEL_CTR0_KINDS[{1'b1, sl1_i} * KW +: KW];
  assign kind1  = EV67_SEL_CTR1_KINDS[{1'b1, sl1_i} * KW +: KW];
  assign in_ovr = run && selected && age_n == AgeOvr;
  assign in_win = run && selected && age_n == AgeOpen;

  function automatic logic [3:0] amount(input logic [KW-1:0] kind, input logic [3:0] dd, input logic bc,
                                        input logic mr, input logic at_head);
    case (kind)
      EV67_KIND_RETIRED:    amount = dd;
      EV67_KIND_CYCLES:     amount = 4'd1;
      EV67_KIND_BCACHE:     amount = {3'b000, bc};  // no phase shift in a window
      EV67_KIND_MBOXREPLAY: amount = {3'b000, mr};
      EV67_KIND_INUMDELAY:  amount = {3'b000, at_head};
      default:              amount = 4'd0;
    endcase
  endfunction

  logic          en0, en1, at_head, fetch_counts;
  logic [3:0]    nfetch4, win0, win1;
  logic [OvW-1:0] ovr_step;
  logic          p_icm, p_tak, p_pal;

  assign en0          = en_i[0];
  assign en1          = en_i[1];
  assign at_head      = head_i == tag_q;
  assign fetch_counts = run && (armed || in_ovr) && en0;
  assign nfetch4      = nfetch[3:0];
  assign win0         = (in_win && en0) ? amount(kind0, d_i, bcmiss_i, mreplay_i, at_head) : 4'd0;
  assign win1         = (in_win && en1) ? amount(kind1, d_i, bcmiss_i, mreplay_i, at_head) : 4'd0;
  assign inc0_o       = fetch_counts ? nfetch4 : win0;
  assign inc1_o       = win1;
  assign latch1_o     = in_win;
  assign ovr_step     = pctr0_i[OvW-1:0] + OvW'(inc0_o);  // PCTR0 after the step (it is below 8)
  assign p_icm        = p_flags[EV67_FF_ICM_BIT];
  assign p_tak        = p_flags[EV67_FF_TAKEN_BIT];
  assign p_pal        = p_flags[EV67_FF_PAL_BIT];

  // ---- next state ----------------------------------------------------------------------------------
  always_comb begin
    phase_d   = phase_q;
    age_d     = age_q;
    ended_d   = ended_q;
    endcnt_d  = endcnt_q;
    ovr_d     = ovr_q;
    icm_d     = icm_q;
    tak_d     = tak_q;
    trp_d     = trp_q;
    mis_d     = mis_q;
    lso_d     = lso_q;
    ttype_d   = ttype_q;
    val_d     = val_q;
    stalled_d = stalled_q;
    kbm_d     = kbm_q;
    tag_d     = tag_q;
    pmpc_d    = pmpc_q;
    if (rearm_i) begin
      phase_d   = EV67_PM_ARMED;
      age_d     = '0;
      ended_d   = 1'b0;
      endcnt_d  = '0;
      ovr_d     = '0;
      icm_d     = 1'b0;
      tak_d     = 1'b0;
      trp_d     = 1'b0;
      mis_d     = 1'b0;
      lso_d     = 1'b0;
      ttype_d   = '0;
      val_d     = 1'b0;
      stalled_d = 1'b0;
      kbm_d     = 1'b0;
      tag_d     = '0;
      pmpc_d    = '0;
    end else if (follow) begin
      if (pick) begin
        phase_d = EV67_PM_SELECTED;
        tag_d   = p_tag;
        icm_d   = p_icm;
        tak_d   = p_tak;
        pmpc_d  = (p_pc & EV67_F_OBS_PMPC_PC_MASK) | (p_pal ? EV67_F_OBS_PMPC_PAL_MASK : 64'd0);
      end
      age_d    = age_n;
      ended_d  = ended_s || end_ev;
      endcnt_d = end_ev ? '0 : endcnt_n;
      if (in_ovr) ovr_d = ovr_step;
      if (early && stall_hit) stalled_d = 1'b1;
      if (early && trap_hit) begin
        trp_d   = 1'b1;
        ttype_d = trap_type_i;
        mis_d   = trap_mis_i;
        lso_d   = trap_lso_i;
      end
      if (ret_hit) val_d = 1'b1;
      if (early && kbm_hit) kbm_d = 1'b1;
      if (win_end_o) phase_d = EV67_PM_STOPPED;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      phase_q   <= EV67_PM_ARMED;
      age_q     <= '0;
      ended_q   <= 1'b0;
      endcnt_q  <= '0;
      ovr_q     <= '0;
      icm_q     <= 1'b0;
      tak_q     <= 1'b0;
      trp_q     <= 1'b0;
      mis_q     <= 1'b0;
      lso_q     <= 1'b0;
      ttype_q   <= '0;
      val_q     <= 1'b0;
      stalled_q <= 1'b0;
      kbm_q     <= 1'b0;
      tag_q     <= '0;
      pmpc_q    <= '0;
    end else begin
      phase_q   <= phase_d;
      age_q     <= age_d;
      ended_q   <= ended_d;
      endcnt_q  <= endcnt_d;
      ovr_q     <= ovr_d;
      icm_q     <= icm_d;
      tak_q     <= tak_d;
      trp_q     <= trp_d;
      mis_q     <= mis_d;
      lso_q     <= lso_d;
      ttype_q   <= ttype_d;
      val_q     <= val_d;
      stalled_q <= stalled_d;
      kbm_q     <= kbm_d;
      tag_q     <= tag_d;
      pmpc_q    <= pmpc_d;
    end
  end

  // ---- OBS_PM --------------------------------------------------------------------------------------
  function automatic logic [63:0] pack(input logic [PhW-1:0] phase, input logic [AgW-1:0] age,
                                       input logic ended, input logic [EcW-1:0] endcnt,
                                       input logic [OvW-1:0] ovr, input logic icm, tak, trp, mis, lso,
                                       input logic [TtW-1:0] ttype, input logic val, stalled, kbm,
                                       input logic [TW-1:0] t);
    pack = (64'(phase) << EV67_F_OBS_PM_PHASE_LSB) | (64'(age) << EV67_F_OBS_PM_AGE_LSB)
         | (64'(ended) << EV67_F_OBS_PM_ENDED_LSB) | (64'(endcnt) << EV67_F_OBS_PM_ENDCNT_LSB)
         | (64'(ovr) << EV67_F_OBS_PM_OVR_LSB) | (64'(icm) << EV67_F_OBS_PM_ICM_LSB)
         | (64'(tak) << EV67_F_OBS_PM_TAK_LSB) | (64'(trp) << EV67_F_OBS_PM_TRP_LSB)
         | (64'(mis) << EV67_F_OBS_PM_MIS_LSB) | (64'(lso) << EV67_F_OBS_PM_LSO_LSB)
         | (64'(ttype) << EV67_F_OBS_PM_TRAP_TYPE_LSB) | (64'(val) << EV67_F_OBS_PM_VAL_LSB)
         | (64'(stalled) << EV67_F_OBS_PM_STALLED_LSB) | (64'(kbm) << EV67_F_OBS_PM_KBM_LSB)
         | (64'(t) << EV67_F_OBS_PM_TAG_LSB);
  endfunction

  assign obs_pm_o   = pack(phase_q, age_q, ended_q, endcnt_q, ovr_q, icm_q, tak_q, trp_q, mis_q, lso_q,
                           ttype_q, val_q, stalled_q, kbm_q, tag_q);
  assign obs_pm_d_o = pack(phase_d, age_d, ended_d, endcnt_d, ovr_d, icm_d, tak_d, trp_d, mis_d, lso_d,
                           ttype_d, val_d, stalled_d, kbm_d, tag_d);
  assign obs_pmpc_o = pmpc_q;

endmodule
