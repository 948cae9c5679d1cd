// One DBR pair against the data access of one retired IA-64 slot (combinational;
// ita-semantics.md, "Primitive matches"):
//   hit = (LOAD or STORE) && plm[cpl] && ((daddr ^ addr) & {8'hff, mask[55:0]}) == 0
// Address bits above the mask field are always compared. The r / w bits are debug-only: the
// PMU's data-address check ignores them.
// Evaluated only when en_i (the slot retires in this clock); otherwise hit_o is 0, and the
// Verilated model skips the compare for the slots past nslots (docs/bench.md).
module ita_dbr_match (
  input  logic        en_i,        // the slot retires in this clock
  input  logic [63:0] daddr_i,     // data address of the slot's load or store
  input  logic        mem_i,       // the slot is a load or a store
  input  logic [1:0]  cpl_i,
  input  logic [63:0] dbr_addr_i,  // DBR[2k]: the address
  input  logic [63:0] dbr_mask_i,  // DBR[2k+1]: mask, plm (r, w are debug-only)
  output logic        hit_o
);

  `include "ita_defs.vh"

  // Mask bit i covers address bit i; the address bits above the mask field are always
  // compared.
  localparam int MaskW = ITA_F_DBR_MASK_MASK_W;

  logic [63:0]                    addr, cmp_mask;
  logic [ITA_F_DBR_MASK_PLM_W-1:0] plm;

  assign addr = dbr_addr_i[ITA_F_BR_ADDR_ADDR_MSB:ITA_F_BR_ADDR_ADDR_LSB];
  assign plm  = dbr_mask_i[ITA_F_DBR_MASK_PLM_MSB:ITA_F_DBR_MASK_PLM_LSB];

  // 1 = compare this address bit.
  assign cmp_mask = {{(64 - MaskW){1'b1}},
                     dbr_mask_i[ITA_F_DBR_MASK_MASK_MSB:ITA_F_DBR_MASK_MASK_LSB]};

  always_comb begin
    if (en_i && mem_i) begin
      hit_o = plm[cpl_i] && (((daddr_i ^ addr) & cmp_mask) == '0);
    end else begin
      hit_o = 1'b0;
    end
  end

endmodule
