// tb_icarus - drives ita_pmu from a $readmemh file written by bench/vmem.c (layout
// there) for the Icarus side of `make bench`, and prints the final counters so the
// benchmark can check that Icarus and Verilator counted the same.
`include "pmu_defines.vh"
module tb_icarus;
`include "pmu_defs.vh"
  localparam integer LineBits = 1152;
  localparam integer MaxLines = 200000;

  logic clk = 1'b0;
  logic rst_n = 1'b0;
  logic [LineBits-1:0] mem [0:MaxLines-1];
  logic [LineBits-1:0] cur;
  integer nlines, i;

  logic reg_we, cyc_valid;
  logic [11:0] reg_addr;
  logic [63:0] reg_wdata, reg_rdata;
  logic pmi;
  logic [`PMU_NVIS*64-1:0] obs_vis;

  assign reg_we    = cur[0] == 1'b0 && rst_n;
  assign cyc_valid = cur[0] == 1'b1 && rst_n;
  assign reg_addr  = cur[12:1];
  assign reg_wdata = cur[76:13];

  ita_pmu #(.Model(1), .PmdSext(1'b1), .ThrGe(1'b0)) dut (
    .clk_i        (clk),
    .rst_ni       (rst_n),
    .reg_we_i     (reg_we),
    .reg_addr_i   (reg_addr),
    .reg_wdata_i  (reg_wdata),
    .reg_rdata_o  (reg_rdata),
    .cyc_valid_i  (cyc_valid),
    .cpl_i        (cur[2:1]),
    .is_i         (cur[3]),
    .power_i      (cur[5:4]),
    .intr_i       (cur[7:6]),
    .up_we_i      (cur[8]),
    .up_i         (cur[9]),
    .pp_we_i      (cur[10]),
    .pp_i         (cur[11]),
    .recirc_i     (cur[14:12]),
    .nslots_i     (cur[17:15]),
    .slot_ip_i    (cur[18 +: 384]),
    .slot_idx_i   (cur[402 +: 12]),
    .slot_enc_i   (cur[414 +: 246]),
    .slot_unit_i  (cur[660 +: 12]),
    .slot_flags_i (cur[672 +: 96]),
    .slot_daddr_i (cur[768 +: 384]),
    .pmi_o        (pmi),
    .obs_vis_o    (obs_vis)
  );

  initial begin
    if (!$value$plusargs("lines=%d", nlines)) nlines = 0;
    $readmemh("build/bench/stream.vmem", mem, 0, nlines - 1);
    cur = '0;
    #1 clk = 1'b1; #1 clk = 1'b0;   // one clock in reset
    rst_n = 1'b1;
    for (i = 0; i < nlines; i = i + 1) begin
      cur = mem[i];
      #1 clk = 1'b1;
      #1 clk = 1'b0;
    end
    $display("icarus: %0d clocks", nlines);
    $display("PMD4=%h PMD5=%h PMD6=%h PMD7=%h", obs_vis[PMU_VIS_PMD4*64 +: 64],
             obs_vis[PMU_VIS_PMD5*64 +: 64], obs_vis[PMU_VIS_PMD6*64 +: 64],
             obs_vis[PMU_VIS_PMD7*64 +: 64]);
    $finish;
  end
endmodule
