/*
 * pmulib_events.c - errors, event lookup and attributes, event strings.
 * The events are the full tables of include/common/ita/ita_events.h (libpfm-3.10's, both models);
 * an event id is the tables' stream event id, the same on both models.  Nothing here
 * repeats a code, umask or mask.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "sw/ita/pmulib.h"
#include "common/pmu_num.h"
#include "common/pmu_text.h"
#include "pmulib_internal.h"

/* ---- errors -------------------------------------------------------------- */

static const char *const err_names[PMULIB_NERRS] = {
    [PMULIB_OK] = "ok",
    [PMULIB_ERR_BAD_ARG] = "bad-argument",
    [PMULIB_ERR_UNKNOWN_EVENT] = "unknown-event",
    [PMULIB_ERR_NOT_ON_MODEL] = "not-on-model",
    [PMULIB_ERR_NO_COUNTER] = "no-counter",
    [PMULIB_ERR_INCOMPATIBLE_SETS] = "incompatible-sets",
    [PMULIB_ERR_QUALIFIER] = "qualifier-not-supported",
    [PMULIB_ERR_THRESHOLD] = "threshold",
    [PMULIB_ERR_RANGE_ALIGN] = "range-misaligned",
    [PMULIB_ERR_TOO_MANY_RANGES] = "too-many-ranges",
    [PMULIB_ERR_RANGE_TOO_BIG] = "range-too-big",
    [PMULIB_ERR_RANGE_INVALID] = "range-invalid",
    [PMULIB_ERR_FEATURE_COMBINATION] = "feature-combination",
    [PMULIB_ERR_EVENT_INCOMPATIBLE] = "event-incompatible",
};

const char *pmulib_err_name(pmulib_err e)
{
    if ((unsigned)e >= PMULIB_NERRS)
        return "invalid";
    return err_names[e];
}

pmu_err_code pmulib_err_class(pmulib_err e)
{
    if (e == PMULIB_OK)
        return PMU_OK;
    return (unsigned)e < PMULIB_NERRS ? PMU_E_INPUT : PMU_E_INTERNAL;
}

pmulib_err pmulib_fail(pmulib_error *err, pmulib_err code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pmu_verrf(err, (int)code, fmt, ap);
    va_end(ap);
    return code;
}

pmulib_err pmulib_ok(pmulib_error *err)
{
    pmu_err_clear(err);
    return PMULIB_OK;
}

/* ---- events -------------------------------------------------------------- */

unsigned pmulib_num_events(void) { return ita_event_id_count(); }

bool pmulib_event_valid(int ev) { return ev >= 0 && ita_event_id_name((unsigned)ev) != NULL; }

const char *pmulib_event_name(int ev)
{
    return pmulib_event_valid(ev) ? ita_event_id_name((unsigned)ev) : NULL;
}

const ita_event_row *pmulib_event_row(int ev, ita_model m)
{
    if (!pmulib_event_valid(ev) || (m != ITA_MODEL_ITANIUM && m != ITA_MODEL_ITANIUM2))
        return NULL;
    return ita_event_id_row((unsigned)ev, m);
}

/* The row that answers the model-free queries: Itanium 2's, or Itanium's for an event
 * only Itanium has. */
const ita_event_row *pmulib_home_row(int ev)
{
    const ita_event_row *r = pmulib_event_row(ev, ITA_MODEL_ITANIUM2);
    return r ? r : pmulib_event_row(ev, ITA_MODEL_ITANIUM);
}

pmulib_event_type pmulib_event_type_of(int ev)
{
    const ita_event_row *r = pmulib_home_row(ev);
    return r ? (pmulib_event_type)r->type : PMULIB_EVT_NORMAL;
}

_Static_assert((int)PMULIB_EVT_BTB == (int)ITA_EVT_BTB && (int)PMULIB_EVT_DEAR_ALAT == (int)ITA_EVT_DEAR_ALAT &&
                   (int)PMULIB_EVT_IEAR_TLB == (int)ITA_EVT_IEAR_TLB,
               "the library's event types are the tables' (libpfm-3's vcode types)");

static bool type_in(int ev, unsigned type_bits)
{
    return pmulib_event_valid(ev) && ((type_bits >> pmulib_event_type_of(ev)) & 1u);
}
#define TBIT(t) (1u << (t))
#define DEAR_TYPES (TBIT(PMULIB_EVT_DEAR_TLB) | TBIT(PMULIB_EVT_DEAR_CACHE) | TBIT(PMULIB_EVT_DEAR_ALAT))
#define IEAR_TYPES (TBIT(PMULIB_EVT_IEAR_TLB) | TBIT(PMULIB_EVT_IEAR_CACHE))

