// One opcode matcher (PMC8 or PMC9) against one retired IA-64 slot (combinational;
// ita-semantics.md, "Primitive matches"):
//   hit = P.{m,i,f,b}[unit] && ((e27 ^ P.match) & ~P.mask) == 0,
//   e27 = {enc[40:27], enc[12:0]}
// A mask bit of 1 means "don't care". The Itanium 2 bits ig_ad / inv act on the range tags
// (ita_tag_qual), not here.
// Evaluated only when en_i (the slot retires in this clock); otherwise hit_o is 0, and the
// Verilated model skips the compare for the slots past nslots (docs/bench.md).
module ita_opc_match (
  input  logic        en_i,       // the slot retires in this clock
  input  logic [40:0] enc_i,      // 41-bit instruction encoding
  input  logic [1:0]  unit_i,     // enum ita_unit: 0 M, 1 I, 2 F, 3 B
  input  logic [63:0] pmc_i,      // PMC8 or PMC9 stored value
  input  logic [3:0]  unit_en_i,  // its m / i / f / b bits by enum ita_unit (ita_qual_cfg)
  output logic        hit_o
);

  `include "ita_defs.vh"

  // The 27-bit match / mask fields cover instruction bits {40:27, 12:0} (docs/ita-semantics.md,
  // "Primitive matches"; libpfm-3 include/perfmon/pfmlib_itanium.h): the low part is
  // enc[12:0], the high part the top bits of the 41-bit encoding.
  localparam int EncW    = 41;
  localparam int OpcW    = ITA_F_PMC_OPC_MASK_W;
  localparam int EncLoW  = 13;
  localparam int EncHiW  = OpcW - EncLoW;
  localparam int EncHiLsb = EncW - EncHiW;
  localparam logic [EncW-1:0] EncLoMask = (EncW'(1) << EncLoW) - EncW'(1);

  logic [OpcW-1:0] match, mask;
  logic [3:0]      unit_en;   // per enum ita_unit value: the matcher's m / i / f / b bit

  assign match = pmc_i[ITA_F_PMC_OPC_MATCH_MSB:ITA_F_PMC_OPC_MATCH_LSB];
  assign mask  = pmc_i[ITA_F_PMC_OPC_MASK_MSB:ITA_F_PMC_OPC_MASK_LSB];

  // The unit bits are decoded when the register is written (ita_qual_cfg), indexed by
  // enum ita_unit (include/common/ita/ita_cycle.h: 0 M, 1 I, 2 F, 3 B).
  assign unit_en = unit_en_i;

  // The slot's 27 bits are gathered inside the gated block: from a continuous assignment,
  // the Verilated model gathered them out of the record's packed encodings for every slot in
  // every clock (docs/bench-history.md, "Eighteenth round").
  always_comb begin
    logic [OpcW-1:0] e27;
    if (en_i) begin
      // {enc[40:27], enc[12:0]}, formed with a shift and masks (Icarus 11 does not support
      // constant selects in always_* processes).
      e27   = OpcW'(((enc_i >> (EncHiLsb - EncLoW)) & ~EncLoMask) | (enc_i & EncLoMask));
      hit_o = unit_en[unit_i] && (((e27 ^ match) & ~mask) == '0);
    end else begin
      e27   = '0;
      hit_o = 1'b0;
    end
  end

endmodule
