`include "ita_defines.vh"

// ita_dear, directed cases on both models (docs/ita-ear-btb.md, "D-EAR"): Itanium 2 cache-mode
// thresholds at their boundaries (loads only), saturation with ov, TLB mode (loads and
// stores, the umask's outcomes), ALAT mode, the first candidate in slot order, squashed and
// unqualified slots, PMD17's dispersal window (bn); Itanium thresholds (LAT512 for 7 and 8,
// LAT_NONE), PMD3's level, PMD17's layout; freeze; write vs capture in one clock.
module tb_ita_dear;

  `define TB_NAME "tb_ita_dear"
  `include "tb_common.svh"
  `include "ita_defs.vh"

  localparam int ITA2 = 0, ITA = 1;
  localparam int NSlots = `ITA_MAX_SLOTS;
  localparam int SfW = `ITA_SF_WIDTH;

  logic        clk = 1'b0, rst_n = 1'b0;
  // Packed: Verilator 5.006 does not always propagate a write to one element of an unpacked
  // array into the continuous assignments of the instance that element drives.
  logic [1:0][63:0] pmc11;
  logic        step = 1'b0, fr = 1'b0;
  logic [2:0]  nslots = '0;
  logic [NSlots*SfW-1:0] flags = '0;
  logic [NSlots*16-1:0]  lat = '0;
  logic [NSlots*2-1:0]   tlb = '0, idx = '0;
  logic [NSlots*64-1:0]  ip = '0, daddr = '0;
  logic [NSlots-1:0]     qual = '1;
  // The tasks set the variables above; a clock edge applies them to the instances (the _q
  // copies): under --timing, Verilator 5.006 leaves the unit's combinational decode stale
  // when an initial block drives its inputs directly (a TLB outcome written after the mode
  // changed was not seen), so they come from flops, as they do in ita_pmu.  Every case
  // starts with a clock edge (clear_regs), which applies them.
  logic [1:0][63:0]      pmc11_q = '0;
  logic [2:0]            nslots_q = '0;
  logic [NSlots*SfW-1:0] flags_q = '0;
  logic [NSlots*16-1:0]  lat_q = '0;
  logic [NSlots*2-1:0]   tlb_q = '0, idx_q = '0;
  logic [NSlots*64-1:0]  ip_q = '0, daddr_q = '0;
  logic [NSlots-1:0]     qual_q = '1;
  always_ff @(posedge clk) begin
    pmc11_q  <= pmc11;
    nslots_q <= nslots;
    flags_q  <= flags;
    lat_q    <= lat;
    tlb_q    <= tlb;
    idx_q    <= idx;
    ip_q     <= ip;
    daddr_q  <= daddr;
    qual_q   <= qual;
  end
  logic        we2 = 1'b0, we3 = 1'b0, we17 = 1'b0;
  logic [63:0] wdata = '0;
  logic [63:0] pmd2 [2], pmd3 [2], pmd17 [2];
  logic        cap [2], en [2];

  always #5 clk = ~clk;

  `define TB_DEAR(IDX, MODEL)                                                               \
    ita_dear #(.Model(MODEL)) u_dear_``IDX (                                                 \
      .clk_i(clk), .rst_ni(rst_n), .pmc11_i(pmc11_q[IDX]), .step_i(step), .fr_i(fr),        \
      .cpl_i(2'd0), .is_i(1'b0), .psr_up_i(1'b1), .psr_pp_i(1'b0), .nslots_i(nslots_q),    \
      .slot_flags_i(flags_q), .slot_lat_i(lat_q), .slot_tlb_i(tlb_q), .slot_ip_i(ip_q),    \
      .slot_idx_i(idx_q), .slot_daddr_i(daddr_q), .slot_qual_i(qual_q), .pmd2_we_i(we2),   \
      .pmd3_we_i(we3), .pmd17_we_i(we17), .wdata_i(wdata), .pmd2_o(pmd2[IDX]),              \
      .pmd3_o(pmd3[IDX]), .pmd17_o(pmd17[IDX]), .en_o(en[IDX]), .cap_o(cap[IDX]));
  `TB_DEAR(0, 1)
  `TB_DEAR(1, 0)

  // en_o gates the slots' qualification bits in ita_pmu: it must be 1 in every clock that
  // captures, and 0 without a step or when frozen (ita_unit_en).
  always @(negedge clk) begin
    for (int d = 0; d < 2; d++) begin
      check_unit_en(d, cap[d], en[d], step, fr);
    end
  end

  localparam logic [1:0] ModeCache = 2'd0, ModeTlb = 2'd1, ModeAlat = 2'd2, ModeNone = 2'd3;

  function automatic logic [63:0] ita2_cfg(input logic [1:0] mode, input logic [3:0] umask);
    ita2_cfg = 64'hf | ({62'd0, mode} << ITA_F_PMC11_MODE_LSB)
             | ({60'd0, umask} << ITA_F_PMC11_UMASK_LSB);
  endfunction
  function automatic logic [63:0] ita_cfg(input logic tlb_mode, input logic [3:0] umask);
    ita_cfg = 64'hf | ({63'd0, tlb_mode} << ITA_F_PMC11_ITA_TLB_LSB)
            | ({60'd0, umask} << ITA_F_PMC11_UMASK_LSB);
  endfunction

  localparam logic [63:0] Window = 64'h4000_0000_0000_1000;
  localparam logic [15:0] Load = 16'd1 << ITA_SF_LOAD_LSB;
  localparam logic [15:0] Store = 16'd1 << ITA_SF_STORE_LSB;
  localparam logic [15:0] Alat = 16'd1 << ITA_SF_ALAT_MISS_LSB;
  localparam logic [15:0] Squashed = 16'd1 << ITA_SF_PRED_OFF_LSB;

  // Slot k: flags, latency, TLB outcome, bundle address, syllable, data address.
  task automatic set_slot(input int k, input logic [15:0] f, input logic [15:0] l,
                          input logic [1:0] t, input logic [63:0] a, input logic [1:0] s);
    flags[k*SfW +: SfW] = f; lat[k*16 +: 16] = l; tlb[k*2 +: 2] = t;
    ip[k*64 +: 64] = a; idx[k*2 +: 2] = s; daddr[k*64 +: 64] = 64'h7000 + 64'(k);
  endtask

  task automatic clear_regs;
    we2 = 1'b1; we3 = 1'b1; we17 = 1'b1; wdata = '0;
    @(posedge clk);
    #1;
    we2 = 1'b0; we3 = 1'b0; we17 = 1'b0;
  endtask

  // One step; checks model d's capture and, when it captures, PMD2 = the data address of slot
  // k, PMD3 and PMD17.
  task automatic expect_cap(input int d, input logic exp, input int k, input logic [63:0] e3,
                            input logic [63:0] e17, input string what);
    logic c;
    clear_regs();
    step = 1'b1;
    #1;
    c = cap[d];
    @(posedge clk);
    #1;
    step = 1'b0;
    #1;  // the outputs show a clock's capture while it is presented
    check(c == exp, $sformatf("%s: cap_o == %0d", what, exp));
    check_eq(pmd2[d], exp ? 64'h7000 + 64'(k) : 64'd0, {what, ": PMD2"});
    check_eq(pmd3[d], exp ? e3 : 64'd0, {what, ": PMD3"});
    check_eq(pmd17[d], exp ? e17 : 64'd0, {what, ": PMD17"});
  endtask

  function automatic logic [63:0] ita2_pmd3(input logic [1:0] stat, input logic ov,
                                            input logic [12:0] l);
    ita2_pmd3 = ({62'd0, stat} << ITA_F_PMD3_STAT_LSB) | ({63'd0, ov} << ITA_F_PMD3_OV_LSB)
              | ({51'd0, l} << ITA_F_PMD3_LAT_LSB);
  endfunction
  // Itanium 2 PMD17: {iaddr, vl, bn, slot}
  function automatic logic [63:0] ita2_pmd17(input logic [63:0] a, input logic bn,
                                             input logic [1:0] s);
    ita2_pmd17 = (a & ~64'hf) | (64'd1 << ITA_F_PMD17_VL_LSB) | ({63'd0, bn} << ITA_F_PMD17_BN_LSB)
               | ({62'd0, s} << ITA_F_PMD17_SLOT_LSB);
  endfunction
  // Itanium PMD17: {ip[63:4], slot, 0, vl}
  function automatic logic [63:0] ita_pmd17(input logic [63:0] a, input logic [1:0] s);
    ita_pmd17 = (a & ~64'hf) | ({62'd0, s} << ITA_F_PMD17_ITA_SLOT_LSB)
              | (64'd1 << ITA_F_PMD17_ITA_VL_LSB);
  endfunction

  initial begin
    pmc11[ITA2] = '0; pmc11[ITA] = '0;
    @(posedge clk);
    #1;
    rst_n = 1'b1;
    check_eq(pmd17[ITA2], ITA_PMD17_RESET_ITA2, "reset PMD17");

    // ---- Itanium 2 cache mode ------------------------------------------------------------------
    nslots = 3'd1;
    set_slot(0, Load, 16'd31, 2'd0, Window, 2'd1);
    pmc11[ITA2] = ita2_cfg(ModeCache, 4'd3);  // LAT32
    expect_cap(ITA2, 1'b0, 0, 0, 0, "LAT32, lat 31");
    set_slot(0, Load, 16'd32, 2'd0, Window, 2'd1);
    expect_cap(ITA2, 1'b1, 0, ita2_pmd3(2'd1, 1'b0, 13'd32), ita2_pmd17(Window, 1'b0, 2'd1),
               "LAT32, lat 32");
    set_slot(0, Store, 16'd32, 2'd0, Window, 2'd1);
    expect_cap(ITA2, 1'b0, 0, 0, 0, "cache mode ignores stores");
    pmc11[ITA2] = ita2_cfg(ModeCache, 4'ha);  // LAT4096
    set_slot(0, Load, 16'd4095, 2'd0, Window, 2'd0);
    expect_cap(ITA2, 1'b0, 0, 0, 0, "LAT4096, lat 4095");
    set_slot(0, Load, 16'd9000, 2'd0, Window, 2'd0);
    expect_cap(ITA2, 1'b1, 0, ita2_pmd3(2'd1, 1'b1, 13'h1fff), ita2_pmd17(Window, 1'b0, 2'd0),
               "LAT4096, lat 9000 saturates with ov");
    pmc11[ITA2] = ita2_cfg(ModeCache, 4'hb);
    expect_cap(ITA2, 1'b0, 0, 0, 0, "umask 0xb captures nothing");
    pmc11[ITA2] = ita2_cfg(ModeNone, 4'h0);
    expect_cap(ITA2, 1'b0, 0, 0, 0, "mode 3 monitors nothing");

    // ---- first candidate, squashed, unqualified, the window's second bundle -------------------
    pmc11[ITA2] = ita2_cfg(ModeCache, 4'd0);  // LAT4
    nslots = 3'd5;
    set_slot(0, 16'd0, 16'd0, 2'd0, Window, 2'd0);
    set_slot(1, Load | Squashed, 16'd50, 2'd0, Window, 2'd1);
    set_slot(2, Load, 16'd60, 2'd0, Window, 2'd2);
    set_slot(3, Load, 16'd70, 2'd0, Window + 64'd16, 2'd0);
    set_slot(4, Load, 16'd80, 2'd0, Window + 64'd48, 2'd1);
    qual = 6'b111011;  // slot 2 does not qualify
    expect_cap(ITA2, 1'b1, 3, ita2_pmd3(2'd1, 1'b0, 13'd70), ita2_pmd17(Window, 1'b1, 2'd0),
               "first qualified true-predicate slot, in the window's second bundle (bn)");
    qual = 6'b110111;  // slot 4 qualifies; slot 3 does not
    set_slot(2, Load | Squashed, 16'd60, 2'd0, Window, 2'd2);
    expect_cap(ITA2, 1'b1, 4, ita2_pmd3(2'd1, 1'b0, 13'd80),
               ita2_pmd17(Window + 64'd48, 1'b0, 2'd1), "outside the window: its own bundle");
    qual = '1;
    nslots = 3'd4;  // slot 4 is not valid
    set_slot(3, Load | Squashed, 16'd70, 2'd0, Window + 64'd16, 2'd0);
    expect_cap(ITA2, 1'b0, 0, 0, 0, "no valid candidate");

    // ---- TLB and ALAT modes -----------------------------------------------------------------
    nslots = 3'd2;
    set_slot(0, Store, 16'd0, 2'd1, Window, 2'd2);
    set_slot(1, Load, 16'd0, 2'd2, Window, 2'd0);
    pmc11[ITA2] = ita2_cfg(ModeTlb, 4'h4);  // VHPT
    expect_cap(ITA2, 1'b1, 1, ita2_pmd3(2'd2, 1'b0, 13'd0), ita2_pmd17(Window, 1'b0, 2'd0),
               "TLB VHPT: the load, not the L2-TLB store");
    pmc11[ITA2] = ita2_cfg(ModeTlb, 4'h2);  // L2 DTLB
    expect_cap(ITA2, 1'b1, 0, ita2_pmd3(2'd1, 1'b0, 13'd0), ita2_pmd17(Window, 1'b0, 2'd2),
               "TLB L2: a store counts");
    pmc11[ITA2] = ita2_cfg(ModeTlb, 4'h8);
    expect_cap(ITA2, 1'b0, 0, 0, 0, "TLB FAULT: none");
    set_slot(1, Alat, 16'd0, 2'd0, Window, 2'd1);
    pmc11[ITA2] = ita2_cfg(ModeAlat, 4'h0);
    expect_cap(ITA2, 1'b1, 1, ita2_pmd3(2'd1, 1'b0, 13'd0), ita2_pmd17(Window, 1'b0, 2'd1),
               "ALAT mode");
    fr = 1'b1;
    expect_cap(ITA2, 1'b0, 0, 0, 0, "frozen");
    fr = 1'b0;

    // ---- write vs capture ----------------------------------------------------------------------
    we3 = 1'b1; wdata = 64'hffff_ffff_ffff_ffff; step = 1'b1;
    @(posedge clk);
    #1;
    we3 = 1'b0; step = 1'b0;
    #1;
    check_eq(pmd3[ITA2], ITA_PMD3_WMASK_ITA2, "write wins over capture: PMD3");
    check_eq(pmd2[ITA2], 64'h7001, "the capture still writes PMD2");

    // ---- Itanium ------------------------------------------------------------------------------
    nslots = 3'd1;
    pmc11[ITA] = ita_cfg(1'b0, 4'd7);  // LAT512 (umask 7 read as 512)
    set_slot(0, Load, 16'd511, 2'd0, Window + 64'd16, 2'd2);
    expect_cap(ITA, 1'b0, 0, 0, 0, "Itanium umask 7, lat 511");
    set_slot(0, Load, 16'd512, 2'd0, Window + 64'd16, 2'd2);
    expect_cap(ITA, 1'b1, 0, 64'd512, ita_pmd17(Window + 64'd16, 2'd2), "Itanium umask 7, lat 512");
    pmc11[ITA] = ita_cfg(1'b0, 4'd9);  // LAT1024
    set_slot(0, Load, 16'd1023, 2'd0, Window, 2'd0);
    expect_cap(ITA, 1'b0, 0, 0, 0, "Itanium LAT1024, lat 1023");
    pmc11[ITA] = ita_cfg(1'b0, 4'd6);  // 256
    set_slot(0, Load, 16'd5000, 2'd0, Window, 2'd0);
    expect_cap(ITA, 1'b1, 0, 64'hfff, ita_pmd17(Window, 2'd0), "Itanium: lat saturates at 4095");
    pmc11[ITA] = ita_cfg(1'b0, 4'hf);  // LAT_NONE
    set_slot(0, Load, 16'd1, 2'd0, Window, 2'd1);
    expect_cap(ITA, 1'b1, 0, 64'd1, ita_pmd17(Window, 2'd1), "Itanium LAT_NONE, lat 1");
    pmc11[ITA] = ita_cfg(1'b1, 4'h8);  // TLB SW
    set_slot(0, Store, 16'd30, 2'd3, Window, 2'd1);
    expect_cap(ITA, 1'b1, 0, 64'd3 << ITA_F_PMD3_ITA_LEVEL_LSB, ita_pmd17(Window, 2'd1),
               "Itanium TLB SW: level 3, no latency");

    tb_done();
  end

endmodule
