// Check bookkeeping shared by the sv_tests testbenches. Included inside a testbench module
// body after `define TB_NAME "<name>"; the testbench calls tb_done() at its end.

int unsigned tb_checks = 0;
int unsigned tb_fails  = 0;

task automatic check(input logic cond, input string what);
  tb_checks++;
  if (cond !== 1'b1) begin
    tb_fails++;
    $display("FAIL %s: %s", `TB_NAME, what);
  end
endtask

task automatic check_eq(input logic [63:0] got, input logic [63:0] exp, input string what);
  tb_checks++;
  if (got !== exp) begin
    tb_fails++;
    $display("FAIL %s: %s: got 0x%016h, expected 0x%016h", `TB_NAME, what, got, exp);
  end
endtask

// A capture unit's en_o (its "may capture in this clock", which gates work in the top), after
// a clock of dut d: 1 in every clock that captures, 0 without a step or when frozen.
task automatic check_unit_en(input int d, input logic cap, input logic en, input logic step,
                             input logic fr);
  if (cap) check(en, $sformatf("dut %0d: en_o is 1 in a clock that captures", d));
  if (!step || fr) check(!en, $sformatf("dut %0d: en_o is 0 without a step or frozen", d));
endtask

// Prints the verdict line the runner looks for; a failure also ends with $fatal so that the
// simulator's exit status is non-zero.
task automatic tb_done;
  if (tb_fails == 0 && tb_checks > 0) begin
    $display("PASS %s (%0d checks)", `TB_NAME, tb_checks);
    $finish;
  end else begin
    $display("FAIL %s (%0d of %0d checks failed)", `TB_NAME, tb_fails, tb_checks);
    $fatal(1, "%s failed", `TB_NAME);
  end
endtask
