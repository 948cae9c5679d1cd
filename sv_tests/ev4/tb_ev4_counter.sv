// ev4_counter alone: the pair {COUNT, HALF} of counter 0 and a plain counter 1 (docs/ev4.md,
// "Counting" and "Interrupt requests").
//  - increments of 0..4 halves; a half carries into COUNT;
//  - cross_o is the carry out of bit k-1 of COUNT in this clock, for both periods, also when
//    an increment of several units jumps over the multiple, and never without en_i;
//  - the wrap at 2^Width is the crossing of the period k = Width;
//  - a clock without en_i holds.
module tb_ev4_counter;

  `define TB_NAME "tb_ev4_counter"
  `include "tb_common.svh"

  // Small counters so that the crossings come quickly: counter 0 of 6 bits, periods 2^6 and
  // 2^3; counter 1 of 5 bits, periods 2^5 and 2^2.
  logic       clk = 1'b0;
  logic       rst_n = 1'b1;
  logic       en = 1'b0;
  logic [2:0] inc = '0;
  logic       pc = 1'b0;
  logic [5:0] count0;
  logic [4:0] count1;
  logic       half0, half1, cross0, cross1;

  always #5 clk = ~clk;

  ev4_counter #(.Width(6), .Halves(1'b1), .LongLog2(6), .ShortLog2(3)) u_ctr0 (
    .clk_i   (clk),
    .rst_ni  (rst_n),
    .en_i    (en),
    .inc_i   (inc),
    .pc_i    (pc),
    .count_o (count0),
    .half_o  (half0),
    .cross_o (cross0)
  );

  ev4_counter #(.Width(5), .Halves(1'b0), .LongLog2(5), .ShortLog2(2)) u_ctr1 (
    .clk_i   (clk),
    .rst_ni  (rst_n),
    .en_i    (en),
    .inc_i   (inc),
    .pc_i    (pc),
    .count_o (count1),
    .half_o  (half1),
    .cross_o (cross1)
  );

  // A clock with these inputs; the crossings seen just before the edge.
  logic seen0, seen1;
  task automatic clock(input logic e, input logic [2:0] i);
    en = e; inc = i;
    #1;
    seen0 = cross0;
    seen1 = cross1;
    @(posedge clk);
    #1;
    en = 1'b0; inc = '0;
  endtask

  // A software-model check of both counters over a run of increments.
  int unsigned pair0 = 0, val1 = 0;
  task automatic run(input logic e, input logic [2:0] i, input string what);
    int unsigned k0, k1, n;
    logic exp0, exp1;
    n = {29'd0, i};
    k0 = pc ? 3 : 6;
    k1 = pc ? 2 : 5;
    // Crossing: the count (pair0 / 2 for counter 0) passes a multiple of 2^k.
    exp0 = e && (((pair0 + n) >> (k0 + 1)) != (pair0 >> (k0 + 1)));
    exp1 = e && (((val1 + n) >> k1) != (val1 >> k1));
    clock(e, i);
    if (e) begin
      pair0 = (pair0 + n) % 128;
      val1  = (val1 + n) % 32;
    end
    check(seen0 == exp0, $sformatf("%s: counter 0 crossing %0d expected %0d", what, seen0, exp0));
    check(seen1 == exp1, $sformatf("%s: counter 1 crossing %0d expected %0d", what, seen1, exp1));
    check_eq({58'd0, count0}, {32'd0, pair0 >> 1}, {what, ": counter 0 COUNT"});
    check(half0 == pair0[0], {what, ": counter 0 HALF"});
    check_eq({59'd0, count1}, {32'd0, val1}, {what, ": counter 1"});
    check(half1 == 1'b0, {what, ": counter 1 has no HALF"});
  endtask

  initial begin
    #1;
    rst_n = 1'b0;
    #1;
    check(count0 == 0 && half0 == 0 && count1 == 0, "reset: both counters 0");
    rst_n = 1'b1;

    run(1'b1, 3'd1, "one half");
    check(half0 == 1'b1 && count0 == 0, "one half: HALF set, COUNT 0");
    run(1'b1, 3'd1, "second half");
    check(half0 == 1'b0 && count0 == 1, "the second half carries into COUNT");
    run(1'b0, 3'd4, "disabled");
    check(count0 == 1 && count1 == 2, "a clock without en_i holds");

    // Short periods (2^3 for counter 0, 2^2 for counter 1), jumps of 1..4.
    pc = 1'b1;
    for (int n = 0; n < 60; n++)
      run(1'b1, 3'((n * 7 + 3) % 5), $sformatf("short period, step %0d", n));
    // Without en_i nothing crosses, even with an increment that would.
    run(1'b0, 3'd4, "disabled, short period");
    // Long periods: the wraps (k = Width).
    pc = 1'b0;
    for (int n = 0; n < 120; n++)
      run(1'b1, 3'((n * 3 + 1) % 5), $sformatf("long period, step %0d", n));
    // The period changes mid-count: the next crossing is the new period's.
    for (int n = 0; n < 40; n++) begin
      pc = n[2];
      run(1'b1, 3'((n * 5 + 2) % 5), $sformatf("changing period, step %0d", n));
    end

    tb_done();
  end

endmodule
