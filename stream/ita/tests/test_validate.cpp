// ita_cycle_validate: one failing record per rule, each message naming its field.
#include <functional>

#include "stream/ita/ita_stream_test_util.h"

namespace {

uint16_t flag(unsigned lsb, unsigned v) { return (uint16_t)(v << lsb); }
#define F1(name) flag(ITA_SF_##name##_LSB, 1)
#define FV(name, v) flag(ITA_SF_##name##_LSB, (v))

struct Rule {
    const char *what;
    const char *field;
    std::function<void(ita_cycle &)> breaks;
};

void expect_invalid(const Rule &rule)
{
    ita_cycle c = base_cycle();
    ASSERT_EQ(ita_cycle_validate(&c, "w:1", nullptr), 0) << "base record invalid";
    rule.breaks(c);
    pmu_err err;
    err.msg[0] = '\0';
    EXPECT_NE(ita_cycle_validate(&c, "trace.txt:12", &err), 0) << rule.what;
    EXPECT_CONTAINS(err.msg, std::string("trace.txt:12: field '") + rule.field + "'");
}

// n slots of the base kind, each passed to `set`.
void fill_slots(ita_cycle &c, unsigned n, const std::function<void(ita_slot &)> &set)
{
    c.nslots = (uint8_t)n;
    for (unsigned i = 0; i < n; i++) {
        c.slot[i] = base_cycle().slot[0];
        c.slot[i].slot = (uint8_t)(i % 3);
        set(c.slot[i]);
    }
}

} // namespace

TEST(Validate, BaseAndEdgeRecordsPass)
{
    ita_cycle c = base_cycle();
    EXPECT_EQ(ita_cycle_validate(&c, "x", nullptr), 0);
    // an IA-32 branch may be on any unit, at a byte address
    c.is = 1;
    c.slot[0].ip = 0x08048003;
    c.slot[0].unit = ITA_UNIT_M;
    c.slot[0].flags = FV(BR_TYPE, 2) | FV(BR_PRED, 1) | F1(TAKEN);
    c.slot[0].target = 0x8048100;
    EXPECT_EQ(ita_cycle_validate(&c, "x", nullptr), 0);
    // interruption entry/return is legal anywhere, also while halted
    ita_cycle h = base_cycle();
    h.nslots = 0;
    h.power = ITA_POWER_HALT;
    h.intr = ITA_INTR_ENTRY;
    EXPECT_EQ(ita_cycle_validate(&h, "x", nullptr), 0);
    // a nop may be predicated off too
    ita_cycle n = base_cycle();
    n.slot[0].flags = F1(NOP) | F1(PRED_OFF);
    EXPECT_EQ(ita_cycle_validate(&n, "x", nullptr), 0);
    // exactly the maxincr of each counting event is fine
    ita_cycle m = base_cycle();
    fill_slots(m, maxincr_of("LOADS_RETIRED"), [](ita_slot &s) {
        s.flags = F1(LOAD);
    });
    EXPECT_EQ(ita_cycle_validate(&m, "x", nullptr), 0);
    // without a `where` the message starts with the field
    ita_cycle bad = base_cycle();
    bad.cpl = 7;
    pmu_err err;
    EXPECT_NE(ita_cycle_validate(&bad, nullptr, &err), 0);
    EXPECT_EQ(std::string(err.msg).rfind("field 'cpl'", 0), 0u) << err.msg;
}

