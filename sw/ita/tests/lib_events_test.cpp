/*
 * lib_events_test.cpp - errors, event lookup, attribute queries and event
 * strings.  Expected values come from libpfm-3 itanium2_events.h and
 * libpfm_itanium2(3), not from the library.
 *
 * Sources: docs/sources.md.
 */
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "sw/ita/ita_evlib.h"
#include "lib_test_util.h"

namespace {

int find(const char *name)
{
    int ev = -1;
    EXPECT_EQ(ITA_EVLIB_OK, ita_evlib_find_event(name, &ev, nullptr)) << name;
    return ev;
}

bool has(const ita_evlib_error &e, const char *text) { return std::string(e.msg).find(text) != std::string::npos; }

TEST(Errors, NamesAreDistinctAndStable)
{
    EXPECT_STREQ("ok", ita_evlib_err_name(ITA_EVLIB_OK));
    EXPECT_STREQ("unknown-event", ita_evlib_err_name(ITA_EVLIB_ERR_UNKNOWN_EVENT));
    EXPECT_STREQ("threshold", ita_evlib_err_name(ITA_EVLIB_ERR_THRESHOLD));
    EXPECT_STREQ("invalid", ita_evlib_err_name(ITA_EVLIB_NERRS));
    EXPECT_STREQ("invalid", ita_evlib_err_name((ita_evlib_err)-1));
    for (int i = 0; i < ITA_EVLIB_NERRS; i++)
        for (int j = i + 1; j < ITA_EVLIB_NERRS; j++)
            EXPECT_STRNE(ita_evlib_err_name((ita_evlib_err)i), ita_evlib_err_name((ita_evlib_err)j));
}

TEST(Lookup, CaseInsensitive)
{
    EXPECT_EQ(497u + 230u, ita_evlib_num_events()); /* both tables' ids; the shared names' Itanium ids unused */
    unsigned valid = 0;
    for (int ev = 0; ev < (int)ita_evlib_num_events(); ev++)
        valid += ita_evlib_event_valid(ev);
    EXPECT_EQ(497u + 230u - 67u, valid); /* 67 names are in both tables */
    EXPECT_EQ(EV(CPU_CYCLES), find("CPU_CYCLES"));
    EXPECT_EQ(EV(CPU_CYCLES), find("cpu_cycles"));
    EXPECT_EQ(EV(L2_FORCE_RECIRC_ANY), find("L2_Force_Recirc_Any"));
    EXPECT_STREQ("NOPS_RETIRED", ita_evlib_event_name(EV(NOPS_RETIRED)));
    EXPECT_EQ(nullptr, ita_evlib_event_name(-1));
    EXPECT_EQ(nullptr, ita_evlib_event_name((int)ita_evlib_num_events()));
    EXPECT_TRUE(ita_evlib_event_valid(0));
    EXPECT_FALSE(ita_evlib_event_valid((int)ita_evlib_num_events()));
}

TEST(Lookup, UnknownNamesSuggest)
{
    int ev = 123;
    ita_evlib_error err;
    EXPECT_EQ(ITA_EVLIB_ERR_UNKNOWN_EVENT, ita_evlib_find_event("CPU_CYCLE", &ev, &err));
    EXPECT_EQ(ITA_EVLIB_ERR_UNKNOWN_EVENT, err.code);
    EXPECT_TRUE(has(err, "did you mean CPU_CYCLES?")) << err.msg;
    EXPECT_EQ(123, ev); /* untouched */
    /* Names that do not exist in libpfm-3's table either (itanium2_events.h). */
    EXPECT_STREQ("BR_MISPRED_DETAIL_ALL_ALL_PRED", ita_evlib_suggest_event("BR_MISPRED_DETAIL"));
    EXPECT_STREQ("L1D_READ_MISSES_ALL", ita_evlib_suggest_event("l1d_read_misses"));
    EXPECT_STREQ("NOPS_RETIRED", ita_evlib_suggest_event("NOP_RETIRED"));
    EXPECT_STREQ("IA64_INST_RETIRED", ita_evlib_suggest_event("IA64_INSTR_RETIRED"));
    EXPECT_EQ(nullptr, ita_evlib_suggest_event("XYZZY_FROBNICATE"));
    EXPECT_EQ(nullptr, ita_evlib_suggest_event(""));
    EXPECT_EQ(nullptr, ita_evlib_suggest_event(nullptr));
    EXPECT_EQ(ITA_EVLIB_ERR_UNKNOWN_EVENT, ita_evlib_find_event("XYZZY_FROBNICATE", &ev, &err));
    EXPECT_FALSE(has(err, "did you mean")) << err.msg;
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_find_event(nullptr, &ev, &err));
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_find_event("CPU_CYCLES", nullptr, &err));
}

