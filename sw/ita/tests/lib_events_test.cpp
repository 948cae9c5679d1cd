/*
 * lib_events_test.cpp - errors, event lookup, attribute queries and event
 * strings.  Expected values come from libpfm-3 itanium2_events.h and
 * libpfm_itanium2(3), not from the library.
 *
 * Sources: docs/sources.md.
 */
#include <gtest/gtest.h>

#include <string>

#include "ita/pmulib.h"

namespace {

int find(const char *name)
{
    int ev = -1;
    EXPECT_EQ(PMULIB_OK, pmulib_find_event(name, &ev, nullptr)) << name;
    return ev;
}

bool has(const pmulib_error &e, const char *text) { return std::string(e.msg).find(text) != std::string::npos; }

TEST(Errors, NamesAreDistinctAndStable)
{
    EXPECT_STREQ("ok", pmulib_err_name(PMULIB_OK));
    EXPECT_STREQ("unknown-event", pmulib_err_name(PMULIB_ERR_UNKNOWN_EVENT));
    EXPECT_STREQ("threshold", pmulib_err_name(PMULIB_ERR_THRESHOLD));
    EXPECT_STREQ("invalid", pmulib_err_name(PMULIB_NERRS));
    EXPECT_STREQ("invalid", pmulib_err_name((pmulib_err)-1));
    for (int i = 0; i < PMULIB_NERRS; i++)
        for (int j = i + 1; j < PMULIB_NERRS; j++)
            EXPECT_STRNE(pmulib_err_name((pmulib_err)i), pmulib_err_name((pmulib_err)j));
}

TEST(Lookup, CaseInsensitive)
{
    EXPECT_EQ(PMU_NEVENTS, (int)pmulib_num_events());
    EXPECT_EQ(PMU_EV_CPU_CYCLES, find("CPU_CYCLES"));
    EXPECT_EQ(PMU_EV_CPU_CYCLES, find("cpu_cycles"));
    EXPECT_EQ(PMU_EV_L2_FORCE_RECIRC_ANY, find("L2_Force_Recirc_Any"));
    EXPECT_STREQ("NOPS_RETIRED", pmulib_event_name(PMU_EV_NOPS_RETIRED));
    EXPECT_EQ(nullptr, pmulib_event_name(-1));
    EXPECT_EQ(nullptr, pmulib_event_name(PMU_NEVENTS));
    EXPECT_TRUE(pmulib_event_valid(0));
    EXPECT_FALSE(pmulib_event_valid(PMU_NEVENTS));
}

TEST(Lookup, UnknownNamesSuggest)
{
    int ev = 123;
    pmulib_error err;
    EXPECT_EQ(PMULIB_ERR_UNKNOWN_EVENT, pmulib_find_event("CPU_CYCLE", &ev, &err));
    EXPECT_EQ(PMULIB_ERR_UNKNOWN_EVENT, err.code);
    EXPECT_TRUE(has(err, "did you mean CPU_CYCLES?")) << err.msg;
    EXPECT_EQ(123, ev); /* untouched */
    /* Names that do not exist in libpfm-3's table either (itanium2_events.h). */
    EXPECT_STREQ("BR_MISPRED_DETAIL_ALL_ALL_PRED", pmulib_suggest_event("BR_MISPRED_DETAIL"));
    EXPECT_STREQ("L1D_READ_MISSES_ALL", pmulib_suggest_event("l1d_read_misses"));
    EXPECT_STREQ("NOPS_RETIRED", pmulib_suggest_event("NOP_RETIRED"));
    EXPECT_STREQ("IA64_INST_RETIRED", pmulib_suggest_event("IA64_INSTR_RETIRED"));
    EXPECT_EQ(nullptr, pmulib_suggest_event("XYZZY_FROBNICATE"));
    EXPECT_EQ(nullptr, pmulib_suggest_event(""));
    EXPECT_EQ(nullptr, pmulib_suggest_event(nullptr));
    EXPECT_EQ(PMULIB_ERR_UNKNOWN_EVENT, pmulib_find_event("XYZZY_FROBNICATE", &ev, &err));
    EXPECT_FALSE(has(err, "did you mean")) << err.msg;
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_find_event(nullptr, &ev, &err));
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_find_event("CPU_CYCLES", nullptr, &err));
}

