`include "ita_defines.vh"

// The branch trace buffer (docs/ita-ear-btb.md, "Branch trace buffer"): PMC12 configures it,
// PMD8..15 are its ring of eight entries and PMD16 the ring index (bbi), the full bit and
// the per-entry extension bits. A branch qualifies when it is a valid IA-64 branch slot that
// passes PMC12's filters (tm, ptm, ppm and, on Itanium 2, brt) and BRANCH_EVENT's
// qualification (slot_qual_i); in a clock in which the unit may capture (ita_unit_en on
// PMC12's plm / pm; PMC12 has no ism) the first qualifying branch in slot order writes a
// branch record at PMD(8 + bbi) and a target record at PMD(8 + bbi + 1), and bbi advances
// by two. cap_o is 1 then (the counter event BRANCH_EVENT).
module ita_btb #(
  parameter int Model = 1,  // 0 = Itanium, 1 = Itanium 2
  parameter int NRegs = 9   // PMD8..PMD15 and PMD16 (the generator's ring: 2^PMD16.bbi + 1)
) (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  logic [63:0]                             pmc12_i,
  input  logic                                    step_i,
  input  logic                                    fr_i,
  input  logic [1:0]                              cpl_i,
  input  logic                                    is_i,
  input  logic                                    psr_up_i,
  input  logic                                    psr_pp_i,
  input  logic [2:0]                              nslots_i,
  input  logic [`ITA_MAX_SLOTS*`ITA_SF_WIDTH-1:0] slot_flags_i,
  input  logic [`ITA_MAX_SLOTS*64-1:0]            slot_ip_i,
  input  logic [`ITA_MAX_SLOTS*2-1:0]             slot_idx_i,
  input  logic [`ITA_MAX_SLOTS*64-1:0]            slot_target_i,
  input  logic [`ITA_MAX_SLOTS-1:0]               slot_qual_i,  // passes the qualification
  input  logic [NRegs-1:0]                        pmd_we_i,     // PMD8..15, PMD16
  input  logic [63:0]                             wdata_i,
  output logic [NRegs*64-1:0]                     pmd_o,        // PMD(8+j) at [j*64 +: 64]
  output logic                                    en_o,         // it may capture in this clock: slot_qual_i matters only then
  output logic                                    cap_o
);

  `include "ita_defs.vh"

  localparam bit Ita    = (Model == 0);
  localparam int NSlots = `ITA_MAX_SLOTS;
  localparam int BbiW   = ITA_F_PMD16_BBI_W;
  localparam int NEnt   = 1 << BbiW;            // the ring: PMD8..PMD15
  localparam int ExtW   = ITA_F_PMD16_EXT_W / NEnt;  // PMD16 bits per entry
  // Within an entry's PMD16 bits: b1 (window second bundle), then bruflush.
  localparam int ExtB1 = 0, ExtBruflush = 1;

  // BR_PRED slot flag: 2 wrong path, 3 wrong target (0 none, 1 correct).
  localparam logic [1:0] PredPath = 2'd2, PredTarget = 2'd3;

  logic [3:0] plm;
  logic       pm, ds, en, any;
  logic [1:0] tm, ptm, ppm, brt;
  logic [2:0] sel;
  logic [NSlots-1:0] slot_valid, hit;

  assign plm = pmc12_i[ITA_F_PMC12_PLM_MSB:ITA_F_PMC12_PLM_LSB];
  assign pm  = pmc12_i[ITA_F_PMC12_PM_LSB];
  assign tm  = pmc12_i[ITA_F_PMC12_TM_MSB:ITA_F_PMC12_TM_LSB];
  assign ptm = pmc12_i[ITA_F_PMC12_PTM_MSB:ITA_F_PMC12_PTM_LSB];
  assign ppm = pmc12_i[ITA_F_PMC12_PPM_MSB:ITA_F_PMC12_PPM_LSB];
  // Itanium: bits 7, 14, 15 are tar, bpt, bac (stored, no filter): no ds, no brt.
  assign ds  = Ita ? 1'b0 : pmc12_i[ITA_F_PMC12_DS_LSB];
  assign brt = Ita ? 2'd0 : pmc12_i[ITA_F_PMC12_BRT_MSB:ITA_F_PMC12_BRT_LSB];

  assign slot_valid = ~({NSlots{1'b1}} << nslots_i);

  // ---- which branches pass PMC12's filters ---------------------------------------------------
  // What the filters read of a slot is six flag bits: the key {taken, pred, br, squashed}
  // (BR_TYPE, BR_PRED and TAKEN are flag bits 13:9, PRED_OFF bit 1). The filters are formed
  // once a clock as a 64-bit mask over the keys, from constant masks of the keys with each
  // property, and a slot only looks its key up: evaluated per slot, the same terms cost about
  // six times as much (docs/bench.md).
  localparam int KeyW = 6;
  localparam int NKey = 1 << KeyW;
  localparam int SfW  = `ITA_SF_WIDTH;

  // The key is read as one slice, flag bits BR_TYPE .. TAKEN, so they must be adjacent in
  // that order (include/common/ita/ita_regs.def); a layout that moves them does not elaborate.
  if (ITA_SF_BR_PRED_LSB != ITA_SF_BR_TYPE_LSB + 2 || ITA_SF_TAKEN_LSB != ITA_SF_BR_PRED_LSB + 2)
  begin : g_key_flags_not_adjacent
    ita_btb_key_flags_must_be_adjacent u_stop ();
  end

  // The keys with a property: 0 taken (a squashed branch is a not-taken branch), 1 pred =
  // wrong target, 2 pred = wrong path, 3 + b br = b (br 0: not a branch).
  localparam int PropTaken = 0, PropTarget = 1, PropPath = 2, PropBr = 3;

  function automatic logic [NKey-1:0] keys_with(input int prop);
    logic [NKey-1:0] m;
    logic [KeyW-1:0] key;
    m = '0;
    for (int i = 0; i < NKey; i++) begin
      key = KeyW'(i);  // {taken, pred[1:0], br[1:0], squashed}
      case (prop)
        PropTaken:  m[i] = key[5] && !key[0];
        PropTarget: m[i] = (key[4:3] == PredTarget);
        PropPath:   m[i] = (key[4:3] == PredPath);
        default:    m[i] = (key[2:1] == 2'(prop - PropBr));
      endcase
    end
    keys_with = m;
  endfunction

  localparam logic [NKey-1:0] KeysTaken  = keys_with(PropTaken);
  localparam logic [NKey-1:0] KeysTarget = keys_with(PropTarget);
  localparam logic [NKey-1:0] KeysPath   = keys_with(PropPath);
  localparam logic [NKey-1:0] KeysNotBr  = keys_with(PropBr);
  localparam logic [NKey-1:0] KeysBr1    = keys_with(PropBr + 1);
  localparam logic [NKey-1:0] KeysBr2    = keys_with(PropBr + 2);
  localparam logic [NKey-1:0] KeysBr3    = keys_with(PropBr + 3);

  // pass = ((tm[1] && taken) || (tm[0] && !taken))
  //     && ((ptm[0] && pred == wrong target) || (ptm[1] && pred != wrong target))
  //     && ((ppm[0] && pred == wrong path) || (ppm[1] && pred != wrong path))
  //     && (brt == 0 || br == brt), for a branch (br != 0).
  // (One block: as separate assignments, the mask and the keys were not re-evaluated, in the
  // --timing build of tb_ita_btb by Verilator 5.006, when the testbench changed PMC12 or
  // the flags.) Only a clock in which the unit may capture (en) looks the slots up, so that a
  // run with the BTB off skips them (docs/bench.md, "Only the slots that retire"). keys_pass
  // is written once per evaluation, in one branch or the other: a variable the block reads
  // back must not take a default and then an override, or Icarus 11 may re-run always_comb
  // blocks against each other without end.
  logic tm_taken, tm_not_taken, ptm_target, ptm_other, ppm_path, ppm_other;
  assign {tm_taken, tm_not_taken} = tm;
  assign {ptm_other, ptm_target}  = ptm;
  assign {ppm_other, ppm_path}    = ppm;

  always_comb begin
    logic [NKey-1:0] keys_pass;
    if (en) begin
      keys_pass = ((brt == 2'd1) ? KeysBr1 :
                   (brt == 2'd2) ? KeysBr2 :
                   (brt == 2'd3) ? KeysBr3 : ~KeysNotBr) &
                  (({NKey{tm_taken}} & KeysTaken) | ({NKey{tm_not_taken}} & ~KeysTaken)) &
                  (({NKey{ptm_target}} & KeysTarget) | ({NKey{ptm_other}} & ~KeysTarget)) &
                  (({NKey{ppm_path}} & KeysPath) | ({NKey{ppm_other}} & ~KeysPath));
      hit = '0;  // (so that Verilator sees every bit assigned)
      for (int k = 0; k < NSlots; k++) begin
        // The key: flags {TAKEN, BR_PRED, BR_TYPE} are bits 13:9, then PRED_OFF.
        hit[k] = slot_valid[k] && slot_qual_i[k] &&
                 keys_pass[{slot_flags_i[k*SfW + ITA_SF_BR_TYPE_LSB +: KeyW - 1],
                            slot_flags_i[k*SfW + ITA_SF_PRED_OFF_LSB]}];
      end
    end else begin
      keys_pass = '0;
      hit       = '0;
    end
  end

  ita_first_slot #(
    .NSlots (NSlots),
    .IdxW   (3)
  ) u_first (
    .hit_i (hit),
    .any_o (any),
    .idx_o (sel)
  );

  ita_unit_en u_en (
    .step_i   (step_i),
    .fr_i     (fr_i),
    .cpl_i    (cpl_i),
    .is_i     (is_i),
    .psr_up_i (psr_up_i),
    .psr_pp_i (psr_pp_i),
    .plm_i    (plm),
    .pm_i     (pm),
    .ism_i    (2'b10),  // no ism: only IA-64 branches are recorded
    .en_o     (en)
  );

  assign en_o  = en;
  assign cap_o = en && any;

  // ---- the two records of the selected branch, and PMD16 after the capture ----------------
  // Formed only in a clock that captures (cap_o): the records feed nothing else, and a run with
  // the BTB off skips them (docs/bench.md, "Only the slots that retire"). Every variable of
  // the block is written once per evaluation, in one branch or the other (Icarus 11 re-runs an
  // always_comb that reads back a variable it changed twice).
  localparam logic [63:0] LoAddrMask =
    64'(((65'd1 << ITA_F_BTB_DETAIL_LOADDR_W) - 65'd1) << ITA_F_BTB_DETAIL_LOADDR_LSB);
  localparam logic [63:0] HiAddrMask =
    64'(((65'd1 << ITA_F_BTB_DETAIL_HIADDR_W) - 65'd1) << ITA_F_BTB_DETAIL_HIADDR_LSB);
  localparam logic [63:0] AddrMask =
    64'(((65'd1 << ITA_F_BTB_ENTRY_ADDR_W) - 65'd1) << ITA_F_BTB_ENTRY_ADDR_LSB);
  localparam int          SelW = `ITA_SF_WIDTH;

  // The capture rewrites bbi, sets full on the wrap (the carry out of bbi + 2) and writes the
  // PMD16 bits of both entries: {0, 0, bruflush, b1} for the branch record, 0 for the target.
  localparam logic [63:0] EntBits = 64'((1 << ExtW) - 1);
  localparam logic [63:0] BbiMask = 64'(((1 << BbiW) - 1) << ITA_F_PMD16_BBI_LSB);

  logic [63:0]     sel_ip, sel_tgt, common, br_rec, tgt_rec;
  logic [1:0]      sel_pred, sel_s, rec_slot;
  logic            sel_taken, mp, bruflush, b1;
  logic [59:0]     iaddr;
  logic [63:0]     pmd16_q, pmd16_cap, ext_clear, ext_set;
  logic [BbiW-1:0] bbi, bbi_tgt, bbi_new;
  logic [BbiW:0]   bbi_next;   // with the wrap carry
  logic            bbi_wrap;
  logic [NEnt-1:0] ent_cap, ent_br;  // entry j captures / captures the branch record

  assign bbi      = pmd16_q[ITA_F_PMD16_BBI_MSB:ITA_F_PMD16_BBI_LSB];
  assign bbi_tgt  = bbi + 1'b1;
  assign bbi_next = {1'b0, bbi} + {{(BbiW - 1){1'b0}}, 2'd2};
  assign bbi_new  = bbi_next[BbiW-1:0];
  assign bbi_wrap = bbi_next[BbiW];

  ita_window_addr u_window (
    .en_i     (cap_o),
    .ip_i     (sel_ip),
    .window_i (slot_ip_i[63:0]),
    .iaddr_o  (iaddr),
    .second_o (b1)
  );

  // The selected slot's address, formed only in a clock that captures (from a continuous
  // assignment the Verilated model selected it in every clock).
  always_comb begin
    if (cap_o) begin
      sel_ip = slot_ip_i[sel*64 +: 64];
    end else begin
      sel_ip = '0;
    end
  end

  always_comb begin
    if (cap_o) begin
      sel_tgt   = slot_target_i[sel*64 +: 64];
      sel_s     = slot_idx_i[sel*2 +: 2];
      sel_pred  = slot_flags_i[sel*SelW + ITA_SF_BR_PRED_LSB +: 2];
      sel_taken = slot_flags_i[sel*SelW + ITA_SF_TAKEN_LSB] &&
                  !slot_flags_i[sel*SelW + ITA_SF_PRED_OFF_LSB];
      mp        = (sel_pred == PredPath) || (sel_pred == PredTarget);
      bruflush  = (sel_pred == PredPath);
      rec_slot  = sel_taken ? sel_s : 2'd3;
      common    = {63'd0, mp} << ITA_F_BTB_ENTRY_MP_LSB;  // b = 0 and mp, in both records
      br_rec    = common | ({iaddr, 4'd0} & AddrMask) | (64'd1 << ITA_F_BTB_ENTRY_B_LSB)
                | ({62'd0, rec_slot} << ITA_F_BTB_ENTRY_SLOT_LSB);
      tgt_rec   = common | (ds ? (sel_tgt & (HiAddrMask | LoAddrMask)) : (sel_tgt & AddrMask));
      ext_clear = (EntBits << (ITA_F_PMD16_EXT_LSB + bbi * ExtW))
                | (EntBits << (ITA_F_PMD16_EXT_LSB + bbi_tgt * ExtW));
      ext_set   = (({63'd0, b1} << ExtB1) | ({63'd0, bruflush} << ExtBruflush))
                  << (ITA_F_PMD16_EXT_LSB + bbi * ExtW);
      pmd16_cap = (pmd16_q & ~(ext_clear | BbiMask)) | ext_set
                | ({{(64 - BbiW){1'b0}}, bbi_new} << ITA_F_PMD16_BBI_LSB)
                | ({63'd0, bbi_wrap} << ITA_F_PMD16_FULL_LSB);
      ent_br    = NEnt'(1) << bbi;
      ent_cap   = ent_br | (NEnt'(1) << bbi_tgt);
    end else begin
      {sel_tgt, sel_s, sel_pred, sel_taken, mp, bruflush, rec_slot, common, br_rec, tgt_rec,
       ext_clear, ext_set, pmd16_cap, ent_br, ent_cap} = '0;
    end
  end

  // The eight entries share PMD8's reset value and writable mask (PMD8..15 are alike in
  // include/common/ita/ita_regs.def; tb_ita_btb checks every entry against its own row).
  for (genvar j = 0; j < NEnt; j++) begin : g_ent
    localparam logic [63:0] Reset = Ita ? ITA_PMD8_RESET_ITA : ITA_PMD8_RESET_ITA2;
    localparam logic [63:0] Wmask = Ita ? ITA_PMD8_WMASK_ITA : ITA_PMD8_WMASK_ITA2;
    ita_cap_reg #(
      .ResetValue (Reset),
      .WriteMask  (Wmask)
    ) u_ent (
      .clk_i      (clk_i),
      .rst_ni     (rst_ni),
      .we_i       (pmd_we_i[j]),
      .wdata_i    (wdata_i),
      .cap_i      (ent_cap[j]),
      .cap_data_i (ent_br[j] ? br_rec : tgt_rec),
      .q_o        (),
      .view_o     (pmd_o[j*64 +: 64])
    );
  end

  ita_cap_reg #(
    .ResetValue (Ita ? ITA_PMD16_RESET_ITA : ITA_PMD16_RESET_ITA2),
    .WriteMask  (Ita ? ITA_PMD16_WMASK_ITA : ITA_PMD16_WMASK_ITA2)
  ) u_pmd16 (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .we_i       (pmd_we_i[NEnt]),
    .wdata_i    (wdata_i),
    .cap_i      (cap_o),
    .cap_data_i (pmd16_cap),
    .q_o        (pmd16_q),
    .view_o     (pmd_o[NEnt*64 +: 64])
  );

endmodule
