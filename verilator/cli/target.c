/*
 * target.c - what a command runs on: the family and model (--family, --model), and the
 * one function that builds a backend (reference, RTL or both in lock-step) through the
 * family's descriptor (cli/pmu_cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli/pmu_cli.h"
#include "cli/pmu_family_cmds.h"
#include "common/pmu_num.h"

const char *const pmu_backend_kind_names[] = {"cosim", "rtl", "ref", NULL};

unsigned pmu_cli_target_opts(pmu_cli_target *t, int with_backend, pmu_opt *opts)
{
    unsigned n = 0;
    opts[n++] = (pmu_opt){.name = "family", .kind = PMU_OPT_TEXT, .dest = &t->family_name};
    opts[n++] = (pmu_opt){.name = "model", .kind = PMU_OPT_TEXT, .dest = &t->model_name};
    if (with_backend)
        opts[n++] = (pmu_opt){.name = "backend", .kind = PMU_OPT_CHOICE, .dest = &t->backend,
                              .choices = pmu_backend_kind_names};
    return n;
}

void pmu_cli_target_help(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam, int with_backend)
{
    if (cmd && cmd->family) {
        fprintf(f, "  --family NAME      %s only (the default: %s is the %s's command)\n", cmd->family->name,
                cmd->name, cmd->family->title);
    } else {
        fprintf(f, "  --family NAME      the PMU family:");
        for (unsigned i = 0; i < pmu_nfamilies; i++)
            fprintf(f, "%s %s%s", i ? "," : "", pmu_families[i]->name, i ? "" : " (default)");
        fprintf(f, "\n");
    }
    fprintf(f, "  --model NAME       the %s's model:", fam->title);
    for (unsigned m = 0; m < fam->nmodels; m++)
        fprintf(f, "%s %s%s", m ? "," : "", fam->models[m].name, m == fam->default_model ? " (default)" : "");
    fprintf(f, "\n");
    if (with_backend)
        fprintf(f, "  --backend B        cosim (reference and RTL in lock-step, default), rtl or ref\n");
}

int pmu_cli_target_resolve(const pmu_cli_cmd *cmd, pmu_cli_target *t)
{
    char shown[128], list[256];
    const char *names[16];
    if (!t->family_name) {
        t->fam = cmd->family ? cmd->family : pmu_families[0];
    } else if (!(t->fam = pmu_family_find(t->family_name))) {
        unsigned n = 0;
        for (; n < pmu_nfamilies && n + 1 < sizeof names / sizeof names[0]; n++)
            names[n] = pmu_families[n]->name;
        names[n] = NULL;
        pmu_cli_or_list(names, list, sizeof list);
        if (cmd->family)
            snprintf(list, sizeof list, "%s", cmd->family->name);
        return pmu_cli_usage(cmd, "--family: expected %s, found '%s'", list,
                             pmu_escape(t->family_name, strlen(t->family_name), shown, sizeof shown));
    } else if (cmd->family && t->fam != cmd->family) {
        return pmu_cli_usage(cmd, "--family: expected %s (%s is the %s's command), found '%s'", cmd->family->name,
                             cmd->name, cmd->family->title,
                             pmu_escape(t->family_name, strlen(t->family_name), shown, sizeof shown));
    }
    if (!t->fam->cmds && !t->records_only)
        return pmu_cli_usage(cmd, "--family %s: the family has no commands yet", t->fam->name);
    if (!t->model_name) {
        t->model = t->fam->default_model;
        return 0;
    }
    int m = pmu_family_model(t->fam, t->model_name);
    if (m < 0) {
        unsigned n = 0;
        for (; n < t->fam->nmodels && n + 1 < sizeof names / sizeof names[0]; n++)
            names[n] = t->fam->models[n].name;
        names[n] = NULL;
        pmu_cli_or_list(names, list, sizeof list);
        return pmu_cli_usage(cmd, "--model: expected %s, found '%s'", list,
                             pmu_escape(t->model_name, strlen(t->model_name), shown, sizeof shown));
    }
    t->model = (unsigned)m;
    return 0;
}

/* ---- what a family refuses ------------------------------------------------------------ */

