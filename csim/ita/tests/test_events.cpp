// test_events.cpp - ita-semantics.md step 3 (the event count n of every
// implemented event, unknown (es, umask) pairs, the PMC4-only event, power
// gating) and step 4 (threshold, thr_ge).
#include "ref_test_util.h"

#include <vector>

using namespace reftest;

namespace {

const uint16_t NOP = ITA_SF_NOP_MASK, PRED_OFF = ITA_SF_PRED_OFF_MASK, LOAD = ITA_SF_LOAD_MASK,
               STORE = ITA_SF_STORE_MASK, FP = ITA_SF_FP_MASK, L1D_MISS = ITA_SF_L1D_MISS_MASK,
               L2_REF = ITA_SF_L2_REF_MASK, L2_MISS = ITA_SF_L2_MISS_MASK, RSE = ITA_SF_RSE_MASK,
               TAKEN = ITA_SF_TAKEN_MASK;

// Four records exercising every non-branch event; the expected n of each
// event in each record is written by hand from the ita-semantics.md table.
ita_cycle record_a()
{
    ita_cycle c = cycle_with({NOP, uint16_t(LOAD | L1D_MISS | L2_REF | L2_MISS),
                              uint16_t(LOAD | L1D_MISS | RSE | L2_REF), uint16_t(STORE | L2_REF),
                              uint16_t(FP | PRED_OFF), uint16_t(br(1, 2) | TAKEN)});
    c.recirc = 3;
    return c;
}
ita_cycle record_b()
{
    ita_cycle c = cycle_with({uint16_t(LOAD | RSE), uint16_t(LOAD | L1D_MISS), uint16_t(STORE | L1D_MISS),
                              uint16_t(STORE | L2_REF | L2_MISS), FP, uint16_t(FP | NOP)});
    c.recirc = 1;
    return c;
}
ita_cycle record_c() { return cycle(); } // nothing retires
ita_cycle record_d()
{
    // Three retired slots; slots 3..5 hold stale flags that must be ignored.
    ita_cycle c = cycle_with({uint16_t(NOP | PRED_OFF), LOAD, 0});
    for (unsigned s = 3; s < ITA_MAX_SLOTS; s++)
        c.slot[s].flags = 0x3fff;
    c.recirc = 4;
    return c;
}

struct EventRow {
    int ev;
    unsigned a, b, c, d;
};
// Every non-branch event: n in records a, b, c, d.
const EventRow kRows[] = {
    {ITA_EV_CPU_CYCLES, 1, 1, 1, 1},
    {ITA_EV_IA64_INST_RETIRED, 6, 6, 0, 3},
    // Nothing programmed (reset qualification registers): every tag passes.
    {ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP0_PMC8, 6, 6, 0, 3},
    {ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP1_PMC9, 6, 6, 0, 3},
    {ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP2_PMC8, 6, 6, 0, 3},
    {ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP3_PMC9, 6, 6, 0, 3},
    {ITA_EV_NOPS_RETIRED, 1, 1, 0, 1},
    {ITA_EV_PREDICATE_SQUASHED_RETIRED, 1, 0, 0, 1},
    {ITA_EV_FP_OPS_RETIRED, 1, 2, 0, 0},
    {ITA_EV_LOADS_RETIRED, 2, 2, 0, 1},
    {ITA_EV_STORES_RETIRED, 1, 2, 0, 0},
    {ITA_EV_L1D_READ_MISSES_ALL, 2, 1, 0, 0},
    {ITA_EV_L1D_READ_MISSES_RSE_FILL, 1, 0, 0, 0},
    {ITA_EV_L2_MISSES, 1, 1, 0, 0},
    {ITA_EV_L2_REFERENCES, 3, 1, 0, 0},
    {ITA_EV_L2_FORCE_RECIRC_ANY, 3, 1, 0, 4},
};

// The table lists the BR_MISPRED_DETAIL rows by name (NTRETIND before RETURN), so a
// branch event is found by its umask, not by its place.
int branch_event_with_umask(unsigned umask)
{
    for (int ev = 0; ev < ITA_NEVENTS; ev++)
        if (ita_event_table[ev].kind == ITA_KIND_BR_DETAIL && ita_event_table[ev].umask == umask)
            return ev;
    return -1;
}

// The counters an event is wired to, written from the manuals' event lists: Itanium 2's
// L2_FORCE_RECIRC_ANY counts on PMC4 only; on Itanium the retirement events
// IA64_INST_RETIRED, NOPS_RETIRED and PREDICATE_SQUASHED_RETIRED count on PMC4 and PMC5 only.
bool wired_by_hand(int ev, ita_model m, unsigned ctr)
{
    if (ev == ITA_EV_L2_FORCE_RECIRC_ANY)
        return ctr == 4;
    const bool pmc45_on_itanium = ev == ITA_EV_IA64_INST_RETIRED || ev == ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP0_PMC8 ||
                                  ev == ITA_EV_NOPS_RETIRED || ev == ITA_EV_PREDICATE_SQUASHED_RETIRED;
    return !(m == ITA_MODEL_ITANIUM && pmc45_on_itanium) || ctr <= 5;
}

const EventRow *row_of(int ev)
{
    for (const auto &r : kRows)
        if (r.ev == ev)
            return &r;
    return nullptr;
}

// A record in which event `ev` occurs exactly n times, padded with slots
// that resemble the event but do not count (the test's own reading of the
// ita-semantics.md table).  Returns false for an event this helper does not know.
// The rule is chosen by the event's kind (the KIND column of the tables), so a row added
// with a known kind is covered and a new kind fails until the helper learns it.
bool record_with_n(int ev, unsigned n, ita_cycle *out)
{
    uint16_t hit = 0, pad = 0;
    bool use_slots = true;
    ita_cycle c = cycle();
    const unsigned kind = ita_event_table[ev].kind;
    switch (kind) {
    case ITA_KIND_BR_DETAIL: {
        unsigned u = ita_event_table[ev].umask, type = u >> 2, pred = u & 3;
        hit = br(type ? type : 2, pred ? pred : 3);
        pad = pred ? br(type ? type : 2, pred == 1 ? 2 : 1) : uint16_t(LOAD); // other prediction
        break;
    }
    case ITA_KIND_CYCLES:
        if (n != 1)
            return false;
        *out = c;
        return true;
    case ITA_KIND_INST_RET: hit = 0; pad = 0; break;
    case ITA_KIND_NOPS: hit = NOP; pad = PRED_OFF; break;
    case ITA_KIND_PRED_OFF: hit = PRED_OFF; pad = NOP; break;
    case ITA_KIND_FP_OPS: hit = FP; pad = LOAD; break;
    case ITA_KIND_LOADS: hit = LOAD; pad = STORE; break;
    case ITA_KIND_STORES: hit = STORE; pad = LOAD; break;
    case ITA_KIND_L1D_MISS: hit = LOAD | L1D_MISS; pad = LOAD; break;
    case ITA_KIND_L1D_RSE: hit = LOAD | L1D_MISS | RSE; pad = LOAD | L1D_MISS; break;
    case ITA_KIND_L2_MISS: hit = LOAD | L2_REF | L2_MISS; pad = LOAD | L2_REF; break;
    case ITA_KIND_L2_REF: hit = LOAD | L2_REF; pad = LOAD; break;
    case ITA_KIND_RECIRC:
        use_slots = false;
        c.recirc = uint8_t(n);
        break;
    // The capture events, with the units armed by arm_capture_units(): a fetch
    // that missed L1I, a load over the latency threshold, a taken branch.
    case ITA_KIND_IEAR:
        use_slots = false;
        c.if_addr = 0x4000000000002000ull;
        c.if_lat = uint16_t(n ? 100 : 0);
        break;
    case ITA_KIND_DEAR:
        use_slots = false;
        c = cycle_with({LOAD});
        c.slot[0].lat = uint16_t(n ? 100 : 3);
        break;
    case ITA_KIND_BTB:
        use_slots = false;
        c = cycle_with({n ? uint16_t(br(1, 1) | TAKEN) : LOAD});
        break;
    default:
        return false;
    }
    if (use_slots) {
        if (kind == ITA_KIND_INST_RET) {
            c.nslots = uint8_t(n);
        } else {
            for (unsigned s = 0; s < ITA_MAX_SLOTS; s++)
                c.slot[s].flags = s < n ? hit : pad;
            c.nslots = ITA_MAX_SLOTS;
        }
    }
    *out = c;
    return true;
}

} // namespace

