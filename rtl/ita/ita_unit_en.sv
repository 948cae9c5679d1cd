// Whether an EAR or the BTB may capture in this clock (combinational; docs/ita-ear-btb.md,
// "Common rules"): a step, not frozen, the cycle's privilege level in the unit's plm, its
// monitor enabled (pm = 1: PSR.pp, 0: PSR.up) and the instruction set not masked by its ism
// (a unit without an ism, PMC12, ties it to 0).
module ita_unit_en (
  input  logic       step_i,    // a cycle record is consumed at this clock
  input  logic       fr_i,      // PMC0.fr before the clock
  input  logic [1:0] cpl_i,
  input  logic       is_i,      // 0 IA-64, 1 IA-32
  input  logic       psr_up_i,  // effective PSR of this cycle
  input  logic       psr_pp_i,
  input  logic [3:0] plm_i,
  input  logic       pm_i,
  input  logic [1:0] ism_i,     // bit k = 1 masks instruction set k
  output logic       en_o
);

  // A unit that is not programmed has plm = 0 (PMC10..12's reset value): one test, and the
  // rest is formed only for a unit that may count at some level. (Two variables in the gated
  // branch keep it a branch in the Verilated model, which otherwise evaluates every term in
  // every clock; docs/bench-history.md, "Eighteenth round".)
  logic lvl_ok;  // the cycle's privilege level and instruction set are the unit's
  always_comb begin
    if (step_i && plm_i != 4'd0) begin
      lvl_ok = plm_i[cpl_i] && !ism_i[is_i];
      en_o   = lvl_ok && !fr_i && (pm_i ? psr_pp_i : psr_up_i);
    end else begin
      lvl_ok = 1'b0;
      en_o   = 1'b0;
    end
  end

endmodule