/* libpfm-3's pfm_ita2_is_* queries, by the TYPE column (libpfm's vcode type 10:8). */
TEST(Attributes, EarAndBtbQueriesFollowTheTypeColumn)
{
    struct Want {
        const char *name;
        ita_evlib_event_type type;
        int mode; /* ita_evlib_ear_mode, -1 = not an EAR event */
    } wants[] = {
        {"CPU_CYCLES", ITA_EVLIB_EVT_NORMAL, -1},
        {"L1I_EAR_EVENTS", ITA_EVLIB_EVT_NORMAL, -1},
        {"DATA_EAR_EVENTS", ITA_EVLIB_EVT_NORMAL, -1},
        {"BRANCH_EVENT", ITA_EVLIB_EVT_BTB, -1},
        {"L1I_EAR_TLB_ALL", ITA_EVLIB_EVT_IEAR_TLB, ITA_EVLIB_EAR_TLB},
        {"L1I_EAR_CACHE_LAT4", ITA_EVLIB_EVT_IEAR_CACHE, ITA_EVLIB_EAR_CACHE},
        {"DATA_EAR_TLB_VHPT", ITA_EVLIB_EVT_DEAR_TLB, ITA_EVLIB_EAR_TLB},
        {"DATA_EAR_CACHE_LAT4", ITA_EVLIB_EVT_DEAR_CACHE, ITA_EVLIB_EAR_CACHE},
        {"DATA_EAR_ALAT", ITA_EVLIB_EVT_DEAR_ALAT, ITA_EVLIB_EAR_ALAT},
        {"INSTRUCTION_EAR_CACHE_LAT_NONE", ITA_EVLIB_EVT_IEAR_CACHE, ITA_EVLIB_EAR_CACHE}, /* Itanium only */
        {"INSTRUCTION_EAR_TLB_VHPT", ITA_EVLIB_EVT_IEAR_TLB, ITA_EVLIB_EAR_TLB},
    };
    for (const Want &w : wants) {
        int ev = find(w.name);
        ASSERT_GE(ev, 0) << w.name;
        ita_evlib_event_type t = w.type;
        EXPECT_EQ(t, ita_evlib_event_type_of(ev)) << w.name;
        bool iear = t == ITA_EVLIB_EVT_IEAR_TLB || t == ITA_EVLIB_EVT_IEAR_CACHE;
        bool dear = t == ITA_EVLIB_EVT_DEAR_TLB || t == ITA_EVLIB_EVT_DEAR_CACHE || t == ITA_EVLIB_EVT_DEAR_ALAT;
        EXPECT_EQ(iear || dear, ita_evlib_is_ear(ev)) << w.name;
        EXPECT_EQ(dear, ita_evlib_is_dear(ev)) << w.name;
        EXPECT_EQ(t == ITA_EVLIB_EVT_DEAR_TLB, ita_evlib_is_dear_tlb(ev)) << w.name;
        EXPECT_EQ(t == ITA_EVLIB_EVT_DEAR_CACHE, ita_evlib_is_dear_cache(ev)) << w.name;
        EXPECT_EQ(t == ITA_EVLIB_EVT_DEAR_ALAT, ita_evlib_is_dear_alat(ev)) << w.name;
        EXPECT_EQ(iear, ita_evlib_is_iear(ev)) << w.name;
        EXPECT_EQ(t == ITA_EVLIB_EVT_IEAR_TLB, ita_evlib_is_iear_tlb(ev)) << w.name;
        EXPECT_EQ(t == ITA_EVLIB_EVT_IEAR_CACHE, ita_evlib_is_iear_cache(ev)) << w.name;
        EXPECT_EQ(t == ITA_EVLIB_EVT_BTB, ita_evlib_is_btb(ev)) << w.name;
        /* 3: no mode (any mode could be an answer), and still a value the enum can hold
         * (0..3 for modes 0..2): 7 would be undefined behaviour to load in C++. */
        ita_evlib_ear_mode mode = (ita_evlib_ear_mode)3;
        ita_evlib_error err;
        if (w.mode < 0) {
            EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_event_ear_mode(ev, &mode, &err)) << w.name;
            EXPECT_TRUE(has(err, "not an EAR event")) << err.msg;
            EXPECT_EQ(3, (int)mode); /* untouched, as libpfm */
        } else {
            EXPECT_EQ(ITA_EVLIB_OK, ita_evlib_event_ear_mode(ev, &mode, &err)) << w.name;
            EXPECT_EQ(w.mode, (int)mode) << w.name;
        }
    }
    /* Over both tables: the counts of each type (libpfm-3's tables: Itanium 2 has 10 I-EAR
     * cache, 7 I-EAR TLB, 11 D-EAR cache, 7 D-EAR TLB, 1 ALAT and 1 BTB event). */
    unsigned n2[7] = {0}, n1[7] = {0};
    for (int ev = 0; ev < (int)ita_evlib_num_events(); ev++) {
        if (!ita_evlib_event_valid(ev))
            continue;
        if (ita_evlib_event_on_model(ev, ITA_MODEL_ITANIUM2))
            n2[ita_evlib_event_type_of(ev)]++;
        else
            n1[ita_evlib_event_type_of(ev)]++;
    }
    EXPECT_EQ(1u, n2[ITA_EVLIB_EVT_BTB]);
    EXPECT_EQ(7u, n2[ITA_EVLIB_EVT_IEAR_TLB]);
    EXPECT_EQ(10u, n2[ITA_EVLIB_EVT_IEAR_CACHE]);
    EXPECT_EQ(7u, n2[ITA_EVLIB_EVT_DEAR_TLB]);
    EXPECT_EQ(11u, n2[ITA_EVLIB_EVT_DEAR_CACHE]);
    EXPECT_EQ(1u, n2[ITA_EVLIB_EVT_DEAR_ALAT]);
    EXPECT_GT(n1[ITA_EVLIB_EVT_IEAR_CACHE], 0u); /* INSTRUCTION_EAR_CACHE_*: Itanium only */
    EXPECT_FALSE(ita_evlib_is_ear(-1));
    EXPECT_FALSE(ita_evlib_is_btb((int)ita_evlib_num_events()));
}

