/*
 * ita_evlib_dispatch.c - from a request (events, opcode matchers, code and data
 * ranges) to the register values that make the PMU count exactly that, under
 * the hardware rules of docs/ita-semantics.md ("Event qualification").
 *
 * Order (libpfm-3 pfmlib_itanium2.c pfm_ita2_dispatch_events()): counters, I-EAR,
 * D-EAR, code ranges, data ranges, opcode matchers, BTB.  docs/ita-event-library.md explains each rule
 * and where it differs from libpfm-3.
 *
 * Sources: docs/sources.md.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/ita/ita_cycle.h"
#include "sw/ita/ita_evlib.h"
#include "ita_evlib_internal.h"

#define NPAIRS ITA_NPAIRS
#define ALL_PAIRS ITA_ALL_PAIRS
#define EVEN_PAIRS ITA_PAIRS_OF_PMC8 /* pairs 0 and 2: tied to PMC8 */
#define ODD_PAIRS ITA_PAIRS_OF_PMC9  /* pairs 1 and 3: tied to PMC9 */
#define NO_RANGE (-1)
#define MATCH_NOTHING (-2) /* a pair programmed to match no address (plm 0) */

/* PMC13 cfg_dbrp for iod = I(4) | O(2) | D(1): libpfm-3 pfmlib_itanium2.c iod_tab
 * (meanings: docs/ita-qualification.md). */
static const ita_dbrp_cfg iod_cfg[8] = {ITA_DBRP_NONE,    ITA_DBRP_DBR,     ITA_DBRP_NONE,    ITA_DBRP_IBR_OPC_DBR,
                                        ITA_DBRP_IBR_OPC, ITA_DBRP_IBR_OPC_DBR, ITA_DBRP_IBR_OPC, ITA_DBRP_IBR_OPC_DBR};
#define IOD_I 4u
#define IOD_O 2u
#define IOD_D 1u

typedef struct br_state {
    ita_evlib_br_pair pair[NPAIRS];
    int range_of[NPAIRS];  /* range index, NO_RANGE or MATCH_NOTHING */
} br_state;

typedef struct dctx {
    const ita_evlib_request *rq;
    ita_evlib_dispatch *out;
    ita_evlib_error *err;
    ita_model model;
    bool irange, drange, opc8, opc9, qualified;
    bool retired_only;
    bool fine, inverse;
    unsigned plm;              /* the events' common plm when ranges are used */
    int tag[ITA_EVLIB_MAX_EVENTS]; /* IBR pair whose tag counts event i (Itanium 2) */
    const ita_event_row *row[ITA_EVLIB_MAX_EVENTS]; /* events[i]'s row on the model */
    bool prefetch;             /* a code-prefetch event is requested */
    ita_evlib_ear_regs ears;      /* PMC10, PMC11 (D-EAR), PMC12 */
    unsigned code_pairs;       /* IBR pairs holding (part of) a code range */
    unsigned code_lower_pairs; /* of those, the pairs the code tag uses for PMC13 */
    unsigned data_pairs;       /* DBR pairs holding a data range */
    br_state ibr, dbr;
} dctx;

static uint64_t reset_of(unsigned space, unsigned index, ita_model m)
{
    const ita_reg_desc *d = ita_reg_lookup(ITA_ADDR(space, index));
    return d ? d->reset[m] : 0;
}
static uint64_t wmask_of(unsigned space, unsigned index, ita_model m)
{
    const ita_reg_desc *d = ita_reg_lookup(ITA_ADDR(space, index));
    return d ? d->wmask[m] : 0;
}

/* IA64_INST_RETIRED and its tagged variants: the event code of IA64_INST_RETIRED. */
static bool is_retired_row(const ita_event_row *r, ita_model m)
{
    const ita_event_row *ret = ita_event_find(m, "IA64_INST_RETIRED");
    return ret && r->code == ret->code && r->type == ITA_EVT_NORMAL;
}

/* The code-prefetch events, which libpfm-3's pfm_dispatch_irange() qualifies through IBR
 * pair 1. */
static bool is_prefetch_row(const ita_event_row *r)
{
    static const char *const names[] = {"L1I_PREFETCHES", "L1I_STRM_PREFETCHES", "L2_INST_PREFETCHES"};
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(r->name, names[i]) == 0)
            return true;
    return false;
}

static const char *ev_name(const dctx *c, unsigned i) { return ita_evlib_event_name(c->rq->events[i].event); }

ita_evlib_request ita_evlib_request_init(ita_model m)
{
    ita_evlib_request r;
    memset(&r, 0, sizeof r);
    r.model = m;
    for (unsigned i = 0; i < ITA_EVLIB_MAX_EVENTS; i++)
        r.events[i].event = -1;
    return r;
}

bool ita_evlib_irange_is_fine(const ita_evlib_dispatch *d) { return d && d->irange_fine; }

bool ita_evlib_dispatch_value(const ita_evlib_dispatch *d, uint16_t addr, uint64_t *value)
{
    if (!d)
        return false;
    for (unsigned i = 0; i < d->nwrites; i++)
        if (d->writes[i].addr == addr) {
            if (value)
                *value = d->writes[i].value;
            return true;
        }
    return false;
}

/* ---- validation ---------------------------------------------------------- */

#define OPC_FIELD_MAX ((uint32_t)((1u << ITA_F_PMC_OPC_MASK_WIDTH) - 1u))
_Static_assert(ITA_F_PMC_OPC_MASK_WIDTH == ITA_F_PMC_OPC_MATCH_WIDTH, "opcode mask and match have one width");

