/*
 * cmd_ear.c - `pmusim profile --sample` for the Itanium family: an EAR or BTB event
 * (docs/ita-ear-btb.md) becomes a counter on the event that counts the unit's captures
 * (L1I_EAR_EVENTS or Itanium's INSTRUCTION_EAR_EVENTS, DATA_EAR_EVENTS, BRANCH_EVENT) with the sampling period, plus the
 * unit's configuration register (PMC10, PMC11, PMC12 from the event's type and umask);
 * each sample's registers, read by the driver before it unfreezes, are decoded here
 * (include/sw/ita/ear_btb_sw.h: pfmon's decoding) into text and JSON.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cmds_internal.h"
#include "sw/ita/ear_btb_sw.h"
#include "common/pmu_text.h"

int ita_sample_unit_resolve(unsigned model, const char *spec, char *buf, size_t size, const ita_event_row **row,
                            pmu_err *err)
{
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    char name[96];
    if (n == 0 || n >= sizeof name)
        return pmu_errf(err, PMU_E_INPUT, "--sample %s: expected EVENT[:mod...], an EAR or BTB event", spec);
    memcpy(name, spec, n);
    name[n] = '\0';
    for (char *c = name; *c; c++)
        *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
    *row = ita_event_find((int)model, name);
    ita_drv_capture unit = ita_ear_unit(*row);
    if (!*row)
        return pmu_errf(err, PMU_E_INPUT, "--sample %s: unknown event '%s' on %s", spec, name,
                        model == ITA_MODEL_ITANIUM ? "Itanium" : "Itanium 2");
    if (unit == ITA_DRV_CAPTURE_NONE)
        return pmu_errf(err, PMU_E_INPUT,
                        "--sample %s: expected an EAR or BTB event (e.g. DATA_EAR_CACHE_LAT64, BRANCH_EVENT); %s is "
                        "a counter event: sample it with -e",
                        spec, name);
    snprintf(buf, size, "%s%s", ita_ear_counter_event((ita_model)model, unit)->name, colon ? colon : "");
    return 0;
}

int ita_sample_unit_program(unsigned model, const ita_event_row *row, int pm, ita_drv_config *cfg, unsigned k,
                            uint64_t *pmc, pmu_err *err)
{
    uint64_t counter = 0;
    for (unsigned r = 0; r < cfg->nregs; r++)
        if (cfg->reg[r].addr == ita_vis_table[ITA_VIS_PMC4 + k].addr)
            counter = cfg->reg[r].value;
    if (cfg->nregs == ITA_DRV_MAX_REGS)
        return pmu_errf(err, PMU_E_INPUT, "--sample %s: the events need more than %d registers", row->name,
                        ITA_DRV_MAX_REGS);
    /* The unit monitors at the counter's privilege levels and instruction sets. */
    uint16_t addr;
    if (ita_ear_config((ita_model)model, row, (unsigned)ITA_FGET(counter, PMC_GEN, PLM), pm,
                       (unsigned)ITA_FGET(counter, PMC_GEN, ISM), &addr, pmc) != 0)
        return pmu_errf(err, PMU_E_INTERNAL, "--sample %s: not an EAR or BTB event", row->name);
    cfg->reg[cfg->nregs++] = (ita_drv_reg){addr, *pmc};
    cfg->capture[k] = (uint8_t)ita_ear_unit(row);
    return 0;
}

static const char *tlb_name(unsigned level)
{
    static const char *const names[] = {"none", "L2 TLB", "VHPT", "software"};
    return level < 4 ? names[level] : "?";
}

static void iear_format(ita_model m, uint64_t pmc, const ita_drv_sample *s, pmu_monitor_capture *c)
{
    ita_iear_sample e;
    ita_iear_decode(m, pmc, s->value[0], s->value[1], &e);
    if (!e.valid) {
        pmu_text_appendf(c->text, sizeof c->text, "I-EAR: no capture\n");
        pmu_text_appendf(c->json, sizeof c->json, ",\"valid\":false");
        return;
    }
    c->ip = e.addr;
    if (e.tlb_mode)
        pmu_text_appendf(c->text, sizeof c->text, "I-EAR: fetch 0x%016" PRIx64 " TLB %s\n", e.addr, tlb_name(e.tlb));
    else
        pmu_text_appendf(c->text, sizeof c->text, "I-EAR: fetch 0x%016" PRIx64 " latency %u%s%s\n", e.addr,
                         e.latency, e.overflow ? "+" : "", e.rab ? " (RAB)" : "");
    pmu_text_appendf(c->json, sizeof c->json,
                     ",\"valid\":true,\"mode\":\"%s\",\"addr\":\"0x%" PRIx64 "\",\"latency\":%u,\"overflow\":%s,"
                     "\"rab\":%s,\"tlb\":%u",
                     e.tlb_mode ? "tlb" : "cache", e.addr, e.latency, e.overflow ? "true" : "false",
                     e.rab ? "true" : "false", e.tlb);
}

