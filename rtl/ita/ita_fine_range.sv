// One Itanium 2 fine-mode range against one retired IA-64 slot (combinational; ita-semantics.md,
// "Primitive matches"). The lower pair's address and the upper pair's address bound the
// range directly; the masks are not used:
//   hit = plm_lo[cpl] && plm_hi[cpl] && ip[63:12] == lo[63:12]
//         && lo[11:G] <= ip[11:G] <= hi[11:G]
// The upper bundle is inclusive and the range lies in the 4 KB page of the lower bound (the
// upper bound's page bits are not compared). G = 4 (bundle), or 5 with FineGran2 (the
// two-bundle granularity of the first Itanium 2 steppings).
// Evaluated only when en_i (the slot retires in this clock); otherwise hit_o is 0, and the
// Verilated model skips the compare for the slots past nslots (docs/bench.md).
module ita_fine_range #(
  parameter bit FineGran2 = 0
) (
  input  logic        en_i,       // the slot retires in this clock
  input  logic [63:0] ip_i,       // bundle address of the slot
  input  logic [1:0]  cpl_i,
  input  logic [63:0] lo_addr_i,  // lower bound: IBR0 (range A) or IBR2 (range B)
  input  logic [63:0] lo_mask_i,  // its odd register: plm
  input  logic [63:0] hi_addr_i,  // upper bound: IBR4 (range A) or IBR6 (range B)
  input  logic [63:0] hi_mask_i,  // its odd register: plm
  output logic        hit_o
);

  `include "ita_defs.vh"

  // A fine-mode range lives inside one 4 KB page; ranges are resolved to G-aligned units.
  localparam int PageLsb = 12;
  localparam int G       = FineGran2 ? 5 : 4;

  logic [63:0]                     lo, hi;
  logic [ITA_F_IBR_MASK_PLM_W-1:0] plm_lo, plm_hi;
  logic [PageLsb-1-G:0]            ip_off, lo_off, hi_off;
  logic [63-PageLsb:0]             ip_page, lo_page;

  assign lo     = lo_addr_i[ITA_F_BR_ADDR_ADDR_MSB:ITA_F_BR_ADDR_ADDR_LSB];
  assign hi     = hi_addr_i[ITA_F_BR_ADDR_ADDR_MSB:ITA_F_BR_ADDR_ADDR_LSB];
  assign plm_lo = lo_mask_i[ITA_F_IBR_MASK_PLM_MSB:ITA_F_IBR_MASK_PLM_LSB];
  assign plm_hi = hi_mask_i[ITA_F_IBR_MASK_PLM_MSB:ITA_F_IBR_MASK_PLM_LSB];

  assign ip_off = ip_i[PageLsb-1:G];
  assign lo_off = lo[PageLsb-1:G];
  assign hi_off = hi[PageLsb-1:G];

  assign ip_page = ip_i[63:PageLsb];
  assign lo_page = lo[63:PageLsb];

  always_comb begin
    if (en_i) begin
      hit_o = plm_lo[cpl_i] && plm_hi[cpl_i] && (ip_page == lo_page) &&
              (lo_off <= ip_off) && (ip_off <= hi_off);
    end else begin
      hit_o = 1'b0;
    end
  end

endmodule