TEST(Attributes, QualifierSupport)
{
    /* libpfm-3 itanium2_events.h, iar/opm/dar: CPU_CYCLES 0/0/0, IA64_INST_RETIRED 1/1/0,
     * FP_OPS_RETIRED 1/0/0, LOADS_RETIRED 1/1/1. */
    EXPECT_FALSE(ita_evlib_supports_iarr(EV(CPU_CYCLES)));
    EXPECT_FALSE(ita_evlib_supports_opcm(EV(CPU_CYCLES)));
    EXPECT_FALSE(ita_evlib_supports_darr(EV(CPU_CYCLES)));
    EXPECT_TRUE(ita_evlib_supports_iarr(EV(IA64_INST_RETIRED)));
    EXPECT_TRUE(ita_evlib_supports_opcm(EV(IA64_INST_RETIRED)));
    EXPECT_FALSE(ita_evlib_supports_darr(EV(IA64_INST_RETIRED)));
    EXPECT_TRUE(ita_evlib_supports_iarr(EV(FP_OPS_RETIRED)));
    EXPECT_FALSE(ita_evlib_supports_opcm(EV(FP_OPS_RETIRED)));
    EXPECT_TRUE(ita_evlib_supports_darr(EV(LOADS_RETIRED)));
    /* libpfm-3 says 1/1/1, but no instruction carries a tag for it (ita-qualification.md). */
    EXPECT_FALSE(ita_evlib_supports_iarr(EV(L2_FORCE_RECIRC_ANY)));
    EXPECT_FALSE(ita_evlib_supports_opcm(EV(L2_FORCE_RECIRC_ANY)));
    EXPECT_FALSE(ita_evlib_supports_darr(EV(L2_FORCE_RECIRC_ANY)));
    EXPECT_FALSE(ita_evlib_supports_iarr(-1));
}

