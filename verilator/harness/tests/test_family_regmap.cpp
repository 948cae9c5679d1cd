// test_family_regmap.cpp - every family's register map (pmu_family.regmap, from its .def)
// says what its register port implements: entries do not overlap, every visible
// register is reached by one, and on the reference model an address outside the map
// reads 0 and a write to it changes nothing visible (the map is what a bus-level
// harness, e.g. a TLM socket, answers with an address error).
#include <gtest/gtest.h>

#include <cstring>

#include "common/pmu_backend.h"
#include "common/pmu_family.h"

namespace {

TEST(FamilyRegmap, EntriesAreDisjointAndCoverTheVisibleState)
{
    for (unsigned k = 0; k < pmu_nfamilies; k++) {
        const pmu_family *f = pmu_families[k];
        ASSERT_GT(f->nregmap, 0u) << f->name;
        for (unsigned i = 0; i < f->nregmap; i++) {
            const pmu_regmap_entry &a = f->regmap[i];
            EXPECT_GT(a.span, 0u) << f->name << " " << a.name;
            for (unsigned j = i + 1; j < f->nregmap; j++) {
                const pmu_regmap_entry &b = f->regmap[j];
                EXPECT_TRUE(a.addr + a.span <= b.addr || b.addr + b.span <= a.addr)
                    << f->name << ": " << a.name << " and " << b.name << " overlap";
            }
        }
        for (unsigned v = 0; v < f->nvis; v++) {
            const pmu_regmap_entry *e = pmu_family_reg_of_addr(f, f->vis[v].addr);
            ASSERT_NE(e, nullptr) << f->name << ": visible " << f->vis[v].name << " outside the map";
            EXPECT_NE(e->access, PMU_REG_WO) << f->name << " " << e->name;
        }
    }
}

TEST(FamilyRegmap, AddressesOutsideTheMapAreInert)
{
    for (unsigned k = 0; k < pmu_nfamilies; k++) {
        const pmu_family *f = pmu_families[k];
        pmu_err err;
        pmu_backend *b = f->ref_create(f->default_model, &err);
        ASSERT_NE(b, nullptr) << err.msg;
        pmu_state before, after;
        pmu_snapshot(b, &before);
        unsigned outside = 0;
        for (unsigned a = 0; a < 0x1000; a++) {
            if (pmu_family_reg_of_addr(f, (uint16_t)a))
                continue;
            outside++;
            pmu_write(b, (uint16_t)a, ~0ull);
            EXPECT_EQ(pmu_read(b, (uint16_t)a), 0u) << f->name << " address 0x" << std::hex << a;
        }
        pmu_snapshot(b, &after);
        for (unsigned v = 0; v < f->nvis; v++)
            EXPECT_EQ(before.reg[v], after.reg[v]) << f->name << " " << f->vis[v].name;
        EXPECT_GT(outside, 0u) << f->name;
        pmu_destroy(b);
    }
}

} // namespace
