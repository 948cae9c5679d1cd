// ita_counter at both counter widths (Itanium 32, Itanium 2 47): write beats increment beats
// hold, multi-increments, the wrap at 2^W-1 and its carry, reset. cnt_o shows the clock's
// increment already added (the record in flight), so the counts are checked after the edge
// with en and we dropped: then cnt_o is the stored count.
module tb_ita_counter;

  `define TB_NAME "tb_ita_counter"
  `include "tb_common.svh"

  localparam int IncW = 3;

  logic            clk = 1'b0;
  logic            rst_n = 1'b0;
  logic            we = 1'b0;
  logic [63:0]     wdata = '0;
  logic            en = 1'b0;
  logic [IncW-1:0] inc = '0;
  logic [31:0]     cnt32;
  logic [46:0]     cnt47;
  logic            carry32, carry47;

  always #5 clk = ~clk;

  ita_counter #(.Width(32), .IncWidth(IncW)) u_cnt32 (
    .clk_i   (clk),
    .rst_ni  (rst_n),
    .we_i    (we),
    .wdata_i (wdata[31:0]),
    .en_i    (en),
    .inc_i   (inc),
    .cnt_o   (cnt32),
    .carry_o (carry32)
  );

  ita_counter #(.Width(47), .IncWidth(IncW)) u_cnt47 (
    .clk_i   (clk),
    .rst_ni  (rst_n),
    .we_i    (we),
    .wdata_i (wdata[46:0]),
    .en_i    (en),
    .inc_i   (inc),
    .cnt_o   (cnt47),
    .carry_o (carry47)
  );

  localparam logic [63:0] Max32 = 64'hffff_ffff;
  localparam logic [63:0] Max47 = 64'h7fff_ffff_ffff;

  task automatic tick;
    @(posedge clk);
    #1;
  endtask

  // Drive one clock and check the carry seen before the edge and both counts after it.
  task automatic clock_and_check(input logic exp_c32, input logic exp_c47,
                                 input logic [63:0] exp32, input logic [63:0] exp47,
                                 input string what);
    #1;
    check(carry32 == exp_c32, {what, ": carry (32-bit)"});
    check(carry47 == exp_c47, {what, ": carry (47-bit)"});
    tick();
    begin
      logic en_was, we_was;
      en_was = en; we_was = we;
      en = 1'b0; we = 1'b0;
      #1;
      check_eq({32'h0, cnt32}, exp32, {what, ": count (32-bit)"});
      check_eq({17'h0, cnt47}, exp47, {what, ": count (47-bit)"});
      en = en_was; we = we_was;
    end
  endtask

  task automatic load(input logic [63:0] v);
    we = 1'b1; wdata = v; en = 1'b0;
    tick();
    we = 1'b0;
  endtask

  initial begin
    // Reset is held across a clock edge, as the harness does.
    tick();
    check_eq({32'h0, cnt32}, 64'h0, "reset value (32-bit)");
    check_eq({17'h0, cnt47}, 64'h0, "reset value (47-bit)");
    rst_n = 1'b1;
    tick();

    // Hold: no enable, no write.
    inc = 3'd5;
    clock_and_check(1'b0, 1'b0, 64'h0, 64'h0, "hold with inc=5 and en=0");

    // Single and multi increments.
    en = 1'b1; inc = 3'd1;
    clock_and_check(1'b0, 1'b0, 64'h1, 64'h1, "inc 1");
    clock_and_check(1'b0, 1'b0, 64'h2, 64'h2, "inc 1 again");
    inc = 3'd6;
    clock_and_check(1'b0, 1'b0, 64'h8, 64'h8, "inc 6");
    inc = 3'd7;
    clock_and_check(1'b0, 1'b0, 64'hf, 64'hf, "inc 7");
    inc = 3'd0;
    clock_and_check(1'b0, 1'b0, 64'hf, 64'hf, "enabled with inc 0");

    // A write beats an increment, and a write of the maximum never carries.
    we = 1'b1; wdata = 64'hffff_ffff_ffff_ffff; en = 1'b1; inc = 3'd7;
    clock_and_check(1'b0, 1'b0, Max32, Max47, "write of all ones with en=1 inc=7");
    we = 1'b0;

    // Wrap by one: carry out, count 0.
    inc = 3'd1;
    clock_and_check(1'b1, 1'b1, 64'h0, 64'h0, "wrap 2^W-1 + 1");
    clock_and_check(1'b0, 1'b0, 64'h1, 64'h1, "after the wrap, no carry");

    // Reaching exactly 2^W-1 does not carry.
    load(64'hffff_ffff_ffff_fffc);
    en = 1'b1; inc = 3'd3;
    clock_and_check(1'b0, 1'b0, Max32, Max47, "2^W-4 + 3 = 2^W-1 without carry");

    // Wrap by a multi-increment: 2^W-3 + 5 = 2 with carry.
    load(64'hffff_ffff_ffff_fffd);
    en = 1'b1; inc = 3'd5;
    clock_and_check(1'b1, 1'b1, 64'h2, 64'h2, "2^W-3 + 5 wraps to 2");

    // Widths differ: 2^32-1 + 1 carries only at 32 bits.
    load(64'h0000_0000_ffff_ffff);
    en = 1'b1; inc = 3'd1;
    clock_and_check(1'b1, 1'b0, 64'h0, 64'h1_0000_0000, "2^32-1 + 1 carries at W=32 only");

    // A write in the clock that wraps: the write wins for the count, and the wrap still
    // carries (the increment is a record's that retires in this clock, before the write).
    load(Max47);
    we = 1'b1; wdata = 64'h1234_5678_9abc; en = 1'b1; inc = 3'd7;
    clock_and_check(1'b1, 1'b1, 64'h5678_9abc, 64'h1234_5678_9abc, "write beats a wrapping increment");
    we = 1'b0; en = 1'b0;

    // Asynchronous reset clears the count without a clock edge.
    @(negedge clk);
    rst_n = 1'b0;
    #1;
    check_eq({32'h0, cnt32}, 64'h0, "async reset (32-bit)");
    check_eq({17'h0, cnt47}, 64'h0, "async reset (47-bit)");
    rst_n = 1'b1;

    tb_done();
  end

endmodule