class Events : public ModelTest {};
INSTANTIATE_BOTH_MODELS(Events);

TEST_P(Events, EveryNonBranchEventOnEveryCounter)
{
    Ref r(params(model()));
    r.start();
    const ita_cycle recs[] = {record_a(), record_b(), record_c(), record_d()};
    unsigned tested = 0;
    for (const auto &row : kRows) {
        if (!implemented(model(), row.ev))
            continue;
        const unsigned expect[] = {row.a, row.b, row.c, row.d};
        for (unsigned ctr = 4; ctr <= 7; ctr++) {
            r.program(ctr, event_pmc(row.ev, model()));
            const bool wired = wired_by_hand(row.ev, model(), ctr);
            for (unsigned i = 0; i < 4; i++)
                EXPECT_EQ(r.delta(ctr, recs[i]), wired ? expect[i] : 0u)
                    << ita_event_table[row.ev].name << " on PMC" << ctr << ", record " << char('a' + i);
            r.write(pmc(ctr), 0);
            tested++;
        }
    }
    // Itanium has no tagged retired-instruction events of umask 1..3, no FP_OPS_RETIRED,
    // L1D_READ_MISSES_RSE_FILL or L2_FORCE_RECIRC_ANY: 10 of the 16 rows.
    EXPECT_EQ(tested, model() == ITA_MODEL_ITANIUM2 ? 16u * 4 : 10u * 4);
}

