/*
 * ita_evlib_events.c - errors, event lookup and attributes, event strings.
 * The events are the full tables of include/common/ita/ita_events.h (libpfm-3.10's, both models);
 * an event id is the tables' stream event id, the same on both models.  Nothing here
 * repeats a code, umask or mask.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "sw/ita/ita_evlib.h"
#include "common/pmu_num.h"
#include "common/pmu_text.h"
#include "ita_evlib_internal.h"

/* ---- errors -------------------------------------------------------------- */

static const char *const err_names[ITA_EVLIB_NERRS] = {
    [ITA_EVLIB_OK] = "ok",
    [ITA_EVLIB_ERR_BAD_ARG] = "bad-argument",
    [ITA_EVLIB_ERR_UNKNOWN_EVENT] = "unknown-event",
    [ITA_EVLIB_ERR_NOT_ON_MODEL] = "not-on-model",
    [ITA_EVLIB_ERR_NO_COUNTER] = "no-counter",
    [ITA_EVLIB_ERR_INCOMPATIBLE_SETS] = "incompatible-sets",
    [ITA_EVLIB_ERR_QUALIFIER] = "qualifier-not-supported",
    [ITA_EVLIB_ERR_THRESHOLD] = "threshold",
    [ITA_EVLIB_ERR_RANGE_ALIGN] = "range-misaligned",
    [ITA_EVLIB_ERR_TOO_MANY_RANGES] = "too-many-ranges",
    [ITA_EVLIB_ERR_RANGE_TOO_BIG] = "range-too-big",
    [ITA_EVLIB_ERR_RANGE_INVALID] = "range-invalid",
    [ITA_EVLIB_ERR_FEATURE_COMBINATION] = "feature-combination",
    [ITA_EVLIB_ERR_EVENT_INCOMPATIBLE] = "event-incompatible",
};

const char *ita_evlib_err_name(ita_evlib_err e)
{
    if ((unsigned)e >= ITA_EVLIB_NERRS)
        return "invalid";
    return err_names[e];
}

pmu_err_code ita_evlib_err_class(ita_evlib_err e)
{
    if (e == ITA_EVLIB_OK)
        return PMU_OK;
    return (unsigned)e < ITA_EVLIB_NERRS ? PMU_E_INPUT : PMU_E_INTERNAL;
}

ita_evlib_err ita_evlib_fail(ita_evlib_error *err, ita_evlib_err code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pmu_verrf(err, (int)code, fmt, ap);
    va_end(ap);
    return code;
}

ita_evlib_err ita_evlib_ok(ita_evlib_error *err)
{
    pmu_err_clear(err);
    return ITA_EVLIB_OK;
}

/* ---- events -------------------------------------------------------------- */

unsigned ita_evlib_num_events(void) { return ita_event_id_count(); }

bool ita_evlib_event_valid(int ev) { return ev >= 0 && ita_event_id_name((unsigned)ev) != NULL; }

const char *ita_evlib_event_name(int ev)
{
    return ita_evlib_event_valid(ev) ? ita_event_id_name((unsigned)ev) : NULL;
}

const ita_event_row *ita_evlib_event_row(int ev, ita_model m)
{
    if (!ita_evlib_event_valid(ev) || (m != ITA_MODEL_ITANIUM && m != ITA_MODEL_ITANIUM2))
        return NULL;
    return ita_event_id_row((unsigned)ev, m);
}

/* The row that answers the model-free queries: Itanium 2's, or Itanium's for an event
 * only Itanium has. */
const ita_event_row *ita_evlib_home_row(int ev)
{
    const ita_event_row *r = ita_evlib_event_row(ev, ITA_MODEL_ITANIUM2);
    return r ? r : ita_evlib_event_row(ev, ITA_MODEL_ITANIUM);
}

ita_evlib_event_type ita_evlib_event_type_of(int ev)
{
    const ita_event_row *r = ita_evlib_home_row(ev);
    return r ? (ita_evlib_event_type)r->type : ITA_EVLIB_EVT_NORMAL;
}

_Static_assert((int)ITA_EVLIB_EVT_BTB == (int)ITA_EVT_BTB && (int)ITA_EVLIB_EVT_DEAR_ALAT == (int)ITA_EVT_DEAR_ALAT &&
                   (int)ITA_EVLIB_EVT_IEAR_TLB == (int)ITA_EVT_IEAR_TLB,
               "the library's event types are the tables' (libpfm-3's vcode types)");

