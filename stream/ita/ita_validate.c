/*
 * ita_validate.c - ita_cycle_validate: the rules every Itanium record obeys
 * (docs/ita-stream-format.md, "Validation").  Each rule has its own message that
 * names the field, so a bad stream line points at what to fix.
 *
 * Per-cycle limits are the maxincr of the event that counts the occurrences,
 * read from ita_event_table (include/common/ita/ita_regs.def), never retyped here.
 */
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "ita_fast.h"

const sf_key ita_sf_keys[] = {
#define ITA_SLOT_FLAG(name, msb, lsb, key, desc)                                                   \
    {key, #name, (lsb), (msb) - (lsb) + 1, (uint16_t)ITA_SF_##name##_MASK},
#include "common/ita/ita_regs.def"
#undef ITA_SLOT_FLAG
};
const unsigned ita_sf_nkeys = sizeof ita_sf_keys / sizeof ita_sf_keys[0];

uint16_t ita_sf_defined_mask(void) { return (uint16_t)ITA_SF_DEFINED; }

const char *const ita_is_names[2] = {"ia64", "ia32"};
const char *const ita_power_names[4] = {"normal", "low_power", "light_halt", "halt"};
const char *const ita_intr_names[3] = {"none", "entry", "return"};
const char ita_unit_letters[4] = {'M', 'I', 'F', 'B'};

/* The general events in the order the text form writes them: the unattributed ones, then
 * slot by slot, each group in record order (so a record and its text read back compare
 * equal).  Returns their number. */
static unsigned xev_text_order(const ita_cycle *c, ita_xev out[ITA_MAX_XEV])
{
    unsigned n = c->nxev <= ITA_MAX_XEV ? c->nxev : ITA_MAX_XEV, k = 0;
    for (unsigned pass = 0; pass <= ITA_MAX_SLOTS; pass++) /* pass 0: unattributed */
        for (unsigned i = 0; i < n; i++) {
            unsigned slot = c->xev[i].slot;
            unsigned want = pass == 0 ? ITA_XEV_NO_SLOT : pass - 1u;
            int other = slot != ITA_XEV_NO_SLOT && slot >= ITA_MAX_SLOTS; /* invalid: kept last */
            if (slot == want || (other && pass == ITA_MAX_SLOTS))
                out[k++] = c->xev[i];
        }
    return k;
}

void ita_canon(const void *rec, void *out)
{
    const ita_cycle *in = rec;
    ita_cycle copy;
    if (rec == out) { /* in place: read from a copy */
        copy = *in;
        in = &copy;
    }
    ita_cycle *c = out;
    memset(c, 0, sizeof *c);
    c->cpl = in->cpl;
    c->is = in->is;
    c->power = in->power;
    c->intr = in->intr;
    c->up_we = in->up_we;
    c->up = in->up;
    c->pp_we = in->pp_we;
    c->pp = in->pp;
    c->recirc = in->recirc;
    c->nslots = in->nslots;
    c->pid = in->pid;
    c->if_addr = in->if_addr;
    c->if_lat = in->if_lat;
    c->if_tlb = in->if_tlb;
    c->if_rab = in->if_rab;
    c->nxev = (uint8_t)xev_text_order(in, c->xev);
    unsigned n = in->nslots <= ITA_MAX_SLOTS ? in->nslots : ITA_MAX_SLOTS;
    for (unsigned i = 0; i < n; i++) {
        const ita_slot *s = &in->slot[i];
        ita_slot *d = &c->slot[i];
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
}

int ita_equal(const void *ra, const void *rb)
{
    const ita_cycle *a = ra, *b = rb;
    if (a->cpl != b->cpl || a->is != b->is || a->power != b->power || a->intr != b->intr ||
        a->up_we != b->up_we || a->up != b->up || a->pp_we != b->pp_we || a->pp != b->pp ||
        a->recirc != b->recirc || a->nslots != b->nslots || a->pid != b->pid ||
        a->if_addr != b->if_addr || a->if_lat != b->if_lat || a->if_tlb != b->if_tlb ||
        a->if_rab != b->if_rab || a->nxev != b->nxev)
        return 0;
    ita_xev xa[ITA_MAX_XEV], xb[ITA_MAX_XEV];
    unsigned nx = xev_text_order(a, xa);
    xev_text_order(b, xb);
    for (unsigned i = 0; i < nx; i++)
        if (xa[i].id != xb[i].id || xa[i].count != xb[i].count || xa[i].slot != xb[i].slot)
            return 0;
    for (unsigned i = 0; i < a->nslots && i < ITA_MAX_SLOTS; i++) {
        const ita_slot *x = &a->slot[i], *y = &b->slot[i];
        if (x->ip != y->ip || x->enc != y->enc || x->daddr != y->daddr || x->target != y->target ||
            x->flags != y->flags || x->lat != y->lat || x->slot != y->slot || x->unit != y->unit ||
            x->tlb != y->tlb)
            return 0;
    }
    return 1;
}

/* ---- per-cycle multiplicities ---------------------------------------------- */
#define F(s, name) ITA_SLOT_GET((s), name)

/* A slot counts towards a rule when it has any bit of `any` and every bit of `all` set
 * (flag masks only: the test stays a few instructions on every record). */
static const struct multiplicity_rule {
    const char *field; /* text key named in the message */
    const char *what;  /* plural noun */
    int event;         /* enum ita_event_id whose maxincr is the limit */
    uint16_t any, all;
} multiplicity_rules[] = {
    {"load", "loads", ITA_EV_LOADS_RETIRED, ITA_SF_LOAD_MASK, 0},
    {"store", "stores", ITA_EV_STORES_RETIRED, ITA_SF_STORE_MASK, 0},
    {"fp", "floating-point operations", ITA_EV_FP_OPS_RETIRED, ITA_SF_FP_MASK, 0},
    {"br", "branches", ITA_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED, ITA_SF_BR_TYPE_MASK, 0},
    {"l1d_miss", "L1D read misses", ITA_EV_L1D_READ_MISSES_ALL, ITA_SF_LOAD_MASK,
     ITA_SF_LOAD_MASK | ITA_SF_L1D_MISS_MASK},
    {"l2_miss", "L2 misses", ITA_EV_L2_MISSES, ITA_SF_L2_MISS_MASK, 0},
    {"l2_ref", "L2 references", ITA_EV_L2_REFERENCES, ITA_SF_L2_REF_MASK, 0},
};

static int check_slot(const ita_cycle *c, unsigned i, const char *where, pmu_err *err)
{
    const ita_slot *s = &c->slot[i];
    unsigned n = i + 1; /* slots are numbered from 1 in messages, as in a text line */
    uint16_t undefined = (uint16_t)(s->flags & ~ita_sf_defined_mask());

    if (undefined)
        return pmu_dialect_errf(err, where, "field 'flags': slot %u sets undefined flag bits 0x%x",
                                n, undefined);
    if (s->unit > ITA_UNIT_B)
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
    if (br && c->is == 0 && s->unit != ITA_UNIT_B)
        return pmu_dialect_errf(err, where,
                                "field 'br': slot %u is an IA-64 branch on unit %c, expected u=B",
                                n, ita_unit_letters[s->unit]);
    if (s->daddr != 0 && !load && !store)
        return pmu_dialect_errf(err, where,
                                "field 'da': slot %u has a data address without load or store", n);
    if ((s->lat || s->tlb) && !load && !store)
        return pmu_dialect_errf(err, where,
                                "field '%s': slot %u has a memory %s without load or store", s->lat ? "lat" : "tlb",
                                n, s->lat ? "latency" : "TLB outcome");
    if (F(s, ALAT_MISS) && !load)
        return pmu_dialect_errf(err, where,
                                "field 'alat_miss': slot %u has alat_miss without load (an ALAT lookup is a "
                                "check load's)", n);
    if (s->target != 0 && !br)
        return pmu_dialect_errf(err, where,
                                "field 'tgt': slot %u has a branch target without br=1..3", n);
    return 0;
}

/* The I-EAR's fetch (docs/ita-ear-btb.md, "What the cycle record gives"). */
static int check_fetch(const ita_cycle *c, const char *where, pmu_err *err)
{
    if (c->if_tlb > ITA_TLB_FAULT)
        return pmu_dialect_errf(err, where, "field 'if_tlb': %u, expected 0..3", c->if_tlb);
    if (c->if_rab > 1)
        return pmu_dialect_errf(err, where, "field 'if_rab': %u, expected 0 or 1", c->if_rab);
    if (c->if_addr && !c->if_lat && !c->if_tlb && !c->if_rab)
        return pmu_dialect_errf(err, where,
                                "field 'if_addr': a fetch address without a fetch event, expected "
                                "if_lat, if_tlb or if_rab with it");
    return 0;
}

/* What counts a modelled event instead (by kind), named in the message that refuses it
 * as a general event. */
static const char *const kind_source[ITA_NKINDS] = {
    [ITA_KIND_CYCLES] = "every cycle (no field)",
    [ITA_KIND_INST_RET] = "every retired slot (no field)",
    [ITA_KIND_NOPS] = "the slot flag 'nop'",
    [ITA_KIND_PRED_OFF] = "the slot flag 'squashed'",
    [ITA_KIND_FP_OPS] = "the slot flag 'fp'",
    [ITA_KIND_LOADS] = "the slot flag 'load'",
    [ITA_KIND_STORES] = "the slot flag 'store'",
    [ITA_KIND_BR_DETAIL] = "the slot fields 'br' and 'pred'",
    [ITA_KIND_L1D_MISS] = "the slot flag 'l1d_miss'",
    [ITA_KIND_L1D_RSE] = "the slot flags 'l1d_miss' and 'rse'",
    [ITA_KIND_L2_MISS] = "the slot flag 'l2_miss'",
    [ITA_KIND_L2_REF] = "the slot flag 'l2_ref'",
    [ITA_KIND_RECIRC] = "the cycle field 'recirc'",
    [ITA_KIND_IEAR] = "the I-EAR's captures (the cycle fields 'if_lat', 'if_tlb', 'if_rab')",
    [ITA_KIND_DEAR] = "the D-EAR's captures (the slot fields 'lat', 'tlb', 'alat_miss')",
    [ITA_KIND_BTB] = "the branch trace buffer (the slot field 'br')",
};

/* The row that decides how a stream may use event `id`: either model's row that is
 * modelled or not a counter event, else the Itanium 2 row (the Itanium one when the
 * name is only there). */
const ita_event_row *ita_xev_row(unsigned id)
{
    const ita_event_row *r2 = ita_event_id_row(id, ITA_MODEL_ITANIUM2);
    const ita_event_row *r1 = ita_event_id_row(id, ITA_MODEL_ITANIUM);
    const ita_event_row *rows[2] = {r2, r1};
    for (unsigned i = 0; i < 2; i++)
        if (rows[i] && (rows[i]->kind != ITA_KIND_NONE || rows[i]->type != ITA_EVT_NORMAL))
            return rows[i];
    return r2 ? r2 : r1;
}

static int check_one_xev(const ita_cycle *c, unsigned i, const char *where, pmu_err *err)
{
    const ita_xev *x = &c->xev[i];
    const ita_event_row *r = ita_xev_row(x->id);
    if (!r)
        return pmu_dialect_errf(err, where, "field 'ev': event id %u names no event", x->id);
    if (r->type != ITA_EVT_NORMAL)
        return pmu_dialect_errf(err, where,
                                "field 'ev': %s is an EAR/BTB configuration event, not a counter "
                                "event (docs/ita-ear-btb.md)", r->name);
    if (r->kind != ITA_KIND_NONE) {
        const char *src = r->kind < ITA_NKINDS && kind_source[r->kind] ? kind_source[r->kind] : "its slot flags";
        return pmu_dialect_errf(err, where,
                                "field 'ev': %s is counted from the record, not as a general "
                                "event: use %s", r->name, src);
    }
    if (x->slot != ITA_XEV_NO_SLOT && x->slot >= c->nslots)
        return pmu_dialect_errf(err, where,
                                "field 'ev': %s attributed to slot %u, but the cycle has %u slots",
                                r->name, x->slot + 1u, c->nslots);
    unsigned sum = 0;
    for (unsigned j = 0; j < c->nxev; j++)
        if (c->xev[j].id == x->id)
            sum += c->xev[j].count;
    if (x->count == 0 || sum > r->maxincr)
        return pmu_dialect_errf(err, where,
                                "field 'ev': %s count %u in one cycle, expected 1..%u (its maxincr)",
                                r->name, x->count == 0 ? 0u : sum, r->maxincr);
    return 0;
}

/* The general events (docs/ita-stream-format.md, "General events"). */
static int check_xev(const ita_cycle *c, const char *where, pmu_err *err)
{
    if (c->nxev > ITA_MAX_XEV)
        return pmu_dialect_errf(err, where, "field 'ev': %u general events in one cycle, expected at most %u",
                                c->nxev, ITA_MAX_XEV);
    for (unsigned i = 0; i < c->nxev; i++)
        if (check_one_xev(c, i, where, err))
            return -1;
    return 0;
}

int ita_cycle_validate_by_rule(const ita_cycle *c, const char *where, pmu_err *err)
{
    if (c->cpl > 3)
        return pmu_dialect_errf(err, where, "field 'cpl': %u, expected 0..3", c->cpl);
    if (c->is > 1)
        return pmu_dialect_errf(err, where, "field 'is': %u, expected ia64 (0) or ia32 (1)", c->is);
    if (c->power > ITA_POWER_HALT)
        return pmu_dialect_errf(err, where,
                                "field 'power': %u, expected normal, low_power, light_halt or halt",
                                c->power);
    if (c->intr > ITA_INTR_RETURN)
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
    unsigned max_recirc = ita_event_table[ITA_EV_L2_FORCE_RECIRC_ANY].maxincr;
    if (c->recirc > max_recirc)
        return pmu_dialect_errf(
            err, where, "field 'recirc': %u, expected 0..%u (maxincr of L2_FORCE_RECIRC_ANY)",
            c->recirc, max_recirc);
    if (c->nslots > ITA_MAX_SLOTS)
        return pmu_dialect_errf(err, where, "field 'nslots': %u slots, expected at most %u",
                                c->nslots, ITA_MAX_SLOTS);
    if (c->nslots && (c->power == ITA_POWER_LIGHT_HALT || c->power == ITA_POWER_HALT))
        return pmu_dialect_errf(err, where,
                                "field 'power': %u slots retire in power=%s, expected none (no "
                                "instruction retires in the halt states)",
                                c->nslots, ita_power_names[c->power]);

    for (unsigned i = 0; i < c->nslots; i++)
        if (check_slot(c, i, where, err))
            return -1;
    if (check_fetch(c, where, err) || check_xev(c, where, err))
        return -1;

    for (unsigned r = 0; r < sizeof multiplicity_rules / sizeof multiplicity_rules[0]; r++) {
        const struct multiplicity_rule *m = &multiplicity_rules[r];
        unsigned n = 0;
        for (unsigned i = 0; i < c->nslots; i++) {
            const unsigned f = c->slot[i].flags;
            n += (f & m->any) != 0 && (f & m->all) == m->all;
        }
        const ita_event_desc *ev = &ita_event_table[m->event];
        if (n > ev->maxincr)
            return pmu_dialect_errf(
                err, where,
                "field '%s': %u %s in one cycle, expected at most %u (maxincr of "
                "%s)",
                m->field, n, m->what, ev->maxincr, ev->name);
    }
    return 0;
}

/* ---- the common case in a few instructions a slot ------------------------------
 * Validation runs on every record of every run, so a record first meets a test that
 * only says "no rule can refuse it" (ita_cycle_passes_fast; the binary decoder runs the
 * same test while it decodes, with the parts its widths rule out left out: ita_fast.h).
 * When it cannot say so, the rules run one by one and the first one broken writes its
 * message.  The fast test may send a valid record to the rules (a general event's id
 * from XEV_MEMO on), but it never passes a record that a rule refuses
 * (stream/ita/tests/test_validate.cpp checks both ways).
 *
 * The flags' entries are worked out by check_slot() and multiplicity_rules themselves. */
_Static_assert(sizeof multiplicity_rules / sizeof multiplicity_rules[0] <= 7,
               "a multiplicity count per nibble, below the entry's two top bits");

_Atomic uint32_t ita_flags_memo[ITA_SF_DEFINED + 1];

/* The entry of a flags value, worked out and kept (the first time the value is seen). */
uint32_t ita_flags_entry_work(unsigned f)
{
    /* A slot with these flags and nothing else to break a rule: an IA-64 slot, on the
     * branch unit when it is a branch, without addresses, latency or TLB outcome. */
    ita_cycle c;
    memset(&c, 0, sizeof c);
    c.nslots = 1;
    c.slot[0].flags = (uint16_t)f;
    c.slot[0].unit = (f & ITA_SF_BR_TYPE_MASK) ? ITA_UNIT_B : ITA_UNIT_M;
    uint32_t e = ITA_FLAGS_KNOWN | (check_slot(&c, 0, "", NULL) ? ITA_FLAGS_BROKEN : 0u);
    for (unsigned r = 0; r < sizeof multiplicity_rules / sizeof multiplicity_rules[0]; r++) {
        const struct multiplicity_rule *m = &multiplicity_rules[r];
        e |= (uint32_t)((f & m->any) != 0 && (f & m->all) == m->all) << (4 * r);
    }
    atomic_store_explicit(&ita_flags_memo[f], e, memory_order_relaxed);
    return e;
}

/* A count is at most ITA_MAX_SLOTS = 6, so 7 - maxincr brings a count over it to 8. */
_Atomic uint32_t ita_multiplicity_memo;
uint32_t ita_multiplicity_work(void)
{
    uint32_t b = ITA_FLAGS_KNOWN;
    for (unsigned r = 0; r < sizeof multiplicity_rules / sizeof multiplicity_rules[0]; r++) {
        unsigned max = ita_event_table[multiplicity_rules[r].event].maxincr;
        b |= (uint32_t)(max < 7 ? 7 - max : 0) << (4 * r);
    }
    atomic_store_explicit(&ita_multiplicity_memo, b, memory_order_relaxed);
    return b;
}

/* One slot of ita_cycle_passes_fast, in an IA-64 cycle or an IA-32 one. */
static inline __attribute__((always_inline)) void fast_slot(const ita_slot *s, int ia64, uint64_t *zero,
                                                            uint32_t *counts, unsigned *bad)
{
    const unsigned f = s->flags;
    ita_fast_flags(f, counts, bad);
    uint64_t z = (f & ~(unsigned)ITA_SF_DEFINED) | ((s->unit | s->tlb) & ~3u) |
                 ita_fast_isa(ia64, s->ip, s->enc, s->slot, s->unit, f);
    if (!(f & (ITA_SF_LOAD_MASK | ITA_SF_STORE_MASK)))
        z |= s->daddr | s->lat | s->tlb;
    if (!(f & ITA_SF_BR_TYPE_MASK))
        z |= s->target;
    *zero |= z;
}

/* What the rules of check_one_xev ask of an event id, looked up by id: whether the id names
 * a general event (XEV_GENERAL) and its maxincr, worked out by ita_xev_row the first time
 * the id is seen (XEV_KNOWN set).  Ids from XEV_MEMO on go to the rules. */
#define XEV_MEMO 1024u
#define XEV_KNOWN 0x80000000u
#define XEV_GENERAL 0x40000000u
#define XEV_MAXINCR 0x0000ffffu
static _Atomic uint32_t xev_memo[XEV_MEMO];
static inline uint32_t xev_entry(unsigned id)
{
    uint32_t e = atomic_load_explicit(&xev_memo[id], memory_order_relaxed);
    if (__builtin_expect(e == 0, 0)) {
        const ita_event_row *r = ita_xev_row(id);
        e = XEV_KNOWN;
        if (ita_xev_general(r))
            e |= XEV_GENERAL | (r->maxincr & XEV_MAXINCR);
        atomic_store_explicit(&xev_memo[id], e, memory_order_relaxed);
    }
    return e;
}

int ita_xev_passes_fast(const ita_cycle *c)
{
    if (c->nxev > ITA_MAX_XEV)
        return 0;
    for (unsigned i = 0; i < c->nxev; i++) {
        const ita_xev *x = &c->xev[i];
        if (x->id >= XEV_MEMO)
            return 0;
        const uint32_t e = xev_entry(x->id);
        if (!(e & XEV_GENERAL) || x->count == 0 || (x->slot != ITA_XEV_NO_SLOT && x->slot >= c->nslots))
            return 0;
        unsigned sum = 0;
        for (unsigned j = 0; j < c->nxev; j++)
            if (c->xev[j].id == x->id)
                sum += c->xev[j].count;
        if (sum > (e & XEV_MAXINCR))
            return 0;
    }
    return 1;
}

int ita_cycle_passes_fast(const ita_cycle *c)
{
    _Static_assert(ITA_MAX_SLOTS <= 6, "counts of at most 6 in the nibbles");
    _Static_assert(offsetof(ita_cycle, cpl) == 0 && offsetof(ita_cycle, is) == 1 &&
                       offsetof(ita_cycle, power) == 2 && offsetof(ita_cycle, intr) == 3 &&
                       offsetof(ita_cycle, up_we) == 4 && offsetof(ita_cycle, up) == 5 &&
                       offsetof(ita_cycle, pp_we) == 6 && offsetof(ita_cycle, pp) == 7,
                   "cpl .. pp: eight consecutive bytes, in byte_max's order");
    /* The eight one-byte fields cpl .. pp against their largest values in one word: a
     * byte b is within its limit L when its bit 7 is clear and (b & 0x7f) + (0x7f - L)
     * stays below bit 7 (so no byte carries into the next).  The limits are laid out in
     * memory as the fields are, whatever the host's byte order. */
    static const uint8_t byte_max[8] = {3, 1, ITA_POWER_HALT, ITA_INTR_RETURN, 1, 1, 1, 1};
    uint64_t fields, below;
    memcpy(&fields, &c->cpl, sizeof fields);
    memcpy(&below, byte_max, sizeof below);
    below = UINT64_C(0x7f7f7f7f7f7f7f7f) - below;
    const uint64_t over = (((fields & UINT64_C(0x7f7f7f7f7f7f7f7f)) + below) | fields) &
                          UINT64_C(0x8080808080808080);
    unsigned bad = (over != 0) | (c->nslots > ITA_MAX_SLOTS) | (c->if_tlb > ITA_TLB_FAULT) |
                   (c->if_rab > 1) | ita_fast_record(c);
    if (bad)
        return 0;
    /* Slot fields that must be zero are ORed into `zero`; conditions into `bad`.  One loop
     * per instruction set, each with its own rules compiled in. */
    uint64_t zero = 0;
    uint32_t counts = 0;
    const unsigned nslots = c->nslots; /* else reloaded after every flags memo store */
    if (c->is == 0)
        for (unsigned i = 0; i < nslots; i++)
            fast_slot(&c->slot[i], 1, &zero, &counts, &bad);
    else
        for (unsigned i = 0; i < nslots; i++)
            fast_slot(&c->slot[i], 0, &zero, &counts, &bad);
    bad |= zero != 0;
    return !bad && ita_fast_counts_ok(counts);
}

int ita_cycle_validate(const ita_cycle *c, const char *where, pmu_err *err)
{
    return ita_cycle_passes_fast(c) ? 0 : ita_cycle_validate_by_rule(c, where, err);
}

int ita_validate(const void *rec, const char *where, pmu_err *err)
{
    return ita_cycle_validate(rec, where, err);
}
