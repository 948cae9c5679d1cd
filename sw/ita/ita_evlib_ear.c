/*
 * ita_evlib_ear.c - the event address registers (I-EAR PMC10, D-EAR PMC11) and the branch
 * trace buffer (PMC12) of a request, by the four methods of the libpfm_itanium2(3) man
 * page (docs/ita-event-library.md, "EARs and the BTB"):
 *   1. an EAR/BTB event in the list, `used` clear: the unit is programmed from the
 *      event (its type and umask; the BTB records all branches) at the event's plm;
 *   2. an event and `used` set: from the request's ita_evlib_ear / ita_evlib_btb;
 *   3. neither: the unit is not programmed;
 *   4. `used` set without an event: from the request (free running).
 * The event itself is counted by a counter like any event (the counters' part of the
 * dispatch).  Register layouts are the .def's fields (docs/ita-ear-btb.md, ita-register-map.md).
 */
#include <string.h>

#include "sw/ita/ita_evlib.h"
#include "ita_evlib_internal.h"

static uint64_t reset_pmc(unsigned index, ita_model m)
{
    const ita_reg_desc *d = ita_reg_lookup(ITA_ADDR(ITA_SPACE_PMC, index));
    return d ? d->reset[m] : 0;
}

/* The first event of the request whose type is in `types` (bit = 1 << type), or -1. */
static int first_of_types(const ita_evlib_request *rq, unsigned types)
{
    for (unsigned i = 0; i < rq->nevents; i++) {
        const ita_event_row *r = ita_evlib_event_row(rq->events[i].event, rq->model);
        if (r && ((types >> r->type) & 1u))
            return (int)i;
    }
    return -1;
}

#define TBIT(t) (1u << (t))
#define IEAR_TYPES (TBIT(ITA_EVT_IEAR_TLB) | TBIT(ITA_EVT_IEAR_CACHE))
#define DEAR_TYPES (TBIT(ITA_EVT_DEAR_TLB) | TBIT(ITA_EVT_DEAR_CACHE) | TBIT(ITA_EVT_DEAR_ALAT))

/* The plm a unit takes when its configuration gives none: the first event's, else user
 * level (pfmon's default). */
static unsigned default_plm(const ita_evlib_request *rq)
{
    return rq->nevents ? rq->events[0].plm : ITA_EVLIB_PLM_USER;
}

/* An EAR event's configuration: mode and umask from its row, at plm, pm and ism. */
static ita_evlib_ear ear_of_row(const ita_event_row *r, unsigned plm, bool pm, ita_evlib_ism ism)
{
    return (ita_evlib_ear){.used = true,
                        .mode = r->type == ITA_EVT_IEAR_TLB || r->type == ITA_EVT_DEAR_TLB ? ITA_EVLIB_EAR_TLB
                                : r->type == ITA_EVT_DEAR_ALAT                             ? ITA_EVLIB_EAR_ALAT
                                                                                           : ITA_EVLIB_EAR_CACHE,
                        .umask = r->umask,
                        .plm = plm,
                        .ism = ism,
                        .pm = pm};
}

/* The unit as event i of the request would program it (method 1); libpfm-3 forces both
 * instruction sets. */
static ita_evlib_ear ear_of_event(const ita_evlib_request *rq, unsigned i)
{
    const ita_evlib_event_spec *s = &rq->events[i];
    return ear_of_row(ita_evlib_event_row(s->event, rq->model), s->plm, s->pm, ITA_EVLIB_ISM_BOTH);
}

static bool ear_same(const ita_evlib_ear *a, const ita_evlib_ear *b)
{
    return a->mode == b->mode && a->umask == b->umask && a->plm == b->plm && a->pm == b->pm && a->ism == b->ism;
}

static const char *const ear_mode_names[] = {"cache", "TLB", "ALAT"};

