`include "ita_defines.vh"

// ita_pmu, directed cases on six instances that share every input:
//   ITA2    Model=1 PmdSext=1 ThrGe=0 (the default build)
//   ITA     Model=0 PmdSext=1 ThrGe=0
//   ITA2_ZX Model=1 PmdSext=0          (PMD bits 63:W read 0)
//   ITA_ZX  Model=0 PmdSext=0
//   ITA2_GE Model=1 ThrGe=1            (threshold counts when n >= t)
//   ITA2_G2 Model=1 FineGran2=1        (fine-mode ranges at two-bundle granularity)
// Covered: reset values, masked writes (PMC0, PMC4..7 per model, PSR/DCR/IPSR), ignored
// writes (PMC1..3, unimplemented registers), sign-extended PMD reads, plm / ism / pm-up-pp
// enables, DCR.pp on interruption entry and the restore on return, events summed over
// slots, power gating, thresholds at 0 and maxincr-1, L2_FORCE_RECIRC_ANY on PMC4 vs PMC5,
// Itanium's 7-bit es and 2-bit PMC6/7 threshold, overflow / freeze / pmi, and obs_vis_o
// equal to the register reads. Qualification registers (PMC8/9/11/13/14/15, IBR0..7, DBR0..7):
// reset values and writable masks per model (Itanium's PMC14/15 read 0); tagged events
// through the top: IA64_TAGGED_INST_RETIRED umask 0..3 with IBR pairs and opcode matchers
// (Itanium 2 per pair, Itanium by ta), fine mode at both granularities, memory events with
// DBR pairs (PMC13 / PMC11.pt), an opm = 0 event, untagged cycle-level events, IA-32 cycles.
// PMC10, PMC12 and the capture registers PMD0..3, PMD8..17: reset values, writable masks and
// reads; the EAR / BTB counter events and general events (unattributed, on a slot, on an
// invalid slot, another umask, not valid) through the top, and the freeze.
module tb_ita_pmu;

  `define TB_NAME "tb_ita_pmu"
  `include "tb_common.svh"
  `include "ita_defs.vh"

  localparam int NDut = 6;
  localparam int ITA2 = 0, ITA = 1, ITA2_ZX = 2, ITA_ZX = 3, ITA2_GE = 4, ITA2_G2 = 5;
  localparam int NSlots = `ITA_MAX_SLOTS;
  localparam int SfW = `ITA_SF_WIDTH;

  // ---- shared stimulus ------------------------------------------------------------------
  logic                    clk = 1'b0;
  logic                    rst_n = 1'b0;
  logic                    reg_we = 1'b0;
  logic [1:0]              reg_we_model = 2'b11;  // bit m: the writes reach the Model m instances
  logic [11:0]             reg_addr = '0;
  logic [63:0]             reg_wdata = '0;
  logic                    cyc_valid = 1'b0;
  logic [1:0]              cpl = '0;
  logic                    is_ia32 = 1'b0;
  logic [1:0]              power = '0;
  logic [1:0]              intr = '0;
  logic                    up_we = 1'b0, up = 1'b0, pp_we = 1'b0, pp = 1'b0;
  logic [2:0]              recirc = '0;
  logic [2:0]              nslots = '0;
  logic [NSlots*64-1:0]    slot_ip = '0;
  logic [NSlots*2-1:0]     slot_idx = '0;
  logic [NSlots*41-1:0]    slot_enc = '0;
  logic [NSlots*2-1:0]     slot_unit = '0;
  logic [NSlots*SfW-1:0]   slot_flags = '0;
  logic [NSlots*64-1:0]    slot_daddr = '0;
  logic [NSlots*16-1:0]    slot_lat = '0;
  logic [NSlots*2-1:0]     slot_tlb = '0;
  logic [NSlots*64-1:0]    slot_target = '0;
  logic [63:0]             if_addr = '0;
  logic [15:0]             if_lat = '0;
  logic [1:0]              if_tlb = '0;
  logic                    if_rab = 1'b0;
  localparam int NXev = `ITA_MAX_XEV;
  logic [NXev-1:0]         xev_valid = '0;
  logic [NXev*8-1:0]       xev_code = '0, xev_count = '0, xev_slot = '0;
  logic [NXev*4-1:0]       xev_umask = '0;
  logic [NXev*3-1:0]       xev_iod = '0;

  always #5 clk = ~clk;

  // ---- the instances ----------------------------------------------------------------------
  logic [63:0]             rdata [NDut];
  logic                    pmi [NDut];
  logic [`ITA_NVIS*64-1:0] vis [NDut];

  `define TB_DUT(IDX, MODEL, SEXT, GE, G2)                                              \
    ita_pmu #(.Model(MODEL), .PmdSext(SEXT), .ThrGe(GE), .FineGran2(G2)) u_dut_``IDX (   \
      .clk_i(clk), .rst_ni(rst_n), .reg_we_i(reg_we && reg_we_model[MODEL]),             \
      .reg_addr_i(reg_addr),                                                             \
      .reg_wdata_i(reg_wdata), .reg_rdata_o(rdata[IDX]), .cyc_valid_i(cyc_valid),       \
      .cpl_i(cpl), .is_i(is_ia32), .power_i(power), .intr_i(intr), .up_we_i(up_we),     \
      .up_i(up), .pp_we_i(pp_we), .pp_i(pp), .recirc_i(recirc), .nslots_i(nslots),      \
      .slot_ip_i(slot_ip), .slot_idx_i(slot_idx), .slot_enc_i(slot_enc),                \
      .slot_unit_i(slot_unit), .slot_flags_i(slot_flags), .slot_daddr_i(slot_daddr),    \
      .slot_lat_i(slot_lat), .slot_tlb_i(slot_tlb), .slot_target_i(slot_target),        \
      .if_addr_i(if_addr), .if_lat_i(if_lat), .if_tlb_i(if_tlb), .if_rab_i(if_rab),     \
      .xev_valid_i(xev_valid), .xev_code_i(xev_code), .xev_umask_i(xev_umask),          \
      .xev_count_i(xev_count), .xev_slot_i(xev_slot), .xev_iod_i(xev_iod),              \
      .pmi_o(pmi[IDX]), .obs_vis_o(vis[IDX]));

  `TB_DUT(0, 1, 1'b1, 1'b0, 1'b0)
  `TB_DUT(1, 0, 1'b1, 1'b0, 1'b0)
  `TB_DUT(2, 1, 1'b0, 1'b0, 1'b0)
  `TB_DUT(3, 0, 1'b0, 1'b0, 1'b0)
  `TB_DUT(4, 1, 1'b1, 1'b1, 1'b0)
  `TB_DUT(5, 1, 1'b1, 1'b0, 1'b1)

  // ---- addresses, values ---------------------------------------------------------------------
  // Register indices (include/common/ita/ita_regs.def, FIRST): PMC0, PMC/PMD 4..7, CPU 0 PSR 1 DCR 2 IPSR.
  function automatic logic [11:0] pmc(input int i);
    pmc = {ITA_SPACE_PMC, i[7:0]};
  endfunction
  function automatic logic [11:0] pmd(input int i);
    pmd = {ITA_SPACE_PMD, i[7:0]};
  endfunction
  localparam logic [11:0] PSR  = {ITA_SPACE_CPU, 8'd0};
  localparam logic [11:0] DCR  = {ITA_SPACE_CPU, 8'd1};
  localparam logic [11:0] IPSR = {ITA_SPACE_CPU, 8'd2};

  localparam logic [63:0] PsrUp = 64'd1 << ITA_F_PSR_UP_LSB;
  localparam logic [63:0] PsrPp = 64'd1 << ITA_F_PSR_PP_LSB;
  localparam logic [63:0] DcrPp = 64'd1 << ITA_F_DCR_PP_LSB;
  localparam logic [63:0] Fr    = 64'd1 << ITA_F_PMC0_FR_LSB;
  function automatic logic [63:0] ovf(input int i);
    ovf = 64'd1 << (ITA_F_PMC0_OVF_LSB + i - 4);
  endfunction

  // A PMC4..7 value from its fields.
  function automatic logic [63:0] cfg(input logic [3:0] plm, input logic pm, input logic oi,
                                      input logic [7:0] es, input logic [3:0] umask,
                                      input logic [2:0] thres, input logic [1:0] ism);
    cfg = ({60'd0, plm}  << ITA_F_PMC_GEN_PLM_LSB)
        | ({63'd0, pm}   << ITA_F_PMC_GEN_PM_LSB)
        | ({63'd0, oi}   << ITA_F_PMC_GEN_OI_LSB)
        | ({56'd0, es}   << ITA_F_PMC_GEN_ES_LSB)
        | ({60'd0, umask} << ITA_F_PMC_GEN_UMASK_LSB)
        | ({61'd0, thres} << ITA_F_PMC_GEN_THRES_LSB)
        | ({62'd0, ism}  << ITA_F_PMC_GEN_ISM_LSB);
  endfunction
  // The common case: every privilege level, user monitor (PSR.up), no threshold, both ISAs.
  function automatic logic [63:0] ev(input logic [7:0] es, input logic [3:0] umask);
    ev = cfg(4'hf, 1'b0, 1'b0, es, umask, 3'd0, 2'd0);
  endfunction

  function automatic logic [15:0] sf(input int lsb);
    sf = 16'd1 << lsb;
  endfunction
  function automatic logic [15:0] br(input logic [1:0] btype, input logic [1:0] bpred);
    br = ({14'd0, btype} << ITA_SF_BR_TYPE_LSB) | ({14'd0, bpred} << ITA_SF_BR_PRED_LSB);
  endfunction

  function automatic logic is_ita(input int d);
    is_ita = (d == ITA || d == ITA_ZX);
  endfunction

  // ---- qualification registers ---------------------------------------------------------------
  // The 22 qualification registers, then PMC10, PMC12 and the EAR / BTB capture registers
  // PMD0..3, PMD8..17 (stored as written, with the writable mask, when nothing captures):
  // address, the visible index, and reset value / writable mask per model
  // (include/common/ita/ita_regs.def).
  localparam int NQreg = 38;
  logic [11:0] qreg_addr [NQreg];
  int          qreg_vis [NQreg];
  logic [63:0] qreg_reset_ita [NQreg], qreg_wmask_ita [NQreg];
  logic [63:0] qreg_reset_ita2 [NQreg], qreg_wmask_ita2 [NQreg];

  task automatic qreg_set(input int j, input logic [11:0] a, input int vi,
                          input logic [63:0] r1, input logic [63:0] m1,
                          input logic [63:0] r2, input logic [63:0] m2);
    qreg_addr[j] = a; qreg_vis[j] = vi;
    qreg_reset_ita[j] = r1; qreg_wmask_ita[j] = m1;
    qreg_reset_ita2[j] = r2; qreg_wmask_ita2[j] = m2;
  endtask

  task automatic qreg_init;
    qreg_set(0, {ITA_SPACE_PMC, ITA_PMC8_FIRST}, ITA_VIS_PMC8, ITA_PMC8_RESET_ITA, ITA_PMC8_WMASK_ITA, ITA_PMC8_RESET_ITA2, ITA_PMC8_WMASK_ITA2);
    qreg_set(1, {ITA_SPACE_PMC, ITA_PMC9_FIRST}, ITA_VIS_PMC9, ITA_PMC9_RESET_ITA, ITA_PMC9_WMASK_ITA, ITA_PMC9_RESET_ITA2, ITA_PMC9_WMASK_ITA2);
    qreg_set(2, {ITA_SPACE_PMC, ITA_PMC11_FIRST}, ITA_VIS_PMC11, ITA_PMC11_RESET_ITA, ITA_PMC11_WMASK_ITA, ITA_PMC11_RESET_ITA2, ITA_PMC11_WMASK_ITA2);
    qreg_set(3, {ITA_SPACE_PMC, ITA_PMC13_FIRST}, ITA_VIS_PMC13, ITA_PMC13_RESET_ITA, ITA_PMC13_WMASK_ITA, ITA_PMC13_RESET_ITA2, ITA_PMC13_WMASK_ITA2);
    qreg_set(4, {ITA_SPACE_PMC, ITA_PMC14_FIRST}, ITA_VIS_PMC14, ITA_PMC14_RESET_ITA, ITA_PMC14_WMASK_ITA, ITA_PMC14_RESET_ITA2, ITA_PMC14_WMASK_ITA2);
    qreg_set(5, {ITA_SPACE_PMC, ITA_PMC15_FIRST}, ITA_VIS_PMC15, ITA_PMC15_RESET_ITA, ITA_PMC15_WMASK_ITA, ITA_PMC15_RESET_ITA2, ITA_PMC15_WMASK_ITA2);
    qreg_set(6,  {ITA_SPACE_IBR, ITA_IBR0_FIRST}, ITA_VIS_IBR0, ITA_IBR0_RESET_ITA, ITA_IBR0_WMASK_ITA, ITA_IBR0_RESET_ITA2, ITA_IBR0_WMASK_ITA2);
    qreg_set(7,  {ITA_SPACE_IBR, ITA_IBR1_FIRST}, ITA_VIS_IBR1, ITA_IBR1_RESET_ITA, ITA_IBR1_WMASK_ITA, ITA_IBR1_RESET_ITA2, ITA_IBR1_WMASK_ITA2);
    qreg_set(8,  {ITA_SPACE_IBR, ITA_IBR2_FIRST}, ITA_VIS_IBR2, ITA_IBR2_RESET_ITA, ITA_IBR2_WMASK_ITA, ITA_IBR2_RESET_ITA2, ITA_IBR2_WMASK_ITA2);
    qreg_set(9,  {ITA_SPACE_IBR, ITA_IBR3_FIRST}, ITA_VIS_IBR3, ITA_IBR3_RESET_ITA, ITA_IBR3_WMASK_ITA, ITA_IBR3_RESET_ITA2, ITA_IBR3_WMASK_ITA2);
    qreg_set(10, {ITA_SPACE_IBR, ITA_IBR4_FIRST}, ITA_VIS_IBR4, ITA_IBR4_RESET_ITA, ITA_IBR4_WMASK_ITA, ITA_IBR4_RESET_ITA2, ITA_IBR4_WMASK_ITA2);
    qreg_set(11, {ITA_SPACE_IBR, ITA_IBR5_FIRST}, ITA_VIS_IBR5, ITA_IBR5_RESET_ITA, ITA_IBR5_WMASK_ITA, ITA_IBR5_RESET_ITA2, ITA_IBR5_WMASK_ITA2);
    qreg_set(12, {ITA_SPACE_IBR, ITA_IBR6_FIRST}, ITA_VIS_IBR6, ITA_IBR6_RESET_ITA, ITA_IBR6_WMASK_ITA, ITA_IBR6_RESET_ITA2, ITA_IBR6_WMASK_ITA2);
    qreg_set(13, {ITA_SPACE_IBR, ITA_IBR7_FIRST}, ITA_VIS_IBR7, ITA_IBR7_RESET_ITA, ITA_IBR7_WMASK_ITA, ITA_IBR7_RESET_ITA2, ITA_IBR7_WMASK_ITA2);
    qreg_set(14, {ITA_SPACE_DBR, ITA_DBR0_FIRST}, ITA_VIS_DBR0, ITA_DBR0_RESET_ITA, ITA_DBR0_WMASK_ITA, ITA_DBR0_RESET_ITA2, ITA_DBR0_WMASK_ITA2);
    qreg_set(15, {ITA_SPACE_DBR, ITA_DBR1_FIRST}, ITA_VIS_DBR1, ITA_DBR1_RESET_ITA, ITA_DBR1_WMASK_ITA, ITA_DBR1_RESET_ITA2, ITA_DBR1_WMASK_ITA2);
    qreg_set(16, {ITA_SPACE_DBR, ITA_DBR2_FIRST}, ITA_VIS_DBR2, ITA_DBR2_RESET_ITA, ITA_DBR2_WMASK_ITA, ITA_DBR2_RESET_ITA2, ITA_DBR2_WMASK_ITA2);
    qreg_set(17, {ITA_SPACE_DBR, ITA_DBR3_FIRST}, ITA_VIS_DBR3, ITA_DBR3_RESET_ITA, ITA_DBR3_WMASK_ITA, ITA_DBR3_RESET_ITA2, ITA_DBR3_WMASK_ITA2);
    qreg_set(18, {ITA_SPACE_DBR, ITA_DBR4_FIRST}, ITA_VIS_DBR4, ITA_DBR4_RESET_ITA, ITA_DBR4_WMASK_ITA, ITA_DBR4_RESET_ITA2, ITA_DBR4_WMASK_ITA2);
    qreg_set(19, {ITA_SPACE_DBR, ITA_DBR5_FIRST}, ITA_VIS_DBR5, ITA_DBR5_RESET_ITA, ITA_DBR5_WMASK_ITA, ITA_DBR5_RESET_ITA2, ITA_DBR5_WMASK_ITA2);
    qreg_set(20, {ITA_SPACE_DBR, ITA_DBR6_FIRST}, ITA_VIS_DBR6, ITA_DBR6_RESET_ITA, ITA_DBR6_WMASK_ITA, ITA_DBR6_RESET_ITA2, ITA_DBR6_WMASK_ITA2);
    qreg_set(21, {ITA_SPACE_DBR, ITA_DBR7_FIRST}, ITA_VIS_DBR7, ITA_DBR7_RESET_ITA, ITA_DBR7_WMASK_ITA, ITA_DBR7_RESET_ITA2, ITA_DBR7_WMASK_ITA2);
    qreg_set(22, {ITA_SPACE_PMC, ITA_PMC10_FIRST}, ITA_VIS_PMC10, ITA_PMC10_RESET_ITA, ITA_PMC10_WMASK_ITA, ITA_PMC10_RESET_ITA2, ITA_PMC10_WMASK_ITA2);
    qreg_set(23, {ITA_SPACE_PMC, ITA_PMC12_FIRST}, ITA_VIS_PMC12, ITA_PMC12_RESET_ITA, ITA_PMC12_WMASK_ITA, ITA_PMC12_RESET_ITA2, ITA_PMC12_WMASK_ITA2);
    qreg_set(24, {ITA_SPACE_PMD, ITA_PMD0_FIRST}, ITA_VIS_PMD0, ITA_PMD0_RESET_ITA, ITA_PMD0_WMASK_ITA, ITA_PMD0_RESET_ITA2, ITA_PMD0_WMASK_ITA2);
    qreg_set(25, {ITA_SPACE_PMD, ITA_PMD1_FIRST}, ITA_VIS_PMD1, ITA_PMD1_RESET_ITA, ITA_PMD1_WMASK_ITA, ITA_PMD1_RESET_ITA2, ITA_PMD1_WMASK_ITA2);
    qreg_set(26, {ITA_SPACE_PMD, ITA_PMD2_FIRST}, ITA_VIS_PMD2, ITA_PMD2_RESET_ITA, ITA_PMD2_WMASK_ITA, ITA_PMD2_RESET_ITA2, ITA_PMD2_WMASK_ITA2);
    qreg_set(27, {ITA_SPACE_PMD, ITA_PMD3_FIRST}, ITA_VIS_PMD3, ITA_PMD3_RESET_ITA, ITA_PMD3_WMASK_ITA, ITA_PMD3_RESET_ITA2, ITA_PMD3_WMASK_ITA2);
    qreg_set(28, {ITA_SPACE_PMD, ITA_PMD8_FIRST}, ITA_VIS_PMD8, ITA_PMD8_RESET_ITA, ITA_PMD8_WMASK_ITA, ITA_PMD8_RESET_ITA2, ITA_PMD8_WMASK_ITA2);
    qreg_set(29, {ITA_SPACE_PMD, ITA_PMD9_FIRST}, ITA_VIS_PMD9, ITA_PMD9_RESET_ITA, ITA_PMD9_WMASK_ITA, ITA_PMD9_RESET_ITA2, ITA_PMD9_WMASK_ITA2);
    qreg_set(30, {ITA_SPACE_PMD, ITA_PMD10_FIRST}, ITA_VIS_PMD10, ITA_PMD10_RESET_ITA, ITA_PMD10_WMASK_ITA, ITA_PMD10_RESET_ITA2, ITA_PMD10_WMASK_ITA2);
    qreg_set(31, {ITA_SPACE_PMD, ITA_PMD11_FIRST}, ITA_VIS_PMD11, ITA_PMD11_RESET_ITA, ITA_PMD11_WMASK_ITA, ITA_PMD11_RESET_ITA2, ITA_PMD11_WMASK_ITA2);
    qreg_set(32, {ITA_SPACE_PMD, ITA_PMD12_FIRST}, ITA_VIS_PMD12, ITA_PMD12_RESET_ITA, ITA_PMD12_WMASK_ITA, ITA_PMD12_RESET_ITA2, ITA_PMD12_WMASK_ITA2);
    qreg_set(33, {ITA_SPACE_PMD, ITA_PMD13_FIRST}, ITA_VIS_PMD13, ITA_PMD13_RESET_ITA, ITA_PMD13_WMASK_ITA, ITA_PMD13_RESET_ITA2, ITA_PMD13_WMASK_ITA2);
    qreg_set(34, {ITA_SPACE_PMD, ITA_PMD14_FIRST}, ITA_VIS_PMD14, ITA_PMD14_RESET_ITA, ITA_PMD14_WMASK_ITA, ITA_PMD14_RESET_ITA2, ITA_PMD14_WMASK_ITA2);
    qreg_set(35, {ITA_SPACE_PMD, ITA_PMD15_FIRST}, ITA_VIS_PMD15, ITA_PMD15_RESET_ITA, ITA_PMD15_WMASK_ITA, ITA_PMD15_RESET_ITA2, ITA_PMD15_WMASK_ITA2);
    qreg_set(36, {ITA_SPACE_PMD, ITA_PMD16_FIRST}, ITA_VIS_PMD16, ITA_PMD16_RESET_ITA, ITA_PMD16_WMASK_ITA, ITA_PMD16_RESET_ITA2, ITA_PMD16_WMASK_ITA2);
    qreg_set(37, {ITA_SPACE_PMD, ITA_PMD17_FIRST}, ITA_VIS_PMD17, ITA_PMD17_RESET_ITA, ITA_PMD17_WMASK_ITA, ITA_PMD17_RESET_ITA2, ITA_PMD17_WMASK_ITA2);
  endtask

  function automatic logic [11:0] ibr(input int j);
    ibr = {ITA_SPACE_IBR, j[7:0]};
  endfunction
  function automatic logic [11:0] dbr(input int j);
    dbr = {ITA_SPACE_DBR, j[7:0]};
  endfunction
  function automatic logic [63:0] br_mask(input logic [55:0] mask, input logic [3:0] plm);
    br_mask = ({8'd0, mask} << ITA_F_IBR_MASK_MASK_LSB) | ({60'd0, plm} << ITA_F_IBR_MASK_PLM_LSB);
  endfunction
  // Opcode matcher: match / mask fields, unit enables {m, i, f, b}, Itanium 2 ig_ad / inv.
  function automatic logic [63:0] opc(input logic [26:0] match, input logic [26:0] mask,
                                      input logic [3:0] mifb, input logic ig_ad, input logic inv);
    opc = ({37'd0, match} << ITA_F_PMC_OPC_MATCH_LSB) | ({37'd0, mask} << ITA_F_PMC_OPC_MASK_LSB)
        | ({63'd0, mifb[3]} << ITA_F_PMC_OPC_M_LSB) | ({63'd0, mifb[2]} << ITA_F_PMC_OPC_I_LSB)
        | ({63'd0, mifb[1]} << ITA_F_PMC_OPC_F_LSB) | ({63'd0, mifb[0]} << ITA_F_PMC_OPC_B_LSB)
        | ({63'd0, ig_ad} << ITA_F_PMC_OPC_IG_AD_LSB) | ({63'd0, inv} << ITA_F_PMC_OPC_INV_LSB);
  endfunction
  localparam logic [26:0] OpcAny = 27'h7ff_ffff;
  localparam logic [63:0] Fine   = 64'd1 << ITA_F_PMC14_FINE_LSB;
  localparam logic [63:0] Ta     = 64'd1 << ITA_F_PMC13_TA_LSB;
  localparam logic [63:0] Pt     = 64'd1 << ITA_F_PMC11_PT_LSB;
  // br.cloop: major opcode instr{40:37} = 4, btype instr{8:6} = 5 (libpfm-3
  // examples_v3.x/ia64/ita2_opcode.c), and br.cond.
  localparam logic [40:0] EncCloop = (41'd4 << 37) | (41'd5 << 6);
  localparam logic [40:0] EncBrCond = (41'd4 << 37);
  localparam logic [26:0] CloopMatch = 27'h2000140;
  localparam logic [26:0] CloopMask  = 27'h07ffe3f;
  // enum ita_unit of include/common/ita/ita_cycle.h
  localparam logic [1:0] UnitM = 2'd0, UnitB = 2'd3;

  function automatic logic [63:0] vis_of(input int d, input int v);
    vis_of = vis[d][v*64 +: 64];
  endfunction
  function automatic logic [63:0] pmd_of(input int d, input int i);
    pmd_of = vis[d][(ITA_VIS_PMD4 + i - 4)*64 +: 64];
  endfunction

  // ---- clocks ------------------------------------------------------------------------------------
  task automatic tick;
    @(posedge clk);
    #1;
  endtask

  task automatic wr(input logic [11:0] a, input logic [63:0] v);
    reg_we = 1'b1; reg_addr = a; reg_wdata = v;
    tick();
    reg_we = 1'b0;
  endtask

  // Writes v_ita2 to the Itanium 2 instances and v_ita to the Itanium ones: the models' event
  // codes and counter masks differ (build/gen/ita/ita_defs.vh, ITA_EV_*_CODE_ITA from
  // include/common/ita/ita_events.def).
  task automatic wr_models(input logic [11:0] a, input logic [63:0] v_ita2, input logic [63:0] v_ita);
    reg_we_model = 2'b10;
    wr(a, v_ita2);
    reg_we_model = 2'b01;
    wr(a, v_ita);
    reg_we_model = 2'b11;
  endtask

  task automatic rd(input int d, input logic [11:0] a, output logic [63:0] v);
    reg_addr = a;
    #1;
    v = rdata[d];
  endtask

  task automatic rec_clear;
    cpl = 2'd0; is_ia32 = 1'b0; power = 2'd0; intr = 2'd0;
    up_we = 1'b0; up = 1'b0; pp_we = 1'b0; pp = 1'b0;
    recirc = 3'd0; nslots = 3'd0; slot_flags = '0;
    slot_ip = '0; slot_enc = '0; slot_unit = '0; slot_daddr = '0;
    slot_lat = '0; slot_tlb = '0; slot_target = '0;
    if_addr = '0; if_lat = '0; if_tlb = '0; if_rab = 1'b0;
    xev_valid = '0; xev_code = '0; xev_umask = '0; xev_count = '0; xev_slot = '0; xev_iod = '0;
  endtask

  task automatic set_slot(input int k, input logic [15:0] flags);
    slot_flags[k*SfW +: SfW] = flags;
  endtask

  // The qualification inputs of slot k.
  task automatic set_slot_q(input int k, input logic [63:0] ip, input logic [40:0] enc,
                            input logic [1:0] unit, input logic [63:0] daddr);
    slot_ip[k*64 +: 64] = ip;
    slot_enc[k*41 +: 41] = enc;
    slot_unit[k*2 +: 2] = unit;
    slot_daddr[k*64 +: 64] = daddr;
  endtask

  task automatic step;
    cyc_valid = 1'b1;
    tick();
    cyc_valid = 1'b0;
  endtask

  task automatic zero_counters;
    for (int i = 4; i <= 7; i++) wr(pmd(i), 64'h0);
  endtask

  // Every visible register reads back as obs_vis_o shows it, on every instance.
  task automatic check_vis_matches_reads(input string what);
    logic [11:0] a [`ITA_NVIS];
    a[ITA_VIS_PMC0] = pmc(0);
    a[ITA_VIS_PMC4] = pmc(4); a[ITA_VIS_PMC5] = pmc(5);
    a[ITA_VIS_PMC6] = pmc(6); a[ITA_VIS_PMC7] = pmc(7);
    a[ITA_VIS_PMD4] = pmd(4); a[ITA_VIS_PMD5] = pmd(5);
    a[ITA_VIS_PMD6] = pmd(6); a[ITA_VIS_PMD7] = pmd(7);
    a[ITA_VIS_PSR] = PSR; a[ITA_VIS_DCR] = DCR; a[ITA_VIS_IPSR] = IPSR;
    for (int j = 0; j < NQreg; j++) a[qreg_vis[j]] = qreg_addr[j];
    // The instances share the read address: one step per register reads all of them.
    for (int i = 0; i < `ITA_NVIS; i++) begin
      reg_addr = a[i];
      #1;
      for (int d = 0; d < NDut; d++)
        check_eq(rdata[d], vis_of(d, i), $sformatf("%s: dut %0d visible %0d read == obs_vis", what, d, i));
    end
  endtask

  logic [63:0] v;

  initial begin
    qreg_init();
    rec_clear();
    tick();
    rst_n = 1'b1;

    // ---- reset values --------------------------------------------------------------------
    for (int d = 0; d < NDut; d++) begin
      logic [63:0] pmc4_reset;
      pmc4_reset = (d == ITA || d == ITA_ZX) ? ITA_PMC4_RESET_ITA : ITA_PMC4_RESET_ITA2;
      check_eq(vis_of(d, ITA_VIS_PMC0), ITA_PMC0_RESET_ITA2, $sformatf("dut %0d reset PMC0 (frozen)", d));
      check_eq(vis_of(d, ITA_VIS_PMC4), pmc4_reset, $sformatf("dut %0d reset PMC4", d));
      for (int i = 4; i <= 7; i++) check_eq(pmd_of(d, i), 64'h0, $sformatf("dut %0d reset PMD%0d", d, i));
      check_eq(vis_of(d, ITA_VIS_PSR), 64'h0, $sformatf("dut %0d reset PSR", d));
      check(pmi[d] == 1'b0, $sformatf("dut %0d reset pmi", d));
    end
    for (int d = 0; d < NDut; d++) begin
      for (int j = 0; j < NQreg; j++) begin
        check_eq(vis_of(d, qreg_vis[j]), is_ita(d) ? qreg_reset_ita[j] : qreg_reset_ita2[j],
                 $sformatf("dut %0d reset value of qualification register 0x%03h", d, qreg_addr[j]));
      end
    end
    check_eq(vis_of(ITA, ITA_VIS_PMC14), 64'h0, "Itanium PMC14 reads 0");
    check_eq(vis_of(ITA, ITA_VIS_PMC15), 64'h0, "Itanium PMC15 reads 0");
    check_vis_matches_reads("after reset");

    // ---- frozen after reset: nothing counts until software clears fr --------------------------
    wr(PSR, PsrUp);
    wr(pmc(4), ev(ITA_EV_CPU_CYCLES_CODE, ITA_EV_CPU_CYCLES_UMASK));
    step();
    check_eq(pmd_of(ITA2, 4), 64'h0, "fr = 1 after reset: CPU_CYCLES does not count");
    wr(pmc(0), 64'h0);
    step();
    check_eq(pmd_of(ITA2, 4), 64'h1, "fr cleared: CPU_CYCLES counts 1");
    check_eq(pmd_of(ITA, 4), 64'h1, "fr cleared: CPU_CYCLES counts 1 (Itanium)");

    // ---- masked register writes -----------------------------------------------------------
    wr(pmc(4), 64'hffff_ffff_ffff_ffff);
    wr(pmc(6), 64'hffff_ffff_ffff_ffff);
    check_eq(vis_of(ITA2, ITA_VIS_PMC4), ITA_PMC4_WMASK_ITA2, "PMC4 all ones, Itanium 2");
    check_eq(vis_of(ITA,  ITA_VIS_PMC4), ITA_PMC4_WMASK_ITA,  "PMC4 all ones, Itanium (7-bit es)");
    check_eq(vis_of(ITA2, ITA_VIS_PMC6), ITA_PMC6_7_WMASK_ITA2, "PMC6 all ones, Itanium 2");
    check_eq(vis_of(ITA,  ITA_VIS_PMC6), ITA_PMC6_7_WMASK_ITA,  "PMC6 all ones, Itanium (2-bit threshold)");
    check(vis[ITA][ITA_VIS_PMC4*64 + ITA_F_PMC_GEN_ES_MSB] == 1'b0, "Itanium es bit 15 reads 0");
    check(vis[ITA][ITA_VIS_PMC6*64 + ITA_F_PMC_GEN_THRES_MSB] == 1'b0, "Itanium PMC6 thres bit 22 reads 0");
    check(vis[ITA][ITA_VIS_PMC4*64 + ITA_F_PMC_GEN_THRES_MSB] == 1'b1, "Itanium PMC4 has a 3-bit threshold");
    wr(pmc(0), 64'hffff_ffff_ffff_ffff);
    check_eq(vis_of(ITA2, ITA_VIS_PMC0), ITA_PMC0_WMASK_ITA2, "PMC0 all ones: fr and ovf[7:4] only");
    check(pmi[ITA2] == 1'b0, "setting ovf bits by a write raises no pmi");
    wr(pmc(0), 64'h0);
    check_eq(vis_of(ITA2, ITA_VIS_PMC0), 64'h0, "PMC0 write 0 clears fr and ovf");
    wr(PSR, 64'hffff_ffff_ffff_ffff);
    wr(DCR, 64'hffff_ffff_ffff_ffff);
    wr(IPSR, 64'hffff_ffff_ffff_ffff);
    check_eq(vis_of(ITA2, ITA_VIS_PSR),  PsrUp | PsrPp, "PSR keeps up and pp only");
    check_eq(vis_of(ITA2, ITA_VIS_DCR),  DcrPp,         "DCR keeps pp only");
    check_eq(vis_of(ITA2, ITA_VIS_IPSR), PsrUp | PsrPp, "IPSR keeps up and pp only");
    // Qualification registers: all ones, all zeros and a pattern, each through the writable
    // mask of the model; then back to the reset value.
    begin
      logic [63:0] pat [3];
      pat[0] = 64'hffff_ffff_ffff_ffff; pat[1] = 64'h0; pat[2] = 64'ha5c3_0f96_5a3c_f069;
      for (int p = 0; p < 3; p++) begin
        for (int j = 0; j < NQreg; j++) wr(qreg_addr[j], pat[p] ^ {58'd0, j[5:0]});
        for (int d = 0; d < NDut; d++) begin
          for (int j = 0; j < NQreg; j++) begin
            logic [63:0] r, m, w;
            r = is_ita(d) ? qreg_reset_ita[j] : qreg_reset_ita2[j];
            m = is_ita(d) ? qreg_wmask_ita[j] : qreg_wmask_ita2[j];
            w = pat[p] ^ {58'd0, j[5:0]};
            check_eq(vis_of(d, qreg_vis[j]), (w & m) | (r & ~m),
                     $sformatf("dut %0d write 0x%016h to 0x%03h", d, w, qreg_addr[j]));
          end
        end
        check_vis_matches_reads($sformatf("after qualification register pattern %0d", p));
        check_eq(vis_of(ITA, ITA_VIS_PMC14), 64'h0, $sformatf("Itanium PMC14 reads 0 (pattern %0d)", p));
        check_eq(vis_of(ITA, ITA_VIS_PMC15), 64'h0, $sformatf("Itanium PMC15 reads 0 (pattern %0d)", p));
      end
      // Back to the reset values of each model: an asynchronous reset (no write value gives
      // both models their reset values). PMC0 is frozen again, PSR / DCR / IPSR are 0.
      @(negedge clk);
      rst_n = 1'b0;
      #1;
      for (int d = 0; d < NDut; d++) begin
        for (int j = 0; j < NQreg; j++) begin
          check_eq(vis_of(d, qreg_vis[j]), is_ita(d) ? qreg_reset_ita[j] : qreg_reset_ita2[j],
                   $sformatf("dut %0d asynchronous reset of 0x%03h", d, qreg_addr[j]));
        end
      end
      rst_n = 1'b1;
      wr(pmc(0), 64'h0);
    end
    check_vis_matches_reads("after masked writes");

    // ---- ignored writes: PMC1..3 and unimplemented registers ----------------------------------
    begin
      logic [11:0] ignored [10];
      logic [`ITA_NVIS*64-1:0] snap;
      ignored[0] = pmc(1); ignored[1] = pmc(2); ignored[2] = pmc(3); ignored[3] = pmc(16);
      ignored[4] = pmc(255); ignored[5] = pmd(18); ignored[6] = pmd(255);
      ignored[7] = ibr(8); ignored[8] = dbr(8); ignored[9] = 12'hf04;
      snap = vis[ITA2];
      for (int j = 0; j < 10; j++) begin
        wr(ignored[j], 64'hffff_ffff_ffff_ffff);
        rd(ITA2, ignored[j], v);
        check_eq(v, 64'h0, $sformatf("unimplemented/PMC1..3 address 0x%03h reads 0 after a write", ignored[j]));
        rd(ITA, ignored[j], v);
        check_eq(v, 64'h0, $sformatf("unimplemented/PMC1..3 address 0x%03h reads 0 (Itanium)", ignored[j]));
      end
      check(vis[ITA2] == snap, "writes to PMC1..3 / unimplemented registers change no visible state");
    end

    // ---- PMD writes and sign-extended reads -------------------------------------------------
    wr(pmc(4), 64'h0);   // no event: PMD4 only holds what is written
    wr(pmd(4), 64'hffff_ffff_ffff_ffff);
    check_eq(pmd_of(ITA2, 4),    64'hffff_ffff_ffff_ffff, "Itanium 2 PMD all ones, sign-extended");
    check_eq(pmd_of(ITA2_ZX, 4), 64'h0000_7fff_ffff_ffff, "Itanium 2 PMD all ones, zero above bit 46");
    check_eq(pmd_of(ITA, 4),     64'hffff_ffff_ffff_ffff, "Itanium PMD all ones, sign-extended");
    check_eq(pmd_of(ITA_ZX, 4),  64'h0000_0000_ffff_ffff, "Itanium PMD all ones, zero above bit 31");
    check(vis_of(ITA2, ITA_VIS_PMC0) == 64'h0 && pmi[ITA2] == 1'b0, "a PMD write sets no ovf bit and no pmi");
    wr(pmd(5), 64'h0000_4000_8000_0001);
    check_eq(pmd_of(ITA2, 5),    64'hffff_c000_8000_0001, "Itanium 2 bit 46 set reads as sign");
    check_eq(pmd_of(ITA2_ZX, 5), 64'h0000_4000_8000_0001, "Itanium 2 bit 46 set, zero-extended");
    check_eq(pmd_of(ITA, 5),     64'hffff_ffff_8000_0001, "Itanium keeps v[31:0], bit 31 read as sign");
    check_eq(pmd_of(ITA_ZX, 5),  64'h0000_0000_8000_0001, "Itanium keeps v[31:0], zero-extended");
    wr(pmd(6), 64'h8000_0000_7fff_ffff);
    check_eq(pmd_of(ITA, 6),     64'h0000_0000_7fff_ffff, "Itanium bit 31 clear reads positive");
    check_eq(pmd_of(ITA2, 6),    64'h0000_0000_7fff_ffff, "Itanium 2 ignores bits 63:47 of the write");
    check_vis_matches_reads("after PMD writes");

    // ---- privilege level mask ------------------------------------------------------------------
    zero_counters();
    wr(PSR, PsrUp);
    wr(pmc(4), cfg(4'b1000, 1'b0, 1'b0, ITA_EV_CPU_CYCLES_CODE, 4'h0, 3'd0, 2'd0));
    wr(pmc(5), cfg(4'b0001, 1'b0, 1'b0, ITA_EV_CPU_CYCLES_CODE, 4'h0, 3'd0, 2'd0));
    wr(pmc(6), cfg(4'b0110, 1'b0, 1'b0, ITA_EV_CPU_CYCLES_CODE, 4'h0, 3'd0, 2'd0));
    wr(pmc(7), ev(ITA_EV_CPU_CYCLES_CODE, 4'h0));
    rec_clear();
    for (int c = 0; c < 4; c++) begin
      cpl = c[1:0];
      repeat (c + 1) step();
    end
    // cpl 0 x1, cpl 1 x2, cpl 2 x3, cpl 3 x4
    for (int d = 0; d < NDut; d++) begin
      check_eq(pmd_of(d, 4), 64'd4, $sformatf("dut %0d plm=1000 counts cpl 3 only", d));
      check_eq(pmd_of(d, 5), 64'd1, $sformatf("dut %0d plm=0001 counts cpl 0 only", d));
      check_eq(pmd_of(d, 6), 64'd5, $sformatf("dut %0d plm=0110 counts cpl 1 and 2", d));
      check_eq(pmd_of(d, 7), 64'd10, $sformatf("dut %0d plm=1111 counts every cpl", d));
    end

    // ---- instruction set mask ------------------------------------------------------------------
    zero_counters();
    wr(pmc(4), cfg(4'hf, 1'b0, 1'b0, ITA_EV_CPU_CYCLES_CODE, 4'h0, 3'd0, 2'b00));
    wr(pmc(5), cfg(4'hf, 1'b0, 1'b0, ITA_EV_CPU_CYCLES_CODE, 4'h0, 3'd0, 2'b01));
    wr(pmc(6), cfg(4'hf, 1'b0, 1'b0, ITA_EV_CPU_CYCLES_CODE, 4'h0, 3'd0, 2'b10));
    wr(pmc(7), cfg(4'hf, 1'b0, 1'b0, ITA_EV_CPU_CYCLES_CODE, 4'h0, 3'd0, 2'b11));
    rec_clear();
    is_ia32 = 1'b0; repeat (2) step();
    is_ia32 = 1'b1; repeat (3) step();
    for (int d = 0; d < NDut; d++) begin
      check_eq(pmd_of(d, 4), 64'd5, $sformatf("dut %0d ism=00 counts both", d));
      check_eq(pmd_of(d, 5), 64'd3, $sformatf("dut %0d ism=01 counts IA-32 only", d));
      check_eq(pmd_of(d, 6), 64'd2, $sformatf("dut %0d ism=10 counts IA-64 only", d));
      check_eq(pmd_of(d, 7), 64'd0, $sformatf("dut %0d ism=11 never counts", d));
    end

    // ---- monitor enable: pm with the effective PSR.up / PSR.pp ----------------------------------
    zero_counters();
    wr(PSR, 64'h0);
    wr(pmc(4), cfg(4'hf, 1'b0, 1'b0, ITA_EV_CPU_CYCLES_CODE, 4'h0, 3'd0, 2'd0));  // by up
    wr(pmc(5), cfg(4'hf, 1'b1, 1'b0, ITA_EV_CPU_CYCLES_CODE, 4'h0, 3'd0, 2'd0));  // by pp
    wr(pmc(6), 64'h0);
    wr(pmc(7), 64'h0);
    rec_clear();
    step();
    check(pmd_of(ITA2, 4) == 64'd0 && pmd_of(ITA2, 5) == 64'd0, "up = pp = 0: neither monitor counts");
    up_we = 1'b1; up = 1'b1;                 // sum psr.up: counts in this same cycle
    step();
    rec_clear();
    check_eq(pmd_of(ITA2, 4), 64'd1, "up_we in the record counts in the same cycle (pm=0)");
    check_eq(pmd_of(ITA2, 5), 64'd0, "pm=1 ignores PSR.up");
    check_eq(vis_of(ITA2, ITA_VIS_PSR), PsrUp, "the record's up becomes PSR.up");
    pp_we = 1'b1; pp = 1'b1;
    step();
    rec_clear();
    check_eq(pmd_of(ITA2, 4), 64'd2, "pm=0 keeps counting with up = 1");
    check_eq(pmd_of(ITA2, 5), 64'd1, "pp_we in the record counts in the same cycle (pm=1)");
    up_we = 1'b1; up = 1'b0; pp_we = 1'b1; pp = 1'b0;
    step();
    rec_clear();
    check_eq(pmd_of(ITA2, 4), 64'd2, "rum psr.up stops the user monitor in the same cycle");
    check_eq(pmd_of(ITA2, 5), 64'd1, "rsm psr.pp stops the privileged monitor in the same cycle");
    check_eq(vis_of(ITA2, ITA_VIS_PSR), 64'h0, "PSR after rum/rsm");
    wr(PSR, PsrPp);
    step();
    check_eq(pmd_of(ITA2, 5), 64'd2, "a PSR register write of pp enables pm=1");
    check_eq(pmd_of(ITA2, 4), 64'd2, "... and not pm=0");

    // ---- interruption entry: PSR.pp <- DCR.pp; return restores from IPSR -----------------------
    zero_counters();
    wr(PSR, PsrUp);          // user monitoring on, privileged off
    wr(DCR, DcrPp);          // handlers run with pp = 1
    wr(IPSR, 64'h0);
    rec_clear();
    intr = 2'd1;             // ENTRY
    step();
    rec_clear();
    check_eq(pmd_of(ITA2, 5), 64'd1, "ENTRY cycle already runs with PSR.pp = DCR.pp");
    check_eq(pmd_of(ITA2, 4), 64'd1, "ENTRY leaves PSR.up unchanged");
    check_eq(vis_of(ITA2, ITA_VIS_IPSR), PsrUp, "ENTRY saves PSR.up/pp into IPSR");
    check_eq(vis_of(ITA2, ITA_VIS_PSR), PsrUp | PsrPp, "PSR after ENTRY");
    step();
    check_eq(pmd_of(ITA2, 5), 64'd2, "the handler counts with pm=1");
    intr = 2'd2;             // RETURN
    step();
    rec_clear();
    check_eq(pmd_of(ITA2, 5), 64'd2, "RETURN cycle runs with the restored PSR.pp = 0");
    check_eq(pmd_of(ITA2, 4), 64'd3, "RETURN cycle counts with up = 1 (from IPSR)");
    check_eq(vis_of(ITA2, ITA_VIS_PSR), PsrUp, "PSR restored from IPSR");
    check_eq(vis_of(ITA2, ITA_VIS_IPSR), PsrUp, "RETURN leaves IPSR unchanged");
    wr(DCR, 64'h0);
    intr = 2'd1;
    step();
    rec_clear();
    check_eq(vis_of(ITA2, ITA_VIS_PSR), PsrUp, "ENTRY with DCR.pp = 0 clears PSR.pp");
    check_eq(pmd_of(ITA2, 5), 64'd2, "... and the privileged monitor does not count");
    // ENTRY and a pp write in the same record: the record's write is applied last.
    intr = 2'd1; pp_we = 1'b1; pp = 1'b1;
    step();
    rec_clear();
    check_eq(vis_of(ITA2, ITA_VIS_PSR), PsrUp | PsrPp, "pp_we applies after the ENTRY copy");
    check_eq(pmd_of(ITA2, 5), 64'd3, "... and counts in that cycle");
    check_vis_matches_reads("after interruptions");

    // ---- events added over the valid slots ---------------------------------------------------
    zero_counters();
    wr(PSR, PsrUp);
    // Itanium: NOPS_RETIRED and PREDICATE_SQUASHED_RETIRED on PMC4/5 (its counter masks),
    // NOPS_RETIRED on PMC6 too (not wired there) and no FP_OPS_RETIRED (no Itanium code).
    wr_models(pmc(4), ev(ITA_EV_IA64_INST_RETIRED_CODE, ITA_EV_IA64_INST_RETIRED_UMASK),
              ev(ITA_EV_NOPS_RETIRED_CODE_ITA, ITA_EV_NOPS_RETIRED_UMASK));
    wr_models(pmc(5), ev(ITA_EV_NOPS_RETIRED_CODE, ITA_EV_NOPS_RETIRED_UMASK),
              ev(ITA_EV_PREDICATE_SQUASHED_RETIRED_CODE_ITA, ITA_EV_PREDICATE_SQUASHED_RETIRED_UMASK));
    wr_models(pmc(6), ev(ITA_EV_PREDICATE_SQUASHED_RETIRED_CODE, ITA_EV_PREDICATE_SQUASHED_RETIRED_UMASK),
              ev(ITA_EV_NOPS_RETIRED_CODE_ITA, ITA_EV_NOPS_RETIRED_UMASK));
    wr_models(pmc(7), ev(ITA_EV_FP_OPS_RETIRED_CODE, ITA_EV_FP_OPS_RETIRED_UMASK),
              ev(ITA_EV_FP_OPS_RETIRED_CODE_ITA, ITA_EV_FP_OPS_RETIRED_UMASK));
    rec_clear();
    nslots = 3'd5;
    set_slot(0, sf(ITA_SF_NOP_LSB));
    set_slot(1, sf(ITA_SF_NOP_LSB) | sf(ITA_SF_PRED_OFF_LSB));
    set_slot(2, sf(ITA_SF_FP_LSB));
    set_slot(3, sf(ITA_SF_FP_LSB) | sf(ITA_SF_PRED_OFF_LSB));
    set_slot(4, sf(ITA_SF_NOP_LSB));
    set_slot(5, sf(ITA_SF_NOP_LSB) | sf(ITA_SF_FP_LSB) | sf(ITA_SF_PRED_OFF_LSB));  // not valid
    step();
    for (int d = 0; d < NDut; d++) begin
      if (is_ita(d)) begin
        check_eq(pmd_of(d, 4), 64'd3, $sformatf("dut %0d Itanium NOPS_RETIRED adds 3 slots", d));
        check_eq(pmd_of(d, 5), 64'd2, $sformatf("dut %0d Itanium PREDICATE_SQUASHED adds 2 slots", d));
        check_eq(pmd_of(d, 6), ITA_EV_NOPS_RETIRED_COUNTERS_ITA[6] ? 64'd3 : 64'd0,
                 $sformatf("dut %0d Itanium NOPS_RETIRED on PMC6 (its counter mask)", d));
        check_eq(pmd_of(d, 7), ITA_EV_FP_OPS_RETIRED_ON_ITA ? 64'd2 : 64'd0,
                 $sformatf("dut %0d Itanium has no FP_OPS_RETIRED", d));
      end else begin
        check_eq(pmd_of(d, 4), 64'd5, $sformatf("dut %0d IA64_INST_RETIRED = nslots", d));
        check_eq(pmd_of(d, 5), 64'd3, $sformatf("dut %0d NOPS_RETIRED adds 3 slots", d));
        check_eq(pmd_of(d, 6), 64'd2, $sformatf("dut %0d PREDICATE_SQUASHED adds 2 slots", d));
        check_eq(pmd_of(d, 7), 64'd2, $sformatf("dut %0d FP_OPS adds 2 slots", d));
      end
    end
    nslots = 3'd6;
    step();
    check_eq(pmd_of(ITA2, 4), 64'd11, "IA64_INST_RETIRED adds 6 for a full cycle");
    check_eq(pmd_of(ITA2, 5), 64'd7, "NOPS counts slot 5 once valid");
    nslots = 3'd0;
    step();
    check_eq(pmd_of(ITA2, 4), 64'd11, "no slots, no retirement");
    check_eq(pmd_of(ITA2, 5), 64'd7, "no slots, no nops");

    // Loads, stores, L1D and L2 events (Itanium 2: these codes have es bit 7 set).
    zero_counters();
    // Itanium: its own codes; PMC4 with es bit 7 set (es has 7 bits there); PMC7 gets the
    // Itanium 2 code of L1D_READ_MISSES_RSE_FILL, which Itanium does not have.
    wr_models(pmc(4), ev(ITA_EV_LOADS_RETIRED_CODE, ITA_EV_LOADS_RETIRED_UMASK),
              ev(8'h80 | ITA_EV_LOADS_RETIRED_CODE_ITA, ITA_EV_LOADS_RETIRED_UMASK));
    wr_models(pmc(5), ev(ITA_EV_STORES_RETIRED_CODE, ITA_EV_STORES_RETIRED_UMASK),
              ev(ITA_EV_STORES_RETIRED_CODE_ITA, ITA_EV_STORES_RETIRED_UMASK));
    wr_models(pmc(6), ev(ITA_EV_L1D_READ_MISSES_ALL_CODE, ITA_EV_L1D_READ_MISSES_ALL_UMASK),
              ev(ITA_EV_L1D_READ_MISSES_ALL_CODE_ITA, ITA_EV_L1D_READ_MISSES_ALL_UMASK));
    wr(pmc(7), ev(ITA_EV_L1D_READ_MISSES_RSE_FILL_CODE, ITA_EV_L1D_READ_MISSES_RSE_FILL_UMASK));
    rec_clear();
    nslots = 3'd6;
    set_slot(0, sf(ITA_SF_LOAD_LSB));
    set_slot(1, sf(ITA_SF_LOAD_LSB) | sf(ITA_SF_L1D_MISS_LSB) | sf(ITA_SF_L2_REF_LSB));
    set_slot(2, sf(ITA_SF_LOAD_LSB) | sf(ITA_SF_L1D_MISS_LSB) | sf(ITA_SF_RSE_LSB) |
                sf(ITA_SF_L2_REF_LSB) | sf(ITA_SF_L2_MISS_LSB));
    set_slot(3, sf(ITA_SF_STORE_LSB) | sf(ITA_SF_L2_REF_LSB));
    set_slot(4, sf(ITA_SF_STORE_LSB) | sf(ITA_SF_L1D_MISS_LSB));      // a store miss is no read miss
    set_slot(5, sf(ITA_SF_L1D_MISS_LSB) | sf(ITA_SF_RSE_LSB));        // not a load
    step();
    check_eq(pmd_of(ITA2, 4), 64'd3, "LOADS_RETIRED adds 3 loads");
    check_eq(pmd_of(ITA2, 5), 64'd2, "STORES_RETIRED adds 2 stores");
    check_eq(pmd_of(ITA2, 6), 64'd2, "L1D_READ_MISSES_ALL: loads with L1D_MISS");
    check_eq(pmd_of(ITA2, 7), 64'd1, "L1D_READ_MISSES_RSE_FILL: loads with L1D_MISS and RSE");
    // Itanium stores es[6:0]: 0x80 | its LOADS_RETIRED code counts the loads.
    check_eq(pmd_of(ITA, 4), 64'd3, "Itanium LOADS_RETIRED by its Itanium code (bit 7 dropped)");
    check_eq(pmd_of(ITA, 5), 64'd2, "Itanium STORES_RETIRED by its Itanium code");
    check_eq(pmd_of(ITA, 6), 64'd2, "Itanium L1D_READ_MISSES_RETIRED (the L1D_MISS kind) by its Itanium code");
    check_eq(pmd_of(ITA, 7), ITA_EV_L1D_READ_MISSES_RSE_FILL_ON_ITA ? 64'd1 : 64'd0,
             "Itanium has no L1D_READ_MISSES_RSE_FILL: its Itanium 2 code selects a general event");
    check_eq(vis_of(ITA, ITA_VIS_PMC4) >> ITA_F_PMC_GEN_ES_LSB & 64'hff,
             {56'd0, ITA_EV_LOADS_RETIRED_CODE_ITA}, "Itanium PMC4 es reads without bit 7");
    wr_models(pmc(4), ev(ITA_EV_L2_MISSES_CODE, ITA_EV_L2_MISSES_UMASK),
              ev(ITA_EV_L2_MISSES_CODE_ITA, ITA_EV_L2_MISSES_UMASK));
    wr_models(pmc(5), ev(ITA_EV_L2_REFERENCES_CODE, ITA_EV_L2_REFERENCES_UMASK),
              ev(ITA_EV_L2_REFERENCES_CODE_ITA, ITA_EV_L2_REFERENCES_UMASK));
    wr(pmc(6), ev(ITA_EV_L1D_READ_MISSES_ALL_CODE, 4'h2));     // not in the event table
    wr(pmc(7), ev(ITA_EV_IA64_INST_RETIRED_CODE, 4'h4));       // not in the event table
    zero_counters();
    step();
    check_eq(pmd_of(ITA2, 4), 64'd1, "L2_MISSES adds 1");
    check_eq(pmd_of(ITA2, 5), 64'd3, "L2_REFERENCES adds 3");
    check_eq(pmd_of(ITA2, 6), 64'd0, "an (es, umask) pair outside the table counts 0");
    check_eq(pmd_of(ITA2, 7), 64'd0, "code 0x08 with umask 4 (no tagged event) counts 0");
    check_eq(pmd_of(ITA, 4), 64'd1, "Itanium L2_MISSES by its Itanium code");
    check_eq(pmd_of(ITA, 5), 64'd3, "Itanium L2_REFERENCES by its Itanium code");
    check_eq(pmd_of(ITA, 6), 64'd0, "Itanium: an (es, umask) pair outside the table counts 0");
    // The Itanium code is not an Itanium 2 code.
    wr(pmc(4), ev(ITA_EV_LOADS_RETIRED_CODE_ITA, ITA_EV_LOADS_RETIRED_UMASK));
    zero_counters();
    step();
    check_eq(pmd_of(ITA2, 4), 64'd0, "Itanium 2: the Itanium code of LOADS_RETIRED selects nothing");
    check_eq(pmd_of(ITA, 4), 64'd3, "Itanium: LOADS_RETIRED written with its Itanium code");

    // BR_MISPRED_DETAIL: type in umask[3:2], prediction in umask[1:0], 0 = any.
    rec_clear();
    nslots = 3'd6;
    set_slot(0, br(2'd1, 2'd1));   // ip-relative, correct
    set_slot(1, br(2'd1, 2'd2));   // ip-relative, wrong path
    set_slot(2, br(2'd2, 2'd3));   // return, wrong target
    set_slot(3, br(2'd3, 2'd1));   // indirect, correct
    set_slot(4, br(2'd0, 2'd1));   // not a branch (prediction bits ignored)
    set_slot(5, br(2'd2, 2'd1));   // return, correct
    begin
      logic [3:0]  um [8];
      logic [63:0] expect_n [8];
      um[0] = 4'h0; expect_n[0] = 5;   // ALL_ALL_PRED
      um[1] = 4'h1; expect_n[1] = 3;   // ALL_CORRECT_PRED
      um[2] = 4'h2; expect_n[2] = 1;   // ALL_WRONG_PATH
      um[3] = 4'h3; expect_n[3] = 1;   // ALL_WRONG_TARGET
      um[4] = 4'h4; expect_n[4] = 2;   // IPREL_ALL_PRED
      um[5] = 4'h9; expect_n[5] = 1;   // RETURN_CORRECT_PRED
      um[6] = 4'hb; expect_n[6] = 1;   // RETURN_WRONG_TARGET
      um[7] = 4'he; expect_n[7] = 0;   // NTRETIND_WRONG_PATH
      for (int j = 0; j < 8; j += 4) begin
        for (int i = 0; i < 4; i++)
          wr(pmc(4 + i), ev(ITA_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED_CODE, um[j + i]));
        zero_counters();
        step();
        for (int i = 0; i < 4; i++) begin
          check_eq(pmd_of(ITA2, 4 + i), expect_n[j + i],
                   $sformatf("BR_MISPRED_DETAIL umask 0x%h", um[j + i]));
          // Itanium has no BR_MISPRED_DETAIL (its es 0x5b is a bus event, a general event).
          check_eq(pmd_of(ITA, 4 + i), ITA_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED_ON_ITA ? expect_n[j + i] : 64'd0,
                   $sformatf("BR_MISPRED_DETAIL umask 0x%h (Itanium: no such event)", um[j + i]));
        end
      end
    end

    // ---- power states -------------------------------------------------------------------------
    zero_counters();
    wr(pmc(4), ev(ITA_EV_CPU_CYCLES_CODE, ITA_EV_CPU_CYCLES_UMASK));
    wr(pmc(5), ev(ITA_EV_IA64_INST_RETIRED_CODE, ITA_EV_IA64_INST_RETIRED_UMASK));
    wr(pmc(6), ev(ITA_EV_NOPS_RETIRED_CODE, ITA_EV_NOPS_RETIRED_UMASK));
    wr(pmc(7), ev(ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP1_PMC9_CODE,
                  ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP1_PMC9_UMASK));
    rec_clear();
    nslots = 3'd2;
    set_slot(0, sf(ITA_SF_NOP_LSB));
    for (int p = 0; p < 4; p++) begin
      power = p[1:0];
      step();
    end
    check_eq(pmd_of(ITA2, 4), 64'd2, "CPU_CYCLES counts in NORMAL and LOW_POWER only");
    check_eq(pmd_of(ITA2, 5), 64'd4, "IA64_INST_RETIRED counts in NORMAL and LOW_POWER only");
    check_eq(pmd_of(ITA2, 6), 64'd4, "other events are not power-gated");
    check_eq(pmd_of(ITA2, 7), 64'd4, "IA64_TAGGED_INST_RETIRED (code 0x08, umask 1) is power-gated too");

    // ---- thresholds ---------------------------------------------------------------------------
    // IA64_INST_RETIRED has maxincr 6: threshold 0 adds n, threshold 5 = maxincr-1 adds 1
    // only for n = 6 (or n >= 5 with ThrGe).
    zero_counters();
    wr(pmc(4), cfg(4'hf, 1'b0, 1'b0, ITA_EV_IA64_INST_RETIRED_CODE, 4'h0, 3'd0, 2'd0));
    wr(pmc(5), cfg(4'hf, 1'b0, 1'b0, ITA_EV_IA64_INST_RETIRED_CODE, 4'h0, 3'd5, 2'd0));
    // Itanium counts IA64_INST_RETIRED on PMC4/5 only: its PMC6/7 count LOADS_RETIRED, every
    // slot a load (the counter adds n as given; the thresholds are what is checked here).
    wr_models(pmc(6), cfg(4'hf, 1'b0, 1'b0, ITA_EV_IA64_INST_RETIRED_CODE, 4'h0, 3'd3, 2'd0),
              cfg(4'hf, 1'b0, 1'b0, ITA_EV_LOADS_RETIRED_CODE_ITA, 4'h0, 3'd3, 2'd0));
    wr_models(pmc(7), cfg(4'hf, 1'b0, 1'b0, ITA_EV_IA64_INST_RETIRED_CODE, 4'h0, 3'd7, 2'd0),
              cfg(4'hf, 1'b0, 1'b0, ITA_EV_LOADS_RETIRED_CODE_ITA, 4'h0, 3'd7, 2'd0));
    rec_clear();
    for (int k = 0; k < NSlots; k++) set_slot(k, sf(ITA_SF_LOAD_LSB));
    for (int s = 0; s <= 6; s++) begin
      nslots = s[2:0];
      step();
    end
    // n = 0..6 once each: sum 21; n > 5: 1; n > 3: 3; n > 7: 0.
    check_eq(pmd_of(ITA2, 4), 64'd21, "threshold 0 adds n");
    check_eq(pmd_of(ITA2, 5), 64'd1, "threshold 5 (maxincr-1): one cycle with n = 6");
    check_eq(pmd_of(ITA2, 6), 64'd3, "threshold 3: cycles with n > 3");
    check_eq(pmd_of(ITA2, 7), 64'd0, "threshold 7 above maxincr never counts");
    check_eq(pmd_of(ITA2_GE, 4), 64'd21, "ThrGe: threshold 0 still adds n");
    check_eq(pmd_of(ITA2_GE, 5), 64'd2, "ThrGe: threshold 5 counts n >= 5");
    check_eq(pmd_of(ITA2_GE, 6), 64'd4, "ThrGe: threshold 3 counts n >= 3");
    check_eq(pmd_of(ITA2_GE, 7), 64'd0, "ThrGe: threshold 7 never reached");
    // Itanium: PMC6/7 thresholds are 2 bits: 7 is stored as 3 (n > 3), PMC4/5 keep 3 bits.
    check_eq(pmd_of(ITA, 4), 64'd21, "Itanium threshold 0 adds n");
    check_eq(pmd_of(ITA, 5), 64'd1, "Itanium PMC5 3-bit threshold 5");
    check_eq(pmd_of(ITA, 6), 64'd3, "Itanium PMC6 threshold 3 (LOADS_RETIRED)");
    check_eq(pmd_of(ITA, 7), 64'd3, "Itanium PMC7 threshold 7 is stored as 3 (LOADS_RETIRED)");
    check_eq((vis_of(ITA, ITA_VIS_PMC7) >> ITA_F_PMC_GEN_THRES_LSB) & 64'h7, 64'd3,
             "Itanium PMC7 thres reads 3 after writing 7");

    // ---- L2_FORCE_RECIRC_ANY: PMC4 only ------------------------------------------------------
    zero_counters();
    for (int i = 4; i <= 7; i++)
      wr(pmc(i), ev(ITA_EV_L2_FORCE_RECIRC_ANY_CODE, ITA_EV_L2_FORCE_RECIRC_ANY_UMASK));
    wr(pmc(5), cfg(4'hf, 1'b0, 1'b0, ITA_EV_L2_FORCE_RECIRC_ANY_CODE, 4'h0, 3'd2, 2'd0));
    rec_clear();
    recirc = 3'd3; step();
    recirc = 3'd4; step();
    recirc = 3'd0; step();
    check_eq(pmd_of(ITA2, 4), 64'd7, "L2_FORCE_RECIRC_ANY adds recirc on PMC4");
    check_eq(pmd_of(ITA2, 5), 64'd0, "L2_FORCE_RECIRC_ANY is 0 on PMC5 (even over a threshold)");
    check_eq(pmd_of(ITA2, 6), 64'd0, "L2_FORCE_RECIRC_ANY is 0 on PMC6");
    check_eq(pmd_of(ITA2, 7), 64'd0, "L2_FORCE_RECIRC_ANY is 0 on PMC7");
    // Itanium has no L2_FORCE_RECIRC_ANY: 0xb4 is stored as 0x34 (CPU_CPL_CHANGES, a general
    // event), which recirculations do not raise.
    check_eq(pmd_of(ITA, 4), ITA_EV_L2_FORCE_RECIRC_ANY_ON_ITA ? 64'd7 : 64'd0,
             "Itanium: no L2_FORCE_RECIRC_ANY, the recirculations count nowhere");
    check_eq(pmd_of(ITA, 5), 64'd0, "Itanium: nothing on PMC5");
    wr(pmc(4), cfg(4'hf, 1'b0, 1'b0, ITA_EV_L2_FORCE_RECIRC_ANY_CODE, 4'h0, 3'd3, 2'd0));
    recirc = 3'd3; step();
    recirc = 3'd4; step();
    check_eq(pmd_of(ITA2, 4), 64'd8, "L2_FORCE_RECIRC_ANY with threshold 3: only recirc 4");

    // ---- overflow, freeze and the interrupt --------------------------------------------------
    rec_clear();
    wr(pmc(0), 64'h0);
    wr(pmc(4), cfg(4'hf, 1'b0, 1'b1, ITA_EV_CPU_CYCLES_CODE, 4'h0, 3'd0, 2'd0));       // oi
    wr(pmc(5), cfg(4'hf, 1'b0, 1'b0, ITA_EV_IA64_INST_RETIRED_CODE, 4'h0, 3'd0, 2'd0)); // no oi
    wr(pmc(6), 64'h0);
    wr(pmc(7), 64'h0);
    wr(pmd(4), 64'hffff_ffff_ffff_fffe);   // 2^W - 2 at either width
    wr(pmd(5), 64'hffff_ffff_ffff_fffc);   // 2^W - 4
    nslots = 3'd3;
    step();
    check_eq(vis_of(ITA2, ITA_VIS_PMC0), 64'h0, "2^W-1 reached: no overflow yet");
    check(pmi[ITA2] == 1'b0, "no pmi before the wrap");
    step();
    for (int d = 0; d < NDut; d++) begin
      check_eq(vis_of(d, ITA_VIS_PMC0), ovf(4) | ovf(5) | Fr,
               $sformatf("dut %0d wrap: ovf4 (oi) and ovf5 (no oi) set, fr set by PMC4", d));
      check(pmi[d] == 1'b1, $sformatf("dut %0d pmi after the oi wrap", d));
      check_eq(pmd_of(d, 4), 64'd0, $sformatf("dut %0d PMD4 wrapped to 0", d));
      check_eq(pmd_of(d, 5), 64'd2, $sformatf("dut %0d PMD5 wrapped to 2", d));
    end
    step();
    check(pmi[ITA2] == 1'b0, "pmi is a one-clock pulse");
    check_eq(pmd_of(ITA2, 4), 64'd0, "frozen: PMD4 holds");
    check_eq(pmd_of(ITA2, 5), 64'd2, "frozen: PMD5 holds");
    wr(pmc(0), ovf(4) | ovf(5));           // unfreeze, keep the sticky bits
    check(pmi[ITA2] == 1'b0, "no pmi after a write");
    step();
    check_eq(pmd_of(ITA2, 4), 64'd1, "unfrozen: counting resumes");
    check_eq(vis_of(ITA2, ITA_VIS_PMC0), ovf(4) | ovf(5), "sticky bits are not cleared by hardware");
    wr(pmd(4), 64'hffff_ffff_ffff_ffff);
    step();
    check_eq(vis_of(ITA2, ITA_VIS_PMC0), ovf(4) | ovf(5) | Fr, "second wrap freezes again");
    check(pmi[ITA2] == 1'b0, "second wrap with ovf4 still set raises no pmi");
    wr(pmc(0), 64'h0);
    wr(pmd(4), 64'hffff_ffff_ffff_ffff);
    step();
    check(pmi[ITA2] == 1'b1, "after software clears ovf4 the next wrap interrupts again");
    // The 32-bit counter wraps where the 47-bit one does not.
    wr(pmc(0), 64'h0);
    wr(pmd(4), 64'h0000_0000_ffff_ffff);
    wr(pmd(5), 64'h0);
    nslots = 3'd0;
    step();
    check_eq(vis_of(ITA, ITA_VIS_PMC0), ovf(4) | Fr, "Itanium wraps at 2^32");
    check(pmi[ITA] == 1'b1, "Itanium pmi at 2^32");
    check_eq(vis_of(ITA2, ITA_VIS_PMC0), 64'h0, "Itanium 2 does not wrap at 2^32");
    check_eq(pmd_of(ITA2, 4), 64'h1_0000_0000, "Itanium 2 counts past 2^32");
    check(pmi[ITA2] == 1'b0, "Itanium 2 no pmi at 2^32");
    check_vis_matches_reads("after overflows");

    // ---- both ports in one clock: the write comes first, then the record counts -------------
    // (the record is registered at the boundary and retires at the next clock, on top of the
    // written value; PMD4 counts one a cycle here)
    wr(pmc(0), 64'h0);
    wr(pmd(4), 64'h10);
    nslots = 3'd2;
    reg_we = 1'b1; reg_addr = pmd(4); reg_wdata = 64'h100;
    cyc_valid = 1'b1;
    tick();
    reg_we = 1'b0; cyc_valid = 1'b0;
    check_eq(pmd_of(ITA2, 4), 64'h101, "the step counts on the written PMD");
    check_eq(pmd_of(ITA2, 5), 64'd2, "the other counters step");

    // ---- event qualification through the top ------------------------------------------------
    // IBR pair k covers the 4 KB block Code + k * 4 KB; slots 0,1 in block 0, slot 2 in block 1,
    // slot 3 in block 2, slot 4 in block 3, slot 5 outside.
    begin
      localparam logic [63:0] Code = 64'h4000_0000_0012_0000;
      localparam logic [63:0] Data = 64'h0000_7fff_0040_0000;
      localparam logic [55:0] Blk4k = 56'hff_ffff_ffff_f000;
      wr(pmc(0), 64'h0);
      wr(PSR, PsrUp);
      for (int k = 0; k < 4; k++) begin
        wr(ibr(2*k), Code + 64'h1000 * k);
        wr(ibr(2*k+1), br_mask(Blk4k, 4'hf));
      end
      wr(pmc(8), opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b0));   // matches all; Itanium 2: no ig_ad
      wr(pmc(9), opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b0));
      wr(pmc(14), 64'h0);                                  // Itanium 2: every pair constrains
      // Itanium models only umask 0 (IA64_INST_RETIRED, PMC4/5): PMC4 and PMC5 count it; PMC6/7
      // get umasks 2 and 3, its IA64_TAGGED_INST_RETIRED_PMC9/_PMC8, which are general events
      // (docs/architecture.md, "Modelled events") that no slot raises.
      for (int i = 0; i < 4; i++)
        wr_models(pmc(4 + i), ev(ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP0_PMC8_CODE, i[3:0]),
                  ev(ITA_EV_IA64_INST_RETIRED_CODE_ITA, i < 2 ? 4'h0 : i[3:0]));
      check_eq(vis_of(ITA2, ITA_VIS_PMC5) >> ITA_F_PMC_GEN_UMASK_LSB & 64'hf,
               {60'd0, ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP1_PMC9_UMASK}, "PMC5 selects IBRP1_PMC9");
      zero_counters();
      rec_clear();
      nslots = 3'd6;
      set_slot_q(0, Code + 64'h000, '0, UnitM, '0);
      set_slot_q(1, Code + 64'hff0, '0, UnitM, '0);
      set_slot_q(2, Code + 64'h1000, '0, UnitM, '0);
      set_slot_q(3, Code + 64'h2800, '0, UnitM, '0);
      set_slot_q(4, Code + 64'h3ff0, '0, UnitM, '0);
      set_slot_q(5, Code + 64'h4000, '0, UnitM, '0);
      step();
      for (int d = 0; d < NDut; d++) begin
        if (is_ita(d)) begin
          for (int i = 4; i <= 7; i++)
            check_eq(pmd_of(d, i), i <= 5 ? 64'd6 : 64'd0,
                     $sformatf("dut %0d Itanium ta = 1: PMC%0d (umask %0d) counts every slot, general events none", d, i, i <= 5 ? 0 : i - 4));
        end else begin
          check_eq(pmd_of(d, 4), 64'd2, $sformatf("dut %0d IBRP0: the two slots of block 0", d));
          check_eq(pmd_of(d, 5), 64'd1, $sformatf("dut %0d IBRP1: the slot of block 1", d));
          check_eq(pmd_of(d, 6), 64'd1, $sformatf("dut %0d IBRP2: the slot of block 2", d));
          check_eq(pmd_of(d, 7), 64'd1, $sformatf("dut %0d IBRP3: the slot of block 3", d));
        end
      end
      // Itanium ta = 0: one range tag from any pair (slots 0..4). Itanium 2: PMC13 with no
      // active pair changes nothing for instruction events.
      wr(pmc(13), 64'h0);
      zero_counters();
      step();
      for (int i = 4; i <= 7; i++) begin
        check_eq(pmd_of(ITA, i), i <= 5 ? 64'd5 : 64'd0,
                 $sformatf("Itanium ta = 0: PMC%0d counts the slots in any pair (umask 0 only)", i));
      end
      check_eq(pmd_of(ITA2, 4), 64'd2, "Itanium 2: PMC13 = 0 does not touch IBRP0");
      // Opcode matchers: PMC8 = br.cloop in B slots; slot 0 br.cloop, slot 1 br.cond,
      // slot 2 br.cloop (pair 1, PMC9 matches all), slot 3 br.cloop (pair 2).
      wr(pmc(8), opc(CloopMatch, CloopMask, 4'b0001, 1'b0, 1'b0));
      set_slot_q(0, Code + 64'h000, EncCloop, UnitB, '0);
      set_slot_q(1, Code + 64'hff0, EncBrCond, UnitB, '0);
      set_slot_q(2, Code + 64'h1000, EncCloop, UnitB, '0);
      set_slot_q(3, Code + 64'h2800, EncCloop, UnitB, '0);
      zero_counters();
      step();
      check_eq(pmd_of(ITA2, 4), 64'd1, "IBRP0_PMC8: block 0 and br.cloop: slot 0 only");
      check_eq(pmd_of(ITA2, 5), 64'd1, "IBRP1_PMC9: PMC9 matches all, block 1");
      check_eq(pmd_of(ITA2, 6), 64'd1, "IBRP2_PMC8: block 2 and br.cloop");
      check_eq(pmd_of(ITA2, 7), 64'd1, "IBRP3_PMC9: block 3");
      // Itanium: umask 0 goes with PMC8 (slots 0, 2, 3 are br.cloop in a pair).
      check_eq(pmd_of(ITA, 4), 64'd3, "Itanium umask 0: any pair and PMC8 (br.cloop)");
      check_eq(pmd_of(ITA, 5), 64'd3, "Itanium umask 0 on PMC5: any pair and PMC8 (br.cloop)");
      check_eq(pmd_of(ITA, 6), 64'd0, "Itanium umask 2: a general event");
      check_eq(pmd_of(ITA, 7), 64'd0, "Itanium umask 3: a general event");
      // PMC15 bit 0: pair 0 no longer needs PMC8.
      wr(pmc(15), 64'h1 << ITA_F_PMC15_IBRP0_PMC8_LSB);
      zero_counters();
      step();
      check_eq(pmd_of(ITA2, 4), 64'd2, "PMC15 bit 0 = 1: IBRP0 counts block 0 without the opcode");
      check_eq(pmd_of(ITA2, 6), 64'd1, "PMC15 bit 2 = 0: IBRP2 still needs br.cloop");
      // Inverted range on PMC8 (pairs 0 and 2): slots outside block 0 resp. block 2.
      wr(pmc(8), opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b1));
      zero_counters();
      step();
      check_eq(pmd_of(ITA2, 4), 64'd4, "PMC8.inv: IBRP0 counts the slots outside block 0");
      check_eq(pmd_of(ITA2, 5), 64'd1, "PMC8.inv does not act on IBRP1");
      check_eq(pmd_of(ITA2, 6), 64'd5, "PMC8.inv: IBRP2 counts the slots outside block 2");
      check_eq(pmd_of(ITA, 4), 64'd5, "Itanium: PMC8 bit 1 is not writable, no inversion");

      // Fine mode (Itanium 2): range A from IBR0 (odd bundle 0x110) to IBR4 (even bundle
      // 0x200) in one page; range B (IBR2..IBR6) with plm 0 matches nothing.
      wr(pmc(8), opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b0));
      wr(pmc(14), Fine);
      wr(ibr(0), Code + 64'h110);
      wr(ibr(4), Code + 64'h200);
      wr(ibr(3), br_mask(Blk4k, 4'h0));
      set_slot_q(0, Code + 64'h100, '0, UnitM, '0);
      set_slot_q(1, Code + 64'h110, '0, UnitM, '0);
      set_slot_q(2, Code + 64'h200, '0, UnitM, '0);
      set_slot_q(3, Code + 64'h210, '0, UnitM, '0);
      set_slot_q(4, Code + 64'h220, '0, UnitM, '0);
      set_slot_q(5, Code + 64'h1110, '0, UnitM, '0);
      zero_counters();
      step();
      check_eq(pmd_of(ITA2, 4), 64'd2, "fine A, bundle granularity: 0x110 and 0x200 inclusive");
      check_eq(pmd_of(ITA2, 6), 64'd2, "fine A counts on IBRP2 as well");
      check_eq(pmd_of(ITA2, 5), 64'd0, "fine B with plm 0: nothing");
      check_eq(pmd_of(ITA2_G2, 4), 64'd4, "FineGran2: 0x100..0x210 (two-bundle granularity)");
      check_eq(pmd_of(ITA2_G2, 6), 64'd4, "FineGran2 on IBRP2");
      check_eq(vis_of(ITA, ITA_VIS_PMC14), 64'h0, "Itanium ignores the PMC14 write");

      // Memory events (Itanium 2): PMC13 pair 0 cfg 2 (DBR only) with DBR0 = a 256-byte block.
      // PMC8 matches nothing and pair 0 needs it (PMC15 = 0), so Tag(PMC8) = 0: instruction
      // events with opm = 1 count nothing, FP_OPS_RETIRED (opm = 0) is not constrained by it.
      wr(pmc(14), ITA_PMC14_RESET_ITA2);                   // no range constraint
      wr(pmc(15), 64'h0);
      wr(pmc(8), opc(27'd0, OpcAny, 4'b0000, 1'b0, 1'b0));
      wr(dbr(0), Data);
      wr(dbr(1), br_mask(56'hff_ffff_ffff_ff00, 4'hf));
      wr(pmc(13), Ta | (64'd2 << ITA_F_PMC13_CFG_DBRP0_LSB) | (64'd1 << ITA_F_PMC13_ENA_DBRP0_LSB)
                     | (64'd3 << ITA_F_PMC13_CFG_DBRP1_LSB) | (64'd3 << ITA_F_PMC13_CFG_DBRP2_LSB)
                     | (64'd3 << ITA_F_PMC13_CFG_DBRP3_LSB));
      // Itanium: LOADS_RETIRED, NOPS_RETIRED (PMC4/5 only), STORES_RETIRED; it has no event
      // like FP_OPS_RETIRED (iar only) that the slots raise.
      wr_models(pmc(4), ev(ITA_EV_LOADS_RETIRED_CODE, ITA_EV_LOADS_RETIRED_UMASK),
                ev(ITA_EV_LOADS_RETIRED_CODE_ITA, ITA_EV_LOADS_RETIRED_UMASK));
      wr_models(pmc(5), ev(ITA_EV_STORES_RETIRED_CODE, ITA_EV_STORES_RETIRED_UMASK),
                ev(ITA_EV_NOPS_RETIRED_CODE_ITA, ITA_EV_NOPS_RETIRED_UMASK));
      wr_models(pmc(6), ev(ITA_EV_FP_OPS_RETIRED_CODE, ITA_EV_FP_OPS_RETIRED_UMASK),
                ev(ITA_EV_STORES_RETIRED_CODE_ITA, ITA_EV_STORES_RETIRED_UMASK));
      wr(pmc(7), ev(ITA_EV_NOPS_RETIRED_CODE, ITA_EV_NOPS_RETIRED_UMASK));
      rec_clear();
      nslots = 3'd6;
      set_slot(0, sf(ITA_SF_LOAD_LSB));   set_slot_q(0, Code, '0, UnitM, Data + 64'h00);
      set_slot(1, sf(ITA_SF_LOAD_LSB));   set_slot_q(1, Code, '0, UnitM, Data + 64'hff);
      set_slot(2, sf(ITA_SF_LOAD_LSB));   set_slot_q(2, Code, '0, UnitM, Data + 64'h100);
      set_slot(3, sf(ITA_SF_STORE_LSB));  set_slot_q(3, Code, '0, UnitM, Data + 64'h80);
      set_slot(4, sf(ITA_SF_STORE_LSB));  set_slot_q(4, Code, '0, UnitM, Data - 64'h1);
      set_slot(5, sf(ITA_SF_FP_LSB) | sf(ITA_SF_NOP_LSB));
      zero_counters();
      step();
      check_eq(pmd_of(ITA2, 4), 64'd2, "LOADS_RETIRED with DBR pair 0: two loads in the block");
      check_eq(pmd_of(ITA2, 5), 64'd1, "STORES_RETIRED with DBR pair 0: one store in the block");
      check_eq(pmd_of(ITA2, 6), 64'd1, "FP_OPS_RETIRED (opm = 0) ignores the opcode matcher");
      check_eq(pmd_of(ITA2, 7), 64'd0, "NOPS_RETIRED: Tag(PMC8) = 0");
      // Itanium (ta = 1 from the same PMC13 write).
      check_eq(pmd_of(ITA, 6), 64'd0, "Itanium STORES_RETIRED (opm = 1): PMC8 matches nothing");
      check_eq(pmd_of(ITA, 5), 64'd0, "Itanium NOPS_RETIRED: PMC8 matches nothing");
      // PMC13 not active (ena 0): memory events fall back to Tag(PMC8) = 0.
      wr(pmc(13), Ta);
      zero_counters();
      step();
      check_eq(pmd_of(ITA2, 4), 64'd0, "PMC13 inactive: LOADS_RETIRED qualified by Tag(PMC8) = 0");
      check_eq(pmd_of(ITA, 4), 64'd0, "Itanium LOADS_RETIRED: Tag(PMC8) = 0");
      // PMC8 matching again; Itanium PMC11.pt = 0: loads need a DBR hit (and Tag(PMC8)).
      wr(pmc(8), opc(27'd0, OpcAny, 4'hf, 1'b0, 1'b0));
      wr(pmc(11), 64'h0);
      zero_counters();
      step();
      check_eq(pmd_of(ITA2, 4), 64'd3, "Itanium 2, PMC13 inactive, Tag(PMC8) = 1: every load");
      check_eq(pmd_of(ITA, 4), 64'd2, "Itanium pt = 0: the loads in DBR pair 0");
      check_eq(pmd_of(ITA, 5), 64'd1, "Itanium NOPS_RETIRED (dar = 0): PMC8 matches, the nop counts");
      check_eq(pmd_of(ITA, 6), 64'd1, "Itanium pt = 0: the store in DBR pair 0");
      wr(pmc(11), Pt);
      zero_counters();
      step();
      check_eq(pmd_of(ITA, 4), 64'd3, "Itanium pt = 1: every load");
      wr(pmc(8), opc(27'd0, OpcAny, 4'b0000, 1'b0, 1'b0));

      // Untagged events and IA-32 cycles under the same constraining setup.
      wr(pmc(4), ev(ITA_EV_L2_FORCE_RECIRC_ANY_CODE, ITA_EV_L2_FORCE_RECIRC_ANY_UMASK));
      wr(pmc(5), ev(ITA_EV_IA64_INST_RETIRED_CODE, ITA_EV_IA64_INST_RETIRED_UMASK));
      wr(pmc(6), ev(ITA_EV_CPU_CYCLES_CODE, ITA_EV_CPU_CYCLES_UMASK));
      wr(pmc(7), ev(ITA_EV_NOPS_RETIRED_CODE, ITA_EV_NOPS_RETIRED_UMASK));
      zero_counters();
      recirc = 3'd3;
      step();
      check_eq(pmd_of(ITA2, 4), 64'd3, "L2_FORCE_RECIRC_ANY is not constrained by tags");
      check_eq(pmd_of(ITA2, 6), 64'd1, "CPU_CYCLES is not constrained by tags");
      check_eq(pmd_of(ITA2, 5), 64'd0, "IA64_INST_RETIRED: Tag(PMC8) = 0 in IA-64");
      check_eq(pmd_of(ITA2, 7), 64'd0, "NOPS_RETIRED: Tag(PMC8) = 0 in IA-64");
      check_eq(pmd_of(ITA, 5), 64'd0, "Itanium IA64_INST_RETIRED: PMC8 matches nothing");
      is_ia32 = 1'b1;
      recirc = 3'd0;
      step();
      for (int d = 0; d < NDut; d++) begin
        check_eq(pmd_of(d, 5), 64'd6, $sformatf("dut %0d IA-32 cycle: every slot passes", d));
        check_eq(pmd_of(d, 6), 64'd2, $sformatf("dut %0d CPU_CYCLES", d));
      end
      check_eq(pmd_of(ITA2, 7), 64'd1, "IA-32 cycle: the nop slot passes");
      rec_clear();
      check_vis_matches_reads("after qualification");
    end

    // ---- the EAR / BTB counter events and general events through the top --------------------
    @(negedge clk);
    rst_n = 1'b0;
    #1;
    rst_n = 1'b1;
    rec_clear();
    wr(PSR, PsrUp);
    wr(pmc(0), 64'h0);
    wr(pmc(4), ev(8'h58, 4'h3));  // a general event (no modelled kind has this pair)
    wr(pmc(5), ev(ITA_EV_L1I_EAR_EVENTS_CODE, ITA_EV_L1I_EAR_EVENTS_UMASK));
    wr(pmc(6), ev(ITA_EV_DATA_EAR_EVENTS_CODE, ITA_EV_DATA_EAR_EVENTS_UMASK));
    wr(pmc(7), ev(ITA_EV_BRANCH_EVENT_CODE, ITA_EV_BRANCH_EVENT_UMASK));
    // I-EAR: Itanium 2 cache mode, LAT0 (umask 0x40); D-EAR: cache mode LAT4; BTB: all.
    wr(pmc(10), 64'hf | (64'h40 << ITA_F_PMC10_UMASK_LSB) | (64'd1 << ITA_F_PMC10_CT_MSB));
    wr(pmc(11), 64'hf);
    wr(pmc(12), 64'hf | (64'h3f << ITA_F_PMC12_TM_LSB));
    zero_counters();
    if_addr = 64'h1000_0000_0000_0040; if_lat = 16'd7;
    nslots = 3'd2;
    set_slot_q(0, 64'h1000_0000_0000_0100, 41'd0, UnitM, 64'h8000);
    set_slot_q(1, 64'h1000_0000_0000_0110, 41'd0, UnitB, 64'h0);
    set_slot(0, sf(ITA_SF_LOAD_LSB));
    slot_lat[0 +: 16] = 16'd9;
    set_slot(1, br(2'd1, 2'd1) | sf(ITA_SF_TAKEN_LSB));
    slot_target[64 +: 64] = 64'h1000_0000_0000_2000;
    // xev 0: unattributed, 2; xev 1: slot 1, 3 (iar, opm); xev 2: another umask; xev 3: not
    // valid (an id the model lacks).
    xev_valid = 4'b0111;
    xev_code  = {8'h58, 8'h58, 8'h58, 8'h58};
    xev_umask = {4'h3, 4'h2, 4'h3, 4'h3};
    xev_count = {8'd5, 8'd4, 8'd3, 8'd2};
    xev_slot  = {8'hff, 8'hff, 8'd1, ITA_XEV_NO_SLOT};
    xev_iod   = {3'b000, 3'b000, 3'b110, 3'b000};
    step();
    check_eq(pmd_of(ITA2, 4), 64'd5, "general events: 2 unattributed + 3 on slot 1");
    check_eq(pmd_of(ITA2, 5), 64'd1, "L1I_EAR_EVENTS counts the I-EAR capture");
    check_eq(pmd_of(ITA2, 6), 64'd1, "DATA_EAR_EVENTS counts the D-EAR capture");
    check_eq(pmd_of(ITA2, 7), 64'd1, "BRANCH_EVENT counts the BTB record");
    check_eq(vis_of(ITA2, ITA_VIS_PMD0), 64'h1000_0000_0000_0041, "I-EAR PMD0");
    check_eq(vis_of(ITA2, ITA_VIS_PMD1), 64'd7, "I-EAR PMD1");
    check_eq(vis_of(ITA2, ITA_VIS_PMD2), 64'h8000, "D-EAR PMD2");
    check_eq(vis_of(ITA2, ITA_VIS_PMD16), 64'd2 | (64'd1 << ITA_F_PMD16_EXT_LSB), "BTB PMD16: bbi 2, entry 0 in the window's second bundle");
    check_eq(vis_of(ITA2, ITA_VIS_PMD9), 64'h1000_0000_0000_2000, "BTB target record");
    // The slot-attributed entry names a slot that is not valid: it counts nowhere.
    nslots = 3'd1;
    if_lat = 16'd0;
    step();
    check_eq(pmd_of(ITA2, 4), 64'd7, "general events: an entry on an invalid slot counts nothing");
    check_eq(pmd_of(ITA2, 5), 64'd1, "no fetch, no I-EAR capture");
    check_eq(pmd_of(ITA2, 7), 64'd1, "no branch, no BTB record");
    // Frozen: nothing captures, nothing counts.
    wr(pmc(0), Fr);
    if_lat = 16'd9;
    step();
    check_eq(vis_of(ITA2, ITA_VIS_PMD1), 64'd7, "frozen: the I-EAR keeps its capture");
    check_eq(pmd_of(ITA2, 4), 64'd7, "frozen: general events do not count");
    rec_clear();
    check_vis_matches_reads("after the EARs, the BTB and general events");

    // ---- reset again ---------------------------------------------------------------------------
    @(negedge clk);
    rst_n = 1'b0;
    #1;
    check_eq(vis_of(ITA2, ITA_VIS_PMC0), ITA_PMC0_RESET_ITA2, "reset: PMC0");
    check_eq(pmd_of(ITA2, 4), 64'h0, "reset: PMD4");
    check_eq(vis_of(ITA2, ITA_VIS_PSR), 64'h0, "reset: PSR");
    check_eq(vis_of(ITA2, ITA_VIS_PMC4), ITA_PMC4_RESET_ITA2, "reset: PMC4 (power enable)");
    rst_n = 1'b1;

    tb_done();
  end

endmodule
