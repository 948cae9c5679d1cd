// ita_ovf_ctrl: PMC0 (fr and the sticky overflow bits) and the interrupt pulse. The carries
// of a clock show in pmc0_o and pmi_o during that clock (the record in flight); the checks
// after a clock are made with the carries dropped.
//  - sticky bits are never cleared by hardware;
//  - fr is set only by the carry of a counter with oi = 1;
//  - the interrupt pulses only on the 0->1 of an oi counter's overflow bit;
//  - software writes set and clear fr / ovf (masked) and never raise the interrupt.
module tb_ita_ovf_ctrl;

  `define TB_NAME "tb_ita_ovf_ctrl"
  `include "tb_common.svh"

  // A register laid out like the Itanium's PMC0 (docs/ita-register-map.md): fr at bit 0, the
  // overflow bits of four counters at 7:4, every other bit reads its reset value 0. The
  // module is common to the families: the layout is the testbench's, not a .def's.
  localparam int          NCnt      = 4;
  localparam int          FrLsb     = 0;
  localparam int          OvfLsb    = 4;
  localparam logic [63:0] Reset     = 64'h1;
  localparam logic [63:0] WriteMask = 64'hf1;

  logic            clk = 1'b0;
  logic            rst_n = 1'b0;
  logic            we = 1'b0;
  logic [63:0]     wdata = '0;
  logic [NCnt-1:0] carry = '0;
  logic [NCnt-1:0] oi = '0;
  logic [63:0]     pmc0;
  logic            fr, pmi;

  always #5 clk = ~clk;

  ita_ovf_ctrl #(
    .ResetValue (Reset),
    .WriteMask  (WriteMask),
    .NCounters  (NCnt),
    .FrBit      (FrLsb),
    .OvfLsb     (OvfLsb)
  ) u_dut (
    .clk_i   (clk),
    .rst_ni  (rst_n),
    .we_i    (we),
    .wdata_i (wdata),
    .carry_i (carry),
    .oi_i    (oi),
    .pmc0_o  (pmc0),
    .fr_o    (fr),
    .pmi_o   (pmi)
  );

  localparam logic [63:0] FrBit = 64'd1 << FrLsb;

  function automatic logic [63:0] ovf_bits(input logic [NCnt-1:0] ovf);
    ovf_bits = {{(64 - NCnt){1'b0}}, ovf} << OvfLsb;
  endfunction

  task automatic tick;
    @(posedge clk);
    #1;
  endtask

  task automatic sw_write(input logic [63:0] v);
    we = 1'b1; wdata = v;
    tick();
    we = 1'b0;
  endtask

  // One clock with these carries and oi bits, then idle inputs. pmi_o is high while the
  // carries that raise it are presented (the record in flight); pmi_seen keeps it.
  logic pmi_seen = 1'b0;
  task automatic carry_clock(input logic [NCnt-1:0] c, input logic [NCnt-1:0] o);
    carry = c; oi = o;
    #1;
    pmi_seen = pmi;
    tick();
    carry = '0; oi = '0;
    #1;
  endtask

  initial begin
    tick();
    check_eq(pmc0, Reset, "reset: PMC0 is its reset value (frozen)");
    check(fr == 1'b1, "reset: fr = 1");
    check(pmi == 1'b0, "reset: pmi = 0");
    rst_n = 1'b1;

    // Software unfreezes.
    sw_write(64'h0);
    check_eq(pmc0, 64'h0, "write 0 clears fr");
    check(pmi == 1'b0, "a write raises no interrupt");

    // Carry of counter 0 without oi: sticky bit, no freeze, no interrupt.
    carry_clock(4'b0001, 4'b0000);
    check_eq(pmc0, ovf_bits(4'b0001), "carry without oi sets only its ovf bit");
    check(fr == 1'b0, "carry without oi does not freeze");
    check(pmi_seen == 1'b0, "carry without oi does not interrupt");

    // Carry of counter 1 with oi: ovf, fr, one-clock interrupt pulse.
    carry_clock(4'b0010, 4'b0010);
    check_eq(pmc0, ovf_bits(4'b0011) | FrBit, "oi carry sets its ovf bit and fr");
    check(pmi_seen == 1'b1, "oi carry on a clear ovf bit raises pmi");
    tick();
    check(pmi == 1'b0, "pmi is a one-clock pulse");
    repeat (3) tick();
    check_eq(pmc0, ovf_bits(4'b0011) | FrBit, "sticky bits and fr hold over idle clocks");

    // oi on a counter that did not carry does nothing.
    carry_clock(4'b0000, 4'b1111);
    check_eq(pmc0, ovf_bits(4'b0011) | FrBit, "oi without carry changes nothing");
    check(pmi_seen == 1'b0, "oi without carry raises no pmi");

    // Software clears fr but keeps ovf[1]: a second oi carry of counter 1 freezes again
    // without a new interrupt (no 0->1 edge of its bit).
    sw_write(ovf_bits(4'b0011));
    check_eq(pmc0, ovf_bits(4'b0011), "write clears fr, keeps the ovf bits written");
    carry_clock(4'b0010, 4'b0010);
    check_eq(pmc0, ovf_bits(4'b0011) | FrBit, "second oi carry freezes again");
    check(pmi_seen == 1'b0, "second oi carry on a set ovf bit raises no pmi");

    // A carry without oi on a counter whose bit is set: no change, no freeze.
    sw_write(ovf_bits(4'b0001));
    carry_clock(4'b0001, 4'b0000);
    check_eq(pmc0, ovf_bits(4'b0001), "repeat carry without oi leaves fr clear");

    // Two counters overflow in one clock, both oi: both bits, one pulse.
    sw_write(64'h0);
    carry_clock(4'b1100, 4'b1100);
    check_eq(pmc0, ovf_bits(4'b1100) | FrBit, "two oi carries in one clock set both bits");
    check(pmi_seen == 1'b1, "two oi carries raise pmi");
    tick();
    check(pmi == 1'b0, "pmi drops after one clock");

    // One oi counter with its bit already set, another with its bit clear: interrupt.
    sw_write(ovf_bits(4'b0100));
    carry_clock(4'b1100, 4'b1100);
    check_eq(pmc0, ovf_bits(4'b1100) | FrBit, "mixed carries set both bits");
    check(pmi_seen == 1'b1, "a new 0->1 among the carries raises pmi");

    // Carry with oi = 0 on one counter and oi = 1 on another already-set one: no interrupt.
    sw_write(ovf_bits(4'b1000));
    carry_clock(4'b1001, 4'b1000);
    check_eq(pmc0, ovf_bits(4'b1001) | FrBit, "fr set by the oi counter only");
    check(pmi_seen == 1'b0, "the new bit without oi raises no pmi");

    // Software writes: masked, may set every writable bit, never interrupt.
    sw_write(64'hffff_ffff_ffff_ffff);
    check_eq(pmc0, WriteMask, "write of all ones keeps only the writable bits");
    check(pmi == 1'b0, "setting ovf bits by software raises no pmi");
    tick();
    check(pmi == 1'b0, "still no pmi one clock later");
    sw_write(ovf_bits(4'b0110));
    check_eq(pmc0, ovf_bits(4'b0110), "software clears fr and some ovf bits");

    // A write in the same clock as a carry: the write wins for PMC0 (the carry's record
    // retires first).
    we = 1'b1; wdata = 64'h0;
    carry_clock(4'b0001, 4'b0001);
    we = 1'b0;
    check_eq(pmc0, 64'h0, "write beats a carry in the same clock");

    // Reset returns to the reset value.
    @(negedge clk);
    rst_n = 1'b0;
    #1;
    check_eq(pmc0, Reset, "async reset restores the reset value");
    check(pmi == 1'b0, "async reset clears pmi");
    rst_n = 1'b1;

    tb_done();
  end

endmodule