TEST_P(Events, AllSixteenBranchUmasks)
{
    Ref r(params(model()));
    r.start();
    // (type, prediction) per slot; slot 5 of the first record is not a
    // branch but carries prediction bits, which must not count.
    ita_cycle r1 = cycle_with({br(1, 1), br(1, 2), br(2, 3), br(3, 1), br(3, 3), br(0, 1)});
    ita_cycle r2 = cycle_with({br(2, 0), br(3, 2), uint16_t(br(1, 3) | TAKEN), LOAD});
    // Expected n per umask (type << 2 | prediction).
    const unsigned n1[16] = {5, 2, 1, 2, /*IPREL*/ 2, 1, 1, 0, /*RETURN*/ 1, 0, 0, 1, /*NTRETIND*/ 2, 1, 0, 1};
    const unsigned n2[16] = {3, 0, 1, 1, /*IPREL*/ 1, 0, 0, 1, /*RETURN*/ 1, 0, 0, 0, /*NTRETIND*/ 1, 0, 1, 0};
    // Itanium has no BR_MISPRED_DETAIL events: its code 0x5b is BUS_BRQ_LIVE_REQ_LO, a
    // general event, so the Itanium 2 programming counts nothing there.
    const bool ita2 = model() == ITA_MODEL_ITANIUM2;
    for (unsigned u = 0; u < 16; u++) {
        const int ev = branch_event_with_umask(u);
        ASSERT_GE(ev, 0) << "no BR_MISPRED_DETAIL row of umask " << u;
        EXPECT_EQ(implemented(model(), ev), ita2) << ita_event_table[ev].name;
        for (unsigned ctr = 4; ctr <= 7; ctr++) {
            r.program(ctr, raw_pmc(ita_event_table[ev].code, u));
            EXPECT_EQ(r.delta(ctr, r1), ita2 ? n1[u] : 0u) << ita_event_table[ev].name << " PMC" << ctr;
            EXPECT_EQ(r.delta(ctr, r2), ita2 ? n2[u] : 0u) << ita_event_table[ev].name << " PMC" << ctr;
            EXPECT_EQ(r.delta(ctr, record_b()), 0u) << ita_event_table[ev].name;
            r.write(pmc(ctr), 0);
        }
    }
}

TEST_P(Events, UnknownCodeOrUmaskCountsNothing)
{
    Ref r(params(model()));
    r.start();
    struct Pair {
        unsigned es, umask;
    };
    // Umasks 0..3 of 0x08 are the tagged retired-instruction events; 4 and up are not.
    std::vector<Pair> pairs = {{0x12, 1}, {0x08, 4}, {0x08, 0xf}, {0x5c, 0}, {0x00, 0},
                               {0x7f, 0xf}, {0x50, 1}, {0x09, 2}, {0x4e, 0}};
    if (model() == ITA_MODEL_ITANIUM2) {
        // 0x4d, 0x47, 0x34 are Itanium codes only.
        const std::vector<Pair> more = {{0xc7, 2}, {0xcd, 1}, {0xff, 0xf}, {0xb4, 1}, {0x92, 0},
                                        {0x4d, 0}, {0x47, 0}, {0x34, 0}};
        pairs.insert(pairs.end(), more.begin(), more.end());
    } else {
        // Itanium: STORES_RETIRED has no code (0x51 would be PREDICATE_SQUASHED_RETIRED);
        // wrong umasks of the Itanium codes.
        const std::vector<Pair> more = {{0x4d, 1}, {0x47, 2}, {0x4b, 1}, {0x31, 1}, {0x34, 1}, {0x52, 0}};
        pairs.insert(pairs.end(), more.begin(), more.end());
    }
    ita_cycle busy = record_a();
    for (unsigned s = 0; s < ITA_MAX_SLOTS; s++)
        busy.slot[s].flags = 0x3fff; // every flag, every branch kind
    for (const auto &p : pairs)
        for (unsigned ctr = 4; ctr <= 7; ctr++) {
            r.program(ctr, raw_pmc(p.es, p.umask));
            for (const ita_cycle &c : {busy, record_a(), record_b(), record_d()})
                EXPECT_EQ(r.delta(ctr, c), 0u) << "es=0x" << std::hex << p.es << " umask=0x" << p.umask;
        }
}