/* The configuration of an EAR, by method: from the event (1) or the request (2, 4);
 * *programmed false when the EAR is not programmed (3).  In method 1 every event of the
 * unit must ask for the same configuration: one EAR captures in one mode, umask and plm,
 * and libpfm-3 takes the first event on Itanium 2 but the last on Itanium
 * (pfm_dispatch_iear/dear()), so a request whose events disagree is refused. */
static ita_evlib_err ear_config(const ita_evlib_request *rq, const ita_evlib_ear *given, unsigned types, const char *unit,
                             ita_evlib_ear *cfg, bool *programmed, ita_evlib_error *err)
{
    int ev = first_of_types(rq, types);
    *programmed = given->used || ev >= 0;
    if (given->used) {
        *cfg = *given;
        if (!cfg->plm)
            cfg->plm = default_plm(rq);
        return ITA_EVLIB_OK;
    }
    if (ev < 0)
        return ITA_EVLIB_OK;
    *cfg = ear_of_event(rq, (unsigned)ev);
    for (unsigned i = (unsigned)ev + 1; i < rq->nevents; i++) {
        const ita_event_row *r = ita_evlib_event_row(rq->events[i].event, rq->model);
        if (!r || !((types >> r->type) & 1u))
            continue;
        ita_evlib_ear other = ear_of_event(rq, i);
        if (ear_same(cfg, &other))
            continue;
        return ita_evlib_fail(err, ITA_EVLIB_ERR_EVENT_INCOMPATIBLE,
                           "%s: events %s (%s mode, umask 0x%x, plm 0x%x%s) and %s (%s mode, umask 0x%x, plm 0x%x%s) "
                           "ask for different configurations of the one unit: request one of them, or configure "
                           "the unit itself (the request's %s; pmusim encode --%s)",
                           unit, ita_evlib_event_name(rq->events[ev].event), ear_mode_names[cfg->mode], cfg->umask,
                           cfg->plm, cfg->pm ? ", pm" : "", r->name, ear_mode_names[other.mode], other.umask,
                           other.plm, other.pm ? ", pm" : "", types == IEAR_TYPES ? "iear" : "dear",
                           types == IEAR_TYPES ? "iear" : "dear");
    }
    return ITA_EVLIB_OK;
}

static unsigned ear_ism_field(ita_evlib_ism ism)
{
    return ism == ITA_EVLIB_ISM_IA32 ? 1u : ism == ITA_EVLIB_ISM_IA64 ? 2u : 0u;
}

static ita_evlib_err check_ear(const ita_evlib_ear *e, const char *what, bool alat_ok, unsigned umask_max,
                            ita_evlib_error *err)
{
    if (e->mode != ITA_EVLIB_EAR_CACHE && e->mode != ITA_EVLIB_EAR_TLB && !(alat_ok && e->mode == ITA_EVLIB_EAR_ALAT))
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "%s: mode %d: expected cache (0), TLB (1)%s", what, (int)e->mode,
                           alat_ok ? " or ALAT (2)" : "");
    if (e->umask > umask_max)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "%s: umask 0x%x: at most 0x%x in this mode", what, e->umask,
                           umask_max);
    if (e->plm > ITA_EVLIB_PLM_ALL || (unsigned)e->ism > ITA_EVLIB_ISM_IA64)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "%s: plm 0x%x / ism %d: expected plm 0..0xf and a ita_evlib_ism",
                           what, e->plm, (int)e->ism);
    return ITA_EVLIB_OK;
}

#define FIELD_MAX(group, name) ((1u << ITA_F_##group##_##name##_WIDTH) - 1u)

