// Helpers shared by the stream tests: read a whole stream from a string or a file,
// format records, make scratch file names.
#ifndef STREAM_TEST_UTIL_H
#define STREAM_TEST_UTIL_H

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "stream/pmu_dialect_test_util.h"
#include "harness/ita/ita_family.h"
#include "common/ita/ita_regs.h"
#include "stream/pmu_stream.h"

// The dialect every stream test reads and writes.
#define ITA (&ita_dialect)

struct ReadResult {
    std::vector<ita_cycle> recs;
    std::vector<std::string> wheres; // pmu_stream_where after each record
    int rc = 0;                      // last pmu_stream_next result (0 end, -1 error)
    std::string err;                 // message of an open or read error
    bool opened = false;
};

// Reads r to its end or error with pmu_stream_next, or with pmu_stream_view handing out at
// most view_max cycles a call when view_max is not 0 (each cycle of a run then counts as
// one record, and a reader that failed must fail again with the same message).
inline ReadResult drain(pmu_stream_reader *r, const pmu_err &open_err, unsigned view_max = 0)
{
    ReadResult res;
    if (!r) {
        res.rc = -1;
        res.err = open_err.msg;
        return res;
    }
    res.opened = true;
    ita_cycle c;
    pmu_err err;
    if (view_max) {
        const void *rec = nullptr;
        while ((res.rc = pmu_stream_view(r, &rec, view_max, &err)) > 0) {
            EXPECT_LE((unsigned)res.rc, view_max);
            for (int i = 0; i < res.rc; i++) {
                res.recs.push_back(*static_cast<const ita_cycle *>(rec));
                res.wheres.push_back(pmu_stream_where(r));
            }
        }
        pmu_err again;
        if (res.rc < 0) {
            EXPECT_EQ(pmu_stream_view(r, &rec, view_max, &again), -1);
            EXPECT_STREQ(again.msg, err.msg);
        }
    } else {
        while ((res.rc = pmu_stream_next(r, &c, &err)) == 1) {
            res.recs.push_back(c);
            res.wheres.push_back(pmu_stream_where(r));
        }
    }
    if (res.rc < 0)
        res.err = err.msg;
    pmu_stream_close(r);
    return res;
}

inline ReadResult read_mem(const std::string &data, const char *name = "t.txt")
{
    pmu_err err;
    err.msg[0] = '\0';
    return drain(pmu_stream_open_mem(ITA, data.data(), data.size(), name, &err), err);
}

inline ReadResult read_file(const std::string &path)
{
    pmu_err err;
    err.msg[0] = '\0';
    return drain(pmu_stream_open(ITA, path.c_str(), &err), err);
}

inline std::string fmt(const ita_cycle &c)
{
    char buf[2048];
    ita_cycle_format(&c, buf, sizeof buf);
    return buf;
}

// Field-by-field equality of two records (the fields a record uses).
inline bool same_cycle(const ita_cycle &x, const ita_cycle &y)
{
    bool eq = x.cpl == y.cpl && x.is == y.is && x.power == y.power && x.intr == y.intr &&
              x.up_we == y.up_we && x.up == y.up && x.pp_we == y.pp_we && x.pp == y.pp &&
              x.recirc == y.recirc && x.nslots == y.nslots && x.pid == y.pid &&
              x.if_addr == y.if_addr && x.if_lat == y.if_lat && x.if_tlb == y.if_tlb &&
              x.if_rab == y.if_rab && x.nxev == y.nxev;
    // the general events as a multiset: the text form groups them by slot
    auto key = [](const ita_xev &e) { return std::make_tuple(e.slot, e.id, e.count); };
    std::vector<std::tuple<uint8_t, uint16_t, uint8_t>> ex, ey;
    for (unsigned k = 0; eq && k < x.nxev && k < ITA_MAX_XEV; k++) {
        ex.push_back(key(x.xev[k]));
        ey.push_back(key(y.xev[k]));
    }
    std::sort(ex.begin(), ex.end());
    std::sort(ey.begin(), ey.end());
    eq = eq && ex == ey;
    for (unsigned k = 0; eq && k < x.nslots && k < ITA_MAX_SLOTS; k++) {
        const ita_slot &s = x.slot[k], &t = y.slot[k];
        eq = s.ip == t.ip && s.enc == t.enc && s.daddr == t.daddr && s.target == t.target &&
             s.flags == t.flags && s.lat == t.lat && s.slot == t.slot && s.unit == t.unit &&
             s.tlb == t.tlb;
    }
    return eq;
}

