/*
 * cmd_encode.c - `pmusim encode` for the Itanium family: the register values the event
 * library (include/sw/ita/ita_evlib.h) computes for events, code/data ranges and opcode
 * matchers, one "PMCn = 0x..." / "IBRn = 0x..." / "DBRn = 0x..." line per register, or
 * JSON with each range's offsets.  Nothing runs: it only encodes.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/ita/ita_cmds.h"
#include "harness/ita/ita_family.h"
#include "sw/ita/ita_evlib.h"
#include "cli/pmu_cli.h"
#include "common/pmu_num.h"
#include "common/pmu_text.h"

static void encode_help(FILE *f)
{
    fprintf(f,
            "usage: pmusim encode -e EVENT[:mod...] [-e ...] [--irange A..B]... [--drange A..B]...\n"
            "                     [--opcode PMC8|PMC9:match=N,mask=N,slots=MIFB] [--inverse]\n"
            "                     [--no-fine-mode] [--fine-2bundle] [--system-wide]\n"
            "                     [--iear mode=M,umask=N[,plm=N][,ism=I]] [--dear ...] [--btb all|K=N,...]\n"
            "                     [--family itanium] [--model itanium|itanium2] [--json]\n"
            "       pmusim encode --list [--model itanium|itanium2] [--json]\n"
            "\n"
            "  -e, --event EV     up to 4 events; modifiers :u :k :plm=N :thres=N :ism=ia64|ia32|both\n"
            "                     (no privilege modifier = user level).  An EAR event (L1I_EAR_*,\n"
            "                     DATA_EAR_*, Itanium INSTRUCTION_EAR_*) also programs its EAR (PMC10,\n"
            "                     PMC11) from its umask; BRANCH_EVENT programs the BTB (PMC12) to\n"
            "                     record every branch\n"
            "  --irange A..B      code range [A, B), 16-byte aligned (up to 4)\n"
            "  --drange A..B      data range [A, B) (up to 4)\n"
            "  --opcode P:...     opcode matcher P = PMC8 or PMC9: match and mask (27 bits over\n"
            "                     instruction bits {40:27,12:0}, mask 1 = don't care; default\n"
            "                     match 0, mask all ones) and slot types (default MIFB)\n"
            "  --iear K=V,...     the I-EAR's own configuration (libpfm's ear_used): mode=cache|tlb,\n"
            "                     umask=N, plm=N (default: the first event's), ism=ia64|ia32|both\n"
            "                     (default both); without an I-EAR event it runs free\n"
            "  --dear K=V,...     the same for the D-EAR; mode=cache|tlb|alat (alat: Itanium 2)\n"
            "  --btb all|K=N,...  the BTB's own configuration: tm, ptm, ppm (2-bit masks, default 3),\n"
            "                     Itanium 2 brt (0..3) and ds (0|1), Itanium tar, bpt, bac (0|1,\n"
            "                     default 1), plm; 'all' = record every branch\n"
            "  --inverse          count outside the (single) code range\n"
            "  --no-fine-mode     never use fine mode for code ranges\n"
            "  --fine-2bundle     fine mode with the two-bundle granularity of the first Itanium 2s\n"
            "  --system-wide      privileged monitors (pm = 1: enabled by PSR.pp)\n"
            "  --model M          itanium or itanium2 (default)\n"
            "  --json             JSON with the registers, counters and each range's offsets\n"
            "  --list             the model's event table: code, umask, type, counters, maxincr,\n"
            "                     iar/opm/dar, group, set (with --json: a JSON object)\n"
            "\n"
            "Numbers are decimal or 0x hex.  docs/ita-event-library.md explains the encoding.\n");
}

/* ---- --list: the event table of a model, like libpfm's showevtinfo -------------------- */

static const char *const type_names[] = {
    [ITA_EVT_NORMAL] = "normal",         [ITA_EVT_BTB] = "btb",
    [ITA_EVT_IEAR_TLB] = "iear-tlb",     [ITA_EVT_IEAR_CACHE] = "iear-cache",
    [ITA_EVT_DEAR_TLB] = "dear-tlb",     [ITA_EVT_DEAR_CACHE] = "dear-cache",
    [ITA_EVT_DEAR_ALAT] = "dear-alat",
};
static const char *const group_names[] = {[ITA_EVLIB_GROUP_NONE] = "none", [ITA_EVLIB_GROUP_L1D] = "L1D",
                                          [ITA_EVLIB_GROUP_L2] = "L2"};

