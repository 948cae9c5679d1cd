/*
 * opcode_classes.c - the configuration reader's named instruction classes
 * (`opcode PMCn class=NAME`, docs/ita-config-format.md): the offered classes of
 * include/stream/ita/ia64_enc.h, their care masks cut to what the matchers see.

 */
#include "stream/ita/ia64_enc.h"

const ita_opcode_class ita_opcode_classes[] = {
#define IA64_OFFERED(id, name, units, care, enc, desc) \
    {name, units, enc, (care) & IA64_WINDOW, desc},
#define IA64_INTERNAL(id, name, units, care, enc, desc)
    IA64_CLASS_TABLE(IA64_OFFERED, IA64_INTERNAL)
#undef IA64_OFFERED
#undef IA64_INTERNAL
};
const unsigned ita_opcode_nclasses = sizeof ita_opcode_classes / sizeof ita_opcode_classes[0];

uint32_t ita_opcode_bits(uint64_t enc) { return ia64_window_bits(enc); }
