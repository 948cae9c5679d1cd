/*
 * ia64_enc.h - IA-64 instruction encodings, written once: the bit fields of a 41-bit
 * instruction and the one table of instruction classes that the stream generator emits
 * (docs/ita-stream-format.md, "Encodings") and that configuration files name in
 * `opcode PMCn class=NAME` (docs/ita-config-format.md).
 *
 * The fields are those of the instruction formats of the Intel IA-64 Architecture
 * Software Developer's Manual, vol. 3.  A class fixes the bits that identify its
 * instructions (`care`) to `enc`; the other bits are operands.  The opcode matchers
 * PMC8/PMC9 see only bits {40:27, 12:0} (IA64_WINDOW).
 */
#ifndef IA64_ENC_H
#define IA64_ENC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- bit fields -------------------------------------------------------------------- */
#define IA64_BITS(hi, lo) ((((uint64_t)2 << ((hi) - (lo))) - 1) << (lo))
#define IA64_ENC_BITS 41
#define IA64_ENC_ALL IA64_BITS(40, 0)
#define IA64_MAJOR_LSB 37                 /* major opcode, bits 40:37, every format */
#define IA64_MAJOR_FIELD IA64_BITS(40, 37)
#define IA64_MAJOR(v) ((uint64_t)(v) << IA64_MAJOR_LSB)
#define IA64_QP IA64_BITS(5, 0)           /* qualifying predicate */
#define IA64_X6_LSB 27                    /* x6 32:27 (B4, B8, I18, M48 x4+x2, F16) */
#define IA64_X6(v) ((uint64_t)(v) << IA64_X6_LSB)
#define IA64_X6A_LSB 30                   /* x6 35:30 of the memory formats M1, M4, M6, M9 */
#define IA64_X6A(v) ((uint64_t)(v) << IA64_X6A_LSB)
#define IA64_BTYPE_LSB 6                  /* btype 8:6 (B1, B4); b1 of a call (B3, B5) */
#define IA64_BTYPE(v) ((uint64_t)(v) << IA64_BTYPE_LSB)
#define IA64_SIGN_LSB 36                  /* s: sign of an ip-relative displacement; i of break */
#define IA64_IMM20B_LSB 13                /* imm20b 32:13: ip-relative displacement / 16 */
#define IA64_IMM20B IA64_BITS(32, 13)
#define IA64_DISP (IA64_IMM20B | (1ull << IA64_SIGN_LSB))
#define IA64_A1_X4_LSB 29                 /* A1 x4 32:29: 0 add, 1 sub, 3 logical */
#define IA64_A1_X4 IA64_BITS(32, 29)
#define IA64_IMM_PSR_UP (1ull << 8)       /* rum/sum imm21a bit 2 = instruction bit 8: PSR.up */

/* What the opcode matchers PMC8/PMC9 compare: {enc[40:27], enc[12:0]}. */
#define IA64_WINDOW_HIGH_LSB 27
#define IA64_WINDOW_HIGH_BITS 14
#define IA64_WINDOW_LOW_BITS 13
#define IA64_WINDOW (IA64_BITS(40, 27) | IA64_BITS(12, 0))

/* Care masks shared by several classes. */
/* major, m, the x6 size class, hint, x */
#define IA64_CARE_MEM (IA64_BITS(40, 32) | IA64_BITS(29, 27))
#define IA64_CARE_STORE (IA64_CARE_MEM | IA64_BITS(12, 6))
#define IA64_CARE_IPREL (IA64_MAJOR_FIELD | (1ull << 35) | IA64_BITS(12, 6)) /* d, p, btype/b1 */
#define IA64_CARE_IPREL_QP (IA64_CARE_IPREL | IA64_QP)

/* ---- the instruction classes ---------------------------------------------------------
 * X(id, name, units, care, enc, desc): `units` is the subset of "mifb" (enum ita_unit
 * order) the class retires on.  OFFERED classes are the ones configuration files name
 * (docs/ita-config-format.md lists them); INTERNAL ones only the generator emits.  The order
 * is the generator's and, for the offered ones, the order of docs/ita-config-format.md. */
