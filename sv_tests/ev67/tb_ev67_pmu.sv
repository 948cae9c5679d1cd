`include "ev67_defines.vh"

// ev67_pmu, directed cases on two instances that share every input (docs/ev67.md, the
// normative model of a cycle; the sv_tests/ev4 way of covering parameter sets):
//   DEF  ReadQuirk=1 IsumRace=0 ParkBlock=1  (the defaults, as the hardware)
//   OTH  ReadQuirk=0 IsumRace=1 ParkBlock=0  (the other end of every parameter)
// Covered: reset; the register masks; the catch-up of more than 8 retires; every input row of
// HRM Table 5-16 in both modes (SL0 0/1 x SL1 0..3) and the Bcache phase shift; the overflow
// latch's timing; each precaution of docs/ev67.md "Precautions" (the double write, the
// PAL-exit interrupt of a threshold write and HW_INT_CLR, the parked counter with and without
// ParkBlock, the PALmode hold-off, the disabled-read increment with and without ReadQuirk, the
// ISUM read race with and without IsumRace); PCTX.PPCE through the index-selected write;
// PCTR_CTL.SEXT; HW_INT_CLR write-1-to-clear and ISUM gating; ProfileMe selection, the
// overcount (OVR), every window end (trap with TRAP_TYPE/MIS/LSO, retire, abort after map,
// abort killed before map, squash, an early end) with PMPC, I_STAT, PCTR_CTL and the clock of
// the request, events naming P after the end event, selection and the enables, a PCTR1 carry
// in a window, the stop until PCTR_CTL is written, a window dropped by a write. After every
// clock, the read port of each instance returns its visible state (obs_vis_o).
module tb_ev67_pmu;

  `define TB_NAME "tb_ev67_pmu"
  `include "tb_common.svh"
  `include "ev67_defs.vh"

  localparam int NDut = 2;
  localparam int DEF = 0, OTH = 1;
  localparam int AW = `EV67_ADDR_W;
  localparam int TW = `EV67_TAG_W;
  localparam int FW = `EV67_FLAGS_W;
  localparam int CNW = `EV67_CNT_W;
  localparam logic [63:0] PcBase = 64'h0001_0000;
  // I_STAT.TRAP_TYPE values used below (HRM Table 5-12; include/common/ev67/ev67_cycle.h
  // ev67_trap_type).
  localparam logic [3:0] TrapReplay = 4'd0, TrapInvalid1 = 4'd1, TrapDtbSingle = 4'd6;

  // ---- shared stimulus ------------------------------------------------------------------------
  logic                                     clk = 1'b0, rst_n = 1'b1;
  logic                                     reg_we = 1'b0, cyc_valid = 1'b0;
  logic [AW-1:0]                            reg_addr = '0;
  logic [63:0]                              reg_wdata = '0;
  logic                                     pal, trap, trap_mis, trap_lso, abort, bcmiss, mreplay;
  logic [CNW-1:0]                           nfetch, nstall, nretire, nsquash;
  logic [`EV67_FETCH_MAX*64-1:0]            fetch_pc;
  logic [`EV67_FETCH_MAX*TW-1:0]            fetch_tag;
  logic [`EV67_FETCH_MAX*FW-1:0]            fetch_flags;
  logic [TW-1:0]                            stall_first, trap_tag, abort_first, kbm_first, head;
  logic [`EV67_TRAP_TYPE_W-1:0]             trap_type;
  logic [`EV67_RETIRE_MAX*TW-1:0]           retire;
  logic [`EV67_SQUASH_MAX*TW-1:0]           squash;

  always #5 clk = ~clk;

  // ---- the instances ----------------------------------------------------------------------------
  logic [63:0]              rdata [NDut];
  logic                     pmi   [NDut];
  logic [`EV67_NVIS*64-1:0] vis   [NDut];

  `define TB_DUT(IDX, Q, R, P)                                                                    \
    ev67_pmu #(.ReadQuirk(Q), .IsumRace(R), .ParkBlock(P)) u_dut_``IDX (                          \
      .clk_i(clk), .rst_ni(rst_n), .reg_we_i(reg_we), .reg_addr_i(reg_addr),                      \
      .reg_wdata_i(reg_wdata), .reg_rdata_o(rdata[IDX]), .cyc_valid_i(cyc_valid), .pal_i(pal),     \
      .nfetch_i(nfetch), .fetch_pc_i(fetch_pc), .fetch_tag_i(fetch_tag),                          \
      .fetch_flags_i(fetch_flags), .nstall_i(nstall), .stall_first_i(stall_first),                \
      .trap_i(trap), .trap_type_i(trap_type), .trap_mis_i(trap_mis), .trap_lso_i(trap_lso),       \
      .trap_tag_i(trap_tag), .nretire_i(nretire), .retire_i(retire), .nsquash_i(nsquash),         \
      .squash_i(squash), .abort_i(abort), .abort_first_i(abort_first), .kbm_first_i(kbm_first),   \
      .head_i(head), .bcmiss_i(bcmiss), .mreplay_i(mreplay), .pmi_o(pmi[IDX]), .obs_vis_o(vis[IDX]));

  `TB_DUT(0, 1'b1, 1'b0, 1'b1)
  `TB_DUT(1, 1'b0, 1'b1, 1'b0)

  // ---- fields (positions only from the generated localparams) ------------------------------------
  // FG: field FLD of register REG in a value; FS: a value with field FLD = X; VF: field of
  // instance I's visible register REG.
  `define FG(VAL, REG, FLD) (((VAL) & EV67_F_``REG``_``FLD``_MASK) >> EV67_F_``REG``_``FLD``_LSB)
  `define FS(REG, FLD, X) ((64'(X) << EV67_F_``REG``_``FLD``_LSB) & EV67_F_``REG``_``FLD``_MASK)
  `define VF(I, REG, FLD) `FG(vr(I, EV67_VIS_``REG), REG, FLD)
  // Checks on every instance (GOT may use the loop index i_) and on one.
  `define ALL(GOT, EXP, WHAT) for (int i_ = 0; i_ < NDut; i_++) chk(i_, GOT, EXP, WHAT)

  function automatic logic [63:0] vr(input int i, input int r);
    vr = vis[i][r*64 +: 64];
  endfunction
  function automatic logic [63:0] ctr(input int i, input int n);  // the true count
    ctr = n == 0 ? `VF(i, OBS_CTR, PCTR0) : `VF(i, OBS_CTR, PCTR1);
  endfunction
  function automatic logic [63:0] shown(input int i, input int n);  // as a PCTR_CTL read shows it
    shown = n == 0 ? `VF(i, PCTR_CTL, PCTR0) : `VF(i, PCTR_CTL, PCTR1);
  endfunction
  function automatic logic [63:0] req(input int i);
    req = `VF(i, OBS_INT, REQ);
  endfunction
  function automatic logic [63:0] isum(input int i);
    isum = `VF(i, ISUM, PC);
  endfunction
  function automatic string dname(input int i);
    dname = i == DEF ? "q1r0p1" : "q0r1p0";
  endfunction
  function automatic logic [63:0] pc_of(input logic [TW-1:0] tag);  // every instruction 4 bytes
    pc_of = PcBase + 64'(tag) * 64'd4;
  endfunction
  function automatic logic [FW-1:0] ff(input int bitpos);
    ff = FW'(1) << bitpos;
  endfunction

  string tcase = "";
  task automatic chk(input int i, input logic [63:0] got, input logic [63:0] exp, input string what);
    check_eq(got, exp, $sformatf("%s: %s [%s]", tcase, what, dname(i)));
  endtask

  // After every clock: each instance's read port, at every visible address, returns obs_vis_o.
  // The walk runs in a process of its own that the clock tasks wake: a simulator that inlines
  // tasks (Verilator) then builds it once, not once for every clock of every case.
  event agree_req, agree_done;
  task automatic ports_agree;
    -> agree_req;
    @(agree_done);
  endtask
  always begin : agree_walk
    string bad;
    @(agree_req);
    bad = "";
    for (int r = 0; r < `EV67_NVIS; r++) begin
      reg_addr = EV67_VIS_ADDR[r*AW +: AW];
      #1;
      for (int i = 0; i < NDut; i++)
        if (rdata[i] !== vr(i, r) && bad == "")
          bad = $sformatf(" (0x%0h [%s]: read 0x%016h, visible 0x%016h)", reg_addr, dname(i), rdata[i],
                          vr(i, r));
    end
    check(bad == "", {tcase, ": the read port returns the visible state", bad});
    -> agree_done;
  end
  // The read port of instance i at address a (combinational).
  task automatic rd(input int i, input logic [AW-1:0] a, output logic [63:0] d);
    reg_addr = a;
    #1;
    d = rdata[i];
  endtask

  // ---- the record (include/common/ev67/ev67_cycle.h): built field by field, consumed by step() ------------
  task automatic rec_clear;
    pal = 1'b0; nfetch = '0; fetch_pc = '0; fetch_tag = '0; fetch_flags = '0;
    nstall = '0; stall_first = '0; trap = 1'b0; trap_type = '0; trap_mis = 1'b0; trap_lso = 1'b0;
    trap_tag = '0; nretire = '0; retire = '0; nsquash = '0; squash = '0; abort = 1'b0;
    abort_first = '0; kbm_first = '0; head = '0; bcmiss = 1'b0; mreplay = 1'b0;
  endtask
  task automatic rec_fetch(input logic [TW-1:0] tag, input logic [FW-1:0] flags);
    fetch_tag[int'(nfetch)*TW +: TW]   = tag;
    fetch_pc[int'(nfetch)*64 +: 64]    = pc_of(tag);
    fetch_flags[int'(nfetch)*FW +: FW] = flags;
    nfetch = nfetch + 1'b1;
  endtask
  task automatic rec_fetch_n(input logic [TW-1:0] first, input int n);
    for (int k = 0; k < n; k++) rec_fetch(first + TW'(k), '0);
  endtask
  task automatic rec_retire(input logic [TW-1:0] tag);
    retire[int'(nretire)*TW +: TW] = tag;
    nretire = nretire + 1'b1;
  endtask
  task automatic rec_retire_n(input logic [TW-1:0] first, input int n);
    for (int k = 0; k < n; k++) rec_retire(first + TW'(k));
  endtask
  task automatic rec_squash(input logic [TW-1:0] tag);
    squash[int'(nsquash)*TW +: TW] = tag;
    nsquash = nsquash + 1'b1;
  endtask
  task automatic rec_trap(input logic [TW-1:0] tag, input logic [3:0] ty, input logic mis, input logic lso);
    trap = 1'b1; trap_tag = tag; trap_type = ty; trap_mis = mis; trap_lso = lso;
  endtask
  task automatic rec_abort(input logic [TW-1:0] first, input logic [TW-1:0] kbm);
    abort = 1'b1; abort_first = first; kbm_first = kbm;
  endtask
  task automatic rec_stall(input logic [TW-1:0] first, input int n);
    stall_first = first; nstall = CNW'(n);
  endtask

  // n steps of the current record, then the record is cleared.
  task automatic step_n(input int n);
    for (int k = 0; k < n; k++) begin
      @(negedge clk);
      cyc_valid = 1'b1;
      @(posedge clk);
      #1;
      cyc_valid = 1'b0;
      ports_agree();
    end
    rec_clear();
  endtask
  task automatic step;
    step_n(1);
  endtask

  // ---- the register port ---------------------------------------------------------------------------
  task automatic wr(input logic [AW-1:0] a, input logic [63:0] d);
    @(negedge clk);
    reg_addr = a; reg_wdata = d; reg_we = 1'b1;
    @(posedge clk);
    #1;
    reg_we = 1'b0;
    ports_agree();
  endtask
  task automatic ictl(input logic e0, input logic e1);
    wr(EV67_ADDR_I_CTL, `FS(I_CTL, SPCE, 1) | `FS(I_CTL, PCT0_EN, e0) | `FS(I_CTL, PCT1_EN, e1));
  endtask
  function automatic logic [63:0] pctr_ctl(input logic sl0, input logic [1:0] sl1, input logic [19:0] c0,
                                           input logic [19:0] c1);
    pctr_ctl = `FS(PCTR_CTL, SL0, sl0) | `FS(PCTR_CTL, SL1, sl1) | `FS(PCTR_CTL, PCTR0, c0)
             | `FS(PCTR_CTL, PCTR1, c1);
  endfunction
  task automatic ctl(input logic sl0, input logic [1:0] sl1, input logic [19:0] c0, input logic [19:0] c1);
    wr(EV67_ADDR_PCTR_CTL, pctr_ctl(sl0, sl1, c0, c1));
  endtask
  task automatic pcen(input logic [1:0] m);  // bit n: counter n
    wr(EV67_ADDR_IER_CM, `FS(IER_CM, PCEN, m));
  endtask
  task automatic int_clr(input logic [1:0] m);
    wr(EV67_ADDR_HW_INT_CLR, `FS(HW_INT_CLR, PC, m));
  endtask

  task automatic begin_case(input string name);
    tcase = name;
    rec_clear();
    @(negedge clk); rst_n = 1'b0;
    @(negedge clk); rst_n = 1'b1;
  endtask

  // ---- cases: registers ------------------------------------------------------------------------
  task automatic case_reset_and_masks;
    logic [63:0] d;
    begin_case("reset");
    for (int r = 0; r < `EV67_NVIS; r++)
      `ALL(vr(i_, r), r == EV67_VIS_OBS_INT ? EV67_OBS_INT_RESET : 64'd0,
           $sformatf("visible register %0d", r));
    `ALL(64'(pmi[i_]), 64'd0, "pmi");

    begin_case("register masks");
    wr(EV67_ADDR_I_CTL, '1);
    wr(EV67_ADDR_IER_CM, '1);
    `ALL(vr(i_, EV67_VIS_I_CTL), EV67_I_CTL_WMASK, "I_CTL holds only SPCE, PCT0_EN, PCT1_EN");
    `ALL(vr(i_, EV67_VIS_IER_CM), EV67_IER_CM_WMASK, "IER_CM holds only PCEN");
    wr(EV67_ADDR_PCTR_CTL, '1);  // enabled counters: no read quirk; RO fields keep 0
    `ALL(vr(i_, EV67_VIS_PCTR_CTL), EV67_PCTR_CTL_WMASK | EV67_F_PCTR_CTL_SEXT_MASK,
         "PCTR_CTL: the writable fields, SEXT from PCTR0, the RO flags 0");
    wr(EV67_ADDR_I_STAT, '1);
    wr(EV67_ADDR_ISUM, '1);
    wr(EV67_ADDR_PMPC, '1);
    wr(EV67_ADDR_OBS_CTR, '1);
    `ALL(vr(i_, EV67_VIS_I_STAT) | vr(i_, EV67_VIS_ISUM) | vr(i_, EV67_VIS_PMPC), 64'd0,
         "writes to read-only registers are ignored");
    `ALL(ctr(i_, 0), 64'hfffff, "a write to the observation port is ignored");
    for (int i = 0; i < NDut; i++) begin
      rd(i, EV67_ADDR_HW_INT_CLR, d);
      chk(i, d, 64'd0, "HW_INT_CLR reads 0");
      rd(i, '0, d);
      chk(i, d, 64'd0, "an unlisted address reads 0");
    end
  endtask

  task automatic case_catch_up;
    begin_case("catch-up");
    ictl(1'b1, 1'b1);
    ctl(1'b0, 2'd0, 20'd0, 20'd0);
    rec_retire_n(1, 11);
    step();
    `ALL(ctr(i_, 0), 64'd8, "11 retires: 8 counted");
    `ALL(`VF(i_, OBS_AGG, BACKLOG), 64'd3, "3 in the backlog");
    step();
    `ALL(ctr(i_, 0), 64'd11, "caught up in the next step");
    `ALL(`VF(i_, OBS_AGG, BACKLOG), 64'd0, "backlog empty");
  endtask

  // ---- cases: HRM Table 5-16 ------------------------------------------------------------------------
  // The expected increments, as docs/ev67.md's two tables state them, over the 4 steps below:
  // 3 retires each (d = 12), cycles 4, Bcache misses in 2, Mbox replays in 3, head = P in 1.
  function automatic logic [63:0] row_c0(input logic [1:0] sl1);  // both modes
    row_c0 = sl1[0] ? 64'd4 : 64'd12;  // 00, 10 retired instructions; 01, 11 cycles
  endfunction
  function automatic logic [63:0] row_c1(input logic sl0, input logic [1:0] sl1);
    case (sl1)
      2'd0:    row_c1 = 64'd4;               // cycles
      2'd1:    row_c1 = sl0 ? 64'd1 : 64'd0; // inum retire delay / not defined
      2'd2:    row_c1 = 64'd2;               // Bcache misses
      default: row_c1 = 64'd3;               // Mbox replay traps
    endcase
  endfunction
  task automatic table_rec(input int k, input logic [TW-1:0] p);
    rec_retire_n(TW'(10 + 3 * k), 3);
    bcmiss = k < 2;
    mreplay = k < 3;
    head = k == 0 ? p : TW'(10 + 3 * k + 3);
  endtask

  task automatic case_table_aggregate(input logic [1:0] sl1);
    begin_case($sformatf("Table 5-16 SL0=0 SL1=%0d", sl1));
    ictl(1'b1, 1'b1);
    step_n(3);  // fills the Bcache gate (counter 1 enabled 3 steps before)
    ctl(1'b0, sl1, 20'd0, 20'd0);
    for (int k = 0; k < 4; k++) begin
      table_rec(k, '0);
      step();
    end
    `ALL(ctr(i_, 0), row_c0(sl1), "PCTR0");
    `ALL(ctr(i_, 1), row_c1(1'b0, sl1), "PCTR1");
    `ALL(shown(i_, 0), row_c0(sl1), "PCTR0 read (enabled: exact)");
    `ALL(shown(i_, 1), row_c1(1'b0, sl1), "PCTR1 read (enabled: exact)");
  endtask

  // Aggregate Bcache row: the miss of step k counts when counter 1 was enabled in step k-3,
  // whatever it is now.
  task automatic case_bcache_shift;
    begin_case("Bcache phase shift");
    ctl(1'b0, 2'd2, 20'd0, 20'd0);
    ictl(1'b1, 1'b1);
    bcmiss = 1'b1;
    step_n(3);
    `ALL(ctr(i_, 1), 64'd0, "misses in the 3 steps after enabling are not counted");
    bcmiss = 1'b1;
    step();
    `ALL(ctr(i_, 1), 64'd1, "the 4th step's miss counts");
    ictl(1'b1, 1'b0);
    bcmiss = 1'b1;
    step_n(3);
    `ALL(ctr(i_, 1), 64'd4, "misses in the 3 steps after disabling are counted");
    bcmiss = 1'b1;
    step();
    `ALL(ctr(i_, 1), 64'd4, "then no more");
  endtask

  // ---- ProfileMe ------------------------------------------------------------------------------------
  localparam logic [TW-1:0] P = 101;  // fetch[1] of the fetch step, PCTR0 written 2^20 - 2

  // Arms with PCTR0 = 2^20 - 2 (both counters and counter 0's interrupt enabled), then step 1
  // fetches 100..103 (P = 101, flags pflags; fetch[i] with i = 2^20 - 1 - PCTR0 = 1) and step 2
  // fetches 104..107: OVR = 2 + 4 = 6. With early_kbm, step 1 also aborts P before its map.
  task automatic pm_select(input logic [1:0] sl1, input logic [FW-1:0] pflags, input logic early_kbm);
    ictl(1'b1, 1'b1);
    pcen(2'b01);
    ctl(1'b1, sl1, 20'hffffe, 20'd0);
    rec_fetch(100, '0); rec_fetch(P, pflags); rec_fetch(102, '0); rec_fetch(103, '0);
    if (early_kbm) rec_abort(P, P);
    step();
    `ALL(`VF(i_, OBS_PM, PHASE), 64'(EV67_PM_SELECTED), "step 1: P selected");
    `ALL(`VF(i_, OBS_PM, TAG), 64'(P), "step 1: P is the overflowing fetch");
    `ALL(`VF(i_, OBS_PMPC, PC), pc_of(P) >> EV67_F_OBS_PMPC_PC_LSB, "step 1: P's PC");
    `ALL(ctr(i_, 0), 64'd2, "step 1: PCTR0 keeps the 2 fetches after P");
    `ALL(`VF(i_, OBS_INT, S1), 64'd0, "step 1: the selection's carry is no overflow");
    `ALL(`VF(i_, OBS_PM, OVR), 64'd0, "step 1: OVR not yet");
    rec_fetch_n(104, 4);
    step();
    `ALL(`VF(i_, OBS_PM, AGE), 64'd1, "step 2: AGE 1");
    `ALL(`VF(i_, OBS_PM, OVR), 64'd6, "step 2: OVR = 2 + 4 fetches");
    `ALL(ctr(i_, 0), 64'd6, "step 2: PCTR0 = OVR");
  endtask

  // Steps 3..6 (AGE 2..4, then the window opens in step 6): 100 retires in step 3, P is the
  // head from then on; stall_p puts P in step 3's map-stall range.
  task automatic pm_open(input logic stall_p);
    rec_retire(100);
    head = P;
    if (stall_p) rec_stall(P, 1);
    step();
    head = P;
    step_n(2);
    `ALL(ctr(i_, 0), 64'd6, "steps 3..5: nothing counts");
    `ALL(ctr(i_, 1), 64'd0, "steps 3..5: PCTR1 counts nothing before the window");
    head = P;
    step();
    `ALL(`VF(i_, OBS_PM, AGE), 64'd5, "step 6: the window opens");
  endtask

  // After the end event's step E: the request comes in E + 2, not before.
  task automatic pm_after_e;
    `ALL(`VF(i_, OBS_PM, ENDED), 64'd1, "E: ended");
    `ALL(`VF(i_, OBS_PM, ENDCNT), 64'd0, "E: ENDCNT 0");
    `ALL(req(i_), 64'd0, "E: no request");
  endtask
  task automatic pm_e_plus_1;
    `ALL(`VF(i_, OBS_PM, ENDCNT), 64'd1, "E + 1: ENDCNT 1");
    `ALL(req(i_), 64'd0, "E + 1: no request");
    `ALL(64'(pmi[i_]), 64'd0, "E + 1: line low");
    `ALL(vr(i_, EV67_VIS_PMPC) | vr(i_, EV67_VIS_I_STAT), 64'd0, "E + 1: nothing captured yet");
  endtask

  // The end event's step E (records already set), E + 1 and E + 2, checking the quiet
  // steps before the capture.
  task automatic pm_steps_to_end;
    step();
    pm_after_e();
    step();
    pm_e_plus_1();
    step();
  endtask

  // What a window's end captures (docs/ev67.md "ProfileMe", the window's end).
  typedef struct packed {
    logic [TW-1:0] ptag;
    logic          trp;
    logic [3:0]    ty;
    logic          mis, lso, icm, val, tak, kbm, stalled, ppal;
    logic [2:0]    ovr;
    logic [19:0]   c0, c1;
  } pm_end_t;
  // The end cases' common expectation: P, OVR 6, SL1 = 1 counts over window steps 6..9
  // (PCTR0 cycles: 6 + 4; PCTR1 head = P: step 6), no flags.
  function automatic pm_end_t pm_end_base;
    pm_end_base = '0;
    pm_end_base.ptag = P;
    pm_end_base.ovr = 3'd6;
    pm_end_base.c0 = 20'd10;
    pm_end_base.c1 = 20'd1;
  endfunction

  // The window's end in this step: the request, the line, and the captured registers.
  task automatic pm_expect_end(input pm_end_t x);
    `ALL(req(i_), 64'd1, "E + 2: the window's end requests counter 0");
    `ALL(64'(pmi[i_]), 64'd1, "E + 2: line up");
    chk(DEF, isum(DEF), 64'd1, "E + 2: ISUM shows it");
    chk(OTH, isum(OTH), 64'd0, "E + 2: ISUM read in the race (IsumRace)");
    `ALL(`VF(i_, OBS_PM, PHASE), 64'(EV67_PM_STOPPED), "E + 2: stopped");
    `ALL(`VF(i_, OBS_PM, ENDCNT), 64'd2, "E + 2: ENDCNT 2");
    `ALL(vr(i_, EV67_VIS_PMPC), (pc_of(x.ptag) & EV67_F_PMPC_PC_MASK) | `FS(PMPC, PAL, x.ppal), "PMPC");
    `ALL(`VF(i_, I_STAT, OVR), 64'(x.ovr), "I_STAT.OVR");
    `ALL(`VF(i_, I_STAT, ICM), 64'(x.icm), "I_STAT.ICM");
    `ALL(`VF(i_, I_STAT, TRP), 64'(x.trp), "I_STAT.TRP");
    `ALL(`VF(i_, I_STAT, TRAP_TYPE), 64'(x.ty), "I_STAT.TRAP_TYPE");
    `ALL(`VF(i_, I_STAT, MIS), 64'(x.mis), "I_STAT.MIS");
    `ALL(`VF(i_, I_STAT, LSO), 64'(x.lso), "I_STAT.LSO");
    `ALL(`VF(i_, PCTR_CTL, VAL), 64'(x.val), "PCTR_CTL.VAL");
    `ALL(`VF(i_, PCTR_CTL, TAK), 64'(x.tak), "PCTR_CTL.TAK");
    `ALL(`VF(i_, PCTR_CTL, PM_KILLED_BM), 64'(x.kbm), "PCTR_CTL.PM_KILLED_BM");
    `ALL(`VF(i_, PCTR_CTL, PM_STALLED), 64'(x.stalled), "PCTR_CTL.PM_STALLED");
    `ALL(shown(i_, 0), 64'(x.c0), "PCTR_CTL.PCTR0");
    `ALL(shown(i_, 1), 64'(x.c1), "PCTR_CTL.PCTR1");
  endtask

  // Window rows: PCTR1 disabled before the window (its Bcache gate empty: aggregate would not
  // count the misses), enabled right before it; the rows' inputs also come before the window,
  // where nothing counts.
  task automatic case_table_profileme(input logic [1:0] sl1);
    begin_case($sformatf("Table 5-16 SL0=1 SL1=%0d", sl1));
    pm_select(sl1, '0, 1'b0);
    ictl(1'b1, 1'b0);
    for (int k = 0; k < 3; k++) begin
      table_rec(0, P);
      step();
    end
    `ALL(ctr(i_, 0), 64'd6, "steps 3..5: no count");
    `ALL(ctr(i_, 1), 64'd0, "steps 3..5: no count");
    ictl(1'b1, 1'b1);
    for (int k = 0; k < 4; k++) begin
      table_rec(k, P);
      step();
    end
    `ALL(`VF(i_, OBS_PM, PHASE), 64'(EV67_PM_SELECTED), "window still open");
    `ALL(ctr(i_, 0), 64'd6 + row_c0(sl1), "PCTR0 = OVR + window count");
    `ALL(ctr(i_, 1), row_c1(1'b1, sl1), "PCTR1 (Bcache: no phase shift)");
  endtask

  // The end cases, SL1 = 1: PCTR0 counts cycles (OVR 6 + window steps 6..9 = 10), PCTR1 the
  // window steps with head = P (step 6, and step 7 when P is still in flight after it).
  task automatic case_end_trap_then_retire;
    pm_end_t x;
    begin_case("end: trap (DTB single miss), retire in E + 1");
    pm_select(2'd1, '0, 1'b0);
    pm_open(1'b0);
    rec_trap(P, TrapDtbSingle, 1'b0, 1'b0);
    head = P;
    step();  // step 7 = E
    pm_after_e();
    rec_retire(P);
    head = 102;
    step();  // step 8: the retire after the trap is noted (up to e)
    pm_e_plus_1();
    head = 102;
    step();  // step 9 = E + 2
    x = pm_end_base();
    x.trp = 1'b1; x.ty = TrapDtbSingle; x.val = 1'b1; x.c1 = 20'd2;
    pm_expect_end(x);
  endtask

  task automatic case_end_trap_mis;
    pm_end_t x;
    begin_case("end: trap (mispredicted taken branch, MIS), retired in E");
    pm_select(2'd1, ff(EV67_FF_TAKEN_BIT) | ff(EV67_FF_ICM_BIT), 1'b0);
    pm_open(1'b0);
    rec_trap(P, TrapInvalid1, 1'b1, 1'b0);
    rec_retire(P);
    rec_abort(102, 108);  // the younger instructions, after their map
    head = 108;
    pm_steps_to_end();
    x = pm_end_base();
    x.trp = 1'b1; x.ty = TrapInvalid1; x.mis = 1'b1; x.icm = 1'b1; x.val = 1'b1; x.tak = 1'b1;
    pm_expect_end(x);
  endtask

  task automatic case_end_trap_lso;
    pm_end_t x;
    begin_case("end: trap (load-store order replay, LSO), aborted");
    pm_select(2'd1, '0, 1'b0);
    pm_open(1'b0);
    rec_trap(P, TrapReplay, 1'b0, 1'b1);
    rec_abort(P, 108);  // P and younger, after their map
    head = 108;
    pm_steps_to_end();
    x = pm_end_base();
    x.trp = 1'b1; x.ty = TrapReplay; x.lso = 1'b1;
    pm_expect_end(x);
  endtask

  task automatic case_end_retire;
    pm_end_t x;
    begin_case("end: retire; a stall, trap and abort naming P after E are not noted");
    pm_select(2'd1, '0, 1'b0);
    pm_open(1'b0);
    rec_retire(P);
    head = 102;
    step();
    pm_after_e();
    rec_stall(P, 1);
    rec_trap(P, TrapDtbSingle, 1'b1, 1'b1);
    rec_abort(P, P);
    step();
    pm_e_plus_1();
    step();
    x = pm_end_base();
    x.val = 1'b1;
    pm_expect_end(x);
  endtask

  task automatic case_end_abort_after_map;
    pm_end_t x;
    begin_case("end: abort after map");
    pm_select(2'd1, '0, 1'b0);
    pm_open(1'b0);
    rec_abort(P, 104);  // 101..103 after their map, 104.. before
    head = 108;
    pm_steps_to_end();
    x = pm_end_base();
    pm_expect_end(x);
  endtask

  task automatic case_end_abort_before_map;
    pm_end_t x;
    begin_case("end: abort killed before map (PM_KILLED_BM), stalled");
    pm_select(2'd1, '0, 1'b0);
    pm_open(1'b1);  // P waited before map in step 3
    rec_abort(P, P);
    head = 108;
    pm_steps_to_end();
    x = pm_end_base();
    x.kbm = 1'b1; x.stalled = 1'b1;
    pm_expect_end(x);
  endtask

  task automatic case_end_squash;
    pm_end_t x;
    begin_case("end: squash (a squashed NOP fetched in PALmode)");
    pm_select(2'd1, ff(EV67_FF_SQUASH_BIT) | ff(EV67_FF_PAL_BIT), 1'b0);
    `ALL(vr(i_, EV67_VIS_OBS_PMPC), (pc_of(P) & EV67_F_OBS_PMPC_PC_MASK) | `FS(OBS_PMPC, PAL, 1),
         "OBS_PMPC with PAL");
    pm_open(1'b0);
    rec_squash(P);
    head = 102;
    pm_steps_to_end();
    x = pm_end_base();
    x.ppal = 1'b1;
    pm_expect_end(x);
  endtask

  task automatic case_end_early;
    pm_end_t x;
    begin_case("end: killed before map in its fetch step (empty window)");
    pm_select(2'd1, '0, 1'b1);  // E = step 1; step 2 = E + 1
    pm_e_plus_1();
    step();  // step 3 = E + 2 < s + 5
    x = pm_end_base();
    x.kbm = 1'b1; x.c0 = 20'd6; x.c1 = 20'd0;
    pm_expect_end(x);
  endtask

  // OVR: up to 3 fetches after P in step s and 4 in step s+1; fetches in AGE 2..4 and in the
  // window do not count. Then the stop until PCTR_CTL is written.
  task automatic case_ovr_and_stop;
    pm_end_t x;
    begin_case("OVR 7, then stopped until PCTR_CTL is written");
    ictl(1'b1, 1'b1);
    pcen(2'b01);
    ctl(1'b1, 2'd0, 20'hfffff, 20'd0);  // P = fetch[0]
    rec_fetch_n(100, 4);
    step();
    `ALL(`VF(i_, OBS_PM, TAG), 64'd100, "P = fetch[0]");
    `ALL(ctr(i_, 0), 64'd3, "3 fetches after P");
    rec_fetch_n(104, 4);
    step();
    `ALL(`VF(i_, OBS_PM, OVR), 64'd7, "OVR 3 + 4");
    for (int k = 0; k < 3; k++) begin
      rec_fetch_n(TW'(108 + 4 * k), 4);
      step();
    end
    `ALL(ctr(i_, 0), 64'd7, "fetches in AGE 2..4 do not count");
    rec_fetch_n(120, 4);
    rec_retire(100);  // E = s + 5, the window's first step
    head = 101;
    step();
    rec_fetch_n(124, 4);
    step();
    rec_fetch_n(128, 4);
    step();  // e = s + 7
    // SL1 = 0: PCTR0 = OVR 7 + 1 retire (d of the window), PCTR1 = 3 window cycles.
    x = pm_end_base();
    x.ptag = 100; x.val = 1'b1; x.ovr = 3'd7; x.c0 = 20'd8; x.c1 = 20'd3;
    pm_expect_end(x);
    // Stopped: neither counter counts, no second request.
    int_clr(2'b01);
    for (int k = 0; k < 5; k++) begin
      rec_fetch_n(TW'(132 + 4 * k), 4);
      rec_retire_n(TW'(101 + 3 * k), 3);
      bcmiss = 1'b1;
      mreplay = 1'b1;
      step();
    end
    `ALL(ctr(i_, 0), 64'd8, "stopped: PCTR0 holds");
    `ALL(ctr(i_, 1), 64'd3, "stopped: PCTR1 holds");
    `ALL(`VF(i_, OBS_PM, PHASE), 64'(EV67_PM_STOPPED), "still stopped");
    `ALL(req(i_), 64'd0, "no second request");
    // The write re-arms; its RO flags (TAK, VAL given inverted) are ignored; the captured
    // registers stay.
    wr(EV67_ADDR_PCTR_CTL, pctr_ctl(1'b1, 2'd0, 20'hffff0, 20'd0) | `FS(PCTR_CTL, TAK, 1));
    `ALL(`VF(i_, OBS_PM, PHASE), 64'(EV67_PM_ARMED), "the write re-arms");
    `ALL(vr(i_, EV67_VIS_OBS_PM) | vr(i_, EV67_VIS_OBS_PMPC), 64'd0, "OBS_PM, OBS_PMPC cleared");
    `ALL(vr(i_, EV67_VIS_PMPC), pc_of(100), "PMPC kept");
    `ALL(`VF(i_, I_STAT, OVR), 64'd7, "I_STAT kept");
    `ALL(`VF(i_, PCTR_CTL, VAL), 64'd1, "VAL kept (read-only)");
    `ALL(`VF(i_, PCTR_CTL, TAK), 64'd0, "TAK kept (read-only)");
    rec_fetch_n(200, 2);
    step();
    `ALL(ctr(i_, 0), 64'hffff2, "counting fetches again");
  endtask

  task automatic case_ovr_disabled;
    begin_case("OVR with counter 0 disabled in the AGE 1 step");
    ictl(1'b1, 1'b1);
    ctl(1'b1, 2'd0, 20'hffffe, 20'd0);
    rec_fetch_n(100, 4);
    step();
    ictl(1'b0, 1'b1);
    rec_fetch_n(104, 4);
    step();
    `ALL(`VF(i_, OBS_PM, OVR), 64'd2, "OVR = PCTR0 after the step, fetches not counted");
    `ALL(ctr(i_, 0), 64'd2, "PCTR0");
  endtask

  // Selection needs en(0); once P is selected the enables gate only the increments.
  task automatic case_pm_enables;
    begin_case("ProfileMe: no selection while counter 0 is disabled");
    ictl(1'b0, 1'b1);
    ctl(1'b1, 2'd1, 20'hffffe, 20'd0);
    rec_fetch_n(90, 4);
    step();
    `ALL(`VF(i_, OBS_PM, PHASE), 64'(EV67_PM_ARMED), "still armed");
    `ALL(ctr(i_, 0), 64'hffffe, "no fetch counted");

    begin_case("ProfileMe: the machine follows P with both counters disabled");
    pm_select(2'd1, '0, 1'b0);
    ictl(1'b0, 1'b0);
    pm_open(1'b0);
    rec_retire(P);
    head = 102;
    step();
    step_n(2);  // e = E + 2
    `ALL(req(i_), 64'd1, "the window's end request");
    `ALL(`VF(i_, PCTR_CTL, VAL), 64'd1, "VAL");
    `ALL(ctr(i_, 0), 64'd6, "PCTR0: no window count");
    `ALL(ctr(i_, 1), 64'd0, "PCTR1: no window count");
    // The read quirk's increment is the aggregate input of SL1 = 01 (cycles; not defined).
    chk(DEF, shown(DEF, 0), 64'd7, "ReadQuirk: PCTR0 + 1 (cycles)");
    chk(DEF, shown(DEF, 1), 64'd0, "ReadQuirk: PCTR1 + 0 (not defined)");
    chk(OTH, shown(OTH, 0), 64'd6, "no ReadQuirk: the true count");
  endtask

  task automatic case_pm_pctr1_carry;
    begin_case("ProfileMe: a PCTR1 carry in the window goes through the latch");
    ictl(1'b1, 1'b1);
    pcen(2'b10);
    ctl(1'b1, 2'd0, 20'hffffe, 20'hfffff);
    rec_fetch_n(100, 4);
    step();
    step_n(4);
    `ALL(ctr(i_, 1), 64'hfffff, "steps s..s+4: PCTR1 counts nothing");
    step();  // s + 5: cycles
    `ALL(ctr(i_, 1), 64'd0, "wrapped");
    `ALL(`VF(i_, OBS_INT, S1), 64'd2, "the carry in S1");
    step();
    `ALL(req(i_), 64'd0, "no request yet");
    step();
    `ALL(req(i_), 64'd2, "REQ[1] two steps after the carry");
    `ALL(`VF(i_, OBS_PM, PHASE), 64'(EV67_PM_SELECTED), "the window goes on");
  endtask

  task automatic case_window_dropped;
    begin_case("a PCTR_CTL write drops a window without a request");
    pm_select(2'd1, '0, 1'b0);
    step_n(4);
    ctl(1'b1, 2'd1, 20'h100, 20'd0);
    `ALL(`VF(i_, OBS_PM, PHASE), 64'(EV67_PM_ARMED), "re-armed");
    rec_trap(P, TrapDtbSingle, 1'b0, 1'b0);
    step();
    step_n(4);
    `ALL(req(i_), 64'd0, "no request");
    `ALL(vr(i_, EV67_VIS_I_STAT), 64'd0, "nothing captured");
  endtask

  task automatic case_window_end_in_pal;
    begin_case("window end in PALmode: held off; a parked counter does not block it");
    ictl(1'b1, 1'b0);  // PCTR1 disabled above its maximum: parked
    pcen(2'b01);
    ctl(1'b1, 2'd0, 20'hffffe, 20'hffffe);
    rec_fetch_n(100, 4);
    step();  // P = 101
    step_n(4);
    rec_retire_n(100, 2);
    pal = 1'b1;
    step();  // E = s + 5
    pal = 1'b1;
    step_n(2);  // e, in PALmode
    `ALL(req(i_), 64'd1, "requested in PALmode");
    chk(DEF, isum(DEF), 64'd1, "ISUM shows it");
    `ALL(64'(pmi[i_]), 64'd0, "line held off");
    step();
    `ALL(64'(pmi[i_]), 64'd1, "raised after a non-PAL record");
    `ALL(isum(i_), 64'd1, "ISUM (the race is over)");
  endtask

  // ---- cases: the latch and the precautions ---------------------------------------------------------
  // PCTR0 counting retires from its legal maximum: the carry comes in the 2nd step (k).
  task automatic overflow0(input logic en1, input logic [19:0] c1);
    ictl(1'b1, en1);
    ctl(1'b0, 2'd0, EV67_CTR0_WMAX, c1);
    rec_retire_n(1, 8);
    step();
    rec_retire_n(9, 8);
    step();
    `ALL(ctr(i_, 0), 64'd0, "PCTR0 wrapped");
    `ALL(`VF(i_, OBS_INT, S1), 64'd1, "step k: the carry in S1");
  endtask

  task automatic case_latch;
    begin_case("latch: delivery two steps after the carry");
    pcen(2'b01);
    overflow0(1'b0, 20'd0);
    step();
    `ALL(`VF(i_, OBS_INT, S2), 64'd1, "k + 1: in S2");
    `ALL(req(i_), 64'd0, "k + 1: no request");
    step();
    `ALL(req(i_), 64'd1, "k + 2: REQ");
    `ALL(64'(pmi[i_]), 64'd1, "k + 2: line up");

    begin_case("precaution 1: one write lets the request through");
    overflow0(1'b0, 20'd0);
    ctl(1'b0, 2'd0, 20'd0, 20'd0);
    `ALL(`VF(i_, OBS_INT, S2), 64'd1, "shifted to S2");
    `ALL(`VF(i_, OBS_INT, S1), 64'd0, "S1 empty");
    step();
    `ALL(req(i_), 64'd1, "REQ");

    begin_case("precaution 1: two writes clear the latch");
    overflow0(1'b0, 20'd0);
    ctl(1'b0, 2'd0, 20'd0, 20'd0);
    ctl(1'b0, 2'd0, 20'd0, 20'd0);
    `ALL(`VF(i_, OBS_INT, S1) | `VF(i_, OBS_INT, S2), 64'd0, "latch empty");
    step_n(4);
    `ALL(req(i_), 64'd0, "no request");

    begin_case("PALmode hold-off of a latch delivery");
    pcen(2'b01);
    overflow0(1'b0, 20'd0);
    pal = 1'b1;
    step();
    pal = 1'b1;
    step();
    `ALL(req(i_), 64'd1, "REQ rises in PALmode");
    `ALL(`VF(i_, OBS_INT, PAL), 64'd1, "PAL");
    `ALL(64'(pmi[i_]), 64'd0, "line held off");
    step();
    `ALL(64'(pmi[i_]), 64'd1, "raised after a non-PAL record");
  endtask

  // Counts PCTR1 (cycles) to 2^20 - 2, above its legal maximum, then disables it.
  task automatic pctr1_near;
    ictl(1'b0, 1'b1);
    ctl(1'b0, 2'd0, 20'd0, 20'hffff8);
    step_n(6);
    `ALL(ctr(i_, 1), 64'hffffe, "PCTR1 counted to 2^20 - 2");
    ictl(1'b0, 1'b0);
  endtask

  task automatic case_threshold_write;
    begin_case("precaution 2: a threshold write interrupts on leaving PALmode");
    pcen(2'b10);
    pctr1_near();
    ctl(1'b0, 2'd0, 20'd0, 20'd0);
    `ALL(`VF(i_, OBS_INT, PEXIT), 64'd2, "PEXIT[1]");
    pal = 1'b1;
    step_n(3);
    `ALL(req(i_), 64'd0, "PAL records: no request");
    `ALL(`VF(i_, OBS_INT, PEXIT), 64'd2, "PEXIT kept");
    step();
    `ALL(req(i_), 64'd2, "the first non-PAL record: REQ[1]");
    `ALL(`VF(i_, OBS_INT, PEXIT), 64'd0, "PEXIT moved");
    `ALL(64'(pmi[i_]), 64'd1, "line up, counter disabled");

    begin_case("precaution 2: HW_INT_CLR clears the PAL-exit interrupt");
    pcen(2'b10);
    pctr1_near();
    ctl(1'b0, 2'd0, 20'd0, 20'd0);
    pal = 1'b1;
    step();
    int_clr(2'b10);
    `ALL(`VF(i_, OBS_INT, PEXIT), 64'd0, "PEXIT cleared");
    step_n(3);
    `ALL(req(i_), 64'd0, "no request");

    begin_case("precaution 2: the threshold is above the legal maxima");
    ctl(1'b0, 2'd0, EV67_CTR0_WMAX, EV67_CTR1_WMAX);
    ctl(1'b0, 2'd0, 20'd0, 20'd0);
    `ALL(`VF(i_, OBS_INT, PEXIT), 64'd0, "at the maxima: nothing armed");
    ctl(1'b0, 2'd0, EV67_CTR0_WMAX + 1'b1, EV67_CTR1_WMAX + 1'b1);
    ctl(1'b0, 2'd0, 20'd0, 20'd0);
    `ALL(`VF(i_, OBS_INT, PEXIT), 64'd3, "one above: both armed");
  endtask

  task automatic case_parked;
    begin_case("precaution 3: a parked counter holds back the latch");
    pcen(2'b01);
    overflow0(1'b0, 20'hffffe);  // PCTR1 disabled above its maximum: parked
    step();
    `ALL(req(i_), 64'd0, "k + 1: no request");
    step();
    chk(DEF, req(DEF), 64'd0, "k + 2: held back (ParkBlock)");
    chk(OTH, req(OTH), 64'd1, "k + 2: delivered (no ParkBlock)");
    step_n(3);
    chk(DEF, req(DEF), 64'd0, "still held back while parked");
    chk(DEF, `VF(DEF, OBS_INT, S2), 64'd1, "the bit waits in S2");
    ictl(1'b1, 1'b1);  // PCTR1 no longer parked
    step();
    `ALL(req(i_), 64'd1, "delivered in the first step not parked");

    begin_case("precaution 3: un-parking by a PCTR_CTL write loses the held bit");
    overflow0(1'b0, 20'hffffe);
    step_n(2);
    ctl(1'b0, 2'd0, 20'd0, 20'd0);  // shifts the latch; PCTR1 was near: PEXIT[1]
    `ALL(`VF(i_, OBS_INT, S2), 64'd0, "S2 = S1 = 0");
    step_n(3);
    chk(DEF, req(DEF), 64'd2, "only the PAL-exit request of counter 1");
    chk(OTH, req(OTH), 64'd3, "the delivered request and the PAL-exit one");
  endtask

  task automatic case_read_quirk;
    begin_case("precaution 5: a read of a disabled counter");
    ictl(1'b0, 1'b1);  // PCTR0 disabled (retires), PCTR1 enabled (cycles)
    ctl(1'b0, 2'd0, 20'h7fffe, 20'd5);
    rec_retire_n(1, 6);
    step();
    `ALL(ctr(i_, 0), 64'h7fffe, "PCTR0 disabled: no count");
    chk(DEF, shown(DEF, 0), 64'h80002, "ReadQuirk: PCTR0 + min(6, 4)");
    chk(OTH, shown(OTH, 0), 64'h7fffe, "no ReadQuirk: the true count");
    chk(DEF, `VF(DEF, PCTR_CTL, SEXT), 64'hffff, "SEXT follows the PCTR0 shown");
    chk(OTH, `VF(OTH, PCTR_CTL, SEXT), 64'h0, "SEXT follows the PCTR0 shown");
    `ALL(shown(i_, 1), 64'd6, "PCTR1 enabled: exact");
    chk(DEF, `VF(DEF, OBS_AGG, QINC0), 64'd4, "QINC0");
    chk(DEF, `VF(DEF, OBS_AGG, QINC1), 64'd1, "QINC1");
    ictl(1'b0, 1'b0);
    `ALL(shown(i_, 1), 64'd6, "after a write clock: exact");
    `ALL(shown(i_, 0), 64'h7fffe, "after a write clock: exact");
    step();
    `ALL(ctr(i_, 1), 64'd6, "PCTR1 disabled: no count");
    chk(DEF, shown(DEF, 1), 64'd7, "ReadQuirk: PCTR1 + 1 (cycles)");
    chk(OTH, shown(OTH, 1), 64'd6, "no ReadQuirk: the true count");
    ctl(1'b0, 2'd0, 20'h7fffe, 20'd5);
    `ALL(shown(i_, 0), 64'h7fffe, "a read right after a write shows what was written");
    `ALL(shown(i_, 1), 64'd5, "a read right after a write shows what was written");
  endtask

  task automatic case_isum_race;
    logic [63:0] d;
    begin_case("precaution 6: the ISUM read race");
    pcen(2'b01);
    overflow0(1'b0, 20'd0);
    step();
    step();  // REQ[0] rises
    `ALL(`VF(i_, OBS_INT, RACE), 64'd1, "RACE");
    `ALL(req(i_), 64'd1, "REQ");
    `ALL(64'(pmi[i_]), 64'd1, "line up");
    chk(DEF, isum(DEF), 64'd1, "no IsumRace: ISUM shows it");
    chk(OTH, isum(OTH), 64'd0, "IsumRace: ISUM reads 0");
    rd(OTH, EV67_ADDR_ISUM, d);
    chk(OTH, d, 64'd0, "IsumRace: the ISUM port reads 0");
    step();
    `ALL(`VF(i_, OBS_INT, RACE), 64'd0, "the next clock ends the race");
    `ALL(isum(i_), 64'd1, "ISUM shows it");

    begin_case("precaution 6: a write ends the race");
    pcen(2'b01);
    overflow0(1'b0, 20'd0);
    step_n(2);
    chk(OTH, isum(OTH), 64'd0, "IsumRace: ISUM reads 0");
    wr('0, 64'd0);  // an unlisted address: a write clock all the same
    `ALL(isum(i_), 64'd1, "ISUM shows it");
  endtask

  // ---- cases: PCTX, SEXT, HW_INT_CLR --------------------------------------------------------------
  task automatic case_pctx;
    logic ppce, nv;
    logic [AW-1:0] a;
    logic [63:0] d;
    begin_case("PCTX.PPCE through the index-selected write");
    wr(EV67_ADDR_I_CTL, `FS(I_CTL, PCT0_EN, 1) | `FS(I_CTL, PCT1_EN, 1));  // SPCE = 0
    ctl(1'b0, 2'd0, 20'd0, 20'd0);
    step();
    `ALL(ctr(i_, 1), 64'd0, "SPCE = PPCE = 0: no count");
    ppce = 1'b0;
    for (int k = 0; k < EV67_PCTX_SPAN; k++) begin
      a = EV67_ADDR_PCTX + AW'(k);
      nv = ~ppce;
      wr(a, `FS(PCTX, PPCE, nv));
      if (a[EV67_PCTX_SEL_PPCE]) ppce = nv;
      `ALL(vr(i_, EV67_VIS_PCTX), `FS(PCTX, PPCE, ppce), $sformatf("after a write at 0x%0h", a));
      for (int i = 0; i < NDut; i++) begin
        rd(i, EV67_ADDR_PCTX + AW'(EV67_PCTX_SPAN - 1 - k), d);
        chk(i, d, `FS(PCTX, PPCE, ppce), "read at the mirrored address");
      end
    end
    wr(EV67_ADDR_PCTX, `FS(PCTX, PPCE, 1));  // index bit 3 = 0: no change
    `ALL(vr(i_, EV67_VIS_PCTX), 64'd0, "a write with index bit 3 = 0 changes nothing");
    step();
    `ALL(ctr(i_, 1), 64'd0, "still no count");
    wr(EV67_ADDR_PCTX | AW'(1 << EV67_PCTX_SEL_PPCE), '1);
    `ALL(vr(i_, EV67_VIS_PCTX), EV67_PCTX_WMASK, "PPCE set; the other bits read 0");
    step();
    `ALL(ctr(i_, 1), 64'd1, "PPCE enables counting instead of SPCE");
    ictl(1'b1, 1'b0);  // SPCE set, PCT1_EN clear
    step();
    `ALL(ctr(i_, 1), 64'd1, "PPCE alone does not count a counter whose PCTn_EN is clear");
  endtask

  task automatic case_sext;
    begin_case("PCTR_CTL.SEXT");
    ictl(1'b1, 1'b1);  // enabled: no read quirk
    ctl(1'b0, 2'd1, 20'h80000, 20'hfffff);
    `ALL(`VF(i_, PCTR_CTL, SEXT), 64'hffff, "PCTR0 bit 19 = 1");
    ctl(1'b0, 2'd1, 20'h7ffff, 20'hfffff);
    `ALL(`VF(i_, PCTR_CTL, SEXT), 64'h0, "PCTR0 bit 19 = 0 (PCTR1 plays no part)");
    step();  // cycles: 0x80000
    `ALL(`VF(i_, PCTR_CTL, SEXT), 64'hffff, "after counting across");
  endtask

  task automatic case_hw_int_clr;
    logic [63:0] d;
    begin_case("HW_INT_CLR write-1-to-clear, ISUM gating");
    ictl(1'b1, 1'b1);
    ctl(1'b0, 2'd0, 20'hfffff, 20'hfffff);
    rec_retire(1);
    step();  // both carry
    step_n(2);
    `ALL(req(i_), 64'd3, "both requests");
    `ALL(isum(i_), 64'd0, "PCEN = 0: ISUM 0");
    `ALL(64'(pmi[i_]), 64'd0, "PCEN = 0: line low");
    pcen(2'b10);
    `ALL(isum(i_), 64'd2, "ISUM = REQ & PCEN");
    `ALL(64'(pmi[i_]), 64'd1, "line up");
    wr(EV67_ADDR_HW_INT_CLR, ~EV67_F_HW_INT_CLR_PC_MASK);
    int_clr(2'b00);
    `ALL(req(i_), 64'd3, "writing 0s (and bits outside PC) clears nothing");
    for (int i = 0; i < NDut; i++) begin
      rd(i, EV67_ADDR_HW_INT_CLR, d);
      chk(i, d, 64'd0, "HW_INT_CLR reads 0");
    end
    int_clr(2'b10);
    `ALL(req(i_), 64'd1, "a 1 clears counter 1's request only");
    `ALL(64'(pmi[i_]), 64'd0, "line low (counter 0 not enabled)");
    step_n(2);
    `ALL(req(i_), 64'd1, "counter 0's request stays");
    int_clr(2'b01);
    `ALL(req(i_), 64'd0, "cleared");
  endtask

  initial begin
    rec_clear();
    case_reset_and_masks();
    case_catch_up();
    for (int s = 0; s < 4; s++) case_table_aggregate(2'(s));
    case_bcache_shift();
    for (int s = 0; s < 4; s++) case_table_profileme(2'(s));
    case_end_trap_then_retire();
    case_end_trap_mis();
    case_end_trap_lso();
    case_end_retire();
    case_end_abort_after_map();
    case_end_abort_before_map();
    case_end_squash();
    case_end_early();
    case_ovr_and_stop();
    case_ovr_disabled();
    case_pm_enables();
    case_pm_pctr1_carry();
    case_window_dropped();
    case_window_end_in_pal();
    case_latch();
    case_threshold_write();
    case_parked();
    case_read_quirk();
    case_isum_race();
    case_pctx();
    case_sext();
    case_hw_int_clr();
    tb_done();
  end

endmodule