TEST(Attributes, Values)
{
    unsigned u = 0;
    ita_evlib_error err;
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_maxincr(EV(NOPS_RETIRED), &u, &err));
    EXPECT_EQ(6u, u);
    EXPECT_EQ(ITA_EVLIB_OK, err.code);
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_maxincr(EV(CPU_CYCLES), &u, nullptr));
    EXPECT_EQ(1u, u);
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_umask(EV(BR_MISPRED_DETAIL_RETURN_WRONG_TARGET), &u, nullptr));
    EXPECT_EQ(0xbu, u);
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_code(EV(LOADS_RETIRED), ITA_MODEL_ITANIUM2, &u, nullptr));
    EXPECT_EQ(0xcdu, u);
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_code(EV(CPU_CYCLES), ITA_MODEL_ITANIUM, &u, nullptr));
    EXPECT_EQ(0x12u, u);
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_code(EV(LOADS_RETIRED), ITA_MODEL_ITANIUM, &u, nullptr));
    EXPECT_EQ(0x6cu, u); /* libpfm-3 itanium_events.h */
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_code(EV(NOPS_RETIRED), ITA_MODEL_ITANIUM, &u, nullptr));
    EXPECT_EQ(0x30u, u);
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_code(EV(INSTRUCTION_EAR_EVENTS), ITA_MODEL_ITANIUM, &u, nullptr));
    EXPECT_EQ(0x23u, u);
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_code(EV(DATA_EAR_EVENTS), ITA_MODEL_ITANIUM, &u, nullptr));
    EXPECT_EQ(0x67u, u);
    EXPECT_EQ(ITA_EVLIB_ERR_NOT_ON_MODEL, ita_evlib_event_code(EV(BACK_END_BUBBLE_ALL), ITA_MODEL_ITANIUM, &u, &err));
    EXPECT_TRUE(has(err, "BACK_END_BUBBLE_ALL is not implemented on Itanium")) << err.msg;
    EXPECT_EQ(ITA_EVLIB_ERR_NOT_ON_MODEL, ita_evlib_event_code(EV(INSTRUCTION_EAR_EVENTS), ITA_MODEL_ITANIUM2, &u, &err));
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_event_code(EV(CPU_CYCLES), (ita_model)7, &u, &err));
    EXPECT_FALSE(ita_evlib_event_on_model(EV(BACK_END_BUBBLE_ALL), ITA_MODEL_ITANIUM));
    EXPECT_TRUE(ita_evlib_event_on_model(EV(STORES_RETIRED), ITA_MODEL_ITANIUM));
    EXPECT_TRUE(ita_evlib_event_on_model(EV(STORES_RETIRED), ITA_MODEL_ITANIUM2));
    EXPECT_FALSE(ita_evlib_event_on_model(EV(CPU_CYCLES), (ita_model)7));
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_counters(EV(L2_FORCE_RECIRC_ANY), ITA_MODEL_ITANIUM2, &u, nullptr));
    EXPECT_EQ(0x10u, u); /* PMC4 only */
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_counters(EV(CPU_CYCLES), ITA_MODEL_ITANIUM2, &u, nullptr));
    EXPECT_EQ(0xf0u, u);
    ita_evlib_group g;
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_group(EV(LOADS_RETIRED), &g, nullptr));
    EXPECT_EQ(ITA_EVLIB_GROUP_L1D, g);
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_group(EV(L2_REFERENCES), &g, nullptr));
    EXPECT_EQ(ITA_EVLIB_GROUP_L2, g);
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_group(EV(CPU_CYCLES), &g, nullptr));
    EXPECT_EQ(ITA_EVLIB_GROUP_NONE, g);
    int set = 0;
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_set(EV(STORES_RETIRED), &set, nullptr));
    EXPECT_EQ(4, set);
    ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_event_set(EV(CPU_CYCLES), &set, nullptr));
    EXPECT_EQ(ITA_EVLIB_NO_SET, set);
    /* Invalid ids and NULL outputs. */
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_event_maxincr(-1, &u, &err));
    EXPECT_TRUE(has(err, "event id -1")) << err.msg;
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_event_umask((int)ita_evlib_num_events(), &u, nullptr));
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_event_group(0, nullptr, &err));
    EXPECT_TRUE(has(err, "NULL")) << err.msg;
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_event_set(0, nullptr, nullptr));
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_event_counters(0, ITA_MODEL_ITANIUM2, nullptr, nullptr));
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_event_code(0, ITA_MODEL_ITANIUM2, nullptr, nullptr));
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_event_ear_mode(-5, nullptr, nullptr));
}