static const char *type_name(unsigned t) { return t < sizeof type_names / sizeof type_names[0] ? type_names[t] : "?"; }
static const char *group_name(unsigned g)
{
    return g < sizeof group_names / sizeof group_names[0] ? group_names[g] : "?";
}

/* The counters of a mask, "4,5,6,7" (sep ",") or "4, 5" (JSON). */
static void counters_text(unsigned mask, const char *sep, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (unsigned k = ITA_FIRST_COUNTER; k < ITA_FIRST_COUNTER + ITA_NCOUNTERS && n < len; k++)
        if ((mask >> k) & 1u)
            n += (size_t)snprintf(buf + n, len - n, "%s%u", n ? sep : "", k);
}

static void list_text(FILE *f, const ita_event_row *rows, unsigned n)
{
    fprintf(f, "%-40s %5s %5s %-10s %-8s %7s %-11s %-5s %s\n", "event", "code", "umask", "type", "PMCs", "maxincr",
            "iar/opm/dar", "group", "set");
    for (unsigned i = 0; i < n; i++) {
        const ita_event_row *r = &rows[i];
        char ctrs[16], set[8];
        counters_text(r->counters, ",", ctrs, sizeof ctrs);
        if (r->set == 0xf)
            snprintf(set, sizeof set, "-");
        else
            snprintf(set, sizeof set, "%u", r->set);
        fprintf(f, "%-40s  0x%02x  0x%02x %-10s %-8s %7u %u/%u/%u       %-5s %s\n", r->name, r->code, r->umask,
                type_name(r->type), ctrs, r->maxincr, r->iar, r->opm, r->dar,
                r->group ? group_name(r->group) : "-", set);
    }
}

static void list_json(FILE *f, const char *model, const ita_event_row *rows, unsigned n)
{
    fprintf(f, "{\n  \"model\": ");
    pmu_json_string(f, model);
    fprintf(f, ",\n  \"count\": %u,\n  \"events\": [", n);
    for (unsigned i = 0; i < n; i++) {
        const ita_event_row *r = &rows[i];
        char ctrs[24];
        counters_text(r->counters, ", ", ctrs, sizeof ctrs);
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        pmu_json_string(f, r->name);
        fprintf(f, ", \"code\": \"0x%02x\", \"umask\": \"0x%02x\", \"type\": \"%s\", \"counters\": [%s], "
                   "\"maxincr\": %u, \"iar\": %s, \"opm\": %s, \"dar\": %s, \"group\": \"%s\", \"set\": ",
                r->code, r->umask, type_name(r->type), ctrs, r->maxincr, r->iar ? "true" : "false",
                r->opm ? "true" : "false", r->dar ? "true" : "false", group_name(r->group));
        if (r->set == 0xf)
            fprintf(f, "null}");
        else
            fprintf(f, "%u}", r->set);
    }
    fprintf(f, "%s]\n}\n", n ? "\n  " : "");
}

static void list_events(FILE *f, ita_model m, bool json)
{
    unsigned n;
    const ita_event_row *rows = ita_event_rows(m, &n);
    if (json)
        list_json(f, m == ITA_MODEL_ITANIUM ? "itanium" : "itanium2", rows, n);
    else
        list_text(f, rows, n);
}

/* ---- option values ------------------------------------------------------------------------ */

typedef struct encode_opts {
    ita_evlib_request rq;
    const char *events[ITA_EVLIB_MAX_EVENTS];
    unsigned nevents;
    int json, inverse, no_fine, fine_2bundle, system_wide, list;
    unsigned btb_seen; /* --btb keys given (bit k = btb_keys[k]) */
    pmu_cli_target t;
} encode_opts;

static int add_event(void *ctx, const char *opt, const char *val, pmu_err *err)
{
    encode_opts *o = ctx;
    if (o->nevents == ITA_EVLIB_MAX_EVENTS)
        return pmu_errf(err, PMU_E_INPUT, "%s %s: at most %d events (one per counter PMC4..PMC7)", opt, val,
                        ITA_EVLIB_MAX_EVENTS);
    o->events[o->nevents++] = val;
    return 0;
}

