// The generator: determinism, validity over millions of records in both modes, and the
// workload's model (every feature it claims, PSR.up per process, branch targets
// followed, instruction addresses inside the symbol file's functions).
#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "stream/ita/ita_stream_test_util.h"

namespace {

// Runs a generator, calling f(record, index) for each; returns the number produced.
template <class F> uint64_t each_record(uint64_t seed, uint64_t cycles, pmu_gen_mode mode, F f,
                                        unsigned nprocs = 4)
{
    GenPtr gen(seed, cycles, mode, nprocs);
    EXPECT_NE(gen.g, nullptr);
    if (!gen.g)
        return 0;
    ita_cycle c;
    uint64_t n = 0;
    while (pmu_gen_next(gen.g, &c) == 1)
        f(c, n++);
    return n;
}

void expect_all_valid(uint64_t seed, uint64_t cycles, pmu_gen_mode mode, unsigned nprocs = 4)
{
    uint64_t bad = 0;
    std::string first;
    uint64_t n = each_record(seed, cycles, mode, [&](const ita_cycle &c, uint64_t i) {
        pmu_err err;
        if (ita_cycle_validate(&c, "gen", &err)) {
            if (!bad++)
                first = "record " + std::to_string(i + 1) + ": " + err.msg + "\n  " + fmt(c);
        }
    }, nprocs);
    EXPECT_EQ(n, cycles);
    EXPECT_EQ(bad, 0u) << "seed " << seed << " mode " << mode << " procs " << nprocs << ": "
                       << first;
}

struct Symbol {
    uint64_t start, end;
    std::string name;
};

std::vector<Symbol> symbols_of(uint64_t seed, unsigned nprocs = 4)
{
    GenPtr gen(seed, 0, PMU_GEN_WORKLOAD, nprocs);
    std::string path = scratch("sym_" + std::to_string(seed) + ".txt");
    pmu_err err;
    EXPECT_EQ(pmu_gen_write_symbols(gen.g, path.c_str(), &err), 0) << err.msg;
    std::vector<Symbol> out;
    std::istringstream in(slurp(path));
    std::string line;
    while (std::getline(in, line)) {
        Symbol s;
        char name[128];
        unsigned long long a, b;
        EXPECT_EQ(sscanf(line.c_str(), "%llx %llx %127s", &a, &b, name), 3) << line;
        s.start = a;
        s.end = b;
        s.name = name;
        out.push_back(s);
    }
    remove(path.c_str());
    return out;
}

const Symbol *find_symbol(const std::vector<Symbol> &syms, uint64_t ip)
{
    auto it = std::upper_bound(syms.begin(), syms.end(), ip,
                               [](uint64_t v, const Symbol &s) { return v < s.start; });
    if (it == syms.begin())
        return nullptr;
    --it;
    return ip < it->end ? &*it : nullptr;
}

uint64_t fnv(uint64_t h, const std::string &s)
{
    for (unsigned char ch : s)
        h = (h ^ ch) * 0x100000001b3ull;
    return h;
}

} // namespace

// ---- determinism --------------------------------------------------------------------
TEST(Gen, SameSeedSameStream)
{
    for (pmu_gen_mode mode : {PMU_GEN_WORKLOAD, PMU_GEN_RANDOM}) {
        GenPtr a(42, 300000, mode), b(42, 300000, mode);
        ASSERT_NE(a.g, nullptr);
        ASSERT_NE(b.g, nullptr);
        ita_cycle ca, cb;
        uint64_t n = 0;
        while (pmu_gen_next(a.g, &ca) == 1) {
            ASSERT_EQ(pmu_gen_next(b.g, &cb), 1);
            ASSERT_TRUE(same_cycle(ca, cb)) << "record " << n << ":\n  " << fmt(ca) << "\n  " << fmt(cb);
            n++;
        }
        EXPECT_EQ(pmu_gen_next(b.g, &cb), 0);
        EXPECT_EQ(n, 300000u);
    }
}