/* ---- event strings ------------------------------------------------------- */

ita_evlib_event_spec parse_ok(const char *s)
{
    ita_evlib_event_spec e{};
    ita_evlib_error err;
    EXPECT_EQ(ITA_EVLIB_OK, ita_evlib_parse_event(s, &e, &err)) << s << ": " << err.msg;
    return e;
}

TEST(EventString, DefaultsAndModifiers)
{
    ita_evlib_event_spec e = parse_ok("IA64_INST_RETIRED");
    EXPECT_EQ(EV(IA64_INST_RETIRED), e.event);
    EXPECT_EQ(ITA_EVLIB_PLM_USER, e.plm); /* pfmon's default: user level */
    EXPECT_EQ(0u, e.thres);
    EXPECT_EQ(ITA_EVLIB_ISM_DEFAULT, e.ism);
    EXPECT_FALSE(e.pm);
    EXPECT_EQ(0x8u, parse_ok("cpu_cycles:u").plm);
    EXPECT_EQ(0x1u, parse_ok("cpu_cycles:k").plm);
    EXPECT_EQ(0x9u, parse_ok("cpu_cycles:u:k").plm);
    EXPECT_EQ(0x6u, parse_ok("cpu_cycles:plm=6").plm);
    EXPECT_EQ(0xfu, parse_ok("cpu_cycles:plm=0xf").plm);
    EXPECT_EQ(0x7u, parse_ok("cpu_cycles:plm=6:k").plm);
    EXPECT_EQ(5u, parse_ok("NOPS_RETIRED:thres=5").thres);
    EXPECT_EQ(ITA_EVLIB_ISM_IA64, parse_ok("NOPS_RETIRED:ism=ia64").ism);
    EXPECT_EQ(ITA_EVLIB_ISM_IA32, parse_ok("NOPS_RETIRED:ISM=IA32").ism);
    EXPECT_EQ(ITA_EVLIB_ISM_BOTH, parse_ok("NOPS_RETIRED:ism=both").ism);
    e = parse_ok("nops_retired:K:thres=0x3:ism=ia64:U");
    EXPECT_EQ(EV(NOPS_RETIRED), e.event);
    EXPECT_EQ(0x9u, e.plm);
    EXPECT_EQ(3u, e.thres);
}

