`include "ev4_defines.vh"

// The Alpha 21064 counter block (family alpha21064): two free-running counters, each counting
// the event its ICCSR MUX field selects, and the interrupt requests they raise every 2^k
// events (docs/ev4.md is the normative model of a cycle; build/gen/ev4/ev4_defs.vh has every
// position, code and period from include/common/ev4/ev4_regs.def).
//
// Clocks: a register write (reg_we_i) is a clock with no record; a step (cyc_valid_i) is a
// clock consuming the record on the record ports (include/common/ev4/ev4_cycle.h's hardware
// fields). The harness never does both in one clock; if it does, the step counts with the
// ICCSR of before the write, and a request it raises survives an SL_CLR of the same clock.
// pmi_o and obs_vis_o follow the registers, so they show the state after each clock.
module ev4_pmu #(
  parameter bit HasPme    = 1'b1,  // 1: the 21064 (pass 3 and later), PME0/PME1 gate the
                                   // counters; 0: the 21064-pass2, the counters always count
  parameter int Ctr0Width = 16,    // EV4_CTR0_LONG .. 32: COUNT bits of counter 0
  parameter int Ctr1Width = 12,    // EV4_CTR1_LONG .. 32: COUNT bits of counter 1
  parameter bit Mux0Undef = 1'b0   // undefined MUX0 codes: 0 count nothing, 1 count what the
                                   // code with bit 0 clear counts
) (
  input  logic                                   clk_i,
  input  logic                                   rst_ni,
  // register port: a write takes effect at the clock edge; the read is combinational
  input  logic                                   reg_we_i,
  input  logic [`EV4_ADDR_W-1:0]                 reg_addr_i,
  input  logic [63:0]                            reg_wdata_i,
  output logic [63:0]                            reg_rdata_o,   // read of reg_addr_i
  // cycle record (consumed at the clock edge when cyc_valid_i = 1)
  input  logic                                   cyc_valid_i,
  input  logic [`EV4_MODE_W-1:0]                 mode_i,        // ev4_mode
  input  logic [`EV4_NISSUE_W-1:0]               nissue_i,      // instructions issued, 0..2
  input  logic [`EV4_MAX_ISSUE*`EV4_CLASS_W-1:0] cls_i,         // ev4_class of slot i, EV4_CLASS_W bits each
  input  logic [`EV4_MAX_ISSUE-1:0]              replay_i,      // slot i is a replayed load
  input  logic [`EV4_STALL_W-1:0]                stall_i,       // ev4_stall
  input  logic                                   dmiss_i,
  input  logic                                   imiss_i,
  input  logic                                   mispredict_i,
  input  logic                                   pin0_i,
  input  logic                                   pin1_i,
  // interrupt and observation
  output logic                                   pmi_o,         // (HIRR & HIER) of either counter
  output logic [`EV4_NVIS*64-1:0]                obs_vis_o      // visible register v at [v*64 +: 64]
);

  `include "ev4_defs.vh"

  // replay_i is the record's own account of a replayed load: the replay is also an issued
  // load in cls_i, and that is what PF_LOADI counts (docs/ev4.md, "Counting"). The port keeps
  // the record's hardware fields whole for the waveforms.

  logic [63:0] iccsr;

  // ---- qualification: which counters count in this clock, and by how much ---------------------
  logic                  en0, en1;
  logic [`EV4_MUX0_W-1:0] mux0;
  logic [`EV4_MUX1_W-1:0] mux1;
  logic [2:0]            inc0, inc1;

  assign en0  = cyc_valid_i && (!HasPme || iccsr[EV4_F_ICCSR_PME0_LSB]);
  assign en1  = cyc_valid_i && (!HasPme || iccsr[EV4_F_ICCSR_PME1_LSB]);
  assign mux0 = iccsr[EV4_F_ICCSR_MUX0_MSB:EV4_F_ICCSR_MUX0_LSB];
  assign mux1 = iccsr[EV4_F_ICCSR_MUX1_MSB:EV4_F_ICCSR_MUX1_LSB];

  ev4_evt_inc #(
    .MuxW       (`EV4_MUX0_W),
    .Kinds      (EV4_MUX0_KINDS),
    .Halves     (1'b1),
    .UndefAlias (Mux0Undef)
  ) u_inc0 (
    .mux_i        (mux0),
    .mode_i       (mode_i),
    .nissue_i     (nissue_i),
    .cls_i        (cls_i),
    .stall_i      (stall_i),
    .dmiss_i      (dmiss_i),
    .imiss_i      (imiss_i),
    .mispredict_i (mispredict_i),
    .pin0_i       (pin0_i),
    .pin1_i       (pin1_i),
    .inc_o        (inc0)
  );

  ev4_evt_inc #(
    .MuxW       (`EV4_MUX1_W),
    .Kinds      (EV4_MUX1_KINDS),
    .Halves     (1'b0),
    .UndefAlias (1'b0)
  ) u_inc1 (
    .mux_i        (mux1),
    .mode_i       (mode_i),
    .nissue_i     (nissue_i),
    .cls_i        (cls_i),
    .stall_i      (stall_i),
    .dmiss_i      (dmiss_i),
    .imiss_i      (imiss_i),
    .mispredict_i (mispredict_i),
    .pin0_i       (pin0_i),
    .pin1_i       (pin1_i),
    .inc_o        (inc1)
  );

  // ---- counting ---------------------------------------------------------------------------------
  logic [Ctr0Width-1:0] ctr0_count;
  logic [Ctr1Width-1:0] ctr1_count;
  logic                 ctr0_half, ctr1_half_unused;
  logic [1:0]           crossed;

  ev4_counter #(
    .Width     (Ctr0Width),
    .Halves    (1'b1),
    .LongLog2  (EV4_CTR0_LONG),
    .ShortLog2 (EV4_CTR0_SHORT)
  ) u_ctr0 (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .en_i    (en0),
    .inc_i   (inc0),
    .pc_i    (iccsr[EV4_F_ICCSR_PC0_LSB]),
    .count_o (ctr0_count),
    .half_o  (ctr0_half),
    .cross_o (crossed[0])
  );

  ev4_counter #(
    .Width     (Ctr1Width),
    .Halves    (1'b0),
    .LongLog2  (EV4_CTR1_LONG),
    .ShortLog2 (EV4_CTR1_SHORT)
  ) u_ctr1 (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .en_i    (en1),
    .inc_i   (inc1),
    .pc_i    (iccsr[EV4_F_ICCSR_PC1_LSB]),
    .count_o (ctr1_count),
    .half_o  (ctr1_half_unused),
    .cross_o (crossed[1])
  );

  // ---- registers, requests and the read port --------------------------------------------------
  ev4_regs #(
    .HasPme    (HasPme),
    .Ctr0Width (Ctr0Width),
    .Ctr1Width (Ctr1Width)
  ) u_regs (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .we_i         (reg_we_i),
    .addr_i       (reg_addr_i),
    .wdata_i      (reg_wdata_i),
    .rdata_o      (reg_rdata_o),
    .cross_i      (crossed),
    .ctr0_count_i (ctr0_count),
    .ctr0_half_i  (ctr0_half),
    .ctr1_count_i (ctr1_count),
    .iccsr_o      (iccsr),
    .pmi_o        (pmi_o),
    .obs_vis_o    (obs_vis_o)
  );

endmodule