TEST(Validate, CycleFieldRanges)
{
    const Rule rules[] = {
        {"cpl > 3", "cpl", [](ita_cycle &c) { c.cpl = 4; }},
        {"is > 1", "is", [](ita_cycle &c) { c.is = 2; }},
        {"power > 3", "power", [](ita_cycle &c) { c.power = 4; }},
        {"intr > 2", "intr", [](ita_cycle &c) { c.intr = 3; }},
        {"up_we > 1", "up_we", [](ita_cycle &c) { c.up_we = 2; }},
        {"pp_we > 1", "pp_we", [](ita_cycle &c) { c.pp_we = 2; }},
        {"up > 1", "up", [](ita_cycle &c) { c.up_we = 1; c.up = 2; }},
        {"pp > 1", "pp", [](ita_cycle &c) { c.pp_we = 1; c.pp = 2; }},
        {"up without a write", "up", [](ita_cycle &c) { c.up = 1; }},
        {"pp without a write", "pp", [](ita_cycle &c) { c.pp = 1; }},
        {"recirc > maxincr", "recirc",
         [](ita_cycle &c) { c.recirc = (uint8_t)(maxincr_of("L2_FORCE_RECIRC_ANY") + 1); }},
        {"nslots > 6", "nslots", [](ita_cycle &c) { c.nslots = ITA_MAX_SLOTS + 1; }},
        {"slots in light_halt", "power", [](ita_cycle &c) { c.power = ITA_POWER_LIGHT_HALT; }},
        {"slots in halt", "power", [](ita_cycle &c) { c.power = ITA_POWER_HALT; }},
    };
    for (const Rule &r : rules)
        expect_invalid(r);
}

TEST(Validate, SlotFieldRanges)
{
    const Rule rules[] = {
        {"undefined flag bit", "flags", [](ita_cycle &c) { c.slot[0].flags = 0x8000; }},
        {"unit > 3", "u", [](ita_cycle &c) { c.slot[0].unit = 4; }},
        {"tlb > 3", "tlb", [](ita_cycle &c) { c.slot[0].tlb = 4; }},
        {"IA-64 syllable > 2", "s", [](ita_cycle &c) { c.slot[0].slot = 3; }},
        {"IA-64 ip not aligned", "ip", [](ita_cycle &c) { c.slot[0].ip |= 4; }},
        {"IA-64 enc wider than 41 bits", "enc", [](ita_cycle &c) { c.slot[0].enc = 1ull << 41; }},
        {"IA-32 syllable != 0", "s", [](ita_cycle &c) { c.is = 1; c.slot[0].slot = 1; }},
        {"IA-32 with an encoding", "enc", [](ita_cycle &c) { c.is = 1; c.slot[0].enc = 5; }},
    };
    for (const Rule &r : rules)
        expect_invalid(r);
}

TEST(Validate, FlagConsistency)
{
    const Rule rules[] = {
        {"l1d_miss without load", "l1d_miss", [](ita_cycle &c) { c.slot[0].flags = F1(L1D_MISS); }},
        {"rse without load", "rse", [](ita_cycle &c) { c.slot[0].flags = F1(RSE); }},
        {"l2_ref without load or store", "l2_ref", [](ita_cycle &c) { c.slot[0].flags = F1(L2_REF); }},
        {"l2_miss without l2_ref", "l2_miss",
         [](ita_cycle &c) { c.slot[0].flags = F1(LOAD) | F1(L2_MISS); }},
        {"nop and load", "nop", [](ita_cycle &c) { c.slot[0].flags = F1(NOP) | F1(LOAD); }},
        {"nop and fp", "nop", [](ita_cycle &c) { c.slot[0].flags = F1(NOP) | F1(FP); }},
        {"squashed and store", "squashed",
         [](ita_cycle &c) { c.slot[0].flags = F1(PRED_OFF) | F1(STORE); }},
        {"squashed branch", "squashed",
         [](ita_cycle &c) {
             c.slot[0].unit = ITA_UNIT_B;
             c.slot[0].flags = F1(PRED_OFF) | FV(BR_TYPE, 1);
         }},
        {"pred without br", "pred", [](ita_cycle &c) { c.slot[0].flags = FV(BR_PRED, 1); }},
        {"taken without br", "taken", [](ita_cycle &c) { c.slot[0].flags = F1(TAKEN); }},
        {"IA-64 branch not on B", "br",
         [](ita_cycle &c) { c.slot[0].unit = ITA_UNIT_I; c.slot[0].flags = FV(BR_TYPE, 3); }},
        {"data address without load or store", "da",
         [](ita_cycle &c) { c.slot[0].daddr = 0x6000000000000000ull; }},
        {"target without br", "tgt", [](ita_cycle &c) { c.slot[0].target = 0x4000000000000000ull; }},
    };
    for (const Rule &r : rules)
        expect_invalid(r);
}