TEST(EventString, Errors)
{
    struct Case {
        const char *str;
        ita_evlib_err code;
        const char *text;
    } cases[] = {
        {"", ITA_EVLIB_ERR_BAD_ARG, "event name is empty"},
        {":u", ITA_EVLIB_ERR_BAD_ARG, "event name is empty"},
        {"CPU_CYCLE:u", ITA_EVLIB_ERR_UNKNOWN_EVENT, "did you mean CPU_CYCLES"},
        {"CPU_CYCLES:x", ITA_EVLIB_ERR_BAD_ARG, "unknown modifier ':x'"},
        {"CPU_CYCLES::u", ITA_EVLIB_ERR_BAD_ARG, "empty modifier"},
        {"CPU_CYCLES:u:", ITA_EVLIB_ERR_BAD_ARG, "empty modifier"},
        {"CPU_CYCLES:u=1", ITA_EVLIB_ERR_BAD_ARG, ":u takes no value"},
        {"CPU_CYCLES:plm=0", ITA_EVLIB_ERR_BAD_ARG, "privilege-level mask 1..15"},
        {"CPU_CYCLES:plm=16", ITA_EVLIB_ERR_BAD_ARG, "privilege-level mask 1..15"},
        {"CPU_CYCLES:plm", ITA_EVLIB_ERR_BAD_ARG, "privilege-level mask"},
        {"CPU_CYCLES:plm=010", ITA_EVLIB_ERR_BAD_ARG, "privilege-level mask"}, /* no octal */
        {"NOPS_RETIRED:thres=6", ITA_EVLIB_ERR_THRESHOLD, "threshold 6 >= maxincr 6 of NOPS_RETIRED (allowed 0..5)"},
        {"CPU_CYCLES:thres=1", ITA_EVLIB_ERR_THRESHOLD, "maxincr 1"},
        {"NOPS_RETIRED:thres=-1", ITA_EVLIB_ERR_BAD_ARG, "expects a number"},
        {"NOPS_RETIRED:thres=1:thres=2", ITA_EVLIB_ERR_BAD_ARG, "given twice"},
        {"NOPS_RETIRED:ism=ia65", ITA_EVLIB_ERR_BAD_ARG, "ia64, ia32 or both"},
        {"NOPS_RETIRED:ism=ia64:ism=ia32", ITA_EVLIB_ERR_BAD_ARG, "given twice"},
    };
    for (const Case &c : cases) {
        ita_evlib_event_spec e{};
        ita_evlib_error err;
        EXPECT_EQ(c.code, ita_evlib_parse_event(c.str, &e, &err)) << c.str;
        EXPECT_EQ(c.code, err.code) << c.str;
        EXPECT_TRUE(has(err, c.text)) << c.str << ": " << err.msg;
        EXPECT_EQ(std::string::npos, std::string(err.msg).find('\n'));
    }
    ita_evlib_event_spec e;
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_parse_event(nullptr, &e, nullptr));
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_parse_event("CPU_CYCLES", nullptr, nullptr));
    std::string longstr(300, 'A');
    ita_evlib_error err;
    EXPECT_EQ(ITA_EVLIB_ERR_BAD_ARG, ita_evlib_parse_event(longstr.c_str(), &e, &err));
    EXPECT_TRUE(has(err, "longer than")) << err.msg;
}

/* The events both tables have with a different maxincr (libpfm-3.10's itanium_events.h
 * and itanium2_events.h; Itanium first, then Itanium 2). */