// The message shows the first difference.
inline ::testing::AssertionResult same_records(const std::vector<ita_cycle> &a,
                                               const std::vector<ita_cycle> &b)
{
    if (a.size() != b.size())
        return ::testing::AssertionFailure() << a.size() << " records vs " << b.size();
    for (size_t i = 0; i < a.size(); i++)
        if (!same_cycle(a[i], b[i]))
            return ::testing::AssertionFailure() << "record " << i + 1 << " differs:\n  "
                                                 << fmt(a[i]) << "\n  " << fmt(b[i]);
    return ::testing::AssertionSuccess();
}

inline std::string scratch(const std::string &name)
{
    return ::testing::TempDir() + "pmustream_" + std::to_string(getpid()) + "_" + name;
}

inline std::string slurp(const std::string &path)
{
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

inline void spit(const std::string &path, const std::string &data)
{
    std::ofstream f(path, std::ios::binary);
    f << data;
}

inline void write_stream(const std::string &path, pmu_stream_form form,
                         const std::vector<ita_cycle> &recs)
{
    pmu_err err;
    pmu_stream_writer *w = pmu_stream_create(ITA, path.c_str(), form, &err);
    ASSERT_NE(w, nullptr) << err.msg;
    for (const ita_cycle &c : recs)
        ASSERT_EQ(pmu_stream_write(w, &c, &err), 0) << err.msg;
    ASSERT_EQ(pmu_stream_finish(w, &err), 0) << err.msg;
}

inline std::vector<ita_cycle> generate(uint64_t seed, uint64_t cycles, pmu_gen_mode mode,
                                       unsigned nprocs = 4)
{
    pmu_gen_opts o = {seed, cycles, mode, nprocs};
    return dialect_generate<ita_cycle>(ITA, o);
}

// A valid IA-64 cycle with one plain M-unit slot, for the validation tests to break.
// An Itanium generator, destroyed with the scope.
struct GenPtr {
    pmu_gen *g;
    explicit GenPtr(uint64_t seed, uint64_t cycles, pmu_gen_mode mode, unsigned nprocs = 4)
    {
        pmu_gen_opts o = {seed, cycles, mode, nprocs};
        g = pmu_gen_create(ITA, &o, nullptr);
    }
    ~GenPtr() { pmu_gen_destroy(g); }
    GenPtr(const GenPtr &) = delete;
    GenPtr &operator=(const GenPtr &) = delete;
};

inline ita_cycle base_cycle()
{
    ita_cycle c;
    memset(&c, 0, sizeof c);
    c.cpl = 3;
    c.nslots = 1;
    c.slot[0].ip = 0x4000000000001230ull;
    c.slot[0].unit = ITA_UNIT_M;
    return c;
}

inline unsigned maxincr_of(const char *event)
{
    for (unsigned i = 0; i < ITA_NEVENTS; i++)
        if (std::string(ita_event_table[i].name) == event)
            return ita_event_table[i].maxincr;
    ADD_FAILURE() << "no event " << event;
    return 0;
}

#define EXPECT_CONTAINS(hay, needle)                                                         \
    EXPECT_NE(std::string(hay).find(needle), std::string::npos)                              \
        << "expected \"" << (needle) << "\" in \"" << (hay) << "\""

#endif