/* --irange / --drange START..END */
static int add_range(void *ctx, const char *opt, const char *val, pmu_err *err)
{
    encode_opts *o = ctx;
    bool code = opt[2] == 'i';
    unsigned *n = code ? &o->rq.nirange : &o->rq.ndrange;
    ita_evlib_range *r = code ? &o->rq.irange[*n] : &o->rq.drange[*n];
    char shown[128], what[48];
    pmu_escape(val, strlen(val), shown, sizeof shown);
    if (*n == ITA_EVLIB_MAX_RANGES)
        return pmu_errf(err, PMU_E_INPUT, "%s %s: at most %d %s ranges (4 debug-register pairs)", opt, shown,
                        ITA_EVLIB_MAX_RANGES, code ? "code" : "data");
    const char *dots = strstr(val, "..");
    if (!dots)
        return pmu_errf(err, PMU_E_INPUT, "%s: expected START..END (end exclusive), found '%s'", opt, shown);
    snprintf(what, sizeof what, "%s start", opt);
    if (pmu_parse_u64n(val, (size_t)(dots - val), 0, UINT64_MAX, what, &r->start, err))
        return -1;
    snprintf(what, sizeof what, "%s end", opt);
    if (pmu_parse_u64(dots + 2, 0, UINT64_MAX, what, &r->end, err))
        return -1;
    if (r->start >= r->end)
        return pmu_errf(err, PMU_E_INPUT, "%s: %s: start must be below end (end is exclusive)", opt, shown);
    (*n)++;
    return 0;
}

#define OPC_FIELD_ALL ((1u << ITA_F_PMC_OPC_MASK_WIDTH) - 1u)

static int opcode_slots(const char *what, const char *v, ita_evlib_opcm *o, pmu_err *err)
{
    o->slots = 0;
    for (const char *p = v; *p; p++) {
        switch (*p) {
        case 'M': case 'm': o->slots |= ITA_EVLIB_SLOT_M; break;
        case 'I': case 'i': o->slots |= ITA_EVLIB_SLOT_I; break;
        case 'F': case 'f': o->slots |= ITA_EVLIB_SLOT_F; break;
        case 'B': case 'b': o->slots |= ITA_EVLIB_SLOT_B; break;
        default:
            return pmu_errf(err, PMU_E_INPUT, "%s: slots expects letters of MIFB, found '%s'", what, v);
        }
    }
    if (!o->slots)
        return pmu_errf(err, PMU_E_INPUT, "%s: slots expects letters of MIFB, found ''", what);
    return 0;
}

/* Splits one "key=value" item of option `what` and finds its key in keys[]: its index,
 * with *value pointing after the '=', or -1 with err filled (no '=', unknown key, a key
 * given twice: `seen` has bit k for keys[k]). */
static int item_key(const char *what, char *item, const char *const *keys, unsigned nkeys, unsigned *seen,
                    char **value, pmu_err *err)
{
    char *eq = strchr(item, '=');
    if (!eq)
        return pmu_errf(err, PMU_E_INPUT, "%s: expected key=value, found '%s'", what, item);
    *eq++ = '\0';
    unsigned k = 0;
    while (k < nkeys && strcmp(item, keys[k]) != 0)
        k++;
    if (k == nkeys) {
        char list[128];
        size_t n = 0;
        for (unsigned i = 0; i < nkeys && n < sizeof list; i++)
            n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", i ? ", " : "", keys[i]);
        return pmu_errf(err, PMU_E_INPUT, "%s: unknown key '%s' (expected %s)", what, item, list);
    }
    if (*seen >> k & 1u)
        return pmu_errf(err, PMU_E_INPUT, "%s: %s given twice", what, item);
    *seen |= 1u << k;
    *value = eq;
    return (int)k;
}

/* A number item value 0..max. */
static int item_number(const char *what, const char *key, const char *v, uint64_t max, uint64_t *n, pmu_err *err)
{
    char where[64];
    snprintf(where, sizeof where, "%.32s: %s", what, key);
    return pmu_parse_u64(v, 0, max, where, n, err);
}