static ita_evlib_err iear_value(const ita_evlib_ear *e, ita_model m, uint64_t *v, ita_evlib_error *err)
{
    uint64_t x = reset_pmc(10, m);
    if (m == ITA_MODEL_ITANIUM) {
        ita_evlib_err rc = check_ear(e, "I-EAR", false, FIELD_MAX(PMC10_ITA, UMASK), err);
        if (rc)
            return rc;
        x = ITA_FSET(x, PMC10_ITA, PLM, e->plm);
        x = ITA_FSET(x, PMC10_ITA, PM, e->pm);
        x = ITA_FSET(x, PMC10_ITA, TLB, e->mode == ITA_EVLIB_EAR_TLB);
        x = ITA_FSET(x, PMC10_ITA, UMASK, e->umask);
        *v = ITA_FSET(x, PMC10_ITA, ISM, ear_ism_field(e->ism));
        return ITA_EVLIB_OK;
    }
    /* Cache mode: umask bits 12:5 and ct bit 13 = 1 (ct = 1x); TLB mode: umask bits 11:5
     * and ct = 00.  The umask's top bit is ct's low bit in cache mode. */
    bool tlb = e->mode == ITA_EVLIB_EAR_TLB;
    ita_evlib_err rc = check_ear(e, "I-EAR", false, FIELD_MAX(PMC10, UMASK) >> (tlb ? 1 : 0), err);
    if (rc)
        return rc;
    x = ITA_FSET(x, PMC10, PLM, e->plm);
    x = ITA_FSET(x, PMC10, PM, e->pm);
    x = ITA_FSET(x, PMC10, CT, tlb ? 0u : 2u);
    x = ITA_FSET(x, PMC10, UMASK, e->umask);
    *v = ITA_FSET(x, PMC10, ISM, ear_ism_field(e->ism));
    return ITA_EVLIB_OK;
}

static ita_evlib_err dear_value(const ita_evlib_ear *e, ita_model m, uint64_t *v, ita_evlib_error *err)
{
    ita_evlib_err rc = check_ear(e, "D-EAR", m == ITA_MODEL_ITANIUM2, FIELD_MAX(PMC11, UMASK), err);
    if (rc)
        return rc;
    uint64_t x = reset_pmc(11, m);
    x = ITA_FSET(x, PMC11, PLM, e->plm);
    x = ITA_FSET(x, PMC11, PM, e->pm);
    if (m == ITA_MODEL_ITANIUM)
        x = ITA_FSET(x, PMC11_ITA, TLB, e->mode == ITA_EVLIB_EAR_TLB);
    else
        x = ITA_FSET(x, PMC11, MODE, (unsigned)e->mode);
    x = ITA_FSET(x, PMC11, UMASK, e->umask);
    *v = ITA_FSET(x, PMC11, ISM, ear_ism_field(e->ism));
    return ITA_EVLIB_OK;
}

/* BRANCH_EVENT without a configuration records every branch (libpfm-3
 * pfm_dispatch_btb(); Itanium: pfmon's default, every predictor source too). */
static ita_evlib_btb btb_all_branches(unsigned plm, bool pm, ita_model m)
{
    bool ita = m == ITA_MODEL_ITANIUM;
    return (ita_evlib_btb){.used = true, .ds = false, .tm = 3, .ptm = 3, .ppm = 3, .brt = 0,
                        .tar = ita, .bpt = ita, .bac = ita, .plm = plm, .pm = pm};
}

static ita_evlib_err btb_value(const ita_evlib_btb *b, ita_model m, uint64_t *v, ita_evlib_error *err)
{
    if (b->tm > 3 || b->ptm > 3 || b->ppm > 3 || b->brt > 3 || b->plm > ITA_EVLIB_PLM_ALL)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG,
                           "BTB: tm %u, ptm %u, ppm %u, brt %u, plm 0x%x: expected 2-bit masks and plm 0..0xf", b->tm,
                           b->ptm, b->ppm, b->brt, b->plm);
    if (m == ITA_MODEL_ITANIUM && (b->ds || b->brt))
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "BTB: ds and brt are Itanium 2 fields (Itanium has tar, bpt, bac)");
    if (m == ITA_MODEL_ITANIUM2 && (b->tar || b->bpt || b->bac))
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "BTB: tar, bpt and bac are Itanium fields (Itanium 2 has ds, brt)");
    uint64_t x = reset_pmc(12, m);
    x = ITA_FSET(x, PMC12, PLM, b->plm);
    x = ITA_FSET(x, PMC12, PM, b->pm);
    x = ITA_FSET(x, PMC12, TM, b->tm);
    x = ITA_FSET(x, PMC12, PTM, b->ptm);
    x = ITA_FSET(x, PMC12, PPM, b->ppm);
    if (m == ITA_MODEL_ITANIUM) {
        x = ITA_FSET(x, PMC12_ITA, TAR, b->tar);
        x = ITA_FSET(x, PMC12_ITA, BPT, b->bpt);
        x = ITA_FSET(x, PMC12_ITA, BAC, b->bac);
    } else {
        x = ITA_FSET(x, PMC12, DS, b->ds);
        x = ITA_FSET(x, PMC12, BRT, b->brt);
    }
    *v = x;
    return ITA_EVLIB_OK;
}