static ita_evlib_err check_opcm(const ita_evlib_opcm *o, const char *name, ita_evlib_error *err)
{
    if (!o->used)
        return ITA_EVLIB_OK;
    if (o->match > OPC_FIELD_MAX || o->mask > OPC_FIELD_MAX)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "%s: match 0x%x / mask 0x%x: each is %d bits (at most 0x%x)",
                           name, o->match, o->mask, ITA_F_PMC_OPC_MASK_WIDTH, OPC_FIELD_MAX);
    if (o->slots == 0 || o->slots > ITA_EVLIB_SLOTS_ALL)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG,
                           "%s: slots 0x%x: expected a non-empty set of M, I, F, B (bits 0..3)", name, o->slots);
    return ITA_EVLIB_OK;
}

static ita_evlib_err check_events(dctx *c);
static ita_evlib_err check_combinations(dctx *c);

/* The request's shape (model, counts, flags, matchers), then its events and how they
 * combine with the ranges and matchers. */
static ita_evlib_err check_request(dctx *c)
{
    const ita_evlib_request *r = c->rq;
    ita_evlib_error *err = c->err;
    if (r->model != ITA_MODEL_ITANIUM && r->model != ITA_MODEL_ITANIUM2)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "model %d: expected Itanium (0) or Itanium 2 (1)", (int)r->model);
    bool free_running = r->iear.used || r->dear.used || r->btb.used;
    if (r->nevents > ITA_EVLIB_MAX_EVENTS || (r->nevents < 1 && !free_running))
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG,
                           "%u events: expected 1..%d (one per counter PMC4..PMC7; 0 only with a free-running "
                           "EAR or BTB)",
                           r->nevents, ITA_EVLIB_MAX_EVENTS);
    if (r->nirange > ITA_EVLIB_MAX_RANGES || r->ndrange > ITA_EVLIB_MAX_RANGES)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_TOO_MANY_RANGES, "%u code and %u data ranges: at most %d of each",
                           r->nirange, r->ndrange, ITA_EVLIB_MAX_RANGES);
    if (r->irange_flags & ~(ITA_EVLIB_RR_INV | ITA_EVLIB_RR_NO_FINE_MODE | ITA_EVLIB_RR_FINE_2BUNDLE))
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "irange_flags 0x%x: unknown flag bits", r->irange_flags);
    if (r->irange_flags && r->nirange == 0)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "irange_flags 0x%x given without a code range",
                           r->irange_flags);
    ita_evlib_err e = check_opcm(&r->pmc8, "PMC8", err);
    if (!e)
        e = check_opcm(&r->pmc9, "PMC9", err);
    if (!e)
        e = check_events(c);
    if (!e)
        e = check_combinations(c);
    return e;
}

/* Each event: valid, on the model, its plm, threshold and ism, the qualifiers in use;
 * notes the IBR pair whose tag it counts. */
static ita_evlib_err check_events(dctx *c)
{
    const ita_evlib_request *r = c->rq;
    ita_evlib_error *err = c->err;
    c->model = r->model;
    c->irange = r->nirange > 0;
    c->drange = r->ndrange > 0;
    c->opc8 = r->pmc8.used;
    c->opc9 = r->pmc9.used;
    c->qualified = c->irange || c->drange || c->opc8 || c->opc9;
    c->inverse = c->irange && (r->irange_flags & ITA_EVLIB_RR_INV);
    c->retired_only = true;

    for (unsigned i = 0; i < r->nevents; i++) {
        const ita_evlib_event_spec *s = &r->events[i];
        if (!ita_evlib_event_valid(s->event))
            return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "event #%u: id %d is not an event (ids are below %u)", i + 1,
                               s->event, ita_evlib_num_events());
        const ita_event_row *d = ita_evlib_event_row(s->event, c->model);
        if (!d)
            return ita_evlib_fail(err, ITA_EVLIB_ERR_NOT_ON_MODEL, "event %s is not implemented on %s",
                               ita_evlib_event_name(s->event), ita_evlib_model_name(c->model));
        c->row[i] = d;
        if (s->plm < 1 || s->plm > ITA_EVLIB_PLM_ALL)
            return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "event %s: plm 0x%x: expected a mask 0x1..0xf", d->name,
                               s->plm);
        if (s->thres >= d->maxincr)
            return ita_evlib_fail(err, ITA_EVLIB_ERR_THRESHOLD, "event %s: threshold %u >= maxincr %u on %s (allowed 0..%u)",
                               d->name, s->thres, d->maxincr, ita_evlib_model_name(c->model), d->maxincr - 1u);
        if ((unsigned)s->ism > ITA_EVLIB_ISM_IA64)
            return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "event %s: ism %d: not a ita_evlib_ism value", d->name,
                               (int)s->ism);
        if (c->qualified && (s->ism == ITA_EVLIB_ISM_BOTH || s->ism == ITA_EVLIB_ISM_IA32))
            return ita_evlib_fail(err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                               "event %s: ism=%s with range restriction or opcode matching: IA-32 instructions are "
                               "not qualified, so they would count unrestricted (use ism=ia64)",
                               d->name, s->ism == ITA_EVLIB_ISM_BOTH ? "both" : "ia32");
        if (c->irange && !ita_evlib_row_supports(d, s->event, 'i'))
            return ita_evlib_fail(err, ITA_EVLIB_ERR_QUALIFIER, "event %s does not support code range restriction",
                               d->name);
        if (c->drange && !ita_evlib_row_supports(d, s->event, 'd'))
            return ita_evlib_fail(err, ITA_EVLIB_ERR_QUALIFIER, "event %s does not support data range restriction",
                               d->name);
        if ((c->opc8 || c->opc9) && !ita_evlib_row_supports(d, s->event, 'o'))
            return ita_evlib_fail(err, ITA_EVLIB_ERR_QUALIFIER, "event %s does not support opcode matching", d->name);
        bool retired = is_retired_row(d, c->model);
        if (!retired)
            c->retired_only = false;
        /* Itanium 2: IA64_TAGGED_INST_RETIRED umask k counts the tag of pair k, a prefetch
         * event pair 1's, every other event pair 0's (Tag(PMC8)).  Itanium: only the
         * matcher matters, IA64_TAGGED_INST_RETIRED_PMC9 (umask 2) is PMC9's (odd). */
        if (c->model == ITA_MODEL_ITANIUM)
            c->tag[i] = retired && d->umask == 2 ? 1 : 0;
        else
            c->tag[i] = retired ? (int)d->umask : is_prefetch_row(d) ? 1 : 0;
        if (is_prefetch_row(d))
            c->prefetch = true;
    }
    return ITA_EVLIB_OK;
}

