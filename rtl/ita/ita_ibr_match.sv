// One IBR pair against one retired IA-64 slot, normal (masked) mode (combinational;
// ita-semantics.md, "Primitive matches"):
//   hit = plm[cpl] && ((ip ^ addr) & {8'hff, mask[55:0]} & ~64'hf) == 0
// Address bits above the mask field have no mask bits and are always compared; the bits
// below the bundle boundary are ignored (an IA-64 ip is a bundle address).
// Evaluated only when en_i (the slot retires in this clock); otherwise hit_o is 0, and the
// Verilated model skips the compare for the slots past nslots (docs/bench.md).
module ita_ibr_match (
  input  logic        en_i,        // the slot retires in this clock
  input  logic [63:0] ip_i,        // bundle address of the slot
  input  logic [1:0]  cpl_i,
  input  logic [63:0] ibr_addr_i,  // IBR[2k]: the address
  input  logic [63:0] ibr_mask_i,  // IBR[2k+1]: mask, plm (x is debug-only)
  output logic        hit_o
);

  `include "ita_defs.vh"

  // A bundle is 16 bytes: the instruction-address check ignores address bits 3:0.
  localparam int          BundleLsb  = 4;
  localparam logic [63:0] BundleBits = (64'd1 << BundleLsb) - 64'd1;
  // Mask bit i covers address bit i; the address bits above the mask field are always
  // compared.
  localparam int          MaskW      = ITA_F_IBR_MASK_MASK_W;

  logic [63:0]                    addr, cmp_mask;
  logic [ITA_F_IBR_MASK_PLM_W-1:0] plm;

  assign addr = ibr_addr_i[ITA_F_BR_ADDR_ADDR_MSB:ITA_F_BR_ADDR_ADDR_LSB];
  assign plm  = ibr_mask_i[ITA_F_IBR_MASK_PLM_MSB:ITA_F_IBR_MASK_PLM_LSB];

  // 1 = compare this address bit.
  assign cmp_mask = {{(64 - MaskW){1'b1}},
                     ibr_mask_i[ITA_F_IBR_MASK_MASK_MSB:ITA_F_IBR_MASK_MASK_LSB]} & ~BundleBits;

  always_comb begin
    if (en_i) begin
      hit_o = plm[cpl_i] && (((ip_i ^ addr) & cmp_mask) == '0);
    end else begin
      hit_o = 1'b0;
    end
  end

endmodule
