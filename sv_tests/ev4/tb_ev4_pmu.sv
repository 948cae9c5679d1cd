`include "ev4_defines.vh"

// ev4_pmu, directed cases on three instances that share every input (docs/ev4.md):
//   PME    HasPme=1, default widths, Mux0Undef=0 (the 21064)
//   P2     HasPme=0                                (the 21064-pass2)
//   WIDE   HasPme=1, 32-bit counters, Mux0Undef=1
// Covered: reset; the register masks (ICCSR with and without PME, HIER, HIRR read-only,
// SL_CLR write-only, the observation port read-only, unlisted addresses, an address above
// 0xff); obs_vis_o equal to the reads; the half-count bit (single issues carry into COUNT,
// whole events leave HALF); the events of every MUX1 code and several MUX0 codes, slots past
// nissue not counted; undefined MUX0 codes under both Mux0Undef; PME gating and pass 2
// counting always; period crossings (short and long, the wrap when k = Width, a PC change
// mid-count), the sticky request, HIER gating pmi, SL_CLR (a 1 leaves, a 0 clears, a second
// crossing while pending is lost).
module tb_ev4_pmu;

  `define TB_NAME "tb_ev4_pmu"
  `include "tb_common.svh"
  `include "ev4_defs.vh"

  localparam int NDut = 3;
  localparam int PME = 0, P2 = 1, WIDE = 2;
  localparam int AW = `EV4_ADDR_W;
  localparam int CW = `EV4_CLASS_W;

  // ---- shared stimulus ----------------------------------------------------------------------
  logic                                   clk = 1'b0;
  logic                                   rst_n = 1'b1;
  logic                                   reg_we = 1'b0;
  logic [AW-1:0]                          reg_addr = '0;
  logic [63:0]                            reg_wdata = '0;
  logic                                   cyc_valid = 1'b0;
  logic [`EV4_MODE_W-1:0]                 mode = '0;
  logic [`EV4_NISSUE_W-1:0]               nissue = '0;
  logic [`EV4_MAX_ISSUE*CW-1:0]           cls = '0;
  logic [`EV4_MAX_ISSUE-1:0]              replay = '0;
  logic [`EV4_STALL_W-1:0]                stall = '0;
  logic                                   dmiss = 1'b0, imiss = 1'b0, mispredict = 1'b0;
  logic                                   pin0 = 1'b0, pin1 = 1'b0;

  always #5 clk = ~clk;

  // ---- the instances --------------------------------------------------------------------------
  logic [63:0]             rdata [NDut];
  logic                    pmi [NDut];
  logic [`EV4_NVIS*64-1:0] vis [NDut];

  `define TB_DUT(IDX, PMEB, W0, W1, UNDEF)                                                 \
    ev4_pmu #(.HasPme(PMEB), .Ctr0Width(W0), .Ctr1Width(W1), .Mux0Undef(UNDEF)) u_dut_``IDX ( \
      .clk_i(clk), .rst_ni(rst_n), .reg_we_i(reg_we), .reg_addr_i(reg_addr),                \
      .reg_wdata_i(reg_wdata), .reg_rdata_o(rdata[IDX]), .cyc_valid_i(cyc_valid),          \
      .mode_i(mode), .nissue_i(nissue), .cls_i(cls), .replay_i(replay), .stall_i(stall),    \
      .dmiss_i(dmiss), .imiss_i(imiss), .mispredict_i(mispredict), .pin0_i(pin0),          \
      .pin1_i(pin1), .pmi_o(pmi[IDX]), .obs_vis_o(vis[IDX]));

  `TB_DUT(0, 1'b1, 16, 12, 1'b0)
  `TB_DUT(1, 1'b0, 16, 12, 1'b0)
  `TB_DUT(2, 1'b1, 32, 32, 1'b1)

  // ---- values from fields --------------------------------------------------------------------
  function automatic logic [63:0] iccsr(input logic pc0, input logic pc1, input logic [3:0] mux0,
                                        input logic [2:0] mux1, input logic pme0, input logic pme1);
    iccsr = ({63'd0, pc0}  << EV4_F_ICCSR_PC0_LSB)
          | ({63'd0, pc1}  << EV4_F_ICCSR_PC1_LSB)
          | ({60'd0, mux0} << EV4_F_ICCSR_MUX0_LSB)
          | ({61'd0, mux1} << EV4_F_ICCSR_MUX1_LSB)
          | ({63'd0, pme0} << EV4_F_ICCSR_PME0_LSB)
          | ({63'd0, pme1} << EV4_F_ICCSR_PME1_LSB);
  endfunction
  // Counter 0 selects mux0, counter 1 mux1, both enabled, long periods.
  function automatic logic [63:0] sel(input logic [3:0] mux0, input logic [2:0] mux1);
    sel = iccsr(1'b0, 1'b0, mux0, mux1, 1'b1, 1'b1);
  endfunction
  function automatic logic [63:0] ctr0(input logic [31:0] count, input logic half);
    ctr0 = ({32'd0, count} << EV4_F_CTR0_COUNT_LSB) | ({63'd0, half} << EV4_F_CTR0_HALF_LSB);
  endfunction
  localparam logic [63:0] HirrPc0 = EV4_F_HIRR_PC0_MASK;
  localparam logic [63:0] HirrPc1 = EV4_F_HIRR_PC1_MASK;
  localparam logic [63:0] HierPc0 = EV4_F_HIER_PC0_MASK;
  localparam logic [63:0] HierPc1 = EV4_F_HIER_PC1_MASK;
  // SL_CLR values: a 0 in PCn clears request n.
  localparam logic [63:0] KeepBoth = EV4_F_SL_CLR_PC0_MASK | EV4_F_SL_CLR_PC1_MASK;
  localparam logic [63:0] ClrPc0   = EV4_F_SL_CLR_PC1_MASK;
  localparam logic [63:0] ClrPc1   = EV4_F_SL_CLR_PC0_MASK;

  // ---- clocks -----------------------------------------------------------------------------------
  task automatic tick;
    @(posedge clk);
    #1;
  endtask

  task automatic wr(input logic [AW-1:0] a, input logic [63:0] v);
    reg_we = 1'b1; reg_addr = a; reg_wdata = v;
    tick();
    reg_we = 1'b0;
  endtask

  function automatic logic [63:0] vis_of(input int d, input int v);
    vis_of = vis[d][v*64 +: 64];
  endfunction

  task automatic rd(input int d, input logic [AW-1:0] a, output logic [63:0] v);
    reg_addr = a;
    #1;
    v = rdata[d];
  endtask

  task automatic rec(input logic [1:0] n, input logic [CW-1:0] c0, input logic [CW-1:0] c1);
    nissue = n;
    cls = {c1, c0};
    stall = (n == 0) ? EV4_STALL_DRY : EV4_STALL_NONE;
    mode = EV4_MODE_KERNEL;
    {dmiss, imiss, mispredict, pin0, pin1} = '0;
  endtask

  task automatic step;
    cyc_valid = 1'b1;
    tick();
    cyc_valid = 1'b0;
  endtask

  task automatic steps(input int n);
    cyc_valid = 1'b1;
    repeat (n) tick();
    cyc_valid = 1'b0;
  endtask

  // Counters back to 0: a reset (the counters have no write port).
  task automatic reset_all;
    rst_n = 1'b0;
    #1;
    rst_n = 1'b1;
    tick();
  endtask

  task automatic check_vis_matches_reads(input string what);
    logic [63:0] v;
    for (int d = 0; d < NDut; d++)
      for (int i = 0; i < EV4_NVIS; i++) begin
        rd(d, EV4_VIS_ADDR[i*AW +: AW], v);
        check_eq(vis_of(d, i), v, $sformatf("%s: dut %0d obs_vis_o[%0d] equals its read", what, d, i));
      end
  endtask

  // One step of a record with counter 0 on mux0 and counter 1 on mux1 from zero; the counters'
  // increments on instance d (counter 0 in halves, as {COUNT, HALF}).
  task automatic inc_of(input int d, input logic [3:0] mux0, input logic [2:0] mux1,
                        output logic [32:0] halves0, output logic [31:0] n1);
    logic [63:0] c0, c1;
    reset_all();
    wr(EV4_ADDR_ICCSR, sel(mux0, mux1));
    step();
    c0 = vis_of(d, EV4_VIS_CTR0);
    c1 = vis_of(d, EV4_VIS_CTR1);
    halves0 = {c0[31:0], c0[EV4_F_CTR0_HALF_LSB]};
    n1 = c1[31:0];
  endtask

  logic [63:0] v;
  logic [32:0] h0;
  logic [31:0] n1;

  initial begin
    // ---- reset (an edge of rst_n: the flops reset asynchronously) ----
    #1;
    rst_n = 1'b0;
    tick();
    rst_n = 1'b1;
    tick();
    for (int d = 0; d < NDut; d++) begin
      for (int i = 0; i < EV4_NVIS; i++)
        check_eq(vis_of(d, i), 64'd0, $sformatf("reset: dut %0d visible register %0d is 0", d, i));
      check(pmi[d] == 1'b0, $sformatf("reset: dut %0d pmi = 0", d));
    end

    // ---- register masks ----
    wr(EV4_ADDR_ICCSR, '1);
    rd(PME, EV4_ADDR_ICCSR, v);
    check_eq(v, EV4_ICCSR_MASK, "ICCSR all ones: the 21064 keeps its fields, PME included");
    rd(P2, EV4_ADDR_ICCSR, v);
    check_eq(v, EV4_ICCSR_MASK & ~(EV4_F_ICCSR_PME0_MASK | EV4_F_ICCSR_PME1_MASK),
             "ICCSR all ones: pass 2 has no PME bits");
    wr(EV4_ADDR_ICCSR, 64'd0);
    wr(EV4_ADDR_HIER, '1);
    rd(PME, EV4_ADDR_HIER, v);
    check_eq(v, EV4_HIER_MASK, "HIER all ones reads its PC0/PC1 enables");
    check_eq(EV4_HIER_MASK, HierPc0 | HierPc1, "HIER's fields are PC0 and PC1");
    wr(EV4_ADDR_HIRR, '1);
    wr(EV4_ADDR_CTR0, '1);
    wr(EV4_ADDR_CTR1, '1);
    wr(16'h0003, '1);
    wr(16'h0102, '1);  // ICCSR's address plus 0x100: no alias
    for (int d = 0; d < NDut; d++) begin
      check_eq(vis_of(d, EV4_VIS_HIRR), 64'd0, "writes to HIRR are ignored");
      check_eq(vis_of(d, EV4_VIS_CTR0), 64'd0, "writes to CTR0 are ignored");
      check_eq(vis_of(d, EV4_VIS_CTR1), 64'd0, "writes to CTR1 are ignored");
      check_eq(vis_of(d, EV4_VIS_ICCSR), 64'd0, "writes to unlisted addresses are ignored");
      rd(d, EV4_ADDR_SL_CLR, v);
      check_eq(v, 64'd0, "SL_CLR reads 0");
      rd(d, 16'h0003, v);
      check_eq(v, 64'd0, "an unlisted address reads 0");
      rd(d, 16'h0110, v);
      check_eq(v, 64'd0, "HIER's address plus 0x100 reads 0");
    end
    check(pmi[PME] == 1'b0, "enables without requests: pmi = 0");
    check_vis_matches_reads("after the mask writes");
    wr(EV4_ADDR_HIER, 64'd0);

    // ---- the half-count bit: Issues counts halves; single issues carry into COUNT ----
    reset_all();
    wr(EV4_ADDR_ICCSR, sel(EV4_MUX_PF_ISSUES, EV4_MUX_PF_DUAL));
    rec(2'd1, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(0, 1'b1), "one single issue: HALF set, COUNT 0");
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(1, 1'b0), "two single issues: carried into COUNT");
    rec(2'd2, EV4_CLASS_INTOP, EV4_CLASS_LOAD);
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(2, 1'b0), "a dual issue counts one");
    check_eq(vis_of(PME, EV4_VIS_CTR1), 64'd1, "PF_DUAL counts the dual-issue cycle");
    rec(2'd1, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    step();
    rec(2'd2, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(3, 1'b1), "a dual issue leaves a pending half as it is");
    rec(2'd0, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(3, 1'b1), "no issue: Issues counts nothing");
    wr(EV4_ADDR_ICCSR, sel(EV4_MUX_PF_NONISSUES, EV4_MUX_PF_DUAL));
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(3, 1'b1), "changing MUX0 keeps the count and HALF");
    rec(2'd1, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(4, 1'b0), "Non-issues: a single issue adds a half (carry)");
    rec(2'd0, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(5, 1'b0), "Non-issues: a no-issue cycle adds one");
    rec(2'd1, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    step();
    wr(EV4_ADDR_ICCSR, sel(EV4_MUX_PF_CYCLES, EV4_MUX_PF_DUAL));
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(6, 1'b1), "a whole event (Cycles) leaves HALF set");
    check_eq(vis_of(P2, EV4_VIS_CTR0), ctr0(6, 1'b1), "pass 2 counts the same");
    check_eq(vis_of(WIDE, EV4_VIS_CTR0), ctr0(6, 1'b1), "the 32-bit counter counts the same");
    check_vis_matches_reads("after counting halves");

    // ---- counter 1's events, one per MUX1 code ----
    // The record: a load and a store issued, a D-cache miss, a mispredict, pin 1.
    for (int code = 0; code < 8; code++) begin
      logic [31:0] expect1;
      rec(2'd2, EV4_CLASS_STORE, EV4_CLASS_FPOP);
      dmiss = 1'b1; mispredict = 1'b1; pin1 = 1'b1;
      inc_of(PME, EV4_MUX_PF_CYCLES, code[2:0], h0, n1);
      case (code[2:0])
        EV4_MUX_PF_DCACHE:     expect1 = 1;
        EV4_MUX_PF_ICACHE:     expect1 = 0;
        EV4_MUX_PF_DUAL:       expect1 = 1;
        EV4_MUX_PF_BRANCHMISS: expect1 = 1;
        EV4_MUX_PF_FPINST:     expect1 = 1;
        EV4_MUX_PF_INTOPS:     expect1 = 0;
        EV4_MUX_PF_STOREI:     expect1 = 1;
        EV4_MUX_PF_EXTPIN1:    expect1 = 1;
        default:               expect1 = 32'hx;
      endcase
      check_eq({32'd0, n1}, {32'd0, expect1}, $sformatf("MUX1 code %0d on a store+fpop record", code));
    end
    // Two intops; an imiss.
    rec(2'd2, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    imiss = 1'b1;
    inc_of(PME, EV4_MUX_PF_CYCLES, EV4_MUX_PF_INTOPS, h0, n1);
    check_eq({32'd0, n1}, 64'd2, "PF_INTOPS counts both issued intops");
    imiss = 1'b1;
    inc_of(PME, EV4_MUX_PF_CYCLES, EV4_MUX_PF_ICACHE, h0, n1);
    check_eq({32'd0, n1}, 64'd1, "PF_ICACHE counts the I-cache miss");
    // One issue: the second slot's class is not an instruction (0 is an intop).
    rec(2'd1, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    inc_of(PME, EV4_MUX_PF_CYCLES, EV4_MUX_PF_INTOPS, h0, n1);
    check_eq({32'd0, n1}, 64'd1, "slots past nissue are not counted");

    // ---- counter 0's events ----
    rec(2'd2, EV4_CLASS_LOAD, EV4_CLASS_LOAD);
    replay = 2'b10;  // the replayed load is an issued load: counted again, not twice
    inc_of(PME, EV4_MUX_PF_LOADI, EV4_MUX_PF_DCACHE, h0, n1);
    check_eq({31'd0, h0}, 64'd4, "PF_LOADI: two loads are 4 halves (COUNT 2, HALF 0)");
    replay = '0;
    rec(2'd2, EV4_CLASS_BRANCH, EV4_CLASS_LOAD);
    inc_of(PME, EV4_MUX_PF_BRANCHI, EV4_MUX_PF_DCACHE, h0, n1);
    check_eq({31'd0, h0}, 64'd2, "PF_BRANCHI counts the branch");
    rec(2'd0, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    stall = EV4_STALL_FROZEN;
    inc_of(PME, EV4_MUX_PF_PIPEFROZEN, EV4_MUX_PF_DCACHE, h0, n1);
    check_eq({31'd0, h0}, 64'd2, "PF_PIPEFROZEN counts a frozen cycle");
    inc_of(PME, EV4_MUX_PF_PIPEDRY, EV4_MUX_PF_DCACHE, h0, n1);
    check_eq({31'd0, h0}, 64'd0, "PF_PIPEDRY does not count a frozen cycle");
    stall = EV4_STALL_DRY;
    inc_of(PME, EV4_MUX_PF_PIPEDRY, EV4_MUX_PF_DCACHE, h0, n1);
    check_eq({31'd0, h0}, 64'd2, "PF_PIPEDRY counts a dry cycle");
    mode = EV4_MODE_PAL;
    inc_of(PME, EV4_MUX_PF_PALMODE, EV4_MUX_PF_DCACHE, h0, n1);
    check_eq({31'd0, h0}, 64'd2, "PF_PALMODE counts a PALmode cycle");
    mode = EV4_MODE_USER;
    inc_of(PME, EV4_MUX_PF_PALMODE, EV4_MUX_PF_DCACHE, h0, n1);
    check_eq({31'd0, h0}, 64'd0, "PF_PALMODE does not count a user cycle");
    pin0 = 1'b1;
    inc_of(PME, EV4_MUX_PF_EXTPIN0, EV4_MUX_PF_DCACHE, h0, n1);
    check_eq({31'd0, h0}, 64'd2, "PF_EXTPIN0 counts the pin");

    // ---- undefined MUX0 codes: nothing, or (Mux0Undef = 1) their even neighbour's event ----
    rec(2'd2, EV4_CLASS_LOAD, EV4_CLASS_LOAD);
    reset_all();
    wr(EV4_ADDR_ICCSR, sel(EV4_MUX_PF_LOADI | 4'h1, EV4_MUX_PF_DCACHE));
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), 64'd0, "undefined code 0x5 counts nothing (Mux0Undef = 0)");
    check_eq(vis_of(WIDE, EV4_VIS_CTR0), ctr0(2, 1'b0), "undefined code 0x5 counts loads (Mux0Undef = 1)");
    wr(EV4_ADDR_ICCSR, sel(EV4_MUX_PF_CYCLES | 4'h1, EV4_MUX_PF_DCACHE));
    step();
    check_eq(vis_of(WIDE, EV4_VIS_CTR0), ctr0(2, 1'b0), "0xb is PF_PALMODE, not an alias of PF_CYCLES");

    // ---- PME gating; pass 2 always counts ----
    reset_all();
    rec(2'd2, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    wr(EV4_ADDR_ICCSR, iccsr(1'b0, 1'b0, EV4_MUX_PF_CYCLES, EV4_MUX_PF_DUAL, 1'b0, 1'b1));
    steps(3);
    check_eq(vis_of(PME, EV4_VIS_CTR0), 64'd0, "PME0 clear: counter 0 holds");
    check_eq(vis_of(PME, EV4_VIS_CTR1), 64'd3, "PME1 set: counter 1 counts");
    check_eq(vis_of(P2, EV4_VIS_CTR0), ctr0(3, 1'b0), "pass 2: counter 0 counts without PME");
    wr(EV4_ADDR_ICCSR, iccsr(1'b0, 1'b0, EV4_MUX_PF_CYCLES, EV4_MUX_PF_DUAL, 1'b1, 1'b0));
    steps(2);
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(2, 1'b0), "PME0 set: counter 0 counts");
    check_eq(vis_of(PME, EV4_VIS_CTR1), 64'd3, "PME1 clear: counter 1 holds");
    check_eq(vis_of(P2, EV4_VIS_CTR1), 64'd5, "pass 2: counter 1 counts without PME");
    wr(EV4_ADDR_ICCSR, 64'd0);
    rd(P2, EV4_ADDR_ICCSR, v);
    check_eq(v, 64'd0, "pass 2: ICCSR 0");
    steps(1);
    check_eq(vis_of(P2, EV4_VIS_CTR1), 64'd5, "pass 2 with ICCSR 0 counts D-cache misses: none");
    check_eq(vis_of(P2, EV4_VIS_CTR0), ctr0(6, 1'b0), "pass 2 with ICCSR 0 counts issues: one dual");
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(2, 1'b0), "the 21064 with ICCSR 0 counts nothing");

    // ---- crossings of counter 1 (PF_DUAL every step), the sticky request, SL_CLR ----
    reset_all();
    rec(2'd2, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    wr(EV4_ADDR_ICCSR, iccsr(1'b0, 1'b1, EV4_MUX_PF_PIPEDRY, EV4_MUX_PF_DUAL, 1'b1, 1'b1));
    steps(255);
    check_eq(vis_of(PME, EV4_VIS_HIRR), 64'd0, "PC1 = 1: no request at 255 events");
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR1), 64'd256, "256 events counted");
    check_eq(vis_of(PME, EV4_VIS_HIRR), HirrPc1, "PC1 = 1: the 256th event requests");
    check(pmi[PME] == 1'b0, "HIER.PC1 clear: no interrupt");
    wr(EV4_ADDR_HIER, HierPc0);
    check(pmi[PME] == 1'b0, "HIER.PC0 does not enable counter 1's request");
    wr(EV4_ADDR_HIER, HierPc1);
    check(pmi[PME] == 1'b1, "enabling HIER.PC1 takes the pending request");
    steps(256);
    check_eq(vis_of(PME, EV4_VIS_CTR1), 64'd512, "counting goes on while the request is pending");
    check_eq(vis_of(PME, EV4_VIS_HIRR), HirrPc1, "a second crossing while pending changes nothing");
    wr(EV4_ADDR_SL_CLR, KeepBoth);
    check_eq(vis_of(PME, EV4_VIS_HIRR), HirrPc1, "SL_CLR with PC1 = 1 leaves the request");
    wr(EV4_ADDR_SL_CLR, ClrPc0);
    check_eq(vis_of(PME, EV4_VIS_HIRR), HirrPc1, "clearing PC0 leaves PC1's request");
    wr(EV4_ADDR_SL_CLR, ClrPc1);
    check_eq(vis_of(PME, EV4_VIS_HIRR), 64'd0, "SL_CLR with PC1 = 0 clears the request");
    check(pmi[PME] == 1'b0, "the cleared request drops pmi");
    steps(255);
    check_eq(vis_of(PME, EV4_VIS_HIRR), 64'd0, "the lost crossing is not replayed");
    step();
    check_eq(vis_of(PME, EV4_VIS_HIRR), HirrPc1, "the next crossing (768) requests again");
    check(pmi[PME] == 1'b1, "and interrupts");
    wr(EV4_ADDR_SL_CLR, 64'd0);
    // A PC change mid-count: at 768 with PC1 = 0 the next crossing is 4096, the wrap of the
    // 12-bit counter (k = Width).
    wr(EV4_ADDR_ICCSR, iccsr(1'b0, 1'b0, EV4_MUX_PF_PIPEDRY, EV4_MUX_PF_DUAL, 1'b1, 1'b1));
    steps(256);
    check_eq(vis_of(PME, EV4_VIS_HIRR), 64'd0, "PC1 = 0: 1024 is no crossing");
    steps(4096 - 1024 - 1);
    check_eq(vis_of(PME, EV4_VIS_HIRR), 64'd0, "PC1 = 0: no request at 4095");
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR1), 64'd0, "the 12-bit counter wraps at 4096");
    check_eq(vis_of(PME, EV4_VIS_HIRR), HirrPc1, "the wrap is the crossing of a 2^12 period");
    check_eq(vis_of(WIDE, EV4_VIS_CTR1), 64'd4096, "the 32-bit counter does not wrap");
    check_eq(vis_of(WIDE, EV4_VIS_HIRR), HirrPc1, "the 32-bit counter crosses at 4096 too");
    wr(EV4_ADDR_ICCSR, iccsr(1'b0, 1'b1, EV4_MUX_PF_PIPEDRY, EV4_MUX_PF_DUAL, 1'b1, 1'b1));
    wr(EV4_ADDR_SL_CLR, 64'd0);
    check(pmi[PME] == 1'b0, "SL_CLR 0 clears everything");

    // ---- crossings of counter 0: halves carry across the period ----
    reset_all();
    wr(EV4_ADDR_HIER, HierPc0 | HierPc1);
    rec(2'd2, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    wr(EV4_ADDR_ICCSR, iccsr(1'b1, 1'b0, EV4_MUX_PF_ISSUES, EV4_MUX_PF_ICACHE, 1'b1, 1'b1));
    steps(4095);
    rec(2'd1, EV4_CLASS_INTOP, EV4_CLASS_INTOP);
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(4095, 1'b1), "4095.5 issues");
    check_eq(vis_of(PME, EV4_VIS_HIRR), 64'd0, "PC0 = 1: no request at 4095.5");
    check(pmi[PME] == 1'b0, "no interrupt yet");
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(4096, 1'b0), "the half carries to 4096");
    check_eq(vis_of(PME, EV4_VIS_HIRR), HirrPc0, "PC0 = 1: the carry into 4096 requests");
    check(pmi[PME] == 1'b1, "HIER.PC0 set: interrupt");
    wr(EV4_ADDR_SL_CLR, ClrPc0);
    check(pmi[PME] == 1'b0, "SL_CLR PC0 = 0 clears it");
    // PC0 = 0: the next crossing is 65536, the wrap of the 16-bit counter.
    wr(EV4_ADDR_ICCSR, iccsr(1'b0, 1'b0, EV4_MUX_PF_CYCLES, EV4_MUX_PF_ICACHE, 1'b1, 1'b1));
    steps(65536 - 4096 - 1);
    check_eq(vis_of(PME, EV4_VIS_HIRR), 64'd0, "PC0 = 0: no request at 65535");
    step();
    check_eq(vis_of(PME, EV4_VIS_CTR0), ctr0(0, 1'b0), "the 16-bit counter wraps");
    check_eq(vis_of(PME, EV4_VIS_HIRR), HirrPc0, "PC0 = 0: the wrap requests");
    check_eq(vis_of(WIDE, EV4_VIS_CTR0), ctr0(65536, 1'b0), "the 32-bit counter holds 65536");
    check_eq(vis_of(WIDE, EV4_VIS_HIRR), HirrPc0, "the 32-bit counter crosses 2^16 too");
    check(pmi[WIDE] == 1'b1, "and interrupts");
    check_vis_matches_reads("after the crossings");

    // ---- the pass-2 instance ran the same stimulus: its PME writes did nothing ----
    check_eq(vis_of(P2, EV4_VIS_ICCSR), iccsr(1'b0, 1'b0, EV4_MUX_PF_CYCLES, EV4_MUX_PF_ICACHE, 1'b0, 1'b0),
             "pass 2: ICCSR without PME bits");

    // ---- reset clears everything ----
    @(negedge clk);
    rst_n = 1'b0;
    #1;
    for (int d = 0; d < NDut; d++) begin
      for (int i = 0; i < EV4_NVIS; i++)
        check_eq(vis_of(d, i), 64'd0, $sformatf("async reset: dut %0d visible register %0d is 0", d, i));
      check(pmi[d] == 1'b0, "async reset clears pmi");
    end
    rst_n = 1'b1;

    tb_done();
  end

endmodule