/* What the events, ranges and matchers of a request need of each other. */
static ita_evlib_err check_combinations(dctx *c)
{
    const ita_evlib_request *r = c->rq;
    ita_evlib_error *err = c->err;
    if ((c->irange || c->drange)) {
        c->plm = r->events[0].plm;
        for (unsigned i = 1; i < r->nevents; i++)
            if (r->events[i].plm != c->plm)
                return ita_evlib_fail(err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                                   "events %s (plm 0x%x) and %s (plm 0x%x): with range restriction every event "
                                   "needs the same privilege levels (the debug registers' plm)",
                                   ev_name(c, 0), c->plm, ev_name(c, i), r->events[i].plm);
    }
    /* libpfm-3 pfm_dispatch_irange(): the prefetch events are qualified through IBR pair 1,
     * so with a code range every other event must count that pair too. */
    if (c->irange && c->prefetch && c->model == ITA_MODEL_ITANIUM2)
        for (unsigned i = 0; i < r->nevents; i++)
            if (c->tag[i] != 1)
                return ita_evlib_fail(err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                                   "event %s: with a code range the prefetch events (L1I_PREFETCHES, "
                                   "L1I_STRM_PREFETCHES, L2_INST_PREFETCHES) are qualified by IBR pair 1, so every "
                                   "other event must be one of them or IA64_TAGGED_INST_RETIRED_IBRP1_PMC9",
                                   ev_name(c, i));
    /* A matcher must qualify something: PMC8 the even pairs' tags, PMC9 the odd ones'. */
    unsigned tag_parities = 0;
    for (unsigned i = 0; i < r->nevents; i++)
        tag_parities |= 1u << (c->tag[i] & 1);
    if (c->opc9 && !c->retired_only)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                           "PMC9 can be used only when every event is a retired-instruction event "
                           "(IA64_INST_RETIRED, IA64_TAGGED_INST_RETIRED_*)");
    if (c->opc9 && !(tag_parities & 2u))
        return ita_evlib_fail(err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                           "PMC9 qualifies only IA64_TAGGED_INST_RETIRED_IBRP1_PMC9 and _IBRP3_PMC9; neither is "
                           "requested");
    if (c->opc8 && !(tag_parities & 1u))
        return ita_evlib_fail(err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                           "PMC8 qualifies the events of IBR pairs 0 and 2 (every event but "
                           "IA64_TAGGED_INST_RETIRED_IBRP1/3_PMC9); none is requested");
    if (c->model == ITA_MODEL_ITANIUM && c->irange) {
        if (c->inverse)
            return ita_evlib_fail(err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                               "inverted code ranges need PMC8.inv, which Itanium does not have");
        if (r->irange_flags & ITA_EVLIB_RR_FINE_2BUNDLE)
            return ita_evlib_fail(err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                               "the two-bundle fine-mode granularity flag applies to Itanium 2; Itanium has no "
                               "fine mode");
    }
    return ITA_EVLIB_OK;
}

/* ---- counters ------------------------------------------------------------ */

typedef struct assign_ctx {
    const dctx *c;
    unsigned allowed[ITA_EVLIB_MAX_EVENTS]; /* bit k = PMCk */
    unsigned counter[ITA_EVLIB_MAX_EVENTS];
    bool need_l1d_on_pmc5, need_l2_on_pmc4;
} assign_ctx;

/* libpfm-3 valid_assign(): an L1D-group event on PMC5, an L2-group event on PMC4, and for
 * L2 sets other than 1 and 2 the PMC4 event's umask is every L2 event's (an L2 event
 * with another non-zero umask conflicts). */
static bool assignment_ok(const assign_ctx *a)
{
    const dctx *c = a->c;
    int l1d_on_5 = -1, l2_on_4 = -1;
    for (unsigned i = 0; i < c->rq->nevents; i++) {
        unsigned grp = c->row[i]->group;
        if (grp == ITA_EVLIB_GROUP_L1D && a->counter[i] == ITA_FIRST_COUNTER + 1)
            l1d_on_5 = (int)i;
        if (grp == ITA_EVLIB_GROUP_L2 && a->counter[i] == ITA_FIRST_COUNTER)
            l2_on_4 = (int)i;
    }
    if ((a->need_l1d_on_pmc5 && l1d_on_5 < 0) || (a->need_l2_on_pmc4 && l2_on_4 < 0))
        return false;
    if (l2_on_4 < 0)
        return true;
    const ita_event_row *key = c->row[l2_on_4];
    if (key->set == 1 || key->set == 2)
        return true;
    for (unsigned i = 0; i < c->rq->nevents; i++)
        if ((int)i != l2_on_4 && c->row[i]->group == ITA_EVLIB_GROUP_L2 && c->row[i]->umask != 0 &&
            c->row[i]->umask != key->umask)
            return false;
    return true;
}