TEST(Gen, DifferentSeedsDiffer)
{
    for (pmu_gen_mode mode : {PMU_GEN_WORKLOAD, PMU_GEN_RANDOM}) {
        std::set<uint64_t> hashes;
        for (uint64_t seed : {1ull, 2ull, 3ull, 0x123456789abcdefull}) {
            uint64_t h = 0xcbf29ce484222325ull;
            each_record(seed, 20000, mode, [&](const ita_cycle &c, uint64_t) { h = fnv(h, fmt(c)); });
            hashes.insert(h);
        }
        EXPECT_EQ(hashes.size(), 4u) << "mode " << mode;
    }
    // the programs differ too
    std::vector<Symbol> a = symbols_of(1), b = symbols_of(2);
    bool differ = a.size() != b.size();
    for (size_t i = 0; !differ && i < a.size(); i++)
        differ = a[i].start != b[i].start || a[i].end != b[i].end;
    EXPECT_TRUE(differ);
}

TEST(Gen, ProducesExactlyTheCount)
{
    GenPtr g(7, 1234, PMU_GEN_WORKLOAD);
    ita_cycle c;
    int n = 0;
    while (pmu_gen_next(g.g, &c) == 1)
        n++;
    EXPECT_EQ(n, 1234);
    EXPECT_EQ(pmu_gen_next(g.g, &c), 0);
    EXPECT_EQ(pmu_gen_next(g.g, &c), 0);
    GenPtr none(7, 0, PMU_GEN_RANDOM);
    EXPECT_EQ(pmu_gen_next(none.g, &c), 0);
}

TEST(Gen, CreateChecksOptions)
{
    pmu_gen_opts bad_mode = {1, 10, (pmu_gen_mode)7, 4};
    EXPECT_EQ(pmu_gen_create(ITA, &bad_mode, nullptr), nullptr);
    pmu_gen_opts too_many = {1, 10, PMU_GEN_WORKLOAD, 65};
    EXPECT_EQ(pmu_gen_create(ITA, &too_many, nullptr), nullptr);
    EXPECT_EQ(pmu_gen_create(ITA, nullptr, nullptr), nullptr);
    // each refusal says why
    pmu_err err;
    EXPECT_EQ(pmu_gen_create(ITA, &bad_mode, &err), nullptr);
    EXPECT_CONTAINS(err.msg, "generator: mode 7, expected workload (0) or random (1)");
    EXPECT_EQ(err.code, PMU_E_INPUT);
    EXPECT_EQ(pmu_gen_create(ITA, &too_many, &err), nullptr);
    EXPECT_CONTAINS(err.msg, "generator: 65 processes, expected 1..64");
    // nprocs 0 means the default, 4 processes
    std::vector<Symbol> syms = symbols_of(3, 0);
    int mains = 0;
    for (const Symbol &s : syms)
        mains += s.name.size() > 5 && s.name.compare(s.name.size() - 5, 5, ":main") == 0;
    EXPECT_EQ(mains, 4);
}

// ---- validity -------------------------------------------------------------------------
TEST(Gen, WorkloadAlwaysValid)
{
    for (uint64_t seed = 1; seed <= 12; seed++)
        expect_all_valid(seed * 0x9e3779b97f4a7c15ull, 250000, PMU_GEN_WORKLOAD);
    for (unsigned procs : {1u, 2u, 3u, 8u, 64u})
        expect_all_valid(100 + procs, 150000, PMU_GEN_WORKLOAD, procs);
}

TEST(Gen, RandomAlwaysValid)
{
    for (uint64_t seed = 1; seed <= 8; seed++)
        expect_all_valid(seed, 250000, PMU_GEN_RANDOM);
}

