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