// On Itanium es is compared with the event's Itanium code (ita-semantics.md step 3), the
// code of libpfm-3's Itanium table.  The es field has 7 bits, so a written bit 7 is
// dropped: 0x80 | an Itanium code counts that event, and software that writes an
// Itanium 2 code of 0x80 or more gets the Itanium event of its low 7 bits, whatever
// that is (0xb1, Itanium 2's L2_REFERENCES, is 0x31, PREDICATE_SQUASHED_RETIRED).
TEST(EventsItanium, ItaniumCodesOfHighEvents)
{
    Ref r(params(ITA_MODEL_ITANIUM));
    r.start();
    const ita_cycle recs[] = {record_a(), record_b(), record_d()};
    struct {
        unsigned es;    // the code written
        unsigned umask;
        int counts_as;  // the event whose n is expected, or -1: nothing
    } const rows[] = {
        // The Itanium codes of the memory events (libpfm-3 lib/itanium_events.h), and
        // the same with bit 7 set.
        {0x6c, 0, ITA_EV_LOADS_RETIRED},         {0xec, 0, ITA_EV_LOADS_RETIRED},
        {0x6d, 0, ITA_EV_STORES_RETIRED},        {0xed, 0, ITA_EV_STORES_RETIRED},
        {0x66, 0, ITA_EV_L1D_READ_MISSES_ALL},   {0xe6, 0, ITA_EV_L1D_READ_MISSES_ALL},
        {0x6a, 0, ITA_EV_L2_MISSES},             {0x68, 0, ITA_EV_L2_REFERENCES},
        // Itanium 2 codes: 0xb1 becomes PREDICATE_SQUASHED_RETIRED; the others become
        // bus events (0x4d, 0x51, 0x47, 0x4b) or CPU_CPL_CHANGES (0x34), which no
        // record of this test raises.
        {0xb1, 0, ITA_EV_PREDICATE_SQUASHED_RETIRED},
        {0xcd, 0, -1}, {0xd1, 0, -1}, {0xc7, 0, -1}, {0xc7, 1, -1}, {0xcb, 0, -1}, {0xb4, 0, -1},
    };
    for (const auto &row : rows) {
        r.program(4, raw_pmc(row.es, row.umask));
        EXPECT_EQ(ITA_FGET(r.read(pmc(4)), PMC_GEN, ES), row.es & 0x7fu);
        const EventRow *expect = row.counts_as < 0 ? nullptr : row_of(row.counts_as);
        ASSERT_TRUE(row.counts_as < 0 || expect != nullptr);
        EXPECT_EQ(r.delta(4, recs[0]), expect ? expect->a : 0u) << "es=0x" << std::hex << row.es;
        EXPECT_EQ(r.delta(4, recs[1]), expect ? expect->b : 0u) << "es=0x" << std::hex << row.es;
        EXPECT_EQ(r.delta(4, recs[2]), expect ? expect->d : 0u) << "es=0x" << std::hex << row.es;
    }
    // The events Itanium does not have.
    for (int ev : {ITA_EV_FP_OPS_RETIRED, ITA_EV_L1D_READ_MISSES_RSE_FILL, ITA_EV_L2_FORCE_RECIRC_ANY,
                   ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP1_PMC9, ITA_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED})
        EXPECT_FALSE(implemented(ITA_MODEL_ITANIUM, ev)) << ita_event_table[ev].name;
    EXPECT_TRUE(implemented(ITA_MODEL_ITANIUM, ITA_EV_STORES_RETIRED));
}

