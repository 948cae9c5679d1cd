// One generic PMU counter (PMD4..7): Width bits, counting by up to 2^IncWidth-1 per clock.
// A register write beats an increment for the stored value, an increment beats hold.
// carry_o is combinational: it reports the wrap of this clock's increment, written or not,
// so the overflow logic can set its sticky bit at the same edge as the counter wraps.
// cnt_o is the count with this clock's increment added: what a read shows while the
// record in flight is counted (docs/ita-rtl.md, "The record in flight").
module ita_counter #(
  parameter int Width    = 47,
  parameter int IncWidth = 3
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                we_i,     // register-port write of this PMD
  input  logic [Width-1:0]    wdata_i,
  input  logic                en_i,     // counter qualified for counting in this clock
  input  logic [IncWidth-1:0] inc_i,    // amount to add when enabled
  output logic [Width-1:0]    cnt_o,    // the count with this clock's increment
  output logic                carry_o   // the increment of this clock wrapped past 2^Width-1
);

  logic [Width-1:0] cnt_q, cnt_d, cnt_view;
  logic [Width:0]   sum;

  // One extra bit on the left catches the carry out of bit Width-1.
  assign sum = {1'b0, cnt_q} + {{(Width + 1 - IncWidth){1'b0}}, inc_i};

  // A write never overflows: software loads the counter, nothing is counted.
  assign cnt_view = en_i ? sum[Width-1:0] : cnt_q;
  assign cnt_d    = we_i ? wdata_i : cnt_view;
  assign carry_o  = en_i && sum[Width];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_q <= '0;
    end else begin
      cnt_q <= cnt_d;
    end
  end

  assign cnt_o = cnt_view;

endmodule
