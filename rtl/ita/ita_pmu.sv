`include "ita_defines.vh"

// Itanium / Itanium 2 PMU: PMC0 (freeze, sticky overflow bits), four generic counters
// PMC4..7 / PMD4..7, the event-qualification registers (opcode matchers PMC8/9, PMC11,
// PMC13..15, IBR0..7, DBR0..7), the EARs and the branch trace buffer (PMC10..12, PMD0..3,
// PMD8..17: docs/ita-ear-btb.md) and the PSR/IPSR/DCR shadow the PMU observes.
// docs/ita-semantics.md is the normative model of a clock; docs/ita-rtl.md describes this
// implementation.
//
// Clocks: a register write (reg_we_i) stores one register; a step (cyc_valid_i) consumes one
// cycle record. The harness never does both in one clock; if it does, the write comes first
// and the record counts after it (the record is registered: "the record in flight" below).
module ita_pmu #(
  parameter int Model     = 1,  // 0 = Itanium (32-bit counters), 1 = Itanium 2 (47-bit)
  parameter bit PmdSext   = 1,  // 1: PMD bits 63:W read as bit W-1; 0: read as zero
  parameter bit ThrGe     = 0,  // 0: threshold t counts when n > t; 1: when n >= t
  parameter bit FineGran2 = 0,  // 1: fine-mode ranges compare ip[11:5] (the two-bundle
                                // granularity of the first Itanium 2 steppings); 0: ip[11:4]
  parameter bit ObsPort   = 1   // 1: obs_vis_o shows every visible register; 0: it reads 0,
                                // and a simulator reads the entries in `vis` (below) instead
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // register port: a write takes effect at the clock edge; the read is combinational
  input  logic                          reg_we_i,
  input  logic [11:0]                   reg_addr_i,    // {space[3:0], index[7:0]}
  input  logic [63:0]                   reg_wdata_i,
  output logic [63:0]                   reg_rdata_o,   // read of reg_addr_i
  // cycle record (consumed at the clock edge when cyc_valid_i = 1)
  input  logic                          cyc_valid_i,
  input  logic [1:0]                    cpl_i,
  input  logic                          is_i,          // 0 IA-64, 1 IA-32
  input  logic [1:0]                    power_i,       // 0 NORMAL 1 LOW_POWER 2 LIGHT_HALT 3 HALT
  input  logic [1:0]                    intr_i,        // 0 none 1 entry 2 return
  input  logic                          up_we_i,
  input  logic                          up_i,
  input  logic                          pp_we_i,
  input  logic                          pp_i,
  input  logic [2:0]                    recirc_i,
  input  logic [2:0]                    nslots_i,      // slots 0..nslots_i-1 are valid
  input  logic [`ITA_MAX_SLOTS*64-1:0]  slot_ip_i,     // bundle address, slot k at [k*64 +: 64]
  input  logic [`ITA_MAX_SLOTS*2-1:0]   slot_idx_i,    // syllable 0..2, slot k at [k*2 +: 2]
  input  logic [`ITA_MAX_SLOTS*41-1:0]  slot_enc_i,    // 41-bit encoding, [k*41 +: 41]
  input  logic [`ITA_MAX_SLOTS*2-1:0]   slot_unit_i,   // 0 M 1 I 2 F 3 B
  input  logic [`ITA_MAX_SLOTS*`ITA_SF_WIDTH-1:0] slot_flags_i, // ITA_SF_* bits, [k*16 +: 16]
  input  logic [`ITA_MAX_SLOTS*64-1:0]  slot_daddr_i,  // data address of a load / store
  input  logic [`ITA_MAX_SLOTS*16-1:0]  slot_lat_i,    // memory latency (the D-EAR), [k*16 +: 16]
  input  logic [`ITA_MAX_SLOTS*2-1:0]   slot_tlb_i,    // enum ita_tlb of the access, [k*2 +: 2]
  input  logic [`ITA_MAX_SLOTS*64-1:0]  slot_target_i, // branch target (the BTB), [k*64 +: 64]
  // the fetch that completed in this cycle (the I-EAR)
  input  logic [63:0]                   if_addr_i,
  input  logic [15:0]                   if_lat_i,      // L1I miss latency, 0 = hit
  input  logic [1:0]                    if_tlb_i,      // enum ita_tlb
  input  logic                          if_rab_i,      // served by the RAB
  // general events: entry i valid, its event's code / umask (the model's table), count,
  // slot (ITA_XEV_NO_SLOT: none) and {iar, opm, dar}; an id the model lacks is not valid
  input  logic [`ITA_MAX_XEV-1:0]       xev_valid_i,
  input  logic [`ITA_MAX_XEV*8-1:0]     xev_code_i,    // [i*8 +: 8]
  input  logic [`ITA_MAX_XEV*4-1:0]     xev_umask_i,   // [i*4 +: 4]
  input  logic [`ITA_MAX_XEV*8-1:0]     xev_count_i,   // [i*8 +: 8]
  input  logic [`ITA_MAX_XEV*8-1:0]     xev_slot_i,    // [i*8 +: 8]
  input  logic [`ITA_MAX_XEV*3-1:0]     xev_iod_i,     // {iar, opm, dar} at [i*3 +: 3]
  // interrupt and observation
  output logic                          pmi_o,         // one-clock pulse after a step that raised it
  output logic [`ITA_NVIS*64-1:0]       obs_vis_o      // visible register v at [v*64 +: 64],
                                                       // the value a register read returns
);

  `include "ita_defs.vh"

  // ---- model parameters (include/common/ita/ita_regs.def) ---------------------------------------
  localparam bit Ita = (Model == 0);

  // Counter width: the PMD writable mask is 2^W - 1.
  localparam int W = Ita ? $clog2(ITA_PMD4_7_WMASK_ITA + 64'd1)
                         : $clog2(ITA_PMD4_7_WMASK_ITA2 + 64'd1);

  // Generic counters: PMC0 has one overflow bit per counter, at the counter's own index.
  localparam int NCnt         = ITA_F_PMC0_OVF_W;
  localparam int FirstCounter = ITA_F_PMC0_OVF_LSB;

  // n <= ITA_MAX_SLOTS, the largest recirc_i, or ITA_MAX_XEV general events of up to 255.
  localparam int NW = 10;

  localparam logic [63:0] Pmc0Reset  = Ita ? ITA_PMC0_RESET_ITA   : ITA_PMC0_RESET_ITA2;
  localparam logic [63:0] Pmc0Wmask  = Ita ? ITA_PMC0_WMASK_ITA   : ITA_PMC0_WMASK_ITA2;
  localparam logic [63:0] PsrReset   = Ita ? ITA_PSR_RESET_ITA    : ITA_PSR_RESET_ITA2;
  localparam logic [63:0] PsrWmask   = Ita ? ITA_PSR_WMASK_ITA    : ITA_PSR_WMASK_ITA2;
  localparam logic [63:0] IpsrReset  = Ita ? ITA_IPSR_RESET_ITA   : ITA_IPSR_RESET_ITA2;
  localparam logic [63:0] IpsrWmask  = Ita ? ITA_IPSR_WMASK_ITA   : ITA_IPSR_WMASK_ITA2;
  localparam logic [63:0] DcrReset   = Ita ? ITA_DCR_RESET_ITA    : ITA_DCR_RESET_ITA2;
  localparam logic [63:0] DcrWmask   = Ita ? ITA_DCR_WMASK_ITA    : ITA_DCR_WMASK_ITA2;

  // ---- the record in flight ----------------------------------------------------------------
  // The cycle record is registered at the block boundary: the clock that presents it stores
  // it here, and the PMU's registers take its effect at the next clock (a step or a register
  // write). What the register port and obs_vis_o show is the state with that record applied
  // (each state module's view), so at the ports a step still takes effect at its own clock
  // (docs/ita-semantics.md); inside, the qualification datapath reads only flops and is evaluated
  // once a clock. A register write in the clock after a step comes after that step: the
  // record retires first, then the write stores its register (docs/ita-rtl.md, "The record in
  // flight").
  logic                                   cyc_valid_q;
  logic [1:0]                             cpl_q, power_q, intr_q, if_tlb_q;
  logic                                   is_q, up_we_q, up_q, pp_we_q, pp_q, if_rab_q;
  logic [2:0]                             recirc_q, nslots_q;
  logic [`ITA_MAX_SLOTS*64-1:0]           slot_ip_q, slot_daddr_q, slot_target_q;
  logic [`ITA_MAX_SLOTS*2-1:0]            slot_idx_q, slot_unit_q, slot_tlb_q;
  logic [`ITA_MAX_SLOTS*41-1:0]           slot_enc_q;
  logic [`ITA_MAX_SLOTS*`ITA_SF_WIDTH-1:0] slot_flags_q;
  logic [`ITA_MAX_SLOTS*16-1:0]           slot_lat_q;
  logic [63:0]                            if_addr_q;
  logic [15:0]                            if_lat_q;
  logic [`ITA_MAX_XEV-1:0]                xev_valid_q;
  logic [`ITA_MAX_XEV*8-1:0]              xev_code_q, xev_count_q, xev_slot_q;
  logic [`ITA_MAX_XEV*4-1:0]              xev_umask_q;
  logic [`ITA_MAX_XEV*3-1:0]              xev_iod_q;

  // A clock without a record (a register write) leaves an empty record in flight.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cyc_valid_q   <= 1'b0;
      cpl_q         <= '0;
      is_q          <= 1'b0;
      power_q       <= '0;
      intr_q        <= '0;
      up_we_q       <= 1'b0;
      up_q          <= 1'b0;
      pp_we_q       <= 1'b0;
      pp_q          <= 1'b0;
      recirc_q      <= '0;
      nslots_q      <= '0;
      slot_ip_q     <= '0;
      slot_idx_q    <= '0;
      slot_enc_q    <= '0;
      slot_unit_q   <= '0;
      slot_flags_q  <= '0;
      slot_daddr_q  <= '0;
      slot_lat_q    <= '0;
      slot_tlb_q    <= '0;
      slot_target_q <= '0;
      if_addr_q     <= '0;
      if_lat_q      <= '0;
      if_tlb_q      <= '0;
      if_rab_q      <= 1'b0;
      xev_valid_q   <= '0;
      xev_code_q    <= '0;
      xev_umask_q   <= '0;
      xev_count_q   <= '0;
      xev_slot_q    <= '0;
      xev_iod_q     <= '0;
    end else begin
      cyc_valid_q   <= cyc_valid_i;
      cpl_q         <= cpl_i;
      is_q          <= is_i;
      power_q       <= power_i;
      intr_q        <= intr_i;
      up_we_q       <= up_we_i;
      up_q          <= up_i;
      pp_we_q       <= pp_we_i;
      pp_q          <= pp_i;
      recirc_q      <= recirc_i;
      nslots_q      <= nslots_i;
      slot_idx_q    <= slot_idx_i;
      slot_enc_q    <= slot_enc_i;
      slot_unit_q   <= slot_unit_i;
      slot_flags_q  <= slot_flags_i;
      slot_lat_q    <= slot_lat_i;
      slot_tlb_q    <= slot_tlb_i;
      // The three 64-bit fields of a slot are stored only for the record's slots: every
      // reader tests s < nslots_q, so the fields of the slots past it are never read, and
      // most records have fewer than ITA_MAX_SLOTS slots (docs/bench-history.md,
      // "Eighteenth round").
      for (int s = 0; s < `ITA_MAX_SLOTS; s++) begin
        if (3'(s) < nslots_i) begin
          slot_ip_q[s*64 +: 64]     <= slot_ip_i[s*64 +: 64];
          slot_daddr_q[s*64 +: 64]  <= slot_daddr_i[s*64 +: 64];
          slot_target_q[s*64 +: 64] <= slot_target_i[s*64 +: 64];
        end
      end
      if_addr_q     <= if_addr_i;
      if_lat_q      <= if_lat_i;
      if_tlb_q      <= if_tlb_i;
      if_rab_q      <= if_rab_i;
      xev_valid_q   <= xev_valid_i;
      xev_code_q    <= xev_code_i;
      xev_umask_q   <= xev_umask_i;
      xev_count_q   <= xev_count_i;
      xev_slot_q    <= xev_slot_i;
      xev_iod_q     <= xev_iod_i;
    end
  end

  // ---- register port decode --------------------------------------------------------------
  // Every register a read or a write reaches is one visible entry (include/common/ita/ita_regs.def,
  // ITA_VISIBLE), at address ITA_VIS_ADDR[v]. reg_vis is the entry at reg_addr_i, or ITA_NVIS
  // where there is none (PMC1..3 and every address not implemented: a write is ignored and a
  // read returns 0). The search is on a key of the address's low bits, space[2:0] and
  // index[4:0], which every entry fits (tools/ita/gen_ita.c checks that, and that the registers
  // without an entry are constant 0). Verilator evaluates it as one lookup in a 256-entry
  // table, where a comparison per register ran in every evaluation of the input-driven logic
  // (docs/bench.md).
  localparam int VisW = $clog2(ITA_NVIS + 1);
  localparam int SpcW = ITA_VIS_KEY_SPACE_W;
  localparam int IdxW = ITA_VIS_KEY_INDEX_W;
  localparam int KeyW = SpcW + IdxW;
  localparam logic [VisW-1:0] NoVis = VisW'(ITA_NVIS);

  logic [KeyW-1:0]     reg_key;
  logic                reg_in_key;
  logic [VisW-1:0]     key_vis, reg_vis;
  logic [ITA_NVIS-1:0] reg_sel;   // one-hot: the entry at the address
  logic [ITA_NVIS-1:0] reg_wsel;  // ... when the port writes

  // reg_addr_i = {space[3:0], index[7:0]}
  assign reg_key    = {reg_addr_i[8 +: SpcW], reg_addr_i[0 +: IdxW]};
  assign reg_in_key = (reg_addr_i[11:8 + SpcW] == '0) && (reg_addr_i[7:IdxW] == '0);

  always_comb begin
    key_vis = NoVis;
    for (int v = 0; v < ITA_NVIS; v++) begin
      if (reg_key == {ITA_VIS_ADDR[v*ITA_ADDR_BITS + 8 +: SpcW],
                      ITA_VIS_ADDR[v*ITA_ADDR_BITS +: IdxW]}) begin
        key_vis = VisW'(v);
      end
    end
  end

  assign reg_vis  = reg_in_key ? key_vis : NoVis;
  assign reg_sel  = ITA_NVIS'(1) << reg_vis;
  assign reg_wsel = reg_we_i ? reg_sel : '0;

  logic pmc0_we, psr_we, dcr_we, ipsr_we;
  assign pmc0_we = reg_wsel[ITA_VIS_PMC0];
  assign psr_we  = reg_wsel[ITA_VIS_PSR];
  assign dcr_we  = reg_wsel[ITA_VIS_DCR];
  assign ipsr_we = reg_wsel[ITA_VIS_IPSR];

  // ---- CPU state --------------------------------------------------------------------------
  logic        eff_up, eff_pp;
  logic [63:0] psr_rd, ipsr_rd, dcr_rd;

  ita_cpu_state #(
    .PsrReset  (PsrReset),
    .PsrWmask  (PsrWmask),
    .IpsrReset (IpsrReset),
    .IpsrWmask (IpsrWmask),
    .DcrReset  (DcrReset),
    .DcrWmask  (DcrWmask)
  ) u_cpu_state (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .psr_we_i  (psr_we),
    .ipsr_we_i (ipsr_we),
    .dcr_we_i  (dcr_we),
    .wdata_i   (reg_wdata_i),
    .step_i    (cyc_valid_q),
    .intr_i    (intr_q),
    .up_we_i   (up_we_q),
    .up_i      (up_q),
    .pp_we_i   (pp_we_q),
    .pp_i      (pp_q),
    .eff_up_o  (eff_up),
    .eff_pp_o  (eff_pp),
    .psr_o     (psr_rd),
    .ipsr_o    (ipsr_rd),
    .dcr_o     (dcr_rd)
  );

  // Visible register v as a read returns it, for obs_vis_o (driven where each register is).
  // With ObsPort = 0 the Verilated harness compares these entries in place (its tops make the
  // array readable: verilator/ita/vis_public.vlt).
  logic [63:0] vis [ITA_NVIS];

  // ---- qualification registers: PMC8, PMC9, PMC11, PMC13..15, IBR0..7, DBR0..7 -----------
  // The ACCESS(QUAL) registers of the .def, listed by build/gen/ita/ita_qual_regs.svh. Each one
  // stores (v & wmask) | (reset & ~wmask) with the model's reset value and writable mask, like
  // PMC4..7, and reads back (and shows in obs_vis_o) as stored. ITA_QUAL_REG(J, name, NAME,
  // SPACE) declares name_q, written when the port writes its visible entry ITA_VIS_<NAME>,
  // and drives that entry, vis[ITA_VIS_<NAME>].
