// drv_ev67_pme.cpp - the 21264/EV67 ProfileMe sampler (docs/ev67-profileme.md) on the
// reference model.  Under generated ev67 streams (workload and random, seeds printed),
// every interrupt's reads equal the model's sample of that window, none lost or doubled,
// the profiled instruction is the period-th fetch after each setup, and the per-PC table
// equals what the stream itself says about each profiled instruction (tracked here from
// the records, not from the registers).  Hand-built record sequences check the reset and
// handler register sequences, the ISUM race, a spurious line, PAL drops, the ITB-miss
// reading, periods, options and the inum retire delay.  Expected values are written by
// hand from docs/ev67.md and docs/ev67-profileme.md.
#include <gtest/gtest.h>

#include <cstdio>
#include <deque>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "sw/ev67/ev67_pme_drv.h"
#include "stream/ev67/ev67_stream.h"
#include "ev67_perf_test.h"

using namespace ev67perf;

namespace {

const uint32_t kCtrMask = (1u << EV67_CTR0_WIDTH) - 1;

// PCTR_CTL in ProfileMe mode from its written fields.
uint64_t pm_ctl(unsigned sl1, uint32_t c0, uint32_t c1 = 0)
{
    return EV67_FSET(pctr_ctl(sl1, c0, c1), PCTR_CTL, SL0, 1);
}

// ---- attribute names and decoding ----

TEST(Ev67PmeDecode, AttributeNames)
{
    const char *want[] = {"retired",    "taken",     "mispredict", "itb_miss", "dtb_miss",
                          "replay",     "ldst_order", "unaligned", "map_stall", "trap"};
    ASSERT_EQ(sizeof want / sizeof *want, (size_t)EV67_PME_NATTRS);
    for (unsigned a = 0; a < EV67_PME_NATTRS; a++)
        EXPECT_STREQ(ev67_pme_attr_name(a), want[a]);
    EXPECT_EQ(ev67_pme_attr_name(EV67_PME_NATTRS), nullptr);
}

uint64_t istat(unsigned type, unsigned mis = 0, unsigned lso = 0, unsigned trp = 1)
{
    uint64_t v = EV67_FSET(0, I_STAT, TRP, trp);
    v = EV67_FSET(v, I_STAT, TRAP_TYPE, type);
    v = EV67_FSET(v, I_STAT, MIS, mis);
    return EV67_FSET(v, I_STAT, LSO, lso);
}

// The attributes set by a decode, as a string of names.
std::string attrs(const ev67_pme_sample &s)
{
    std::string r;
    for (unsigned a = 0; a < EV67_PME_NATTRS; a++)
        if (s.attr[a])
            r += std::string(r.empty() ? "" : ",") + ev67_pme_attr_name(a);
    return r;
}

std::string decode(uint64_t i_stat, uint64_t ctl_flags = 0, uint64_t pmpc = 0x120004010ull)
{
    ev67_pme_sample s;
    ev67_pme_decode(pmpc, i_stat, pm_ctl(0, 3, 9) | ctl_flags, 0x1200ull, 0, &s);
    EXPECT_EQ(s.pctr0, 3u);
    EXPECT_EQ(s.pctr1, 9u);
    return attrs(s);
}

TEST(Ev67PmeDecode, EachAttributeFromItsFields)
{
    const uint64_t val = EV67_FSET(0, PCTR_CTL, VAL, 1), tak = EV67_FSET(0, PCTR_CTL, TAK, 1);
    const uint64_t stalled = EV67_FSET(0, PCTR_CTL, PM_STALLED, 1);
    EXPECT_EQ(decode(0), "");
    EXPECT_EQ(decode(0, val | stalled), "retired,map_stall");
    EXPECT_EQ(decode(0, tak), "taken");
    EXPECT_EQ(decode(istat(EV67_TRAP_INVALID1, 1), tak), "mispredict,trap") << "TAK undefined on a mispredict";
    EXPECT_EQ(decode(istat(EV67_TRAP_INVALID1, 1, 0, 0), tak), "taken") << "MIS is valid only with TRP";
    EXPECT_EQ(decode(istat(EV67_TRAP_DTB_DOUBLE_3)), "dtb_miss,trap");
    EXPECT_EQ(decode(istat(EV67_TRAP_DTB_DOUBLE_4)), "dtb_miss,trap");
    EXPECT_EQ(decode(istat(EV67_TRAP_DTB_SINGLE)), "dtb_miss,trap");
    EXPECT_EQ(decode(istat(EV67_TRAP_REPLAY)), "replay,trap");
    EXPECT_EQ(decode(istat(EV67_TRAP_REPLAY, 0, 1)), "ldst_order,trap");
    EXPECT_EQ(decode(istat(EV67_TRAP_REPLAY, 0, 1, 0)), "") << "TRAP_TYPE is valid only with TRP";
    EXPECT_EQ(decode(istat(EV67_TRAP_UNALIGNED), val), "retired,unaligned,trap");
    for (unsigned t : {EV67_TRAP_FP_DISABLED, EV67_TRAP_DFAULT, EV67_TRAP_OPCDEC, EV67_TRAP_MCHK, EV67_TRAP_ARITH,
                       EV67_TRAP_MT_FPCR, EV67_TRAP_RESET, EV67_TRAP_INVALID9, EV67_TRAP_INVALID13})
        EXPECT_EQ(decode(istat(t)), "trap") << "type " << t;
    // The ITB-miss reading needs the redirect types and PMPC[14:0] = entry | PAL.
    const uint64_t itb = 0x8000ull + 0x581;
    EXPECT_EQ(decode(istat(EV67_TRAP_INVALID9), val, itb), "itb_miss");
    EXPECT_EQ(decode(istat(EV67_TRAP_INVALID11), 0, itb), "itb_miss");
    EXPECT_EQ(decode(istat(EV67_TRAP_INVALID13), 0, itb), "itb_miss");
    EXPECT_EQ(decode(istat(EV67_TRAP_INVALID1), 0, itb), "trap") << "type 1 is not a redirect (OProfile)";
    EXPECT_EQ(decode(istat(EV67_TRAP_INVALID9, 0, 0, 0), 0, itb), "") << "no TRP";
    EXPECT_EQ(decode(istat(EV67_TRAP_INVALID9), 0, itb - 1), "trap") << "not PAL";
    EXPECT_EQ(decode(istat(EV67_TRAP_INVALID9), 0, itb + 0x100), "trap") << "the IACV entry";
}

TEST(Ev67PmeDecode, PcDropDelayAndTheItbEntry)
{
    ev67_pme_sample s;
    ev67_pme_decode(0x120004010ull, 0, pm_ctl(1, 12, 5), 0x1234ull, 0, &s);
    EXPECT_EQ(s.pc, 0x120004010ull);
    EXPECT_EQ(s.dropped, 0);
    EXPECT_EQ(s.delay, 5u) << "SL1 = 1: PCTR1 is the inum retire delay";
    ev67_pme_decode(0x120004010ull, 0, pm_ctl(0, 12, 5), 0x1234ull, 0, &s);
    EXPECT_EQ(s.delay, 0u) << "SL1 = 0: PCTR1 counts cycles";
    ev67_pme_decode(0x8101ull, istat(EV67_TRAP_REPLAY), pm_ctl(1, 12, 5), 0x1234ull, 0, &s);
    EXPECT_EQ(s.dropped, 1) << "a PALmode PC";
    EXPECT_EQ(s.pc, 0x8100ull);
    // An ITB miss is the interrupted context's, and says nothing else.
    ev67_pme_decode(0x20581ull, istat(EV67_TRAP_INVALID9), pm_ctl(1, 12, 5) | EV67_FSET(0, PCTR_CTL, VAL, 1),
                    0x1234ull, 0, &s);
    EXPECT_EQ(s.dropped, 0);
    EXPECT_EQ(s.pc, 0x1234ull);
    EXPECT_EQ(attrs(s), "itb_miss");
    EXPECT_EQ(s.delay, 0u) << "the window was the PALcode instruction's";
    EXPECT_EQ(s.pctr1, 5u) << "as read";
    // Another entry offset.
    ev67_pme_decode(0x20581ull, istat(EV67_TRAP_INVALID9), pm_ctl(0, 0), 0x1234ull, 0x600, &s);
    EXPECT_EQ(s.dropped, 1);
    ev67_pme_decode(0x20601ull, istat(EV67_TRAP_INVALID9), pm_ctl(0, 0), 0x1234ull, 0x600, &s);
    EXPECT_EQ(attrs(s), "itb_miss");
}

// ---- options, periods, the block ----

std::string create_error(pmu_backend *b, const ev67_pme_opts &o)
{
    pmu_err err = {PMU_OK, ""};
    ev67_pme *s = ev67_pme_create(b, &o, &err);
    if (s) {
        ev67_pme_destroy(s);
        return "accepted";
    }
    EXPECT_EQ(err.code, PMU_E_INPUT);
    return err.msg;
}

TEST(Ev67PmeOpts, BadOptionsAndBlocksAreRejectedNamingThem)
{
    Logged l;
    ev67_pme_opts o = {};
    o.sl1 = 4;
    EXPECT_EQ(create_error(l.backend(), o), "ProfileMe sampler: sl1 4 is out of range: expected 0..3 (PCTR_CTL.SL1)");
    o = {};
    o.itb_entry = 0x581;
    EXPECT_EQ(create_error(l.backend(), o),
              "ProfileMe sampler: itb_entry 0x581 is not a PALcode entry offset: expected a multiple of 4 "
              "below 0x8000 (it is compared with PMPC[14:0], the PAL bit added)");
    o.itb_entry = 0x8000;
    EXPECT_NE(create_error(l.backend(), o).find("itb_entry 0x8000"), std::string::npos);
    o = {};
    EXPECT_EQ(create_error(nullptr, o), "ProfileMe sampler: no counter block");
    pmu_backend other = *l.backend();
    other.nvis = 7;
    EXPECT_NE(create_error(&other, o).find("not a 21264/EV67 counter block"), std::string::npos);
    EXPECT_TRUE(l.ops.empty()) << "nothing reaches the hardware on a bad argument";
    o.itb_entry = 0x7ffc;
    o.sl1 = 3;
    EXPECT_EQ(create_error(l.backend(), o), "accepted");
}

TEST(Ev67PmeOpts, PeriodsAreClampedToTheLegalWriteRange)
{
    struct Case {
        uint32_t period, clamped;
    } cases[] = {
        {1, 16}, {15, 16}, {16, 16}, {17, 17}, {100, 100}, {0, EV67_PME_DEFAULT_PERIOD},
        {kCtrMask, kCtrMask}, {1u << 20, kCtrMask}, {~0u, kCtrMask},
    };
    for (const Case &c : cases) {
        Logged l;
        ev67_pme_opts o = {};
        o.period = c.period;
        ev67_pme *s = ev67_pme_create(l.backend(), &o, nullptr);
        ASSERT_NE(s, nullptr);
        EXPECT_EQ(ev67_pme_period(s), c.clamped) << c.period;
        uint32_t c0 = (uint32_t)EV67_FGET(l.obs(EV67_ADDR_OBS_CTR), OBS_CTR, PCTR0);
        EXPECT_EQ(c0, (1u << 20) - c.clamped) << "PCTR0 = 2^20 - period, period " << c.period;
        EXPECT_LE(c0, (uint32_t)EV67_CTR0_WMAX) << "a legal write";
        ev67_pme_destroy(s);
    }
    Logged l;
    ev67_pme *s = ev67_pme_create(l.backend(), nullptr, nullptr);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(ev67_pme_period(s), EV67_PME_DEFAULT_PERIOD) << "NULL options: the defaults";
    ev67_pme_destroy(s);
}

TEST(Ev67PmeReset, WritesThePrecautionSequence)
{
    for (unsigned sl1 = 0; sl1 < 4; sl1++) {
        Logged l;
        ev67_pme_opts o = {};
        o.period = 100;
        o.sl1 = sl1;
        ev67_pme *s = ev67_pme_create(l.backend(), &o, nullptr);
        ASSERT_NE(s, nullptr);
        const std::vector<Op> want = {
            {'w', EV67_ADDR_I_CTL, 0},
            {'w', EV67_ADDR_IER_CM, 0},
            {'w', EV67_ADDR_PCTR_CTL, pm_ctl(sl1, 0)},
            {'w', EV67_ADDR_PCTR_CTL, pm_ctl(sl1, 0)},
            {'w', EV67_ADDR_HW_INT_CLR, int_clr(3)},
            {'w', EV67_ADDR_HW_INT_CLR, int_clr(3)},
            {'w', EV67_ADDR_PCTR_CTL, pm_ctl(sl1, (1u << 20) - 100)},
            {'w', EV67_ADDR_IER_CM, pcen(1)},
            {'w', EV67_ADDR_I_CTL, i_ctl(1, 1)},
        };
        EXPECT_EQ(l.ops, want) << "sl1 " << sl1;
        ev67_pme_destroy(s);
    }
}

TEST(Ev67PmeReset, ClearsAnOldWindowsRequestAndPalExitInterrupt)
{
    ev67_params p = params();
    Logged l(&p);
    pmu_backend *r = l.ref;
    // An old ProfileMe setup: a window ended in PALmode (request pending, STOPPED), and
    // counter 1 left disabled above its legal write maximum, so the reset's first write
    // arms its PAL-exit interrupt.
    pmu_write(r, EV67_ADDR_PCTR_CTL, pm_ctl(0, 0xfffff, 0xffffe));
    pmu_write(r, EV67_ADDR_IER_CM, pcen(1));
    pmu_write(r, EV67_ADDR_I_CTL, i_ctl(1, 0));
    for (int k = 1; k <= 3; k++) {
        ev67_cycle c = cycle(1);
        c.head = 100;
        if (k == 1) { // fetches P and retires it: the window ends in step 3
            c.nfetch = 1;
            c.fetch[0].tag = 100;
            c.fetch[0].pc = EV67_GEN_PAL_BASE;
            c.fetch[0].flags = EV67_FF_PAL;
            c.nretire = 1;
            c.retire[0] = 100;
            c.head = 101;
        }
        pmu_step(r, &c);
    }
    uint64_t o = l.obs(EV67_ADDR_OBS_INT);
    ASSERT_EQ(EV67_FGET(o, OBS_INT, REQ), 1u) << "precondition: the old window's request";
    ASSERT_EQ(EV67_FGET(l.obs(EV67_ADDR_OBS_PM), OBS_PM, PHASE), (uint64_t)EV67_PM_STOPPED);
    ev67_pme *s = ev67_pme_create(l.backend(), nullptr, nullptr);
    ASSERT_NE(s, nullptr);
    o = l.obs(EV67_ADDR_OBS_INT);
    EXPECT_EQ(EV67_FGET(o, OBS_INT, REQ), 0u);
    EXPECT_EQ(EV67_FGET(o, OBS_INT, PEXIT), 0u) << "the first write found counter 1 above its maximum; HW_INT_CLR took it";
    EXPECT_EQ(EV67_FGET(o, OBS_INT, S1) | EV67_FGET(o, OBS_INT, S2), 0u);
    EXPECT_EQ(EV67_FGET(l.obs(EV67_ADDR_OBS_PM), OBS_PM, PHASE), (uint64_t)EV67_PM_ARMED);
    ev67_cycle c;
    for (int k = 0; k < 8; k++) {
        c = cycle(0);
        ev67_pme_before(s, &c);
        pmu_step(l.backend(), &c);
        ev67_pme_after(s, l.pmi());
        EXPECT_EQ(l.pmi(), 0) << "record " << k;
    }
    EXPECT_EQ(ev67_pme_get_stats(s)->interrupts, 0u);
    ev67_pme_destroy(s);
}

// ---- hand-built runs ----

const uint64_t kUser = 0x120004000ull; // tag t's pc: kUser + 4 * (t - kTag0)
const uint32_t kTag0 = 100;

// Records built in order, checked against the stream rules (ev67_stream_check), and run
// with a sampler as the harness does.
struct Hand {
    ev67_params p;
    Logged l;
    ev67_pme *s = nullptr;
    ev67_stream_check *k = ev67_stream_check_create();
    std::vector<ev67_pme_sample> got;
    std::vector<uint64_t> got_at; // the record index of each handler run
    uint64_t nrec = 0;