TEST(Gen, RandomCoversTheFieldSpace)
{
    std::set<int> cpl, is, power, intr, nslots, recirc, tlb, unit, syll, upw, ppw, if_tlb, if_rab,
        lat_bins, nxev, xev_counts;
    std::set<std::pair<int, int>> br_pred;
    std::set<std::tuple<int, int, int>> br_pred_taken;
    uint16_t flags_seen = 0;
    uint64_t xev_attributed = 0, xev_unattributed = 0, data_tlb_miss = 0;
    std::set<unsigned> xev_ids;
    each_record(9, 200000, PMU_GEN_RANDOM, [&](const ita_cycle &c, uint64_t) {
        if (c.if_lat || c.if_tlb || c.if_rab) {
            if_tlb.insert(c.if_tlb);
            if_rab.insert(c.if_rab);
            // the I-EAR's bins (docs/ita-ear-btb.md): 0 none, below 4, then [4,8) .. >= 4096
            static const unsigned edges[] = {1, 4, 8, 16, 32, 128, 256, 1024, 4096};
            int bin = 0;
            for (unsigned e : edges)
                bin += c.if_lat >= e;
            lat_bins.insert(bin);
        }
        nxev.insert(c.nxev);
        for (int i = 0; i < c.nxev; i++) {
            xev_ids.insert(c.xev[i].id);
            xev_counts.insert(c.xev[i].count);
            (c.xev[i].slot == ITA_XEV_NO_SLOT ? xev_unattributed : xev_attributed)++;
        }
        cpl.insert(c.cpl);
        is.insert(c.is);
        power.insert(c.power);
        intr.insert(c.intr);
        nslots.insert(c.nslots);
        recirc.insert(c.recirc);
        if (c.up_we)
            upw.insert(c.up);
        if (c.pp_we)
            ppw.insert(c.pp);
        for (int i = 0; i < c.nslots; i++) {
            const ita_slot &s = c.slot[i];
            flags_seen |= s.flags;
            tlb.insert(s.tlb);
            unit.insert(s.unit);
            syll.insert(s.slot);
            br_pred.insert({(int)ITA_SLOT_GET(&s, BR_TYPE), (int)ITA_SLOT_GET(&s, BR_PRED)});
            br_pred_taken.insert({(int)ITA_SLOT_GET(&s, BR_TYPE), (int)ITA_SLOT_GET(&s, BR_PRED),
                                  (int)ITA_SLOT_GET(&s, TAKEN)});
            data_tlb_miss += (ITA_SLOT_GET(&s, LOAD) || ITA_SLOT_GET(&s, STORE)) && s.tlb == ITA_TLB_FAULT;
        }
    });
    EXPECT_EQ(if_tlb.size(), 4u);
    EXPECT_EQ(if_rab.size(), 2u);
    EXPECT_EQ(lat_bins.size(), 10u); // every bin, the latencies below 4, and a TLB-only fetch
    EXPECT_EQ(nxev.size(), (size_t)ITA_MAX_XEV + 1);
    EXPECT_GT(xev_ids.size(), 100u);
    EXPECT_GT(xev_counts.size(), 2u);
    EXPECT_GT(xev_attributed, 0u);
    EXPECT_GT(xev_unattributed, 0u);
    EXPECT_GT(data_tlb_miss, 0u);
    EXPECT_EQ(br_pred_taken.size(), 1u + 3u * 4u * 2u); // every type, prediction and taken
    EXPECT_EQ(cpl.size(), 4u);
    EXPECT_EQ(is.size(), 2u);
    EXPECT_EQ(power.size(), 4u);
    EXPECT_EQ(intr.size(), 3u);
    EXPECT_EQ(nslots.size(), (size_t)ITA_MAX_SLOTS + 1);
    EXPECT_EQ(recirc.size(), (size_t)maxincr_of("L2_FORCE_RECIRC_ANY") + 1);
    EXPECT_EQ(tlb.size(), 4u);
    EXPECT_EQ(unit.size(), 4u);
    EXPECT_EQ(syll.size(), 3u);
    EXPECT_EQ(upw.size(), 2u);
    EXPECT_EQ(ppw.size(), 2u);
    EXPECT_EQ(br_pred.size(), 1u + 3u * 4u); // not a branch, or any type with any prediction
    uint16_t all = 0;
#define ITA_SLOT_FLAG(name, msb, lsb, key, desc) all |= (uint16_t)ITA_SF_##name##_MASK;
#include "common/ita/ita_regs.def"
#undef ITA_SLOT_FLAG
    EXPECT_EQ(flags_seen, all);
}