/* One key=value of an --opcode; seen: bit 0 match, 1 mask, 2 slots. */
static int opcode_item(void *ctx, const char *what, char *item, unsigned *seen, pmu_err *err)
{
    static const char *const keys[] = {"match", "mask", "slots"};
    ita_evlib_opcm *o = ctx;
    char *eq;
    int k = item_key(what, item, keys, 3, seen, &eq, err);
    if (k < 0)
        return -1;
    if (k == 2)
        return opcode_slots(what, eq, o, err);
    uint64_t n;
    if (item_number(what, keys[k], eq, UINT64_MAX, &n, err))
        return -1;
    if (n > OPC_FIELD_ALL)
        return pmu_errf(err, PMU_E_INPUT, "%s: %s expects a number 0..0x%x (27 bits), found '%s'", what, item,
                        OPC_FIELD_ALL, eq);
    if (k == 0)
        o->match = (uint32_t)n;
    else
        o->mask = (uint32_t)n;
    return 0;
}

/* Calls fn(ctx, what, item, seen, err) for each comma-separated item of val. */
static int each_item(const char *what, const char *val, int (*fn)(void *, const char *, char *, unsigned *, pmu_err *),
                     void *ctx, unsigned *seen, pmu_err *err)
{
    char buf[256];
    if (strlen(val) >= sizeof buf)
        return pmu_errf(err, PMU_E_INPUT, "%s: value longer than %zu characters", what, sizeof buf - 1);
    strcpy(buf, val);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save))
        if (fn(ctx, what, item, seen, err))
            return -1;
    return 0;
}

static int ism_value(const char *what, const char *v, ita_evlib_ism *ism, pmu_err *err)
{
    static const char *const names[] = {"both", "ia32", "ia64"};
    static const ita_evlib_ism isms[] = {ITA_EVLIB_ISM_BOTH, ITA_EVLIB_ISM_IA32, ITA_EVLIB_ISM_IA64};
    for (unsigned i = 0; i < 3; i++)
        if (!strcmp(v, names[i])) {
            *ism = isms[i];
            return 0;
        }
    return pmu_errf(err, PMU_E_INPUT, "%s: ism expects ia64, ia32 or both, found '%s'", what, v);
}

/* One key of --iear / --dear: mode=cache|tlb|alat, umask=N, plm=N, ism=ia64|ia32|both. */
static int ear_item(void *ctx, const char *what, char *item, unsigned *seen, pmu_err *err)
{
    static const char *const keys[] = {"mode", "umask", "plm", "ism"};
    static const char *const modes[] = {[ITA_EVLIB_EAR_CACHE] = "cache", [ITA_EVLIB_EAR_TLB] = "tlb",
                                        [ITA_EVLIB_EAR_ALAT] = "alat"};
    ita_evlib_ear *e = ctx;
    char *v;
    uint64_t n;
    switch (item_key(what, item, keys, 4, seen, &v, err)) {
    case 0:
        for (unsigned m = 0; m < 3; m++)
            if (!strcmp(v, modes[m])) {
                e->mode = (ita_evlib_ear_mode)m;
                return 0;
            }
        return pmu_errf(err, PMU_E_INPUT, "%s: mode expects cache, tlb or alat, found '%s'", what, v);
    case 1:
        if (item_number(what, "umask", v, 0xff, &n, err))
            return -1;
        e->umask = (unsigned)n;
        return 0;
    case 2:
        if (item_number(what, "plm", v, ITA_EVLIB_PLM_ALL, &n, err))
            return -1;
        e->plm = (unsigned)n;
        return 0;
    case 3: return ism_value(what, v, &e->ism, err);
    default: return -1;
    }
}

/* --iear / --dear mode=M,umask=N[,plm=N][,ism=I]: the EAR's explicit configuration. */
static int add_ear(void *ctx, const char *opt, const char *val, pmu_err *err)
{
    encode_opts *o = ctx;
    ita_evlib_ear *e = opt[2] == 'i' ? &o->rq.iear : &o->rq.dear;
    unsigned seen = 0;
    *e = (ita_evlib_ear){.used = true, .mode = ITA_EVLIB_EAR_CACHE, .ism = ITA_EVLIB_ISM_BOTH};
    if (each_item(opt, val, ear_item, e, &seen, err))
        return -1;
    if ((seen & 3u) != 3u)
        return pmu_errf(err, PMU_E_INPUT, "%s: expected mode=cache|tlb%s and umask=N", opt,
                        opt[2] == 'd' ? "|alat" : "");
    return 0;
}