TEST_P(Events, PowerGatesOnlyCyclesAndRetiredInstructions)
{
    Ref r(params(model()));
    r.start();
    // The tagged variants are the same retirement event as IA64_INST_RETIRED.
    const int gated[] = {ITA_EV_CPU_CYCLES,
                         ITA_EV_IA64_INST_RETIRED,
                         ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP1_PMC9,
                         ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP2_PMC8,
                         ITA_EV_IA64_TAGGED_INST_RETIRED_IBRP3_PMC9};
    const int free_running[] = {ITA_EV_NOPS_RETIRED, ITA_EV_FP_OPS_RETIRED, ITA_EV_LOADS_RETIRED,
                                ITA_EV_L2_FORCE_RECIRC_ANY, ITA_EV_BR_MISPRED_DETAIL_ALL_ALL_PRED,
                                ITA_EV_PREDICATE_SQUASHED_RETIRED};
    for (unsigned power = ITA_POWER_NORMAL; power <= ITA_POWER_HALT; power++) {
        ita_cycle c = record_a();
        c.power = uint8_t(power);
        const bool runs = power == ITA_POWER_NORMAL || power == ITA_POWER_LOW_POWER;
        for (int ev : gated) {
            if (!implemented(model(), ev))
                continue;
            r.program(4, event_pmc(ev, model()));
            EXPECT_EQ(r.delta(4, c), runs ? (ev == ITA_EV_CPU_CYCLES ? 1u : 6u) : 0u)
                << ita_event_table[ev].name << " power " << power;
        }
        for (int ev : free_running) {
            if (!implemented(model(), ev))
                continue;
            r.program(4, event_pmc(ev, model()));
            const EventRow *row = row_of(ev);
            unsigned expect = row ? row->a : 1u; // record a holds one branch
            EXPECT_EQ(r.delta(4, c), expect) << ita_event_table[ev].name << " power " << power;
        }
    }
}

// Every implemented event has a rule: with its largest per-cycle count it
// adds maxincr.  Fails when an event is added to the .def and the model (or
// this test) lacks its rule.
// The I-EAR on every L1I miss, the D-EAR on loads of latency 4 or more, the BTB on
// every branch.
void arm_capture_units(Ref &r, ita_model m)
{
    r.write(pmc(10), iear_cache(m, m == ITA_MODEL_ITANIUM2 ? 0x40 : 0xf));
    r.write(pmc(11), dear_cfg(m, DEAR_CACHE, 0));
    r.write(pmc(12), Btb().value());
}

TEST_P(Events, EveryEventHasARule)
{
    Ref r(params(model()));
    r.start();
    arm_capture_units(r, model());
    for (int ev = 0; ev < ITA_NEVENTS; ev++) {
        if (!implemented(model(), ev))
            continue;
        ita_cycle c;
        const unsigned maxincr = model_row(model(), ev)->maxincr;
        ASSERT_TRUE(record_with_n(ev, maxincr, &c)) << "no test rule for " << ita_event_table[ev].name;
        r.program(4, event_pmc(ev, model()));
        EXPECT_EQ(r.delta(4, c), maxincr) << ita_event_table[ev].name;
        if (maxincr > 1) {
            ASSERT_TRUE(record_with_n(ev, 1, &c));
            EXPECT_EQ(r.delta(4, c), 1u) << ita_event_table[ev].name;
            ASSERT_TRUE(record_with_n(ev, 0, &c));
            EXPECT_EQ(r.delta(4, c), 0u) << ita_event_table[ev].name;
        }
    }
}

class Threshold : public ::testing::TestWithParam<std::tuple<ita_model, int>> {};
INSTANTIATE_TEST_SUITE_P(ModelsAndComparisons, Threshold,
                         ::testing::Combine(::testing::Values(ITA_MODEL_ITANIUM, ITA_MODEL_ITANIUM2),
                                            ::testing::Values(0, 1)),
                         [](const ::testing::TestParamInfo<std::tuple<ita_model, int>> &i) {
                             return std::string(model_name(std::get<0>(i.param))) +
                                    (std::get<1>(i.param) ? "_ge" : "_gt");
                         });