/* First valid assignment in lexicographic order (event order, lowest counter first). */
static bool assign_from(assign_ctx *a, unsigned i, unsigned taken)
{
    if (i == a->c->rq->nevents)
        return assignment_ok(a);
    for (unsigned k = ITA_FIRST_COUNTER; k < ITA_FIRST_COUNTER + ITA_NCOUNTERS; k++) {
        if (!((a->allowed[i] >> k) & 1u) || ((taken >> k) & 1u))
            continue;
        a->counter[i] = k;
        if (assign_from(a, i + 1, taken | (1u << k)))
            return true;
    }
    return false;
}

/* libpfm-3 check_cancel_events(): at most one of the L2_OZQ_CANCELS0/1/2 events (their
 * three codes) can be measured at a time. */
static ita_evlib_err check_cancel_events(const dctx *c)
{
    static const char *const keys[] = {"L2_OZQ_CANCELS0_ANY", "L2_OZQ_CANCELS1_REL", "L2_OZQ_CANCELS2_ACQ"};
    int first = -1;
    for (unsigned i = 0; i < c->rq->nevents; i++)
        for (unsigned j = 0; j < sizeof keys / sizeof keys[0]; j++) {
            const ita_event_row *k = ita_event_find(c->model, keys[j]);
            if (!k || c->row[i]->code != k->code)
                continue;
            if (first >= 0)
                return ita_evlib_fail(c->err, ITA_EVLIB_ERR_BAD_ARG,
                                   "events %s and %s: only one L2_OZQ_CANCELS0/1/2 event can be measured at a time",
                                   ev_name(c, (unsigned)first), ev_name(c, i));
            first = (int)i;
        }
    return ITA_EVLIB_OK;
}

static void counters_text(unsigned mask, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned k = ITA_FIRST_COUNTER; k < ITA_FIRST_COUNTER + ITA_NCOUNTERS; k++)
        if ((mask >> k) & 1u)
            n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%sPMC%u", n ? "/" : "", k);
    if (!mask)
        snprintf(buf, len, "no counter");
}

static ita_evlib_err assign_counters(dctx *c)
{
    const ita_evlib_request *r = c->rq;
    assign_ctx a;
    memset(&a, 0, sizeof a);
    a.c = c;
    int set_of_group[3] = {-1, -1, -1};
    int first_of_group[3] = {-1, -1, -1};
    for (unsigned i = 0; i < r->nevents; i++) {
        const ita_event_row *d = c->row[i];
        unsigned allowed = 0;
        for (unsigned k = ITA_FIRST_COUNTER; k < ITA_FIRST_COUNTER + ITA_NCOUNTERS; k++) {
            /* Itanium PMC6/7 hold a 2-bit threshold: the writable mask says how wide. */
            uint64_t max_thres = ITA_FGET(wmask_of(ITA_SPACE_PMC, k, c->model), PMC_GEN, THRES);
            if (((d->counters >> k) & 1u) && r->events[i].thres <= max_thres)
                allowed |= 1u << k;
        }
        a.allowed[i] = allowed;
        /* Groups and sets are Itanium 2 cache-event rules (libpfm-3
         * check_cross_groups_and_umasks(), valid_assign()). */
        if (c->model == ITA_MODEL_ITANIUM2 && d->group != ITA_EVLIB_GROUP_NONE && d->group <= ITA_EVLIB_GROUP_L2) {
            if (set_of_group[d->group] >= 0 && set_of_group[d->group] != d->set)
                return ita_evlib_fail(c->err, ITA_EVLIB_ERR_INCOMPATIBLE_SETS,
                                   "events %s (%s set %d) and %s (set %u) are from different sets of one cache "
                                   "group and cannot be measured together",
                                   ev_name(c, (unsigned)first_of_group[d->group]),
                                   d->group == ITA_EVLIB_GROUP_L1D ? "L1D" : "L2", set_of_group[d->group], d->name,
                                   d->set);
            set_of_group[d->group] = d->set;
            first_of_group[d->group] = (int)i;
            if (d->group == ITA_EVLIB_GROUP_L1D)
                a.need_l1d_on_pmc5 = true;
            else
                a.need_l2_on_pmc4 = true;
        }
    }
    if (c->model == ITA_MODEL_ITANIUM2) {
        ita_evlib_err e = check_cancel_events(c);
        if (e)
            return e;
    }
    if (!assign_from(&a, 0, 0)) {
        char msg[ITA_EVLIB_MSG_LEN];
        size_t n = (size_t)snprintf(msg, sizeof msg, "no assignment of PMC4..PMC7 fits:");
        for (unsigned i = 0; i < r->nevents && n < sizeof msg; i++) {
            char cs[40];
            counters_text(a.allowed[i], cs, sizeof cs);
            n += (size_t)snprintf(msg + n, sizeof msg - n, "%s %s can use %s", i ? "," : "", ev_name(c, i), cs);
        }
        if ((a.need_l1d_on_pmc5 || a.need_l2_on_pmc4) && n < sizeof msg)
            snprintf(msg + n, sizeof msg - n, "%s%s", a.need_l1d_on_pmc5 ? "; an L1D event must be on PMC5" : "",
                     a.need_l2_on_pmc4 ? "; an L2 event must be on PMC4" : "");
        return ita_evlib_fail(c->err, ITA_EVLIB_ERR_NO_COUNTER, "%s", msg);
    }
    memcpy(c->out->counter, a.counter, sizeof a.counter);
    return ITA_EVLIB_OK;
}

