/*
 * ear_btb.c - EAR and BTB programming and decoding (include/sw/ita/ear_btb_sw.h).  The model is
 * docs/ita-ear-btb.md; the decoding is pfmon's (docs/sources.md): an EAR is valid when its
 * status says so, an instruction address is ((bundle + bn) << 4) | slot, and the BTB is
 * read from `full ? bbi : 0` round to bbi, a branch record followed by its target.
 */
#include "sw/ita/ear_btb_sw.h"

#include <string.h>

#include "sw/ita/ita_evlib.h"

ita_drv_capture ita_ear_unit(const ita_event_row *row)
{
    switch (row ? row->type : ITA_EVT_NORMAL) {
    case ITA_EVT_IEAR_TLB:
    case ITA_EVT_IEAR_CACHE: return ITA_DRV_CAPTURE_IEAR;
    case ITA_EVT_DEAR_TLB:
    case ITA_EVT_DEAR_CACHE:
    case ITA_EVT_DEAR_ALAT: return ITA_DRV_CAPTURE_DEAR;
    case ITA_EVT_BTB: return ITA_DRV_CAPTURE_BTB;
    default: return ITA_DRV_CAPTURE_NONE;
    }
}

const ita_event_row *ita_ear_counter_event(ita_model m, ita_drv_capture unit)
{
    static const uint8_t kinds[] = {[ITA_DRV_CAPTURE_IEAR] = ITA_KIND_IEAR, [ITA_DRV_CAPTURE_DEAR] = ITA_KIND_DEAR,
                                    [ITA_DRV_CAPTURE_BTB] = ITA_KIND_BTB};
    if (unit == ITA_DRV_CAPTURE_NONE || (unsigned)unit >= sizeof kinds)
        return NULL;
    unsigned n;
    const ita_event_row *rows = ita_event_rows((int)m, &n);
    for (unsigned i = 0; i < n; i++)
        if (rows[i].kind == kinds[unit])
            return &rows[i];
    return NULL;
}

int ita_ear_config(ita_model m, const ita_event_row *row, unsigned plm, int pm, unsigned ism, uint16_t *addr,
                   uint64_t *value)
{
    /* PMCn.ism: 0 both, 1 IA-32 only, 2 IA-64 only (3, nothing, monitors both: the
     * counter that counts the captures counts nothing then). */
    static const ita_evlib_ism isms[4] = {ITA_EVLIB_ISM_BOTH, ITA_EVLIB_ISM_IA32, ITA_EVLIB_ISM_IA64, ITA_EVLIB_ISM_BOTH};
    if (ita_ear_unit(row) == ITA_DRV_CAPTURE_NONE)
        return -1;
    return ita_evlib_unit_config(m, ita_event_id_find(row->name), plm, pm != 0, isms[ism & 3u], addr, value, NULL)
               ? -1
               : 0;
}

void ita_iear_decode(ita_model m, uint64_t pmc10, uint64_t pmd0, uint64_t pmd1, ita_iear_sample *out)
{
    memset(out, 0, sizeof *out);
    out->addr = ITA_FGET(pmd0, PMD0, ADDR) << ITA_F_PMD0_ADDR_LSB;
    if (m == ITA_MODEL_ITANIUM) {
        out->tlb_mode = (int)ITA_FGET(pmc10, PMC10_ITA, TLB);
        out->valid = (int)ITA_FGET(pmd0, PMD0_ITA, V);
        if (!out->tlb_mode)
            out->latency = (unsigned)ITA_FGET(pmd1, PMD1, LAT);
        return;
    }
    unsigned stat = (unsigned)ITA_FGET(pmd0, PMD0, STAT);
    out->tlb_mode = !(ITA_FGET(pmc10, PMC10, CT) & 2);
    out->valid = stat != 0;
    if (out->tlb_mode) {
        out->tlb = stat;
        return;
    }
    out->latency = (unsigned)ITA_FGET(pmd1, PMD1, LAT);
    out->overflow = (int)ITA_FGET(pmd1, PMD1, OV);
    out->rab = stat == 3;
}