static bool type_in(int ev, unsigned type_bits)
{
    return ita_evlib_event_valid(ev) && ((type_bits >> ita_evlib_event_type_of(ev)) & 1u);
}
#define TBIT(t) (1u << (t))
#define DEAR_TYPES (TBIT(ITA_EVLIB_EVT_DEAR_TLB) | TBIT(ITA_EVLIB_EVT_DEAR_CACHE) | TBIT(ITA_EVLIB_EVT_DEAR_ALAT))
#define IEAR_TYPES (TBIT(ITA_EVLIB_EVT_IEAR_TLB) | TBIT(ITA_EVLIB_EVT_IEAR_CACHE))

bool ita_evlib_is_ear(int ev) { return type_in(ev, DEAR_TYPES | IEAR_TYPES); }
bool ita_evlib_is_dear(int ev) { return type_in(ev, DEAR_TYPES); }
bool ita_evlib_is_dear_tlb(int ev) { return type_in(ev, TBIT(ITA_EVLIB_EVT_DEAR_TLB)); }
bool ita_evlib_is_dear_cache(int ev) { return type_in(ev, TBIT(ITA_EVLIB_EVT_DEAR_CACHE)); }
bool ita_evlib_is_dear_alat(int ev) { return type_in(ev, TBIT(ITA_EVLIB_EVT_DEAR_ALAT)); }
bool ita_evlib_is_iear(int ev) { return type_in(ev, IEAR_TYPES); }
bool ita_evlib_is_iear_tlb(int ev) { return type_in(ev, TBIT(ITA_EVLIB_EVT_IEAR_TLB)); }
bool ita_evlib_is_iear_cache(int ev) { return type_in(ev, TBIT(ITA_EVLIB_EVT_IEAR_CACHE)); }
bool ita_evlib_is_btb(int ev) { return type_in(ev, TBIT(ITA_EVLIB_EVT_BTB)); }

/* Events the hardware counts without an instruction to carry a tag
 * (docs/ita-qualification.md): no qualifier can restrict them, whatever libpfm's
 * table says. */
bool ita_evlib_event_unattributed(int ev)
{
    const char *n = ita_evlib_event_name(ev);
    return n && strcmp(n, "L2_FORCE_RECIRC_ANY") == 0;
}

bool ita_evlib_row_supports(const ita_event_row *r, int ev, char qual)
{
    if (!r || ita_evlib_event_unattributed(ev))
        return false;
    return qual == 'o' ? r->opm : qual == 'i' ? r->iar : r->dar;
}

bool ita_evlib_supports_opcm(int ev) { return ita_evlib_row_supports(ita_evlib_home_row(ev), ev, 'o'); }
bool ita_evlib_supports_iarr(int ev) { return ita_evlib_row_supports(ita_evlib_home_row(ev), ev, 'i'); }
bool ita_evlib_supports_darr(int ev) { return ita_evlib_row_supports(ita_evlib_home_row(ev), ev, 'd'); }

bool ita_evlib_event_on_model(int ev, ita_model m) { return ita_evlib_event_row(ev, m) != NULL; }

static ita_evlib_err check_ev(int ev, const void *out, ita_evlib_error *err)
{
    if (!ita_evlib_event_valid(ev))
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "event id %d: not an event (ids are below %u; some are unused)",
                           ev, ita_event_id_count());
    if (!out)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "output pointer is NULL");
    return ITA_EVLIB_OK;
}

ita_evlib_err ita_evlib_event_maxincr(int ev, unsigned *maxincr, ita_evlib_error *err)
{
    ita_evlib_err e = check_ev(ev, maxincr, err);
    if (e)
        return e;
    *maxincr = ita_evlib_home_row(ev)->maxincr;
    return ita_evlib_ok(err);
}

ita_evlib_err ita_evlib_event_umask(int ev, unsigned *umask, ita_evlib_error *err)
{
    ita_evlib_err e = check_ev(ev, umask, err);
    if (e)
        return e;
    *umask = ita_evlib_home_row(ev)->umask;
    return ita_evlib_ok(err);
}