/* ---- covers over a list of pairs ----------------------------------------- */

static unsigned popcount(unsigned x) { return (unsigned)__builtin_popcount(x); }

/* The i-th set bit of mask. */
static unsigned nth_pair(unsigned mask, unsigned i)
{
    for (unsigned k = 0; k < NPAIRS; k++)
        if ((mask >> k) & 1u) {
            if (i == 0)
                return k;
            i--;
        }
    return NPAIRS;
}

static void place_cover(br_state *s, const ita_evlib_cover *cv, unsigned pairs, int range, ita_evlib_range_result *res)
{
    res->soff = cv->soff;
    res->eoff = cv->eoff;
    res->pairs = 0;
    for (unsigned j = 0; j < cv->npairs; j++) {
        unsigned k = nth_pair(pairs, j);
        s->pair[k] = cv->pair[j];
        s->range_of[k] = range;
        res->pairs |= 1u << k;
    }
}

/* Bit-mask covers of `n` ranges on the pairs in `avail`: one range gets every
 * pair (libpfm-3); several share them out evenly, a range's unused pairs going
 * to the next ones. */
static ita_evlib_err cover_ranges(dctx *c, const ita_evlib_range *rg, unsigned n, unsigned avail, br_state *s,
                               ita_evlib_range_result *res, const char *what)
{
    if (popcount(avail) < n)
        return ita_evlib_fail(c->err, ITA_EVLIB_ERR_TOO_MANY_RANGES,
                           "%u %s ranges need at least %u debug-register pairs; %u are usable here%s", n, what, n,
                           popcount(avail),
                           c->retired_only && s == &c->ibr && c->model == ITA_MODEL_ITANIUM2
                               ? " (with retired-instruction events each pair needs its own "
                                 "IA64_TAGGED_INST_RETIRED_IBRPk event)"
                               : "");
    for (unsigned i = 0; i < n; i++) {
        unsigned budget = popcount(avail) / (n - i); /* >= 1: each range uses at most its budget */
        ita_evlib_cover cv;
        ita_evlib_err e = ita_evlib_cover_bitmask(rg[i].start, rg[i].end, budget, &cv, c->err);
        if (e)
            return e;
        place_cover(s, &cv, avail, (int)i, &res[i]);
        avail &= ~res[i].pairs;
    }
    return ITA_EVLIB_OK;
}

static ita_evlib_err check_bounds(dctx *c, const ita_evlib_range *rg, unsigned n, bool code)
{
    for (unsigned i = 0; i < n; i++) {
        if (rg[i].start >= rg[i].end)
            return ita_evlib_fail(c->err, ITA_EVLIB_ERR_RANGE_INVALID,
                               "%s range #%u 0x%" PRIx64 "..0x%" PRIx64 ": start must be below end (end is "
                               "exclusive)",
                               code ? "code" : "data", i + 1, rg[i].start, rg[i].end);
        if (code && (rg[i].start % ITA_EVLIB_BUNDLE || rg[i].end % ITA_EVLIB_BUNDLE))
            return ita_evlib_fail(c->err, ITA_EVLIB_ERR_RANGE_ALIGN,
                               "code range #%u 0x%" PRIx64 "..0x%" PRIx64 ": both ends must be 16-byte (bundle) "
                               "aligned",
                               i + 1, rg[i].start, rg[i].end);
    }
    return ITA_EVLIB_OK;
}

/* ---- code ranges --------------------------------------------------------- */

