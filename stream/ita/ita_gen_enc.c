/*
 * ita_gen_enc.c - the encodings of the workload's instructions: each instruction is an
 * exact encoding of one class of include/stream/ita/ia64_enc.h (docs/ita-stream-format.md,
 * "Encodings"), its fixed bits from the class and its operand fields drawn at random, so
 * that opcode patterns written against the table match what they name.
 */
#include "stream/ita/ia64_enc.h"
#include "ita_gen.h"

/* The class of an instruction of the workload.  `major` is the major opcode drawn for
 * an I-unit filler: it picks a shift (5), a multimedia operation (7) or an ALU one. */
static int class_of(int kind, int unit, int style, unsigned major)
{
    switch (kind) {
    case IK_NOP: return unit == ITA_UNIT_B ? IA64_CLASS_NOP_B : IA64_CLASS_NOP_MIF;
    case IK_SYSCALL: return IA64_CLASS_BREAK_I;
    case IK_LOAD: return IA64_CLASS_LD;
    case IK_STORE: return IA64_CLASS_ST;
    case IK_FLOAD: return IA64_CLASS_LDF;
    case IK_FSTORE: return IA64_CLASS_STF;
    case IK_RSE_FILL: return IA64_CLASS_LOADRS;
    case IK_RUM: return IA64_CLASS_RUM;
    case IK_SUM: return IA64_CLASS_SUM;
    case IK_RFI: return IA64_CLASS_RFI;
    case IK_FPOP: return IA64_CLASS_FMA;
    /* counted loops use ar.lc (br.cloop); software-pipelined FP loops br.ctop */
    case IK_BR_LOOP: return style == ST_FP ? IA64_CLASS_BR_CTOP : IA64_CLASS_BR_CLOOP;
    case IK_BR_COND: return IA64_CLASS_BR_COND;
    case IK_BR_JUMP: case IK_BR_TAIL: return IA64_CLASS_BR;
    case IK_BR_CALL: case IK_BR_RESCHED: return IA64_CLASS_BR_CALL;
    case IK_BR_ICALL: case IK_BR_DISPATCH: return IA64_CLASS_BR_CALL_IND;
    case IK_BR_RET: return IA64_CLASS_BR_RET;
    default: /* ALU fillers, and the halt and context-switch points */
        if (unit == ITA_UNIT_I)
            return major == 5 ? IA64_CLASS_I_SHIFT : major == 7 ? IA64_CLASS_I_MM : IA64_CLASS_ALU;
        return IA64_CLASS_ALU;
    }
}

/* The major opcode of the word an instruction's operands are drawn into.  Its class
 * replaces it, except the low bits of fma's (fma, fma.d, fms, fms.d: majors 8..0xb), and
 * it picks an I-unit filler's class (majors 5..8).  A conditional branch without a
 * predicate takes one from the whole word (exact_encoding), so these values are part of
 * the pinned streams: the conditional call of schedule() keeps the 4 of a br.cond. */
static unsigned word_major(pmu_rng *r, int kind, int unit)
{
    switch (kind) {
    case IK_LOAD: case IK_STORE: return 4;
    case IK_FLOAD: case IK_FSTORE: return 6;
    case IK_FPOP: return (unsigned)pmu_rng_range(r, 8, 0xb);
    case IK_BR_CALL: return 5;
    case IK_BR_ICALL: case IK_BR_DISPATCH: return 1;
    case IK_BR_RET: case IK_RFI: case IK_RUM: case IK_SUM: case IK_RSE_FILL: return 0;
    case IK_BR_LOOP: case IK_BR_COND: case IK_BR_JUMP: case IK_BR_TAIL: case IK_BR_RESCHED:
        return 4;
    default: /* ALU fillers, and the halt and context-switch points */
        return unit == ITA_UNIT_I ? (unsigned)pmu_rng_range(r, 5, 8) : 8;
    }
}

/* The encoding of class `cls`: its fixed bits, the rest from `bits`, and the predicate
 * qp where the class has one (a conditional branch always has one, a call none). */
static uint64_t exact_encoding(int kind, int cls, uint64_t bits, unsigned qp)
{
    const ia64_class *d = &ia64_classes[cls];
    uint64_t v = (bits & IA64_ENC_ALL & ~d->care & ~IA64_QP) | d->enc;
    if (kind == IK_BR_COND || kind == IK_BR_RESCHED) {
        if (!qp)
            qp = 1 + (unsigned)((bits >> IA64_IMM20B_LSB) % 63);
    } else if (kind == IK_BR_CALL) {
        qp = 0;
    }
    if (!(d->care & IA64_QP))
        v |= qp & IA64_QP;
    if (cls == IA64_CLASS_ALU) {
        static const unsigned x4[4] = {0, 1, 3, 3}; /* add, sub, and/andcm/or/xor */
        v = (v & ~IA64_A1_X4) | (uint64_t)x4[(bits >> IA64_A1_X4_LSB) & 3] << IA64_A1_X4_LSB;
    }
    return v;
}

uint64_t ita_gen_encode(pmu_rng *r, int kind, int unit, int style, unsigned qp)
{
    if (kind == IK_NOP || kind == IK_SYSCALL) /* every bit fixed: nothing to draw */
        return ia64_classes[class_of(kind, unit, style, 0)].enc;
    unsigned major = word_major(r, kind, unit);
    uint64_t bits = IA64_MAJOR(major) | (pmu_rng_next(r) & IA64_BITS(36, 6));
    return exact_encoding(kind, class_of(kind, unit, style, major), bits, qp);
}

/* Sets the displacement fields of an ip-relative branch or call (s:imm20b, the low 21
 * bits of (target - ip) / 16, as the linker would after relocation). */
static uint64_t with_displacement(uint64_t enc, uint64_t ip, uint64_t target)
{
    uint64_t disp = (target - ip) >> 4; /* bundles, modulo 2^60: the low 21 bits are exact */
    return (enc & ~IA64_DISP) | ((disp << IA64_IMM20B_LSB) & IA64_IMM20B) |
           (((disp >> 20) & 1) << IA64_SIGN_LSB);
}

void ita_gen_fix_displacements(ita_gen *g)
{
    for (int i = 0; i < g->nfn; i++) {
        func *f = &g->fn[i];
        if (f->ia32)
            continue;
        for (uint32_t k = 0; k < f->n; k++) {
            insn *in = &f->code[k];
            uint64_t target;
            switch (in->kind) {
            case IK_BR_LOOP: case IK_BR_COND: case IK_BR_JUMP:
                target = (uint32_t)in->target < f->n ? f->code[in->target].ip : f->end;
                break;
            case IK_BR_CALL: case IK_BR_TAIL: case IK_BR_RESCHED:
                target = g->fn[in->target].start;
                break;
            default:
                continue;
            }
            in->enc = with_displacement(in->enc, in->ip, target);
        }
    }
}

unsigned ita_gen_pattern_units(uint64_t match, uint64_t care)
{
    unsigned units = 0;
    for (int c = 0; c < IA64_NCLASSES; c++)
        if (((match ^ ia64_classes[c].enc) & care & ia64_classes[c].care) == 0)
            units |= ia64_class_units(&ia64_classes[c]);
    return units ? units : 0xfu;
}