enum { BTB_TAR = 5, BTB_BPT, BTB_BAC }; /* the Itanium keys' indexes in btb_keys */
static const char *const btb_keys[] = {"tm", "ptm", "ppm", "brt", "ds", "tar", "bpt", "bac", "plm"};
#define BTB_NKEYS (sizeof btb_keys / sizeof btb_keys[0])

/* One key of --btb (2-bit masks, 1-bit flags, plm). */
static int btb_item(void *ctx, const char *what, char *item, unsigned *seen, pmu_err *err)
{
    ita_evlib_btb *b = ctx;
    char *v;
    int k = item_key(what, item, btb_keys, BTB_NKEYS, seen, &v, err);
    if (k < 0)
        return -1;
    uint64_t max = k <= 3 ? 3 : k == 8 ? ITA_EVLIB_PLM_ALL : 1, n;
    if (item_number(what, btb_keys[k], v, max, &n, err))
        return -1;
    unsigned *u[] = {&b->tm, &b->ptm, &b->ppm, &b->brt};
    bool *f[] = {&b->ds, &b->tar, &b->bpt, &b->bac};
    if (k <= 3)
        *u[k] = (unsigned)n;
    else if (k <= 7)
        *f[k - 4] = n != 0;
    else
        b->plm = (unsigned)n;
    return 0;
}

/* --btb all | KEY=N,...: the BTB's explicit configuration; unnamed keys record every branch
 * (tm = ptm = ppm = 3, brt = 0, ds = 0; Itanium: tar = bpt = bac = 1, set once the model is known). */
static int add_btb(void *ctx, const char *opt, const char *val, pmu_err *err)
{
    encode_opts *o = ctx;
    o->rq.btb = (ita_evlib_btb){.used = true, .tm = 3, .ptm = 3, .ppm = 3};
    o->btb_seen = 0;
    if (!strcmp(val, "all"))
        return 0;
    return each_item(opt, val, btb_item, &o->rq.btb, &o->btb_seen, err);
}

/* --opcode PMC8|PMC9[:match=N,mask=N,slots=MIFB] */
static int add_opcode(void *ctx, const char *opt, const char *val, pmu_err *err)
{
    encode_opts *eo = ctx;
    char buf[256];
    if (strlen(val) >= sizeof buf)
        return pmu_errf(err, PMU_E_INPUT, "%s: expected PMC8|PMC9:match=N,mask=N,slots=MIFB", opt);
    strcpy(buf, val);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon++ = '\0';
    ita_evlib_opcm *o;
    if (!strcmp(buf, "PMC8") || !strcmp(buf, "pmc8"))
        o = &eo->rq.pmc8;
    else if (!strcmp(buf, "PMC9") || !strcmp(buf, "pmc9"))
        o = &eo->rq.pmc9;
    else
        return pmu_errf(err, PMU_E_INPUT, "%s: expected PMC8 or PMC9 before ':', found '%s'", opt, buf);
    if (o->used)
        return pmu_errf(err, PMU_E_INPUT, "%s: %s given twice", opt, buf);
    *o = (ita_evlib_opcm){.used = true, .match = 0, .mask = OPC_FIELD_ALL, .slots = ITA_EVLIB_SLOTS_ALL};
    unsigned seen = 0;
    char what[24];
    snprintf(what, sizeof what, "--opcode %.8s", buf);
    return colon ? each_item(what, colon, opcode_item, o, &seen, err) : 0;
}

/* ---- output ----------------------------------------------------------------------------------- */

static void reg_name(uint16_t addr, char *buf, size_t len)
{
    static const char *const space_name[] = {[ITA_SPACE_PMC] = "PMC", [ITA_SPACE_PMD] = "PMD",
                                             [ITA_SPACE_IBR] = "IBR", [ITA_SPACE_DBR] = "DBR",
                                             [ITA_SPACE_CPU] = "CPU"};
    unsigned sp = ITA_ADDR_SPACE(addr);
    snprintf(buf, len, "%s%u", sp < ITA_NSPACES ? space_name[sp] : "?", ITA_ADDR_INDEX(addr));
}