TEST(Attributes, TypesAreNormalUntilEarAndBtbExist)
{
    for (int ev = 0; ev < PMU_NEVENTS; ev++) {
        EXPECT_EQ(PMULIB_EVT_NORMAL, pmulib_event_type_of(ev));
        EXPECT_FALSE(pmulib_is_ear(ev));
        EXPECT_FALSE(pmulib_is_dear(ev));
        EXPECT_FALSE(pmulib_is_dear_tlb(ev));
        EXPECT_FALSE(pmulib_is_dear_cache(ev));
        EXPECT_FALSE(pmulib_is_dear_alat(ev));
        EXPECT_FALSE(pmulib_is_iear(ev));
        EXPECT_FALSE(pmulib_is_iear_tlb(ev));
        EXPECT_FALSE(pmulib_is_iear_cache(ev));
        EXPECT_FALSE(pmulib_is_btb(ev));
        pmulib_ear_mode mode = PMULIB_EAR_ALAT;
        pmulib_error err;
        EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_event_ear_mode(ev, &mode, &err));
        EXPECT_TRUE(has(err, "not an EAR event")) << err.msg;
        EXPECT_EQ(PMULIB_EAR_ALAT, mode); /* untouched, as libpfm */
    }
    EXPECT_FALSE(pmulib_is_ear(-1));
    EXPECT_FALSE(pmulib_is_btb(PMU_NEVENTS));
}

TEST(Attributes, QualifierSupport)
{
    /* libpfm-3 itanium2_events.h, iar/opm/dar: CPU_CYCLES 0/0/0, IA64_INST_RETIRED 1/1/0,
     * FP_OPS_RETIRED 1/0/0, LOADS_RETIRED 1/1/1. */
    EXPECT_FALSE(pmulib_supports_iarr(PMU_EV_CPU_CYCLES));
    EXPECT_FALSE(pmulib_supports_opcm(PMU_EV_CPU_CYCLES));
    EXPECT_FALSE(pmulib_supports_darr(PMU_EV_CPU_CYCLES));
    EXPECT_TRUE(pmulib_supports_iarr(PMU_EV_IA64_INST_RETIRED));
    EXPECT_TRUE(pmulib_supports_opcm(PMU_EV_IA64_INST_RETIRED));
    EXPECT_FALSE(pmulib_supports_darr(PMU_EV_IA64_INST_RETIRED));
    EXPECT_TRUE(pmulib_supports_iarr(PMU_EV_FP_OPS_RETIRED));
    EXPECT_FALSE(pmulib_supports_opcm(PMU_EV_FP_OPS_RETIRED));
    EXPECT_TRUE(pmulib_supports_darr(PMU_EV_LOADS_RETIRED));
    /* libpfm-3 says 1/1/1, but no instruction carries a tag for it (qualification.md). */
    EXPECT_FALSE(pmulib_supports_iarr(PMU_EV_L2_FORCE_RECIRC_ANY));
    EXPECT_FALSE(pmulib_supports_opcm(PMU_EV_L2_FORCE_RECIRC_ANY));
    EXPECT_FALSE(pmulib_supports_darr(PMU_EV_L2_FORCE_RECIRC_ANY));
    EXPECT_FALSE(pmulib_supports_iarr(-1));
}

