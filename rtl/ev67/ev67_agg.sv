`include "ev67_defines.vh"

// Aggregate counting's inputs (docs/ev67.md, "Clocks" steps 2, 3 and 8, "Aggregate
// counting", "Precautions" 5): the retire catch-up backlog, the Bcache gate delay and the
// disabled-read increments, and each counter's aggregate increment for this step.
//  - Every step, whatever the mode and the enables: t = BACKLOG + nretire, d = min(t, 8),
//    BACKLOG = min(t - d, 15) (a record above the limits saturates); g = BCG[2], then
//    BCG = {BCG[1:0], en(1)}. Writes leave both alone.
//  - Counter n adds, when en(n), the amount of its kind for SL1 (EV67_SEL rows, SL0 = 0);
//    a Bcache counter adds bcmiss when g, whatever en(1) is now.
//  - QINCn after a step: the ungated amount of counter n's aggregate kind (retires capped
//    at EV67_LIM_QUIRK0_MAX); 0 after a write clock.
module ev67_agg (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   step_i,
  input  logic                   write_i,    // any register write clock
  input  logic [`EV67_CNT_W-1:0] nretire_i,
  input  logic                   bcmiss_i,
  input  logic                   mreplay_i,
  input  logic [1:0]             sl1_i,
  input  logic [1:0]             en_i,       // en(n) at the start of the step
  output logic [3:0]             d_o,        // this step's counted retires
  output logic [3:0]             inc0_o,     // aggregate increments
  output logic [3:0]             inc1_o,
  output logic [2:0]             qinc0_o,    // as stored (the read quirk's addends)
  output logic                   qinc1_o,
  output logic [63:0]            obs_agg_o   // OBS_AGG
);

  `include "ev67_defs.vh"

  localparam int KW = `EV67_KIND_W;
  localparam int BW = EV67_F_OBS_AGG_BACKLOG_W;
  localparam int GW = EV67_F_OBS_AGG_BCG_W;

  logic [BW-1:0] backlog_q, backlog_d;
  logic [GW-1:0] bcg_q, bcg_d;
  logic [2:0]    qinc0_q, qinc0_d;
  logic          qinc1_q, qinc1_d;

  // ---- counted retires and the gate --------------------------------------------------------
  logic [3:0]             nret;
  logic [5:0]             t, rest;
  logic [3:0]             d;
  logic                   g;

  assign nret = (nretire_i > `EV67_CNT_W'(EV67_LIM_RETIRE_MAX)) ? 4'(EV67_LIM_RETIRE_MAX) : nretire_i[3:0];
  assign t    = 6'(backlog_q) + 6'(nret);
  assign d    = (t > 6'(EV67_LIM_RETIRE_ADD_MAX)) ? 4'(EV67_LIM_RETIRE_ADD_MAX) : t[3:0];
  assign rest = t - 6'(d);
  assign g    = bcg_q[GW-1];

  // ---- the aggregate kinds and their amounts ---------------------------------------------------
  logic [KW-1:0] kind0, kind1;
  logic [3:0]    amt0, amt1;

  assign kind0 = EV67_SEL_CTR0_KINDS[{1'b0, sl1_i} * KW +: KW];
  assign kind1 = EV67_SEL_CTR1_KINDS[{1'b0, sl1_i} * KW +: KW];

  function automatic logic [3:0] amount(input logic [KW-1:0] kind, input logic [3:0] dd,
                                        input logic bc, input logic mr);
    case (kind)
      EV67_KIND_RETIRED:    amount = dd;
      EV67_KIND_CYCLES:     amount = 4'd1;
      EV67_KIND_BCACHE:     amount = {3'b000, bc};
      EV67_KIND_MBOXREPLAY: amount = {3'b000, mr};
      default:              amount = 4'd0;  // UNDEF (INUMDELAY is a ProfileMe kind only)
    endcase
  endfunction

  assign amt0   = amount(kind0, d, bcmiss_i, mreplay_i);
  assign amt1   = amount(kind1, d, bcmiss_i, mreplay_i);
  assign inc0_o = en_i[0] ? amt0 : 4'd0;
  assign inc1_o = (kind1 == EV67_KIND_BCACHE) ? (g ? amt1 : 4'd0) : (en_i[1] ? amt1 : 4'd0);
  assign d_o    = d;

  // ---- next state (Icarus takes no constant part-selects inside always_comb) -------------------
  logic [BW-1:0] backlog_step;
  logic [GW-1:0] bcg_step;
  logic [2:0]    qinc0_step;
  logic          qinc1_step;

  assign backlog_step = (rest > 6'(EV67_LIM_BACKLOG_MAX)) ? BW'(EV67_LIM_BACKLOG_MAX) : rest[BW-1:0];
  assign bcg_step     = {bcg_q[GW-2:0], en_i[1]};
  assign qinc0_step   = (kind0 == EV67_KIND_RETIRED && amt0 > 4'(EV67_LIM_QUIRK0_MAX)) ? 3'(EV67_LIM_QUIRK0_MAX)
                                                                                      : amt0[2:0];
  assign qinc1_step   = amt1[0];

  // ---- next state------------------------------------------------------------------------------
  always_comb begin
    backlog_d = backlog_q;
    bcg_d     = bcg_q;
    qinc0_d   = qinc0_q;
    qinc1_d   = qinc1_q;
    if (write_i) begin
      qinc0_d = 3'd0;
      qinc1_d = 1'b0;
    end else if (step_i) begin
      backlog_d = backlog_step;
      bcg_d     = bcg_step;
      qinc0_d   = qinc0_step;
      qinc1_d   = qinc1_step;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      backlog_q <= '0;
      bcg_q     <= '0;
      qinc0_q   <= 3'd0;
      qinc1_q   <= 1'b0;
    end else begin
      backlog_q <= backlog_d;
      bcg_q     <= bcg_d;
      qinc0_q   <= qinc0_d;
      qinc1_q   <= qinc1_d;
    end
  end

  assign qinc0_o   = qinc0_q;
  assign qinc1_o   = qinc1_q;
  assign obs_agg_o = (64'(backlog_q) << EV67_F_OBS_AGG_BACKLOG_LSB)
                   | (64'(bcg_q) << EV67_F_OBS_AGG_BCG_LSB)
                   | (64'(qinc0_q) << EV67_F_OBS_AGG_QINC0_LSB)
                   | (64'(qinc1_q) << EV67_F_OBS_AGG_QINC1_LSB);

endmodule