bool pmulib_is_ear(int ev) { return type_in(ev, DEAR_TYPES | IEAR_TYPES); }
bool pmulib_is_dear(int ev) { return type_in(ev, DEAR_TYPES); }
bool pmulib_is_dear_tlb(int ev) { return type_in(ev, TBIT(PMULIB_EVT_DEAR_TLB)); }
bool pmulib_is_dear_cache(int ev) { return type_in(ev, TBIT(PMULIB_EVT_DEAR_CACHE)); }
bool pmulib_is_dear_alat(int ev) { return type_in(ev, TBIT(PMULIB_EVT_DEAR_ALAT)); }
bool pmulib_is_iear(int ev) { return type_in(ev, IEAR_TYPES); }
bool pmulib_is_iear_tlb(int ev) { return type_in(ev, TBIT(PMULIB_EVT_IEAR_TLB)); }
bool pmulib_is_iear_cache(int ev) { return type_in(ev, TBIT(PMULIB_EVT_IEAR_CACHE)); }
bool pmulib_is_btb(int ev) { return type_in(ev, TBIT(PMULIB_EVT_BTB)); }

/* Events the hardware counts without an instruction to carry a tag
 * (docs/ita-qualification.md): no qualifier can restrict them, whatever libpfm's
 * table says. */
bool pmulib_event_unattributed(int ev)
{
    const char *n = pmulib_event_name(ev);
    return n && strcmp(n, "L2_FORCE_RECIRC_ANY") == 0;
}

bool pmulib_row_supports(const ita_event_row *r, int ev, char qual)
{
    if (!r || pmulib_event_unattributed(ev))
        return false;
    return qual == 'o' ? r->opm : qual == 'i' ? r->iar : r->dar;
}

bool pmulib_supports_opcm(int ev) { return pmulib_row_supports(pmulib_home_row(ev), ev, 'o'); }
bool pmulib_supports_iarr(int ev) { return pmulib_row_supports(pmulib_home_row(ev), ev, 'i'); }
bool pmulib_supports_darr(int ev) { return pmulib_row_supports(pmulib_home_row(ev), ev, 'd'); }

bool pmulib_event_on_model(int ev, ita_model m) { return pmulib_event_row(ev, m) != NULL; }

static pmulib_err check_ev(int ev, const void *out, pmulib_error *err)
{
    if (!pmulib_event_valid(ev))
        return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "event id %d: not an event (ids are below %u; some are unused)",
                           ev, ita_event_id_count());
    if (!out)
        return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "output pointer is NULL");
    return PMULIB_OK;
}

pmulib_err pmulib_event_maxincr(int ev, unsigned *maxincr, pmulib_error *err)
{
    pmulib_err e = check_ev(ev, maxincr, err);
    if (e)
        return e;
    *maxincr = pmulib_home_row(ev)->maxincr;
    return pmulib_ok(err);
}

pmulib_err pmulib_event_umask(int ev, unsigned *umask, pmulib_error *err)
{
    pmulib_err e = check_ev(ev, umask, err);
    if (e)
        return e;
    *umask = pmulib_home_row(ev)->umask;
    return pmulib_ok(err);
}

/* The event's row on model m, or an error (bad model, not on the model). */
static pmulib_err model_row(int ev, ita_model m, const void *out, const ita_event_row **row, pmulib_error *err)
{
    pmulib_err e = check_ev(ev, out, err);
    if (e)
        return e;
    if (m != ITA_MODEL_ITANIUM && m != ITA_MODEL_ITANIUM2)
        return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "model %d: expected Itanium (0) or Itanium 2 (1)", (int)m);
    *row = pmulib_event_row(ev, m);
    if (!*row)
        return pmulib_fail(err, PMULIB_ERR_NOT_ON_MODEL, "event %s is not implemented on %s",
                           pmulib_event_name(ev), pmulib_model_name(m));
    return PMULIB_OK;
}

pmulib_err pmulib_event_code(int ev, ita_model m, unsigned *code, pmulib_error *err)
{
    const ita_event_row *r;
    pmulib_err e = model_row(ev, m, code, &r, err);
    if (e)
        return e;
    *code = r->code;
    return pmulib_ok(err);
}

pmulib_err pmulib_event_counters(int ev, ita_model m, unsigned *counter_mask, pmulib_error *err)
{
    const ita_event_row *r;
    pmulib_err e = model_row(ev, m, counter_mask, &r, err);
    if (e)
        return e;
    *counter_mask = r->counters;
    return pmulib_ok(err);
}

pmulib_err pmulib_event_group(int ev, pmulib_group *grp, pmulib_error *err)
{
    pmulib_err e = check_ev(ev, grp, err);
    if (e)
        return e;
    *grp = (pmulib_group)pmulib_home_row(ev)->group;
    return pmulib_ok(err);
}