    explicit Hand(ev67_pme_opts o = {}, unsigned race = 0) : p(params(1, race)), l(&p)
    {
        if (!o.period)
            o.period = 16;
        o.on_sample = [](void *a, const ev67_pme_sample *smp) {
            Hand *h = static_cast<Hand *>(a);
            h->got.push_back(*smp);
            h->got_at.push_back(h->nrec);
        };
        o.sample_arg = this;
        pmu_err err = {PMU_OK, ""};
        s = ev67_pme_create(l.backend(), &o, &err);
        EXPECT_NE(s, nullptr) << err.msg;
    }
    ~Hand()
    {
        ev67_pme_destroy(s);
        ev67_stream_check_destroy(k);
    }
    static ev67_cycle rec(uint32_t head, uint8_t pal = 0, uint64_t pc = kUser)
    {
        ev67_cycle c = cycle(pal, pc);
        c.head = head;
        return c;
    }
    static void fetch(ev67_cycle &c, uint32_t tag, uint8_t flags = 0, uint64_t pc = 0, uint8_t cls = EV67_CLASS_INTOP)
    {
        ev67_fetch &f = c.fetch[c.nfetch++];
        f.tag = tag;
        f.pc = pc ? pc : kUser + 4ull * (tag - kTag0);
        f.flags = flags;
        f.cls = cls;
    }
    static void retire(ev67_cycle &c, uint32_t first, unsigned n)
    {
        for (unsigned i = 0; i < n; i++)
            c.retire[c.nretire++] = first + i;
    }
    void run(const ev67_cycle &c)
    {
        pmu_err err = {PMU_OK, ""};
        std::string where = "hand record " + std::to_string(nrec + 1);
        ASSERT_EQ(pmu_dialect_ev67.validate(&c, where.c_str(), &err), 0) << err.msg;
        ASSERT_EQ(ev67_stream_check_step(k, &c, where.c_str(), &err), 0) << err.msg;
        nrec++;
        ev67_pme_before(s, &c);
        pmu_step(l.backend(), &c);
        ev67_pme_after(s, l.pmi());
    }
    // Records 1-4: the 15 fetches before the profiled one (period 16), each retired in
    // its fetch record: tags 100..114.
    void lead_in()
    {
        for (uint32_t t = kTag0; t < kTag0 + 15; t += 4) {
            ev67_cycle c = rec(t + 4 < kTag0 + 15 ? t + 4 : kTag0 + 15);
            unsigned n = t + 4 <= kTag0 + 15 ? 4 : kTag0 + 15 - t;
            for (unsigned i = 0; i < n; i++)
                fetch(c, t + i);
            retire(c, t, n);
            c.head = t + n;
            run(c);
        }
    }
    // Record 5 fetches P = tag 115 (user), record 6 two more (the overcount, 116, 117);
    // records 7-11 nothing, record 12 retires all three (E = 12), the window is steps
    // 10..14 and ends in step 14; the handler runs at record 15.
    void plain_sample(int spurious_at = 0)
    {
        lead_in();
        ev67_cycle c = rec(115);
        fetch(c, 115);
        run(c);
        c = rec(115);
        fetch(c, 116);
        fetch(c, 117);
        run(c);
        for (int r = 7; r <= 11; r++) {
            if (r == spurious_at)
                ev67_pme_after(s, 1); // a line that is not the block's
            run(rec(115));
        }
        c = rec(118);
        retire(c, 115, 3);
        run(c);
        run(rec(118));
        run(rec(118));
        EXPECT_EQ(l.pmi(), 1) << "the window ended in step 14";
    }
};

TEST(Ev67PmeHandler, ReadsTheThreeRegistersThenRearmsWithTheDoubleWrite)
{
    for (unsigned sl1 : {0u, 1u}) {
        SCOPED_TRACE("sl1 " + std::to_string(sl1));
        ev67_pme_opts o = {};
        o.sl1 = sl1;
        Hand h(o);
        h.plain_sample();
        h.l.ops.clear();
        h.run(Hand::rec(118));
        // OVR = 2 (tags 116, 117 in step 6); window steps 10..14 (5): SL1 = 1 counts
        // cycles and the steps with head = 115 (10, 11); SL1 = 0 retires (3, step 12)
        // and cycles.
        const uint64_t i_stat = EV67_FSET(0, I_STAT, OVR, 2);
        const uint64_t ctl = EV67_FSET(sl1 ? pm_ctl(1, 2 + 5, 2) : pm_ctl(0, 2 + 3, 5), PCTR_CTL, VAL, 1);
        const std::vector<Op> want = {
            {'r', EV67_ADDR_ISUM, isum(1)},
            {'w', EV67_ADDR_I_CTL, i_ctl(0, 0)},
            {'r', EV67_ADDR_ISUM, isum(1)},
            {'r', EV67_ADDR_PMPC, kUser + 4 * 15},
            {'r', EV67_ADDR_I_STAT, i_stat},
            {'r', EV67_ADDR_PCTR_CTL, ctl},
            {'w', EV67_ADDR_PCTR_CTL, pm_ctl(sl1, (1u << 20) - 16)},
            {'w', EV67_ADDR_PCTR_CTL, pm_ctl(sl1, (1u << 20) - 16)},
            {'w', EV67_ADDR_HW_INT_CLR, int_clr(3)},
            {'w', EV67_ADDR_I_CTL, i_ctl(1, 1)},
        };
        EXPECT_EQ(h.l.ops, want);
        ASSERT_EQ(h.got.size(), 1u);
        const ev67_pme_sample &s = h.got[0];
        EXPECT_EQ(h.got_at[0], 15u) << "taken at record 15";
        EXPECT_EQ(s.pc, kUser + 4 * 15);
        EXPECT_EQ(s.dropped, 0);
        EXPECT_EQ(attrs(s), "retired");
        EXPECT_EQ(s.delay, sl1 ? 2u : 0u) << "SL1 = 1: the delay is PCTR1";
        EXPECT_EQ(s.pctr1, sl1 ? 2u : 5u);
        const ev67_pme_stats *st = ev67_pme_get_stats(h.s);
        EXPECT_EQ(st->records, 15u);
        EXPECT_EQ(st->interrupts, 1u);
        EXPECT_EQ(st->samples, 1u);
        EXPECT_EQ(st->dropped_pal + st->spurious + st->isum_zero, 0u);
        ASSERT_EQ(ev67_pme_npcs(h.s), 1u);
        const ev67_pme_pc *e = ev67_pme_pc_at(h.s, 0);
        EXPECT_EQ(e->pc, kUser + 4 * 15);
        EXPECT_EQ(e->samples, 1u);
        EXPECT_EQ(e->attr[EV67_PME_RETIRED], 1u);
        EXPECT_EQ(e->delay, sl1 ? 2u : 0u);
        EXPECT_EQ(ev67_pme_pc_at(h.s, 1), nullptr);
        // Re-armed: the request is gone and the next window is being looked for.
        EXPECT_EQ(EV67_FGET(h.l.obs(EV67_ADDR_OBS_INT), OBS_INT, REQ), 0u);
        EXPECT_EQ(EV67_FGET(h.l.obs(EV67_ADDR_OBS_PM), OBS_PM, PHASE), (uint64_t)EV67_PM_ARMED);
    }
}

TEST(Ev67PmeHandler, IsumRaceReadIsRepeatedAClockLaterAndOred)
{
    Hand h({}, 1);
    h.plain_sample();
    h.l.ops.clear();
    h.run(Hand::rec(118));
    ASSERT_GE(h.l.ops.size(), 3u);
    EXPECT_EQ(h.l.ops[0], (Op{'r', EV67_ADDR_ISUM, 0})) << "the race: step 14 raised ISUM";
    EXPECT_EQ(h.l.ops[2], (Op{'r', EV67_ADDR_ISUM, isum(1)})) << "a clock later";
    const ev67_pme_stats *st = ev67_pme_get_stats(h.s);
    EXPECT_EQ(st->isum_zero, 1u);
    EXPECT_EQ(st->samples, 1u);
    EXPECT_EQ(st->spurious, 0u);
}

TEST(Ev67PmeHandler, SpuriousLineReadsNothingAndLeavesTheWindowAlone)
{
    Hand ref_run;
    ref_run.plain_sample();
    ref_run.run(Hand::rec(118));
    Hand h;
    h.l.ops.clear();
    h.plain_sample(9); // a line passed high after record 8, mid-window
    const std::vector<Op> at9 = {
        {'r', EV67_ADDR_ISUM, 0},
        {'w', EV67_ADDR_I_CTL, i_ctl(0, 0)},
        {'r', EV67_ADDR_ISUM, 0},
        {'w', EV67_ADDR_I_CTL, i_ctl(1, 1)},
    };
    // Among the ops of the whole run (the reset's first), these are the spurious run's.
    std::vector<Op> seen(h.l.ops.begin(), h.l.ops.end());
    auto it = std::search(seen.begin(), seen.end(), at9.begin(), at9.end());
    EXPECT_NE(it, seen.end()) << "ISUM twice, no read of the sample, no PCTR_CTL write";
    h.run(Hand::rec(118));
    const ev67_pme_stats *st = ev67_pme_get_stats(h.s);
    EXPECT_EQ(st->interrupts, 2u);
    EXPECT_EQ(st->spurious, 1u);
    EXPECT_EQ(st->samples, 1u);
    ASSERT_EQ(h.got.size(), 1u);
    ASSERT_EQ(ref_run.got.size(), 1u);
    EXPECT_EQ(h.got[0].pctr_ctl, ref_run.got[0].pctr_ctl) << "the window counted as without it";
    EXPECT_EQ(h.got[0].i_stat, ref_run.got[0].i_stat);
}

// Record 5 fetches P = tag 115 at `pc` (flags), trapping with `type` and retiring in the
// same record (E = 5); records 6-7 are PAL when P is, the window ends in step 7; then
// non-PAL records at kExc (EXC_ADDR: where the redirect left) until the handler ran.
const uint64_t kExc = 0x120008880ull;

void redirect(Hand &h, uint64_t pc, uint8_t flags, int type)
{
    h.lead_in();
    const uint8_t pal = (flags & EV67_FF_PAL) != 0;
    ev67_cycle c = Hand::rec(116, pal, pc);
    Hand::fetch(c, 115, flags, pc, pal ? EV67_CLASS_PAL : EV67_CLASS_INTOP);
    if (type >= 0) {
        c.trap = 1;
        c.trap_tag = 115;
        c.trap_type = uint8_t(type);
    }
    Hand::retire(c, 115, 1);
    h.run(c);
    h.run(Hand::rec(116, pal, pc + 4));
    h.run(Hand::rec(116, pal, pc + 4));
    EXPECT_EQ(EV67_FGET(h.l.obs(EV67_ADDR_OBS_INT), OBS_INT, REQ), 1u) << "the window ended in step 7";
    for (int r = 0; r < 3; r++)
        h.run(Hand::rec(116, 0, kExc));
    EXPECT_EQ(ev67_pme_get_stats(h.s)->interrupts, 1u);
}

TEST(Ev67PmeItb, RedirectToTheItbMissEntryIsCountedAtTheInterruptedPc)
{
    Hand h;
    redirect(h, EV67_GEN_PAL_BASE + 0x580, EV67_FF_PAL, EV67_TRAP_INVALID9);
    ASSERT_EQ(h.got.size(), 1u);
    EXPECT_EQ(h.got[0].pmpc, EV67_GEN_PAL_BASE + 0x581) << "PMPC[14:0] = 0x581 (HRM Table 5-12)";
    EXPECT_EQ(h.got[0].dropped, 0) << "checked before the PAL drop";
    EXPECT_EQ(h.got[0].pc, kExc);
    EXPECT_EQ(attrs(h.got[0]), "itb_miss") << "nothing else: the rest is the PALcode instruction's";
    const ev67_pme_stats *st = ev67_pme_get_stats(h.s);
    EXPECT_EQ(st->samples, 1u);
    EXPECT_EQ(st->dropped_pal, 0u);
    ASSERT_EQ(ev67_pme_npcs(h.s), 1u);
    EXPECT_EQ(ev67_pme_pc_at(h.s, 0)->pc, kExc);
    EXPECT_EQ(ev67_pme_pc_at(h.s, 0)->attr[EV67_PME_ITB_MISS], 1u);
    EXPECT_EQ(ev67_pme_pc_at(h.s, 0)->attr[EV67_PME_RETIRED], 0u);
}

TEST(Ev67PmeItb, OtherEntriesTrapTypesAndNonPalPcsAreNotItbMisses)
{
    { // another entry offset configured: a PAL sample, dropped
        ev67_pme_opts o = {};
        o.itb_entry = 0x600;
        Hand h(o);
        redirect(h, EV67_GEN_PAL_BASE + 0x580, EV67_FF_PAL, EV67_TRAP_INVALID9);
        EXPECT_EQ(ev67_pme_get_stats(h.s)->dropped_pal, 1u);
        EXPECT_EQ(ev67_pme_npcs(h.s), 0u);
    }
    { // ... and that offset recognized
        ev67_pme_opts o = {};
        o.itb_entry = 0x600;
        Hand h(o);
        redirect(h, EV67_GEN_PAL_BASE + 0x600, EV67_FF_PAL, EV67_TRAP_INVALID13);
        ASSERT_EQ(h.got.size(), 1u);
        EXPECT_EQ(attrs(h.got[0]), "itb_miss");
    }
    { // a replay trap at the entry is not a redirect: dropped
        Hand h;
        redirect(h, EV67_GEN_PAL_BASE + 0x580, EV67_FF_PAL, EV67_TRAP_REPLAY);
        EXPECT_EQ(ev67_pme_get_stats(h.s)->dropped_pal, 1u);
        ASSERT_EQ(h.got.size(), 1u);
        EXPECT_EQ(h.got[0].dropped, 1) << "the callback sees dropped samples too";
        EXPECT_EQ(h.got[0].pc, EV67_GEN_PAL_BASE + 0x580);
    }
    { // an unaligned trap on a user instruction: attributed at its own PC
        Hand h;
        redirect(h, 0x120000100ull, 0, EV67_TRAP_UNALIGNED);
        ASSERT_EQ(h.got.size(), 1u);
        EXPECT_EQ(h.got[0].pc, 0x120000100ull);
        EXPECT_EQ(attrs(h.got[0]), "retired,unaligned,trap");
        ASSERT_EQ(ev67_pme_npcs(h.s), 1u);
        EXPECT_EQ(ev67_pme_pc_at(h.s, 0)->attr[EV67_PME_UNALIGNED], 1u);
    }
    { // a user instruction whose low bits match: no PAL bit, an ordinary trap at its PC
        Hand h;
        redirect(h, 0x120000580ull, 0, EV67_TRAP_INVALID9);
        ASSERT_EQ(h.got.size(), 1u);
        EXPECT_EQ(h.got[0].pc, 0x120000580ull);
        EXPECT_EQ(attrs(h.got[0]), "retired,trap");
        EXPECT_EQ(h.got_at[0], 8u) << "not held off: the line rose after record 7";
    }
}

TEST(Ev67PmePal, PalModeSamplesAreDroppedCountedAndTakenAfterPalMode)
{
    Hand h;
    redirect(h, EV67_GEN_PAL_BASE + 0x100, EV67_FF_PAL, -1);
    ASSERT_EQ(h.got.size(), 1u);
    EXPECT_EQ(h.got[0].dropped, 1);
    EXPECT_EQ(h.got[0].pmpc, EV67_GEN_PAL_BASE + 0x101);
    EXPECT_EQ(attrs(h.got[0]), "retired") << "decoded all the same";
    EXPECT_EQ(h.got_at[0], 9u) << "held off in PALmode: the line rose after record 8";
    const ev67_pme_stats *st = ev67_pme_get_stats(h.s);
    EXPECT_EQ(st->dropped_pal, 1u);
    EXPECT_EQ(st->samples, 0u);
    EXPECT_EQ(ev67_pme_npcs(h.s), 0u);
}

// ---- generated streams ----

const uint64_t kSeeds[] = {1, 0x5eed67ull, 20240611ull};
const uint64_t kRecords = 12000;

int32_t serial(uint32_t a, uint32_t b) { return (int32_t)(a - b); }

// What the stream says about each instruction, by tag (ev67_cycle.h R1-R8).
struct Ins {
    uint64_t pc = 0;
    uint8_t cls = 0, flags = 0;
    uint64_t fetch = 0, trap = 0, end = 0, retire = 0, stall = 0; // steps (0: none)
    uint8_t type = 0, mis = 0, lso = 0;
};

struct Tracker {
    std::unordered_map<uint32_t, Ins> ins;
    std::deque<uint32_t> inflight; // fetch order
    std::vector<uint32_t> head{0}; // by step
    void end(uint32_t t, uint64_t k)
    {
        if (!ins[t].end)
            ins[t].end = k;
        for (auto it = inflight.begin(); it != inflight.end(); ++it)
            if (*it == t) {
                inflight.erase(it);
                break;
            }
    }
    void step(uint64_t k, const ev67_cycle &c)
    {
        for (unsigned i = 0; i < c.nfetch; i++) {
            Ins &n = ins[c.fetch[i].tag];
            n = Ins();
            n.pc = c.fetch[i].pc;
            n.cls = c.fetch[i].cls;
            n.flags = c.fetch[i].flags;
            n.fetch = k;
            inflight.push_back(c.fetch[i].tag);
        }
        for (unsigned i = 0; i < c.nstall; i++) {
            Ins &n = ins[c.stall_first + i];
            if (!n.stall)
                n.stall = k;
        }
        if (c.trap) {
            Ins &n = ins[c.trap_tag];
            if (!n.trap) {
                n.trap = k;
                n.type = c.trap_type;
                n.mis = c.trap_mis;
                n.lso = c.trap_lso;
            }
        }
        for (unsigned i = 0; i < c.nretire; i++) {
            ins[c.retire[i]].retire = k;
            end(c.retire[i], k);
        }
        for (unsigned i = 0; i < c.nsquash; i++)
            end(c.squash[i], k);
        if (c.abort)
            while (!inflight.empty() && serial(inflight.back(), c.abort_first) >= 0)
                end(inflight.back(), k);
        head.push_back(c.head);
    }
};

// The sample the stream predicts for profiled instruction `tag` (docs/ev67.md
// "ProfileMe": the end event E is the first trap, retire, squash or abort; the window's
// last step is E + 2; stalls and the trap count up to E, the retire up to E + 2; the
// delay is the window steps s+5..E+2 with head = tag; docs/ev67-profileme.md for the
// attributes), interrupted at `at_pc`.
struct Expect {
    uint64_t pc = 0, end_step = 0;
    bool dropped = false;
    uint8_t attr[EV67_PME_NATTRS] = {};
    uint32_t delay = 0;
};

Expect expect(const Tracker &tr, uint32_t tag, unsigned sl1, uint64_t at_pc)
{
    Expect x;
    const Ins &n = tr.ins.at(tag);
    uint64_t e = n.trap && (!n.end || n.trap < n.end) ? n.trap : n.end;
    EXPECT_NE(e, 0u) << "tag " << tag << " never ended";
    const bool pal = (n.flags & EV67_FF_PAL) != 0;
    const bool trp = n.trap != 0;
    x.end_step = e + EV67_LIM_PME_END;
    const bool redirect = n.type == EV67_TRAP_INVALID9 || n.type == EV67_TRAP_INVALID11 ||
                          n.type == EV67_TRAP_INVALID13;
    if (pal && trp && redirect && (n.pc & 0x7ffcull) == EV67_PME_ITB_ENTRY_DEFAULT) {
        x.pc = at_pc;
        x.attr[EV67_PME_ITB_MISS] = 1;
        return x;
    }
    x.pc = n.pc;
    x.dropped = pal;
    const bool mis = trp && n.mis;
    x.attr[EV67_PME_RETIRED] = n.retire && n.retire <= x.end_step;
    x.attr[EV67_PME_TAKEN] = (n.flags & EV67_FF_TAKEN) && !mis;
    x.attr[EV67_PME_MISPREDICT] = mis;
    x.attr[EV67_PME_DTB_MISS] = trp && (n.type == 2 || n.type == 3 || n.type == 6);
    x.attr[EV67_PME_REPLAY] = trp && n.type == 0 && !n.lso;
    x.attr[EV67_PME_LDST_ORDER] = trp && n.type == 0 && n.lso;
    x.attr[EV67_PME_UNALIGNED] = trp && n.type == 5;
    x.attr[EV67_PME_MAP_STALL] = n.stall && n.stall <= e;
    x.attr[EV67_PME_TRAP] = trp;
    if (sl1 == 1)
        for (uint64_t k = n.fetch + EV67_LIM_PME_OPEN; k <= x.end_step; k++)
            x.delay += tr.head[k] == tag;
    return x;
}

struct Totals {
    uint64_t attr[EV67_PME_NATTRS] = {}, dropped = 0, samples = 0, delay = 0, isum_zero = 0;
};

struct StreamRun {
    pmu_backend *b = nullptr;
    Tracker tr;
    unsigned sl1 = 0;
    uint32_t period = 0;
    const ev67_cycle *cur = nullptr;
    uint64_t handled = 0, step = 0;
    uint64_t fetched = 0;   // valid fetches since the last setup
    bool armed = true;      // the period-th fetch since the setup not yet seen
    std::vector<uint32_t> want_tag;
    std::map<uint64_t, ev67_pme_pc> want_pcs;
    Totals t;
    unsigned failures = 0;