`define ITA_QUAL_REG(J, name, NAME, SPACE)                                                  \
  logic [63:0] name``_q;                                                                    \
  ita_pmc_gen #(                                                                           \
    .ResetValue (Ita ? ITA_``NAME``_RESET_ITA : ITA_``NAME``_RESET_ITA2),                   \
    .WriteMask  (Ita ? ITA_``NAME``_WMASK_ITA : ITA_``NAME``_WMASK_ITA2)                    \
  ) u_``name (                                                                              \
    .clk_i   (clk_i),                                                                       \
    .rst_ni  (rst_ni),                                                                      \
    .wr_i    (reg_we_i),                                                                    \
    .sel_i   (reg_sel[ITA_VIS_``NAME]),                                                     \
    .wdata_i (reg_wdata_i),                                                                 \
    .q_o     (name``_q)                                                                     \
  );                                                                                        \
  assign vis[ITA_VIS_``NAME] = name``_q;

  `include "ita_qual_regs.svh"

`undef ITA_QUAL_REG

  // The qualification datapath's view of them.
  logic [8*64-1:0] ibr_q, dbr_q;  // IBR j / DBR j at [j*64 +: 64]
  assign ibr_q = {ibr7_q, ibr6_q, ibr5_q, ibr4_q, ibr3_q, ibr2_q, ibr1_q, ibr0_q};
  assign dbr_q = {dbr7_q, dbr6_q, dbr5_q, dbr4_q, dbr3_q, dbr2_q, dbr1_q, dbr0_q};

  // The fields of the qualification registers that the per-slot qualification reads,
  // decoded when the port writes their register (docs/ita-rtl.md, "The qualification
  // registers, decoded at the write").
  logic [3:0] opc8_unit, opc9_unit, pair_active, need_iq, need_dbr, ibrp_free, opc_free;
  logic       ig_ad, inv, pass_data, tag_all, fine;

  ita_qual_cfg #(
    .Model      (Model),
    .Registered (1'b1)
  ) u_qual_cfg (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .wr_i          (reg_we_i),
    .pmc8_sel_i    (reg_sel[ITA_VIS_PMC8]),
    .pmc9_sel_i    (reg_sel[ITA_VIS_PMC9]),
    .pmc11_sel_i   (reg_sel[ITA_VIS_PMC11]),
    .pmc13_sel_i   (reg_sel[ITA_VIS_PMC13]),
    .pmc14_sel_i   (reg_sel[ITA_VIS_PMC14]),
    .pmc15_sel_i   (reg_sel[ITA_VIS_PMC15]),
    .wdata_i       (reg_wdata_i),
    .pmc8_i        (pmc8_q),
    .pmc9_i        (pmc9_q),
    .pmc11_i       (pmc11_q),
    .pmc13_i       (pmc13_q),
    .pmc14_i       (pmc14_q),
    .pmc15_i       (pmc15_q),
    .opc8_unit_o   (opc8_unit),
    .opc9_unit_o   (opc9_unit),
    .ig_ad_o       (ig_ad),
    .inv_o         (inv),
    .pass_data_o   (pass_data),
    .tag_all_o     (tag_all),
    .pair_active_o (pair_active),
    .need_iq_o     (need_iq),
    .need_dbr_o    (need_dbr),
    .fine_o        (fine),
    .ibrp_free_o   (ibrp_free),
    .opc_free_o    (opc_free)
  );

  // ---- per-slot qualification, shared by the four counters ------------------------------------
  // Slot s: inst_q(c, k) at [s*16 + c*4 + k], memory qualification(c) at [s*4 + c], for every
  // qualifier set c = {iar, opm} (ita_tag_qual); each counter's event select picks its bit.
  // Each slot's tags are one 32-bit word, {inst_q (16), mem_q (4)} at [s*32 +: 20] and 0
  // above: the event selects read a slot's word as it is (docs/ita-rtl.md, "The slots'
  // tags").
  logic [`ITA_MAX_SLOTS*32-1:0] slot_tags;
  // Some reader may use the tags in this clock: a counter that counts, the D-EAR or the BTB
  // that may capture, a general event; otherwise the slots are qualified as not valid.
  logic                         tags_used;
  logic [NCnt-1:0]              cnt_en;  // g_cnt's en, counter k at k
  logic                         dear_en, btb_en;
  assign tags_used = (cnt_en != '0) || dear_en || btb_en || (xev_valid_q != '0);

  for (genvar s = 0; s < `ITA_MAX_SLOTS; s++) begin : g_slot
    logic [`ITA_SF_WIDTH-1:0] flags;
    assign flags = slot_flags_q[s*`ITA_SF_WIDTH +: `ITA_SF_WIDTH];

    ita_slot_qual #(
      .Model     (Model),
      .FineGran2 (FineGran2)
    ) u_slot_qual (
      .valid_i  (tags_used && (nslots_q > 3'(s))),
      .is_i     (is_q),
      .cpl_i    (cpl_q),
      .ip_i     (slot_ip_q[s*64 +: 64]),
      .enc_i    (slot_enc_q[s*41 +: 41]),
      .unit_i   (slot_unit_q[s*2 +: 2]),
      .mem_i    (flags[ITA_SF_LOAD_LSB] || flags[ITA_SF_STORE_LSB]),
      .daddr_i  (slot_daddr_q[s*64 +: 64]),
      .ibr_i    (ibr_q),
      .dbr_i    (dbr_q),
      .pmc8_i        (pmc8_q),
      .pmc9_i        (pmc9_q),
      .opc8_unit_i   (opc8_unit),
      .opc9_unit_i   (opc9_unit),
      .ig_ad_i       (ig_ad),
      .inv_i         (inv),
      .pass_data_i   (pass_data),
      .tag_all_i     (tag_all),
      .pair_active_i (pair_active),
      .need_iq_i     (need_iq),
      .need_dbr_i    (need_dbr),
      .fine_i        (fine),
      .ibrp_free_i   (ibrp_free),
      .opc_free_i    (opc_free),
      .inst_q_o (slot_tags[s*32 + 4 +: 16]),
      .mem_q_o  (slot_tags[s*32 +: 4])
    );
    assign slot_tags[s*32 + 20 +: 12] = '0;
  end

  // ---- the EARs and the BTB (docs/ita-ear-btb.md) ---------------------------------------------
  logic fr_q;  // PMC0.fr before the clock (ita_ovf_ctrl below): nothing captures when frozen
  // Each unit is qualified like its counter event's row: the qualifier set {iar, opm} of
  // the row picks inst_q(set, pair 0), or the memory qualification of the set for dar = 1.
  localparam logic [1:0] IearSet = {ITA_EV_L1I_EAR_EVENTS_IAR, ITA_EV_L1I_EAR_EVENTS_OPM};
  localparam logic [1:0] DearSet = {ITA_EV_DATA_EAR_EVENTS_IAR, ITA_EV_DATA_EAR_EVENTS_OPM};
  localparam logic [1:0] BtbSet  = {ITA_EV_BRANCH_EVENT_IAR, ITA_EV_BRANCH_EVENT_OPM};
  localparam bit         IearDar = ITA_EV_L1I_EAR_EVENTS_DAR;
  localparam bit         DearDar = ITA_EV_DATA_EAR_EVENTS_DAR;
  localparam bit         BtbDar  = ITA_EV_BRANCH_EVENT_DAR;

  // The fetch, qualified as a slot at ip = if_addr that is not a memory access and has no
  // encoding; only in a clock in which the I-EAR may capture (iear_en).
  logic [15:0] fetch_inst_q;
  logic [3:0]  fetch_mem_q;
  logic        fetch_qual, iear_en;

  ita_slot_qual #(
    .Model     (Model),
    .FineGran2 (FineGran2)
  ) u_fetch_qual (
    .valid_i  (iear_en),
    .is_i     (is_q),
    .cpl_i    (cpl_q),
    .ip_i     (if_addr_q),
    .enc_i    (41'd0),
    .unit_i   (2'd0),
    .mem_i    (1'b0),
    .daddr_i  (64'd0),
    .ibr_i    (ibr_q),
    .dbr_i    (dbr_q),
    .pmc8_i        (pmc8_q),
    .pmc9_i        (pmc9_q),
    .opc8_unit_i   (opc8_unit),
    .opc9_unit_i   (opc9_unit),
    .ig_ad_i       (ig_ad),
    .inv_i         (inv),
    .pass_data_i   (pass_data),
    .tag_all_i     (tag_all),
    .pair_active_i (pair_active),
    .need_iq_i     (need_iq),
    .need_dbr_i    (need_dbr),
    .fine_i        (fine),
    .ibrp_free_i   (ibrp_free),
    .opc_free_i    (opc_free),
    .inst_q_o (fetch_inst_q),
    .mem_q_o  (fetch_mem_q)
  );

  assign fetch_qual = IearDar ? fetch_mem_q[IearSet] : fetch_inst_q[IearSet*4];

  // The bit of a slot's tags word each unit reads: mem_q(set) at set, inst_q(set, 0) at
  // 4 + set*4.
  localparam int DearBit = DearDar ? {30'd0, DearSet} : 4 + 4 * {30'd0, DearSet};
  localparam int BtbBit  = BtbDar  ? {30'd0, BtbSet}  : 4 + 4 * {30'd0, BtbSet};
  // Each is formed only in a clock in which its unit may capture (the unit's en_o; the unit
  // reads it only then): otherwise Verilator rebuilds the six bits from the tag logic's terms
  // in every clock. Two blocks of the same shape: a function returning the vector (or a ?: on
  // en) is evaluated in every clock again, and one generate loop over both units, each
  // iteration writing its slice of a packed array, is refused by Icarus 11
  // (docs/bench-history.md, "Sixteenth round").
  logic [`ITA_MAX_SLOTS-1:0] dear_slot_q, btb_slot_q;
  always_comb begin
    if (dear_en) begin
      dear_slot_q = '0;  // (so that Verilator sees every bit assigned)
      for (int s = 0; s < `ITA_MAX_SLOTS; s++) begin
        dear_slot_q[s] = slot_tags[s*32 + DearBit];
      end
    end else begin
      dear_slot_q = '0;
    end
  end
  always_comb begin
    if (btb_en) begin
      btb_slot_q = '0;  // (so that Verilator sees every bit assigned)
      for (int s = 0; s < `ITA_MAX_SLOTS; s++) begin
        btb_slot_q[s] = slot_tags[s*32 + BtbBit];
      end
    end else begin
      btb_slot_q = '0;
    end
  end

  // Capture-register write decode: PMD0..3, PMD8..16, PMD17.
  localparam int NBtbRegs = {24'd0, ITA_PMD16_FIRST} - {24'd0, ITA_PMD8_FIRST} + 1;  // PMD8..PMD16
  logic                 pmd0_we, pmd1_we, pmd2_we, pmd3_we, pmd17_we;
  logic [NBtbRegs-1:0]  btb_we;
  logic [63:0]          pmd0_q, pmd1_q, pmd2_q, pmd3_q, pmd17_q;
  logic [NBtbRegs*64-1:0] btb_q;
  logic                 iear_cap, dear_cap, btb_cap;

  assign pmd0_we  = reg_wsel[ITA_VIS_PMD0];
  assign pmd1_we  = reg_wsel[ITA_VIS_PMD1];
  assign pmd2_we  = reg_wsel[ITA_VIS_PMD2];
  assign pmd3_we  = reg_wsel[ITA_VIS_PMD3];
  assign pmd17_we = reg_wsel[ITA_VIS_PMD17];
  // PMD8..PMD16 are consecutive visible entries (include/common/ita/ita_regs.def).
  assign btb_we   = reg_wsel[ITA_VIS_PMD8 +: NBtbRegs];


  ita_iear #(
    .Model (Model)
  ) u_iear (
    .clk_i     (clk_i),
    .rst_ni    (rst_ni),
    .pmc10_i   (pmc10_q),
    .step_i    (cyc_valid_q),
    .fr_i      (fr_q),
    .cpl_i     (cpl_q),
    .is_i      (is_q),
    .psr_up_i  (eff_up),
    .psr_pp_i  (eff_pp),
    .qual_i    (fetch_qual),
    .if_addr_i (if_addr_q),
    .if_lat_i  (if_lat_q),
    .if_tlb_i  (if_tlb_q),
    .if_rab_i  (if_rab_q),
    .pmd0_we_i (pmd0_we),
    .pmd1_we_i (pmd1_we),
    .wdata_i   (reg_wdata_i),
    .pmd0_o    (pmd0_q),
    .pmd1_o    (pmd1_q),
    .en_o      (iear_en),
    .cap_o     (iear_cap)
  );

  ita_dear #(
    .Model (Model)
  ) u_dear (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .pmc11_i      (pmc11_q),
    .step_i       (cyc_valid_q),
    .fr_i         (fr_q),
    .cpl_i        (cpl_q),
    .is_i         (is_q),
    .psr_up_i     (eff_up),
    .psr_pp_i     (eff_pp),
    .nslots_i     (nslots_q),
    .slot_flags_i (slot_flags_q),
    .slot_lat_i   (slot_lat_q),
    .slot_tlb_i   (slot_tlb_q),
    .slot_ip_i    (slot_ip_q),
    .slot_idx_i   (slot_idx_q),
    .slot_daddr_i (slot_daddr_q),
    .slot_qual_i  (dear_slot_q),
    .pmd2_we_i    (pmd2_we),
    .pmd3_we_i    (pmd3_we),
    .pmd17_we_i   (pmd17_we),
    .wdata_i      (reg_wdata_i),
    .pmd2_o       (pmd2_q),
    .pmd3_o       (pmd3_q),
    .pmd17_o      (pmd17_q),
    .en_o         (dear_en),
    .cap_o        (dear_cap)
  );

  ita_btb #(
    .Model (Model),
    .NRegs (NBtbRegs)
  ) u_btb (
    .clk_i         (clk_i),
    .rst_ni        (rst_ni),
    .pmc12_i       (pmc12_q),
    .step_i        (cyc_valid_q),
    .fr_i          (fr_q),
    .cpl_i         (cpl_q),
    .is_i          (is_q),
    .psr_up_i      (eff_up),
    .psr_pp_i      (eff_pp),
    .nslots_i      (nslots_q),
    .slot_flags_i  (slot_flags_q),
    .slot_ip_i     (slot_ip_q),
    .slot_idx_i    (slot_idx_q),
    .slot_target_i (slot_target_q),
    .slot_qual_i   (btb_slot_q),
    .pmd_we_i      (btb_we),
    .wdata_i       (reg_wdata_i),
    .pmd_o         (btb_q),
    .en_o          (btb_en),
    .cap_o         (btb_cap)
  );

  // ---- general events: qualification shared by the counters ---------------------------------
  logic [`ITA_MAX_XEV-1:0] xev_qual;

  ita_xev_qual u_xev_qual (
    .xev_valid_i   (xev_valid_q),
    .nslots_i      (nslots_q),
    .xev_slot_i    (xev_slot_q),
    .xev_iod_i     (xev_iod_q),
    .slot_tags_i   (slot_tags),
    .xev_qual_o    (xev_qual)
  );

  // ---- generic counters --------------------------------------------------------------------

  logic [63:0]       pmc0_rd;
  logic [NCnt-1:0]   carry, oi;
  logic [NCnt*64-1:0] pmd_rd;  // PMD(FirstCounter+k) read value

  for (genvar k = 0; k < NCnt; k++) begin : g_cnt
    localparam int         Counter = FirstCounter + k;
    // PMC(Counter) and PMD(Counter) are entry k of the .def's ACCESS(CNT_CFG) and ACCESS(COUNTER)
    // registers (the generator checks that they start at PMC0.ovf's first counter).
    localparam logic [63:0] PmcReset = Ita ? ITA_CNT_CFG_RESET_ITA[k*64 +: 64]
                                           : ITA_CNT_CFG_RESET_ITA2[k*64 +: 64];
    localparam logic [63:0] PmcWmask = Ita ? ITA_CNT_CFG_WMASK_ITA[k*64 +: 64]
                                           : ITA_CNT_CFG_WMASK_ITA2[k*64 +: 64];
    localparam int          VisPmc   = ITA_CNT_CFG_VIS[k*32 +: 32];
    localparam int          VisPmd   = ITA_COUNTER_VIS[k*32 +: 32];

    logic [63:0]   pmc;
    logic [NW-1:0] n, inc;
    logic          en;
    logic [31:0]   en_tab;
    logic [W-1:0]  cnt;
    // The slots the event select compares: none in a clock in which the counter does not
    // count (en, which does not depend on n), whose n nothing reads; otherwise Verilator
    // compares every valid slot for every counter in every clock.
    logic [2:0]    sel_nslots;
    assign sel_nslots = en ? nslots_q : 3'd0;
    assign cnt_en[k]  = en;

    ita_pmc_gen #(
      .ResetValue (PmcReset),
      .WriteMask  (PmcWmask)
    ) u_pmc (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .wr_i    (reg_we_i),
      .sel_i   (reg_sel[VisPmc]),
      .wdata_i (reg_wdata_i),
      .q_o     (pmc)
    );

    ita_evt_sel #(
      .Model    (Model),
      .Counter  (Counter),
      .NW       (NW),
      .PmcReset (PmcReset),
      .PmcWmask (PmcWmask)
    ) u_evt_sel (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .wr_i         (reg_we_i),
      .pmc_sel_i    (reg_sel[VisPmc]),
      .pmc_wdata_i  (reg_wdata_i),
      .pmc_i        (pmc),
      .power_i      (power_q),
      .recirc_i     (recirc_q),
      .nslots_i     (sel_nslots),
      .slot_flags_i  (slot_flags_q),
      .slot_tags_i   (slot_tags),
      .iear_cap_i    (iear_cap),
      .dear_cap_i    (dear_cap),
      .btb_cap_i     (btb_cap),
      .xev_valid_i   (xev_valid_q),
      .xev_code_i    (xev_code_q),
      .xev_umask_i   (xev_umask_q),
      .xev_count_i   (xev_count_q),
      .xev_qual_i    (xev_qual),
      .n_o           (n),
      .en_tab_o      (en_tab)
    );

    ita_cnt_qual #(
      .NW    (NW),
      .ThrGe (ThrGe)
    ) u_cnt_qual (
      .pmc_i       (pmc),
      .en_tab_i    (en_tab),
      .step_i      (cyc_valid_q),
      .fr_i        (fr_q),
      .cpl_i       (cpl_q),
      .is_i        (is_q),
      .psr_up_i    (eff_up),
      .psr_pp_i    (eff_pp),
      .n_i         (n),
      .en_o        (en),
      .inc_o       (inc)
    );

    ita_counter #(
      .Width    (W),
      .IncWidth (NW)
    ) u_counter (
      .clk_i   (clk_i),
      .rst_ni  (rst_ni),
      .we_i    (reg_wsel[VisPmd]),
      .wdata_i (reg_wdata_i[W-1:0]),
      .en_i    (en),
      .inc_i   (inc),
      .cnt_o   (cnt),
      .carry_o (carry[k])
    );

    assign oi[k]               = pmc[ITA_F_PMC_GEN_OI_LSB];
    // Bits 63:W read as bit W-1 (sign extension) or as zero.
    assign pmd_rd[k*64 +: 64]  = {{(64 - W){PmdSext && cnt[W-1]}}, cnt};

    assign vis[VisPmc] = pmc;
    assign vis[VisPmd] = pmd_rd[k*64 +: 64];
  end

  ita_ovf_ctrl #(
    .ResetValue (Pmc0Reset),
    .WriteMask  (Pmc0Wmask),
    .NCounters  (NCnt),
    .FrBit      (ITA_F_PMC0_FR_LSB),
    .OvfLsb     (ITA_F_PMC0_OVF_LSB)
  ) u_ovf_ctrl (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .we_i    (pmc0_we),
    .wdata_i (reg_wdata_i),
    .carry_i (carry),
    .oi_i    (oi),
    .pmc0_o  (pmc0_rd),
    .fr_o    (fr_q),
    .pmi_o   (pmi_o)
  );

  // ---- register read: the visible entry at the address, 0 where there is none ---------------
  assign reg_rdata_o = (reg_vis == NoVis) ? '0 : vis[reg_vis];

  // ---- observation: every visible register, as a read returns it ----------------------------
  // (The qualification registers' entries are driven where they are declared, by
  // ITA_QUAL_REG; the counters' and their configurations' in g_cnt.)
  assign vis[ITA_VIS_PMC0]  = pmc0_rd;
  assign vis[ITA_VIS_PSR]   = psr_rd;
  assign vis[ITA_VIS_DCR]   = dcr_rd;
  assign vis[ITA_VIS_IPSR]  = ipsr_rd;
  assign vis[ITA_VIS_PMD0]  = pmd0_q;
  assign vis[ITA_VIS_PMD1]  = pmd1_q;
  assign vis[ITA_VIS_PMD2]  = pmd2_q;
  assign vis[ITA_VIS_PMD3]  = pmd3_q;
  assign vis[ITA_VIS_PMD17] = pmd17_q;
  // PMD8..PMD16 are consecutive visible entries (include/common/ita/ita_regs.def).
  for (genvar j = 0; j < NBtbRegs; j++) begin : g_btb_vis
    assign vis[ITA_VIS_PMD8 + j] = btb_q[j*64 +: 64];
  end

  // The port is the entries side by side, copied one by one: driven from the 64-bit entries
  // in one block, Verilator writes each entry's two words, where slices assigned to the wide
  // port directly became one concatenation rebuilt with every word of the port for each
  // entry (docs/bench.md).
  // With ObsPort = 0 the port is constant and the copy is not made: the Verilated harness
  // reads the entries in `vis` where they are (include/harness/ita/ita_vlt_model.h), one copy
  // of the views a clock instead of two (docs/bench-history.md, "Sixteenth round").
  if (ObsPort) begin : g_obs
    always_comb begin
      for (int v = 0; v < ITA_NVIS; v++) begin
        obs_vis_o[v*64 +: 64] = vis[v];
      end
    end
  end else begin : g_no_obs
    assign obs_vis_o = '0;
  end

endmodule