static void print_ranges_json(FILE *out, const char *key, const ita_evlib_range *rg, const ita_evlib_range_result *res,
                              unsigned n)
{
    fprintf(out, "  \"%s\": [", key);
    for (unsigned i = 0; i < n; i++) {
        fprintf(out,
                "%s\n    {\"start\": \"0x%" PRIx64 "\", \"end\": \"0x%" PRIx64 "\", \"start_offset\": \"0x%" PRIx64
                "\", \"end_offset\": \"0x%" PRIx64 "\", \"covered_start\": \"0x%" PRIx64
                "\", \"covered_end\": \"0x%" PRIx64 "\", \"fine\": %s, \"pairs\": [",
                i ? "," : "", rg[i].start, rg[i].end, res[i].soff, res[i].eoff, rg[i].start - res[i].soff,
                rg[i].end + res[i].eoff, res[i].fine ? "true" : "false");
        bool first = true;
        for (unsigned k = 0; k < ITA_EVLIB_NPAIRS; k++)
            if ((res[i].pairs >> k) & 1u) {
                fprintf(out, "%s%u", first ? "" : ", ", k);
                first = false;
            }
        fprintf(out, "]}");
    }
    fprintf(out, "%s]", n ? "\n  " : "");
}

static void print_json(FILE *out, const ita_evlib_request *rq, const ita_evlib_dispatch *d)
{
    char name[16];
    fprintf(out, "{\n  \"model\": \"%s\",\n  \"registers\": [",
            rq->model == ITA_MODEL_ITANIUM ? "itanium" : "itanium2");
    for (unsigned i = 0; i < d->nwrites; i++) {
        reg_name(d->writes[i].addr, name, sizeof name);
        fprintf(out, "%s\n    {\"name\": \"%s\", \"addr\": \"0x%03x\", \"value\": \"0x%016" PRIx64 "\"}",
                i ? "," : "", name, d->writes[i].addr, d->writes[i].value);
    }
    fprintf(out, "\n  ],\n  \"events\": [");
    for (unsigned i = 0; i < rq->nevents; i++) {
        fprintf(out, "%s\n    {\"event\": \"%s\", \"counter\": \"PMC%u\", \"plm\": %u, \"thres\": %u",
                i ? "," : "", ita_evlib_event_name(rq->events[i].event), d->counter[i], rq->events[i].plm,
                rq->events[i].thres);
        if (d->tag_pair[i] >= 0)
            fprintf(out, ", \"ibr_pair\": %d", d->tag_pair[i]);
        fprintf(out, "}");
    }
    fprintf(out, "\n  ],\n  \"irange_fine\": %s,\n", d->irange_fine ? "true" : "false");
    print_ranges_json(out, "irange", rq->irange, d->irange, d->nirange);
    fprintf(out, ",\n");
    print_ranges_json(out, "drange", rq->drange, d->drange, d->ndrange);
    fprintf(out, "\n}\n");
}

/* ---- the command ------------------------------------------------------------------------------- */