static ita_evlib_err code_ranges_ita2(dctx *c)
{
    const ita_evlib_request *r = c->rq;
    ita_evlib_dispatch *o = c->out;
    unsigned n = r->nirange;

    for (unsigned i = 0; i < r->nevents; i++) {
        if (c->inverse && c->tag[i] != 0)
            return ita_evlib_fail(c->err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                               "event %s counts IBR pair %d; an inverted code range works on pair 0 only", ev_name(c, i),
                               c->tag[i]);
        if (c->opc8 && (c->tag[i] & 1))
            return ita_evlib_fail(c->err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                               "event %s counts IBR pair %d, which PMC9 qualifies, but only PMC8 is given: with a "
                               "code range every pair must carry the same opcode qualification",
                               ev_name(c, i), c->tag[i]);
        if (c->opc9 && !(c->tag[i] & 1))
            return ita_evlib_fail(c->err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                               "event %s counts IBR pair %d, which PMC8 qualifies, but PMC9 is given: with a code "
                               "range every pair must carry the same opcode qualification",
                               ev_name(c, i), c->tag[i]);
    }
    if (c->inverse && n != 1)
        return ita_evlib_fail(c->err, ITA_EVLIB_ERR_FEATURE_COMBINATION,
                           "an inverted code range must be the only code range (%u given)", n);

    if (c->fine) {
        /* Comparator A (pairs 0 + 2) counts for the even tags, B (1 + 3) for the odd
         * ones; the ranges take the comparators that have events, in order. */
        unsigned comp[2], ncomp = 0;
        for (unsigned cmp = 0; cmp < 2; cmp++)
            for (unsigned i = 0; i < r->nevents; i++)
                if ((unsigned)(c->tag[i] & 1) == cmp) {
                    comp[ncomp++] = cmp;
                    break;
                }
        for (unsigned i = 0; i < n; i++) {
            unsigned lo = comp[i], hi = comp[i] + 2;
            ita_evlib_cover cv;
            ita_evlib_err e = ita_evlib_cover_fine(r->irange[i].start, r->irange[i].end,
                                             (r->irange_flags & ITA_EVLIB_RR_FINE_2BUNDLE) != 0, &cv, c->err);
            if (e)
                return e;
            c->ibr.pair[lo] = cv.pair[0];
            c->ibr.pair[hi] = cv.pair[1];
            c->ibr.range_of[lo] = c->ibr.range_of[hi] = (int)i;
            o->irange[i].soff = cv.soff;
            o->irange[i].eoff = cv.eoff;
            o->irange[i].pairs = (1u << lo) | (1u << hi);
            o->irange[i].fine = true;
            c->code_lower_pairs |= 1u << lo;
        }
    } else if (c->retired_only) {
        /* Every pair counts through its own IA64_TAGGED_INST_RETIRED_IBRPk event
         * (libpfm-3 pfm_dispatch_irange(), its "Exception 2" comment), so the usable
         * pairs are the requested tags. */
        unsigned avail = 0;
        for (unsigned i = 0; i < r->nevents; i++)
            avail |= 1u << c->tag[i];
        ita_evlib_cover cv;
        if (n == 1 && ita_evlib_cover_bitmask(r->irange[0].start, r->irange[0].end, NPAIRS, &cv, NULL) == ITA_EVLIB_OK &&
            (((1u << cv.npairs) - 1u) & ~avail) == 0) {
            /* libpfm-3's choice (pairs 0, 1, ... in order) when its pairs all have events. */
            place_cover(&c->ibr, &cv, ALL_PAIRS, 0, &o->irange[0]);
        } else {
            ita_evlib_err e = cover_ranges(c, r->irange, n, avail, &c->ibr, o->irange, "code");
            if (e)
                return e;
        }
        for (unsigned i = 0; i < n; i++)
            c->code_lower_pairs |= o->irange[i].pairs;
    } else {
        /* Events other than retired instructions see only IBR pair 0, the prefetch
         * events only pair 1 (libpfm-3 pfm_dispatch_irange()). */
        if (n > 1)
            return ita_evlib_fail(c->err, ITA_EVLIB_ERR_TOO_MANY_RANGES,
                               "%u code ranges: with events other than IA64_INST_RETIRED / "
                               "IA64_TAGGED_INST_RETIRED_* only IBR pair 0 qualifies them, so one range (or two in "
                               "fine mode with tagged retired events)",
                               n);
        ita_evlib_cover cv;
        ita_evlib_err e = ita_evlib_cover_single(r->irange[0].start, r->irange[0].end, &cv, c->err);
        if (e)
            return e;
        place_cover(&c->ibr, &cv, c->prefetch ? 2u : 1u, 0, &o->irange[0]);
        c->code_lower_pairs |= c->prefetch ? 2u : 1u;
    }

    /* A tagged event whose pair holds no range counts nothing: its pair matches no address. */
    for (unsigned i = 0; i < r->nevents; i++) {
        unsigned k = (unsigned)c->tag[i];
        if (c->ibr.range_of[k] == NO_RANGE) {
            c->ibr.range_of[k] = MATCH_NOTHING;
            if (c->fine) /* pairs k and k^2 form one fine-mode comparator */
                c->ibr.range_of[k ^ 2u] = MATCH_NOTHING;
        }
    }
    for (unsigned i = 0; i < r->nevents; i++)
        o->tag_pair[i] = c->tag[i];
    return ITA_EVLIB_OK;
}

static ita_evlib_err code_ranges(dctx *c)
{
    const ita_evlib_request *r = c->rq;
    ita_evlib_err e = check_bounds(c, r->irange, r->nirange, true);
    if (e)
        return e;
    c->out->nirange = r->nirange;
    if (c->model == ITA_MODEL_ITANIUM2) {
        c->fine = !(r->irange_flags & ITA_EVLIB_RR_NO_FINE_MODE);
        for (unsigned i = 0; i < r->nirange; i++)
            if (!ita_evlib_fine_eligible(r->irange[i].start, r->irange[i].end))
                c->fine = false;
        /* In fine mode pairs k and k^2 are one comparator: events of both would
         * count the same instructions twice when summed, so use bit-mask mode. */
        unsigned tags = 0;
        for (unsigned i = 0; i < r->nevents; i++)
            tags |= 1u << c->tag[i];
        if ((tags & EVEN_PAIRS) == EVEN_PAIRS || (tags & ODD_PAIRS) == ODD_PAIRS)
            c->fine = false;
        /* At most one fine range per comparator that has events; more ranges use bit-mask mode. */
        unsigned comparators = ((tags & EVEN_PAIRS) != 0) + ((tags & ODD_PAIRS) != 0);
        if (r->nirange > comparators)
            c->fine = false;
        c->out->irange_fine = c->fine;
        e = code_ranges_ita2(c);
    } else {
        /* Itanium tags an instruction when any IBR pair matches (PMC13.ta = 0). */
        e = cover_ranges(c, r->irange, r->nirange, ALL_PAIRS, &c->ibr, c->out->irange, "code");
    }
    if (e)
        return e;
    for (unsigned k = 0; k < NPAIRS; k++)
        if (c->ibr.range_of[k] != NO_RANGE)
            c->code_pairs |= 1u << k;
    return ITA_EVLIB_OK;
}