    static void on_sample(void *a, const ev67_pme_sample *s) { static_cast<StreamRun *>(a)->check(*s); }

    void check(const ev67_pme_sample &s)
    {
        // 1. One model window per handled interrupt, in order: none lost or doubled.
        handled++;
        const uint64_t n = ev67_ref_nsamples(b);
        if (n != handled && failures++ < 3)
            ADD_FAILURE() << "record " << step << ": sample " << handled << ", model windows " << n;
        ev67_pm_sample m;
        if (ev67_ref_sample(b, handled - 1, &m) != 0) {
            ADD_FAILURE() << "model sample " << handled - 1 << " not kept";
            return;
        }
        // The reads equal the registers right after the window's end: nothing counts
        // after a window (STOPPED), and the handler read PCTR_CTL right after its
        // disable write, whose clock zeroes the disabled-read increment (docs/ev67.md,
        // precaution 5), so the read shows the true counts the model keeps.
        if ((s.pmpc != m.pmpc || s.i_stat != m.i_stat || s.pctr_ctl != m.pctr_ctl) && failures++ < 3)
            ADD_FAILURE() << "record " << step << " sample " << handled - 1 << ": pmpc 0x" << std::hex << s.pmpc
                          << "/0x" << m.pmpc << " i_stat 0x" << s.i_stat << "/0x" << m.i_stat << " pctr_ctl 0x"
                          << s.pctr_ctl << "/0x" << m.pctr_ctl << std::dec;
        // The profiled instruction is the period-th valid fetch after the last setup.
        if (handled - 1 < want_tag.size() && m.tag != want_tag[handled - 1] && failures++ < 3)
            ADD_FAILURE() << "sample " << handled - 1 << ": tag " << m.tag << ", the period-th fetch was "
                          << want_tag[handled - 1];
        // 2. The attributes the stream gives that tag.
        Expect x = expect(tr, m.tag, sl1, cur->pc);
        EXPECT_EQ(x.end_step, m.end_step) << "tag " << m.tag;
        EXPECT_EQ(s.dropped, x.dropped) << "tag " << m.tag;
        EXPECT_EQ(s.pc, x.pc) << "tag " << m.tag;
        EXPECT_EQ(s.delay, sl1 == 1 && !s.attr[EV67_PME_ITB_MISS] ? s.pctr1 : 0u) << "tag " << m.tag;
        for (unsigned a = 0; a < EV67_PME_NATTRS; a++)
            if (s.attr[a] != x.attr[a] && failures++ < 5)
                ADD_FAILURE() << "tag " << m.tag << " pc 0x" << std::hex << x.pc << std::dec << ": "
                              << ev67_pme_attr_name(a) << " " << int(s.attr[a]) << ", the stream says "
                              << int(x.attr[a]);
        if (x.dropped) {
            t.dropped++;
        } else {
            ev67_pme_pc &e = want_pcs[x.pc];
            e.pc = x.pc;
            e.samples++;
            for (unsigned a = 0; a < EV67_PME_NATTRS; a++)
                e.attr[a] += x.attr[a];
            e.delay += x.delay;
        }
        // The handler set the next sample up before this record is stepped.
        fetched = 0;
        armed = true;
    }

