/*
 * cmd_encode.c - `pmusim encode` for the Itanium family: the register values the event
 * library (include/ita/pmulib.h) computes for events, code/data ranges and opcode
 * matchers, one "PMCn = 0x..." / "IBRn = 0x..." / "DBRn = 0x..." line per register, or
 * JSON with each range's offsets.  Nothing runs: it only encodes.
 */
#define _POSIX_C_SOURCE 200809L /* strtok_r */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ita/ita_cmds.h"
#include "ita/ita_family.h"
#include "ita/pmulib.h"
#include "pmu_cli.h"
#include "pmu_num.h"

static void encode_help(FILE *f)
{
    fprintf(f,
            "usage: pmusim encode -e EVENT[:mod...] [-e ...] [--irange A..B]... [--drange A..B]...\n"
            "                     [--opcode PMC8|PMC9:match=N,mask=N,slots=MIFB] [--inverse]\n"
            "                     [--no-fine-mode] [--fine-2bundle] [--system-wide]\n"
            "                     [--family itanium] [--model itanium|itanium2] [--json] | --list-events\n"
            "\n"
            "  -e, --event EV     up to 4 events; modifiers :u :k :plm=N :thres=N :ism=ia64|ia32|both\n"
            "                     (no privilege modifier = user level)\n"
            "  --irange A..B      code range [A, B), 16-byte aligned (up to 4)\n"
            "  --drange A..B      data range [A, B) (up to 4)\n"
            "  --opcode P:...     opcode matcher P = PMC8 or PMC9: match and mask (27 bits over\n"
            "                     instruction bits {40:27,12:0}, mask 1 = don't care; default\n"
            "                     match 0, mask all ones) and slot types (default MIFB)\n"
            "  --inverse          count outside the (single) code range\n"
            "  --no-fine-mode     never use fine mode for code ranges\n"
            "  --fine-2bundle     fine mode with the two-bundle granularity of the first Itanium 2s\n"
            "  --system-wide      privileged monitors (pm = 1: enabled by PSR.pp)\n"
            "  --model M          itanium or itanium2 (default)\n"
            "  --json             JSON with the registers, counters and each range's offsets\n"
            "  --list-events      the event names, codes and attributes\n"
            "\n"
            "Numbers are decimal or 0x hex.  docs/event-library.md explains the encoding.\n");
}

static void list_events(FILE *f)
{
    fprintf(f, "%-40s %5s %5s %5s %7s %8s %8s %-11s %s\n", "event", "code", "ita", "umask", "maxincr", "PMCs",
            "ita-PMCs", "iar/opm/dar", "group/set");
    for (int i = 0; i < (int)pmulib_num_events(); i++) {
        const pmu_event_desc *d = &pmu_event_table[i];
        char ita[8], gs[16];
        if (pmulib_event_on_model(i, PMU_MODEL_ITANIUM))
            snprintf(ita, sizeof ita, "0x%02x", (unsigned)pmu_event_code(d, PMU_MODEL_ITANIUM));
        else
            snprintf(ita, sizeof ita, "-");
        int set;
        pmulib_event_set(i, &set, NULL);
        if (d->group == PMULIB_GROUP_NONE)
            snprintf(gs, sizeof gs, "-");
        else
            snprintf(gs, sizeof gs, "%s/%d", d->group == PMULIB_GROUP_L1D ? "L1D" : "L2", set);
        char ctrs[2][16];
        for (int m = 0; m < 2; m++) {
            unsigned mask = pmu_event_counters(d, m ? PMU_MODEL_ITANIUM : PMU_MODEL_ITANIUM2);
            size_t n = 0;
            ctrs[m][0] = '\0';
            for (unsigned k = PMU_FIRST_COUNTER; k < PMU_FIRST_COUNTER + PMU_NCOUNTERS; k++)
                if ((mask >> k) & 1u)
                    n += (size_t)snprintf(ctrs[m] + n, sizeof ctrs[m] - n, "%s%u", n ? "," : "", k);
        }
        fprintf(f, "%-40s  0x%02x %5s %5u %7u %8s %8s %d/%d/%d       %s\n", d->name, d->code, ita, d->umask,
                d->maxincr, ctrs[0], ctrs[1], pmulib_supports_iarr(i), pmulib_supports_opcm(i),
                pmulib_supports_darr(i), gs);
    }
}

/* ---- option values ------------------------------------------------------------------------ */

typedef struct encode_opts {
    pmulib_request rq;
    const char *events[PMULIB_MAX_EVENTS];
    unsigned nevents;
    int json, inverse, no_fine, fine_2bundle, system_wide, list;
    pmu_cli_target t;
} encode_opts;

static int add_event(void *ctx, const char *opt, const char *val, pmu_err *err)
{
    encode_opts *o = ctx;
    if (o->nevents == PMULIB_MAX_EVENTS)
        return pmu_errf(err, PMU_E_INPUT, "%s %s: at most %d events (one per counter PMC4..PMC7)", opt, val,
                        PMULIB_MAX_EVENTS);
    o->events[o->nevents++] = val;
    return 0;
}