#define IA64_CLASS_TABLE(OFFERED, INTERNAL)                                                    \
    OFFERED(NOP_MIF, "nop", "mif", IA64_ENC_ALL, IA64_X6(0x01), "nop.m, nop.i, nop.f")          \
    OFFERED(NOP_B, "nop.b", "b", IA64_ENC_ALL, IA64_MAJOR(2), "nop.b")                          \
    INTERNAL(BREAK_I, "break.i", "i", IA64_ENC_ALL, 1ull << IA64_SIGN_LSB,                      \
             "break.i 0x100000 (a system call; it does not retire)")                            \
    OFFERED(LD, "ld", "m", IA64_CARE_MEM, IA64_MAJOR(4), "integer loads ld1..ld8")              \
    OFFERED(ST, "st", "m", IA64_CARE_STORE, IA64_MAJOR(4) | IA64_X6A(0x30),                     \
            "integer stores st1..st8")                                                          \
    OFFERED(LDF, "ldf", "m", IA64_CARE_MEM, IA64_MAJOR(6), "floating-point loads")              \
    OFFERED(STF, "stf", "m", IA64_CARE_STORE, IA64_MAJOR(6) | IA64_X6A(0x30),                   \
            "floating-point stores")                                                            \
    OFFERED(LOADRS, "loadrs", "m", IA64_ENC_ALL, IA64_X6(0x0a),                                 \
            "loadrs (register-stack-engine fills)")                                             \
    OFFERED(RUM, "rum", "m", IA64_ENC_ALL, IA64_X6(0x05) | IA64_IMM_PSR_UP, "rum psr.up")       \
    OFFERED(SUM, "sum", "m", IA64_ENC_ALL, IA64_X6(0x04) | IA64_IMM_PSR_UP, "sum psr.up")       \
    OFFERED(FMA, "fma", "f", IA64_BITS(40, 39), IA64_MAJOR(8),                                  \
            "fma, fms and their .d forms (major 8..0xb)")                                       \
    OFFERED(ALU, "alu", "mi", IA64_BITS(40, 31), IA64_MAJOR(8), "add, sub, and, or (A1 format)") \
    INTERNAL(I_SHIFT, "shift", "i", IA64_MAJOR_FIELD, IA64_MAJOR(5),                            \
             "shift, extract, deposit (major 5)")                                               \
    INTERNAL(I_MM, "mm", "i", IA64_MAJOR_FIELD, IA64_MAJOR(7), "multimedia (major 7)")          \
    OFFERED(BR_COND, "br.cond", "b", IA64_CARE_IPREL, IA64_MAJOR(4),                            \
            "ip-relative br.cond, any predicate (so br too)")                                   \
    OFFERED(BR, "br", "b", IA64_CARE_IPREL_QP, IA64_MAJOR(4),                                   \
            "unconditional ip-relative br (br.cond on p0)")                                     \
    OFFERED(BR_CLOOP, "br.cloop", "b", IA64_CARE_IPREL_QP, IA64_MAJOR(4) | IA64_BTYPE(5),       \
            "br.cloop (counted loops)")                                                         \
    OFFERED(BR_CTOP, "br.ctop", "b", IA64_CARE_IPREL_QP, IA64_MAJOR(4) | IA64_BTYPE(7),         \
            "br.ctop (software-pipelined loops)")                                               \
    OFFERED(BR_CALL, "br.call", "b", IA64_CARE_IPREL, IA64_MAJOR(5), "ip-relative br.call")     \
    OFFERED(BR_CALL_IND, "br.call.ind", "b",                                                    \
            IA64_BITS(40, 35) | IA64_BITS(31, 16) | IA64_BITS(12, 6) | IA64_QP, IA64_MAJOR(1),  \
            "indirect br.call")                                                                 \
    OFFERED(BR_RET, "br.ret", "b", IA64_BITS(40, 35) | IA64_BITS(32, 6) | IA64_QP,              \
            IA64_X6(0x21) | IA64_BTYPE(4), "br.ret")                                            \
    OFFERED(RFI, "rfi", "b", IA64_ENC_ALL, IA64_X6(0x08), "rfi (return from interruption)")

enum ia64_class_id {
#define IA64_CLASS_ID(id, name, units, care, enc, desc) IA64_CLASS_##id,
    IA64_CLASS_TABLE(IA64_CLASS_ID, IA64_CLASS_ID)
#undef IA64_CLASS_ID
    IA64_NCLASSES
};

typedef struct ia64_class {
    const char *name;   /* the `class=` name (offered classes), or a short name */
    const char *units;  /* subset of "mifb" */
    uint64_t care;      /* the bits the class fixes, over all 41 bits */
    uint64_t enc;       /* their values */
    const char *desc;
    int offered;        /* 1: configuration files name it */
} ia64_class;

/* Indexed by enum ia64_class_id. */
extern const ia64_class ia64_classes[IA64_NCLASSES];

/* The units of a class as bits (1 << enum ita_unit). */
unsigned ia64_class_units(const ia64_class *c);

/* The 27 bits an opcode matcher compares, {enc[40:27], enc[12:0]}, of a 41-bit
 * encoding, and back (the bits outside the window 0). */
uint32_t ia64_window_bits(uint64_t enc);
uint64_t ia64_window_enc(uint32_t bits);

/* ---- the configuration reader's view: named classes for `opcode PMCn class=NAME` ------
 * The offered classes, with `care` cut to the matchers' window (stream/ita/
 * opcode_classes.c).  The instruction bits that must match (`care`, a 41-bit mask
 * inside bits {40:27,12:0}) and their values (`enc`), and the units (a subset of
 * "mifb") that the class occupies. */
typedef struct ita_opcode_class {
    const char *name;
    const char *units;
    uint64_t enc, care;
    const char *desc;
} ita_opcode_class;
extern const ita_opcode_class ita_opcode_classes[];
extern const unsigned ita_opcode_nclasses;

/* The 27 bits an opcode matcher compares, {enc[40:27], enc[12:0]}, of a 41-bit encoding. */
uint32_t ita_opcode_bits(uint64_t enc);

#ifdef __cplusplus
}
#endif
#endif