TEST(Attributes, Values)
{
    unsigned u = 0;
    pmulib_error err;
    ASSERT_EQ(PMULIB_OK, pmulib_event_maxincr(PMU_EV_NOPS_RETIRED, &u, &err));
    EXPECT_EQ(6u, u);
    EXPECT_EQ(PMULIB_OK, err.code);
    ASSERT_EQ(PMULIB_OK, pmulib_event_maxincr(PMU_EV_CPU_CYCLES, &u, nullptr));
    EXPECT_EQ(1u, u);
    ASSERT_EQ(PMULIB_OK, pmulib_event_umask(PMU_EV_BR_MISPRED_DETAIL_RETURN_WRONG_TARGET, &u, nullptr));
    EXPECT_EQ(0xbu, u);
    ASSERT_EQ(PMULIB_OK, pmulib_event_code(PMU_EV_LOADS_RETIRED, PMU_MODEL_ITANIUM2, &u, nullptr));
    EXPECT_EQ(0xcdu, u);
    ASSERT_EQ(PMULIB_OK, pmulib_event_code(PMU_EV_CPU_CYCLES, PMU_MODEL_ITANIUM, &u, nullptr));
    EXPECT_EQ(0x12u, u);
    EXPECT_EQ(PMULIB_ERR_NOT_ON_MODEL, pmulib_event_code(PMU_EV_STORES_RETIRED, PMU_MODEL_ITANIUM, &u, &err));
    EXPECT_TRUE(has(err, "STORES_RETIRED is not implemented on Itanium")) << err.msg;
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_event_code(PMU_EV_CPU_CYCLES, (pmu_model)7, &u, &err));
    EXPECT_FALSE(pmulib_event_on_model(PMU_EV_STORES_RETIRED, PMU_MODEL_ITANIUM));
    EXPECT_TRUE(pmulib_event_on_model(PMU_EV_STORES_RETIRED, PMU_MODEL_ITANIUM2));
    EXPECT_FALSE(pmulib_event_on_model(PMU_EV_CPU_CYCLES, (pmu_model)7));
    ASSERT_EQ(PMULIB_OK, pmulib_event_counters(PMU_EV_L2_FORCE_RECIRC_ANY, PMU_MODEL_ITANIUM2, &u, nullptr));
    EXPECT_EQ(0x10u, u); /* PMC4 only */
    ASSERT_EQ(PMULIB_OK, pmulib_event_counters(PMU_EV_CPU_CYCLES, PMU_MODEL_ITANIUM2, &u, nullptr));
    EXPECT_EQ(0xf0u, u);
    pmulib_group g;
    ASSERT_EQ(PMULIB_OK, pmulib_event_group(PMU_EV_LOADS_RETIRED, &g, nullptr));
    EXPECT_EQ(PMULIB_GROUP_L1D, g);
    ASSERT_EQ(PMULIB_OK, pmulib_event_group(PMU_EV_L2_REFERENCES, &g, nullptr));
    EXPECT_EQ(PMULIB_GROUP_L2, g);
    ASSERT_EQ(PMULIB_OK, pmulib_event_group(PMU_EV_CPU_CYCLES, &g, nullptr));
    EXPECT_EQ(PMULIB_GROUP_NONE, g);
    int set = 0;
    ASSERT_EQ(PMULIB_OK, pmulib_event_set(PMU_EV_STORES_RETIRED, &set, nullptr));
    EXPECT_EQ(4, set);
    ASSERT_EQ(PMULIB_OK, pmulib_event_set(PMU_EV_CPU_CYCLES, &set, nullptr));
    EXPECT_EQ(PMULIB_NO_SET, set);
    /* Invalid ids and NULL outputs. */
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_event_maxincr(-1, &u, &err));
    EXPECT_TRUE(has(err, "event id -1")) << err.msg;
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_event_umask(PMU_NEVENTS, &u, nullptr));
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_event_group(0, nullptr, &err));
    EXPECT_TRUE(has(err, "NULL")) << err.msg;
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_event_set(0, nullptr, nullptr));
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_event_counters(0, PMU_MODEL_ITANIUM2, nullptr, nullptr));
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_event_code(0, PMU_MODEL_ITANIUM2, nullptr, nullptr));
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_event_ear_mode(-5, nullptr, nullptr));
}

/* ---- event strings ------------------------------------------------------- */

pmulib_event_spec parse_ok(const char *s)
{
    pmulib_event_spec e{};
    pmulib_error err;
    EXPECT_EQ(PMULIB_OK, pmulib_parse_event(s, &e, &err)) << s << ": " << err.msg;
    return e;
}

