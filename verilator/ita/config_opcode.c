/*
 * config_opcode.c - the named instruction classes of `opcode PMCn class=NAME`
 * (include/ita/pmu_config.h, docs/config-format.md) and the matcher window of an
 * encoding.  These are IA-64 instruction encodings, not configuration syntax: they are
 * kept apart, unchanged, so that they can move to a shared encoding module whole.
 */
#include "config_internal.h"

/* The IA-64 instruction bits a class fixes (Intel IA-64 Architecture Software
 * Developer's Manual vol. 3, instruction formats; the instruction format, not a
 * register layout).  Only bits {40:27,12:0} reach the matchers, so every `care` is
 * cut to that window. */
#define INSN_BITS_RANGE(hi, lo) ((((uint64_t)2 << ((hi) - (lo))) - 1) << (lo))
#define INSN_WINDOW (INSN_BITS_RANGE(40, 27) | INSN_BITS_RANGE(12, 0))
#define INSN_MAJOR(v) ((uint64_t)(v) << 37)  /* major opcode, bits 40:37 */
#define INSN_X6(v) ((uint64_t)(v) << 27)     /* x6, bits 32:27 (B4, B8, M44, M25, nops) */
#define INSN_X6A(v) ((uint64_t)(v) << 30)    /* x6, bits 35:30 of the memory formats */
#define INSN_BTYPE(v) ((uint64_t)(v) << 6)   /* btype, bits 8:6 */
#define INSN_IMM_PSR_UP ((uint64_t)1 << 8)   /* rum/sum imm21a bit 2 = instruction bit 8: PSR.up */
#define CARE(x) ((x) & INSN_WINDOW)
#define CARE_ALL CARE(INSN_BITS_RANGE(40, 0))
#define CARE_MEM CARE(INSN_BITS_RANGE(40, 32) | INSN_BITS_RANGE(29, 27))
#define CARE_STORE CARE(INSN_BITS_RANGE(40, 32) | INSN_BITS_RANGE(29, 27) | INSN_BITS_RANGE(12, 6))
#define CARE_IPREL CARE(INSN_BITS_RANGE(40, 37) | INSN_BITS_RANGE(35, 35) | INSN_BITS_RANGE(12, 6))
#define CARE_IPREL_QP CARE(CARE_IPREL | INSN_BITS_RANGE(5, 0))

/* The one table of named classes.  Each is the stream generator's exact encoding of an
 * instruction class (docs/stream-format.md, "Encodings"), seen through the matcher's
 * window; docs/config-format.md shows the table and a test checks it against the
 * instructions the generator emits. */
const pmu_opcode_class pmu_opcode_classes[] = {
    {"nop", "mif", INSN_X6(0x01), CARE_ALL, "nop.m, nop.i, nop.f"},
    {"nop.b", "b", INSN_MAJOR(2), CARE_ALL, "nop.b"},
    {"ld", "m", INSN_MAJOR(4), CARE_MEM, "integer loads ld1..ld8"},
    {"st", "m", INSN_MAJOR(4) | INSN_X6A(0x30), CARE_STORE, "integer stores st1..st8"},
    {"ldf", "m", INSN_MAJOR(6), CARE_MEM, "floating-point loads"},
    {"stf", "m", INSN_MAJOR(6) | INSN_X6A(0x30), CARE_STORE, "floating-point stores"},
    {"loadrs", "m", INSN_X6(0x0a), CARE_ALL, "loadrs (register-stack-engine fills)"},
    {"rum", "m", INSN_X6(0x05) | INSN_IMM_PSR_UP, CARE_ALL, "rum psr.up"},
    {"sum", "m", INSN_X6(0x04) | INSN_IMM_PSR_UP, CARE_ALL, "sum psr.up"},
    {"fma", "f", INSN_MAJOR(8), CARE(INSN_BITS_RANGE(40, 39)), "fma, fms and their .d forms (major 8..0xb)"},
    {"alu", "mi", INSN_MAJOR(8), CARE(INSN_BITS_RANGE(40, 31)), "add, sub, and, or (A1 format)"},
    {"br.cond", "b", INSN_MAJOR(4), CARE_IPREL, "ip-relative br.cond, any predicate (so br too)"},
    {"br", "b", INSN_MAJOR(4), CARE_IPREL_QP, "unconditional ip-relative br (br.cond on p0)"},
    {"br.cloop", "b", INSN_MAJOR(4) | INSN_BTYPE(5), CARE_IPREL_QP, "br.cloop (counted loops)"},
    {"br.ctop", "b", INSN_MAJOR(4) | INSN_BTYPE(7), CARE_IPREL_QP, "br.ctop (software-pipelined loops)"},
    {"br.call", "b", INSN_MAJOR(5), CARE_IPREL, "ip-relative br.call"},
    {"br.call.ind", "b", INSN_MAJOR(1),
     CARE(INSN_BITS_RANGE(40, 35) | INSN_BITS_RANGE(31, 16) | INSN_BITS_RANGE(12, 0)), "indirect br.call"},
    {"br.ret", "b", INSN_X6(0x21) | INSN_BTYPE(4),
     CARE(INSN_BITS_RANGE(40, 35) | INSN_BITS_RANGE(32, 0)), "br.ret"},
    {"rfi", "b", INSN_X6(0x08), CARE_ALL, "rfi (return from interruption)"},
};
const unsigned pmu_opcode_nclasses = sizeof pmu_opcode_classes / sizeof pmu_opcode_classes[0];

uint32_t pmu_opcode_bits(uint64_t enc)
{
    uint64_t low = enc & field_ones(OPC_LOW_BITS);
    uint64_t high = (enc >> OPC_HIGH_LSB) & field_ones(OPC_HIGH_BITS);
    return (uint32_t)(high << OPC_LOW_BITS | low);
}