/* ---- data ranges --------------------------------------------------------- */

static ita_evlib_err data_ranges(dctx *c)
{
    const ita_evlib_request *r = c->rq;
    ita_evlib_err e = check_bounds(c, r->drange, r->ndrange, false);
    if (e)
        return e;
    c->out->ndrange = r->ndrange;
    unsigned avail = ALL_PAIRS;
    if (c->model == ITA_MODEL_ITANIUM2 && (c->opc8 || c->inverse)) {
        /* Memory events count OR over the DBR pairs of (code tag k AND DBR pair k).
         * Only the even pairs carry PMC8's opcode tag and PMC8.inv. */
        avail = EVEN_PAIRS;
    }
    e = cover_ranges(c, r->drange, r->ndrange, avail, &c->dbr, c->out->drange, "data");
    if (e)
        return e;
    for (unsigned k = 0; k < NPAIRS; k++)
        if (c->dbr.range_of[k] != NO_RANGE)
            c->data_pairs |= 1u << k;

    if (c->model == ITA_MODEL_ITANIUM2 && c->irange) {
        /* Each DBR pair k ANDs with code tag k: give every such pair the code range. */
        for (unsigned k = 1; k < NPAIRS; k++) {
            if (!((c->data_pairs >> k) & 1u) || c->ibr.range_of[k] == 0)
                continue;
            if (c->fine) { /* pairs 1 and 3 form comparator B: make it a copy of A (pairs 0 and 2) */
                c->ibr.pair[k] = c->ibr.pair[k ^ 1u];
                c->ibr.range_of[k] = 0;
                c->ibr.pair[k ^ 2u] = c->ibr.pair[(k ^ 2u) ^ 1u];
                c->ibr.range_of[k ^ 2u] = 0;
            } else {
                c->ibr.pair[k] = c->ibr.pair[0];
                c->ibr.range_of[k] = 0;
            }
            unsigned copied = c->fine ? (1u << k) | (1u << (k ^ 2u)) : 1u << k;
            c->code_pairs |= copied;
            c->out->irange[0].pairs |= copied;
        }
        c->code_lower_pairs = c->data_pairs;
    }
    return ITA_EVLIB_OK;
}

/* ---- registers ----------------------------------------------------------- */

static void add_write(ita_evlib_dispatch *o, unsigned space, unsigned index, uint64_t value)
{
    o->writes[o->nwrites].addr = ITA_ADDR(space, index);
    o->writes[o->nwrites].value = value;
    o->nwrites++;
}

static uint64_t opcm_value(const dctx *c, unsigned index, const ita_evlib_opcm *u)
{
    uint64_t v = reset_of(ITA_SPACE_PMC, index, c->model);
    return u->used ? ita_opcm_set(v, u->match, u->mask, u->slots) : v;
}

static void write_pairs(dctx *c, unsigned space, const br_state *s)
{
    for (unsigned k = 0; k < NPAIRS; k++) {
        if (s->range_of[k] == NO_RANGE)
            continue;
        uint64_t addr = 0, odd = 0; /* plm 0: matches nothing */
        if (s->range_of[k] != MATCH_NOTHING) {
            addr = s->pair[k].addr;
            odd = ita_pair_odd(0, s->pair[k].mask, c->plm);
        }
        add_write(c->out, space, 2 * k, addr);
        add_write(c->out, space, 2 * k + 1, odd);
    }
}

/* The ism field (PMC4..7, PMC10, PMC11: bit 0 set = IA-64 off, bit 1 set = IA-32 off) of
 * an ism; `dflt_ia64`: DEFAULT means IA-64 only. */
static unsigned ism_field_of(ita_evlib_ism ism, bool dflt_ia64)
{
    switch (ism) {
    case ITA_EVLIB_ISM_IA32: return 1;
    case ITA_EVLIB_ISM_IA64: return 2;
    case ITA_EVLIB_ISM_BOTH: return 0;
    default: return dflt_ia64 ? 2 : 0;
    }
}

static uint64_t counter_value(const dctx *c, unsigned i, unsigned pmc)
{
    const ita_evlib_event_spec *s = &c->rq->events[i];
    const ita_event_row *d = c->row[i];
    unsigned ism_field = ism_field_of(s->ism, c->qualified);
    uint64_t v = reset_of(ITA_SPACE_PMC, pmc, c->model); /* keeps Itanium 2 PMC4's power-enable bit */
    v = ITA_FSET(v, PMC_GEN, PLM, s->plm);
    v = ITA_FSET(v, PMC_GEN, OI, 1);
    v = ITA_FSET(v, PMC_GEN, PM, s->pm ? 1 : 0);
    v = ITA_FSET(v, PMC_GEN, ES, d->code);
    /* An EAR event's umask is the EAR's (libpfm-3 pfm_ita2_dispatch_counters()). */
    bool ear = d->type != ITA_EVT_NORMAL && d->type != ITA_EVT_BTB;
    v = ITA_FSET(v, PMC_GEN, UMASK, ear ? 0u : d->umask);
    v = ITA_FSET(v, PMC_GEN, THRES, s->thres);
    v = ITA_FSET(v, PMC_GEN, ISM, ism_field);
    return v;
}

/* PMC13: for each pair, what qualifies memory events through it (iod_cfg) and whether
 * it is enabled (anything at all). */
