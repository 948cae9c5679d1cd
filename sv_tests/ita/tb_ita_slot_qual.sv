// ita_slot_qual (the IBR / DBR / fine-range / opcode matchers of one slot and ita_tag_qual),
// directed cases on three instances that share every input:
//   Q2   Model=1 (Itanium 2), FineGran2=0
//   Q2G  Model=1,             FineGran2=1 (fine-mode ranges compare ip[11:5])
//   Q1   Model=0 (Itanium)
// Outputs are read per qualifier set c = {iar, opm}: set 2 (iar only) shows the range tag r_k,
// set 1 (opm only) the opcode tag o_k, set 3 both, set 0 never constrains.
// Covered: IBR pair match at the range edges (first / last bundle inside, first outside),
// bits 3:0 ignored, bits 63:56 always compared, the pair's plm, each pair on its own; DBR
// match (byte granularity, load/store only, plm, bits 63:56); the br.cloop opcode match of
// libpfm's ita2_opcode.c (hits br.cloop, misses other branches and other units); PMC8 / PMC9
// per pair; PMC15 ties; PMC14 ibrp; ig_ad and the inverted range (PMC8 pairs only, PMC9's bits
// without effect); fine mode at 4 KB page edges, both ranges, masks unused, both plms, and
// the FineGran2 granularity; PMC13 cfg 0/1/2/3, ena, several active pairs, inst_q(k) per
// pair; Itanium ta / pt and Table 6-3 modes; IA-32 slots always pass; a slot that does not
// retire (valid_i = 0) has every output 0, IA-32 or not, and a matching slot its tags again
// when it retires.
module tb_ita_slot_qual;

  `define TB_NAME "tb_ita_slot_qual"
  `include "tb_common.svh"
  `include "ita_defs.vh"

  localparam int NDut = 3;
  localparam int Q2 = 0, Q2G = 1, Q1 = 2;

  // enum ita_unit of include/common/ita/ita_cycle.h
  localparam logic [1:0] UnitM = 2'd0, UnitI = 2'd1, UnitF = 2'd2, UnitB = 2'd3;

  // ---- shared stimulus ------------------------------------------------------------------
  logic            valid = 1'b1;
  logic            is_ia32 = 1'b0;
  logic [1:0]      cpl = 2'd0;
  logic [63:0]     ip = '0;
  logic [40:0]     enc = '0;
  logic [1:0]      unit = UnitM;
  logic            mem = 1'b0;
  logic [63:0]     daddr = '0;
  logic [8*64-1:0] ibr = '0;
  logic [8*64-1:0] dbr = '0;
  logic [63:0]     pmc8 = '0, pmc9 = '0, pmc11 = '0, pmc13 = '0, pmc14 = '0, pmc15 = '0;

  logic [15:0] iq [NDut];
  logic [3:0]  mq [NDut];

  // Each instance reads the registers' fields decoded as ita_pmu decodes them at the write
  // (ita_qual_cfg), here combinationally from the register values.
  `define TB_QUAL(IDX, MODEL, GRAN2)                                                      \
    logic [3:0] opc8_u_``IDX, opc9_u_``IDX, act_``IDX, niq_``IDX, ndbr_``IDX, ibrp_``IDX, opcf_``IDX; \
    logic       igad_``IDX, inv_``IDX, pt_``IDX, ta_``IDX, fine_``IDX;                   \
    ita_qual_cfg #(.Model(MODEL), .Registered(1'b0)) u_cfg_``IDX (                         \
      .clk_i(1'b0), .rst_ni(1'b1), .wr_i(1'b0), .pmc8_sel_i(1'b0), .pmc9_sel_i(1'b0),       \
      .pmc11_sel_i(1'b0), .pmc13_sel_i(1'b0), .pmc14_sel_i(1'b0), .pmc15_sel_i(1'b0),       \
      .wdata_i(64'd0), .pmc8_i(pmc8), .pmc9_i(pmc9), .pmc11_i(pmc11), .pmc13_i(pmc13),      \
      .pmc14_i(pmc14), .pmc15_i(pmc15), .opc8_unit_o(opc8_u_``IDX), .opc9_unit_o(opc9_u_``IDX), \
      .ig_ad_o(igad_``IDX), .inv_o(inv_``IDX), .pass_data_o(pt_``IDX), .tag_all_o(ta_``IDX), \
      .pair_active_o(act_``IDX), .need_iq_o(niq_``IDX), .need_dbr_o(ndbr_``IDX),           \
      .fine_o(fine_``IDX), .ibrp_free_o(ibrp_``IDX), .opc_free_o(opcf_``IDX));              \
    ita_slot_qual #(.Model(MODEL), .FineGran2(GRAN2)) u_qual_``IDX (                       \
      .valid_i(valid), .is_i(is_ia32), .cpl_i(cpl), .ip_i(ip), .enc_i(enc), .unit_i(unit), .mem_i(mem),      \
      .daddr_i(daddr), .ibr_i(ibr), .dbr_i(dbr), .pmc8_i(pmc8), .pmc9_i(pmc9),              \
      .opc8_unit_i(opc8_u_``IDX), .opc9_unit_i(opc9_u_``IDX), .ig_ad_i(igad_``IDX),         \
      .inv_i(inv_``IDX), .pass_data_i(pt_``IDX), .tag_all_i(ta_``IDX),                      \
      .pair_active_i(act_``IDX), .need_iq_i(niq_``IDX), .need_dbr_i(ndbr_``IDX),            \
      .fine_i(fine_``IDX), .ibrp_free_i(ibrp_``IDX), .opc_free_i(opcf_``IDX),               \
      .inst_q_o(iq[IDX]), .mem_q_o(mq[IDX]));

  `TB_QUAL(0, 1, 1'b0)
  `TB_QUAL(1, 1, 1'b1)
  `TB_QUAL(2, 0, 1'b0)

  // ---- reading the outputs ----------------------------------------------------------------
  localparam int SetOpm = 1, SetIar = 2, SetBoth = 3;

  function automatic logic r_of(input int d, input int k);   // range tag r_k
    r_of = iq[d][SetIar*4 + k];
  endfunction
  function automatic logic o_of(input int d, input int k);   // opcode tag o_k
    o_of = iq[d][SetOpm*4 + k];
  endfunction
  function automatic logic q_of(input int d, input int k);   // inst_q(k), iar = opm = 1
    q_of = iq[d][SetBoth*4 + k];
  endfunction
  function automatic logic [3:0] rs(input int d);            // r_3..r_0
    rs = iq[d][SetIar*4 +: 4];
  endfunction
  function automatic logic [3:0] os(input int d);            // o_3..o_0
    os = iq[d][SetOpm*4 +: 4];
  endfunction
  function automatic logic m_of(input int d);                // memory qualification, iar = opm = 1
    m_of = mq[d][SetBoth];
  endfunction

  // ---- register values from their fields -----------------------------------------------------
  function automatic logic [63:0] ibr_mask(input logic [55:0] mask, input logic [3:0] plm);
    ibr_mask = ({8'd0, mask} << ITA_F_IBR_MASK_MASK_LSB) | ({60'd0, plm} << ITA_F_IBR_MASK_PLM_LSB);
  endfunction
  function automatic logic [63:0] dbr_mask(input logic [55:0] mask, input logic [3:0] plm);
    dbr_mask = ({8'd0, mask} << ITA_F_DBR_MASK_MASK_LSB) | ({60'd0, plm} << ITA_F_DBR_MASK_PLM_LSB);
  endfunction
  // An opcode matcher: match / mask fields, unit enables {m, i, f, b}, Itanium 2 ig_ad / inv.
  function automatic logic [63:0] opc(input logic [26:0] match, input logic [26:0] mask,
                                      input logic [3:0] mifb, input logic ig_ad, input logic inv);
    opc = ({37'd0, match} << ITA_F_PMC_OPC_MATCH_LSB) | ({37'd0, mask} << ITA_F_PMC_OPC_MASK_LSB)
        | ({63'd0, mifb[3]} << ITA_F_PMC_OPC_M_LSB) | ({63'd0, mifb[2]} << ITA_F_PMC_OPC_I_LSB)
        | ({63'd0, mifb[1]} << ITA_F_PMC_OPC_F_LSB) | ({63'd0, mifb[0]} << ITA_F_PMC_OPC_B_LSB)
        | ({63'd0, ig_ad} << ITA_F_PMC_OPC_IG_AD_LSB) | ({63'd0, inv} << ITA_F_PMC_OPC_INV_LSB);
  endfunction
  localparam logic [26:0] OpcAny = 27'h7ff_ffff;   // mask: every bit "don't care"
  // PMC14: ibrp bits (1 = pair not constrained) and fine.
  function automatic logic [63:0] p14(input logic [3:0] ibrp, input logic fine);
    p14 = ({63'd0, ibrp[0]} << ITA_F_PMC14_IBRP0_LSB) | ({63'd0, ibrp[1]} << ITA_F_PMC14_IBRP1_LSB)
        | ({63'd0, ibrp[2]} << ITA_F_PMC14_IBRP2_LSB) | ({63'd0, ibrp[3]} << ITA_F_PMC14_IBRP3_LSB)
        | ({63'd0, fine} << ITA_F_PMC14_FINE_LSB);
  endfunction
  // PMC15: bit k = 1: pair k needs no opcode matcher.
  function automatic logic [63:0] p15(input logic [3:0] free);
    p15 = ({63'd0, free[0]} << ITA_F_PMC15_IBRP0_PMC8_LSB) | ({63'd0, free[1]} << ITA_F_PMC15_IBRP1_PMC9_LSB)
        | ({63'd0, free[2]} << ITA_F_PMC15_IBRP2_PMC8_LSB) | ({63'd0, free[3]} << ITA_F_PMC15_IBRP3_PMC9_LSB);
  endfunction
  // PMC13 (Itanium 2): cfg_dbrp_k in cfg[k*2 +: 2], ena_dbrp_k in ena[k].
  function automatic logic [63:0] p13(input logic [7:0] cfg, input logic [3:0] ena);
    p13 = ({62'd0, cfg[1:0]} << ITA_F_PMC13_CFG_DBRP0_LSB) | ({62'd0, cfg[3:2]} << ITA_F_PMC13_CFG_DBRP1_LSB)
        | ({62'd0, cfg[5:4]} << ITA_F_PMC13_CFG_DBRP2_LSB) | ({62'd0, cfg[7:6]} << ITA_F_PMC13_CFG_DBRP3_LSB)
        | ({63'd0, ena[0]} << ITA_F_PMC13_ENA_DBRP0_LSB) | ({63'd0, ena[1]} << ITA_F_PMC13_ENA_DBRP1_LSB)
        | ({63'd0, ena[2]} << ITA_F_PMC13_ENA_DBRP2_LSB) | ({63'd0, ena[3]} << ITA_F_PMC13_ENA_DBRP3_LSB);
  endfunction
  localparam logic [63:0] Ta = 64'd1 << ITA_F_PMC13_TA_LSB;   // Itanium PMC13.ta
  localparam logic [63:0] Pt = 64'd1 << ITA_F_PMC11_PT_LSB;   // Itanium PMC11.pt

  task automatic set_ibr(input int k, input logic [63:0] addr, input logic [63:0] mask_reg);
    ibr[(2*k)*64 +: 64] = addr;
    ibr[(2*k+1)*64 +: 64] = mask_reg;
  endtask
  task automatic set_dbr(input int k, input logic [63:0] addr, input logic [63:0] mask_reg);
    dbr[(2*k)*64 +: 64] = addr;
    dbr[(2*k+1)*64 +: 64] = mask_reg;
  endtask

  // Every register at its reset value for the Itanium 2 (nothing constrains).
  task automatic reset_ita2;
    ibr = '0; dbr = '0;
    pmc8 = ITA_PMC8_RESET_ITA2; pmc9 = ITA_PMC9_RESET_ITA2; pmc11 = ITA_PMC11_RESET_ITA2;
    pmc13 = ITA_PMC13_RESET_ITA2; pmc14 = ITA_PMC14_RESET_ITA2; pmc15 = ITA_PMC15_RESET_ITA2;
    is_ia32 = 1'b0; cpl = 2'd0; mem = 1'b0;
  endtask
  task automatic reset_ita;
    ibr = '0; dbr = '0;
    pmc8 = ITA_PMC8_RESET_ITA; pmc9 = ITA_PMC9_RESET_ITA; pmc11 = ITA_PMC11_RESET_ITA;
    pmc13 = ITA_PMC13_RESET_ITA; pmc14 = ITA_PMC14_RESET_ITA; pmc15 = ITA_PMC15_RESET_ITA;
    is_ia32 = 1'b0; cpl = 2'd0; mem = 1'b0;
  endtask

  task automatic settle;
    #1;
  endtask

  // br.cloop (libpfm-3 examples_v3.x/ia64/ita2_opcode.c): major opcode instr{40:37} = 4,
  // btype instr{8:6} = 5. PMC8 match field 0x2000140, mask field 0x07ffe3f, b enabled.
  localparam logic [26:0] CloopMatch = 27'h2000140;
  localparam logic [26:0] CloopMask  = 27'h07ffe3f;
  function automatic logic [40:0] branch(input logic [3:0] major, input logic [2:0] btype,
                                         input logic [40:0] other);
    // other: every bit except 40:37 and 8:6 (target, predicate, hints ...)
    branch = (other & ~((41'hf << 37) | (41'h7 << 6))) | ({37'd0, major} << 37) | ({38'd0, btype} << 6);
  endfunction

  localparam logic [63:0] Base = 64'h1234_5678_9abc_d000;

  initial begin
    settle();

    // ==== reset values constrain nothing ====================================================
    reset_ita2();
    ip = Base; enc = 41'h1_2345_6789; unit = UnitI; mem = 1'b1; daddr = 64'hdead_beef_0000_0008;
    settle();
    for (int d = Q2; d <= Q2G; d++) begin
      check_eq({48'd0, iq[d]}, 64'hffff, $sformatf("dut %0d Itanium 2 reset: every inst_q is 1", d));
      check_eq({60'd0, mq[d]}, 64'hf, $sformatf("dut %0d Itanium 2 reset: memory qualification 1", d));
    end
    reset_ita();
    settle();
    check_eq({48'd0, iq[Q1]}, 64'hffff, "Itanium reset (ta = 1, PMC8/9 match all): every inst_q is 1");
    check_eq({60'd0, mq[Q1]}, 64'hf, "Itanium reset (pt = 1): memory qualification 1");

    // ==== IBR pair, normal mode (Itanium 2) =================================================
    // Pair 0 covers the 256-byte block at Base: mask bits 7:0 clear.
    reset_ita2();
    pmc8  = opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b0);   // matches everything, no ig_ad / inv
    pmc9  = opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b0);
    pmc14 = p14(4'b0000, 1'b0);                     // every pair constrains
    pmc15 = p15(4'b1111);
    set_ibr(0, Base, ibr_mask(56'hff_ffff_ffff_ff00, 4'hf));
    ip = Base;                    settle();
    check(r_of(Q2, 0) == 1'b1, "IBR pair 0: first bundle inside");
    ip = Base + 64'hf0;           settle();
    check(r_of(Q2, 0) == 1'b1, "IBR pair 0: last bundle inside");
    ip = Base + 64'h100;          settle();
    check(r_of(Q2, 0) == 1'b0, "IBR pair 0: first bundle after the range");
    ip = Base - 64'h10;           settle();
    check(r_of(Q2, 0) == 1'b0, "IBR pair 0: bundle before the range");
    ip = Base + 64'h48;           settle();
    check(r_of(Q2, 0) == 1'b1, "IBR pair 0: ip bits 3:0 are ignored");
    ip = Base ^ (64'd1 << 56);    settle();
    check(r_of(Q2, 0) == 1'b0, "IBR pair 0: ip bit 56 differs (no mask bit, always compared)");
    ip = Base ^ (64'd1 << 63);    settle();
    check(r_of(Q2, 0) == 1'b0, "IBR pair 0: ip bit 63 differs");
    check(q_of(Q2, 0) == 1'b0, "inst_q(0) follows r_0 (o_0 free)");
    check(iq[Q2][3:0] == 4'hf, "qualifier set {iar=0, opm=0}: never constrained");
    check(o_of(Q2, 0) == 1'b1, "opcode tag unaffected by the range");
    // Mask 0: the pair covers every address with the same bits 63:56.
    set_ibr(0, Base, ibr_mask(56'h0, 4'hf));
    ip = {Base[63:56], 56'h00_0000_0000_0000}; settle();
    check(r_of(Q2, 0) == 1'b1, "mask 0: any address with equal bits 63:56 matches");
    ip = {Base[63:56] ^ 8'h80, Base[55:0]};    settle();
    check(r_of(Q2, 0) == 1'b0, "mask 0: bit 63 still compared");
    // Exact bundle (mask all ones).
    set_ibr(0, Base + 64'h40, ibr_mask(56'hff_ffff_ffff_ffff, 4'hf));
    ip = Base + 64'h40;           settle();
    check(r_of(Q2, 0) == 1'b1, "mask all ones: the one bundle matches");
    ip = Base + 64'h4f;           settle();
    check(r_of(Q2, 0) == 1'b1, "mask all ones: bits 3:0 of ip still ignored");
    ip = Base + 64'h50;           settle();
    check(r_of(Q2, 0) == 1'b0, "mask all ones: the next bundle does not");
    // plm of the pair: cpl 3 only.
    set_ibr(0, Base, ibr_mask(56'hff_ffff_ffff_f000, 4'b1000));
    ip = Base + 64'h10;
    for (int c = 0; c < 4; c++) begin
      cpl = c[1:0]; settle();
      check(r_of(Q2, 0) == (c == 3), $sformatf("IBR plm 1000 at cpl %0d", c));
    end
    cpl = 2'd0;
    // Each pair on its own: pair k covers block k of 4 KB; slot in block j hits pair j only.
    for (int k = 0; k < 4; k++)
      set_ibr(k, Base + 64'h1000 * k, ibr_mask(56'hff_ffff_ffff_f000, 4'hf));
    for (int j = 0; j < 5; j++) begin
      ip = Base + 64'h1000 * j + 64'h770; settle();
      check_eq({60'd0, rs(Q2)}, (j < 4) ? (64'd1 << j) : 64'd0,
               $sformatf("pairs 0..3, slot in block %0d: r_3..r_0", j));
    end
    // PMC14.ibrp_k = 1 releases pair k.
    ip = Base + 64'h4000; pmc14 = p14(4'b0101, 1'b0); settle();
    check_eq({60'd0, rs(Q2)}, 64'b0101, "PMC14 ibrp0 = ibrp2 = 1: r_0 = r_2 = 1, pairs 1 and 3 constrain");
    pmc14 = p14(4'b0000, 1'b0);

    // ==== ig_ad and the inverted range (PMC8 acts on pairs 0 and 2 only) =====================
    ip = Base + 64'h10; settle();                 // in pair 0's block only
    check_eq({60'd0, rs(Q2)}, 64'b0001, "before ig_ad / inv: r = 0001");
    pmc8 = opc(27'd0, OpcAny, 4'hf, 1'b1, 1'b0); settle();
    check_eq({60'd0, rs(Q2)}, 64'b0101, "PMC8.ig_ad: r_0 = r_2 = 1, r_1 / r_3 still checked");
    pmc8 = opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b1); settle();
    check_eq({60'd0, rs(Q2)}, 64'b0100, "PMC8.inv: r_0 = !hit_0, r_2 = !hit_2, odd pairs not inverted");
    ip = Base + 64'h2010; settle();               // in pair 2's block only
    check_eq({60'd0, rs(Q2)}, 64'b0001, "PMC8.inv, slot in pair 2: r_2 = 0, r_0 = 1");
    ip = Base + 64'h9000; settle();               // outside every pair
    check_eq({60'd0, rs(Q2)}, 64'b0101, "PMC8.inv, slot outside: r_0 = r_2 = 1");
    pmc8 = opc(27'd0, OpcAny, 4'hf, 1'b1, 1'b1); settle();
    check_eq({60'd0, rs(Q2)}, 64'b0101, "ig_ad wins over inv");
    ip = Base + 64'h1010;                         // in pair 1's block only
    pmc8 = opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b0);
    pmc9 = opc(27'd0, OpcAny, 4'hf, 1'b1, 1'b1); settle();
    check_eq({60'd0, rs(Q2)}, 64'b0010, "PMC9's ig_ad and inv have no effect");
    pmc9 = opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b0);
    // A pair whose plm excludes the level does not hit; inverted, its tag is 1.
    set_ibr(0, Base, ibr_mask(56'hff_ffff_ffff_f000, 4'b0001));
    ip = Base + 64'h10; cpl = 2'd3;
    pmc8 = opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b1); settle();
    check(r_of(Q2, 0) == 1'b1, "inverted range, plm excludes the level: r_0 = 1");
    cpl = 2'd0; settle();
    check(r_of(Q2, 0) == 1'b0, "inverted range, plm includes the level and ip inside: r_0 = 0");

    // ==== opcode matcher: br.cloop ============================================================
    reset_ita2();
    pmc14 = p14(4'b1111, 1'b0);                   // no range constraint
    pmc15 = p15(4'b0000);                         // every pair needs its opcode matcher
    pmc8  = opc(CloopMatch, CloopMask, 4'b0001, 1'b0, 1'b0);   // b only
    pmc9  = opc(27'd0, OpcAny, 4'b0000, 1'b0, 1'b0);           // no unit enabled: never hits
    unit = UnitB;
    enc = branch(4'd4, 3'd5, 41'h0); settle();
    check_eq({60'd0, os(Q2)}, 64'b0101, "br.cloop in a B slot hits PMC8 (pairs 0, 2), PMC9 hits nothing");
    check_eq({60'd0, os(Q1)}, 64'b0101, "Itanium: same matchers, o_k = PMC8 (k even) / PMC9 (k odd)");
    enc = branch(4'd4, 3'd5, 41'h0_1fff_fe3f); settle();   // every other bit set
    check(o_of(Q2, 0) == 1'b1, "br.cloop with every don't-care bit set still hits");
    enc = branch(4'd4, 3'd5, 41'h1_5a5a_5a00); settle();
    check(o_of(Q2, 0) == 1'b1, "br.cloop with another target / predicate hits");
    enc = branch(4'd4, 3'd0, 41'h0); settle();
    check(o_of(Q2, 0) == 1'b0, "br.cond (btype 0) misses");
    enc = branch(4'd4, 3'd4, 41'h0); settle();
    check(o_of(Q2, 0) == 1'b0, "btype 4 misses");
    enc = branch(4'd4, 3'd7, 41'h0); settle();
    check(o_of(Q2, 0) == 1'b0, "btype 7 misses");
    enc = branch(4'd5, 3'd5, 41'h0); settle();
    check(o_of(Q2, 0) == 1'b0, "br.call (major opcode 5) misses");
    enc = branch(4'd0, 3'd5, 41'h0); settle();
    check(o_of(Q2, 0) == 1'b0, "major opcode 0 misses");
    enc = branch(4'd4, 3'd5, 41'h0); unit = UnitI; settle();
    check(o_of(Q2, 0) == 1'b0, "br.cloop bits in an I slot: b-only matcher misses");
    unit = UnitM; settle();
    check(o_of(Q2, 0) == 1'b0, "... in an M slot misses");
    unit = UnitF; settle();
    check(o_of(Q2, 0) == 1'b0, "... in an F slot misses");
    // Unit enables one at a time (PMC9, odd pairs), encoding fully don't-care.
    for (int u = 0; u < 4; u++) begin
      logic [3:0] mifb;
      // mifb = {m, i, f, b}: unit u (0 M, 1 I, 2 F, 3 B) is bit 3 - u.
      mifb = 4'b1000 >> u;
      pmc9 = opc(27'd0, OpcAny, mifb, 1'b0, 1'b0);
      for (int s = 0; s < 4; s++) begin
        unit = s[1:0]; settle();
        check(o_of(Q2, 1) == (s == u), $sformatf("PMC9 enables unit %0d only, slot unit %0d", u, s));
      end
    end
    // Mapping of the 27-bit fields onto {40:27, 12:0}: bits 26:13 of enc are never compared.
    pmc8 = opc(27'd0, 27'd0, 4'hf, 1'b0, 1'b0);   // every field bit must be 0
    enc = 41'h0_07ff_e000; settle();              // enc[26:13] all ones
    check(o_of(Q2, 0) == 1'b1, "enc[26:13] are outside the matched bits");
    enc = 41'h0_0800_0000; settle();              // enc[27] -> field bit 13
    check(o_of(Q2, 0) == 1'b0, "enc[27] is field bit 13");
    enc = 41'h0_0000_1000; settle();              // enc[12] -> field bit 12
    check(o_of(Q2, 0) == 1'b0, "enc[12] is field bit 12");
    pmc8 = opc(27'h400_0000, 27'd0, 4'hf, 1'b0, 1'b0);   // field bit 26 = enc[40]
    enc = 41'h100_0000_0000; settle();
    check(o_of(Q2, 0) == 1'b1, "field bit 26 matches enc[40]");

    // ==== PMC15 ties ==========================================================================
    pmc8 = opc(27'd0, OpcAny, 4'b0000, 1'b0, 1'b0);   // PMC8 hits nothing
    pmc9 = opc(27'd0, OpcAny, 4'b1111, 1'b0, 1'b0);   // PMC9 hits everything
    unit = UnitM; enc = '0;
    pmc15 = p15(4'b0000); settle();
    check_eq({60'd0, os(Q2)}, 64'b1010, "PMC15 = 0: o_0 = o_2 = PMC8 (miss), o_1 = o_3 = PMC9 (hit)");
    pmc15 = p15(4'b0001); settle();
    check_eq({60'd0, os(Q2)}, 64'b1011, "PMC15 bit 0: pair 0 needs no opcode match");
    pmc15 = p15(4'b0100); settle();
    check_eq({60'd0, os(Q2)}, 64'b1110, "PMC15 bit 2: pair 2 needs no opcode match");
    pmc15 = p15(4'b1111); settle();
    check_eq({60'd0, os(Q2)}, 64'b1111, "PMC15 = 0xf: no pair needs an opcode match");
    // inst_q(k) = r_k && o_k: pair 1 range miss, PMC9 hit; pair 0 range hit, PMC8 miss.
    pmc15 = p15(4'b0000);
    pmc14 = p14(4'b0000, 1'b0);
    for (int k = 0; k < 4; k++)
      set_ibr(k, Base + 64'h1000 * k, ibr_mask(56'hff_ffff_ffff_f000, 4'hf));
    ip = Base + 64'h20; settle();
    check_eq({60'd0, rs(Q2)}, 64'b0001, "r: slot in pair 0's block");
    check_eq({60'd0, iq[Q2][SetBoth*4 +: 4]}, 64'b0000, "inst_q = r && o: nobody passes");
    ip = Base + 64'h1020; settle();
    check_eq({60'd0, iq[Q2][SetBoth*4 +: 4]}, 64'b0010, "inst_q(1): pair 1 range and PMC9 both hit");
    check(iq[Q2][SetIar*4 + 1] && !iq[Q2][SetIar*4 + 0], "iar-only set: r_1 only");

    // ==== fine mode (Itanium 2) ===============================================================
    reset_ita2();
    pmc8  = opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b0);
    pmc15 = p15(4'b1111);
    pmc14 = p14(4'b0000, 1'b1);
    // Range A: lower IBR0 = start of the page, upper IBR4 = its last bundle. Masks 0 (unused:
    // in normal mode mask 0 would match the whole 2^56 region).
    set_ibr(0, Base, ibr_mask(56'h0, 4'hf));
    set_ibr(2, Base + 64'hff0, ibr_mask(56'h0, 4'hf));
    // Range B (pairs 1, 3): an unrelated page.
    set_ibr(1, Base + 64'h10_0100, ibr_mask(56'h0, 4'hf));
    set_ibr(3, Base + 64'h10_0200, ibr_mask(56'h0, 4'hf));
    ip = Base;                  settle();
    check_eq({60'd0, rs(Q2)}, 64'b0101, "fine A: first bundle of the page (r_0 = r_2)");
    ip = Base + 64'hff0;        settle();
    check_eq({60'd0, rs(Q2)}, 64'b0101, "fine A: last bundle of the page (upper inclusive)");
    ip = Base + 64'h1000;       settle();
    check_eq({60'd0, rs(Q2)}, 64'b0000, "fine A: first bundle of the next page");
    ip = Base - 64'h10;         settle();
    check_eq({60'd0, rs(Q2)}, 64'b0000, "fine A: last bundle of the previous page");
    ip = Base + 64'h7_0000;     settle();
    check_eq({60'd0, rs(Q2)}, 64'b0000, "fine A: same offset in another page");
    ip = Base + 64'h10_0100;    settle();
    check_eq({60'd0, rs(Q2)}, 64'b1010, "fine B: lower bound (r_1 = r_3)");
    ip = Base + 64'h10_0200;    settle();
    check_eq({60'd0, rs(Q2)}, 64'b1010, "fine B: upper bound inclusive");
    ip = Base + 64'h10_0210;    settle();
    check_eq({60'd0, rs(Q2)}, 64'b0000, "fine B: first bundle after the upper bound");
    ip = Base + 64'h10_00f0;    settle();
    check_eq({60'd0, rs(Q2)}, 64'b0000, "fine B: last bundle before the lower bound");
    pmc14 = p14(4'b0000, 1'b0); ip = Base + 64'h7_0000; settle();
    check_eq({60'd0, rs(Q2)}, 64'b1111, "same registers in normal mode: mask 0 matches the whole region");
    pmc14 = p14(4'b0000, 1'b1);
    // The upper bound's page is not compared: the range lies in the lower bound's page.
    set_ibr(2, Base + 64'h5_0800, ibr_mask(56'h0, 4'hf));
    ip = Base + 64'h800;        settle();
    check(r_of(Q2, 0) == 1'b1, "fine A: upper bound in another page: only its offset counts");
    ip = Base + 64'h5_0800;     settle();
    check(r_of(Q2, 0) == 1'b0, "fine A: the upper bound's own page is outside");
    set_ibr(2, Base + 64'hff0, ibr_mask(56'h0, 4'hf));
    // Both pairs' plm must allow the level.
    set_ibr(2, Base + 64'hff0, ibr_mask(56'h0, 4'b0001));
    ip = Base + 64'h100; cpl = 2'd0; settle();
    check(r_of(Q2, 0) == 1'b1, "fine A: both plms allow cpl 0");
    cpl = 2'd3; settle();
    check(r_of(Q2, 0) == 1'b0, "fine A: upper pair's plm excludes cpl 3");
    set_ibr(2, Base + 64'hff0, ibr_mask(56'h0, 4'hf));
    set_ibr(0, Base, ibr_mask(56'h0, 4'b0001)); settle();
    check(r_of(Q2, 0) == 1'b0, "fine A: lower pair's plm excludes cpl 3");
    cpl = 2'd0;
    set_ibr(0, Base, ibr_mask(56'h0, 4'hf));
    // Inverted fine range.
    pmc8 = opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b1);
    ip = Base + 64'h100;        settle();
    check_eq({60'd0, rs(Q2)}, 64'b0000, "fine A inverted: inside -> r_0 = r_2 = 0");
    ip = Base + 64'h1100;       settle();
    check_eq({60'd0, rs(Q2)}, 64'b0101, "fine A inverted: outside -> r_0 = r_2 = 1");
    pmc8 = opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b0);
    // Granularity: lower bound on an odd bundle, upper on an even bundle.
    set_ibr(0, Base + 64'h110, ibr_mask(56'h0, 4'hf));
    set_ibr(2, Base + 64'h200, ibr_mask(56'h0, 4'hf));
    ip = Base + 64'h100;        settle();
    check(r_of(Q2, 0) == 1'b0, "fine, 1-bundle granularity: the bundle below an odd lower bound is out");
    check(r_of(Q2G, 0) == 1'b1, "FineGran2: the lower bound's 32-byte pair includes the bundle below");
    ip = Base + 64'h210;        settle();
    check(r_of(Q2, 0) == 1'b0, "fine, 1-bundle granularity: the bundle above an even upper bound is out");
    check(r_of(Q2G, 0) == 1'b1, "FineGran2: the upper bound's 32-byte pair includes the bundle above");
    ip = Base + 64'h220;        settle();
    check(r_of(Q2, 0) == 1'b0 && r_of(Q2G, 0) == 1'b0, "both granularities: next 32-byte pair is out");
    ip = Base + 64'hf0;         settle();
    check(r_of(Q2, 0) == 1'b0 && r_of(Q2G, 0) == 1'b0, "both granularities: previous 32-byte pair is out");
    ip = Base + 64'h180;        settle();
    check(r_of(Q2, 0) == 1'b1 && r_of(Q2G, 0) == 1'b1, "both granularities: the middle is in");
    // Fine mode does not exist on Itanium (its PMC14 reads 0): the same inputs are ignored.
    reset_ita();
    pmc13 = 64'h0;                                // ta = 0: IBR pairs tag
    pmc14 = p14(4'b0000, 1'b1);
    set_ibr(0, Base, ibr_mask(56'hff_ffff_ffff_ffff, 4'hf));
    set_ibr(2, Base + 64'hff0, ibr_mask(56'hff_ffff_ffff_ffff, 4'hf));
    ip = Base + 64'h100; settle();
    check_eq({60'd0, rs(Q1)}, 64'b0000, "Itanium ignores PMC14.fine: pairs match in normal mode");

    // ==== DBR pairs and PMC13 (Itanium 2) =====================================================
    reset_ita2();
    pmc8  = opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b0);
    pmc15 = p15(4'b1111);
    pmc14 = p14(4'b0000, 1'b0);
    // DBR pair 0: the 64-byte block at D; pair 1: one byte at D + 0x100.
    set_dbr(0, 64'hbeef_0000_0000_1000, dbr_mask(56'hff_ffff_ffff_ffc0, 4'hf));
    set_dbr(1, 64'hbeef_0000_0000_1100, dbr_mask(56'hff_ffff_ffff_ffff, 4'hf));
    pmc13 = p13({2'd3, 2'd3, 2'd3, 2'd2}, 4'b0001);  // pair 0: DBR only
    mem = 1'b1;
    daddr = 64'hbeef_0000_0000_1000; settle();
    check(m_of(Q2) == 1'b1, "DBR 0: first byte of the block");
    daddr = 64'hbeef_0000_0000_103f; settle();
    check(m_of(Q2) == 1'b1, "DBR 0: last byte of the block");
    daddr = 64'hbeef_0000_0000_1040; settle();
    check(m_of(Q2) == 1'b0, "DBR 0: first byte after the block");
    daddr = 64'hbeef_0000_0000_0fff; settle();
    check(m_of(Q2) == 1'b0, "DBR 0: byte before the block");
    daddr = 64'hbfef_0000_0000_1000; settle();
    check(m_of(Q2) == 1'b0, "DBR 0: bit 56 differs (always compared)");
    daddr = 64'hbeef_0000_0000_1008; mem = 1'b0; settle();
    check(m_of(Q2) == 1'b0, "DBR 0: not a load or store, no data-address hit");
    mem = 1'b1; settle();
    check_eq({60'd0, mq[Q2]}, 64'hf, "cfg 2 (DBR only): every qualifier set sees the DBR hit");
    set_dbr(0, 64'hbeef_0000_0000_1000, dbr_mask(56'hff_ffff_ffff_ffc0, 4'b0010));
    cpl = 2'd1; settle();
    check(m_of(Q2) == 1'b1, "DBR plm 0010 at cpl 1");
    cpl = 2'd2; settle();
    check(m_of(Q2) == 1'b0, "DBR plm 0010 at cpl 2");
    cpl = 2'd0;
    set_dbr(0, 64'hbeef_0000_0000_1000, dbr_mask(56'hff_ffff_ffff_ffc0, 4'hf));
    // Byte granularity: the single-byte pair 1.
    pmc13 = p13({2'd3, 2'd3, 2'd2, 2'd3}, 4'b0010);  // pair 1: DBR only
    daddr = 64'hbeef_0000_0000_1100; settle();
    check(m_of(Q2) == 1'b1, "DBR 1: the exact byte");
    daddr = 64'hbeef_0000_0000_1101; settle();
    check(m_of(Q2) == 1'b0, "DBR 1: the next byte (no bundle rounding for data)");

    // PMC13 cfg encodings for pair 0, over the four combinations of (IBR hit, DBR hit).
    // IBR pair 0 covers Base's 4 KB block.
    set_ibr(0, Base, ibr_mask(56'hff_ffff_ffff_f000, 4'hf));
    for (int cfgv = 0; cfgv < 4; cfgv++) begin
      for (int ena = 0; ena < 2; ena++) begin
        for (int ih = 0; ih < 2; ih++) begin
          for (int dh = 0; dh < 2; dh++) begin
            logic expect_q;
            pmc13 = p13({2'd3, 2'd3, 2'd3, cfgv[1:0]}, {3'b000, ena[0]});
            ip    = (ih == 1) ? Base + 64'h30 : Base + 64'h3030;
            daddr = (dh == 1) ? 64'hbeef_0000_0000_1010 : 64'hbeef_0000_0000_2010;
            settle();
            // Not active (ena = 0 or cfg = 3): Tag(PMC8) = inst_q(0) = IBR hit.
            if (ena == 0 || cfgv == 3) expect_q = (ih == 1);
            else if (cfgv == 0)        expect_q = (ih == 1) && (dh == 1);
            else if (cfgv == 1)        expect_q = (ih == 1);
            else                       expect_q = (dh == 1);
            check(m_of(Q2) == expect_q,
                  $sformatf("PMC13 pair 0 cfg %0d ena %0d, IBR hit %0d, DBR hit %0d", cfgv, ena, ih, dh));
          end
        end
      end
    end
    // The memory qualification of an active pair uses that pair's own inst_q(k).
    for (int k = 0; k < 4; k++)
      set_ibr(k, Base + 64'h1000 * k, ibr_mask(56'hff_ffff_ffff_f000, 4'hf));
    pmc13 = p13({2'd3, 2'd3, 2'd1, 2'd3}, 4'b0010);   // pair 1: IBR + opcode
    ip = Base + 64'h10; settle();                     // in pair 0's range, not pair 1's
    check(m_of(Q2) == 1'b0, "active pair 1 (cfg 1): needs inst_q(1), inst_q(0) does not help");
    ip = Base + 64'h1010; settle();
    check(m_of(Q2) == 1'b1, "active pair 1 (cfg 1): slot in pair 1's range passes");
    check(mq[Q2][SetOpm] == 1'b1 && mq[Q2][0] == 1'b1, "sets without iar ignore the range");
    ip = Base + 64'h10; settle();
    check(mq[Q2][SetOpm] == 1'b1, "set {opm} with an active cfg-1 pair: o_1 only");
    check(mq[Q2][SetIar] == 1'b0, "set {iar} with an active cfg-1 pair: r_1 = 0");
    // Several active pairs: OR. Pair 0 cfg 0 (IBR + DBR), pair 3 cfg 2 (DBR only).
    set_dbr(3, 64'hbeef_0000_0000_3000, dbr_mask(56'hff_ffff_ffff_f000, 4'hf));
    pmc13 = p13({2'd2, 2'd3, 2'd3, 2'd0}, 4'b1001);
    ip = Base + 64'h10;    daddr = 64'hbeef_0000_0000_1010; settle();
    check(m_of(Q2) == 1'b1, "OR of pairs: pair 0 passes (IBR and DBR 0)");
    ip = Base + 64'h9010;  daddr = 64'hbeef_0000_0000_3010; settle();
    check(m_of(Q2) == 1'b1, "OR of pairs: pair 3 passes (DBR 3), pair 0 does not");
    ip = Base + 64'h10;    daddr = 64'hbeef_0000_0000_3010; settle();
    check(m_of(Q2) == 1'b1, "OR of pairs: pair 3's DBR alone suffices");
    ip = Base + 64'h9010;  daddr = 64'hbeef_0000_0000_1010; settle();
    check(m_of(Q2) == 1'b0, "OR of pairs: DBR 0 without IBR 0 fails pair 0; DBR 3 misses");
    // An enabled pair with cfg 3 next to an active one takes no part.
    pmc13 = p13({2'd3, 2'd3, 2'd3, 2'd2}, 4'b1001);
    ip = Base + 64'h10; daddr = 64'hbeef_0000_0000_3010; settle();
    check(m_of(Q2) == 1'b0, "pair 3 enabled with cfg 3 is not active; pair 0 (DBR only) misses");

    // ==== Itanium: ta, pt, Table 6-3 ===========================================================
    reset_ita();
    for (int k = 0; k < 4; k++) begin
      set_ibr(k, Base + 64'h1000 * k, ibr_mask(56'hff_ffff_ffff_f000, 4'hf));
      set_dbr(k, 64'hbeef_0000_0001_0000 + 64'h1000 * k, dbr_mask(56'hff_ffff_ffff_f000, 4'hf));
    end
    mem = 1'b1;
    ip = Base + 64'h9000; daddr = 64'hbeef_0000_0009_0000; settle();
    check_eq({60'd0, rs(Q1)}, 64'hf, "Itanium ta = 1: every instruction tagged");
    check(m_of(Q1) == 1'b1, "Itanium pt = 1: no data-address check");
    pmc13 = 64'h0; settle();
    check_eq({60'd0, rs(Q1)}, 64'h0, "Itanium ta = 0: ip outside every pair: no tag");
    for (int k = 0; k < 4; k++) begin
      ip = Base + 64'h1000 * k + 64'h40; settle();
      check_eq({60'd0, rs(Q1)}, 64'hf, $sformatf("Itanium ta = 0: any pair (%0d) tags every r_k", k));
    end
    // Itanium's PMC15 / PMC14 do not exist: bits driven on those inputs change nothing.
    ip = Base + 64'h9000;
    pmc14 = p14(4'b1111, 1'b0); pmc15 = p15(4'b1111);
    pmc8 = opc(27'd0, OpcAny, 4'b0000, 1'b0, 1'b0); settle();
    check_eq({60'd0, rs(Q1)}, 64'h0, "Itanium: PMC14 ibrp bits have no effect");
    check_eq({60'd0, os(Q1)}, 64'b1010, "Itanium: PMC15 has no effect, o_0 = o_2 = PMC8 (miss)");
    pmc8 = opc(27'd0, OpcAny, 4'b0000, 1'b1, 1'b1); settle();
    check_eq({60'd0, rs(Q1)}, 64'h0, "Itanium: PMC8 bit 0 (Itanium 2 ig_ad) does not release the range");
    ip = Base + 64'h40; settle();
    check_eq({60'd0, rs(Q1)}, 64'hf, "Itanium: PMC8 bit 1 (Itanium 2 inv) does not invert the range");
    pmc14 = 64'h0; pmc15 = 64'h0;
    // pt = 0: memory qualification = inst_q(0) && any DBR pair.
    pmc8 = ITA_PMC8_RESET_ITA; pmc13 = Ta; pmc11 = 64'h0;
    daddr = 64'hbeef_0000_0009_0000; settle();
    check(m_of(Q1) == 1'b0, "Itanium pt = 0: data address outside every DBR pair");
    for (int k = 0; k < 4; k++) begin
      daddr = 64'hbeef_0000_0001_0000 + 64'h1000 * k + 64'h8; settle();
      check(m_of(Q1) == 1'b1, $sformatf("Itanium pt = 0: DBR pair %0d tags", k));
    end
    mem = 1'b0; settle();
    check(m_of(Q1) == 1'b0, "Itanium pt = 0: a non-memory slot has no data-address hit");
    mem = 1'b1;
    // Table 6-3, "Instruction and Data Address Range Check": ta = 0, PMC8 all, pt = 0.
    pmc13 = 64'h0;
    ip = Base + 64'h2040; daddr = 64'hbeef_0000_0001_3010; settle();
    check(m_of(Q1) == 1'b1, "Itanium IBR + DBR: both in range");
    ip = Base + 64'h9040; settle();
    check(m_of(Q1) == 1'b0, "Itanium IBR + DBR: ip outside");
    ip = Base + 64'h2040; daddr = 64'hbeef_0000_0009_0010; settle();
    check(m_of(Q1) == 1'b0, "Itanium IBR + DBR: data address outside");
    // "Opcode Matching and Data Address Range Check": ta = 1, PMC8 br.cloop, pt = 0.
    pmc13 = Ta;
    pmc8 = opc(CloopMatch, CloopMask, 4'b0001, 1'b0, 1'b0);
    unit = UnitB; enc = branch(4'd4, 3'd5, 41'h0); daddr = 64'hbeef_0000_0001_3010; settle();
    check(m_of(Q1) == 1'b1, "Itanium opcode + DBR: br.cloop, data in range");
    check(mq[Q1][SetIar] == 1'b1, "Itanium: set {iar} ignores the opcode");
    enc = branch(4'd4, 3'd0, 41'h0); settle();
    check(m_of(Q1) == 1'b0, "Itanium opcode + DBR: another branch");
    check(mq[Q1][SetIar] == 1'b1, "Itanium: set {iar} still passes");
    check(mq[Q1][0] == 1'b1, "Itanium: set {} needs only the DBR hit");
    daddr = 64'hbeef_0000_0009_0010; settle();
    check(mq[Q1][0] == 1'b0, "Itanium: set {} still needs the DBR hit");

    // ==== IA-32 slots pass every check ======================================================
    // Every register set to constrain as hard as it can, nothing matching.
    ibr = '0; dbr = '0;
    pmc8 = opc(27'd0, 27'd0, 4'b0000, 1'b0, 1'b0);
    pmc9 = opc(27'd0, 27'd0, 4'b0000, 1'b0, 1'b0);
    pmc11 = 64'h0; pmc13 = 64'h0;
    pmc14 = p14(4'b0000, 1'b0); pmc15 = p15(4'b0000);
    mem = 1'b1;
    for (int d = 0; d < NDut; d++) begin
      // Itanium 2 needs an active PMC13 pair to constrain memory; Itanium has pt = 0.
      pmc13 = (d == Q1) ? 64'h0 : p13({2'd0, 2'd0, 2'd0, 2'd0}, 4'hf);
      is_ia32 = 1'b0; settle();
      check(iq[d][SetBoth*4 +: 4] == 4'h0 && mq[d][SetBoth] == 1'b0,
            $sformatf("dut %0d IA-64 slot: every tag 0 under the constraining setup", d));
      is_ia32 = 1'b1; settle();
      check_eq({48'd0, iq[d]}, 64'hffff, $sformatf("dut %0d IA-32 slot: every inst_q is 1", d));
      check_eq({60'd0, mq[d]}, 64'hf, $sformatf("dut %0d IA-32 slot: memory qualification is 1", d));
    end
    is_ia32 = 1'b0;

    // ==== a slot that does not retire is not evaluated: every output 0 ========================
    // Reset values (every tag 1 on a retiring slot), then the same slot not retiring.
    for (int d = 0; d < NDut; d++) begin
      if (d == Q1) reset_ita(); else reset_ita2();
      mem = 1'b1; daddr = 64'hdead_beef_0000_0008;
      for (int ia32 = 0; ia32 < 2; ia32++) begin
        is_ia32 = ia32[0];
        valid = 1'b1; settle();
        check_eq({44'd0, mq[d], iq[d]}, 64'hfffff,
                 $sformatf("dut %0d ia32=%0d retiring slot at reset: every output 1", d, ia32));
        valid = 1'b0; settle();
        check_eq({44'd0, mq[d], iq[d]}, 64'h0,
                 $sformatf("dut %0d ia32=%0d slot not retiring: every output 0", d, ia32));
      end
      valid = 1'b1; is_ia32 = 1'b0;
    end

    tb_done();
  end

endmodule
