/*
 * ia64_enc.c - the one table of IA-64 instruction classes (include/stream/ita/ia64_enc.h).
 */
#include "stream/ita/ia64_enc.h"

const ia64_class ia64_classes[IA64_NCLASSES] = {
#define IA64_OFFERED(id, name, units, care, enc, desc) \
    [IA64_CLASS_##id] = {name, units, care, enc, desc, 1},
#define IA64_INTERNAL(id, name, units, care, enc, desc) \
    [IA64_CLASS_##id] = {name, units, care, enc, desc, 0},
    IA64_CLASS_TABLE(IA64_OFFERED, IA64_INTERNAL)
#undef IA64_OFFERED
#undef IA64_INTERNAL
};

unsigned ia64_class_units(const ia64_class *c)
{
    static const char letters[] = "mifb"; /* enum ita_unit order */
    unsigned units = 0;
    for (const char *u = c->units; *u; u++)
        for (unsigned i = 0; i < 4; i++)
            if (*u == letters[i])
                units |= 1u << i;
    return units;
}

/* The two parts of the window, as masks at bit 0. */
#define LOW_MASK IA64_BITS(IA64_WINDOW_LOW_BITS - 1, 0)
#define HIGH_MASK IA64_BITS(IA64_WINDOW_HIGH_BITS - 1, 0)

uint32_t ia64_window_bits(uint64_t enc)
{
    uint64_t low = enc & LOW_MASK;
    uint64_t high = (enc >> IA64_WINDOW_HIGH_LSB) & HIGH_MASK;
    return (uint32_t)(high << IA64_WINDOW_LOW_BITS | low);
}

uint64_t ia64_window_enc(uint32_t bits)
{
    uint64_t low = bits & LOW_MASK;
    uint64_t high = ((uint64_t)bits >> IA64_WINDOW_LOW_BITS) & HIGH_MASK;
    return high << IA64_WINDOW_HIGH_LSB | low;
}