struct MaxincrPair {
    const char *name;
    unsigned ita, ita2;
};
const MaxincrPair kMaxincrDiffer[] = {
    {"BUS_BRQ_LIVE_REQ_LO", 2, 7}, {"BUS_IOQ_LIVE_REQ_HI", 3, 2}, {"BUS_SNOOPQ_REQ", 3, 7},
    {"DTLB_INSERTS_HPW", 1, 4},    {"L2_MISSES", 2, 1},           {"L2_REFERENCES", 3, 4},
    {"LOADS_RETIRED", 2, 4},       {"MISALIGNED_LOADS_RETIRED", 2, 4}, {"UC_LOADS_RETIRED", 2, 4},
};

TEST(EventString, MaxincrDifferListIsTheTables)
{
    std::set<std::string> differ, listed;
    for (unsigned ev = 0; ev < ita_evlib_num_events(); ev++) {
        const ita_event_row *a = ita_evlib_event_row((int)ev, ITA_MODEL_ITANIUM);
        const ita_event_row *b = ita_evlib_event_row((int)ev, ITA_MODEL_ITANIUM2);
        if (a && b && a->maxincr != b->maxincr)
            differ.insert(ita_evlib_event_name((int)ev));
    }
    for (const MaxincrPair &p : kMaxincrDiffer) {
        listed.insert(p.name);
        const ita_event_row *a = ita_evlib_event_row(pmutest::ev_id(p.name), ITA_MODEL_ITANIUM);
        const ita_event_row *b = ita_evlib_event_row(pmutest::ev_id(p.name), ITA_MODEL_ITANIUM2);
        ASSERT_TRUE(a && b) << p.name;
        EXPECT_EQ(p.ita, a->maxincr) << p.name;
        EXPECT_EQ(p.ita2, b->maxincr) << p.name;
    }
    EXPECT_EQ(listed, differ);
}

/* A threshold is checked against the model's own row, when the string is parsed for a model
 * and when a request is dispatched: maxincr - 1 accepted, maxincr refused. */
TEST(EventString, ThresholdAgainstTheModelsOwnMaxincr)
{
    for (const MaxincrPair &p : kMaxincrDiffer)
        for (ita_model m : {ITA_MODEL_ITANIUM, ITA_MODEL_ITANIUM2}) {
            const unsigned max = m == ITA_MODEL_ITANIUM ? p.ita : p.ita2;
            const std::string where = std::string(p.name) + (m == ITA_MODEL_ITANIUM ? " on Itanium" : " on Itanium 2");
            const std::string ok = std::string(p.name) + ":thres=" + std::to_string(max - 1);
            const std::string over = std::string(p.name) + ":thres=" + std::to_string(max);
            ita_evlib_request rq = ita_evlib_request_init(m);
            ita_evlib_error err;
            ASSERT_EQ(ITA_EVLIB_OK, ita_evlib_parse_event_model(ok.c_str(), m, &rq.events[0], &err)) << where << ": " << err.msg;
            EXPECT_EQ(max - 1, rq.events[0].thres) << where;
            rq.nevents = 1;
            ita_evlib_dispatch d;
            EXPECT_EQ(ITA_EVLIB_OK, ita_evlib_dispatch_request(&rq, &d, &err)) << where << ": " << err.msg;

            ita_evlib_event_spec e{};
            EXPECT_EQ(ITA_EVLIB_ERR_THRESHOLD, ita_evlib_parse_event_model(over.c_str(), m, &e, &err)) << where;
            EXPECT_TRUE(has(err, ("maxincr " + std::to_string(max) + " of " + where).c_str())) << err.msg;
            rq.events[0].thres = max;
            EXPECT_EQ(ITA_EVLIB_ERR_THRESHOLD, ita_evlib_dispatch_request(&rq, &d, &err)) << where;
        }
    ita_evlib_event_spec e{};
    ita_evlib_error err;
    EXPECT_EQ(ITA_EVLIB_ERR_NOT_ON_MODEL, ita_evlib_parse_event_model("FP_OPS_RETIRED", ITA_MODEL_ITANIUM, &e, &err));
    EXPECT_TRUE(has(err, "FP_OPS_RETIRED is not implemented on Itanium")) << err.msg;
}

}  // namespace