/* The event's row on model m, or an error (bad model, not on the model). */
static ita_evlib_err model_row(int ev, ita_model m, const void *out, const ita_event_row **row, ita_evlib_error *err)
{
    ita_evlib_err e = check_ev(ev, out, err);
    if (e)
        return e;
    if (m != ITA_MODEL_ITANIUM && m != ITA_MODEL_ITANIUM2)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "model %d: expected Itanium (0) or Itanium 2 (1)", (int)m);
    *row = ita_evlib_event_row(ev, m);
    if (!*row)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_NOT_ON_MODEL, "event %s is not implemented on %s",
                           ita_evlib_event_name(ev), ita_evlib_model_name(m));
    return ITA_EVLIB_OK;
}

ita_evlib_err ita_evlib_event_code(int ev, ita_model m, unsigned *code, ita_evlib_error *err)
{
    const ita_event_row *r;
    ita_evlib_err e = model_row(ev, m, code, &r, err);
    if (e)
        return e;
    *code = r->code;
    return ita_evlib_ok(err);
}

ita_evlib_err ita_evlib_event_counters(int ev, ita_model m, unsigned *counter_mask, ita_evlib_error *err)
{
    const ita_event_row *r;
    ita_evlib_err e = model_row(ev, m, counter_mask, &r, err);
    if (e)
        return e;
    *counter_mask = r->counters;
    return ita_evlib_ok(err);
}

ita_evlib_err ita_evlib_event_group(int ev, ita_evlib_group *grp, ita_evlib_error *err)
{
    ita_evlib_err e = check_ev(ev, grp, err);
    if (e)
        return e;
    *grp = (ita_evlib_group)ita_evlib_home_row(ev)->group;
    return ita_evlib_ok(err);
}

/* The tables write "no set" as 0xf, libpfm's encoding. */
#define TABLE_NO_SET 0xfu

int ita_evlib_row_set(const ita_event_row *r) { return r->set == TABLE_NO_SET ? ITA_EVLIB_NO_SET : (int)r->set; }

ita_evlib_err ita_evlib_event_set(int ev, int *set, ita_evlib_error *err)
{
    ita_evlib_err e = check_ev(ev, set, err);
    if (e)
        return e;
    *set = ita_evlib_row_set(ita_evlib_home_row(ev));
    return ita_evlib_ok(err);
}

ita_evlib_err ita_evlib_event_ear_mode(int ev, ita_evlib_ear_mode *mode, ita_evlib_error *err)
{
    ita_evlib_err e = check_ev(ev, mode, err);
    if (e)
        return e;
    switch (ita_evlib_event_type_of(ev)) {
    case ITA_EVLIB_EVT_IEAR_TLB:
    case ITA_EVLIB_EVT_DEAR_TLB: *mode = ITA_EVLIB_EAR_TLB; break;
    case ITA_EVLIB_EVT_IEAR_CACHE:
    case ITA_EVLIB_EVT_DEAR_CACHE: *mode = ITA_EVLIB_EAR_CACHE; break;
    case ITA_EVLIB_EVT_DEAR_ALAT: *mode = ITA_EVLIB_EAR_ALAT; break;
    default:
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "event %s is not an EAR event: it has no EAR mode",
                           ita_evlib_event_name(ev));
    }
    return ita_evlib_ok(err);
}

const char *ita_evlib_model_name(ita_model m)
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

const char *ita_evlib_suggest_event(const char *name)
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

ita_evlib_err ita_evlib_find_event(const char *name, int *ev, ita_evlib_error *err)
{
    if (!name || !ev)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "event name or output pointer is NULL");
    for (unsigned id = 0; id < ita_event_id_count(); id++) {
        const char *n = ita_event_id_name(id);
        if (n && streq_ci(n, name)) {
            *ev = (int)id;
            return ita_evlib_ok(err);
        }
    }
    const char *s = ita_evlib_suggest_event(name);
    if (s)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_UNKNOWN_EVENT, "unknown event '%s' (did you mean %s?)", name, s);
    return ita_evlib_fail(err, ITA_EVLIB_ERR_UNKNOWN_EVENT, "unknown event '%s' (pmusim encode --list lists them)",
                       name);
}

/* ---- event strings ------------------------------------------------------- */

/* A decimal or 0x-hex number filling all of s: pmusim's one integer syntax (common/pmu_num.h). */
bool ita_evlib_parse_u64(const char *s, uint64_t *out)
{
    return s && pmu_parse_u64(s, 0, UINT64_MAX, "number", out, NULL) == 0;
}

