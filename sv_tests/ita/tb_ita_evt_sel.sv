`include "ita_defines.vh"

// ita_evt_sel against every row of the event table: the generated rows
// (build/gen/ita/ita_evt_rows.svh, one per modelled event of each model's event table,
// include/common/ita/ita_events.def and ita2_events.def) are included here too, each calling check_row
// with the row's model and columns, so every modelled event is checked on the RTL, and a row the
// RTL lost or read with another row's column fails.
// Eight instances share the inputs: Itanium (Model=0) and Itanium 2 (Model=1), each on
// PMC4..PMC7. Per row and instance:
//  - the row's code and umask count the occurrences its kind names (docs/ita-semantics.md step 3,
//    written here from that page) on its model's instances, on the counters of its counter
//    mask, and nothing elsewhere;
//  - a slot that lacks one of the kind's flags does not count;
//  - the qualification bit the row's iar / opm / dar columns select (and, for the
//    retired-instruction kind, its umask's IBR pair) is the one that gates the slots; cycle-level
//    kinds ignore qualification;
//  - CPU cycles and retired instructions count nothing in the HALT state;
//  - the EAR / BTB kinds count 1 when their own unit captures (not another unit's capture).
// The enable table the same write decodes (en_tab_o) against every plm, ism and pm: entry
// {cpl, is, up, pp} is 1 exactly when plm has cpl, ism does not exclude instruction set is, and
// the monitor enable pm selects (PSR.pp for a privileged monitor, PSR.up for a user one) is 1.
// Then general events: entries whose code / umask equal (es, umask) add their counts (up to
// 4 x 255); invalid, unqualified, other-code and other-umask entries count nothing.
module tb_ita_evt_sel;

  `define TB_NAME "tb_ita_evt_sel"
  `include "tb_common.svh"
  `include "ita_defs.vh"

  localparam int NSlots = `ITA_MAX_SLOTS;
  localparam int SfW    = `ITA_SF_WIDTH;
  localparam int NW     = 10;
  localparam int NXev   = `ITA_MAX_XEV;
  localparam int NDut   = 8;  // instance m*4 + c: Model m, counter PMC(4+c)

  localparam logic [1:0] PowerNormal = 2'd0;
  localparam logic [1:0] PowerHalt   = 2'd3;

  // The stimulus the tasks set (stim); a clock edge applies it to the instances (stim_q):
  // under --timing, Verilator 5.006 leaves this combinational module's output stale when an
  // initial block drives its inputs directly (an event kind selected after a power-state
  // change counted 0), so the inputs come from flops, as they do in ita_pmu.
  typedef struct packed {
    logic [63:0]           pmc_ita, pmc_ita2;  // by model: the code column differs
    logic [1:0]            power;
    logic [2:0]            recirc;
    logic [2:0]            nslots;
    logic [NSlots*SfW-1:0] slot_flags;
    logic [NSlots*32-1:0]  slot_tags;   // slot s's {inst_q, mem_q} at [s*32 +: 20]
    logic [2:0]            cap;        // {btb, dear, iear} capture in this cycle
    logic [NXev-1:0]       xev_valid, xev_qual;
    logic [NXev*8-1:0]     xev_code, xev_count;
    logic [NXev*4-1:0]     xev_umask;
  } stim_t;

  logic          clk = 1'b0;
  stim_t         stim = '0, stim_q = '0;
  logic [NW-1:0] n [NDut + 1];  // n[NDut]: the masked instance below
  logic [31:0]   en_tab [NDut + 1];

  always #5 clk = ~clk;

  always_ff @(posedge clk) stim_q <= stim;

  // An Itanium PMC4 with the model's writable mask: bit 7 of its event select is not
  // writable, so the decode must follow what the PMC stores, not the written value. It is
  // instance NDut (n[NDut]), written with masked_wdata.
  localparam logic [63:0] ItaPmc4Reset = ITA_CNT_CFG_RESET_ITA[0 +: 64];
  localparam logic [63:0] ItaPmc4Wmask = ITA_CNT_CFG_WMASK_ITA[0 +: 64];
  logic [63:0] masked_wdata = '0, masked_q = ItaPmc4Reset;

  always_ff @(posedge clk) masked_q <= (masked_wdata & ItaPmc4Wmask) | (ItaPmc4Reset & ~ItaPmc4Wmask);

  // The module decodes its PMC when the PMC is written: every clock writes the value the
  // stimulus flops take at the same edge, so the decode always follows pmc_i.
  for (genvar d = 0; d <= NDut; d++) begin : g_dut
    localparam bit          Masked = d == NDut;
    localparam int          M      = Masked ? 0 : d / 4;
    localparam logic [63:0] Reset  = Masked ? ItaPmc4Reset : 64'h0;
    localparam logic [63:0] Wmask  = Masked ? ItaPmc4Wmask : '1;
    logic [63:0] pmc, pmc_next;
    assign pmc      = Masked ? masked_q : (M == 0) ? stim_q.pmc_ita : stim_q.pmc_ita2;
    assign pmc_next = Masked ? masked_wdata : (M == 0) ? stim.pmc_ita : stim.pmc_ita2;
    ita_evt_sel #(.Model(M), .Counter(Masked ? 4 : 4 + d % 4), .NW(NW), .PmcReset(Reset),
                  .PmcWmask(Wmask)) u_dut (
      .clk_i         (clk),
      .rst_ni        (1'b1),
      .wr_i          (1'b1),
      .pmc_sel_i     (1'b1),
      .pmc_wdata_i   (pmc_next),
      .pmc_i         (pmc),
      .power_i       (stim_q.power),
      .recirc_i      (stim_q.recirc),
      .nslots_i      (stim_q.nslots),
      .slot_flags_i  (stim_q.slot_flags),
      .slot_tags_i   (stim_q.slot_tags),
      .iear_cap_i    (stim_q.cap[0]),
      .dear_cap_i    (stim_q.cap[1]),
      .btb_cap_i     (stim_q.cap[2]),
      .xev_valid_i   (stim_q.xev_valid),
      .xev_code_i    (stim_q.xev_code),
      .xev_umask_i   (stim_q.xev_umask),
      .xev_count_i   (stim_q.xev_count),
      .xev_qual_i    (stim_q.xev_qual),
      .n_o           (n[d]),
      .en_tab_o      (en_tab[d])
    );
  end

  // A PMC4..7 value selecting (es, umask); every other field 0.
  function automatic logic [63:0] event_pmc(input logic [7:0] es, input logic [3:0] umask);
    event_pmc = '0;
    event_pmc[ITA_F_PMC_GEN_ES_MSB:ITA_F_PMC_GEN_ES_LSB]       = es;
    event_pmc[ITA_F_PMC_GEN_UMASK_MSB:ITA_F_PMC_GEN_UMASK_LSB] = umask;
  endfunction

  function automatic logic [15:0] flag(input int lsb);
    flag = 16'd1 << lsb;
  endfunction

  // The flags of a slot that carries one occurrence of `kind` (0: any slot does), written
  // from docs/ita-semantics.md step 3. A branch of type 0 or prediction 0 in the umask means any.
  function automatic logic [15:0] kind_flags(input logic [ITA_KIND_W-1:0] kind, input logic [3:0] umask);
    logic [1:0] br_type, br_pred;
    br_type = (umask[3:2] == 2'd0) ? 2'd2 : umask[3:2];
    br_pred = (umask[1:0] == 2'd0) ? 2'd3 : umask[1:0];
    case (kind)
      ITA_KIND_NOPS:      kind_flags = flag(ITA_SF_NOP_LSB);
      ITA_KIND_PRED_OFF:  kind_flags = flag(ITA_SF_PRED_OFF_LSB);
      ITA_KIND_FP_OPS:    kind_flags = flag(ITA_SF_FP_LSB);
      ITA_KIND_LOADS:     kind_flags = flag(ITA_SF_LOAD_LSB);
      ITA_KIND_STORES:    kind_flags = flag(ITA_SF_STORE_LSB);
      ITA_KIND_BR_DETAIL: kind_flags = (16'(br_type) << ITA_SF_BR_TYPE_LSB) | (16'(br_pred) << ITA_SF_BR_PRED_LSB);
      ITA_KIND_L1D_MISS:  kind_flags = flag(ITA_SF_LOAD_LSB) | flag(ITA_SF_L1D_MISS_LSB);
      ITA_KIND_L1D_RSE:   kind_flags = flag(ITA_SF_LOAD_LSB) | flag(ITA_SF_L1D_MISS_LSB) | flag(ITA_SF_RSE_LSB);
      ITA_KIND_L2_MISS:   kind_flags = flag(ITA_SF_L2_MISS_LSB);
      ITA_KIND_L2_REF:    kind_flags = flag(ITA_SF_L2_REF_LSB);
      default:            kind_flags = 16'd0;  // cycles, retired instructions, recirculations
    endcase
  endfunction

  // The EAR and BTB kinds count their unit's capture (1), qualified by the unit itself.
  function automatic logic is_capture(input logic [ITA_KIND_W-1:0] kind);
    is_capture = (kind == ITA_KIND_IEAR) || (kind == ITA_KIND_DEAR) || (kind == ITA_KIND_BTB);
  endfunction

  function automatic logic is_cycle_level(input logic [ITA_KIND_W-1:0] kind);
    is_cycle_level = (kind == ITA_KIND_CYCLES) || (kind == ITA_KIND_RECIRC) || is_capture(kind);
  endfunction

  // The kinds this testbench knows; a kind added to the .def needs its rule here too.
  function automatic logic known_kind(input logic [ITA_KIND_W-1:0] kind);
    known_kind = is_cycle_level(kind) || kind == ITA_KIND_INST_RET || kind_flags(kind, 4'h0) != 16'd0;
  endfunction

  // Every slot carries `flags`; all slots valid; the given qualification bits in every slot.
  // Applies them (with pmc_*, power, recirc) at the next clock edge.
  task automatic drive(input logic [15:0] flags, input logic [15:0] inst_q, input logic [3:0] mem_q);
    stim.nslots      = 3'(NSlots);
    stim.slot_flags  = {NSlots{flags}};
    stim.slot_tags   = {NSlots{12'd0, inst_q, mem_q}};
    @(posedge clk);
    #1;
  endtask

  // n of every instance against `full` where the row counts (0 elsewhere).
  task automatic expect_n(input int row, input logic [7:0] counters, input int model,
                          input int full, input string what);
    for (int d = 0; d < NDut; d++) begin
      automatic int  m       = d / 4;
      automatic int  ctr     = 4 + d % 4;
      automatic bit  counts  = counters[ctr] && m == model;
      check_eq(64'(n[d]), counts ? 64'(full) : 64'd0,
               $sformatf("row %0d, %s, Model=%0d PMC%0d", row, what, m, ctr));
    end
  endtask

  int rows = 0;

  // The enable table's case (at the end of the initial block).
  logic [3:0]  plm;
  logic [1:0]  ism;
  logic        pm, counts;
  logic [63:0] pmc;

  task automatic check_row(input int model, input logic [7:0] code, input logic [3:0] umask,
                           input logic [7:0] counters, input logic iar,
                           input logic opm, input logic dar, input logic [ITA_KIND_W-1:0] kind,
                           input string name);
    logic [15:0] flags, q_bit;
    logic [3:0]  m_bit;
    logic [1:0]  set;
    int          full;
    int          row;
    row  = rows++;
    check(known_kind(kind), $sformatf("row %0d (%s): kind %0d has a rule in this testbench", row, name, kind));
    stim.pmc_ita2 = (model == 1) ? event_pmc(code, umask) : '0;
    stim.pmc_ita  = (model == 0) ? event_pmc(code, umask) : '0;
    flags  = kind_flags(kind, umask);
    full   = (kind == ITA_KIND_CYCLES || is_capture(kind)) ? 1 : (kind == ITA_KIND_RECIRC) ? 5 : NSlots;
    stim.recirc = 3'd5;
    stim.power  = PowerNormal;
    stim.cap    = 3'b111;

    // A capture kind counts its own unit's capture only.
    if (is_capture(kind)) begin
      stim.cap = (kind == ITA_KIND_IEAR) ? 3'b110 : (kind == ITA_KIND_DEAR) ? 3'b101 : 3'b011;
      drive(flags, '1, '1);
      expect_n(row, counters, model, 0, {name, ": its unit did not capture"});
      stim.cap = 3'b111;
    end

    // Every qualification bit 1: the kind's occurrences count in full.
    drive(flags, '1, '1);
    expect_n(row, counters, model, full, {name, ": every slot carries the event"});

    // A slot without one of the kind's flags (type 0 for a branch) does not count.
    if (flags != 16'd0) begin
      drive(flags & ~(flags & -flags), '1, '1);
      expect_n(row, counters, model, 0, {name, ": one required flag missing"});
    end

    // The qualification bit the row's columns select: memory events (dar) mem_q[{iar, opm}],
    // the others inst_q[{iar, opm}, k], k = the umask's IBR pair for retired instructions.
    set   = {iar, opm};
    q_bit = 16'd1 << {set, (kind == ITA_KIND_INST_RET) ? umask[1:0] : 2'd0};
    m_bit = 4'd1 << set;
    if (dar) begin
      drive(flags, '1, ~m_bit);
      expect_n(row, counters, model, is_cycle_level(kind) ? full : 0, {name, ": its mem_q bit 0"});
      drive(flags, '0, m_bit);
      expect_n(row, counters, model, full, {name, ": only its mem_q bit 1"});
    end else begin
      drive(flags, ~q_bit, '1);
      expect_n(row, counters, model, is_cycle_level(kind) ? full : 0, {name, ": its inst_q bit 0"});
      drive(flags, q_bit, '0);
      expect_n(row, counters, model, full, {name, ": only its inst_q bit 1"});
    end

    // HALT: cycles and retired instructions do not count; the others are not power gated.
    stim.power = PowerHalt;
    drive(flags, '1, '1);
    expect_n(row, counters, model,
             (kind == ITA_KIND_CYCLES || kind == ITA_KIND_INST_RET) ? 0 : full, {name, ": HALT"});
    stim.power = PowerNormal;
  endtask

  // The generated rows, in table order (add_row fills them; one past the end is counted only).
  int                    ntab = 0;
  int                    t_model    [ITA_NEVT_ROWS];
  logic [7:0]            t_code     [ITA_NEVT_ROWS];
  logic [3:0]            t_umask    [ITA_NEVT_ROWS];
  logic [7:0]            t_counters [ITA_NEVT_ROWS];
  logic                  t_iar      [ITA_NEVT_ROWS];
  logic                  t_opm      [ITA_NEVT_ROWS];
  logic                  t_dar      [ITA_NEVT_ROWS];
  logic [ITA_KIND_W-1:0] t_kind     [ITA_NEVT_ROWS];
  string                 t_name     [ITA_NEVT_ROWS];

  task automatic add_row(input int model, input logic [7:0] code, input logic [3:0] umask,
                         input logic [7:0] counters, input logic iar, input logic opm, input logic dar,
                         input logic [ITA_KIND_W-1:0] kind, input string name);
    if (ntab < ITA_NEVT_ROWS) begin
      t_model[ntab] = model; t_code[ntab] = code; t_umask[ntab] = umask;
      t_counters[ntab] = counters; t_iar[ntab] = iar; t_opm[ntab] = opm; t_dar[ntab] = dar;
      t_kind[ntab] = kind; t_name[ntab] = name;
    end
    ntab++;
  endtask

  initial begin
    #1;
    // No event selected (es = 0, umask = 0 is not in the table): nothing counts.
    drive('1, '1, '1);
    expect_n(-1, 8'h00, 1, 0, "es 0");

    // The rows go into a table first and are checked from one call: a simulator that inlines
    // tasks (Verilator) then builds check_row once instead of once per row.
`define ITA_EVT_ROW(MODEL, NAME, CODE, UMASK, COUNTERS, IAR, OPM, DAR, KIND)                 \
    add_row(MODEL, CODE, UMASK, COUNTERS, IAR, OPM, DAR, KIND, `"NAME`");
    `include "ita_evt_rows.svh"
`undef ITA_EVT_ROW
    check(ntab == ITA_NEVT_ROWS, $sformatf("%0d rows included, the tables have %0d modelled rows", ntab,
                                           ITA_NEVT_ROWS));
    for (int r = 0; r < ntab && r < ITA_NEVT_ROWS; r++)
      check_row(t_model[r], t_code[r], t_umask[r], t_counters[r], t_iar[r], t_opm[r], t_dar[r], t_kind[r],
                t_name[r]);

    check(rows == ITA_NEVT_ROWS, $sformatf("%0d rows checked, the tables have %0d modelled rows", rows,
                                           ITA_NEVT_ROWS));

    // ---- the decode follows the stored value ----------------------------------------------
    // Itanium LOADS_RETIRED written with es bit 7 set: the PMC keeps 7 bits, so it counts loads.
    masked_wdata = event_pmc(ITA_EV_LOADS_RETIRED_CODE_ITA | 8'h80, ITA_EV_LOADS_RETIRED_UMASK);
    check(ItaPmc4Wmask[ITA_F_PMC_GEN_ES_MSB] == 1'b0,
          "es bit 7 of the Itanium PMC4 is not writable (else this case tests nothing)");
    drive(flag(ITA_SF_LOAD_LSB), '1, '1);
    check_eq(64'(n[NDut]), 64'(NSlots), "Itanium PMC4 written with es | 0x80 counts its stored es (loads)");
    masked_wdata = '0;

    // ---- general events: entries whose code / umask equal (es, umask) add their counts ------
    // (0x58, 0x3) is no modelled row of either model; each model's instances in turn.
    for (int m = 0; m < 2; m++) begin
      stim.pmc_ita2 = (m == 1) ? event_pmc(8'h58, 4'h3) : '0;
      stim.pmc_ita  = (m == 0) ? event_pmc(8'h58, 4'h3) : '0;
      stim.cap = '0;
      stim.xev_valid = 4'b1111; stim.xev_qual = 4'b1111;
      stim.xev_code  = {8'h58, 8'h58, 8'h58, 8'h58};
      stim.xev_umask = {4'h3, 4'h3, 4'h3, 4'h3};
      stim.xev_count = {8'd255, 8'd200, 8'd100, 8'd1};
      drive(16'd0, '1, '1);
      expect_n(-2, 8'hf0, m, 556, "four general events, up to 255 each, on every counter");
      stim.xev_valid = 4'b1110;                      // entry 0 not valid
      stim.xev_qual  = 4'b1011;                      // entry 2 not qualified
      stim.xev_umask = {4'h2, 4'h3, 4'h3, 4'h3};     // entry 3 another umask
      drive(16'd0, '1, '1);
      expect_n(-2, 8'hf0, m, 100, "invalid, unqualified and other-umask entries count nothing");
      stim.xev_code  = {8'h58, 8'h58, 8'hd8, 8'h58}; // entry 1 another code
      drive(16'd0, '1, '1);
      expect_n(-2, 8'hf0, m, 0, "another code counts nothing");
    end
    // ---- the enable table: every plm, ism and pm, on every instance ------------------------
    stim.xev_valid = '0;
    for (int v = 0; v < 128; v++) begin
      plm = 4'(v);
      ism = 2'(v >> 4);
      pm  = 1'(v >> 6);
      pmc = '0;
      pmc[ITA_F_PMC_GEN_PLM_MSB:ITA_F_PMC_GEN_PLM_LSB] = plm;
      pmc[ITA_F_PMC_GEN_ISM_MSB:ITA_F_PMC_GEN_ISM_LSB] = ism;
      pmc[ITA_F_PMC_GEN_PM_LSB] = pm;
      stim.pmc_ita  = pmc;
      stim.pmc_ita2 = pmc;
      drive(16'd0, '0, '0);
      for (int cpl = 0; cpl < 4; cpl++)
        for (int is = 0; is < 2; is++)
          for (int up = 0; up < 2; up++)
            for (int pp = 0; pp < 2; pp++) begin
              counts = plm[cpl] && !ism[is] && (pm ? pp != 0 : up != 0);
              for (int d = 0; d < NDut; d++)
                check_eq(64'(en_tab[d][cpl * 8 + is * 4 + up * 2 + pp]), 64'(counts),
                         $sformatf("instance %0d plm=%0h ism=%0d pm=%0d: cpl %0d is %0d up %0d pp %0d",
                                   d, plm, ism, pm, cpl, is, up, pp));
            end
    end
    tb_done();
  end

endmodule
