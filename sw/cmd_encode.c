/*
 * cmd_encode.c - `pmusim encode`: the register values the event library
 * computes for events, code/data ranges and opcode matchers, one
 * "PMCn = 0x..." / "IBRn = 0x..." / "DBRn = 0x..." line per register, or JSON
 * with each range's offsets.  Nothing runs: it only encodes.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ita/pmulib.h"
#include "ita/pmulib_internal.h" /* sw/ita/ */
#include "sw_cmds.h"

#define EXIT_USAGE 2

static int usage_error(FILE *errf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int usage_error(FILE *errf, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(errf, "pmusim encode: ");
    vfprintf(errf, fmt, ap);
    fprintf(errf, "\n");
    va_end(ap);
    return EXIT_USAGE;
}

static void encode_help(FILE *f)
{
    fprintf(f,
            "usage: pmusim encode -e EVENT[:mod...] [-e ...] [--irange A..B]... [--drange A..B]...\n"
            "                     [--opcode PMC8|PMC9:match=N,mask=N,slots=MIFB] [--inverse]\n"
            "                     [--no-fine-mode] [--fine-2bundle] [--system-wide]\n"
            "                     [--model itanium|itanium2] [--json] | --list-events\n"
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

static int parse_range(FILE *errf, const char *opt, const char *val, pmulib_range *r)
{
    const char *dots = val ? strstr(val, "..") : NULL;
    char a[64], b[64];
    if (!dots || (size_t)(dots - val) >= sizeof a || strlen(dots + 2) >= sizeof b)
        return usage_error(errf, "%s: expected START..END (end exclusive), found '%s'", opt, val ? val : "");
    snprintf(a, sizeof a, "%.*s", (int)(dots - val), val);
    snprintf(b, sizeof b, "%s", dots + 2);
    uint64_t s, e;
    if (!pmulib_parse_u64(a, &s) || !pmulib_parse_u64(b, &e))
        return usage_error(errf, "%s: expected START..END with decimal or 0x hex numbers, found '%s'", opt, val);
    if (s >= e)
        return usage_error(errf, "%s: %s: start must be below end (end is exclusive)", opt, val);
    r->start = s;
    r->end = e;
    return 0;
}

#define OPC_FIELD_ALL ((1u << PMU_F_PMC_OPC_MASK_WIDTH) - 1u)

static int parse_opcode(FILE *errf, const char *val, pmulib_request *rq)
{
    char buf[256];
    if (!val || strlen(val) >= sizeof buf)
        return usage_error(errf, "--opcode: expected PMC8|PMC9:match=N,mask=N,slots=MIFB");
    strcpy(buf, val);
    char *colon = strchr(buf, ':');
    if (colon)
        *colon++ = '\0';
    pmulib_opcm *o;
    if (!strcmp(buf, "PMC8") || !strcmp(buf, "pmc8"))
        o = &rq->pmc8;
    else if (!strcmp(buf, "PMC9") || !strcmp(buf, "pmc9"))
        o = &rq->pmc9;
    else
        return usage_error(errf, "--opcode: expected PMC8 or PMC9 before ':', found '%s'", buf);
    if (o->used)
        return usage_error(errf, "--opcode: %s given twice", buf);
    o->used = true;
    o->match = 0;
    o->mask = OPC_FIELD_ALL;
    o->slots = PMULIB_SLOTS_ALL;
    bool seen_match = false, seen_mask = false, seen_slots = false;
    for (char *item = colon ? strtok(colon, ",") : NULL; item; item = strtok(NULL, ",")) {
        char *eq = strchr(item, '=');
        if (!eq)
            return usage_error(errf, "--opcode %s: expected key=value, found '%s'", buf, item);
        *eq++ = '\0';
        uint64_t n;
        if (!strcmp(item, "match") || !strcmp(item, "mask")) {
            bool is_match = item[1] == 'a' && item[2] == 't';
            if (is_match ? seen_match : seen_mask)
                return usage_error(errf, "--opcode %s: %s given twice", buf, item);
            if (!pmulib_parse_u64(eq, &n) || n > OPC_FIELD_ALL)
                return usage_error(errf, "--opcode %s: %s expects a number 0..0x%x (27 bits), found '%s'", buf, item,
                                   OPC_FIELD_ALL, eq);
            if (is_match) {
                o->match = (uint32_t)n;
                seen_match = true;
            } else {
                o->mask = (uint32_t)n;
                seen_mask = true;
            }
        } else if (!strcmp(item, "slots")) {
            if (seen_slots)
                return usage_error(errf, "--opcode %s: slots given twice", buf);
            seen_slots = true;
            o->slots = 0;
            for (const char *p = eq; *p; p++) {
                unsigned bit;
                switch (*p) {
                case 'M': case 'm': bit = PMULIB_SLOT_M; break;
                case 'I': case 'i': bit = PMULIB_SLOT_I; break;
                case 'F': case 'f': bit = PMULIB_SLOT_F; break;
                case 'B': case 'b': bit = PMULIB_SLOT_B; break;
                default:
                    return usage_error(errf, "--opcode %s: slots expects letters of MIFB, found '%s'", buf, eq);
                }
                o->slots |= bit;
            }
            if (!o->slots)
                return usage_error(errf, "--opcode %s: slots expects letters of MIFB, found ''", buf);
        } else {
            return usage_error(errf, "--opcode %s: unknown key '%s' (expected match, mask or slots)", buf, item);
        }
    }
    return 0;
}

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

int pmusim_encode_main(int argc, char **argv, FILE *out, FILE *errf)
{
    pmulib_request rq = pmulib_request_init(PMU_MODEL_ITANIUM2);
    bool json = false, system_wide = false;
    const char *event_str[PMULIB_MAX_EVENTS];
    unsigned nevent_str = 0;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i], *val = NULL;
        char name[32];
        const char *eq = strncmp(arg, "--", 2) == 0 ? strchr(arg, '=') : NULL;
        if (eq) {
            snprintf(name, sizeof name, "%.*s", (int)(eq - arg), arg);
            val = eq + 1;
        } else {
            snprintf(name, sizeof name, "%s", arg);
        }
        static const char *const flags[] = {"--json", "--inverse", "--no-fine-mode", "--fine-2bundle",
                                            "--system-wide", "--list-events", "--help", "-h"};
        static const char *const valued[] = {"-e", "--event", "--irange", "--drange", "--opcode", "--model"};
        bool is_flag = false, is_valued = false;
        for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
            is_flag |= !strcmp(name, flags[k]);
        for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
            is_valued |= !strcmp(name, valued[k]);
        if (!is_flag && !is_valued)
            return usage_error(errf, "unknown argument '%s' (see pmusim encode --help)", arg);
        if (is_flag) {
            if (val)
                return usage_error(errf, "%s: takes no value", name);
            if (!strcmp(name, "--json"))
                json = true;
            else if (!strcmp(name, "--inverse"))
                rq.irange_flags |= PMULIB_RR_INV;
            else if (!strcmp(name, "--no-fine-mode"))
                rq.irange_flags |= PMULIB_RR_NO_FINE_MODE;
            else if (!strcmp(name, "--fine-2bundle"))
                rq.irange_flags |= PMULIB_RR_FINE_2BUNDLE;
            else if (!strcmp(name, "--system-wide"))
                system_wide = true;
            else if (!strcmp(name, "--list-events")) {
                list_events(out);
                return 0;
            } else {
                encode_help(out);
                return 0;
            }
            continue;
        }
        if (!val) {
            if (i + 1 >= argc)
                return usage_error(errf, "%s: expected a value", name);
            val = argv[++i];
        }
        if (!strcmp(name, "-e") || !strcmp(name, "--event")) {
            if (nevent_str == PMULIB_MAX_EVENTS)
                return usage_error(errf, "%s %s: at most %d events (one per counter PMC4..PMC7)", name, val,
                                   PMULIB_MAX_EVENTS);
            event_str[nevent_str++] = val;
        } else if (!strcmp(name, "--irange") || !strcmp(name, "--drange")) {
            bool code = name[2] == 'i';
            unsigned *n = code ? &rq.nirange : &rq.ndrange;
            if (*n == PMULIB_MAX_RANGES)
                return usage_error(errf, "%s %s: at most %d %s ranges (4 debug-register pairs)", name, val,
                                   PMULIB_MAX_RANGES, code ? "code" : "data");
            if (parse_range(errf, name, val, code ? &rq.irange[*n] : &rq.drange[*n]))
                return EXIT_USAGE;
            (*n)++;
        } else if (!strcmp(name, "--opcode")) {
            if (parse_opcode(errf, val, &rq))
                return EXIT_USAGE;
        } else { /* --model */
            if (!strcmp(val, "itanium"))
                rq.model = PMU_MODEL_ITANIUM;
            else if (!strcmp(val, "itanium2"))
                rq.model = PMU_MODEL_ITANIUM2;
            else
                return usage_error(errf, "--model: expected itanium or itanium2, found '%s'", val);
        }
    }
    if (nevent_str == 0)
        return usage_error(errf, "expected at least one -e EVENT (pmusim encode --list-events lists them)");
    pmulib_error err;
    for (unsigned i = 0; i < nevent_str; i++) {
        if (pmulib_parse_event(event_str[i], &rq.events[i], &err))
            return usage_error(errf, "-e %s: %s", event_str[i], err.msg);
        rq.events[i].pm = system_wide;
    }
    rq.nevents = nevent_str;

    pmulib_dispatch d;
    if (pmulib_dispatch_request(&rq, &d, &err))
        return usage_error(errf, "%s", err.msg);
    if (json) {
        print_json(out, &rq, &d);
        return 0;
    }
    char name[16];
    for (unsigned i = 0; i < d.nwrites; i++) {
        reg_name(d.writes[i].addr, name, sizeof name);
        fprintf(out, "%s = 0x%016" PRIx64 "\n", name, d.writes[i].value);
    }
    return 0;
}

int pmusim_cmd_encode(int argc, char **argv)
{
    return pmusim_encode_main(argc, argv, stdout, stderr);
}