/* The tables write "no set" as 0xf, libpfm's encoding. */
#define TABLE_NO_SET 0xfu

int pmulib_row_set(const ita_event_row *r) { return r->set == TABLE_NO_SET ? PMULIB_NO_SET : (int)r->set; }

pmulib_err pmulib_event_set(int ev, int *set, pmulib_error *err)
{
    pmulib_err e = check_ev(ev, set, err);
    if (e)
        return e;
    *set = pmulib_row_set(pmulib_home_row(ev));
    return pmulib_ok(err);
}

pmulib_err pmulib_event_ear_mode(int ev, pmulib_ear_mode *mode, pmulib_error *err)
{
    pmulib_err e = check_ev(ev, mode, err);
    if (e)
        return e;
    switch (pmulib_event_type_of(ev)) {
    case PMULIB_EVT_IEAR_TLB:
    case PMULIB_EVT_DEAR_TLB: *mode = PMULIB_EAR_TLB; break;
    case PMULIB_EVT_IEAR_CACHE:
    case PMULIB_EVT_DEAR_CACHE: *mode = PMULIB_EAR_CACHE; break;
    case PMULIB_EVT_DEAR_ALAT: *mode = PMULIB_EAR_ALAT; break;
    default:
        return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "event %s is not an EAR event: it has no EAR mode",
                           pmulib_event_name(ev));
    }
    return pmulib_ok(err);
}

const char *pmulib_model_name(ita_model m)
{
    return m == ITA_MODEL_ITANIUM ? "Itanium" : "Itanium 2";
}

/* ---- lookup -------------------------------------------------------------- */

static bool streq_ci(const char *a, const char *b) { return pmu_text_ieq(a, strlen(a), b); }

static bool has_prefix_ci(const char *s, const char *prefix)
{
    for (; *prefix; s++, prefix++)
        if (pmu_text_lower((unsigned char)*s) != pmu_text_lower((unsigned char)*prefix))
            return false;
    return true;
}

/* Calls visit(name, ctx) for every event name (both tables, each name once) until it returns true. */
static const char *each_name(bool (*visit)(const char *name, void *ctx), void *ctx)
{
    for (unsigned id = 0; id < ita_event_id_count(); id++) {
        const char *n = ita_event_id_name(id);
        if (n && visit(n, ctx))
            return n;
    }
    return NULL;
}

static bool visit_prefix(const char *n, void *ctx) { return has_prefix_ci(n, ctx); }

const char *pmulib_suggest_event(const char *name)
{
    if (!name || !*name)
        return NULL;
    size_t len = strlen(name);
    /* A name that starts an event name ("BR_MISPRED_DETAIL") suggests the first such event. */
    if (len >= 3) {
        const char *p = each_name(visit_prefix, (void *)name);
        if (p)
            return p;
    }
    /* Otherwise the nearest name of either table, if at most a third of it differs (and
     * at least 2 edits are allowed). */
    const size_t allowed = len / 3 > 2 ? len / 3 : 2;
    unsigned best_d = allowed < ~0u ? (unsigned)allowed + 1 : ~0u; /* only a nearer one is named */
    const char *best = NULL;
    for (int m = ITA_MODEL_ITANIUM; m <= ITA_MODEL_ITANIUM2 && best_d > 0; m++) {
        unsigned n, d;
        const ita_event_row *rows = ita_event_rows(m, &n);
        unsigned i = pmu_text_nearest_within(name, len, &rows[0].name, n, sizeof rows[0], best_d - 1, &d);
        if (i < n) {
            best_d = d;
            best = rows[i].name;
        }
    }
    return best;
}

pmulib_err pmulib_find_event(const char *name, int *ev, pmulib_error *err)
{
    if (!name || !ev)
        return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "event name or output pointer is NULL");
    for (unsigned id = 0; id < ita_event_id_count(); id++) {
        const char *n = ita_event_id_name(id);
        if (n && streq_ci(n, name)) {
            *ev = (int)id;
            return pmulib_ok(err);
        }
    }
    const char *s = pmulib_suggest_event(name);
    if (s)
        return pmulib_fail(err, PMULIB_ERR_UNKNOWN_EVENT, "unknown event '%s' (did you mean %s?)", name, s);
    return pmulib_fail(err, PMULIB_ERR_UNKNOWN_EVENT, "unknown event '%s' (pmusim encode --list lists them)",
                       name);
}

/* ---- event strings ------------------------------------------------------- */