TEST(EventString, DefaultsAndModifiers)
{
    pmulib_event_spec e = parse_ok("IA64_INST_RETIRED");
    EXPECT_EQ(PMU_EV_IA64_INST_RETIRED, e.event);
    EXPECT_EQ(PMULIB_PLM_USER, e.plm); /* pfmon's default: user level */
    EXPECT_EQ(0u, e.thres);
    EXPECT_EQ(PMULIB_ISM_DEFAULT, e.ism);
    EXPECT_FALSE(e.pm);
    EXPECT_EQ(0x8u, parse_ok("cpu_cycles:u").plm);
    EXPECT_EQ(0x1u, parse_ok("cpu_cycles:k").plm);
    EXPECT_EQ(0x9u, parse_ok("cpu_cycles:u:k").plm);
    EXPECT_EQ(0x6u, parse_ok("cpu_cycles:plm=6").plm);
    EXPECT_EQ(0xfu, parse_ok("cpu_cycles:plm=0xf").plm);
    EXPECT_EQ(0x7u, parse_ok("cpu_cycles:plm=6:k").plm);
    EXPECT_EQ(5u, parse_ok("NOPS_RETIRED:thres=5").thres);
    EXPECT_EQ(PMULIB_ISM_IA64, parse_ok("NOPS_RETIRED:ism=ia64").ism);
    EXPECT_EQ(PMULIB_ISM_IA32, parse_ok("NOPS_RETIRED:ISM=IA32").ism);
    EXPECT_EQ(PMULIB_ISM_BOTH, parse_ok("NOPS_RETIRED:ism=both").ism);
    e = parse_ok("nops_retired:K:thres=0x3:ism=ia64:U");
    EXPECT_EQ(PMU_EV_NOPS_RETIRED, e.event);
    EXPECT_EQ(0x9u, e.plm);
    EXPECT_EQ(3u, e.thres);
}

TEST(EventString, Errors)
{
    struct Case {
        const char *str;
        pmulib_err code;
        const char *text;
    } cases[] = {
        {"", PMULIB_ERR_BAD_ARG, "event name is empty"},
        {":u", PMULIB_ERR_BAD_ARG, "event name is empty"},
        {"CPU_CYCLE:u", PMULIB_ERR_UNKNOWN_EVENT, "did you mean CPU_CYCLES"},
        {"CPU_CYCLES:x", PMULIB_ERR_BAD_ARG, "unknown modifier ':x'"},
        {"CPU_CYCLES::u", PMULIB_ERR_BAD_ARG, "empty modifier"},
        {"CPU_CYCLES:u:", PMULIB_ERR_BAD_ARG, "empty modifier"},
        {"CPU_CYCLES:u=1", PMULIB_ERR_BAD_ARG, ":u takes no value"},
        {"CPU_CYCLES:plm=0", PMULIB_ERR_BAD_ARG, "privilege-level mask 1..15"},
        {"CPU_CYCLES:plm=16", PMULIB_ERR_BAD_ARG, "privilege-level mask 1..15"},
        {"CPU_CYCLES:plm", PMULIB_ERR_BAD_ARG, "privilege-level mask"},
        {"CPU_CYCLES:plm=010", PMULIB_ERR_BAD_ARG, "privilege-level mask"}, /* no octal */
        {"NOPS_RETIRED:thres=6", PMULIB_ERR_THRESHOLD, "threshold 6 >= maxincr 6 of NOPS_RETIRED (allowed 0..5)"},
        {"CPU_CYCLES:thres=1", PMULIB_ERR_THRESHOLD, "maxincr 1"},
        {"NOPS_RETIRED:thres=-1", PMULIB_ERR_BAD_ARG, "expects a number"},
        {"NOPS_RETIRED:thres=1:thres=2", PMULIB_ERR_BAD_ARG, "given twice"},
        {"NOPS_RETIRED:ism=ia65", PMULIB_ERR_BAD_ARG, "ia64, ia32 or both"},
        {"NOPS_RETIRED:ism=ia64:ism=ia32", PMULIB_ERR_BAD_ARG, "given twice"},
    };
    for (const Case &c : cases) {
        pmulib_event_spec e{};
        pmulib_error err;
        EXPECT_EQ(c.code, pmulib_parse_event(c.str, &e, &err)) << c.str;
        EXPECT_EQ(c.code, err.code) << c.str;
        EXPECT_TRUE(has(err, c.text)) << c.str << ": " << err.msg;
        EXPECT_EQ(std::string::npos, std::string(err.msg).find('\n'));
    }
    pmulib_event_spec e;
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_parse_event(nullptr, &e, nullptr));
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_parse_event("CPU_CYCLES", nullptr, nullptr));
    std::string longstr(300, 'A');
    pmulib_error err;
    EXPECT_EQ(PMULIB_ERR_BAD_ARG, pmulib_parse_event(longstr.c_str(), &e, &err));
    EXPECT_TRUE(has(err, "longer than")) << err.msg;
}

}  // namespace
