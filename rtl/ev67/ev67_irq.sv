// The counter block's interrupt requests (docs/ev67.md, "Clocks" steps 5-8, "Interrupts",
// "Precautions" 2, 4 and 6): the raw requests REQ, the PAL-exit interrupts PEXIT, the mode of
// the last record PAL and the ISUM race flag RACE.
//  - Step: REQ |= the latches' deliveries; then, when the record is not PAL, REQ |= PEXIT and
//    PEXIT = 0; then a window's end sets REQ[0]; then PAL = the record's, and RACE = an
//    ISUM bit (REQ & PCEN) is set that was not at the start of the step.
//  - Write clock: RACE = 0; a PCTR_CTL write arms PEXIT[n] for each counter near its
//    threshold before the write; an HW_INT_CLR write clears REQ[n] and PEXIT[n] for each 1.
//  - isum_o = REQ & PCEN, read as 0 with IsumRace while RACE; pmi_o = an enabled request
//    outside PALmode.
module ev67_irq #(
  parameter bit IsumRace = 1'b0
) (
  input  logic       clk_i,
  input  logic       rst_ni,
  input  logic       step_i,
  input  logic       write_i,       // any register write clock
  input  logic       pal_i,         // the record's mode
  input  logic [1:0] deliver_i,     // the overflow latches deliver
  input  logic       win_end_i,     // a ProfileMe window ends
  input  logic       pctr_we_i,     // PCTR_CTL write
  input  logic [1:0] near_i,        // counters at the threshold before the write
  input  logic       clr_we_i,      // HW_INT_CLR write
  input  logic [1:0] clr_pc_i,      // its PC field
  input  logic [1:0] pcen_i,        // IER_CM.PCEN as stored
  output logic [1:0] req_o,
  output logic [1:0] pexit_o,
  output logic       pal_o,
  output logic       race_o,
  output logic [1:0] isum_o,        // ISUM.PC as a read returns it
  output logic       pmi_o
);

  logic [1:0] req_q, req_d, pexit_q, pexit_d;
  logic       pal_q, pal_d, race_q, race_d;
  logic [1:0] req_latch, req_pal, req_win;

  assign req_latch = req_q | deliver_i;
  assign req_pal   = pal_i ? req_latch : (req_latch | pexit_q);
  assign req_win   = req_pal | {1'b0, win_end_i};

  always_comb begin
    req_d   = req_q;
    pexit_d = pexit_q;
    pal_d   = pal_q;
    race_d  = race_q;
    if (write_i) begin
      race_d = 1'b0;
      if (pctr_we_i) pexit_d = pexit_q | near_i;
      if (clr_we_i) begin
        req_d   = req_q & ~clr_pc_i;
        pexit_d = pexit_d & ~clr_pc_i;
      end
    end else if (step_i) begin
      req_d   = req_win;
      pexit_d = pal_i ? pexit_q : 2'b00;
      pal_d   = pal_i;
      race_d  = |(req_win & pcen_i & ~(req_q & pcen_i));
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_q   <= 2'b00;
      pexit_q <= 2'b00;
      pal_q   <= 1'b1;  // docs/ev67.md, "Registers": the 21264 leaves reset in PALmode
      race_q  <= 1'b0;
    end else begin
      req_q   <= req_d;
      pexit_q <= pexit_d;
      pal_q   <= pal_d;
      race_q  <= race_d;
    end
  end

  assign req_o   = req_q;
  assign pexit_o = pexit_q;
  assign pal_o   = pal_q;
  assign race_o  = race_q;
  assign isum_o  = (IsumRace && race_q) ? 2'b00 : (req_q & pcen_i);
  assign pmi_o   = |(req_q & pcen_i) && !pal_q;

endmodule