/* A decimal or 0x-hex number filling all of s: pmusim's one integer syntax (common/pmu_num.h). */
bool pmulib_parse_u64(const char *s, uint64_t *out)
{
    return s && pmu_parse_u64(s, 0, UINT64_MAX, "number", out, NULL) == 0;
}

#define EVENT_STR_MAX 256

/* The threshold is checked against the row of model m, or with m NULL the home row (nine
 * events both tables have differ in maxincr: Itanium's L2_MISSES adds up to 2 a cycle,
 * Itanium 2's 1). */
static pmulib_err parse_event(const char *str, const ita_model *m, pmulib_event_spec *out, pmulib_error *err)
{
    if (!str || !out)
        return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "event string or output pointer is NULL");
    if (strlen(str) >= EVENT_STR_MAX)
        return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "event string is longer than %d characters", EVENT_STR_MAX - 1);
    char buf[EVENT_STR_MAX];
    strcpy(buf, str);

    char *mods = strchr(buf, ':');
    if (mods)
        *mods++ = '\0';
    if (!buf[0])
        return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "'%s': expected EVENT[:mod...], the event name is empty", str);
    pmulib_event_spec spec = {.event = -1, .plm = 0, .thres = 0, .ism = PMULIB_ISM_DEFAULT, .pm = false};
    pmulib_err e = pmulib_find_event(buf, &spec.event, err);
    if (e)
        return e;
    const ita_event_row *d = pmulib_home_row(spec.event);
    if (m && (e = model_row(spec.event, *m, out, &d, err)))
        return e;

    bool thres_given = false, ism_given = false;
    while (mods) {
        char *mod = mods;
        mods = strchr(mods, ':');
        if (mods)
            *mods++ = '\0';
        char *val = strchr(mod, '=');
        if (val)
            *val++ = '\0';
        if (!*mod)
            return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "'%s': empty modifier (two ':' in a row or a trailing ':')",
                               str);
        uint64_t n;
        if (streq_ci(mod, "u") || streq_ci(mod, "k")) {
            if (val)
                return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "'%s': modifier :%s takes no value", str, mod);
            spec.plm |= pmu_text_lower((unsigned char)mod[0]) == 'u' ? PMULIB_PLM_USER : PMULIB_PLM_KERNEL;
        } else if (streq_ci(mod, "plm")) {
            if (!val || !pmulib_parse_u64(val, &n) || n < 1 || n > PMULIB_PLM_ALL)
                return pmulib_fail(err, PMULIB_ERR_BAD_ARG,
                                   "'%s': :plm= expects a privilege-level mask 1..15 (bit k = level k), found '%s'",
                                   str, val ? val : "");
            spec.plm |= (unsigned)n;
        } else if (streq_ci(mod, "thres")) {
            if (thres_given)
                return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "'%s': :thres given twice", str);
            if (!val || !pmulib_parse_u64(val, &n))
                return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "'%s': :thres= expects a number, found '%s'", str,
                                   val ? val : "");
            if (n >= d->maxincr)
                return pmulib_fail(err, PMULIB_ERR_THRESHOLD,
                                   "'%s': threshold %" PRIu64 " >= maxincr %u of %s%s%s (allowed 0..%u)", str, n,
                                   d->maxincr, d->name, m ? " on " : "", m ? pmulib_model_name(*m) : "",
                                   d->maxincr - 1u);
            spec.thres = (unsigned)n;
            thres_given = true;
        } else if (streq_ci(mod, "ism")) {
            if (ism_given)
                return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "'%s': :ism given twice", str);
            if (val && streq_ci(val, "ia64"))
                spec.ism = PMULIB_ISM_IA64;
            else if (val && streq_ci(val, "ia32"))
                spec.ism = PMULIB_ISM_IA32;
            else if (val && streq_ci(val, "both"))
                spec.ism = PMULIB_ISM_BOTH;
            else
                return pmulib_fail(err, PMULIB_ERR_BAD_ARG, "'%s': :ism= expects ia64, ia32 or both, found '%s'", str,
                                   val ? val : "");
            ism_given = true;
        } else {
            return pmulib_fail(err, PMULIB_ERR_BAD_ARG,
                               "'%s': unknown modifier ':%s' (expected u, k, plm=N, thres=N or ism=ia64|ia32|both)",
                               str, mod);
        }
    }
    if (!spec.plm)
        spec.plm = PMULIB_PLM_USER; /* pfmon's default: user level */
    *out = spec;
    return pmulib_ok(err);
}

pmulib_err pmulib_parse_event(const char *str, pmulib_event_spec *out, pmulib_error *err)
{
    return parse_event(str, NULL, out, err);
}

pmulib_err pmulib_parse_event_model(const char *str, ita_model m, pmulib_event_spec *out, pmulib_error *err)
{
    return parse_event(str, &m, out, err);
}
