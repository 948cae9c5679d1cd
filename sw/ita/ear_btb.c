/*
 * ear_btb.c - EAR and BTB programming and decoding (include/ita/ear_btb_sw.h).  The model is
 * docs/ear-btb.md; the decoding is pfmon's (docs/sources.md): an EAR is valid when its
 * status says so, an instruction address is ((bundle + bn) << 4) | slot, and the BTB is
 * read from `full ? bbi : 0` round to bbi, a branch record followed by its target.
 */
#include "ita/ear_btb_sw.h"

#include <string.h>

static uint16_t vis_addr(unsigned v) { return pmu_vis_table[v].addr; }

pmu_drv_capture ita_ear_unit(const ita_event_row *row)
{
    switch (row ? row->type : ITA_EVT_NORMAL) {
    case ITA_EVT_IEAR_TLB:
    case ITA_EVT_IEAR_CACHE: return PMU_DRV_CAPTURE_IEAR;
    case ITA_EVT_DEAR_TLB:
    case ITA_EVT_DEAR_CACHE:
    case ITA_EVT_DEAR_ALAT: return PMU_DRV_CAPTURE_DEAR;
    case ITA_EVT_BTB: return PMU_DRV_CAPTURE_BTB;
    default: return PMU_DRV_CAPTURE_NONE;
    }
}

const ita_event_row *ita_ear_counter_event(pmu_model m, pmu_drv_capture unit)
{
    static const uint8_t kinds[] = {[PMU_DRV_CAPTURE_IEAR] = PMU_KIND_IEAR, [PMU_DRV_CAPTURE_DEAR] = PMU_KIND_DEAR,
                                    [PMU_DRV_CAPTURE_BTB] = PMU_KIND_BTB};
    if (unit == PMU_DRV_CAPTURE_NONE || (unsigned)unit >= sizeof kinds)
        return NULL;
    unsigned n;
    const ita_event_row *rows = ita_event_rows((int)m, &n);
    for (unsigned i = 0; i < n; i++)
        if (rows[i].kind == kinds[unit])
            return &rows[i];
    return NULL;
}

static uint64_t iear_config(pmu_model m, const ita_event_row *row, uint64_t v, unsigned plm, int pm, unsigned ism)
{
    int tlb = row->type == ITA_EVT_IEAR_TLB;
    if (m == PMU_MODEL_ITANIUM) {
        v = PMU_FSET(v, PMC10_ITA, PLM, plm);
        v = PMU_FSET(v, PMC10_ITA, PM, pm);
        v = PMU_FSET(v, PMC10_ITA, TLB, tlb);
        v = PMU_FSET(v, PMC10_ITA, UMASK, row->umask);
        return PMU_FSET(v, PMC10_ITA, ISM, ism);
    }
    v = PMU_FSET(v, PMC10, PLM, plm);
    v = PMU_FSET(v, PMC10, PM, pm);
    v = PMU_FSET(v, PMC10, ISM, ism);
    /* ct (13:12) and the umask (12:5) share bit 12: the cache umasks with bit 7 set
     * give ct = 11, the others 10; TLB mode is ct = 00 (docs/ear-btb.md). */
    v = PMU_FSET(v, PMC10, CT, tlb ? 0 : 2);
    return PMU_FSET(v, PMC10, UMASK, row->umask);
}

static uint64_t dear_config(pmu_model m, const ita_event_row *row, uint64_t v, unsigned plm, int pm, unsigned ism)
{
    v = PMU_FSET(v, PMC11, PLM, plm);
    v = PMU_FSET(v, PMC11, PM, pm);
    v = PMU_FSET(v, PMC11, UMASK, row->umask);
    v = PMU_FSET(v, PMC11, ISM, ism);
    if (m == PMU_MODEL_ITANIUM)
        return PMU_FSET(v, PMC11_ITA, TLB, row->type == ITA_EVT_DEAR_TLB);
    return PMU_FSET(v, PMC11, MODE, row->type == ITA_EVT_DEAR_TLB ? 1 : row->type == ITA_EVT_DEAR_ALAT ? 2 : 0);
}

int ita_ear_config(pmu_model m, const ita_event_row *row, unsigned plm, int pm, unsigned ism, uint16_t *addr,
                   uint64_t *value)
{
    pmu_drv_capture unit = ita_ear_unit(row);
    static const unsigned reg[] = {[PMU_DRV_CAPTURE_IEAR] = PMU_VIS_PMC10, [PMU_DRV_CAPTURE_DEAR] = PMU_VIS_PMC11,
                                   [PMU_DRV_CAPTURE_BTB] = PMU_VIS_PMC12};
    if (unit == PMU_DRV_CAPTURE_NONE)
        return -1;
    *addr = vis_addr(reg[unit]);
    uint64_t v = pmu_reg_lookup(*addr)->reset[m];
    if (unit == PMU_DRV_CAPTURE_IEAR) {
        v = iear_config(m, row, v, plm, pm, ism);
    } else if (unit == PMU_DRV_CAPTURE_DEAR) {
        v = dear_config(m, row, v, plm, pm, ism);
    } else {
        v = PMU_FSET(v, PMC12, PLM, plm);
        v = PMU_FSET(v, PMC12, PM, pm);
        v = PMU_FSET(v, PMC12, TM, 3);
        v = PMU_FSET(v, PMC12, PTM, 3);
        v = PMU_FSET(v, PMC12, PPM, 3);
    }
    *value = v;
    return 0;
}