TEST(Validate, MessageNamesTheSlot)
{
    ita_cycle c = base_cycle();
    fill_slots(c, 3, [](ita_slot &) {});
    c.slot[2].flags = F1(L1D_MISS);
    pmu_err err;
    ASSERT_NE(ita_cycle_validate(&c, "f:3", &err), 0);
    EXPECT_CONTAINS(err.msg, "slot 3");
}

// Per-cycle multiplicities: maxincr + 1 occurrences of each counted event, the limit
// looked up by event name.  Each case breaks only its own limit.
TEST(Validate, MultiplicitiesAboveMaxincr)
{
    struct M {
        const char *event, *field;
        std::function<void(ita_slot &, unsigned)> set; // slot, index in the cycle
    };
    const unsigned max_stores = maxincr_of("STORES_RETIRED");
    const M cases[] = {
        {"LOADS_RETIRED", "load", [](ita_slot &s, unsigned) { s.flags = F1(LOAD); }},
        {"STORES_RETIRED", "store", [](ita_slot &s, unsigned) { s.flags = F1(STORE); }},
        {"FP_OPS_RETIRED", "fp", [](ita_slot &s, unsigned) { s.flags = F1(FP); s.unit = ITA_UNIT_F; }},
        {"BR_MISPRED_DETAIL_ALL_ALL_PRED", "br",
         [](ita_slot &s, unsigned) { s.flags = FV(BR_TYPE, 1); s.unit = ITA_UNIT_B; }},
        {"L1D_READ_MISSES_ALL", "l1d_miss",
         [](ita_slot &s, unsigned) { s.flags = F1(LOAD) | F1(L1D_MISS); }},
        {"L2_MISSES", "l2_miss",
         [](ita_slot &s, unsigned) { s.flags = F1(STORE) | F1(L2_REF) | F1(L2_MISS); }},
        {"L2_REFERENCES", "l2_ref",
         [max_stores](ita_slot &s, unsigned i) {
             s.flags = (uint16_t)((i < max_stores ? F1(STORE) : F1(LOAD)) | F1(L2_REF));
         }},
    };
    for (const M &m : cases) {
        unsigned limit = maxincr_of(m.event);
        ASSERT_GT(limit, 0u);
        ASSERT_LE(limit + 1, (unsigned)ITA_MAX_SLOTS) << m.event;
        ita_cycle ok = base_cycle(), bad = base_cycle();
        ok.nslots = (uint8_t)limit;
        bad.nslots = (uint8_t)(limit + 1);
        for (unsigned i = 0; i <= limit; i++) {
            bad.slot[i] = base_cycle().slot[0];
            m.set(bad.slot[i], i);
            ok.slot[i] = bad.slot[i];
        }
        pmu_err err;
        err.msg[0] = '\0';
        EXPECT_EQ(ita_cycle_validate(&ok, "m", &err), 0) << m.event << ": " << err.msg;
        EXPECT_NE(ita_cycle_validate(&bad, "m", &err), 0) << m.event;
        EXPECT_CONTAINS(err.msg, std::string("field '") + m.field + "'");
        EXPECT_CONTAINS(err.msg, m.event);
    }
}

