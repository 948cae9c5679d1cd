// tb_icarus - the Icarus side of `make bench`: drives ita_pmu (Itanium 2) from a $readmemh
// file written by verilator/bench/vmem.c, one line per clock (the layout is described there and
// declared below as V_*), and prints the final counters so that the benchmark can check
// that Icarus and Verilator counted the same.
//
// Plusargs:
//   +vmem=FILE  the file from verilator/bench/vmem.c
//   +lines=L    its number of lines (vmem prints it); all L are loaded
//   +run=R      simulate only the first R lines (default L).  The benchmark times a run
//               of L lines and one of a few lines; both load the same file, so the
//               difference is the simulation of the records in between.
//
// Output ("icarus:" lines, read by verilator/bench/run_bench.sh):
//   icarus: writes=W records=N pmi=P PMC0=0x...
//   icarus: PMD4 start=0x... final=0x... count=C      (and PMD5..7)
// count is final - start modulo 2^W, start being the counter when the first record arrives:
// the events counted, as `pmusim run` prints them when no counter wrapped.
`include "ita_defines.vh"
module tb_icarus;
`include "ita_defs.vh"
  parameter integer MaxLines = 65536;

  localparam integer S = `ITA_MAX_SLOTS;
  localparam integer V_KIND   = 0;
  localparam integer V_W_ADDR = V_KIND + 1;
  localparam integer V_W_DATA = V_W_ADDR + ITA_ADDR_BITS;
  localparam integer V_CPL    = V_KIND + 1;
  localparam integer V_IS     = V_CPL + 2;
  localparam integer V_POWER  = V_IS + 1;
  localparam integer V_INTR   = V_POWER + 2;
  localparam integer V_UP_WE  = V_INTR + 2;
  localparam integer V_UP     = V_UP_WE + 1;
  localparam integer V_PP_WE  = V_UP + 1;
  localparam integer V_PP     = V_PP_WE + 1;
  localparam integer V_RECIRC = V_PP + 1;
  localparam integer V_NSLOTS = V_RECIRC + 3;
  localparam integer V_IP     = V_NSLOTS + 3;
  localparam integer V_IDX    = V_IP + 64 * S;
  localparam integer V_ENC    = V_IDX + 2 * S;
  localparam integer V_UNIT   = V_ENC + 41 * S;
  localparam integer V_FLAGS  = V_UNIT + 2 * S;
  localparam integer V_DADDR  = V_FLAGS + `ITA_SF_WIDTH * S;
  localparam integer V_BITS   = V_DADDR + 64 * S;

  localparam integer        NCnt     = ITA_PMD4_7_COUNT;
  localparam logic [63:0]   CntMask  = ITA_PMD4_7_WMASK_ITA2;   // 2^W - 1
  localparam integer        VisPmd   = ITA_VIS_PMD4;            // PMD4..7 are consecutive
  localparam integer        FirstPmd = {24'd0, ITA_PMD4_7_FIRST};

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic [V_BITS-1:0] mem [0:MaxLines-1];
  logic [V_BITS-1:0] cur = '0;
  integer nlines, nrun, i, nwrites, nrecords, pmi_pulses, k;
  reg [8*1024-1:0] path;
  logic [63:0] start_pmd [0:NCnt-1];
  logic [63:0] final_pmd;

  logic reg_we, cyc_valid;
  logic pmi;
  logic [`ITA_NVIS*64-1:0] obs_vis;

  assign reg_we    = rst_n && !cur[V_KIND];
  assign cyc_valid = rst_n && cur[V_KIND];

  ita_pmu #(.Model(1), .PmdSext(1'b1), .ThrGe(1'b0)) dut (
    .clk_i        (clk),
    .rst_ni       (rst_n),
    .reg_we_i     (reg_we),
    .reg_addr_i   (cur[V_W_ADDR +: ITA_ADDR_BITS]),
    .reg_wdata_i  (cur[V_W_DATA +: 64]),
    .reg_rdata_o  (),              // the testbench reads through obs_vis_o
    .cyc_valid_i  (cyc_valid),
    .cpl_i        (cur[V_CPL +: 2]),
    .is_i         (cur[V_IS]),
    .power_i      (cur[V_POWER +: 2]),
    .intr_i       (cur[V_INTR +: 2]),
    .up_we_i      (cur[V_UP_WE]),
    .up_i         (cur[V_UP]),
    .pp_we_i      (cur[V_PP_WE]),
    .pp_i         (cur[V_PP]),
    .recirc_i     (cur[V_RECIRC +: 3]),
    .nslots_i     (cur[V_NSLOTS +: 3]),
    .slot_ip_i    (cur[V_IP +: 64 * S]),
    .slot_idx_i   (cur[V_IDX +: 2 * S]),
    .slot_enc_i   (cur[V_ENC +: 41 * S]),
    .slot_unit_i  (cur[V_UNIT +: 2 * S]),
    .slot_flags_i (cur[V_FLAGS +: `ITA_SF_WIDTH * S]),
    .slot_daddr_i (cur[V_DADDR +: 64 * S]),
    .pmi_o        (pmi),
    .obs_vis_o    (obs_vis)
  );

  // The interrupt line is a one-clock pulse after the step that raised it. The bench has no
  // overflow service, so it only counts pulses; the benchmark requires none.
  always @(negedge clk) if (rst_n && pmi) pmi_pulses <= pmi_pulses + 1;

  initial begin
    pmi_pulses = 0;
    nwrites = 0;
    nrecords = 0;
    if (!$value$plusargs("vmem=%s", path)) $fatal(1, "tb_icarus: +vmem=FILE is required");
    if (!$value$plusargs("lines=%d", nlines) || nlines < 1)
      $fatal(1, "tb_icarus: +lines=L (L >= 1, the line count vmem printed) is required");
    if (nlines > MaxLines)
      $fatal(1, "tb_icarus: +lines=%0d: expected at most %0d (recompile with -Ptb_icarus.MaxLines=N)",
             nlines, MaxLines);
    if (!$value$plusargs("run=%d", nrun)) nrun = nlines;
    if (nrun < 1 || nrun > nlines)
      $fatal(1, "tb_icarus: +run=%0d: expected 1..%0d (+lines)", nrun, nlines);
    for (k = 0; k < NCnt; k = k + 1) start_pmd[k] = '0;
    $readmemh(path, mem, 0, nlines - 1);

    #1 clk = 1'b1;                    // one clock in reset
    #1 clk = 1'b0;
    rst_n = 1'b1;
    for (i = 0; i < nrun; i = i + 1) begin
      cur = mem[i];
      if (cur[V_KIND] === 1'bx) $fatal(1, "tb_icarus: %0s: line %0d is missing or not hex", path, i + 1);
      if (cur[V_KIND]) begin
        // Counters as the first record arrives: after every configuration write.
        if (nrecords == 0)
          for (k = 0; k < NCnt; k = k + 1) start_pmd[k] = obs_vis[(VisPmd + k) * 64 +: 64];
        nrecords = nrecords + 1;
      end else begin
        if (nrecords != 0)
          $fatal(1, "tb_icarus: %0s: line %0d: register write after the first record", path, i + 1);
        nwrites = nwrites + 1;
      end
      #1 clk = 1'b1;
      #1 clk = 1'b0;
    end
    #1;
    $display("icarus: writes=%0d records=%0d pmi=%0d PMC0=0x%h", nwrites, nrecords, pmi_pulses,
             obs_vis[ITA_VIS_PMC0 * 64 +: 64]);
    for (k = 0; k < NCnt; k = k + 1) begin
      final_pmd = obs_vis[(VisPmd + k) * 64 +: 64];
      $display("icarus: PMD%0d start=0x%h final=0x%h count=%0d", FirstPmd + k,
               start_pmd[k], final_pmd, (final_pmd - start_pmd[k]) & CntMask);
    end
    $finish;
  end
endmodule