static void dear_format(ita_model m, uint64_t pmc, const ita_drv_sample *s, pmu_monitor_capture *c)
{
    static const char *const modes[] = {"cache", "tlb", "alat", "none"};
    ita_dear_sample e;
    ita_dear_decode(m, pmc, s->value[0], s->value[1], s->value[2], &e);
    if (!e.valid) {
        pmu_text_appendf(c->text, sizeof c->text, "D-EAR: no capture\n");
        pmu_text_appendf(c->json, sizeof c->json, ",\"valid\":false");
        return;
    }
    c->ip = e.iaddr;
    pmu_text_appendf(c->text, sizeof c->text, "D-EAR: instruction 0x%016" PRIx64 " data 0x%016" PRIx64, e.iaddr,
                     e.daddr);
    if (e.mode == 0)
        pmu_text_appendf(c->text, sizeof c->text, " latency %u%s\n", e.latency, e.overflow ? "+" : "");
    else if (e.mode == 1)
        pmu_text_appendf(c->text, sizeof c->text, " TLB %s\n", tlb_name(e.tlb));
    else
        pmu_text_appendf(c->text, sizeof c->text, " ALAT miss\n");
    pmu_text_appendf(c->json, sizeof c->json,
                     ",\"valid\":true,\"mode\":\"%s\",\"iaddr\":\"0x%" PRIx64 "\",\"daddr\":\"0x%" PRIx64
                     "\",\"latency\":%u,\"overflow\":%s,\"tlb\":%u",
                     modes[e.mode & 3], e.iaddr, e.daddr, e.latency, e.overflow ? "true" : "false", e.tlb);
}

static void btb_format(ita_model m, uint64_t pmc, const ita_drv_sample *s, pmu_monitor_capture *c)
{
    ita_btb_branch b[ITA_BTB_ENTRIES];
    unsigned n = ita_btb_decode(m, pmc, s->value, b);
    pmu_text_appendf(c->text, sizeof c->text, "BTB: %u branch%s, oldest first\n", n, n == 1 ? "" : "es");
    pmu_text_appendf(c->json, sizeof c->json, ",\"branches\":[");
    for (unsigned i = 0; i < n; i++) {
        c->ip = b[i].source; /* the newest branch */
        char target[24] = "?";
        if (b[i].has_target)
            snprintf(target, sizeof target, "0x%016" PRIx64, b[i].target);
        pmu_text_appendf(c->text, sizeof c->text, "  0x%016" PRIx64 " -> %s %s %s%s\n", b[i].source, target,
                         b[i].taken ? "taken" : "not-taken", b[i].mispredicted ? "mispredicted" : "predicted",
                         b[i].bruflush ? " bruflush" : "");
        pmu_text_appendf(c->json, sizeof c->json,
                         "%s{\"source\":\"0x%" PRIx64 "\",\"target\":%s%s%s,\"taken\":%s,\"mispredicted\":%s,"
                         "\"bruflush\":%s}",
                         i ? "," : "", b[i].source, b[i].has_target ? "\"" : "", b[i].has_target ? target : "null",
                         b[i].has_target ? "\"" : "", b[i].taken ? "true" : "false",
                         b[i].mispredicted ? "true" : "false", b[i].bruflush ? "true" : "false");
    }
    pmu_text_appendf(c->json, sizeof c->json, "]");
}

void ita_capture_format(unsigned model, uint64_t pmc, const ita_drv_sample *s, pmu_monitor_capture *c)
{
    static const char *const units[] = {"none", "I-EAR", "D-EAR", "BTB"};
    memset(c, 0, sizeof *c);
    c->ip = s->ip;
    pmu_text_appendf(c->text, sizeof c->text, "sample %" PRIu64 " pid %u ip 0x%016" PRIx64 ": ", s->record, s->pid,
                     s->ip);
    pmu_text_appendf(c->json, sizeof c->json,
                     "{\"record\":%" PRIu64 ",\"pid\":%u,\"cpl\":%u,\"ip\":\"0x%" PRIx64 "\",\"unit\":\"%s\",\"regs\":{",
                     s->record, s->pid, s->cpl, s->ip, units[s->capture & 3]);
    for (unsigned i = 0; i < s->nregs; i++) {
        const char *name = "?";
        for (unsigned v = 0; v < ITA_NVIS; v++)
            if (ita_vis_table[v].addr == s->addr[i])
                name = ita_vis_table[v].name;
        pmu_text_appendf(c->json, sizeof c->json, "%s\"%s\":\"0x%" PRIx64 "\"", i ? "," : "", name, s->value[i]);
    }
    pmu_text_appendf(c->json, sizeof c->json, "}");
    if (s->capture == ITA_DRV_CAPTURE_IEAR)
        iear_format((ita_model)model, pmc, s, c);
    else if (s->capture == ITA_DRV_CAPTURE_DEAR)
        dear_format((ita_model)model, pmc, s, c);
    else if (s->capture == ITA_DRV_CAPTURE_BTB)
        btb_format((ita_model)model, pmc, s, c);
    pmu_text_appendf(c->json, sizeof c->json, "}");
}