/* --irange / --drange START..END */
static int add_range(void *ctx, const char *opt, const char *val, pmu_err *err)
{
    encode_opts *o = ctx;
    bool code = opt[2] == 'i';
    unsigned *n = code ? &o->rq.nirange : &o->rq.ndrange;
    pmulib_range *r = code ? &o->rq.irange[*n] : &o->rq.drange[*n];
    char shown[128], what[48];
    pmu_escape(val, strlen(val), shown, sizeof shown);
    if (*n == PMULIB_MAX_RANGES)
        return pmu_errf(err, PMU_E_INPUT, "%s %s: at most %d %s ranges (4 debug-register pairs)", opt, shown,
                        PMULIB_MAX_RANGES, code ? "code" : "data");
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

#define OPC_FIELD_ALL ((1u << PMU_F_PMC_OPC_MASK_WIDTH) - 1u)

static int opcode_slots(const char *reg, const char *v, pmulib_opcm *o, pmu_err *err)
{
    o->slots = 0;
    for (const char *p = v; *p; p++) {
        switch (*p) {
        case 'M': case 'm': o->slots |= PMULIB_SLOT_M; break;
        case 'I': case 'i': o->slots |= PMULIB_SLOT_I; break;
        case 'F': case 'f': o->slots |= PMULIB_SLOT_F; break;
        case 'B': case 'b': o->slots |= PMULIB_SLOT_B; break;
        default:
            return pmu_errf(err, PMU_E_INPUT, "--opcode %s: slots expects letters of MIFB, found '%s'", reg, v);
        }
    }
    if (!o->slots)
        return pmu_errf(err, PMU_E_INPUT, "--opcode %s: slots expects letters of MIFB, found ''", reg);
    return 0;
}

/* One key=value of an --opcode; seen: bit 0 match, 1 mask, 2 slots. */
static int opcode_item(const char *reg, char *item, pmulib_opcm *o, unsigned *seen, pmu_err *err)
{
    static const char *const keys[] = {"match", "mask", "slots"};
    char *eq = strchr(item, '=');
    if (!eq)
        return pmu_errf(err, PMU_E_INPUT, "--opcode %s: expected key=value, found '%s'", reg, item);
    *eq++ = '\0';
    unsigned k = 0;
    while (k < 3 && strcmp(item, keys[k]) != 0)
        k++;
    if (k == 3)
        return pmu_errf(err, PMU_E_INPUT, "--opcode %s: unknown key '%s' (expected match, mask or slots)", reg, item);
    if (*seen >> k & 1u)
        return pmu_errf(err, PMU_E_INPUT, "--opcode %s: %s given twice", reg, item);
    *seen |= 1u << k;
    if (k == 2)
        return opcode_slots(reg, eq, o, err);
    char what[48];
    uint64_t n;
    snprintf(what, sizeof what, "--opcode %.8s: %s", reg, keys[k]);
    if (pmu_parse_u64(eq, 0, UINT64_MAX, what, &n, err))
        return -1;
    if (n > OPC_FIELD_ALL)
        return pmu_errf(err, PMU_E_INPUT, "--opcode %s: %s expects a number 0..0x%x (27 bits), found '%s'", reg,
                        item, OPC_FIELD_ALL, eq);
    if (k == 0)
        o->match = (uint32_t)n;
    else
        o->mask = (uint32_t)n;
    return 0;
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
    pmulib_opcm *o;
    if (!strcmp(buf, "PMC8") || !strcmp(buf, "pmc8"))
        o = &eo->rq.pmc8;
    else if (!strcmp(buf, "PMC9") || !strcmp(buf, "pmc9"))
        o = &eo->rq.pmc9;
    else
        return pmu_errf(err, PMU_E_INPUT, "%s: expected PMC8 or PMC9 before ':', found '%s'", opt, buf);
    if (o->used)
        return pmu_errf(err, PMU_E_INPUT, "%s: %s given twice", opt, buf);
    *o = (pmulib_opcm){.used = true, .match = 0, .mask = OPC_FIELD_ALL, .slots = PMULIB_SLOTS_ALL};
    unsigned seen = 0;
    char *save = NULL;
    for (char *item = colon ? strtok_r(colon, ",", &save) : NULL; item; item = strtok_r(NULL, ",", &save))
        if (opcode_item(buf, item, o, &seen, err))
            return -1;
    return 0;
}

/* ---- output ----------------------------------------------------------------------------------- */

static void reg_name(uint16_t addr, char *buf, size_t len)
{
    static const char *const space_name[] = {[PMU_SPACE_PMC] = "PMC", [PMU_SPACE_PMD] = "PMD",
                                             [PMU_SPACE_IBR] = "IBR", [PMU_SPACE_DBR] = "DBR",
                                             [PMU_SPACE_CPU] = "CPU"};
    unsigned sp = PMU_ADDR_SPACE(addr);
    snprintf(buf, len, "%s%u", sp < PMU_NSPACES ? space_name[sp] : "?", PMU_ADDR_INDEX(addr));
}

static void print_ranges_json(FILE *out, const char *key, const pmulib_range *rg, const pmulib_range_result *res,
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
        for (unsigned k = 0; k < PMULIB_NPAIRS; k++)
            if ((res[i].pairs >> k) & 1u) {
                fprintf(out, "%s%u", first ? "" : ", ", k);
                first = false;
            }
        fprintf(out, "]}");
    }
    fprintf(out, "%s]", n ? "\n  " : "");
}

