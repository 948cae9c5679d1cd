// test_xev.cpp - general events (ita_xev): a counter counts the record's entries whose id
// resolves on its model (ita_event_id_row) to a NORMAL event of KIND NONE with the
// counter's es and umask, adding each entry's count; an entry attributed to a slot is
// qualified like that slot for the event's own iar/opm/dar, an unattributed one is not
// qualified; the counter's plm/ism/pm, threshold and freeze apply as to every event.
// Expected counts are written by hand from the entries next to them.
#include "ref_test_util.h"

#include "common/ita/ita_events.h"

using namespace reftest;

namespace {

const uint64_t IN = 0x4000000000002000ull, OUT = 0x4000000000005000ull;

struct General {
    int id;
    const ita_event_row *row;
};
// The event `name` of the model: its stream id and its row there.
General general(ita_model m, const char *name)
{
    General g{ita_event_id_find(name), ita_event_find(int(m), name)};
    EXPECT_GE(g.id, 0) << name;
    EXPECT_NE(g.row, nullptr) << name;
    return g;
}
ita_xev xev(int id, unsigned count, unsigned slot = ITA_XEV_NO_SLOT)
{
    ita_xev x;
    x.id = uint16_t(id);
    x.count = uint8_t(count);
    x.slot = uint8_t(slot);
    return x;
}
// Three loads: slot 0 at OUT, slots 1 and 2 at IN; slot 2's data address 0x7000000000000010.
ita_cycle with_xev(std::initializer_list<ita_xev> list, unsigned cpl = 3)
{
    const uint16_t load = ITA_SF_LOAD_MASK;
    ita_cycle c = rec({slot(OUT, ITA_UNIT_M, 0, load, 0x1000), slot(IN, ITA_UNIT_M, 0, load, 0x1000),
                       slot(IN, ITA_UNIT_M, 0, load, 0x7000000000000010ull)},
                      cpl);
    for (const ita_xev &x : list)
        c.xev[c.nxev++] = x;
    return c;
}

class Xev : public ModelTest {
protected:
    void SetUp() override { r.start(); }
    bool ita2() const { return model() == ITA_MODEL_ITANIUM2; }
    void program(unsigned ctr, const General &g, Pmc p = Pmc())
    {
        p.es = g.row->code;
        p.umask = g.row->umask;
        r.program(ctr, p);
    }
    // Events of this model with the qualifier columns the tests need.
    General no_qualifier() { return general(model(), ita2() ? "BUS_MEMORY_ALL_ANY" : "BUS_MEMORY_ANY"); }
    General memory() { return general(model(), ita2() ? "ALAT_CAPACITY_MISS_ALL" : "ALAT_REPLACEMENT_ALL"); }
    Ref r{params(GetParam())};
};
INSTANTIATE_BOTH_MODELS(Xev);

TEST_P(Xev, CountsEntriesOfTheCountersCodeAndUmask)
{
    const General bus = no_qualifier(), flush = general(model(), "FP_FLUSH_TO_ZERO");
    program(4, bus);
    program(5, flush);
    r.program(6, raw_pmc(flush.row->code, flush.row->umask + 1)); // another umask
    r.step(with_xev({xev(bus.id, 1), xev(flush.id, 2, 1), xev(flush.id, 1)}));
    EXPECT_EQ(r.read(pmd(4)), 1u);
    EXPECT_EQ(r.read(pmd(5)), 3u) << "2 attributed + 1 not";
    EXPECT_EQ(r.read(pmd(6)), 0u);
    EXPECT_EQ(r.total(5), 3u);
}

TEST_P(Xev, UnknownIdsAndModelledRowsCountNowhere)
{
    // An id the model lacks: BUS_BACKSNP_REQ_THIS is Itanium 2 only (0x8e/1), BUS_ALL_SELF
    // of Itanium (0x47/2) has an Itanium 2 namesake, so take Itanium-only ids by name.
    const char *other_only = ita2() ? "BRANCH_MULTIWAY_ALL_PATHS_ALL_PREDICTIONS" : "BUS_BACKSNP_REQ_THIS";
    const int id = ita_event_id_find(other_only);
    ASSERT_GE(id, 0);
    ASSERT_EQ(ita_event_id_row(unsigned(id), int(model())), nullptr) << other_only;
    const ita_event_row *there = ita_event_id_row(unsigned(id), ita2() ? 0 : 1);
    ASSERT_NE(there, nullptr);
    r.program(4, raw_pmc(there->code, there->umask));
    // Rows with a KIND (counted from the record instead) and EAR/BTB types never count
    // as general events; nor does an id past the table.
    const General cycles = general(model(), "CPU_CYCLES"), btb = general(model(), "BRANCH_EVENT");
    r.program(5, raw_pmc(btb.row->code, btb.row->umask));
    r.step(with_xev({xev(id, 1), xev(cycles.id, 1), xev(btb.id, 1), xev(int(ita_event_id_count()), 1)}));
    EXPECT_EQ(r.read(pmd(4)), 0u);
    EXPECT_EQ(r.read(pmd(5)), 0u) << "BRANCH_EVENT (type BTB) with the BTB off";
}

TEST_P(Xev, ItaniumEventSelectIsSevenBits)
{
    const General bus = no_qualifier();
    // es with bit 7 flipped (Itanium: set; its codes are 7 bits).  Itanium keeps
    // es[6:0] (bit 15 of PMC4 is not writable): the event's code; Itanium 2 compares 8 bits.
    r.program(4, raw_pmc(ita2() ? bus.row->code ^ 0x80u : bus.row->code | 0x80u, bus.row->umask));
    r.step(with_xev({xev(bus.id, 1)}));
    EXPECT_EQ(r.read(pmd(4)), ita2() ? 0u : 1u);
}

TEST_P(Xev, AttributedEntriesAreQualifiedLikeTheirSlot)
{
    const General flush = general(model(), "FP_FLUSH_TO_ZERO"), bus = no_qualifier();
    ASSERT_EQ(flush.row->iar, 1u);
    ASSERT_EQ(bus.row->iar, 0u);
    program(4, flush);
    program(5, bus);
    // Instruction range on pair 0 over IN: slot 0 is at OUT, slots 1 and 2 at IN.
    set_ibr_pair(r, 0, IN, 0x1000);
    if (ita2()) {
        r.write(pmc(14), pmc14(0xe));
        r.write(pmc(8), Opc().with_ig_ad(0).value());
    } else {
        r.write(pmc(13), 0);
    }
    const ita_cycle c = with_xev({xev(flush.id, 1, 0), xev(flush.id, 2, 1), xev(flush.id, 4),
                                  xev(bus.id, 1, 0)});
    r.step(c);
    EXPECT_EQ(r.read(pmd(4)), 6u) << "slot 0 fails the range; the unattributed entry passes";
    EXPECT_EQ(r.read(pmd(5)), 1u) << "iar = 0: the range does not constrain it";
    ita_cycle ia32 = c;
    ia32.is = 1;
    r.step(ia32);
    EXPECT_EQ(r.read(pmd(4)), 13u) << "IA-32: every tag is 1";
}

TEST_P(Xev, MemoryEventsUseTheDataRange)
{
    const General alat = memory();
    ASSERT_EQ(alat.row->dar, 1u);
    program(4, alat);
    // DBR pair 0 over 0x7000000000000000: only slot 2's address is inside.
    set_dbr_pair(r, 0, 0x7000000000000000ull, 0x100);
    if (ita2())
        r.write(pmc(13), ITA_FSET(ITA_FSET(0, PMC13, CFG_DBRP0, 2), PMC13, ENA_DBRP0, 1));
    else
        r.write(pmc(11), 0); // pt = 0
    r.step(with_xev({xev(alat.id, 1, 0), xev(alat.id, 1, 1), xev(alat.id, 2, 2), xev(alat.id, 1)}));
    EXPECT_EQ(r.read(pmd(4)), 3u);
}

TEST_P(Xev, OpcodeMatcherForEventsWithOpm)
{
    const General alat = memory();
    ASSERT_EQ(alat.row->opm, 1u);
    program(4, alat);
    r.write(pmc(8), major_opcode(4, ITA_UNIT_M).value());
    ita_cycle c = with_xev({xev(alat.id, 1, 0), xev(alat.id, 1, 1)});
    c.slot[1].enc = uint64_t(4) << 37; // major opcode 4: instr{40:37}
    r.step(c);
    EXPECT_EQ(r.read(pmd(4)), 1u);
}

TEST_P(Xev, CounterEnablesThresholdAndFreezeApply)
{
    const General bus = no_qualifier(), flush = general(model(), "FP_FLUSH_TO_ZERO");
    program(4, flush, Pmc().with_plm(0x1));
    program(5, flush, Pmc().with_thres(2));
    program(6, flush, Pmc().with_ism(0x1));
    program(7, bus, Pmc().with_oi(1));
    r.write(pmd(7), wmax(model()));
    const ita_cycle c = with_xev({xev(flush.id, 2, 1), xev(flush.id, 1), xev(bus.id, 1)});
    r.step(c);
    EXPECT_EQ(r.read(pmd(4)), 0u) << "plm excludes cpl 3";
    EXPECT_EQ(r.read(pmd(5)), 1u) << "n = 3 > 2";
    EXPECT_EQ(r.read(pmd(6)), 0u) << "ism excludes IA-64";
    EXPECT_EQ(r.pmi(), 1u);
    r.step(c);
    EXPECT_EQ(r.read(pmd(5)), 1u) << "frozen";
}

} // namespace
