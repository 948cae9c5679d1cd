// Counting qualification of one generic counter (combinational; semantics.md steps 2 and 4):
// whether the counter may count in this clock (a step, not frozen, privilege level, instruction
// set, monitor enable) and by how much (the threshold applied to n).
//
// Which (cpl, instruction set, PSR.up, PSR.pp) the PMC's plm / ism / pm let count is decoded
// when the PMC is written, as the PMC stores the value, into a 32-entry table kept in flops
// beside it (as pmu_evt_sel decodes the event select): a clock looks its entry up instead of
// taking the three fields apart for every counter (docs/bench.md).
module pmu_cnt_qual #(
  parameter int          NW       = 3,
  parameter bit          ThrGe    = 0,    // 0: threshold t counts when n > t; 1: when n >= t
  parameter logic [63:0] PmcReset = 64'h0,  // PMC<i>'s reset value and writable mask, as its
  parameter logic [63:0] PmcWmask = '1      // pmu_pmc_gen stores a write
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          wr_i,        // the register port writes in this clock
  input  logic          pmc_sel_i,   // ... PMC<i> (as pmu_pmc_gen)
  input  logic [63:0]   pmc_wdata_i, // with this value
  input  logic [63:0]   pmc_i,       // PMC<i> stored value (its threshold)
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

  `include "pmu_defs.vh"

  logic [PMU_F_PMC_GEN_THRES_W-1:0] thres;
  logic                             thres_met;

  assign thres = pmc_i[PMU_F_PMC_GEN_THRES_MSB:PMU_F_PMC_GEN_THRES_LSB];

  // Entry {cpl, is, up, pp} is 1 when plm has cpl, ism does not exclude instruction set is
  // (ism bit k = 1 disables set k; ism = 3 never counts), and the monitor enable the PMC
  // reads is 1 (pm = 1: a privileged monitor, enabled by PSR.pp; pm = 0: a user monitor, by
  // PSR.up).
  function automatic logic [31:0] en_table(input logic [63:0] pmc);
    logic [PMU_F_PMC_GEN_PLM_W-1:0] plm;
    logic [PMU_F_PMC_GEN_ISM_W-1:0] ism;
    logic                           pm;
    logic [4:0]                     key;  // {cpl, is, up, pp}
    logic [31:0]                    t;
    plm = pmc[PMU_F_PMC_GEN_PLM_MSB:PMU_F_PMC_GEN_PLM_LSB];
    ism = pmc[PMU_F_PMC_GEN_ISM_MSB:PMU_F_PMC_GEN_ISM_LSB];
    pm  = pmc[PMU_F_PMC_GEN_PM_LSB];
    for (int i = 0; i < 32; i++) begin
      key  = 5'(i);
      t[i] = plm[key[4:3]] && !ism[key[2]] && (pm ? key[0] : key[1]);
    end
    en_table = t;
  endfunction

  // What a write stores (pmu_pmc_gen): bits outside the writable mask keep their reset value.
  function automatic logic [63:0] stored(input logic [63:0] wdata);
    stored = (wdata & PmcWmask) | (PmcReset & ~PmcWmask);
  endfunction

  logic [31:0] en_tab_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      en_tab_q <= en_table(PmcReset);
    end else if (wr_i) begin
      if (pmc_sel_i) begin
        en_tab_q <= en_table(stored(pmc_wdata_i));
      end
    end
  end

  assign en_o = step_i && !fr_i && en_tab_q[{cpl_i, is_i, psr_up_i, psr_pp_i}];

  // Both sides zero-extended to one common width before comparing.
  always_comb begin
    if (ThrGe) begin
      thres_met = ({{PMU_F_PMC_GEN_THRES_W{1'b0}}, n_i} >= {{NW{1'b0}}, thres});
    end else begin
      thres_met = ({{PMU_F_PMC_GEN_THRES_W{1'b0}}, n_i} > {{NW{1'b0}}, thres});
    end
  end

  // Threshold 0 adds n; otherwise the cycle adds 1 when n passes the threshold.
  assign inc_o = (thres == '0) ? n_i : {{(NW - 1){1'b0}}, thres_met};

endmodule
