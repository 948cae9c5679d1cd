/*
 * family.c - the registry of PMU families (include/common/pmu_families.def) and the generic
 * questions asked of a family's descriptor (include/common/pmu_family.h).
 */
#include "common/pmu_family.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define PMU_FAMILY(name) extern const pmu_family pmu_family_##name;
#include "common/pmu_families.def"
#undef PMU_FAMILY

const pmu_family *const pmu_families[] = {
#define PMU_FAMILY(name) &pmu_family_##name,
#include "common/pmu_families.def"
#undef PMU_FAMILY
};
const unsigned pmu_nfamilies = sizeof pmu_families / sizeof pmu_families[0];

const pmu_family *pmu_family_find(const char *name)
{
    for (unsigned i = 0; i < pmu_nfamilies; i++)
        if (strcasecmp(pmu_families[i]->name, name) == 0)
            return pmu_families[i];
    return NULL;
}

int pmu_family_model(const pmu_family *f, const char *name)
{
    for (unsigned i = 0; i < f->nmodels; i++)
        if (strcasecmp(f->models[i].name, name) == 0)
            return (int)i;
    return -1;
}

const pmu_regmap_entry *pmu_family_reg_of_addr(const pmu_family *f, uint16_t addr)
{
    for (unsigned i = 0; i < f->nregmap; i++)
        if (addr >= f->regmap[i].addr && addr - f->regmap[i].addr < f->regmap[i].span)
            return &f->regmap[i];
    return NULL;
}

int pmu_family_model_agrees(const pmu_family *f, const char *name, int named_given, unsigned named,
                            int model_fixed, unsigned model, pmu_err *err)
{
    if (!model_fixed || !named_given || named == model)
        return 0;
    return pmu_errf(err, PMU_E_INPUT, "%s: model = %s, but --model %s was given", name, f->models[named].name,
                    f->models[model].name);
}

void pmu_family_model_list(const pmu_family *f, char *buf, size_t size)
{
    size_t len = 0;
    if (size)
        buf[0] = '\0';
    for (unsigned i = 0; i < f->nmodels && len + 1 < size; i++) {
        int n = snprintf(buf + len, size - len, "%s%s", i ? ", " : "", f->models[i].name);
        if (n < 0)
            break;
        len += (size_t)n;
    }
}

int pmu_family_vis_of_addr(const pmu_family *f, uint16_t addr)
{
    for (unsigned v = 0; v < f->nvis; v++)
        if (f->vis[v].addr == addr)
            return (int)v;
    return -1;
}

static void append_name(char *buf, size_t size, const char *name)
{
    size_t len = strlen(buf);
    if (len && len + 2 < size) {
        memcpy(buf + len, ", ", 3);
        len += 2;
    }
    for (; *name && len + 1 < size; name++)
        buf[len++] = (char)(*name >= 'A' && *name <= 'Z' ? *name + 32 : *name);
    buf[len] = '\0';
}

void pmu_family_name_fields(const pmu_family *f, unsigned vis, uint64_t diff, char *buf,
                            size_t size)
{
    if (!size)
        return;
    buf[0] = '\0';
    if (vis >= f->nvis)
        return;
    const char *group = f->vis[vis].field_group;
    if (strcmp(group, "NONE") == 0) { /* a counter: the value is one count */
        snprintf(buf, size, "count");
        return;
    }
    uint64_t named = 0;
    for (unsigned i = 0; i < f->nfields; i++) {
        const pmu_field_desc *fd = &f->fields[i];
        if (strcmp(fd->group, group) != 0)
            continue;
        unsigned width = fd->msb - fd->lsb + 1;
        uint64_t mask = (width >= 64 ? ~UINT64_C(0) : ((UINT64_C(1) << width) - 1)) << fd->lsb;
        named |= mask;
        if (diff & mask)
            append_name(buf, size, fd->name);
    }
    if (diff & ~named) {
        char bits[48];
        snprintf(bits, sizeof bits, "bits 0x%" PRIx64 " (no field)", diff & ~named);
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s", len ? ", " : "", bits);
    }
}