/* 1 when `cmd` is one of the space-separated words of `list`. */
static int has_word(const char *list, const char *cmd)
{
    size_t n = strlen(cmd);
    for (const char *p = list; *p;) {
        size_t k = strcspn(p, " ");
        if (k == n && !strncmp(p, cmd, n))
            return 1;
        p += k;
        p += strspn(p, " ");
    }
    return 0;
}

const char *pmu_cli_refusal(const pmu_family *fam, const char *cmd, const char *opt)
{
    const pmu_family_cmds *c = fam->cmds;
    if (!c)
        return NULL;
    for (const pmu_fam_refusal *r = c->refusals; r && r->commands; r++)
        if (has_word(r->commands, cmd) && (r->option ? opt && !strcmp(r->option, opt) : !opt))
            return r->why;
    /* The family's software decides when it answers an interrupt. */
    if (c->service_timing && !strcmp(cmd, "run") && opt && !strcmp(opt, "irq-latency"))
        return c->service_timing;
    return NULL;
}

int pmu_cli_takes(const pmu_cli_cmd *cmd, const pmu_family *fam, const char *opt)
{
    return pmu_cli_refusal(fam, cmd->name, opt) == NULL;
}

int pmu_cli_family_check(const pmu_cli_cmd *cmd, const pmu_family *fam, const pmu_opt *opts, unsigned nopts)
{
    /* The help to see is the family's ("pmusim", as every message says). */
    const char *why = pmu_cli_refusal(fam, cmd->name, NULL);
    if (why)
        return pmu_cli_fail(cmd, PMU_EXIT_USAGE, "not on the %s: %s (see pmusim %s --family %s --help)", fam->title,
                            why, cmd->name, fam->name);
    for (unsigned i = 0; i < nopts; i++)
        if (opts[i].times && (why = pmu_cli_refusal(fam, cmd->name, opts[i].name)))
            return pmu_cli_fail(cmd, PMU_EXIT_USAGE, "--%s: not on the %s: %s (see pmusim %s --family %s --help)",
                                opts[i].name, fam->title, why, cmd->name, fam->name);
    return 0;
}

void pmu_cli_family_help_end(FILE *f, const pmu_cli_cmd *cmd, const pmu_family *fam)
{
    const pmu_family_cmds *c = fam->cmds;
    int any = 0;
    for (const pmu_fam_refusal *r = c ? c->refusals : NULL; r && r->commands; r++)
        if (r->option && has_word(r->commands, cmd->name)) {
            fprintf(f, "%s  --%s: %s\n", any++ ? "" : "\nNot on this family:\n", r->option, r->why);
        }
    if (!strcmp(cmd->name, "run") && c && c->service_timing)
        fprintf(f, "%s  --irq-latency: %s\n", any++ ? "" : "\nNot on this family:\n", c->service_timing);
    if (cmd->family)
        return;
    fprintf(f, "\nThis help is the %s's (--family %s).\nAnother family's: %s %s --family F --help (F:",
            fam->title, fam->name, pmu_cli_title, cmd->name);
    for (unsigned i = 0; i < pmu_nfamilies; i++)
        fprintf(f, "%s %s", i ? "," : "", pmu_families[i]->name);
    fprintf(f, ").\n");
}

pmu_backend *pmu_cli_backend(const pmu_family *fam, unsigned model, pmu_backend_kind kind,
                             pmu_cosim_where_fn where, void *where_ctx, pmu_err *err)
{
    pmu_backend *ref = NULL, *rtl = NULL;
    if (kind != PMU_BACKEND_RTL && !(ref = fam->ref_create(model, err)))
        return NULL;
    if (kind != PMU_BACKEND_REF && !(rtl = fam->rtl_create(model, err))) {
        pmu_destroy(ref);
        return NULL;
    }
    if (kind == PMU_BACKEND_REF)
        return ref;
    if (kind == PMU_BACKEND_RTL)
        return rtl;
    pmu_backend *pair = pmu_cosim_create(fam, ref, rtl, where, where_ctx);
    if (!pair) {
        pmu_destroy(ref); /* the pair did not take them */
        pmu_destroy(rtl);
        pmu_errf(err, PMU_E_NOMEM, "cannot create the lock-step pair (out of memory)");
    }
    return pair;
}