static uint64_t pmc13_value(const dctx *c)
{
    uint64_t v = reset_of(ITA_SPACE_PMC, 13, c->model);
    for (unsigned k = 0; k < NPAIRS; k++) {
        unsigned iod = (((c->code_lower_pairs >> k) & 1u) ? IOD_I : 0) | ((k & 1u ? c->opc9 : c->opc8) ? IOD_O : 0) |
                       (((c->data_pairs >> k) & 1u) ? IOD_D : 0);
        v = ita_pmc13_set_pair(v, k, iod_cfg[iod], iod != 0);
    }
    return v;
}

/* The pairs whose tag also needs its matcher: the pairs of a matcher in use, wherever
 * their tag is counted (an event's tag pair, or a data-range pair). */
static unsigned tied_pairs(const dctx *c)
{
    unsigned counted = c->data_pairs;
    for (unsigned i = 0; i < c->rq->nevents; i++)
        counted |= 1u << c->tag[i];
    return counted & ((c->opc8 ? EVEN_PAIRS : 0) | (c->opc9 ? ODD_PAIRS : 0));
}

static void build_writes(dctx *c)
{
    const ita_evlib_request *r = c->rq;
    ita_evlib_dispatch *o = c->out;
    ita_model m = c->model;
    if (m == ITA_MODEL_ITANIUM2) {
        if (c->opc8 || c->irange) {
            uint64_t v = opcm_value(c, 8, &r->pmc8);
            v = ITA_FSET(v, PMC_OPC, IG_AD, c->irange ? 0 : 1);
            v = ITA_FSET(v, PMC_OPC, INV, c->inverse ? 1 : 0);
            add_write(o, ITA_SPACE_PMC, 8, v);
        }
        if (c->opc9) {
            uint64_t v = opcm_value(c, 9, &r->pmc9);
            v = ITA_FSET(ITA_FSET(v, PMC_OPC, IG_AD, 1), PMC_OPC, INV, 0);
            add_write(o, ITA_SPACE_PMC, 9, v);
        }
        if (c->qualified)
            add_write(o, ITA_SPACE_PMC, 13, pmc13_value(c));
        if (c->irange) /* ibrp_k = 0: constrained by pair k */
            add_write(o, ITA_SPACE_PMC, 14, ita_pmc14_set(reset_of(ITA_SPACE_PMC, 14, m), c->code_pairs, c->fine));
        if (c->opc8 || c->opc9 || c->irange)
            add_write(o, ITA_SPACE_PMC, 15, ita_pmc15_set(reset_of(ITA_SPACE_PMC, 15, m), ALL_PAIRS, tied_pairs(c)));
    } else {
        if (c->opc8)
            add_write(o, ITA_SPACE_PMC, 8, opcm_value(c, 8, &r->pmc8));
        if (c->opc9)
            add_write(o, ITA_SPACE_PMC, 9, opcm_value(c, 9, &r->pmc9));
        /* pt = 0: memory events need a DBR match; written before the DBRs (Linux
         * perfmon_itanium.h pfm_ita_pmc_check() clears them when pt goes to 0).  PMC11
         * is also the D-EAR's: one write carries both. */
        if (c->drange || c->ears.dear) {
            uint64_t v = c->ears.dear ? c->ears.pmc11 : reset_of(ITA_SPACE_PMC, 11, m);
            add_write(o, ITA_SPACE_PMC, 11, c->drange ? ITA_FSET(v, PMC11, PT, 0) : v);
        }
        if (c->irange) /* ta = 0: instructions need an IBR match */
            add_write(o, ITA_SPACE_PMC, 13, ITA_FSET(reset_of(ITA_SPACE_PMC, 13, m), PMC13, TA, 0));
    }
    if (c->ears.iear)
        add_write(o, ITA_SPACE_PMC, 10, c->ears.pmc10);
    if (c->ears.dear && m == ITA_MODEL_ITANIUM2)
        add_write(o, ITA_SPACE_PMC, 11, c->ears.pmc11);
    if (c->ears.btb)
        add_write(o, ITA_SPACE_PMC, 12, c->ears.pmc12);
    if (c->irange)
        write_pairs(c, ITA_SPACE_IBR, &c->ibr);
    if (c->drange)
        write_pairs(c, ITA_SPACE_DBR, &c->dbr);
    for (unsigned k = ITA_FIRST_COUNTER; k < ITA_FIRST_COUNTER + ITA_NCOUNTERS; k++)
        for (unsigned i = 0; i < r->nevents; i++)
            if (o->counter[i] == k)
                add_write(o, ITA_SPACE_PMC, k, counter_value(c, i, k));
}

ita_evlib_err ita_evlib_dispatch_request(const ita_evlib_request *req, ita_evlib_dispatch *out, ita_evlib_error *err)
{
    if (!req || !out)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "request or output pointer is NULL");
    ita_evlib_dispatch res;
    memset(&res, 0, sizeof res);
    dctx c;
    memset(&c, 0, sizeof c);
    c.rq = req;
    c.out = &res;
    c.err = err;
    for (unsigned k = 0; k < NPAIRS; k++)
        c.ibr.range_of[k] = c.dbr.range_of[k] = NO_RANGE;
    for (unsigned i = 0; i < ITA_EVLIB_MAX_EVENTS; i++)
        res.tag_pair[i] = -1;

    ita_evlib_err e = check_request(&c);
    if (!e && req->nevents)
        e = assign_counters(&c);
    if (!e)
        e = ita_evlib_dispatch_ears(&c.ears, req, err);
    if (!e && c.irange)
        e = code_ranges(&c);
    if (!e && c.drange)
        e = data_ranges(&c);
    if (e)
        return e;
    build_writes(&c);
    *out = res;
    return ita_evlib_ok(err);
}