static int parse(const pmu_cli_cmd *cmd, int argc, char **argv, encode_opts *o)
{
    pmu_opt opts[24];
    unsigned n = pmu_cli_target_opts(&o->t, 0, opts);
    opts[n++] = (pmu_opt){.name = "event", .key = 'e', .kind = PMU_OPT_CALL, .call = add_event, .ctx = o, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "irange", .kind = PMU_OPT_CALL, .call = add_range, .ctx = o, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "drange", .kind = PMU_OPT_CALL, .call = add_range, .ctx = o, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "opcode", .kind = PMU_OPT_CALL, .call = add_opcode, .ctx = o, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "iear", .kind = PMU_OPT_CALL, .call = add_ear, .ctx = o};
    opts[n++] = (pmu_opt){.name = "dear", .kind = PMU_OPT_CALL, .call = add_ear, .ctx = o};
    opts[n++] = (pmu_opt){.name = "btb", .kind = PMU_OPT_CALL, .call = add_btb, .ctx = o};
    opts[n++] = (pmu_opt){.name = "inverse", .kind = PMU_OPT_FLAG, .dest = &o->inverse};
    opts[n++] = (pmu_opt){.name = "no-fine-mode", .kind = PMU_OPT_FLAG, .dest = &o->no_fine};
    opts[n++] = (pmu_opt){.name = "fine-2bundle", .kind = PMU_OPT_FLAG, .dest = &o->fine_2bundle};
    opts[n++] = (pmu_opt){.name = "system-wide", .kind = PMU_OPT_FLAG, .dest = &o->system_wide};
    opts[n++] = (pmu_opt){.name = "json", .kind = PMU_OPT_FLAG, .dest = &o->json};
    opts[n++] = (pmu_opt){.name = "list", .kind = PMU_OPT_FLAG, .dest = &o->list};
    opts[n++] = (pmu_opt){.name = "list-events", .kind = PMU_OPT_FLAG, .dest = &o->list}; /* older name */
    const char *args[1];
    unsigned nargs;
    int rc = pmu_cli_parse(cmd, opts, n, argc, argv, args, &nargs);
    if (rc)
        return rc;
    if ((rc = pmu_cli_target_resolve(cmd, &o->t)))
        return rc;
    if (o->t.fam != &pmu_family_itanium)
        return pmu_cli_usage(cmd, "--family: expected itanium (this is its event library), found '%s'",
                             o->t.fam->name);
    o->rq.model = (ita_model)o->t.model;
    static const char *const flag_names[] = {"--inverse", "--no-fine-mode", "--fine-2bundle"};
    const int flags[] = {o->inverse, o->no_fine, o->fine_2bundle};
    for (unsigned k = 0; k < 3; k++)
        if (flags[k] && o->rq.nirange == 0)
            return pmu_cli_usage(cmd, "%s: without a code range (--irange A..B) there is nothing to apply it to",
                                 flag_names[k]);
    o->rq.irange_flags |= (o->inverse ? ITA_EVLIB_RR_INV : 0u) | (o->no_fine ? ITA_EVLIB_RR_NO_FINE_MODE : 0u) |
                          (o->fine_2bundle ? ITA_EVLIB_RR_FINE_2BUNDLE : 0u);
    if (!o->list && o->nevents == 0 && !o->rq.iear.used && !o->rq.dear.used && !o->rq.btb.used)
        return pmu_cli_usage(cmd, "expected at least one -e EVENT, or --iear/--dear/--btb (pmusim encode --list "
                                  "lists the events)");
    /* Itanium's BTB records every predictor source unless told otherwise. */
    bool ita = o->rq.model == ITA_MODEL_ITANIUM;
    if (o->rq.btb.used && ita) {
        if (!(o->btb_seen >> BTB_TAR & 1u))
            o->rq.btb.tar = true;
        if (!(o->btb_seen >> BTB_BPT & 1u))
            o->rq.btb.bpt = true;
        if (!(o->btb_seen >> BTB_BAC & 1u))
            o->rq.btb.bac = true;
    }
    o->rq.iear.pm = o->rq.dear.pm = o->rq.btb.pm = o->system_wide;
    return 0;
}

int pmusim_encode_main(int argc, char **argv, FILE *out, FILE *errf)
{
    const pmu_cli_cmd cmd = {.name = "encode", .help = encode_help, .out = out, .err = errf};
    encode_opts o;
    memset(&o, 0, sizeof o);
    o.rq = ita_evlib_request_init(ITA_MODEL_ITANIUM2);
    int rc = parse(&cmd, argc, argv, &o);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    if (o.list) {
        list_events(out, o.rq.model, o.json);
        return 0;
    }
    ita_evlib_error err;
    for (unsigned i = 0; i < o.nevents; i++) {
        if (ita_evlib_parse_event_model(o.events[i], o.rq.model, &o.rq.events[i], &err))
            return pmu_cli_fail(&cmd, PMU_EXIT_USAGE, "-e %s: %s", o.events[i], err.msg);
        o.rq.events[i].pm = o.system_wide;
    }
    o.rq.nevents = o.nevents;
    ita_evlib_dispatch d;
    if (ita_evlib_dispatch_request(&o.rq, &d, &err))
        return pmu_cli_fail(&cmd, PMU_EXIT_USAGE, "%s", err.msg);
    if (o.json) {
        print_json(out, &o.rq, &d);
        return 0;
    }
    char name[16];
    for (unsigned i = 0; i < d.nwrites; i++) {
        reg_name(d.writes[i].addr, name, sizeof name);
        fprintf(out, "%s = 0x%016" PRIx64 "\n", name, d.writes[i].value);
    }
    return 0;
}