// ---- the workload model ---------------------------------------------------------------
TEST(Gen, WorkloadHasEveryFeature)
{
    for (uint64_t seed : {1ull, 2ull, 3ull}) {
        SCOPED_TRACE("seed " + std::to_string(seed));
        std::vector<Symbol> syms = symbols_of(seed);
        uint64_t pid_changes = 0, pid_change_outside_kernel = 0, entries = 0, bad_entries = 0,
                 returns_to_user = 0, ia32_cycles = 0, bad_ia32 = 0, syscalls = 0, timers = 0,
                 low_power = 0, halted = 0, back_to_normal = 0, l1d = 0, l2 = 0, rse = 0,
                 recirc = 0, up_off = 0, up_on_after_off = 0, nops = 0, squashed = 0, fp = 0,
                 stores = 0, loads = 0, loop_taken = 0, loop_back = 0;
        std::set<int> widths;
        std::set<std::pair<int, int>> mispredicts;
        bool first_ok = false;
        ita_cycle prev;
        memset(&prev, 0, sizeof prev);
        each_record(seed, 1500000, PMU_GEN_WORKLOAD, [&](const ita_cycle &c, uint64_t i) {
            if (i == 0)
                first_ok = c.up_we && c.up && c.pp_we && c.pp;
            if (i && c.pid != prev.pid) {
                pid_changes++;
                pid_change_outside_kernel += c.cpl != 0;
            }
            if (c.intr == ITA_INTR_ENTRY) {
                entries++;
                bool kernel = c.cpl == 0 && c.is == 0;
                for (int s = 0; s < c.nslots; s++)
                    kernel = kernel && c.slot[s].ip >= 0xe000000000000000ull;
                bad_entries += !kernel;
                const Symbol *sym = c.nslots ? find_symbol(syms, c.slot[0].ip) : nullptr;
                if (sym && sym->name == "kernel:ivt_break")
                    syscalls++;
                if (sym && sym->name == "kernel:ivt_external_interrupt")
                    timers++;
            }
            if (c.intr == ITA_INTR_RETURN && c.cpl == 3)
                returns_to_user++;
            if (c.is) {
                ia32_cycles++;
                for (int s = 0; s < c.nslots; s++)
                    bad_ia32 += c.slot[s].slot != 0 || c.slot[s].enc != 0 || c.slot[s].ip >> 32;
            }
            low_power += c.power == ITA_POWER_LOW_POWER;
            halted += c.power == ITA_POWER_LIGHT_HALT || c.power == ITA_POWER_HALT;
            back_to_normal += c.power == ITA_POWER_NORMAL && prev.power != ITA_POWER_NORMAL && i;
            recirc += c.recirc != 0;
            if (c.up_we && !c.up && c.cpl == 3 && c.intr != ITA_INTR_RETURN)
                up_off++;
            if (c.up_we && c.up && c.cpl == 3 && c.intr != ITA_INTR_RETURN && up_off)
                up_on_after_off++;
            if (c.power <= ITA_POWER_LOW_POWER)
                widths.insert(c.nslots);
            for (int s = 0; s < c.nslots; s++) {
                const ita_slot &sl = c.slot[s];
                l1d += ITA_SLOT_GET(&sl, L1D_MISS);
                l2 += ITA_SLOT_GET(&sl, L2_MISS);
                rse += ITA_SLOT_GET(&sl, RSE);
                nops += ITA_SLOT_GET(&sl, NOP);
                squashed += ITA_SLOT_GET(&sl, PRED_OFF);
                fp += ITA_SLOT_GET(&sl, FP);
                stores += ITA_SLOT_GET(&sl, STORE);
                loads += ITA_SLOT_GET(&sl, LOAD);
                unsigned br = ITA_SLOT_GET(&sl, BR_TYPE), pred = ITA_SLOT_GET(&sl, BR_PRED);
                if (br && pred >= 2)
                    mispredicts.insert({(int)br, (int)pred});
                if (br == 1 && sl.target < sl.ip && !c.is) {
                    loop_back++;
                    loop_taken += ITA_SLOT_GET(&sl, TAKEN);
                }
            }
            prev = c;
        });
        EXPECT_TRUE(first_ok) << "the first record writes up=1 pp=1";
        EXPECT_GE(pid_changes, 10u);
        EXPECT_EQ(pid_change_outside_kernel, 0u);
        EXPECT_GE(entries, 50u);
        EXPECT_EQ(bad_entries, 0u);
        EXPECT_GE(returns_to_user, 50u);
        EXPECT_GE(syscalls, 10u);
        EXPECT_GE(timers, 10u);
        EXPECT_GE(ia32_cycles, 1000u);
        EXPECT_EQ(bad_ia32, 0u);
        EXPECT_GE(low_power, 100u);
        EXPECT_GE(halted, 100u);
        EXPECT_GE(back_to_normal, 5u);
        EXPECT_GE(l1d, 1000u);
        EXPECT_GE(l2, 100u);
        EXPECT_GE(rse, 10u);
        EXPECT_GE(recirc, 100u);
        EXPECT_GE(up_off, 1u);
        EXPECT_GE(up_on_after_off, 1u);
        EXPECT_GE(nops, 1000u);
        EXPECT_GE(squashed, 1000u);
        EXPECT_GE(fp, 100u);
        EXPECT_GE(stores, 1000u);
        EXPECT_GE(loads, 1000u);
        EXPECT_EQ(mispredicts.size(), 6u) << "each branch type mispredicted in path and target";
        for (int w = 0; w <= ITA_MAX_SLOTS; w++)
            EXPECT_TRUE(widths.count(w)) << w << " slots in a cycle never seen";
        ASSERT_GT(loop_back, 1000u);
        EXPECT_GT(loop_taken * 10, loop_back * 7) << "backward branches are mostly taken";
    }
}