static void print_json(FILE *out, const pmulib_request *rq, const pmulib_dispatch *d)
{
    char name[16];
    fprintf(out, "{\n  \"model\": \"%s\",\n  \"registers\": [",
            rq->model == PMU_MODEL_ITANIUM ? "itanium" : "itanium2");
    for (unsigned i = 0; i < d->nwrites; i++) {
        reg_name(d->writes[i].addr, name, sizeof name);
        fprintf(out, "%s\n    {\"name\": \"%s\", \"addr\": \"0x%03x\", \"value\": \"0x%016" PRIx64 "\"}",
                i ? "," : "", name, d->writes[i].addr, d->writes[i].value);
    }
    fprintf(out, "\n  ],\n  \"events\": [");
    for (unsigned i = 0; i < rq->nevents; i++) {
        fprintf(out, "%s\n    {\"event\": \"%s\", \"counter\": \"PMC%u\", \"plm\": %u, \"thres\": %u",
                i ? "," : "", pmulib_event_name(rq->events[i].event), d->counter[i], rq->events[i].plm,
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
    pmu_opt opts[16];
    unsigned n = pmu_cli_target_opts(&o->t, 0, opts);
    opts[n++] = (pmu_opt){.name = "event", .key = 'e', .kind = PMU_OPT_CALL, .call = add_event, .ctx = o, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "irange", .kind = PMU_OPT_CALL, .call = add_range, .ctx = o, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "drange", .kind = PMU_OPT_CALL, .call = add_range, .ctx = o, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "opcode", .kind = PMU_OPT_CALL, .call = add_opcode, .ctx = o, .repeat = 1};
    opts[n++] = (pmu_opt){.name = "inverse", .kind = PMU_OPT_FLAG, .dest = &o->inverse};
    opts[n++] = (pmu_opt){.name = "no-fine-mode", .kind = PMU_OPT_FLAG, .dest = &o->no_fine};
    opts[n++] = (pmu_opt){.name = "fine-2bundle", .kind = PMU_OPT_FLAG, .dest = &o->fine_2bundle};
    opts[n++] = (pmu_opt){.name = "system-wide", .kind = PMU_OPT_FLAG, .dest = &o->system_wide};
    opts[n++] = (pmu_opt){.name = "json", .kind = PMU_OPT_FLAG, .dest = &o->json};
    opts[n++] = (pmu_opt){.name = "list-events", .kind = PMU_OPT_FLAG, .dest = &o->list};
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
    o->rq.model = (pmu_model)o->t.model;
    static const char *const flag_names[] = {"--inverse", "--no-fine-mode", "--fine-2bundle"};
    const int flags[] = {o->inverse, o->no_fine, o->fine_2bundle};
    for (unsigned k = 0; k < 3; k++)
        if (flags[k] && o->rq.nirange == 0)
            return pmu_cli_usage(cmd, "%s: without a code range (--irange A..B) there is nothing to apply it to",
                                 flag_names[k]);
    o->rq.irange_flags |= (o->inverse ? PMULIB_RR_INV : 0u) | (o->no_fine ? PMULIB_RR_NO_FINE_MODE : 0u) |
                          (o->fine_2bundle ? PMULIB_RR_FINE_2BUNDLE : 0u);
    if (!o->list && o->nevents == 0)
        return pmu_cli_usage(cmd, "expected at least one -e EVENT (pmusim encode --list-events lists them)");
    return 0;
}

int pmusim_encode_main(int argc, char **argv, FILE *out, FILE *errf)
{
    const pmu_cli_cmd cmd = {.name = "encode", .help = encode_help, .out = out, .err = errf};
    encode_opts o;
    memset(&o, 0, sizeof o);
    o.rq = pmulib_request_init(PMU_MODEL_ITANIUM2);
    int rc = parse(&cmd, argc, argv, &o);
    if (rc)
        return rc == PMU_CLI_DONE ? PMU_EXIT_OK : rc;
    if (o.list) {
        list_events(out);
        return 0;
    }
    pmulib_error err;
    for (unsigned i = 0; i < o.nevents; i++) {
        if (pmulib_parse_event(o.events[i], &o.rq.events[i], &err))
            return pmu_cli_fail(&cmd, PMU_EXIT_USAGE, "-e %s: %s", o.events[i], err.msg);
        o.rq.events[i].pm = o.system_wide;
    }
    o.rq.nevents = o.nevents;
    pmulib_dispatch d;
    if (pmulib_dispatch_request(&o.rq, &d, &err))
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
