// drv_ear_btb.cpp - the driver keeps each process's EAR and BTB registers across context
// switches, on the reference model: two processes, one sampling the D-EAR and one the
// BTB, switched in and out by the kernel; the values are written by the test (the
// records capture nothing: nops only), as software would restore them.
#include <gtest/gtest.h>

#include <map>

#include "ita/pmu_drv.h"
#include "drv_test_util.h"

using namespace drv_test;

namespace {

const pmu_model M = PMU_MODEL_ITANIUM2;

std::map<unsigned, uint64_t> unit_values(unsigned first, unsigned last, uint64_t seed)
{
    std::map<unsigned, uint64_t> v;
    for (unsigned i = first; i <= last; i++)
        v[i] = (seed * (i + 7) * 0x9e3779b97f4a7c15ull) & pmu_reg_lookup(vis(i))->wmask[M];
    return v;
}

void write_all(pmu_backend *b, const std::map<unsigned, uint64_t> &v)
{
    for (const auto &e : v)
        pmu_write(b, vis(e.first), e.second);
}

// Every register of `v` reads its value (`own`), or its reset value.
void expect_all(pmu_backend *b, const std::map<unsigned, uint64_t> &v, bool own, const char *when)
{
    for (const auto &e : v)
        EXPECT_EQ(pmu_read(b, vis(e.first)), own ? e.second : pmu_reg_lookup(vis(e.first))->reset[M])
            << when << ": " << pmu_vis_table[e.first].name;
}

TEST(DrvEarBtb, EachProcessKeepsItsOwnEarAndBtbRegisters)
{
    pmu_backend *ref = pmu_ref_create(nullptr);
    pmu_drv_opts o = pmu_drv_opts_default();
    pmu_err err = {PMU_OK, ""};
    pmu_drv *d = pmu_drv_create(ref, &o, &err);
    ASSERT_NE(d, nullptr) << err.msg;
    pmu_drv_config dear{}, btb{};
    add_counter(&dear, M, 0, PMU_EV_DATA_EAR_EVENTS, 0x8, 10);
    dear.capture[0] = PMU_DRV_CAPTURE_DEAR;
    dear.reg[dear.nregs++] = {vis(PMU_VIS_PMC11), PMU_FSET(PMU_FSET(0, PMC11, PLM, 0x8), PMC11, UMASK, 4)};
    add_counter(&btb, M, 1, PMU_EV_BRANCH_EVENT, 0x8, 10);
    btb.capture[1] = PMU_DRV_CAPTURE_BTB;
    btb.reg[btb.nregs++] = {vis(PMU_VIS_PMC12), PMU_FSET(PMU_FSET(0, PMC12, PLM, 0x8), PMC12, TM, 3)};
    ASSERT_EQ(pmu_drv_attach(d, 3, &dear, &err), 0) << err.msg;
    ASSERT_EQ(pmu_drv_attach(d, 5, &btb, &err), 0) << err.msg;

    StreamBuilder sb;
    sb.pid = 3;
    for (int visit = 0; visit < 4; visit++) {
        sb.user(10);
        sb.interruption(6, visit % 2 ? 3 : 5);
    }
    const auto dear_a = unit_values(PMU_VIS_PMD2, PMU_VIS_PMD3, 3);
    auto dear_regs = dear_a;
    dear_regs[PMU_VIS_PMD17] = 0x4000000000001238ull;
    const auto btb_b = unit_values(PMU_VIS_PMD8, PMU_VIS_PMD16, 5);

    int visit = -1;
    int32_t running = -1;
    for (pmu_cycle c : sb.recs) {
        pmu_drv_step(d, &c);
        if (pmu_drv_current_pid(d) == running)
            continue;
        running = pmu_drv_current_pid(d);
        visit++;
        const bool is3 = running == 3;
        ASSERT_TRUE(is3 || running == 5);
        const std::string when = "visit " + std::to_string(visit) + " of pid " + std::to_string(running);
        // This process's own unit holds its values from its last visit; the other unit
        // holds this process's (reset) values, never the other process's.
        expect_all(ref, dear_regs, is3 && visit >= 2, when.c_str());
        expect_all(ref, btb_b, !is3 && visit >= 2, when.c_str());
        if (visit < 2)
            write_all(ref, is3 ? dear_regs : btb_b);
    }
    EXPECT_EQ(visit, 4);
    EXPECT_GE(pmu_drv_get_stats(d)->saves, 4u);
    pmu_drv_destroy(d);
    pmu_destroy(ref);
}

}  // namespace
