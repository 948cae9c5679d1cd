`include "ev67_defines.vh"

// ev67_pmu with the default parameters (docs/ev67.md), directed cases: the catch-up of more
// than 8 retires; an overflow through the two-stage latch (one PCTR_CTL write lets the
// request through, two writes clear it); HW_INT_CLR; the PAL hold-off of the line; a
// ProfileMe window from fetch to a retire end with its overcount (OVR), the capture of PMPC,
// I_STAT and VAL, and the window-end request.
module tb_ev67_pmu;

  `define TB_NAME "tb_ev67_pmu"
  `include "tb_common.svh"
  `include "ev67_defs.vh"

  localparam int AW = `EV67_ADDR_W;
  localparam int TW = `EV67_TAG_W;
  localparam int FM = `EV67_FETCH_MAX;
  localparam logic [19:0] Top2 = 20'hffffe;  // 2^20 - 2

  logic                                     clk = 1'b0, rst_n = 1'b1;
  logic                                     reg_we = 1'b0, cyc_valid = 1'b0;
  logic [AW-1:0]                            reg_addr = '0;
  logic [63:0]                              reg_wdata = '0, rdata;
  logic                                     pal = 1'b0, trap = 1'b0, trap_mis = 1'b0, trap_lso = 1'b0;
  logic                                     abort = 1'b0, bcmiss = 1'b0, mreplay = 1'b0;
  logic [`EV67_CNT_W-1:0]                   nfetch = '0, nstall = '0, nretire = '0, nsquash = '0;
  logic [FM*64-1:0]                         fetch_pc = '0;
  logic [FM*TW-1:0]                         fetch_tag = '0;
  logic [FM*`EV67_FLAGS_W-1:0]              fetch_flags = '0;
  logic [TW-1:0]                            stall_first = '0, trap_tag = '0, abort_first = '0;
  logic [TW-1:0]                            kbm_first = '0, head = '0;
  logic [`EV67_TRAP_TYPE_W-1:0]             trap_type = '0;
  logic [`EV67_RETIRE_MAX*TW-1:0]           retire = '0;
  logic [`EV67_SQUASH_MAX*TW-1:0]           squash = '0;
  logic                                     pmi;
  logic [`EV67_NVIS*64-1:0]                 vis;

  always #5 clk = ~clk;

  ev67_pmu u_dut (
    .clk_i(clk), .rst_ni(rst_n), .reg_we_i(reg_we), .reg_addr_i(reg_addr), .reg_wdata_i(reg_wdata),
    .reg_rdata_o(rdata), .cyc_valid_i(cyc_valid), .pal_i(pal), .nfetch_i(nfetch), .fetch_pc_i(fetch_pc),
    .fetch_tag_i(fetch_tag), .fetch_flags_i(fetch_flags), .nstall_i(nstall), .stall_first_i(stall_first),
    .trap_i(trap), .trap_type_i(trap_type), .trap_mis_i(trap_mis), .trap_lso_i(trap_lso),
    .trap_tag_i(trap_tag), .nretire_i(nretire), .retire_i(retire), .nsquash_i(nsquash), .squash_i(squash),
    .abort_i(abort), .abort_first_i(abort_first), .kbm_first_i(kbm_first), .head_i(head),
    .bcmiss_i(bcmiss), .mreplay_i(mreplay), .pmi_o(pmi), .obs_vis_o(vis));

  function automatic logic [63:0] v(input int idx);
    v = vis[idx*64 +: 64];
  endfunction
  function automatic logic [63:0] pctr_ctl(input logic sl0, input logic [1:0] sl1, input logic [19:0] c0,
                                           input logic [19:0] c1);
    pctr_ctl = (64'(sl0) << EV67_F_PCTR_CTL_SL0_LSB) | (64'(sl1) << EV67_F_PCTR_CTL_SL1_LSB)
             | (64'(c0) << EV67_F_PCTR_CTL_PCTR0_LSB) | (64'(c1) << EV67_F_PCTR_CTL_PCTR1_LSB);
  endfunction
  localparam logic [63:0] IctlAll = EV67_F_I_CTL_SPCE_MASK | EV67_F_I_CTL_PCT0_EN_MASK | EV67_F_I_CTL_PCT1_EN_MASK;

  task automatic wr(input logic [AW-1:0] a, input logic [63:0] d);
    @(negedge clk);
    reg_addr = a; reg_wdata = d; reg_we = 1'b1;
    @(posedge clk); #1;
    reg_we = 1'b0;
  endtask
  task automatic step;
    @(negedge clk);
    cyc_valid = 1'b1;
    @(posedge clk); #1;
    cyc_valid = 1'b0;
  endtask
  task automatic idle_rec;
    nfetch = '0; nretire = '0; trap = 1'b0; abort = 1'b0; nstall = '0; nsquash = '0;
  endtask
  task automatic reset;
    @(negedge clk); rst_n = 1'b0; @(negedge clk); rst_n = 1'b1;
  endtask

  function automatic logic [63:0] f(input logic [63:0] r, input int lsb, input int msb);
    f = (r >> lsb) & ((64'd1 << (msb - lsb + 1)) - 1);
  endfunction

  initial begin
    reset();
    check_eq(v(EV67_VIS_OBS_INT), EV67_OBS_INT_RESET, "reset: only PAL set");

    // ---- catch-up: 11 retires count 8 now and 3 in the next step ----
    wr(EV67_ADDR_I_CTL, IctlAll);
    wr(EV67_ADDR_PCTR_CTL, pctr_ctl(1'b0, 2'd0, 20'd0, 20'd0));
    idle_rec(); nretire = 8'd11;
    step();
    check_eq(f(v(EV67_VIS_OBS_CTR), EV67_F_OBS_CTR_PCTR0_LSB, EV67_F_OBS_CTR_PCTR0_MSB), 64'd8, "catch-up: 8");
    check_eq(f(v(EV67_VIS_OBS_AGG), EV67_F_OBS_AGG_BACKLOG_LSB, EV67_F_OBS_AGG_BACKLOG_MSB), 64'd3, "backlog 3");
    nretire = '0;
    step();
    check_eq(f(v(EV67_VIS_OBS_CTR), EV67_F_OBS_CTR_PCTR0_LSB, EV67_F_OBS_CTR_PCTR0_MSB), 64'd11, "caught up");

    // ---- overflow, one write: the latch shifts, REQ rises in the next step ----
    wr(EV67_ADDR_IER_CM, EV67_F_IER_CM_PCEN_MASK);
    wr(EV67_ADDR_PCTR_CTL, pctr_ctl(1'b0, 2'd0, 20'd0, 20'hfffff));
    step();  // PCTR1 carries: S1
    check_eq(f(v(EV67_VIS_OBS_INT), EV67_F_OBS_INT_S1_LSB, EV67_F_OBS_INT_S1_MSB), 64'd2, "carry in S1");
    wr(EV67_ADDR_PCTR_CTL, pctr_ctl(1'b0, 2'd0, 20'd0, 20'd0));  // one write: S2 = S1
    check_eq(f(v(EV67_VIS_OBS_INT), EV67_F_OBS_INT_S2_LSB, EV67_F_OBS_INT_S2_MSB), 64'd2, "shifted to S2");
    step();
    check_eq(f(v(EV67_VIS_OBS_INT), EV67_F_OBS_INT_REQ_LSB, EV67_F_OBS_INT_REQ_MSB), 64'd2, "one write: REQ");
    check(pmi === 1'b1, "line up");
    wr(EV67_ADDR_HW_INT_CLR, EV67_F_HW_INT_CLR_PC_MASK);
    check_eq(v(EV67_VIS_ISUM), 64'd0, "HW_INT_CLR clears");
    check(pmi === 1'b0, "line down");

    // ---- overflow, two writes: the request never rises ----
    wr(EV67_ADDR_PCTR_CTL, pctr_ctl(1'b0, 2'd0, 20'd0, 20'hfffff));
    step();
    wr(EV67_ADDR_PCTR_CTL, pctr_ctl(1'b0, 2'd0, 20'd0, 20'd0));
    wr(EV67_ADDR_PCTR_CTL, pctr_ctl(1'b0, 2'd0, 20'd0, 20'd0));
    repeat (3) step();
    check_eq(f(v(EV67_VIS_OBS_INT), EV67_F_OBS_INT_REQ_LSB, EV67_F_OBS_INT_REQ_MSB), 64'd0, "two writes: none");

    // ---- PAL hold-off: a request made in PAL records raises the line after a non-PAL one ----
    wr(EV67_ADDR_PCTR_CTL, pctr_ctl(1'b0, 2'd0, 20'd0, 20'hfffff));
    pal = 1'b1;
    repeat (3) step();
    check_eq(v(EV67_VIS_ISUM), EV67_F_ISUM_PC_MASK & (64'd2 << EV67_F_ISUM_PC_LSB), "ISUM in PALmode");
    check(pmi === 1'b0, "held off in PALmode");
    pal = 1'b0;
    step();
    check(pmi === 1'b1, "raised after a non-PAL record");
    wr(EV67_ADDR_HW_INT_CLR, EV67_F_HW_INT_CLR_PC_MASK);

    // ---- ProfileMe: fetch, overcount, window, retire end, capture ----
    wr(EV67_ADDR_PCTR_CTL, pctr_ctl(1'b1, 2'd0, Top2, 20'd0));
    idle_rec();
    nfetch = 8'd4;
    fetch_tag   = {TW'(203), TW'(202), TW'(201), TW'(200)};  // entry i at [i*TW +: TW]
    fetch_pc    = {64'h200c, 64'h2008, 64'h2004, 64'h2000};
    fetch_flags = (FM*`EV67_FLAGS_W)'(1) << (1 * `EV67_FLAGS_W + EV67_FF_TAKEN_BIT);
    step();  // s: P = fetch[1], tag 201
    check_eq(f(v(EV67_VIS_OBS_PM), EV67_F_OBS_PM_TAG_LSB, EV67_F_OBS_PM_TAG_MSB), 64'd201, "P's tag");
    check_eq(f(v(EV67_VIS_OBS_PM), EV67_F_OBS_PM_PHASE_LSB, EV67_F_OBS_PM_PHASE_MSB), 64'(EV67_PM_SELECTED),
             "selected");
    nfetch = 8'd2;
    step();  // s+1: overcount 2 + 2
    check_eq(f(v(EV67_VIS_OBS_PM), EV67_F_OBS_PM_OVR_LSB, EV67_F_OBS_PM_OVR_MSB), 64'd4, "OVR");
    nfetch = '0;
    repeat (3) step();  // s+2..s+4
    nretire = 8'd1; retire = (`EV67_RETIRE_MAX*TW)'(201);
    step();  // s+5 = E: P retires
    nretire = '0;
    check_eq(f(v(EV67_VIS_OBS_CTR), EV67_F_OBS_CTR_PCTR0_LSB, EV67_F_OBS_CTR_PCTR0_MSB), 64'd5, "OVR + 1 retire");
    step();
    check_eq(v(EV67_VIS_ISUM), 64'd0, "E + 1: no end yet");
    step();  // E + 2: end
    check_eq(v(EV67_VIS_ISUM), 64'd1 << EV67_F_ISUM_PC_LSB, "window end requests counter 0");
    check_eq(v(EV67_VIS_PMPC), 64'h2004, "PMPC");
    check_eq(f(v(EV67_VIS_I_STAT), EV67_F_I_STAT_OVR_LSB, EV67_F_I_STAT_OVR_MSB), 64'd4, "I_STAT.OVR");
    check_eq(f(v(EV67_VIS_PCTR_CTL), EV67_F_PCTR_CTL_VAL_LSB, EV67_F_PCTR_CTL_VAL_MSB), 64'd1, "VAL");
    check_eq(f(v(EV67_VIS_PCTR_CTL), EV67_F_PCTR_CTL_TAK_LSB, EV67_F_PCTR_CTL_TAK_MSB), 64'd1, "TAK");
    check_eq(f(v(EV67_VIS_PCTR_CTL), EV67_F_PCTR_CTL_PCTR1_LSB, EV67_F_PCTR_CTL_PCTR1_MSB), 64'd3,
             "PCTR1: window cycles s+5..s+7");
    check_eq(f(v(EV67_VIS_OBS_PM), EV67_F_OBS_PM_PHASE_LSB, EV67_F_OBS_PM_PHASE_MSB), 64'(EV67_PM_STOPPED),
             "stopped");
    reg_addr = EV67_ADDR_PCTR_CTL; #1;
    check_eq(rdata, v(EV67_VIS_PCTR_CTL), "the read port equals the visible state");
    tb_done();
  end

endmodule
