`include "ita_defines.vh"

// ita_btb, directed cases on both models (docs/ita-ear-btb.md, "Branch trace buffer"): the branch
// and target records (slot, mp, the window's second bundle in PMD16's b1, bruflush), the
// ring's wrap and the sticky full bit (also from an odd bbi), the tm / ptm / ppm / brt
// filters (Itanium: no brt, its bits are bpt / bac), ds = 1 targets, the first branch in slot
// order, squashed branches as not taken, IA-32 and unqualified slots, freeze, and a PMD16
// write in the clock of a capture (the write wins; the entries are still written).
module tb_ita_btb;

  `define TB_NAME "tb_ita_btb"
  `include "tb_common.svh"
  `include "ita_defs.vh"

  localparam int ITA2 = 0, ITA = 1;
  localparam int NSlots = `ITA_MAX_SLOTS;
  localparam int SfW = `ITA_SF_WIDTH;
  localparam int NRegs = 9;

  logic        clk = 1'b0, rst_n = 1'b0;
  logic [63:0] pmc12 [2];
  logic        step = 1'b0, fr = 1'b0, is_ia32 = 1'b0;
  logic [2:0]  nslots = '0;
  logic [NSlots*SfW-1:0] flags = '0;
  logic [NSlots*2-1:0]   idx = '0;
  logic [NSlots*64-1:0]  ip = '0, target = '0;
  logic [NSlots-1:0]     qual = '1;
  logic [NRegs-1:0]      we = '0;
  logic [63:0]           wdata = '0;
  logic [NRegs*64-1:0]   pmd [2];
  logic                  cap [2], en [2];

  always #5 clk = ~clk;

  `define TB_BTB(IDX, MODEL)                                                                \
    ita_btb #(.Model(MODEL), .NRegs(NRegs)) u_btb_``IDX (                                    \
      .clk_i(clk), .rst_ni(rst_n), .pmc12_i(pmc12[IDX]), .step_i(step), .fr_i(fr),          \
      .cpl_i(2'd0), .is_i(is_ia32), .psr_up_i(1'b1), .psr_pp_i(1'b0), .nslots_i(nslots),   \
      .slot_flags_i(flags), .slot_ip_i(ip), .slot_idx_i(idx), .slot_target_i(target),      \
      .slot_qual_i(qual), .pmd_we_i(we), .wdata_i(wdata), .pmd_o(pmd[IDX]), .en_o(en[IDX]),   \
      .cap_o(cap[IDX]));
  `TB_BTB(0, 1)
  `TB_BTB(1, 0)

  // en_o gates the slots' qualification bits in ita_pmu: it must be 1 in every clock that
  // captures, and 0 without a step or when frozen (ita_unit_en).
  always @(negedge clk) begin
    for (int d = 0; d < 2; d++) begin
      check_unit_en(d, cap[d], en[d], step, fr);
    end
  end

  // PMC12 from its fields (Itanium 2 positions; on Itanium ds is tar and brt is bpt / bac).
  function automatic logic [63:0] cfg(input logic ds, input logic [1:0] tm, input logic [1:0] ptm,
                                      input logic [1:0] ppm, input logic [1:0] brt);
    cfg = 64'hf | ({63'd0, ds} << ITA_F_PMC12_DS_LSB) | ({62'd0, tm} << ITA_F_PMC12_TM_LSB)
        | ({62'd0, ptm} << ITA_F_PMC12_PTM_LSB) | ({62'd0, ppm} << ITA_F_PMC12_PPM_LSB)
        | ({62'd0, brt} << ITA_F_PMC12_BRT_LSB);
  endfunction
  localparam logic [63:0] All = 64'hf | (64'h3 << ITA_F_PMC12_TM_LSB) | (64'h3 << ITA_F_PMC12_PTM_LSB)
                              | (64'h3 << ITA_F_PMC12_PPM_LSB);

  localparam logic [63:0] Window = 64'h2000_0000_0040_0000;
  localparam logic [1:0]  BrIprel = 2'd1, BrRet = 2'd2, BrInd = 2'd3;
  localparam logic [1:0]  PredOk = 2'd1, PredPath = 2'd2, PredTarget = 2'd3;

  function automatic logic [15:0] brf(input logic [1:0] t, input logic [1:0] p, input logic tk);
    brf = ({14'd0, t} << ITA_SF_BR_TYPE_LSB) | ({14'd0, p} << ITA_SF_BR_PRED_LSB)
        | ({15'd0, tk} << ITA_SF_TAKEN_LSB);
  endfunction

  task automatic set_slot(input int k, input logic [15:0] f, input logic [63:0] a,
                          input logic [1:0] s, input logic [63:0] t);
    flags[k*SfW +: SfW] = f; ip[k*64 +: 64] = a; idx[k*2 +: 2] = s; target[k*64 +: 64] = t;
  endtask

  function automatic logic [63:0] ent(input int d, input int j);
    ent = pmd[d][j*64 +: 64];
  endfunction
  function automatic logic [63:0] pmd16(input int d);
    pmd16 = pmd[d][8*64 +: 64];
  endfunction
  function automatic logic [63:0] br_rec(input logic [63:0] a, input logic [1:0] s, input logic mp);
    br_rec = (a & ~64'hf) | ({62'd0, s} << ITA_F_BTB_ENTRY_SLOT_LSB)
           | ({63'd0, mp} << ITA_F_BTB_ENTRY_MP_LSB) | (64'd1 << ITA_F_BTB_ENTRY_B_LSB);
  endfunction
  function automatic logic [63:0] tgt_rec(input logic [63:0] t, input logic mp);
    tgt_rec = (t & ~64'hf) | ({63'd0, mp} << ITA_F_BTB_ENTRY_MP_LSB);
  endfunction

  // One step; whether model d records.
  task automatic go(input int d, input logic exp, input string what);
    logic c;
    step = 1'b1;
    #1;
    c = cap[d];
    @(posedge clk);
    #1;
    step = 1'b0;
    #1;  // the outputs show a clock's capture while it is presented
    check(c == exp, $sformatf("%s: cap_o == %0d", what, exp));
  endtask

  task automatic write_pmd16(input logic [63:0] v);
    we[8] = 1'b1; wdata = v;
    @(posedge clk);
    #1;
    we = '0;
  endtask

  localparam logic [63:0] T1 = 64'h2000_0000_0050_1230, T2 = 64'h2000_0000_0060_0040;

  initial begin
    pmc12[ITA2] = All; pmc12[ITA] = All;
    @(posedge clk);
    #1;
    rst_n = 1'b1;
    check_eq(pmd16(ITA2), ITA_PMD16_RESET_ITA2, "reset PMD16");

    // ---- records and the ring -----------------------------------------------------------------
    nslots = 3'd1;
    set_slot(0, brf(BrIprel, PredOk, 1'b1), Window, 2'd2, T1);
    go(ITA2, 1'b1, "a taken, correctly predicted branch");
    check_eq(ent(ITA2, 0), br_rec(Window, 2'd2, 1'b0), "PMD8: branch record");
    check_eq(ent(ITA2, 1), tgt_rec(T1, 1'b0), "PMD9: target record");
    check_eq(pmd16(ITA2), 64'd2, "PMD16: bbi 2, not full, no extension bits");

    nslots = 3'd2;
    set_slot(0, 16'd0, Window, 2'd0, 64'd0);
    set_slot(1, brf(BrRet, PredPath, 1'b0), Window + 64'd16, 2'd1, T2);
    go(ITA2, 1'b1, "a not-taken, path-mispredicted branch in the second bundle");
    check_eq(ent(ITA2, 2), br_rec(Window, 2'd3, 1'b1), "PMD10: window address, slot 3 (not taken), mp");
    check_eq(ent(ITA2, 3), tgt_rec(T2, 1'b1), "PMD11: target with mp");
    check_eq(pmd16(ITA2), 64'd4 | (64'b11 << (ITA_F_PMD16_EXT_LSB + 2*4)),
             "PMD16: bbi 4, entry 2's b1 and bruflush");

    go(ITA2, 1'b1, "third");
    check_eq(pmd16(ITA2), 64'd6 | (64'b11 << (ITA_F_PMD16_EXT_LSB + 2*4)) | (64'b11 << (ITA_F_PMD16_EXT_LSB + 4*4)),
             "PMD16 after three: bbi 6");
    set_slot(1, brf(BrInd, PredTarget, 1'b1), Window + 64'd32, 2'd0, T1);
    go(ITA2, 1'b1, "fourth: the ring wraps");
    check_eq(ent(ITA2, 6), br_rec(Window + 64'd32, 2'd0, 1'b1), "PMD14: own bundle outside the window");
    check_eq(pmd16(ITA2), (64'd1 << ITA_F_PMD16_FULL_LSB) | (64'b11 << (ITA_F_PMD16_EXT_LSB + 2*4))
                          | (64'b11 << (ITA_F_PMD16_EXT_LSB + 4*4)), "PMD16: bbi 0, full");
    set_slot(1, brf(BrIprel, PredOk, 1'b1), Window, 2'd1, T1);
    go(ITA2, 1'b1, "fifth overwrites entry 0");
    check_eq(ent(ITA2, 0), br_rec(Window, 2'd1, 1'b0), "PMD8 overwritten");
    check_eq(pmd16(ITA2), (64'd1 << ITA_F_PMD16_FULL_LSB) | 64'd2 | (64'b11 << (ITA_F_PMD16_EXT_LSB + 2*4))
                          | (64'b11 << (ITA_F_PMD16_EXT_LSB + 4*4)), "full stays set, bbi 2");

    // ---- odd bbi: the wrap is the carry out of bbi + 2; capture clears the entries' ignored bits
    write_pmd16(64'd7 | (64'hf << (ITA_F_PMD16_EXT_LSB + 7*4)) | (64'hf << ITA_F_PMD16_EXT_LSB));
    go(ITA2, 1'b1, "from bbi 7");
    check_eq(ent(ITA2, 7), br_rec(Window, 2'd1, 1'b0), "PMD15: branch record");
    check_eq(ent(ITA2, 0), tgt_rec(T1, 1'b0), "PMD8: target record");
    check_eq(pmd16(ITA2), 64'd1 | (64'd1 << ITA_F_PMD16_FULL_LSB), "PMD16: bbi 1, full, nibbles 7 and 0 cleared");

    // ---- PMD16 write in the clock of a capture -------------------------------------------------
    we[8] = 1'b1; wdata = 64'd4; step = 1'b1;
    @(posedge clk);
    #1;
    we = '0; step = 1'b0;
    #1;
    check_eq(pmd16(ITA2), 64'd4, "write wins over capture: PMD16");
    check_eq(ent(ITA2, 1), br_rec(Window, 2'd1, 1'b0), "the capture still writes PMD9 (old bbi 1)");

    // ---- filters --------------------------------------------------------------------------------
    write_pmd16(64'd0);
    nslots = 3'd1;
    set_slot(0, brf(BrIprel, PredOk, 1'b0), Window, 2'd0, T1);
    pmc12[ITA2] = cfg(1'b0, 2'b10, 2'b11, 2'b11, 2'd0);
    go(ITA2, 1'b0, "tm = taken only, a not-taken branch");
    set_slot(0, brf(BrIprel, PredOk, 1'b1) | (16'd1 << ITA_SF_PRED_OFF_LSB), Window, 2'd0, T1);
    go(ITA2, 1'b0, "a squashed taken branch is not taken");
    pmc12[ITA2] = cfg(1'b0, 2'b11, 2'b01, 2'b11, 2'd0);
    set_slot(0, brf(BrIprel, PredPath, 1'b1), Window, 2'd0, T1);
    go(ITA2, 1'b0, "ptm = mispredicted target only, a path misprediction");
    set_slot(0, brf(BrIprel, PredTarget, 1'b1), Window, 2'd0, T1);
    go(ITA2, 1'b1, "ptm = mispredicted target only, a target misprediction");
    pmc12[ITA2] = cfg(1'b0, 2'b11, 2'b11, 2'b01, 2'd0);
    set_slot(0, brf(BrIprel, 2'd0, 1'b1), Window, 2'd0, T1);
    go(ITA2, 1'b0, "ppm = mispredicted path only, pred 0 counts as correct");
    pmc12[ITA2] = cfg(1'b0, 2'b11, 2'b11, 2'b11, 2'd2);
    go(ITA2, 1'b0, "brt = returns, an ip-relative branch");
    pmc12[ITA] = cfg(1'b0, 2'b11, 2'b11, 2'b11, 2'd2);
    go(ITA, 1'b1, "Itanium: bits 15:14 (bpt, bac) do not filter");
    set_slot(0, brf(BrRet, PredOk, 1'b1), Window, 2'd0, T1);
    go(ITA2, 1'b1, "brt = returns, a return");
    pmc12[ITA2] = cfg(1'b0, 2'b00, 2'b11, 2'b11, 2'd0);
    go(ITA2, 1'b0, "tm = 0 records nothing");

    // ---- ds = 1, slot order, IA-32, qualification, freeze ------------------------------------
    write_pmd16(64'd0);
    pmc12[ITA2] = All | (64'd1 << ITA_F_PMC12_DS_LSB);
    pmc12[ITA] = All | (64'd1 << ITA_F_PMC12_DS_LSB);  // Itanium: tar, no effect
    nslots = 3'd3;
    set_slot(0, 16'd0, Window, 2'd0, 64'd0);
    set_slot(1, brf(BrInd, PredTarget, 1'b1), Window, 2'd1, 64'hffff_ffff_ffff_fff0);
    set_slot(2, brf(BrIprel, PredOk, 1'b1), Window, 2'd2, T2);
    go(ITA2, 1'b1, "ds = 1");
    check_eq(ent(ITA2, 0), br_rec(Window, 2'd1, 1'b1), "the first branch in slot order");
    check_eq(ent(ITA2, 1), 64'he000_01ff_ffff_fff0 | 64'd2, "ds = 1 target: hiaddr, pred 0, loaddr, mp");
    check_eq(ent(ITA, 1), tgt_rec(64'hffff_ffff_ffff_fff0, 1'b1), "Itanium: always the ds = 0 form");
    qual = 6'b111101;
    go(ITA2, 1'b1, "slot 1 unqualified");
    check_eq(ent(ITA2, 2), br_rec(Window, 2'd2, 1'b0), "slot 2 recorded");
    qual = '1;
    is_ia32 = 1'b1;
    go(ITA2, 1'b0, "IA-32: no branch recorded");
    is_ia32 = 1'b0; fr = 1'b1;
    go(ITA2, 1'b0, "frozen");
    fr = 1'b0; nslots = 3'd1;
    go(ITA2, 1'b0, "slots 1 and 2 not valid");

    tb_done();
  end

endmodule