// PSR.up, computed as docs/ita-semantics.md says (entry saves it in IPSR, return restores it,
// then the record's own write), is in user mode always what that process last set.
TEST(Gen, WorkloadPsrUpFollowsEachProcess)
{
    for (uint64_t seed : {4ull, 5ull}) {
        unsigned psr_up = 0, ipsr_up = 0;
        std::map<unsigned, unsigned> wanted; // pid -> the up value its own code set
        uint64_t user = 0, wrong = 0, rum = 0;
        std::string first_wrong;
        each_record(seed, 1000000, PMU_GEN_WORKLOAD, [&](const ita_cycle &c, uint64_t i) {
            if (c.intr == ITA_INTR_ENTRY)
                ipsr_up = psr_up;
            if (c.intr == ITA_INTR_RETURN)
                psr_up = ipsr_up;
            if (c.up_we)
                psr_up = c.up;
            if (c.cpl != 3)
                return;
            if (!wanted.count(c.pid))
                wanted[c.pid] = 1;
            if (c.up_we && c.intr != ITA_INTR_RETURN) {
                wanted[c.pid] = c.up;
                rum += !c.up;
            }
            user++;
            if (psr_up != wanted[c.pid] && !wrong++)
                first_wrong = "record " + std::to_string(i + 1) + ": " + fmt(c);
        });
        EXPECT_GT(user, 100000u);
        EXPECT_GT(rum, 0u);
        EXPECT_EQ(wrong, 0u) << first_wrong;
    }
}

// A taken branch ends its cycle's group; the next instruction retired in the same
// context is at its target.
TEST(Gen, WorkloadFollowsBranchTargets)
{
    for (uint64_t seed : {6ull, 7ull}) {
        bool pending = false;
        uint64_t target = 0, checked = 0, wrong = 0, not_last = 0;
        std::string first_wrong;
        each_record(seed, 1000000, PMU_GEN_WORKLOAD, [&](const ita_cycle &c, uint64_t i) {
            if (c.intr != ITA_INTR_NONE)
                pending = false; // an interruption or rfi: a different context
            if (pending && c.nslots) {
                checked++;
                if (c.slot[0].ip != target && !wrong++)
                    first_wrong = "record " + std::to_string(i + 1) + ": " + fmt(c);
                pending = false;
            }
            for (int s = 0; s < c.nslots; s++) {
                if (ITA_SLOT_GET(&c.slot[s], BR_TYPE) && ITA_SLOT_GET(&c.slot[s], TAKEN)) {
                    not_last += s != c.nslots - 1;
                    pending = true;
                    target = c.slot[s].target;
                }
            }
        });
        EXPECT_GT(checked, 50000u);
        EXPECT_EQ(wrong, 0u) << first_wrong;
        EXPECT_EQ(not_last, 0u);
    }
}