ita_evlib_err ita_evlib_dispatch_ears(ita_evlib_ear_regs *out, const ita_evlib_request *rq, ita_evlib_error *err)
{
    memset(out, 0, sizeof *out);
    ita_evlib_ear cfg;
    ita_evlib_err e = ear_config(rq, &rq->iear, IEAR_TYPES, "I-EAR", &cfg, &out->iear, err);
    if (!e && out->iear)
        e = iear_value(&cfg, rq->model, &out->pmc10, err);
    ita_evlib_ear_mode dear_mode = ITA_EVLIB_EAR_CACHE;
    if (!e)
        e = ear_config(rq, &rq->dear, DEAR_TYPES, "D-EAR", &cfg, &out->dear, err);
    if (!e && out->dear) {
        dear_mode = cfg.mode;
        e = dear_value(&cfg, rq->model, &out->pmc11, err);
    }
    if (e)
        return e;
    int bev = first_of_types(rq, TBIT(ITA_EVT_BTB));
    if (!rq->btb.used && bev < 0)
        return ITA_EVLIB_OK;
    ita_evlib_btb b = rq->btb.used ? rq->btb : btb_all_branches(rq->events[bev].plm, rq->events[bev].pm, rq->model);
    if (rq->btb.used && !b.plm)
        b.plm = default_plm(rq);
    /* A D-EAR in TLB or ALAT mode needs PMC12 = 0: with the BTB it records the wrong
     * instruction address after a mispredicted branch (libpfm-3 pfm_dispatch_btb()). */
    if (rq->model == ITA_MODEL_ITANIUM2 && out->dear && dear_mode != ITA_EVLIB_EAR_CACHE)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_EVENT_INCOMPATIBLE,
                           "the D-EAR in %s mode cannot be used with the branch trace buffer (it needs PMC12 = 0)",
                           dear_mode == ITA_EVLIB_EAR_TLB ? "TLB" : "ALAT");
    out->btb = true;
    return btb_value(&b, rq->model, &out->pmc12, err);
}

ita_evlib_err ita_evlib_unit_config(ita_model m, int event, unsigned plm, bool pm, ita_evlib_ism ism, uint16_t *addr,
                              uint64_t *value, ita_evlib_error *err)
{
    const ita_event_row *r = ita_evlib_event_row(event, m);
    if (!r || r->type == ITA_EVT_NORMAL)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "%s is not an EAR or BTB event on this model",
                           r ? r->name : "the event");
    if (r->type == ITA_EVT_BTB) {
        *addr = ITA_ADDR(ITA_SPACE_PMC, 12);
        ita_evlib_btb b = btb_all_branches(plm, pm, m);
        return btb_value(&b, m, value, err);
    }
    ita_evlib_ear e = ear_of_row(r, plm, pm, ism);
    if ((IEAR_TYPES >> r->type) & 1u) {
        *addr = ITA_ADDR(ITA_SPACE_PMC, 10);
        return iear_value(&e, m, value, err);
    }
    *addr = ITA_ADDR(ITA_SPACE_PMC, 11);
    return dear_value(&e, m, value, err);
}