// General events and the fetch in records that did not come from text (binary, generator).
TEST(Validate, GeneralEventsAndFetch)
{
    auto id = [](const char *name) { return (uint16_t)ita_event_id_find(name); };
    const Rule rules[] = {
        {"unused event id", "ev", [](ita_cycle &c) { c.nxev = 1; c.xev[0] = {0xfffe, 1, ITA_XEV_NO_SLOT}; }},
        {"more than ITA_MAX_XEV", "ev", [&](ita_cycle &c) {
             c.nxev = ITA_MAX_XEV + 1; // the record has room for ITA_MAX_XEV
             for (unsigned i = 0; i < ITA_MAX_XEV; i++)
                 c.xev[i] = {id("L1I_READS"), 1, ITA_XEV_NO_SLOT};
         }},
        {"slot beyond nslots", "ev", [&](ita_cycle &c) { c.nxev = 1; c.xev[0] = {id("L1I_READS"), 1, 1}; }},
        {"count 0", "ev", [&](ita_cycle &c) { c.nxev = 1; c.xev[0] = {id("L1I_READS"), 0, ITA_XEV_NO_SLOT}; }},
        {"above maxincr", "ev", [&](ita_cycle &c) { c.nxev = 1; c.xev[0] = {id("L1I_READS"), 2, 0}; }},
        {"modelled event", "ev", [&](ita_cycle &c) { c.nxev = 1; c.xev[0] = {id("CPU_CYCLES"), 1, ITA_XEV_NO_SLOT}; }},
        {"EAR event", "ev", [&](ita_cycle &c) { c.nxev = 1; c.xev[0] = {id("BRANCH_EVENT"), 1, 0}; }},
        {"if_tlb > 3", "if_tlb", [](ita_cycle &c) { c.if_tlb = 4; }},
        {"if_rab > 1", "if_rab", [](ita_cycle &c) { c.if_rab = 2; }},
        {"if_addr alone", "if_addr", [](ita_cycle &c) { c.if_addr = 0x40; }},
        {"lat on a non-memory slot", "lat", [](ita_cycle &c) { c.slot[0].lat = 3; }},
        {"alat_miss without load", "alat_miss", [](ita_cycle &c) { c.slot[0].flags = F1(ALAT_MISS) | F1(STORE); }},
    };
    for (const Rule &r : rules)
        expect_invalid(r);
    ita_cycle ok = base_cycle();
    ok.if_addr = 0x40;
    ok.if_rab = 1;
    ok.nxev = 2;
    ok.xev[0] = {id("L1I_READS"), 1, 0};
    ok.xev[1] = {id("L2_DATA_REFERENCES_L2_ALL"), 4, ITA_XEV_NO_SLOT};
    ok.slot[0].flags = F1(LOAD) | F1(ALAT_MISS);
    ok.slot[0].lat = 9;
    EXPECT_EQ(ita_cycle_validate(&ok, "x", nullptr), 0);
}

// ---- the fast path (stream/ita/ita_validate.c) --------------------------------------------
// ita_cycle_validate first asks ita_cycle_passes_fast whether any rule can refuse the record,
// and runs the rules one by one only when it cannot say so. The fast test must never pass a
// record that a rule refuses; it must pass the records streams are made of, or it saves
// nothing.

#include <random>

namespace {

// A record near the valid ones: the base record or a generated one, with a few fields set to
// values on both sides of their limits.
void mutate(std::mt19937_64 &rng, ita_cycle &c)
{
    auto pick = [&](unsigned n) { return (unsigned)(rng() % n); };
    const unsigned nmut = 1 + pick(3);
    for (unsigned m = 0; m < nmut; m++) {
        ita_slot &s = c.slot[pick(ITA_MAX_SLOTS)];
        switch (pick(23)) {
        case 0: c.cpl = (uint8_t)pick(6); break;
        case 1: c.is = (uint8_t)pick(3); break;
        case 2: c.power = (uint8_t)pick(5); break;
        case 3: c.intr = (uint8_t)pick(4); break;
        case 4: c.up_we = (uint8_t)pick(3); c.up = (uint8_t)pick(3); break;
        case 5: c.pp_we = (uint8_t)pick(3); c.pp = (uint8_t)pick(3); break;
        case 6: c.recirc = (uint8_t)pick(9); break;
        case 7: c.nslots = (uint8_t)pick(8); break;
        case 8: c.if_addr = pick(2) ? rng() : 0; break;
        case 9: c.if_lat = (uint16_t)pick(3); c.if_tlb = (uint8_t)pick(5); c.if_rab = (uint8_t)pick(3); break;
        case 10: s.flags = (uint16_t)rng(); break;
        case 11: s.flags ^= (uint16_t)(1u << pick(16)); break;
        case 12: s.unit = (uint8_t)pick(6); break;
        case 13: s.tlb = (uint8_t)pick(6); break;
        case 14: s.slot = (uint8_t)pick(5); break;
        case 15: s.ip ^= (uint64_t)1 << pick(64); break;
        case 16: s.enc = pick(2) ? rng() >> pick(64) : 0; break;
        case 17: s.daddr = pick(2) ? rng() : 0; break;
        case 18: s.target = pick(2) ? rng() : 0; break;
        case 19: s.lat = (uint16_t)pick(3); break;
        case 20: c.nxev = (uint8_t)pick(2); c.xev[0] = {(uint16_t)pick(600), (uint8_t)pick(3), (uint8_t)pick(8)}; break;
        case 21: /* the same event twice (the sum against its maxincr), or too many entries */
            c.nxev = (uint8_t)(2 + pick(5));
            c.xev[1] = c.xev[0];
            c.xev[1].count = (uint8_t)(1 + pick(4));
            break;
        default: s = c.slot[0]; break; /* a second slot like the first: multiplicities */
        }
    }
}

} // namespace