TEST(Gen, WorkloadIpsAreInsideFunctions)
{
    std::vector<Symbol> syms = symbols_of(8);
    uint64_t outside = 0, slots = 0;
    std::string first;
    each_record(8, 500000, PMU_GEN_WORKLOAD, [&](const ita_cycle &c, uint64_t i) {
        for (int s = 0; s < c.nslots; s++, slots++)
            if (!find_symbol(syms, c.slot[s].ip) && !outside++)
                first = "record " + std::to_string(i + 1) + ": " + fmt(c);
    });
    EXPECT_GT(slots, 100000u);
    EXPECT_EQ(outside, 0u) << first;
}

TEST(Gen, SymbolFile)
{
    std::vector<Symbol> syms = symbols_of(9);
    ASSERT_GT(syms.size(), 20u);
    std::set<std::string> names;
    int kernel = 0, libc = 0, mains = 0;
    for (size_t i = 0; i < syms.size(); i++) {
        const Symbol &s = syms[i];
        EXPECT_LT(s.start, s.end) << s.name;
        if (i) {
            EXPECT_LE(syms[i - 1].end, s.start) << "overlap: " << syms[i - 1].name << " " << s.name;
        }
        EXPECT_TRUE(names.insert(s.name).second) << "duplicate " << s.name;
        kernel += s.name.rfind("kernel:", 0) == 0;
        libc += s.name.rfind("libc:", 0) == 0;
        mains += s.name.size() > 5 && s.name.compare(s.name.size() - 5, 5, ":main") == 0;
    }
    EXPECT_GT(kernel, 5);
    EXPECT_GT(libc, 3);
    EXPECT_EQ(mains, 4);
    GenPtr g(1, 1, PMU_GEN_WORKLOAD);
    pmu_err err;
    EXPECT_NE(pmu_gen_write_symbols(g.g, "/nonexistent-dir/sym.txt", &err), 0);
    EXPECT_CONTAINS(err.msg, "/nonexistent-dir/sym.txt");
}

// The stream of a seed is part of the interface: a seed printed in a report must give
// the same stream on another machine and with a later build.  If a change to the
// generator is intended, seeds printed by older builds stop reproducing: say so in the
// change and update these values.
TEST(Gen, StreamOfASeedIsPinned)
{
    const struct {
        pmu_gen_mode mode;
        uint64_t hash;
    } pinned[] = {
        /* with the exact encodings, fetches, ALAT misses and general events (docs/ita-stream-format.md) */
        {PMU_GEN_WORKLOAD, 0xed1bb7d7fd8d5182ull},
        {PMU_GEN_RANDOM, 0x80b53d3a07e751aeull},
    };
    for (const auto &p : pinned) {
        uint64_t h = 0xcbf29ce484222325ull;
        each_record(2024, 20000, p.mode, [&](const ita_cycle &c, uint64_t) { h = fnv(h, fmt(c) + "\n"); });
        EXPECT_EQ(h, p.hash) << "mode " << p.mode << ": 0x" << std::hex << h;
    }
}

TEST(Gen, WorkloadHasFetchesAlatMissesAndGeneralEvents)
{
    uint64_t fetches = 0, long_fetches = 0, rab = 0, itlb = 0, alat = 0, xev = 0, attributed = 0;
    each_record(1, 400000, PMU_GEN_WORKLOAD, [&](const ita_cycle &c, uint64_t) {
        fetches += c.if_lat != 0;
        long_fetches += c.if_lat >= 4096;
        rab += c.if_rab;
        itlb += c.if_tlb != 0;
        for (int i = 0; i < c.nslots; i++)
            alat += ITA_SLOT_GET(&c.slot[i], ALAT_MISS);
        xev += c.nxev;
        for (int i = 0; i < c.nxev; i++)
            attributed += c.xev[i].slot != ITA_XEV_NO_SLOT;
        pmu_err err;
        EXPECT_EQ(ita_cycle_validate(&c, "gen", &err), 0) << err.msg;
    });
    EXPECT_GT(fetches, 1000u);
    EXPECT_GT(long_fetches, 0u);
    EXPECT_GT(rab, 0u);
    EXPECT_GT(itlb, 0u);
    EXPECT_GT(alat, 0u);
    EXPECT_GT(xev, 100u);
    EXPECT_GT(attributed, 0u);
}