#define EVENT_STR_MAX 256

/* The threshold is checked against the row of model m, or with m NULL the home row (nine
 * events both tables have differ in maxincr: Itanium's L2_MISSES adds up to 2 a cycle,
 * Itanium 2's 1). */
static ita_evlib_err parse_event(const char *str, const ita_model *m, ita_evlib_event_spec *out, ita_evlib_error *err)
{
    if (!str || !out)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "event string or output pointer is NULL");
    if (strlen(str) >= EVENT_STR_MAX)
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "event string is longer than %d characters", EVENT_STR_MAX - 1);
    char buf[EVENT_STR_MAX];
    strcpy(buf, str);

    char *mods = strchr(buf, ':');
    if (mods)
        *mods++ = '\0';
    if (!buf[0])
        return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "'%s': expected EVENT[:mod...], the event name is empty", str);
    ita_evlib_event_spec spec = {.event = -1, .plm = 0, .thres = 0, .ism = ITA_EVLIB_ISM_DEFAULT, .pm = false};
    ita_evlib_err e = ita_evlib_find_event(buf, &spec.event, err);
    if (e)
        return e;
    const ita_event_row *d = ita_evlib_home_row(spec.event);
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
            return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "'%s': empty modifier (two ':' in a row or a trailing ':')",
                               str);
        uint64_t n;
        if (streq_ci(mod, "u") || streq_ci(mod, "k")) {
            if (val)
                return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "'%s': modifier :%s takes no value", str, mod);
            spec.plm |= pmu_text_lower((unsigned char)mod[0]) == 'u' ? ITA_EVLIB_PLM_USER : ITA_EVLIB_PLM_KERNEL;
        } else if (streq_ci(mod, "plm")) {
            if (!val || !ita_evlib_parse_u64(val, &n) || n < 1 || n > ITA_EVLIB_PLM_ALL)
                return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG,
                                   "'%s': :plm= expects a privilege-level mask 1..15 (bit k = level k), found '%s'",
                                   str, val ? val : "");
            spec.plm |= (unsigned)n;
        } else if (streq_ci(mod, "thres")) {
            if (thres_given)
                return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "'%s': :thres given twice", str);
            if (!val || !ita_evlib_parse_u64(val, &n))
                return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "'%s': :thres= expects a number, found '%s'", str,
                                   val ? val : "");
            if (n >= d->maxincr)
                return ita_evlib_fail(err, ITA_EVLIB_ERR_THRESHOLD,
                                   "'%s': threshold %" PRIu64 " >= maxincr %u of %s%s%s (allowed 0..%u)", str, n,
                                   d->maxincr, d->name, m ? " on " : "", m ? ita_evlib_model_name(*m) : "",
                                   d->maxincr - 1u);
            spec.thres = (unsigned)n;
            thres_given = true;
        } else if (streq_ci(mod, "ism")) {
            if (ism_given)
                return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "'%s': :ism given twice", str);
            if (val && streq_ci(val, "ia64"))
                spec.ism = ITA_EVLIB_ISM_IA64;
            else if (val && streq_ci(val, "ia32"))
                spec.ism = ITA_EVLIB_ISM_IA32;
            else if (val && streq_ci(val, "both"))
                spec.ism = ITA_EVLIB_ISM_BOTH;
            else
                return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG, "'%s': :ism= expects ia64, ia32 or both, found '%s'", str,
                                   val ? val : "");
            ism_given = true;
        } else {
            return ita_evlib_fail(err, ITA_EVLIB_ERR_BAD_ARG,
                               "'%s': unknown modifier ':%s' (expected u, k, plm=N, thres=N or ism=ia64|ia32|both)",
                               str, mod);
        }
    }
    if (!spec.plm)
        spec.plm = ITA_EVLIB_PLM_USER; /* pfmon's default: user level */
    *out = spec;
    return ita_evlib_ok(err);
}

ita_evlib_err ita_evlib_parse_event(const char *str, ita_evlib_event_spec *out, ita_evlib_error *err)
{
    return parse_event(str, NULL, out, err);
}

ita_evlib_err ita_evlib_parse_event_model(const char *str, ita_model m, ita_evlib_event_spec *out, ita_evlib_error *err)
{
    return parse_event(str, &m, out, err);
}
