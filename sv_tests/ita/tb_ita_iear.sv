// ita_iear, directed cases on both models (docs/ita-ear-btb.md, "I-EAR"): Itanium 2 latency bins
// at their boundaries, LAT0 (every miss), the RAB mode and its stat, saturation with ov, TLB
// mode and "nothing monitored"; Itanium thresholds, LAT_NONE, saturation and TLB mode; the
// common gates (plm, pm, ism, freeze, qualification, no step); write vs capture in a clock.
module tb_ita_iear;

  `define TB_NAME "tb_ita_iear"
  `include "tb_common.svh"
  `include "ita_defs.vh"

  localparam int ITA2 = 0, ITA = 1;

  logic        clk = 1'b0, rst_n = 1'b0;
  logic [63:0] pmc10 [2];
  logic        step = 1'b0, fr = 1'b0, is_ia32 = 1'b0, up = 1'b1, pp = 1'b0, qual = 1'b1;
  logic [1:0]  cpl = '0;
  logic [63:0] if_addr = 64'hdead_beef_0000_1230;
  logic [15:0] if_lat = '0;
  logic [1:0]  if_tlb = '0;
  logic        if_rab = 1'b0;
  logic        we0 = 1'b0, we1 = 1'b0;
  logic [63:0] wdata = '0;
  logic [63:0] pmd0 [2], pmd1 [2];
  logic        cap [2], en [2];

  always #5 clk = ~clk;

  ita_iear #(.Model(1)) u_ita2 (
    .clk_i(clk), .rst_ni(rst_n), .pmc10_i(pmc10[ITA2]), .step_i(step), .fr_i(fr), .cpl_i(cpl),
    .is_i(is_ia32), .psr_up_i(up), .psr_pp_i(pp), .qual_i(qual), .if_addr_i(if_addr),
    .if_lat_i(if_lat), .if_tlb_i(if_tlb), .if_rab_i(if_rab), .pmd0_we_i(we0), .pmd1_we_i(we1),
    .wdata_i(wdata), .pmd0_o(pmd0[ITA2]), .pmd1_o(pmd1[ITA2]), .en_o(en[ITA2]),
    .cap_o(cap[ITA2]));
  ita_iear #(.Model(0)) u_ita (
    .clk_i(clk), .rst_ni(rst_n), .pmc10_i(pmc10[ITA]), .step_i(step), .fr_i(fr), .cpl_i(cpl),
    .is_i(is_ia32), .psr_up_i(up), .psr_pp_i(pp), .qual_i(qual), .if_addr_i(if_addr),
    .if_lat_i(if_lat), .if_tlb_i(if_tlb), .if_rab_i(if_rab), .pmd0_we_i(we0), .pmd1_we_i(we1),
    .wdata_i(wdata), .pmd0_o(pmd0[ITA]), .pmd1_o(pmd1[ITA]), .en_o(en[ITA]),
    .cap_o(cap[ITA]));

  // en_o gates the fetch's qualification in ita_pmu: it must be 1 in every clock that captures,
  // and 0 without a step or when frozen (ita_unit_en).
  always @(negedge clk) begin
    for (int d = 0; d < 2; d++) begin
      check_unit_en(d, cap[d], en[d], step, fr);
    end
  end

  // Itanium 2 PMC10: every privilege level, user monitor; cache mode sets ct[1] (bit 13) and
  // the umask (bits 12:5, so its bit 7 is ct[0]); TLB mode ct = 00, umask bits 11:5.
  function automatic logic [63:0] ita2_cache(input logic [7:0] umask);
    ita2_cache = 64'hf | ({56'd0, umask} << ITA_F_PMC10_UMASK_LSB) | (64'd1 << ITA_F_PMC10_CT_MSB);
  endfunction
  function automatic logic [63:0] ita2_tlb(input logic [6:0] umask);
    ita2_tlb = 64'hf | ({57'd0, umask} << ITA_F_PMC10_UMASK_LSB);
  endfunction
  function automatic logic [63:0] ita_cfg(input logic tlb, input logic [3:0] umask);
    ita_cfg = 64'hf | ({63'd0, tlb} << ITA_F_PMC10_ITA_TLB_LSB)
            | ({60'd0, umask} << ITA_F_PMC10_ITA_UMASK_LSB);
  endfunction

  localparam logic [63:0] Line = 64'hdead_beef_0000_1220;  // if_addr bits 63:5

  // Clears both units' data registers (a write, no step).
  task automatic clear;
    we0 = 1'b1; we1 = 1'b1; wdata = '0;
    @(posedge clk);
    #1;
    we0 = 1'b0; we1 = 1'b0;
  endtask

  // A fetch on model d that must (exp = 1) or must not capture, and the values it leaves.
  task automatic expect_cap(input int d, input logic [15:0] lat, input logic [1:0] tlb,
                            input logic rab, input logic exp, input logic [63:0] e0,
                            input logic [63:0] e1, input string what);
    logic c;
    clear();
    if_lat = lat; if_tlb = tlb; if_rab = rab; step = 1'b1;
    #1;
    c = cap[d];
    @(posedge clk);
    #1;
    step = 1'b0;
    #1;  // the outputs show a clock's capture while it is presented
    check(c == exp, $sformatf("%s: cap_o == %0d", what, exp));
    check_eq(pmd0[d], exp ? e0 : 64'd0, {what, ": PMD0"});
    check_eq(pmd1[d], exp ? e1 : 64'd0, {what, ": PMD1"});
  endtask

  initial begin
    pmc10[ITA2] = '0; pmc10[ITA] = '0;
    @(posedge clk);
    #1;
    rst_n = 1'b1;
    check_eq(pmd0[ITA2], ITA_PMD0_RESET_ITA2, "reset PMD0");
    check_eq(pmd1[ITA], ITA_PMD1_RESET_ITA, "reset PMD1");

    // ---- Itanium 2 cache mode: bins -------------------------------------------------------
    pmc10[ITA2] = ita2_cache(8'hf8);  // LAT32: bins 3..7
    expect_cap(ITA2, 16'd31, 2'd0, 1'b0, 1'b0, 0, 0, "LAT32, lat 31");
    expect_cap(ITA2, 16'd32, 2'd0, 1'b0, 1'b1, Line | 64'd1, 64'd32, "LAT32, lat 32");
    pmc10[ITA2] = ita2_cache(8'h80);  // LAT4096
    expect_cap(ITA2, 16'd4095, 2'd0, 1'b0, 1'b0, 0, 0, "LAT4096, lat 4095");
    expect_cap(ITA2, 16'd4096, 2'd0, 1'b0, 1'b1, Line | 64'd1,
               64'hfff | (64'd1 << ITA_F_PMD1_OV_LSB), "LAT4096, lat 4096 saturates with ov");
    pmc10[ITA2] = ita2_cache(8'h84);  // bin 2 only: [16, 32)
    expect_cap(ITA2, 16'd15, 2'd0, 1'b0, 1'b0, 0, 0, "bin 2, lat 15");
    expect_cap(ITA2, 16'd16, 2'd0, 1'b0, 1'b1, Line | 64'd1, 64'd16, "bin 2, lat 16");
    expect_cap(ITA2, 16'd31, 2'd0, 1'b0, 1'b1, Line | 64'd1, 64'd31, "bin 2, lat 31");
    expect_cap(ITA2, 16'd32, 2'd0, 1'b0, 1'b0, 0, 0, "bin 2, lat 32");
    pmc10[ITA2] = ita2_cache(8'hff);  // LAT4: every miss of 4 cycles or more
    expect_cap(ITA2, 16'd3, 2'd0, 1'b0, 1'b0, 0, 0, "LAT4, lat 3");
    expect_cap(ITA2, 16'd4, 2'd0, 1'b1, 1'b1, Line | 64'd3, 64'd4, "LAT4, lat 4 from the RAB: stat 3");
    // ---- LAT0, RAB, undefined umasks --------------------------------------------------------
    pmc10[ITA2] = ita2_cache(8'h40);
    expect_cap(ITA2, 16'd0, 2'd1, 1'b0, 1'b0, 0, 0, "LAT0, a hit");
    expect_cap(ITA2, 16'd1, 2'd0, 1'b0, 1'b1, Line | 64'd1, 64'd1, "LAT0, lat 1");
    pmc10[ITA2] = ita2_cache(8'h00);
    expect_cap(ITA2, 16'd9, 2'd0, 1'b0, 1'b0, 0, 0, "RAB mode, a miss not from the RAB");
    expect_cap(ITA2, 16'd0, 2'd0, 1'b1, 1'b1, Line | 64'd3, 64'd0, "RAB mode, a RAB hit");
    pmc10[ITA2] = ita2_cache(8'h20);
    expect_cap(ITA2, 16'd100, 2'd0, 1'b1, 1'b0, 0, 0, "umask 0x20 captures nothing");
    // ---- TLB mode and ct = 01 ---------------------------------------------------------------
    pmc10[ITA2] = ita2_tlb(7'h2);     // VHPT
    expect_cap(ITA2, 16'd50, 2'd1, 1'b0, 1'b0, 0, 0, "TLB VHPT, an L2 TLB fetch");
    expect_cap(ITA2, 16'd50, 2'd2, 1'b0, 1'b1, Line | 64'd2, 64'd0, "TLB VHPT, a VHPT fetch");
    pmc10[ITA2] = ita2_tlb(7'h5);     // L2TLB | FAULT
    expect_cap(ITA2, 16'd0, 2'd3, 1'b0, 1'b1, Line | 64'd3, 64'd0, "TLB L2|FAULT, a fault");
    expect_cap(ITA2, 16'd0, 2'd1, 1'b0, 1'b1, Line | 64'd1, 64'd0, "TLB L2|FAULT, an L2 TLB fetch");
    expect_cap(ITA2, 16'd0, 2'd0, 1'b0, 1'b0, 0, 0, "TLB mode, an L1 TLB hit");
    pmc10[ITA2] = ita2_tlb(7'h7) | (64'd1 << ITA_F_PMC10_CT_LSB);  // ct = 01
    expect_cap(ITA2, 16'd500, 2'd3, 1'b1, 1'b0, 0, 0, "ct = 01 monitors nothing");

    // ---- the common gates ---------------------------------------------------------------------
    pmc10[ITA2] = ita2_cache(8'h40);
    qual = 1'b0;
    expect_cap(ITA2, 16'd7, 2'd0, 1'b0, 1'b0, 0, 0, "not qualified");
    qual = 1'b1; fr = 1'b1;
    expect_cap(ITA2, 16'd7, 2'd0, 1'b0, 1'b0, 0, 0, "frozen");
    fr = 1'b0; cpl = 2'd3; pmc10[ITA2] = ita2_cache(8'h40) & ~64'h8;
    expect_cap(ITA2, 16'd7, 2'd0, 1'b0, 1'b0, 0, 0, "cpl 3 not in plm");
    cpl = 2'd0; pmc10[ITA2] = ita2_cache(8'h40) | (64'd1 << ITA_F_PMC10_PM_LSB);
    expect_cap(ITA2, 16'd7, 2'd0, 1'b0, 1'b0, 0, 0, "pm = 1 with PSR.pp = 0");
    pp = 1'b1;
    expect_cap(ITA2, 16'd7, 2'd0, 1'b0, 1'b1, Line | 64'd1, 64'd7, "pm = 1 with PSR.pp = 1");
    pp = 1'b0; pmc10[ITA2] = ita2_cache(8'h40) | (64'd1 << ITA_F_PMC10_ISM_LSB);
    expect_cap(ITA2, 16'd7, 2'd0, 1'b0, 1'b0, 0, 0, "ism masks IA-64");
    is_ia32 = 1'b1;
    expect_cap(ITA2, 16'd7, 2'd0, 1'b0, 1'b1, Line | 64'd1, 64'd7, "ism masks IA-64, an IA-32 fetch");
    is_ia32 = 1'b0;
    // No step: nothing captured.
    pmc10[ITA2] = ita2_cache(8'h40);
    clear();
    if_lat = 16'd9;
    @(posedge clk);
    #1;
    check_eq(pmd0[ITA2], 64'd0, "no step, no capture");

    // ---- write vs capture in one clock: the write wins (masked) ---------------------------------
    we0 = 1'b1; wdata = 64'hffff_ffff_ffff_ffff; step = 1'b1; if_lat = 16'd9;
    @(posedge clk);
    #1;
    we0 = 1'b0; step = 1'b0;
    #1;
    check_eq(pmd0[ITA2], ITA_PMD0_WMASK_ITA2, "write wins over capture: PMD0");
    check_eq(pmd1[ITA2], 64'd9, "the capture still writes PMD1");

    // ---- Itanium ------------------------------------------------------------------------------
    pmc10[ITA] = ita_cfg(1'b0, 4'd3);  // threshold 32
    expect_cap(ITA, 16'd31, 2'd0, 1'b0, 1'b0, 0, 0, "Itanium LAT32, lat 31");
    expect_cap(ITA, 16'd32, 2'd0, 1'b0, 1'b1, Line | 64'd1, 64'd32, "Itanium LAT32, lat 32");
    pmc10[ITA] = ita_cfg(1'b0, 4'ha);  // threshold 4096
    expect_cap(ITA, 16'd4095, 2'd0, 1'b0, 1'b0, 0, 0, "Itanium LAT4096, lat 4095");
    expect_cap(ITA, 16'd5000, 2'd0, 1'b0, 1'b1, Line | 64'd1, 64'hfff, "Itanium LAT4096, saturated");
    pmc10[ITA] = ita_cfg(1'b0, 4'hf);
    expect_cap(ITA, 16'd1, 2'd0, 1'b0, 1'b1, Line | 64'd1, 64'd1, "Itanium LAT_NONE, lat 1");
    expect_cap(ITA, 16'd0, 2'd2, 1'b1, 1'b0, 0, 0, "Itanium LAT_NONE, a hit");
    pmc10[ITA] = ita_cfg(1'b0, 4'hb);
    expect_cap(ITA, 16'd900, 2'd0, 1'b0, 1'b0, 0, 0, "Itanium umask 0xb captures nothing");
    pmc10[ITA] = ita_cfg(1'b1, 4'h8);  // TLB mode, SW
    expect_cap(ITA, 16'd40, 2'd2, 1'b0, 1'b0, 0, 0, "Itanium TLB SW, a VHPT fetch");
    expect_cap(ITA, 16'd40, 2'd3, 1'b0, 1'b1, Line | 64'd3, 64'd0, "Itanium TLB SW, a fault");

    tb_done();
  end

endmodule
