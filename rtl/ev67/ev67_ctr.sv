// One counter of the 21264/EV67 counter block with its two-stage overflow latch
// (docs/ev67.md, "Clocks": write, step 4 and step 5; "Precautions" 1 and 3).
//  - A PCTR_CTL write (load_i) stores load_val_i and shifts the latch once without
//    delivering: S2 = S1, S1 = 0 (the bit that was in S2 is lost).
//  - A step (step_i) adds inc_i modulo 2^Width; the carry out of the top bit enters S1 only
//    when latch_en_i (a ProfileMe fetch-count carry or a counter-0 carry in a window is no
//    overflow). Before it, S2 delivers (deliver_o, into the request) and takes S1, or with
//    hold_i (a parked counter, ParkBlock) keeps its bits and gathers S1's.
//  - near_o: the count is above its legal write maximum Wmax ("at the overflow threshold").
module ev67_ctr #(
  parameter int               Width = 20,
  parameter logic [Width-1:0] Wmax  = '1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             load_i,      // PCTR_CTL write clock
  input  logic [Width-1:0] load_val_i,  // the value's field for this counter
  input  logic             step_i,      // step clock
  input  logic [3:0]       inc_i,       // this step's increment, 0..8
  input  logic             latch_en_i,  // this step's carry is an overflow
  input  logic             hold_i,      // deliveries held back in this step
  output logic [Width-1:0] count_o,     // the true count
  output logic             near_o,
  output logic             s1_o,
  output logic             s2_o,
  output logic             deliver_o    // S2 raises the request in this step
);

  logic [Width-1:0] count_q, count_d;
  logic             s1_q, s1_d, s2_q, s2_d;
  logic [Width:0]   sum;
  logic             carry;
  logic [Width-1:0] sum_low;

  assign sum       = {1'b0, count_q} + {{(Width - 3){1'b0}}, inc_i};
  assign sum_low   = sum[Width-1:0];
  assign carry     = sum[Width] && latch_en_i;
  assign deliver_o = step_i && !hold_i && s2_q;

  always_comb begin
    count_d = count_q;
    s1_d    = s1_q;
    s2_d    = s2_q;
    if (load_i) begin
      count_d = load_val_i;
      s2_d    = s1_q;
      s1_d    = 1'b0;
    end else if (step_i) begin
      count_d = sum_low;
      s2_d    = hold_i ? (s2_q || s1_q) : s1_q;
      s1_d    = carry;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      count_q <= '0;
      s1_q    <= 1'b0;
      s2_q    <= 1'b0;
    end else begin
      count_q <= count_d;
      s1_q    <= s1_d;
      s2_q    <= s2_d;
    end
  end

  assign count_o = count_q;
  assign near_o  = count_q > Wmax;
  assign s1_o    = s1_q;
  assign s2_o    = s2_q;

endmodule
