/*
 * lib_tables_test.cpp - the event library over the full event tables of both models:
 * every event encoded once, random event sets against an oracle written here, libpfm-3's
 * counter-assignment rules and their errors, and the EAR/BTB methods 1-4.
 *
 * The expected register values are built from the bit layouts of the Itanium 2 and
 * Itanium manuals' PMC descriptions as libpfm-3's pfmlib_itanium2.h / pfmlib_itanium.h
 * give them (docs/ita-register-map.md), with literal bit positions, not with the .def's field
 * macros the library uses.
 */
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "sw/ita/ita_evlib.h"
#include "lib_test_util.h"

using namespace pmutest;

namespace {

constexpr ita_model kIta = ITA_MODEL_ITANIUM, kIta2 = ITA_MODEL_ITANIUM2;
using Writes = std::vector<std::pair<uint16_t, uint64_t>>;

uint16_t pmc(unsigned i) { return ITA_ADDR(ITA_SPACE_PMC, i); }

bool is_ear_type(unsigned t) { return t >= ITA_EVT_IEAR_TLB; }
bool is_iear_type(unsigned t) { return t == ITA_EVT_IEAR_TLB || t == ITA_EVT_IEAR_CACHE; }
bool is_dear_type(unsigned t) { return t >= ITA_EVT_DEAR_TLB; }

/* PMC4..7: plm 3:0, oi 5, pm 6, es 15:8, umask 19:16, thres 22:20, Itanium 2 PMC4
 * enable 23 (reads 1), ism 25:24. */
uint64_t counter_value(ita_model m, unsigned k, const ita_event_row &r, unsigned plm, unsigned thres, unsigned ism,
                       bool pm)
{
    uint64_t umask = is_ear_type(r.type) ? 0 : r.umask; /* an EAR event's umask is the EAR's */
    uint64_t v = plm | 1u << 5 | (uint64_t)pm << 6 | (uint64_t)r.code << 8 | umask << 16 | (uint64_t)thres << 20 |
                 (uint64_t)ism << 24;
    if (m == kIta2 && k == 4)
        v |= 1u << 23;
    return v;
}

/* The mode an EAR event's type selects: 0 cache, 1 TLB, 2 ALAT (libpfm's ear_mode). */
unsigned ear_mode_of(unsigned t)
{
    return t == ITA_EVT_IEAR_TLB || t == ITA_EVT_DEAR_TLB ? 1u : t == ITA_EVT_DEAR_ALAT ? 2u : 0u;
}

/* I-EAR, Itanium 2: plm 3:0, pm 4, umask 12:5 (TLB: 11:5), ct 13:12 (cache 1x, TLB 00),
 * ism 15:14.  Itanium: plm, pm 6, tlb 7, umask 19:16, ism 25:24. */
uint64_t iear_value(ita_model m, unsigned mode, unsigned umask, unsigned plm, unsigned ism, bool pm)
{
    if (m == kIta)
        return plm | (uint64_t)pm << 6 | (uint64_t)(mode == 1) << 7 | (uint64_t)umask << 16 | (uint64_t)ism << 24;
    return plm | (uint64_t)pm << 4 | (uint64_t)umask << 5 | (uint64_t)(mode == 1 ? 0 : 1) << 13 |
           (uint64_t)ism << 14;
}

/* D-EAR, Itanium 2: plm, pm 6, mode 8:7, umask 19:16, ism 25:24.  Itanium: tlb 7 and pt 28
 * (1: no data-range check, its reset value). */
uint64_t dear_value(ita_model m, unsigned mode, unsigned umask, unsigned plm, unsigned ism, bool pm)
{
    uint64_t v = plm | (uint64_t)pm << 6 | (uint64_t)umask << 16 | (uint64_t)ism << 24;
    if (m == kIta)
        return v | (uint64_t)(mode == 1) << 7 | 1ull << 28;
    return v | (uint64_t)mode << 7;
}

/* BTB recording every branch: tm = ptm = ppm = 3 (bits 9:8, 11:10, 13:12); Itanium 2 ds 7
 * = 0, brt 15:14 = 0; Itanium tar 7, bpt 14, bac 15 = 1. */
uint64_t btb_all_value(ita_model m, unsigned plm, bool pm)
{
    uint64_t v = plm | (uint64_t)pm << 6 | 0x3f00;
    return m == kIta ? v | 1u << 7 | 1u << 14 | 1u << 15 : v;
}

const ita_event_row *row_named(ita_model m, const char *name)
{
    const ita_event_row *r = ita_event_find(m, name);
    EXPECT_NE(nullptr, r) << name;
    return r;
}

int id_of(const ita_event_row &r) { return ev_id(r.name); }

std::string writes_text(const ita_evlib_dispatch &d)
{
    std::string s;
    char buf[64];
    for (unsigned i = 0; i < d.nwrites; i++) {
        snprintf(buf, sizeof buf, " 0x%03x=0x%" PRIx64, d.writes[i].addr, d.writes[i].value);
        s += buf;
    }
    return s;
}

void expect_writes(const ita_evlib_dispatch &d, const Writes &want, const std::string &what)
{
    ASSERT_EQ(want.size(), d.nwrites) << what << ":" << writes_text(d);
    for (size_t i = 0; i < want.size(); i++) {
        EXPECT_EQ(want[i].first, d.writes[i].addr) << what << " write #" << i << ":" << writes_text(d);
        EXPECT_EQ(want[i].second, d.writes[i].value) << what << " write #" << i << ":" << writes_text(d);
    }
}

/* ---- the oracle --------------------------------------------------------------------- */

struct Ev {
    const ita_event_row *row;
    unsigned plm, thres, ism; /* ism: the field value (0 both, 1 IA-32 only, 2 IA-64 only) */
    bool pm;
};

const ita_evlib_ism kIsmOfField[3] = {ITA_EVLIB_ISM_BOTH, ITA_EVLIB_ISM_IA32, ITA_EVLIB_ISM_IA64};

/* libpfm-3 valid_assign() as its comments state it: every event on an allowed counter
 * (Itanium PMC6/7: 2-bit threshold), an L1D-group event on PMC5, an L2-group event on
 * PMC4, and unless the PMC4 event's L2 set is 1 or 2, no other L2 event with a different
 * non-zero umask. */
bool valid(ita_model m, const std::vector<Ev> &ev, const std::vector<unsigned> &as)
{
    bool l1d = false, l2 = false, l1d5 = false;
    int on4 = -1;
    for (size_t i = 0; i < ev.size(); i++) {
        const ita_event_row &r = *ev[i].row;
        if (!(r.counters >> as[i] & 1u) || (m == kIta && as[i] >= 6 && ev[i].thres > 3))
            return false;
        if (m != kIta2)
            continue;
        l1d |= r.group == 1;
        l2 |= r.group == 2;
        if (r.group == 1 && as[i] == 5)
            l1d5 = true;
        if (r.group == 2 && as[i] == 4)
            on4 = (int)i;
    }
    if ((l1d && !l1d5) || (l2 && on4 < 0))
        return false;
    if (on4 >= 0 && ev[on4].row->set != 1 && ev[on4].row->set != 2)
        for (size_t i = 0; i < ev.size(); i++)
            if ((int)i != on4 && ev[i].row->group == 2 && ev[i].row->umask && ev[i].row->umask != ev[on4].row->umask)
                return false;
    return true;
}

/* The first valid assignment in order (event 0's lowest counter first, ...). */
bool first_assignment(ita_model m, const std::vector<Ev> &ev, std::vector<unsigned> &as, size_t i, unsigned taken)
{
    if (i == ev.size())
        return valid(m, ev, as);
    for (unsigned k = 4; k < 8; k++) {
        if (taken >> k & 1u)
            continue;
        as[i] = k;
        if (first_assignment(m, ev, as, i + 1, taken | 1u << k))
            return true;
    }
    return false;
}

/* What dispatch must answer for `ev` alone (no ranges, no matchers): an error code, or
 * the writes. */
ita_evlib_err oracle(ita_model m, const std::vector<Ev> &ev, Writes &writes)
{
    if (m == kIta2) {
        for (size_t i = 0; i < ev.size(); i++)
            for (size_t j = 0; j < i; j++)
                if (ev[i].row->group && ev[i].row->group == ev[j].row->group && ev[i].row->set != ev[j].row->set)
                    return ITA_EVLIB_ERR_INCOMPATIBLE_SETS;
        unsigned cancels = 0;
        for (const Ev &e : ev)
            for (const char *n : {"L2_OZQ_CANCELS0_ANY", "L2_OZQ_CANCELS1_REL", "L2_OZQ_CANCELS2_ACQ"})
                cancels += e.row->code == row_named(kIta2, n)->code;
        if (cancels > 1)
            return ITA_EVLIB_ERR_BAD_ARG;
    }
    std::vector<unsigned> as(ev.size());
    if (!first_assignment(m, ev, as, 0, 0))
        return ITA_EVLIB_ERR_NO_COUNTER;
    int iear = -1, dear = -1, btb = -1;
    for (size_t i = ev.size(); i-- > 0;) {
        unsigned t = ev[i].row->type;
        iear = is_iear_type(t) ? (int)i : iear;
        dear = is_dear_type(t) ? (int)i : dear;
        btb = t == ITA_EVT_BTB ? (int)i : btb;
    }
    /* The events of one EAR must ask for one configuration: mode (type), umask, plm, pm. */
    for (size_t i = 0; i < ev.size(); i++) {
        int first = is_iear_type(ev[i].row->type) ? iear : is_dear_type(ev[i].row->type) ? dear : -1;
        if (first >= 0 && (ev[i].row->type != ev[first].row->type || ev[i].row->umask != ev[first].row->umask ||
                           ev[i].plm != ev[first].plm || ev[i].pm != ev[first].pm))
            return ITA_EVLIB_ERR_EVENT_INCOMPATIBLE;
    }
    if (m == kIta2 && dear >= 0 && btb >= 0 && ear_mode_of(ev[dear].row->type) != 0)
        return ITA_EVLIB_ERR_EVENT_INCOMPATIBLE;
    writes.clear();
    auto ear = [&](int i, bool d) {
        const Ev &e = ev[i];
        unsigned mode = ear_mode_of(e.row->type);
        return d ? dear_value(m, mode, e.row->umask, e.plm, 0, e.pm) : iear_value(m, mode, e.row->umask, e.plm, 0, e.pm);
    };
    if (m == kIta && dear >= 0) /* Itanium: PMC11 goes with the qualification registers */
        writes.push_back({pmc(11), ear(dear, true)});
    if (iear >= 0)
        writes.push_back({pmc(10), ear(iear, false)});
    if (m == kIta2 && dear >= 0)
        writes.push_back({pmc(11), ear(dear, true)});
    if (btb >= 0)
        writes.push_back({pmc(12), btb_all_value(m, ev[btb].plm, ev[btb].pm)});
    for (unsigned k = 4; k < 8; k++)
        for (size_t i = 0; i < ev.size(); i++)
            if (as[i] == k)
                writes.push_back({pmc(k), counter_value(m, k, *ev[i].row, ev[i].plm, ev[i].thres, ev[i].ism, ev[i].pm)});
    return ITA_EVLIB_OK;
}

ita_evlib_request request(ita_model m, const std::vector<Ev> &ev)
{
    ita_evlib_request rq = ita_evlib_request_init(m);
    for (const Ev &e : ev) {
        ita_evlib_event_spec &s = rq.events[rq.nevents++];
        s.event = id_of(*e.row);
        s.plm = e.plm;
        s.thres = e.thres;
        s.ism = kIsmOfField[e.ism];
        s.pm = e.pm;
    }
    return rq;
}

std::string describe(ita_model m, const std::vector<Ev> &ev)
{
    std::string s = m == kIta ? "Itanium:" : "Itanium 2:";
    for (const Ev &e : ev)
        s += std::string(" ") + e.row->name + ":plm=" + std::to_string(e.plm) + ":thres=" + std::to_string(e.thres) +
             ":ism=" + std::to_string(e.ism) + (e.pm ? ":pm" : "");
    return s;
}

void check_against_oracle(ita_model m, const std::vector<Ev> &ev, const std::string &extra)
{
    Writes want;
    ita_evlib_err code = oracle(m, ev, want);
    ita_evlib_request rq = request(m, ev);
    ita_evlib_dispatch d;
    ita_evlib_error err;
    ita_evlib_err got = ita_evlib_dispatch_request(&rq, &d, &err);
    std::string what = describe(m, ev) + extra;
    ASSERT_EQ(code, got) << what << ": " << err.msg;
    if (code == ITA_EVLIB_OK)
        expect_writes(d, want, what);
    else
        EXPECT_NE('\0', err.msg[0]) << what;
}

/* ---- every event ------------------------------------------------------------------- */

TEST(Tables, EveryEventOfBothTablesEncodes)
{
    for (ita_model m : {kIta2, kIta}) {
        unsigned n;
        const ita_event_row *rows = ita_event_rows(m, &n);
        EXPECT_EQ(m == kIta2 ? 497u : 230u, n);
        for (unsigned i = 0; i < n; i++) {
            /* Vary plm, threshold, ism and pm over the rows. */
            Ev e{&rows[i], 1 + i % 15, rows[i].maxincr > 1 ? i % rows[i].maxincr : 0, i % 3, i % 4 == 1};
            check_against_oracle(m, {e}, "");
        }
    }
}

/* Spot checks of the tables' values as libpfm-3's tables have them. */
TEST(Tables, KnownCodes)
{
    EXPECT_EQ(0x6c, row_named(kIta, "LOADS_RETIRED")->code);
    EXPECT_EQ(0x30, row_named(kIta, "NOPS_RETIRED")->code);
    EXPECT_EQ(0x23, row_named(kIta, "INSTRUCTION_EAR_EVENTS")->code);
    EXPECT_EQ(0x67, row_named(kIta, "DATA_EAR_EVENTS")->code);
    EXPECT_EQ(0x43, row_named(kIta2, "L1I_EAR_EVENTS")->code);
    EXPECT_EQ(0xc8, row_named(kIta2, "DATA_EAR_EVENTS")->code);
    EXPECT_EQ(0x11, row_named(kIta2, "BRANCH_EVENT")->code);
    EXPECT_EQ(0x30, row_named(kIta, "NOPS_RETIRED")->counters); /* PMC4/5 only on Itanium */
}

/* ---- random event sets ------------------------------------------------------------- */

TEST(Tables, RandomEventSetsMatchTheOracle)
{
    const uint64_t seed = test_seed(21);
    Rng r(seed);
    unsigned ok = 0, refused[ITA_EVLIB_NERRS] = {0};
    for (uint64_t it = 0; it < scaled(600); it++) {
        ita_model m = r.below(3) ? kIta2 : kIta;
        unsigned n;
        const ita_event_row *rows = ita_event_rows(m, &n);
        std::vector<const ita_event_row *> special; /* EAR, BTB and cache-group events */
        for (unsigned i = 0; i < n; i++)
            if (rows[i].type != ITA_EVT_NORMAL || rows[i].group)
                special.push_back(&rows[i]);
        std::vector<Ev> ev(1 + r.below(4));
        for (Ev &e : ev) {
            e.row = r.below(3) == 0 ? special[r.below(special.size())] : &rows[r.below(n)];
            e.plm = 1 + (unsigned)r.below(15);
            e.thres = (unsigned)r.below(e.row->maxincr);
            e.ism = (unsigned)r.below(3);
            e.pm = r.below(2);
        }
        check_against_oracle(m, ev, "; " + replay(seed, "Tables.RandomEventSetsMatchTheOracle"));
        if (HasFatalFailure())
            return;
        Writes w;
        ita_evlib_err e = oracle(m, ev, w);
        e == ITA_EVLIB_OK ? ok++ : refused[e]++;
    }
    printf("[ info ] seed %" PRIu64 ": %u encoded; refused: %u sets, %u no-counter, %u cancels, %u EAR/BTB\n", seed,
           ok, refused[ITA_EVLIB_ERR_INCOMPATIBLE_SETS], refused[ITA_EVLIB_ERR_NO_COUNTER], refused[ITA_EVLIB_ERR_BAD_ARG],
           refused[ITA_EVLIB_ERR_EVENT_INCOMPATIBLE]);
    /* Every outcome occurs, so each rule was exercised. */
    EXPECT_GT(ok, 100u);
    EXPECT_GT(refused[ITA_EVLIB_ERR_INCOMPATIBLE_SETS], 0u);
    EXPECT_GT(refused[ITA_EVLIB_ERR_NO_COUNTER], 0u);
}

/* ---- the rules' errors ------------------------------------------------------------- */

ita_evlib_err dispatch(const ita_evlib_request &rq, ita_evlib_dispatch &d, ita_evlib_error &err)
{
    return ita_evlib_dispatch_request(&rq, &d, &err);
}

ita_evlib_request names(ita_model m, std::initializer_list<const char *> evs)
{
    ita_evlib_request rq = ita_evlib_request_init(m);
    for (const char *n : evs) {
        rq.events[rq.nevents].event = ev_id(n);
        rq.events[rq.nevents++].plm = 8;
    }
    return rq;
}

void expect_refused(const ita_evlib_request &rq, ita_evlib_err code, const char *text)
{
    ita_evlib_dispatch d;
    ita_evlib_error err;
    EXPECT_EQ(code, dispatch(rq, d, err)) << err.msg;
    EXPECT_NE(nullptr, std::strstr(err.msg, text)) << err.msg;
}

TEST(Rules, SetsOfOneGroup)
{
    /* libpfm-3 EVTSET: two sets of the L2 group. */
    unsigned n;
    const ita_event_row *rows = ita_event_rows(kIta2, &n);
    const ita_event_row *a = nullptr, *b = nullptr;
    for (unsigned i = 0; i < n && !b; i++)
        if (rows[i].group == 2 && !a)
            a = &rows[i];
        else if (a && rows[i].group == 2 && rows[i].set != a->set)
            b = &rows[i];
    ASSERT_TRUE(a && b);
    expect_refused(names(kIta2, {a->name, b->name}), ITA_EVLIB_ERR_INCOMPATIBLE_SETS, "different sets");
    expect_refused(names(kIta2, {"LOADS_RETIRED", "STORES_RETIRED"}), ITA_EVLIB_ERR_INCOMPATIBLE_SETS, "L1D set 3");
}

TEST(Rules, L2UmaskOfThePmc4Event)
{
    /* Two L2 events of one set other than 1 and 2 with different non-zero umasks, not
     * L2_OZQ_CANCELS*: whichever sits on PMC4 fixes the umask, so no assignment works
     * (libpfm-3 NOASSIGN).  With one of them umask 0 it works. */
    unsigned n;
    const ita_event_row *rows = ita_event_rows(kIta2, &n);
    const ita_event_row *a = nullptr, *b = nullptr, *zero = nullptr;
    auto usable = [](const ita_event_row &r) {
        return r.group == 2 && r.set != 1 && r.set != 2 && r.counters == 0xf0 && std::strncmp(r.name, "L2_OZQ_CANCELS", 14);
    };
    for (unsigned i = 0; i < n && !b; i++) {
        if (!usable(rows[i]) || !rows[i].umask)
            continue;
        if (!a)
            a = &rows[i];
        else if (rows[i].set == a->set && rows[i].umask != a->umask)
            b = &rows[i];
    }
    ASSERT_TRUE(a && b);
    for (unsigned i = 0; i < n; i++)
        if (usable(rows[i]) && rows[i].set == a->set && rows[i].umask == 0 && rows[i].code != a->code)
            zero = &rows[i];
    expect_refused(names(kIta2, {a->name, b->name}), ITA_EVLIB_ERR_NO_COUNTER, "PMC");
    ASSERT_TRUE(zero);
    /* Both orders, with the same writes: the umask event on PMC4 (libpfm-3's pre-check
     * refuses the umask-0 event first; ita-event-library.md, where we differ). */
    ita_evlib_dispatch d, rev;
    ita_evlib_error err;
    ASSERT_EQ(ITA_EVLIB_OK, dispatch(names(kIta2, {a->name, zero->name}), d, err)) << err.msg;
    EXPECT_EQ(4u, d.counter[0]) << a->name;
    ASSERT_EQ(ITA_EVLIB_OK, dispatch(names(kIta2, {zero->name, a->name}), rev, err)) << err.msg;
    EXPECT_EQ(4u, rev.counter[1]) << a->name;
    ASSERT_EQ(d.nwrites, rev.nwrites);
    for (unsigned i = 0; i < d.nwrites; i++) {
        EXPECT_EQ(d.writes[i].addr, rev.writes[i].addr) << i;
        EXPECT_EQ(d.writes[i].value, rev.writes[i].value) << i;
    }
}

TEST(Rules, GroupCounters)
{
    ita_evlib_dispatch d;
    ita_evlib_error err;
    /* An L1D-group event on PMC5 even when PMC4 is free; an L2-group event on PMC4. */
    ASSERT_EQ(ITA_EVLIB_OK, dispatch(names(kIta2, {"LOADS_RETIRED"}), d, err)) << err.msg;
    EXPECT_EQ(5u, d.counter[0]);
    ASSERT_EQ(ITA_EVLIB_OK, dispatch(names(kIta2, {"CPU_CYCLES", "L2_REFERENCES"}), d, err)) << err.msg;
    EXPECT_EQ(4u, d.counter[1]);
    EXPECT_EQ(5u, d.counter[0]);
    /* Two PMC4-only events. */
    expect_refused(names(kIta2, {"L2_FORCE_RECIRC_ANY", "L2_FORCE_RECIRC_ANY"}), ITA_EVLIB_ERR_NO_COUNTER, "PMC4");
}

TEST(Rules, OzqCancelsExcludeEachOther)
{
    expect_refused(names(kIta2, {"L2_OZQ_CANCELS0_ANY", "L2_OZQ_CANCELS1_REL"}), ITA_EVLIB_ERR_BAD_ARG,
                   "only one L2_OZQ_CANCELS0/1/2");
    expect_refused(names(kIta2, {"L2_OZQ_CANCELS2_ACQ", "CPU_CYCLES", "L2_OZQ_CANCELS2_SCRUB"}), ITA_EVLIB_ERR_BAD_ARG,
                   "L2_OZQ_CANCELS2_ACQ and L2_OZQ_CANCELS2_SCRUB");
    ita_evlib_dispatch d;
    ita_evlib_error err;
    EXPECT_EQ(ITA_EVLIB_OK, dispatch(names(kIta2, {"L2_OZQ_CANCELS1_REL", "CPU_CYCLES"}), d, err)) << err.msg;
}

TEST(Rules, PrefetchEventsUseIbrPair1)
{
    ita_evlib_request rq = names(kIta2, {"L1I_PREFETCHES"});
    rq.irange[rq.nirange++] = {0x40000, 0x40100};
    rq.irange_flags = ITA_EVLIB_RR_NO_FINE_MODE;
    ita_evlib_dispatch d;
    ita_evlib_error err;
    ASSERT_EQ(ITA_EVLIB_OK, dispatch(rq, d, err)) << err.msg;
    uint64_t v;
    EXPECT_TRUE(ita_evlib_dispatch_value(&d, ITA_ADDR(ITA_SPACE_IBR, 2), &v)); /* pair 1 = IBR2/IBR3 */
    EXPECT_EQ(0x40000u, v);
    EXPECT_FALSE(ita_evlib_dispatch_value(&d, ITA_ADDR(ITA_SPACE_IBR, 0), &v));
    EXPECT_EQ(1, d.tag_pair[0]);
    rq = names(kIta2, {"L1I_PREFETCHES", "IA64_INST_RETIRED"});
    rq.irange[rq.nirange++] = {0x40000, 0x40100};
    expect_refused(rq, ITA_EVLIB_ERR_FEATURE_COMBINATION, "qualified by IBR pair 1");
    rq = names(kIta2, {"L2_INST_PREFETCHES", "IA64_TAGGED_INST_RETIRED_IBRP1_PMC9"});
    rq.irange[rq.nirange++] = {0x40000, 0x40100};
    EXPECT_EQ(ITA_EVLIB_OK, dispatch(rq, d, err)) << err.msg;
}

TEST(Rules, Pmc9OnlyWithRetiredInstructions)
{
    ita_evlib_request rq = names(kIta2, {"IA64_TAGGED_INST_RETIRED_IBRP1_PMC9", "LOADS_RETIRED"});
    rq.pmc9 = {true, 0, 0x7ffffff, ITA_EVLIB_SLOTS_ALL};
    expect_refused(rq, ITA_EVLIB_ERR_FEATURE_COMBINATION, "PMC9 can be used only");
}

/* ---- EAR and BTB: methods 1-4 ------------------------------------------------------- */

TEST(EarBtb, DearTlbOrAlatWithTheBtbIsIncompatible)
{
    expect_refused(names(kIta2, {"DATA_EAR_TLB_ALL", "BRANCH_EVENT"}), ITA_EVLIB_ERR_EVENT_INCOMPATIBLE, "TLB mode");
    ita_evlib_request rq = names(kIta2, {"DATA_EAR_ALAT"});
    rq.btb = {true, false, 3, 3, 3, 0, false, false, false, 0, false};
    expect_refused(rq, ITA_EVLIB_ERR_EVENT_INCOMPATIBLE, "ALAT mode");
    rq = names(kIta2, {"BRANCH_EVENT"});
    rq.dear = {true, ITA_EVLIB_EAR_TLB, 0x2, 0, ITA_EVLIB_ISM_DEFAULT, false};
    expect_refused(rq, ITA_EVLIB_ERR_EVENT_INCOMPATIBLE, "TLB mode");
    ita_evlib_dispatch d;
    ita_evlib_error err;
    EXPECT_EQ(ITA_EVLIB_OK, dispatch(names(kIta2, {"DATA_EAR_CACHE_LAT4", "BRANCH_EVENT"}), d, err)) << err.msg;
    /* Itanium has no such restriction in libpfm-3 (pfmlib_itanium.c). */
    EXPECT_EQ(ITA_EVLIB_OK, dispatch(names(kIta, {"DATA_EAR_TLB_VHPT", "BRANCH_EVENT"}), d, err)) << err.msg;
}

struct MethodCase {
    ita_model m;
    const char *event;    /* the EAR/BTB event, or nullptr */
    int unit;             /* 0 I-EAR, 1 D-EAR, 2 BTB */
};

/* Methods 2-4 of one unit: (2) the event and `used`: the register from the request, the
 * counter as for the event; (3) neither: nothing; (4) `used` alone: only the register. */
void check_methods(const MethodCase &c)
{
    const uint16_t reg = pmc(10 + (unsigned)c.unit);
    const ita_event_row *row = row_named(c.m, c.event);
    std::string what = std::string(c.m == kIta ? "Itanium " : "Itanium 2 ") + c.event;
    ita_evlib_ear ear{true, ITA_EVLIB_EAR_TLB, 0x4, 0x1, ITA_EVLIB_ISM_IA64, true};
    ita_evlib_btb btb{true, false, 2, 1, 3, 0, false, false, false, 0x1, true};
    if (c.m == kIta2)
        btb.ds = true, btb.brt = 2;
    else
        btb.tar = true, btb.bac = true;
    uint64_t want_reg;
    if (c.unit == 2)
        want_reg = 0x1 | 1u << 6 | (uint64_t)btb.ds << 7 | 2u << 8 | 1u << 10 | 3u << 12 |
                   (c.m == kIta2 ? (uint64_t)btb.brt << 14 : (1u << 7 | 1u << 15));
    else if (c.unit == 0)
        want_reg = iear_value(c.m, 1, 0x4, 0x1, 2, true);
    else
        want_reg = dear_value(c.m, 1, 0x4, 0x1, 2, true);
    for (int method = 2; method <= 4; method++) {
        ita_evlib_request rq = ita_evlib_request_init(c.m);
        if (method == 2 || method == 3) {
            rq.events[0] = {id_of(*row), 8, 0, ITA_EVLIB_ISM_DEFAULT, false};
            rq.nevents = 1;
        }
        if (method == 2 || method == 4) {
            if (c.unit == 2)
                rq.btb = btb;
            else
                (c.unit ? rq.dear : rq.iear) = ear;
        }
        ita_evlib_dispatch d;
        ita_evlib_error err;
        ASSERT_EQ(ITA_EVLIB_OK, dispatch(rq, d, err)) << what << " method " << method << ": " << err.msg;
        Writes want;
        if (method != 3)
            want.push_back({reg, want_reg});
        if (method == 3 && c.unit != 2) /* an EAR event alone is method 1: covered by Tables */
            continue;
        if (method == 3) /* BRANCH_EVENT alone programs the BTB: method 1 */
            want.push_back({reg, btb_all_value(c.m, 8, false)});
        if (method != 4)
            want.push_back({pmc(4), counter_value(c.m, 4, *row, 8, 0, 0, false)});
        expect_writes(d, want, what + " method " + std::to_string(method));
    }
}

TEST(EarBtb, MethodsOfBothModels)
{
    for (MethodCase c : {MethodCase{kIta2, "L1I_EAR_CACHE_LAT8", 0}, MethodCase{kIta2, "DATA_EAR_CACHE_LAT64", 1},
                         MethodCase{kIta2, "BRANCH_EVENT", 2}, MethodCase{kIta, "INSTRUCTION_EAR_CACHE_LAT16", 0},
                         MethodCase{kIta, "DATA_EAR_CACHE_LAT8", 1}, MethodCase{kIta, "BRANCH_EVENT", 2}})
        check_methods(c);
}

TEST(EarBtb, Method3WithoutEventsOrConfiguration)
{
    /* No event at all and nothing used: nothing to do. */
    ita_evlib_request rq = ita_evlib_request_init(kIta2);
    expect_refused(rq, ITA_EVLIB_ERR_BAD_ARG, "0 events");
    /* A counter event only: no EAR, no BTB register. */
    ita_evlib_dispatch d;
    ita_evlib_error err;
    ASSERT_EQ(ITA_EVLIB_OK, dispatch(names(kIta2, {"L1I_EAR_EVENTS", "DATA_EAR_EVENTS"}), d, err)) << err.msg;
    for (unsigned k : {10u, 11u, 12u})
        EXPECT_FALSE(ita_evlib_dispatch_value(&d, pmc(k), nullptr)) << k;
}

TEST(EarBtb, Method1EventsOfOneUnitAgreeAndDefaults)
{
    /* Two I-EAR events asking for one configuration: it programs PMC10, both count
     * L1I_EAR_EVENTS. */
    ita_evlib_request rq = names(kIta2, {"L1I_EAR_TLB_VHPT", "CPU_CYCLES", "L1I_EAR_TLB_VHPT"});
    ita_evlib_dispatch d;
    ita_evlib_error err;
    ASSERT_EQ(ITA_EVLIB_OK, dispatch(rq, d, err)) << err.msg;
    uint64_t v;
    ASSERT_TRUE(ita_evlib_dispatch_value(&d, pmc(10), &v));
    EXPECT_EQ(0x8u | 0x2u << 5, v); /* TLB mode: ct 00, umask 2 */
    /* The default plm of an explicit configuration without one: the first event's. */
    rq = names(kIta2, {"CPU_CYCLES"});
    rq.events[0].plm = 0x3;
    rq.iear = {true, ITA_EVLIB_EAR_CACHE, 0xff, 0, ITA_EVLIB_ISM_DEFAULT, false};
    ASSERT_EQ(ITA_EVLIB_OK, dispatch(rq, d, err)) << err.msg;
    ASSERT_TRUE(ita_evlib_dispatch_value(&d, pmc(10), &v));
    EXPECT_EQ(0x3u | 0xffu << 5 | 1u << 13, v);
    /* Free running without events: user level. */
    rq = ita_evlib_request_init(kIta);
    rq.btb = {true, false, 3, 3, 3, 0, true, true, true, 0, false};
    ASSERT_EQ(ITA_EVLIB_OK, dispatch(rq, d, err)) << err.msg;
    ASSERT_EQ(1u, d.nwrites);
    EXPECT_EQ(btb_all_value(kIta, 8, false), d.writes[0].value);
}

/* Events of one EAR that disagree on its configuration are refused on both models: libpfm-3
 * takes the first event on Itanium 2 and the last on Itanium (pfm_dispatch_iear/dear()). */
TEST(EarBtb, Method1EventsOfOneUnitThatDisagreeAreRefused)
{
    struct Case {
        ita_model m;
        std::initializer_list<const char *> evs;
        const char *text;
    } cases[] = {
        /* modes: the same umask, TLB and cache mode */
        {kIta, {"INSTRUCTION_EAR_TLB_SW", "INSTRUCTION_EAR_CACHE_LAT1024"},
         "I-EAR: events INSTRUCTION_EAR_TLB_SW (TLB mode, umask 0x8, plm 0x8) and INSTRUCTION_EAR_CACHE_LAT1024 "
         "(cache mode, umask 0x8, plm 0x8) ask for different configurations"},
        {kIta, {"DATA_EAR_CACHE_LAT16", "CPU_CYCLES", "DATA_EAR_TLB_L2"}, "D-EAR: events DATA_EAR_CACHE_LAT16 (cache mode"},
        {kIta2, {"L1I_EAR_TLB_VHPT", "L1I_EAR_CACHE_LAT4"}, "I-EAR: events L1I_EAR_TLB_VHPT (TLB mode"},
        {kIta2, {"DATA_EAR_TLB_ALL", "DATA_EAR_ALAT"}, "and DATA_EAR_ALAT (ALAT mode"},
        /* one mode, two umasks */
        {kIta, {"INSTRUCTION_EAR_CACHE_LAT4", "INSTRUCTION_EAR_CACHE_LAT8"}, "umask 0x0, plm 0x8) and INSTRUCTION_EAR_CACHE_LAT8 (cache mode, umask 0x1"},
        {kIta2, {"DATA_EAR_CACHE_LAT4", "DATA_EAR_CACHE_LAT8"}, "D-EAR: events DATA_EAR_CACHE_LAT4"},
    };
    for (const Case &c : cases)
        expect_refused(names(c.m, c.evs), ITA_EVLIB_ERR_EVENT_INCOMPATIBLE, c.text);
    /* one event twice at two privilege levels */
    ita_evlib_request rq = names(kIta2, {"L1I_EAR_CACHE_LAT4", "L1I_EAR_CACHE_LAT4"});
    rq.events[1].plm = 1;
    expect_refused(rq, ITA_EVLIB_ERR_EVENT_INCOMPATIBLE, "plm 0x8) and L1I_EAR_CACHE_LAT4 (cache mode, umask 0xff, plm 0x1)");
    rq.events[1].plm = 8;
    rq.events[1].pm = true;
    expect_refused(rq, ITA_EVLIB_ERR_EVENT_INCOMPATIBLE, "plm 0x8, pm) ask for");
    /* The unit's own configuration settles it (method 2): both events are counted. */
    rq = names(kIta, {"INSTRUCTION_EAR_TLB_SW", "INSTRUCTION_EAR_CACHE_LAT1024"});
    rq.iear = {true, ITA_EVLIB_EAR_TLB, 0x8, 0, ITA_EVLIB_ISM_DEFAULT, false};
    ita_evlib_dispatch d;
    ita_evlib_error err;
    EXPECT_EQ(ITA_EVLIB_OK, dispatch(rq, d, err)) << err.msg;
}

TEST(EarBtb, BadConfigurations)
{
    ita_evlib_request rq = ita_evlib_request_init(kIta2);
    rq.iear = {true, ITA_EVLIB_EAR_ALAT, 0, 0, ITA_EVLIB_ISM_DEFAULT, false};
    expect_refused(rq, ITA_EVLIB_ERR_BAD_ARG, "I-EAR: mode 2");
    rq.iear = {true, ITA_EVLIB_EAR_TLB, 0x80, 0, ITA_EVLIB_ISM_DEFAULT, false};
    expect_refused(rq, ITA_EVLIB_ERR_BAD_ARG, "umask 0x80: at most 0x7f");
    rq = ita_evlib_request_init(kIta);
    rq.dear = {true, ITA_EVLIB_EAR_ALAT, 0, 0, ITA_EVLIB_ISM_DEFAULT, false};
    expect_refused(rq, ITA_EVLIB_ERR_BAD_ARG, "D-EAR: mode 2");
    rq.dear = {true, ITA_EVLIB_EAR_CACHE, 0x10, 0, ITA_EVLIB_ISM_DEFAULT, false};
    expect_refused(rq, ITA_EVLIB_ERR_BAD_ARG, "at most 0xf");
    rq = ita_evlib_request_init(kIta);
    rq.btb = {true, true, 3, 3, 3, 0, false, false, false, 0, false};
    expect_refused(rq, ITA_EVLIB_ERR_BAD_ARG, "Itanium 2 fields");
    rq = ita_evlib_request_init(kIta2);
    rq.btb = {true, false, 4, 3, 3, 0, false, false, false, 0, false};
    expect_refused(rq, ITA_EVLIB_ERR_BAD_ARG, "tm 4");
}

}  // namespace