void ita_dear_decode(ita_model m, uint64_t pmc11, uint64_t pmd2, uint64_t pmd3, uint64_t pmd17,
                     ita_dear_sample *out)
{
    memset(out, 0, sizeof *out);
    out->daddr = pmd2;
    uint64_t bundle = ITA_FGET(pmd17, PMD17, IADDR);
    if (m == ITA_MODEL_ITANIUM) {
        out->mode = (int)ITA_FGET(pmc11, PMC11_ITA, TLB);
        out->valid = (int)ITA_FGET(pmd17, PMD17_ITA, VL);
        out->iaddr = (bundle << ITA_F_PMD17_IADDR_LSB) | ITA_FGET(pmd17, PMD17_ITA, SLOT);
        if (out->mode)
            out->tlb = (unsigned)ITA_FGET(pmd3, PMD3_ITA, LEVEL);
        else
            out->latency = (unsigned)ITA_FGET(pmd3, PMD3, LAT);
        return;
    }
    unsigned stat = (unsigned)ITA_FGET(pmd3, PMD3, STAT);
    out->mode = (int)ITA_FGET(pmc11, PMC11, MODE);
    out->valid = stat != 0;
    out->iaddr = ((bundle + ITA_FGET(pmd17, PMD17, BN)) << ITA_F_PMD17_IADDR_LSB) | ITA_FGET(pmd17, PMD17, SLOT);
    if (out->mode == 0) {
        out->latency = (unsigned)ITA_FGET(pmd3, PMD3, LAT);
        out->overflow = (int)ITA_FGET(pmd3, PMD3, OV);
    } else if (out->mode == 1) {
        out->tlb = stat;
    }
}

/* Entry k's two PMD16 extension bits (b1, bruflush): bits 4k+4, 4k+5 (the EXT field). */
static unsigned btb_ext(uint64_t pmd16, unsigned k, unsigned bit)
{
    return (unsigned)(ITA_FGET(pmd16, PMD16, EXT) >> (4 * k + bit)) & 1u;
}

static uint64_t btb_target(ita_model m, uint64_t pmc12, uint64_t e)
{
    if (m != ITA_MODEL_ITANIUM && ITA_FGET(pmc12, PMC12, DS))
        return (ITA_FGET(e, BTB_DETAIL, HIADDR) << ITA_F_BTB_DETAIL_HIADDR_LSB) |
               (ITA_FGET(e, BTB_DETAIL, LOADDR) << ITA_F_BTB_DETAIL_LOADDR_LSB);
    return ITA_FGET(e, BTB_ENTRY, ADDR) << ITA_F_BTB_ENTRY_ADDR_LSB;
}

unsigned ita_btb_decode(ita_model m, uint64_t pmc12, const uint64_t pmd8_16[9], ita_btb_branch out[ITA_BTB_ENTRIES])
{
    const uint64_t pmd16 = pmd8_16[ITA_BTB_ENTRIES];
    const unsigned bbi = (unsigned)ITA_FGET(pmd16, PMD16, BBI);
    const int full = (int)ITA_FGET(pmd16, PMD16, FULL);
    const unsigned start = full ? bbi : 0, n = full ? ITA_BTB_ENTRIES : bbi;
    unsigned nb = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned k = (start + i) % ITA_BTB_ENTRIES;
        uint64_t e = pmd8_16[k];
        if (!ITA_FGET(e, BTB_ENTRY, B))
            continue; /* a target whose branch record the ring overwrote */
        ita_btb_branch *b = &out[nb++];
        memset(b, 0, sizeof *b);
        unsigned slot = (unsigned)ITA_FGET(e, BTB_ENTRY, SLOT);
        b->source = ((ITA_FGET(e, BTB_ENTRY, ADDR) + btb_ext(pmd16, k, 0)) << ITA_F_BTB_ENTRY_ADDR_LSB) | slot;
        b->taken = slot != 3;
        b->mispredicted = (int)ITA_FGET(e, BTB_ENTRY, MP);
        b->bruflush = (int)btb_ext(pmd16, k, 1);
        if (i + 1 < n && !ITA_FGET(pmd8_16[(k + 1) % ITA_BTB_ENTRIES], BTB_ENTRY, B)) {
            b->target = btb_target(m, pmc12, pmd8_16[(k + 1) % ITA_BTB_ENTRIES]);
            b->has_target = 1;
            i++;
        }
    }
    return nb;
}
