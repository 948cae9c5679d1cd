/*
 * target.c - what a command runs on: the family and model (--family, --model), and the
 * one function that builds a backend (reference, RTL or both in lock-step) through the
 * family's descriptor (cli/pmu_cli.h).
 */
#include <stdio.h>
#include <string.h>

#include "cli/pmu_cli.h"
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

void pmu_cli_target_help(FILE *f, int with_backend)
{
    fprintf(f, "  --family NAME      the PMU family:");
    for (unsigned i = 0; i < pmu_nfamilies; i++)
        fprintf(f, "%s %s%s", i ? "," : "", pmu_families[i]->name, i ? "" : " (default)");
    fprintf(f, "\n  --model NAME       the family's model;");
    for (unsigned i = 0; i < pmu_nfamilies; i++) {
        const pmu_family *fam = pmu_families[i];
        fprintf(f, "%s %s:", i ? ";" : "", fam->name);
        for (unsigned m = 0; m < fam->nmodels; m++)
            fprintf(f, "%s %s%s", m ? "," : "", fam->models[m].name,
                    m == fam->default_model ? " (default)" : "");
    }
    fprintf(f, "\n");
    if (with_backend)
        fprintf(f, "  --backend B        cosim (reference and RTL in lock-step, default), rtl or ref\n");
}

int pmu_cli_target_resolve(const pmu_cli_cmd *cmd, pmu_cli_target *t)
{
    char shown[128], list[256];
    const char *names[16];
    if (!t->family_name) {
        t->fam = pmu_families[0];
    } else if (!(t->fam = pmu_family_find(t->family_name))) {
        unsigned n = 0;
        for (; n < pmu_nfamilies && n + 1 < sizeof names / sizeof names[0]; n++)
            names[n] = pmu_families[n]->name;
        names[n] = NULL;
        pmu_cli_or_list(names, list, sizeof list);
        return pmu_cli_usage(cmd, "--family: expected %s, found '%s'", list,
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