void ita_iear_decode(pmu_model m, uint64_t pmc10, uint64_t pmd0, uint64_t pmd1, ita_iear_sample *out)
{
    memset(out, 0, sizeof *out);
    out->addr = PMU_FGET(pmd0, PMD0, ADDR) << PMU_F_PMD0_ADDR_LSB;
    if (m == PMU_MODEL_ITANIUM) {
        out->tlb_mode = (int)PMU_FGET(pmc10, PMC10_ITA, TLB);
        out->valid = (int)PMU_FGET(pmd0, PMD0_ITA, V);
        if (!out->tlb_mode)
            out->latency = (unsigned)PMU_FGET(pmd1, PMD1, LAT);
        return;
    }
    unsigned stat = (unsigned)PMU_FGET(pmd0, PMD0, STAT);
    out->tlb_mode = !(PMU_FGET(pmc10, PMC10, CT) & 2);
    out->valid = stat != 0;
    if (out->tlb_mode) {
        out->tlb = stat;
        return;
    }
    out->latency = (unsigned)PMU_FGET(pmd1, PMD1, LAT);
    out->overflow = (int)PMU_FGET(pmd1, PMD1, OV);
    out->rab = stat == 3;
}

void ita_dear_decode(pmu_model m, uint64_t pmc11, uint64_t pmd2, uint64_t pmd3, uint64_t pmd17,
                     ita_dear_sample *out)
{
    memset(out, 0, sizeof *out);
    out->daddr = pmd2;
    uint64_t bundle = PMU_FGET(pmd17, PMD17, IADDR);
    if (m == PMU_MODEL_ITANIUM) {
        out->mode = (int)PMU_FGET(pmc11, PMC11_ITA, TLB);
        out->valid = (int)PMU_FGET(pmd17, PMD17_ITA, VL);
        out->iaddr = (bundle << PMU_F_PMD17_IADDR_LSB) | PMU_FGET(pmd17, PMD17_ITA, SLOT);
        if (out->mode)
            out->tlb = (unsigned)PMU_FGET(pmd3, PMD3_ITA, LEVEL);
        else
            out->latency = (unsigned)PMU_FGET(pmd3, PMD3, LAT);
        return;
    }
    unsigned stat = (unsigned)PMU_FGET(pmd3, PMD3, STAT);
    out->mode = (int)PMU_FGET(pmc11, PMC11, MODE);
    out->valid = stat != 0;
    out->iaddr = ((bundle + PMU_FGET(pmd17, PMD17, BN)) << PMU_F_PMD17_IADDR_LSB) | PMU_FGET(pmd17, PMD17, SLOT);
    if (out->mode == 0) {
        out->latency = (unsigned)PMU_FGET(pmd3, PMD3, LAT);
        out->overflow = (int)PMU_FGET(pmd3, PMD3, OV);
    } else if (out->mode == 1) {
        out->tlb = stat;
    }
}

/* Entry k's two PMD16 extension bits (b1, bruflush): bits 4k+4, 4k+5 (the EXT field). */
static unsigned btb_ext(uint64_t pmd16, unsigned k, unsigned bit)
{
    return (unsigned)(PMU_FGET(pmd16, PMD16, EXT) >> (4 * k + bit)) & 1u;
}

static uint64_t btb_target(pmu_model m, uint64_t pmc12, uint64_t e)
{
    if (m != PMU_MODEL_ITANIUM && PMU_FGET(pmc12, PMC12, DS))
        return (PMU_FGET(e, BTB_DETAIL, HIADDR) << PMU_F_BTB_DETAIL_HIADDR_LSB) |
               (PMU_FGET(e, BTB_DETAIL, LOADDR) << PMU_F_BTB_DETAIL_LOADDR_LSB);
    return PMU_FGET(e, BTB_ENTRY, ADDR) << PMU_F_BTB_ENTRY_ADDR_LSB;
}

unsigned ita_btb_decode(pmu_model m, uint64_t pmc12, const uint64_t pmd8_16[9], ita_btb_branch out[ITA_BTB_ENTRIES])
{
    const uint64_t pmd16 = pmd8_16[ITA_BTB_ENTRIES];
    const unsigned bbi = (unsigned)PMU_FGET(pmd16, PMD16, BBI);
    const int full = (int)PMU_FGET(pmd16, PMD16, FULL);
    const unsigned start = full ? bbi : 0, n = full ? ITA_BTB_ENTRIES : bbi;
    unsigned nb = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned k = (start + i) % ITA_BTB_ENTRIES;
        uint64_t e = pmd8_16[k];
        if (!PMU_FGET(e, BTB_ENTRY, B))
            continue; /* a target whose branch record the ring overwrote */
        ita_btb_branch *b = &out[nb++];
        memset(b, 0, sizeof *b);
        unsigned slot = (unsigned)PMU_FGET(e, BTB_ENTRY, SLOT);
        b->source = ((PMU_FGET(e, BTB_ENTRY, ADDR) + btb_ext(pmd16, k, 0)) << PMU_F_BTB_ENTRY_ADDR_LSB) | slot;
        b->taken = slot != 3;
        b->mispredicted = (int)PMU_FGET(e, BTB_ENTRY, MP);
        b->bruflush = (int)btb_ext(pmd16, k, 1);
        if (i + 1 < n && !PMU_FGET(pmd8_16[(k + 1) % ITA_BTB_ENTRIES], BTB_ENTRY, B)) {
            b->target = btb_target(m, pmc12, pmd8_16[(k + 1) % ITA_BTB_ENTRIES]);
            b->has_target = 1;
            i++;
        }
    }
    return nb;
}
