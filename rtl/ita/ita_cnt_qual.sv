// Counting qualification of one generic counter (combinational; ita-semantics.md steps 2 and 4):
// whether the counter may count in this clock (a step, not frozen, privilege level, instruction
// set, monitor enable) and by how much (the threshold applied to n).
//
// Which (cpl, instruction set, PSR.up, PSR.pp) the PMC's plm / ism / pm let count comes
// decoded: ita_evt_sel decodes them into a 32-entry table when the PMC is written, with the
// event select, so a clock looks its entry up instead of taking the three fields apart for
// every counter (docs/bench.md).
module ita_cnt_qual #(
  parameter int          NW       = 3,
  parameter bit          ThrGe    = 0     // 0: threshold t counts when n > t; 1: when n >= t
) (
  input  logic [63:0]   pmc_i,    // PMC<i> stored value (its threshold)
  input  logic [31:0]   en_tab_i, // entry {cpl, is, up, pp}: plm / ism / pm let it count
  input  logic          step_i,   // a cycle record is consumed at this clock
  input  logic          fr_i,     // PMC0.fr before the clock
  input  logic [1:0]    cpl_i,
  input  logic          is_i,     // 0 IA-64, 1 IA-32
  input  logic          psr_up_i, // effective PSR of this cycle
  input  logic          psr_pp_i,
  input  logic [NW-1:0] n_i,      // occurrences of the selected event
  output logic          en_o,
  output logic [NW-1:0] inc_o
);

  `include "ita_defs.vh"

  logic [ITA_F_PMC_GEN_THRES_W-1:0] thres;
  logic                             thres_met;

  assign thres = pmc_i[ITA_F_PMC_GEN_THRES_MSB:ITA_F_PMC_GEN_THRES_LSB];

  assign en_o = step_i && !fr_i && en_tab_i[{cpl_i, is_i, psr_up_i, psr_pp_i}];

  // Both sides zero-extended to one common width before comparing.
  always_comb begin
    if (ThrGe) begin
      thres_met = ({{ITA_F_PMC_GEN_THRES_W{1'b0}}, n_i} >= {{NW{1'b0}}, thres});
    end else begin
      thres_met = ({{ITA_F_PMC_GEN_THRES_W{1'b0}}, n_i} > {{NW{1'b0}}, thres});
    end
  end

  // Threshold 0 adds n; otherwise the cycle adds 1 when n passes the threshold.
  assign inc_o = (thres == '0) ? n_i : {{(NW - 1){1'b0}}, thres_met};

endmodule
