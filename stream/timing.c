/*
 * timing.c - the parameters of a timing model (include/stream/pmu_timing.h): defaults and
 * "NAME=VALUE" overrides, for every family's model alike.
 */
#include "stream/pmu_timing.h"

#include <stdio.h>
#include <string.h>

#include "common/pmu_num.h"
#include "common/pmu_text.h"

void pmu_timing_defaults(const pmu_timing_ops *m, uint64_t *value)
{
    for (unsigned k = 0; k < m->nparams; k++)
        value[k] = m->params[k].def;
}

int pmu_timing_check(const pmu_timing_ops *m, const uint64_t *value, pmu_err *err)
{
    for (unsigned k = 0; k < m->nparams; k++) {
        const pmu_timing_param *p = &m->params[k];
        if (value[k] < p->min || value[k] > p->max)
            return pmu_errf(err, PMU_E_INPUT, "timing parameter %s=%llu: expected %llu..%llu (%s)", p->name,
                            (unsigned long long)value[k], (unsigned long long)p->min, (unsigned long long)p->max,
                            p->what);
    }
    return 0;
}

int pmu_timing_set(const pmu_timing_ops *m, uint64_t *value, const char *assignment, const char *where,
                   pmu_err *err)
{
    const char *eq = strchr(assignment, '=');
    if (!eq || eq == assignment)
        return pmu_errf(err, PMU_E_INPUT, "%s %s: expected NAME=VALUE", where, assignment);
    const size_t len = (size_t)(eq - assignment);
    unsigned k = 0;
    while (k < m->nparams && !(strlen(m->params[k].name) == len && strncmp(m->params[k].name, assignment, len) == 0))
        k++;
    if (k == m->nparams) {
        if (m->nparams == 0)
            return pmu_errf(err, PMU_E_INPUT, "%s %s: this timing model has no parameters", where, assignment);
        const unsigned near = pmu_text_nearest(assignment, len, &m->params[0].name, m->nparams,
                                               sizeof m->params[0], NULL);
        return pmu_errf(err, PMU_E_INPUT, "%s %.*s: not a parameter of the timing model (nearest: %s; "
                        "pmusim record --list-params lists them)", where, (int)len, assignment,
                        m->params[near].name);
    }
    const pmu_timing_param *p = &m->params[k];
    const char *s = eq + 1;
    size_t n = strlen(s);
    unsigned shift = 0;
    if (n > 1 && !(s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))) {
        const char unit = s[n - 1];
        shift = unit == 'k' || unit == 'K' ? 10 : unit == 'M' ? 20 : unit == 'G' ? 30 : 0;
        if (shift)
            n--;
    }
    char what[96];
    snprintf(what, sizeof what, "%s %s", where, p->name);
    uint64_t v = 0;
    if (pmu_parse_u64n(s, n, 0, UINT64_MAX >> shift, what, &v, err) != 0)
        return -1;
    v <<= shift;
    if (v < p->min || v > p->max)
        return pmu_errf(err, PMU_E_INPUT, "%s=%s: expected %llu..%llu (%s)", what, s, (unsigned long long)p->min,
                        (unsigned long long)p->max, p->what);
    value[k] = v;
    return 0;
}