// A generator source that keeps its last k records (pmu_source_keep) hands out what
// pmu_gen_next produces, and, after cycles are given back (pmu_source_unread), the same
// records again, with the count and the where text of the record last handed out.
TEST(Gen, KeptRecordsAreHandedOutAgainAfterTheyAreGivenBack)
{
    const uint64_t cycles = 2000;
    const std::vector<ita_cycle> want = generate(5, cycles, PMU_GEN_WORKLOAD);
    for (unsigned k : {2u, 3u, 130u})
        for (uint64_t seed : {1u, 2u}) {
            SCOPED_TRACE("keeping " + std::to_string(k) + ", seed " + std::to_string(seed));
            pmu_err err;
            pmu_gen_opts o = {};
            o.seed = 5;
            o.cycles = cycles;
            o.mode = PMU_GEN_WORKLOAD;
            pmu_source *s = pmu_source_generator(ITA, &o, &err);
            ASSERT_NE(s, nullptr) << err.msg;
            ASSERT_EQ(pmu_source_keep(s, k, &err), 0) << err.msg;
            std::mt19937_64 rng(seed);
            uint64_t pos = 0, newest = 0; // handed out; generated
            unsigned backs = 0, ends = 0;
            for (;;) {
                const void *rec = nullptr;
                ita_cycle buf;
                const int got = rng() % 5 == 0 ? pmu_source_next(s, &buf, &err)
                                               : pmu_source_view(s, &buf, &rec, 7, &err);
                if (got == 1) {
                    ASSERT_LT(pos, cycles);
                    ASSERT_TRUE(same_cycle(rec ? *static_cast<const ita_cycle *>(rec) : buf,
                                           want[pos]))
                        << pos;
                    pos++;
                    newest = std::max(newest, pos);
                    ASSERT_EQ(pmu_source_count(s), pos);
                    ASSERT_EQ(std::string(pmu_source_where(s)),
                              "generator (workload mode, seed 5), record " + std::to_string(pos - 1));
                } else {
                    ASSERT_EQ(got, 0) << err.msg;
                    if (ends++) // give back at the end once, and go to the end again
                        break;
                }
                if (rng() % 16 != 0 && got != 0)
                    continue;
                // at most the records of the last k - 1 calls (one record each)
                const uint64_t oldest = newest >= k - 1 ? newest - (k - 1) : 0;
                const uint64_t back = rng() % (pos - oldest + 1);
                pmu_source_unread(s, (unsigned)back);
                pos -= back;
                backs += back != 0;
                ASSERT_EQ(pmu_source_count(s), pos);
            }
            EXPECT_EQ(pos, cycles);
            EXPECT_GT(backs, 10u);
            // keep is refused once a record was handed out
            EXPECT_NE(pmu_source_keep(s, 1u << 19, &err), 0);
            EXPECT_CONTAINS(err.msg, "only before the first record");
            pmu_source_close(s);
        }
    // a ring of more than 2^20 records is refused
    pmu_err err;
    pmu_gen_opts o = {};
    o.seed = 5;
    o.cycles = 10;
    pmu_source *s = pmu_source_generator(ITA, &o, &err);
    ASSERT_NE(s, nullptr) << err.msg;
    EXPECT_NE(pmu_source_keep(s, (1u << 20) + 1, &err), 0);
    EXPECT_CONTAINS(err.msg, "pmu_source_keep: 1048577 records, expected at most 1048576");
    EXPECT_EQ(pmu_source_keep(s, 1u << 20, &err), 0) << err.msg;
    pmu_source_close(s);
}
