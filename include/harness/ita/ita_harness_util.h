// ita_harness_util.h - shared pieces of the harness tests: a deterministic record maker
// and small backend helpers.
#ifndef HARNESS_UTIL_H
#define HARNESS_UTIL_H

#include <cstdint>
#include <cstring>
#include <string>

#include <gtest/gtest.h>

#include "cli/ita/ita_config.h"
#include "common/pmu_backend.h"

namespace harness_test {

// xorshift64*: the tests' own record source, independent of the stream generator.
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed ? seed : 1) {}
    uint64_t next()
    {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * UINT64_C(2685821657736338717);
    }
    unsigned below(unsigned n) { return static_cast<unsigned>(next() % n); }
};

// A record with every field inside its port range: random CPU state, interruption
// entries and returns, PSR writes, up to six slots with random flags.
inline ita_cycle random_record(Rng &r)
{
    ita_cycle c;
    std::memset(&c, 0, sizeof c);
    c.cpl = static_cast<uint8_t>(r.below(4));
    c.is = static_cast<uint8_t>(r.below(8) == 0);
    c.power = static_cast<uint8_t>(r.below(16) == 0 ? r.below(4) : 0);
    unsigned intr = r.below(32);
    c.intr = static_cast<uint8_t>(intr == 0 ? ITA_INTR_ENTRY : intr == 1 ? ITA_INTR_RETURN : 0);
    c.up_we = static_cast<uint8_t>(r.below(16) == 0);
    c.up = static_cast<uint8_t>(r.below(2));
    c.pp_we = static_cast<uint8_t>(r.below(16) == 0);
    c.pp = static_cast<uint8_t>(r.below(2));
    c.recirc = static_cast<uint8_t>(r.below(5));
    const bool halted = c.power >= ITA_POWER_LIGHT_HALT;
    c.nslots = static_cast<uint8_t>(halted ? 0 : r.below(ITA_MAX_SLOTS + 1));
    for (unsigned k = 0; k < c.nslots; k++) {
        ita_slot &s = c.slot[k];
        s.ip = (r.next() & ~UINT64_C(0xf)) | (k / 3);
        s.slot = static_cast<uint8_t>(k % 3);
        s.unit = static_cast<uint8_t>(r.below(4));
        s.enc = r.next() & ((UINT64_C(1) << 41) - 1);
        s.daddr = r.next();
        s.flags = static_cast<uint16_t>(r.next() & 0x3fff);
    }
    return c;
}

// A quiet record: cpl/instruction count chosen by the caller, nothing else.
inline ita_cycle simple_record(unsigned cpl, unsigned nslots, uint16_t flags = 0)
{
    ita_cycle c;
    std::memset(&c, 0, sizeof c);
    c.cpl = static_cast<uint8_t>(cpl);
    c.nslots = static_cast<uint8_t>(nslots);
    for (unsigned k = 0; k < nslots; k++) {
        c.slot[k].slot = static_cast<uint8_t>(k % 3);
        c.slot[k].flags = flags;
    }
    return c;
}

inline uint16_t vis_addr(unsigned v) { return ita_vis_table[v].addr; }

// Parses a configuration text or fails the calling test.
inline std::string parse_config(const std::string &text, ita_model m, ita_config *cfg)
{
    pmu_err err;
    std::memset(&err, 0, sizeof err);
    if (ita_config_parse(text.data(), text.size(), "test.cfg", m, 1, cfg, &err) != 0)
        return err.msg;
    return "";
}

// Parses text that must parse (a failure is reported against the calling test).
inline ita_config must_parse(const std::string &text, ita_model m = ITA_MODEL_ITANIUM2)
{
    ita_config cfg;
    std::string err = parse_config(text, m, &cfg);
    EXPECT_EQ(err, "") << text;
    return cfg;
}

// Parses text that must fail; returns the message.
inline std::string must_fail(const std::string &text, ita_model m = ITA_MODEL_ITANIUM2)
{
    ita_config cfg;
    std::string err = parse_config(text, m, &cfg);
    EXPECT_NE(err, "") << "accepted: " << text;
    return err;
}

inline bool has(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

// A file of the repository: __FILE__ is this header's path, include/harness/ita/..., as the
// build (run from the root, -Iinclude) names it; with an absolute path the root is cut from it.
inline std::string repo_file(const std::string &rel)
{
    std::string self = __FILE__;
    const size_t cut = self.rfind("include/harness/ita/");
    return (cut == std::string::npos ? std::string() : self.substr(0, cut)) + rel;
}

}  // namespace harness_test

#endif