    void count_fetches(const ev67_cycle &c)
    {
        for (unsigned i = 0; i < c.nfetch && armed; i++)
            if (++fetched == period) {
                want_tag.push_back(c.fetch[i].tag);
                armed = false;
            }
    }
};

void run_stream(uint64_t seed, pmu_gen_mode mode, unsigned sl1, uint32_t period, const ev67_params &p, Totals &all,
                uint64_t records = kRecords)
{
    const std::string what = "seed " + std::to_string(seed) + (mode == PMU_GEN_RANDOM ? " random" : " workload") +
                             " sl1 " + std::to_string(sl1) + " period " + std::to_string(period) + " quirk " +
                             std::to_string(p.read_quirk) + " race " + std::to_string(p.isum_race);
    SCOPED_TRACE(what);
    pmu_err err = {PMU_OK, ""};
    StreamRun r;
    r.sl1 = sl1;
    r.b = ev67_ref_new(&p, &err);
    ASSERT_NE(r.b, nullptr) << err.msg;
    ev67_pme_opts o = {};
    o.period = period;
    o.sl1 = sl1;
    o.on_sample = StreamRun::on_sample;
    o.sample_arg = &r;
    ev67_pme *s = ev67_pme_create(r.b, &o, &err);
    ASSERT_NE(s, nullptr) << err.msg;
    r.period = ev67_pme_period(s);
    pmu_gen_opts go = {};
    go.seed = seed;
    go.cycles = records;
    go.mode = mode;
    pmu_gen *g = pmu_gen_create(&pmu_dialect_ev67, &go, &err);
    ASSERT_NE(g, nullptr) << err.msg;
    ev67_cycle c;
    pmu_state st;
    while (pmu_gen_next(g, &c) == 1) {
        r.cur = &c;
        r.step++;
        ev67_pme_before(s, &c); // may take a sample and set the next one up
        r.tr.step(r.step, c);
        r.count_fetches(c);
        pmu_step(r.b, &c);
        pmu_snapshot(r.b, &st);
        ev67_pme_after(s, st.pmi);
    }
    EXPECT_EQ(r.step, records);
    // Every window that ended was handled, but one whose interrupt is still pending.
    const uint64_t pending = EV67_FGET(pmu_read(r.b, EV67_ADDR_OBS_INT), OBS_INT, REQ) & 1u;
    EXPECT_EQ(r.handled + pending, ev67_ref_nsamples(r.b));
    EXPECT_GE(r.handled, 20u) << "the run exercises the handler";
    const ev67_pme_stats *ps = ev67_pme_get_stats(s);
    EXPECT_EQ(ps->records, records);
    EXPECT_EQ(ps->spurious, 0u);
    EXPECT_EQ(ps->interrupts, r.handled);
    EXPECT_EQ(ps->samples + ps->dropped_pal, r.handled);
    EXPECT_EQ(ps->dropped_pal, r.t.dropped);
    EXPECT_EQ(ps->table_full, 0u);
    // 2. The per-PC table equals the stream's account, in ascending pc.
    EXPECT_EQ(ev67_pme_npcs(s), r.want_pcs.size());
    unsigned i = 0;
    for (const auto &kv : r.want_pcs) {
        const ev67_pme_pc *e = ev67_pme_pc_at(s, i++);
        ASSERT_NE(e, nullptr);
        const ev67_pme_pc &w = kv.second;
        EXPECT_EQ(e->pc, w.pc);
        EXPECT_EQ(e->samples, w.samples) << "pc 0x" << std::hex << w.pc;
        EXPECT_EQ(e->delay, w.delay) << "pc 0x" << std::hex << w.pc;
        for (unsigned a = 0; a < EV67_PME_NATTRS; a++) {
            EXPECT_EQ(e->attr[a], w.attr[a]) << "pc 0x" << std::hex << w.pc << " " << ev67_pme_attr_name(a);
            all.attr[a] += e->attr[a];
        }
        all.samples += e->samples;
        all.delay += e->delay;
    }
    EXPECT_EQ(ev67_pme_pc_at(s, i), nullptr);
    all.dropped += ps->dropped_pal;
    all.isum_zero += ps->isum_zero;
    pmu_gen_destroy(g);
    ev67_pme_destroy(s);
    pmu_destroy(r.b);
}

void run_all(const ev67_params &p, const std::vector<uint32_t> &periods, Totals &all)
{
    for (uint64_t seed : kSeeds) {
        std::printf("[ seed     ] %llu\n", (unsigned long long)seed);
        for (pmu_gen_mode mode : {PMU_GEN_WORKLOAD, PMU_GEN_RANDOM})
            for (unsigned sl1 = 0; sl1 < 4; sl1++)
                for (uint32_t period : periods)
                    run_stream(seed, mode, sl1, period, p, all);
    }
}

TEST(Ev67PmeStream, SamplesEqualTheModelsAndAttributesMatchTheStream)
{
    Totals all;
    run_all(params(), {1, 37, 200}, all);
    // The streams exercise every attribute, PAL drops and the delay; but the ITB miss
    // and the unaligned trap: the generator puts no PAL instruction with a redirect type
    // at the entry, and makes few unaligned traps (1 memory fault in 11), none of them on
    // a profiled instruction with these seeds.  Both are hand-built above.
    for (unsigned a = 0; a < EV67_PME_NATTRS; a++)
        if (a != EV67_PME_ITB_MISS && a != EV67_PME_UNALIGNED) {
            EXPECT_GE(all.attr[a], 3u) << ev67_pme_attr_name(a);
        }
    EXPECT_GE(all.dropped, 5u);
    EXPECT_GE(all.delay, 5u);
    EXPECT_GE(all.samples, 1000u);
}

TEST(Ev67PmeStream, UnderTheIsumRaceAndWithoutTheReadQuirk)
{
    Totals all;
    run_all(params(1, 1, 1), {16}, all);
    EXPECT_GT(all.isum_zero, 0u) << "the race hit the first ISUM read";
    Totals q0;
    run_all(params(0, 0, 1), {16}, q0);
    EXPECT_GE(q0.samples, 100u);
}

} // namespace