TEST(ValidateFast, NeverPassesARecordARuleRefuses)
{
    const uint64_t seed = 12;
    SCOPED_TRACE("seed " + std::to_string(seed) + " (a fixed seed: change it here to explore)");
    std::mt19937_64 rng(seed);
    GenPtr gen(seed, 200000, PMU_GEN_WORKLOAD);
    ASSERT_NE(gen.g, nullptr);
    unsigned refused = 0, passed_fast = 0, n = 0;
    ita_cycle c;
    while (pmu_gen_next(gen.g, &c) == 1) {
        if (n++ % 2)
            c = base_cycle();
        mutate(rng, c);
        const int fast = ita_cycle_passes_fast(&c);
        const int rules = ita_cycle_validate_by_rule(&c, "x", nullptr);
        refused += rules != 0;
        passed_fast += fast;
        if (fast && rules) {
            char text[1024];
            ita_cycle_format(&c, text, sizeof text);
            FAIL() << "record " << n << " passes the fast test but a rule refuses it: " << text;
        }
        EXPECT_EQ(ita_cycle_validate(&c, "x", nullptr), rules) << "record " << n;
    }
    // Both kinds were met in numbers: the mutations reach the rules and the fast path.
    EXPECT_GT(refused, n / 4);
    EXPECT_GT(passed_fast, n / 4);
}

TEST(ValidateFast, DecidesEveryFlagsValueAsTheRulesDo)
{
    // What depends on the flags alone is decided exactly: each of the 65536 values on a slot
    // that nothing else refuses (a load or store keeps its data address, a branch its unit and
    // target), one slot and then six alike (the multiplicity rules).
    for (unsigned nslots : {1u, 6u})
        for (unsigned f = 0; f <= 0xffff; f++) {
            ita_cycle c = base_cycle();
            c.nslots = (uint8_t)nslots;
            for (unsigned i = 0; i < nslots; i++) {
                ita_slot &s = c.slot[i];
                s = base_cycle().slot[0];
                s.flags = (uint16_t)f;
                if (f & (ITA_SF_LOAD_MASK | ITA_SF_STORE_MASK))
                    s.daddr = 0x6000000000000040ull;
                if (f & ITA_SF_BR_TYPE_MASK) {
                    s.unit = ITA_UNIT_B;
                    s.target = 0x4000000000002000ull;
                }
            }
            ASSERT_EQ(ita_cycle_passes_fast(&c), ita_cycle_validate_by_rule(&c, "x", nullptr) == 0)
                << "flags 0x" << std::hex << f << std::dec << ", " << nslots << " slots";
        }
}

TEST(ValidateFast, PassesTheGeneratedStreams)
{
    // Every record the generator writes is the fast path's to pass, those with general
    // events included, in both modes.
    for (pmu_gen_mode mode : {PMU_GEN_WORKLOAD, PMU_GEN_RANDOM}) {
        GenPtr gen(7, 50000, mode);
        ASSERT_NE(gen.g, nullptr);
        ita_cycle c;
        unsigned n = 0, with_xev = 0, fast = 0;
        while (pmu_gen_next(gen.g, &c) == 1) {
            n++;
            with_xev += c.nxev != 0;
            fast += ita_cycle_passes_fast(&c);
        }
        EXPECT_EQ(fast, n) << "mode " << mode;
        EXPECT_GT(with_xev, 0u) << "mode " << mode << ": no record has general events";
    }
}