TEST_P(Threshold, MaxincrMinusOne)
{
    const ita_model m = std::get<0>(GetParam());
    const int ge = std::get<1>(GetParam());
    Ref r(params(m, 1, ge));
    r.start();
    unsigned tested = 0;
    for (int ev = 0; ev < ITA_NEVENTS; ev++) {
        if (!implemented(m, ev) || model_row(m, ev)->maxincr < 2)
            continue;
        const unsigned maxincr = model_row(m, ev)->maxincr;
        const unsigned t = maxincr - 1;
        r.program(4, event_pmc(ev, m).with_thres(t));
        ita_cycle c;
        ASSERT_TRUE(record_with_n(ev, maxincr, &c));
        EXPECT_EQ(r.delta(4, c), 1u) << ita_event_table[ev].name << ": n = maxincr > t";
        ASSERT_TRUE(record_with_n(ev, t, &c));
        EXPECT_EQ(r.delta(4, c), ge ? 1u : 0u) << ita_event_table[ev].name << ": n = t";
        ASSERT_TRUE(record_with_n(ev, t - 1, &c));
        EXPECT_EQ(r.delta(4, c), 0u) << ita_event_table[ev].name << ": n < t";
        tested++;
    }
    EXPECT_GT(tested, 5u);
}

TEST_P(Threshold, SmallThresholdsAndTotals)
{
    const ita_model m = std::get<0>(GetParam());
    const int ge = std::get<1>(GetParam());
    Ref r(params(m, 1, ge));
    r.start();
    for (unsigned t = 1; t <= 3; t++) {
        r.program(5, event_pmc(ITA_EV_IA64_INST_RETIRED).with_thres(t));
        for (unsigned n = 0; n <= 6; n++) {
            ita_cycle c = cycle_with({});
            c.nslots = uint8_t(n);
            unsigned expect = ge ? (n >= t) : (n > t);
            EXPECT_EQ(r.delta(5, c), expect) << "t=" << t << " n=" << n;
        }
    }
    // The bookkeeping total adds the thresholded increment, not n.
    r.write(pmc(5), 0);
    Ref r2(params(m, 1, ge));
    r2.start();
    r2.program(4, event_pmc(ITA_EV_IA64_INST_RETIRED).with_thres(2));
    ita_cycle c = cycle_with({0, 0, 0, 0, 0});
    r2.step_n(c, 10);
    EXPECT_EQ(r2.read(pmd(4)), 10u);
    EXPECT_EQ(r2.total(4), 10u);
}

// Itanium PMC6/7 keep only thres[1:0]: a written 6 acts as 2, 5 as 1 and 4 as
// 0 (add n).  Itanium 2 keeps all three bits on every counter.
TEST_P(Threshold, ItaniumPmc67TwoBitThreshold)
{
    const ita_model m = std::get<0>(GetParam());
    const int ge = std::get<1>(GetParam());
    Ref r(params(m, 1, ge));
    r.start();
    const bool ita = m == ITA_MODEL_ITANIUM;
    // LOADS_RETIRED counts on every counter of both models (at most 2 a cycle on Itanium).
    ita_cycle two = cycle_with({LOAD, LOAD}); // n = 2
    for (unsigned ctr = 4; ctr <= 7; ctr++) {
        const bool narrow = ita && ctr >= 6;
        r.program(ctr, event_pmc(ITA_EV_LOADS_RETIRED, m).with_thres(4));
        EXPECT_EQ(r.delta(ctr, two), narrow ? 2u : 0u) << "PMC" << ctr << " thres 4";
        r.program(ctr, event_pmc(ITA_EV_LOADS_RETIRED, m).with_thres(5));
        EXPECT_EQ(r.delta(ctr, two), narrow ? 1u : 0u) << "PMC" << ctr << " thres 5, n = 2";
        r.program(ctr, event_pmc(ITA_EV_LOADS_RETIRED, m).with_thres(6));
        EXPECT_EQ(r.delta(ctr, two), narrow ? (ge ? 1u : 0u) : 0u) << "PMC" << ctr << " thres 6, n = 2";
        // The wide counters compare with all of thres 4 (IA64_INST_RETIRED counts on every
        // counter of Itanium 2 and on PMC4/5 of Itanium, which are exactly the wide ones).
        if (!narrow) {
            r.program(ctr, event_pmc(ITA_EV_IA64_INST_RETIRED, m).with_thres(4));
            EXPECT_EQ(r.delta(ctr, cycle_with({0, 0, 0, 0, 0, 0})), 1u) << "PMC" << ctr << " thres 4, n = 6";
        }
    }
}
