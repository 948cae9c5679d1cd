// One free-running counter of the 21064 counter block (docs/ev4.md, "Counting" and
// "Interrupt requests"): COUNT is Width bits; with Halves = 1 (counter 0) a HALF bit sits
// below it and inc_i counts halves of the pair {COUNT, HALF}, so a single-issue cycle sets
// HALF and the next one carries it into COUNT.
//  - The counter adds inc_i in a clock with en_i (a step whose PMEn is set) and holds
//    otherwise; it wraps at 2^Width and is never cleared but by reset.
//  - cross_o (combinational): this clock's increment crosses a multiple of the period 2^k,
//    a carry out of bit k-1 of COUNT (the wrap when k = Width), k = ShortLog2 when pc_i is
//    set and LongLog2 otherwise (the .def's EV4_COUNTER periods). Changing pc_i mid-count
//    moves the next request to the next crossing of the new period.
// ShortLog2 <= LongLog2 <= Width; an increment is below 2^ShortLog2 (it is at most 4 halves).
module ev4_counter #(
  parameter int Width     = 16,
  parameter bit Halves    = 1'b0,
  parameter int LongLog2  = 16,
  parameter int ShortLog2 = 12
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,     // counts in this clock
  input  logic [2:0]       inc_i,    // halves (Halves = 1) or events
  input  logic             pc_i,     // period select: 1 = 2^ShortLog2, 0 = 2^LongLog2
  output logic [Width-1:0] count_o,  // COUNT
  output logic             half_o,   // HALF (0 without Halves)
  output logic             cross_o   // the increment of this clock crosses a period
);

  // The pair {COUNT, HALF} (COUNT alone without Halves): bit k-1 of COUNT is bit k-1+Sh.
  localparam int Sh = Halves ? 1 : 0;
  localparam int PW = Width + Sh;

  logic [PW-1:0] pair_q, pair_d;
  logic [PW:0]   old_ext, sum;
  logic          cross_long, cross_short;

  // One extra bit on the left catches the wrap. Adding an increment below 2^j flips bit j
  // exactly when it carries into bit j, so the crossing is that bit's change.
  assign old_ext     = {1'b0, pair_q};
  assign sum         = old_ext + {{(PW - 2){1'b0}}, inc_i};
  assign cross_long  = sum[LongLog2 + Sh] ^ old_ext[LongLog2 + Sh];
  assign cross_short = sum[ShortLog2 + Sh] ^ old_ext[ShortLog2 + Sh];
  assign cross_o     = en_i && (pc_i ? cross_short : cross_long);
  assign pair_d      = en_i ? sum[PW-1:0] : pair_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pair_q <= '0;  // docs/ev4.md, "Clocks": reset clears both counters
    end else begin
      pair_q <= pair_d;
    end
  end

  assign count_o = pair_q[PW-1:Sh];
  if (Halves) begin : g_half
    assign half_o = pair_q[0];
  end else begin : g_no_half
    assign half_o = 1'b0;
  end

endmodule
