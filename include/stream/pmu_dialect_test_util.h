// stream/pmu_dialect_test_util.h - what the dialect tests share, over any dialect's record type:
// reading a stream held in memory, writing records to a stream and back to bytes, and
// generating records (the Itanium's own helpers are in ita_stream_test_util.h).
#ifndef DIALECT_TEST_UTIL_H
#define DIALECT_TEST_UTIL_H

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "common/pmu_dialect.h"
#include "stream/pmu_stream.h"

template <class Rec> struct DialectRead {
    std::vector<Rec> recs;
    int rc = 0;
    std::string err;
};

// The records of `data` read as a stream called `name`, with the reader's result.
template <class Rec>
DialectRead<Rec> dialect_read_mem(const pmu_dialect *d, const std::string &data, const char *name = "t.txt")
{
    DialectRead<Rec> res;
    pmu_err err;
    err.msg[0] = '\0';
    pmu_stream_reader *r = pmu_stream_open_mem(d, data.data(), data.size(), name, &err);
    if (!r) {
        res.rc = -1;
        res.err = err.msg;
        return res;
    }
    Rec c;
    while ((res.rc = pmu_stream_next(r, &c, &err)) == 1)
        res.recs.push_back(c);
    if (res.rc < 0)
        res.err = err.msg;
    pmu_stream_close(r);
    return res;
}

// The bytes of a stream of `recs` in `form` (written to a scratch file and read back).
template <class Rec>
std::string dialect_write_mem(const pmu_dialect *d, const std::vector<Rec> &recs, pmu_stream_form form)
{
    std::string path = ::testing::TempDir() + d->name + "_stream_" + std::to_string(getpid()) +
                       (form == PMU_STREAM_TEXT ? ".txt" : ".bin");
    pmu_err err;
    pmu_stream_writer *w = pmu_stream_create(d, path.c_str(), form, &err);
    EXPECT_NE(w, nullptr) << err.msg;
    if (!w)
        return "";
    for (const Rec &c : recs)
        EXPECT_EQ(pmu_stream_write(w, &c, &err), 0) << err.msg;
    EXPECT_EQ(pmu_stream_finish(w, &err), 0) << err.msg;
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    std::remove(path.c_str());
    return ss.str();
}

// Every record the generator makes with options o.
template <class Rec> std::vector<Rec> dialect_generate(const pmu_dialect *d, const pmu_gen_opts &o)
{
    pmu_err err;
    pmu_gen *g = pmu_gen_create(d, &o, &err);
    EXPECT_NE(g, nullptr) << err.msg;
    std::vector<Rec> out;
    if (!g)
        return out;
    Rec c;
    while (pmu_gen_next(g, &c) == 1)
        out.push_back(c);
    pmu_gen_destroy(g);
    return out;
}

#endif
