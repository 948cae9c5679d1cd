/*
 * ita_validate.c - pmu_cycle_validate: the rules every Itanium record obeys
 * (docs/stream-format.md, "Validation").  Each rule has its own message that
 * names the field, so a bad stream line points at what to fix.
 *
 * Per-cycle limits are the maxincr of the event that counts the occurrences,
 * read from pmu_event_table (include/ita/ita_regs.def), never retyped here.
 */
#include <stdio.h>
#include <string.h>

#include "ita_stream.h"

const sf_key ita_sf_keys[] = {
#define PMU_SLOT_FLAG(name, msb, lsb, key, desc)                                                   \
    {key, #name, (lsb), (msb) - (lsb) + 1, (uint16_t)PMU_SF_##name##_MASK},
#include "ita/ita_regs.def"
#undef PMU_SLOT_FLAG
};
const unsigned ita_sf_nkeys = sizeof ita_sf_keys / sizeof ita_sf_keys[0];

/* Every bit some PMU_SLOT_FLAG defines, as a constant. */
enum {
    SF_DEFINED = 0
#define PMU_SLOT_FLAG(name, msb, lsb, key, desc) | PMU_SF_##name##_MASK
#include "ita/ita_regs.def"
#undef PMU_SLOT_FLAG
};

uint16_t ita_sf_defined_mask(void) { return (uint16_t)SF_DEFINED; }

const char *const ita_is_names[2] = {"ia64", "ia32"};
const char *const ita_power_names[4] = {"normal", "low_power", "light_halt", "halt"};
const char *const ita_intr_names[3] = {"none", "entry", "return"};
const char ita_unit_letters[4] = {'M', 'I', 'F', 'B'};

void ita_canon(const void *rec, void *out)
{
    const pmu_cycle *in = rec;
    pmu_cycle c;
    memset(&c, 0, sizeof c);
    c.cpl = in->cpl;
    c.is = in->is;
    c.power = in->power;
    c.intr = in->intr;
    c.up_we = in->up_we;
    c.up = in->up;
    c.pp_we = in->pp_we;
    c.pp = in->pp;
    c.recirc = in->recirc;
    c.nslots = in->nslots;
    c.pid = in->pid;
    unsigned n = in->nslots <= PMU_MAX_SLOTS ? in->nslots : PMU_MAX_SLOTS;
    for (unsigned i = 0; i < n; i++) {
        const pmu_slot *s = &in->slot[i];
        pmu_slot *d = &c.slot[i];
        d->ip = s->ip;
        d->enc = s->enc;
        d->daddr = s->daddr;
        d->target = s->target;
        d->flags = s->flags;
        d->lat = s->lat;
        d->slot = s->slot;
        d->unit = s->unit;
        d->tlb = s->tlb;
    }
    memcpy(out, &c, sizeof c);
}

int ita_equal(const void *ra, const void *rb)
{
    const pmu_cycle *a = ra, *b = rb;
    if (a->cpl != b->cpl || a->is != b->is || a->power != b->power || a->intr != b->intr ||
        a->up_we != b->up_we || a->up != b->up || a->pp_we != b->pp_we || a->pp != b->pp ||
        a->recirc != b->recirc || a->nslots != b->nslots || a->pid != b->pid)
        return 0;
    for (unsigned i = 0; i < a->nslots && i < PMU_MAX_SLOTS; i++) {
        const pmu_slot *x = &a->slot[i], *y = &b->slot[i];
        if (x->ip != y->ip || x->enc != y->enc || x->daddr != y->daddr || x->target != y->target ||
            x->flags != y->flags || x->lat != y->lat || x->slot != y->slot || x->unit != y->unit ||
            x->tlb != y->tlb)
            return 0;
    }
    return 1;
}

/* ---- per-cycle multiplicities ---------------------------------------------- */
#define F(s, name) PMU_SLOT_GET((s), name)

static int counts_load(const pmu_slot *s) { return F(s, LOAD) != 0; }
static int counts_store(const pmu_slot *s) { return F(s, STORE) != 0; }
static int counts_fp(const pmu_slot *s) { return F(s, FP) != 0; }
static int counts_branch(const pmu_slot *s) { return F(s, BR_TYPE) != 0; }
static int counts_l1d_miss(const pmu_slot *s) { return F(s, LOAD) && F(s, L1D_MISS); }
static int counts_l2_miss(const pmu_slot *s) { return F(s, L2_MISS) != 0; }
static int counts_l2_ref(const pmu_slot *s) { return F(s, L2_REF) != 0; }

static const struct multiplicity_rule {
    const char *field; /* text key named in the message */
    const char *what;  /* plural noun */
    int event;         /* enum pmu_event_id whose maxincr is the limit */
    int (*counts)(const pmu_slot *);
} multiplicity_rules[] = {
    {"load", "loads", PMU_EV_LOADS_RETIRED, counts_load},
    {"store", "stores", PMU_EV_STORES_RETIRED, counts_store},
    {"fp", "floating-point operations", PMU_EV_FP_OPS_RETIRED, counts_fp},
    {"br", "branches", PMU_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED, counts_branch},
    {"l1d_miss", "L1D read misses", PMU_EV_L1D_READ_MISSES_ALL, counts_l1d_miss},
    {"l2_miss", "L2 misses", PMU_EV_L2_MISSES, counts_l2_miss},
    {"l2_ref", "L2 references", PMU_EV_L2_REFERENCES, counts_l2_ref},
};

static int check_slot(const pmu_cycle *c, unsigned i, const char *where, pmu_err *err)
{
    const pmu_slot *s = &c->slot[i];
    unsigned n = i + 1; /* slots are numbered from 1 in messages, as in a text line */
    uint16_t undefined = (uint16_t)(s->flags & ~ita_sf_defined_mask());

    if (undefined)
        return pmu_dialect_errf(err, where, "field 'flags': slot %u sets undefined flag bits 0x%x",
                                n, undefined);
    if (s->unit > PMU_UNIT_B)
        return pmu_dialect_errf(err, where, "field 'u': slot %u unit %u, expected M, I, F or B", n,
                                s->unit);
    if (s->tlb > 3)
        return pmu_dialect_errf(err, where, "field 'tlb': slot %u tlb %u, expected 0..3", n,
                                s->tlb);
    if (c->is == 0) {
        if (s->slot > 2)
            return pmu_dialect_errf(err, where, "field 's': slot %u syllable %u, expected 0..2", n,
                                    s->slot);
        if (s->ip & 15u)
            return pmu_dialect_errf(err, where,
                                    "field 'ip': slot %u ip 0x%llx is not 16-byte aligned "
                                    "(an IA-64 bundle address)",
                                    n, (unsigned long long)s->ip);
        if (s->enc >> 41)
            return pmu_dialect_errf(err, where,
                                    "field 'enc': slot %u encoding 0x%llx has more than 41 bits", n,
                                    (unsigned long long)s->enc);
    } else {
        if (s->slot != 0)
            return pmu_dialect_errf(err, where,
                                    "field 's': slot %u syllable %u in an IA-32 cycle, expected 0",
                                    n, s->slot);
        if (s->enc != 0)
            return pmu_dialect_errf(
                err, where,
                "field 'enc': slot %u has an encoding in an IA-32 cycle, expected "
                "none (enc is IA-64 only)",
                n);
    }

    unsigned load = F(s, LOAD), store = F(s, STORE), br = F(s, BR_TYPE);
    if (F(s, L1D_MISS) && !load)
        return pmu_dialect_errf(err, where, "field 'l1d_miss': slot %u has l1d_miss without load",
                                n);
    if (F(s, RSE) && !load)
        return pmu_dialect_errf(
            err, where, "field 'rse': slot %u has rse without load (an RSE fill is a load)", n);
    if (F(s, L2_REF) && !load && !store)
        return pmu_dialect_errf(err, where,
                                "field 'l2_ref': slot %u has l2_ref without load or store", n);
    if (F(s, L2_MISS) && !F(s, L2_REF))
        return pmu_dialect_errf(
            err, where,
            "field 'l2_miss': slot %u has l2_miss without l2_ref (an L2 miss is "
            "an L2 reference)",
            n);
    if (F(s, NOP) || F(s, PRED_OFF)) {
        const char *key = F(s, NOP) ? "nop" : "squashed";
        if (load || store || F(s, FP) || br)
            return pmu_dialect_errf(
                err, where,
                "field '%s': slot %u is %s and also a load, store, fp or branch "
                "(a %s slot carries none of them)",
                key, n, key, key);
    }
    if (F(s, BR_PRED) && !br)
        return pmu_dialect_errf(err, where, "field 'pred': slot %u has pred=%u without br=1..3", n,
                                F(s, BR_PRED));
    if (F(s, TAKEN) && !br)
        return pmu_dialect_errf(err, where, "field 'taken': slot %u is taken without br=1..3", n);
    if (br && c->is == 0 && s->unit != PMU_UNIT_B)
        return pmu_dialect_errf(err, where,
                                "field 'br': slot %u is an IA-64 branch on unit %c, expected u=B",
                                n, ita_unit_letters[s->unit]);
    if (s->daddr != 0 && !load && !store)
        return pmu_dialect_errf(err, where,
                                "field 'da': slot %u has a data address without load or store", n);
    if (s->target != 0 && !br)
        return pmu_dialect_errf(err, where,
                                "field 'tgt': slot %u has a branch target without br=1..3", n);
    return 0;
}

int pmu_cycle_validate(const pmu_cycle *c, const char *where, pmu_err *err)
{
    if (c->cpl > 3)
        return pmu_dialect_errf(err, where, "field 'cpl': %u, expected 0..3", c->cpl);
    if (c->is > 1)
        return pmu_dialect_errf(err, where, "field 'is': %u, expected ia64 (0) or ia32 (1)", c->is);
    if (c->power > PMU_POWER_HALT)
        return pmu_dialect_errf(err, where,
                                "field 'power': %u, expected normal, low_power, light_halt or halt",
                                c->power);
    if (c->intr > PMU_INTR_RETURN)
        return pmu_dialect_errf(err, where, "field 'intr': %u, expected none, entry or return",
                                c->intr);
    if (c->up_we > 1)
        return pmu_dialect_errf(err, where, "field 'up_we': %u, expected 0 or 1", c->up_we);
    if (c->pp_we > 1)
        return pmu_dialect_errf(err, where, "field 'pp_we': %u, expected 0 or 1", c->pp_we);
    if (c->up > 1)
        return pmu_dialect_errf(err, where, "field 'up': %u, expected 0 or 1", c->up);
    if (c->pp > 1)
        return pmu_dialect_errf(err, where, "field 'pp': %u, expected 0 or 1", c->pp);
    if (c->up && !c->up_we)
        return pmu_dialect_errf(err, where,
                                "field 'up': value 1 without a write (up_we=0), expected 0");
    if (c->pp && !c->pp_we)
        return pmu_dialect_errf(err, where,
                                "field 'pp': value 1 without a write (pp_we=0), expected 0");
    unsigned max_recirc = pmu_event_table[PMU_EV_L2_FORCE_RECIRC_ANY].maxincr;
    if (c->recirc > max_recirc)
        return pmu_dialect_errf(
            err, where, "field 'recirc': %u, expected 0..%u (maxincr of L2_FORCE_RECIRC_ANY)",
            c->recirc, max_recirc);
    if (c->nslots > PMU_MAX_SLOTS)
        return pmu_dialect_errf(err, where, "field 'nslots': %u slots, expected at most %u",
                                c->nslots, PMU_MAX_SLOTS);
    if (c->nslots && (c->power == PMU_POWER_LIGHT_HALT || c->power == PMU_POWER_HALT))
        return pmu_dialect_errf(err, where,
                                "field 'power': %u slots retire in power=%s, expected none (no "
                                "instruction retires in the halt states)",
                                c->nslots, ita_power_names[c->power]);

    for (unsigned i = 0; i < c->nslots; i++)
        if (check_slot(c, i, where, err))
            return -1;

    for (unsigned r = 0; r < sizeof multiplicity_rules / sizeof multiplicity_rules[0]; r++) {
        const struct multiplicity_rule *m = &multiplicity_rules[r];
        unsigned n = 0;
        for (unsigned i = 0; i < c->nslots; i++)
            n += (unsigned)m->counts(&c->slot[i]);
        const pmu_event_desc *ev = &pmu_event_table[m->event];
        if (n > ev->maxincr)
            return pmu_dialect_errf(
                err, where,
                "field '%s': %u %s in one cycle, expected at most %u (maxincr of "
                "%s)",
                m->field, n, m->what, ev->maxincr, ev->name);
    }
    return 0;
}

int ita_validate(const void *rec, const char *where, pmu_err *err)
{
    return pmu_cycle_validate(rec, where, err);
}
