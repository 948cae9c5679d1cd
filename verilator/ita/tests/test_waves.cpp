// test_waves.cpp - the FST waveforms of the RTL backend, read back with the FST reader
// that Verilator ships: the time axis counts cycle records, register writes fall
// between records, and every signal docs/pmusim.gtkw names exists in a dump.  The save file
// `run --waves` writes beside an FST: docs/pmusim.gtkw itself, with its view and marker.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

#include "gtkwave/fstapi.h"
#include "harness/ita/ita_harness_util.h"
#include "harness/ita/ita_rtl.h"
#include "cli/pmu_cli.h"

using namespace harness_test;

namespace {

const uint64_t kPsPerRecord = 1000;  // verilator/ita/rtl_backend.cpp: 1 ns per record

// The signals of an FST file by their GTKWave names ("TOP.ita_pmu.cpl_i[1:0]").
class Fst {
public:
    explicit Fst(const std::string &path) : ctx_(fstReaderOpen(path.c_str()))
    {
        if (!ctx_) return;
        std::vector<std::string> scope;
        while (fstHier *h = fstReaderIterateHier(ctx_)) {
            if (h->htyp == FST_HT_SCOPE) {
                scope.push_back(h->u.scope.name);
            } else if (h->htyp == FST_HT_UPSCOPE) {
                scope.pop_back();
            } else if (h->htyp == FST_HT_VAR) {
                std::string name;
                for (const std::string &s : scope) name += s + ".";
                std::string var = h->u.var.name;
                const size_t sp = var.find(" [");  // Verilator writes "cnt [46:0]"
                if (sp != std::string::npos) var.erase(sp, 1);
                handles_[name + var] = h->u.var.handle;
            }
        }
    }
    ~Fst()
    {
        if (ctx_) fstReaderClose(ctx_);
    }
    bool ok() const { return ctx_ != nullptr; }
    bool has(const std::string &name) const { return handles_.count(name) != 0; }
    int8_t timescale() { return fstReaderGetTimescale(ctx_); }
    uint64_t start() { return fstReaderGetStartTime(ctx_); }
    uint64_t end() { return fstReaderGetEndTime(ctx_); }
    // The value at time t as a bit string, MSB first ("" if unknown).
    std::string bits(const std::string &name, uint64_t t)
    {
        auto it = handles_.find(name);
        if (it == handles_.end()) return "";
        char buf[1024];
        const char *v = fstReaderGetValueFromHandleAtTime(ctx_, t, it->second, buf);
        return v ? v : "";
    }
    // The value at time t as an unsigned number (-1 if unknown).
    int64_t value(const std::string &name, uint64_t t)
    {
        const std::string b = bits(name, t);
        if (b.empty()) return -1;
        const char *v = b.c_str();
        int64_t x = 0;
        for (const char *p = v; *p; p++) {
            if (*p != '0' && *p != '1') return -1;
            x = x << 1 | (*p - '0');
        }
        return x;
    }

private:
    void *ctx_;
    std::map<std::string, fstHandle> handles_;
};

std::string temp_path(const char *suffix)
{
    return std::string("/tmp/pmusim_waves_") + std::to_string(getpid()) + suffix;
}

// Runs `records` random records on a fresh RTL backend with a trace from cycle
// `from`; software writes PMC0 before every 10th record.  Returns the records.
std::vector<ita_cycle> traced_run(const std::string &path, ita_model m, unsigned records,
                                  unsigned from)
{
    ita_params p = ita_params_default();
    p.model = m;
    char why[256];
    pmu_backend *b = ita_rtl_create(&p, why, sizeof why);
    EXPECT_NE(b, nullptr) << why;
    std::vector<ita_cycle> out;
    if (!b) return out;
    Rng r(99);
    for (unsigned i = 0; i < records; i++) {
        if (i == from) {
            EXPECT_EQ(pmu_trace_open(b, path.c_str(), nullptr), 0);
        }
        if (i % 10 == 0) {
            pmu_write(b, vis_addr(ITA_VIS_PMC0), 0);
            pmu_write(b, vis_addr(ITA_VIS_DCR), i & 1);
        }
        out.push_back(random_record(r));
        pmu_step(b, &out.back());
    }
    EXPECT_EQ(pmu_trace_close(b, nullptr), 0);
    pmu_destroy(b);
    return out;
}

TEST(Waves, TimeAxisCountsCycleRecords)
{
    const std::string path = temp_path("_axis.fst");
    std::vector<ita_cycle> recs = traced_run(path, ITA_MODEL_ITANIUM2, 120, 0);
    ASSERT_EQ(recs.size(), 120u);
    Fst f(path);
    ASSERT_TRUE(f.ok());
    EXPECT_EQ(f.timescale(), -12);  // ps resolution, records 1 ns apart
    EXPECT_EQ(f.end(), 119 * kPsPerRecord + 500);
    // Record 0 is the exception: the writes before it cannot be drawn before time 0,
    // so it starts a few ps late.
    EXPECT_EQ(f.value("TOP.ita_pmu.cpl_i[1:0]", 100), recs[0].cpl);
    for (unsigned t = 1; t < recs.size(); t++) {
        const uint64_t at = t * kPsPerRecord;
        ASSERT_EQ(f.value("TOP.ita_pmu.cpl_i[1:0]", at), recs[t].cpl) << "record " << t;
        ASSERT_EQ(f.value("TOP.ita_pmu.nslots_i[2:0]", at), recs[t].nslots) << "record " << t;
        ASSERT_EQ(f.value("TOP.ita_pmu.cyc_valid_i", at), 1) << "record " << t;
        ASSERT_EQ(f.value("TOP.ita_pmu.clk_i", at), 0);
        ASSERT_EQ(f.value("TOP.ita_pmu.clk_i", at + 500), 1);
        // Writes before every 10th record fall in the 0.4 ns before it.
        if (t % 10 == 0 && t > 0) {
            ASSERT_EQ(f.value("TOP.ita_pmu.reg_we_i", at - 400), 1) << "record " << t;
            ASSERT_EQ(f.value("TOP.ita_pmu.cyc_valid_i", at - 400), 0);
            ASSERT_EQ(f.value("TOP.ita_pmu.reg_addr_i[11:0]", at - 400), vis_addr(ITA_VIS_PMC0));
            ASSERT_EQ(f.value("TOP.ita_pmu.reg_addr_i[11:0]", at - 380), vis_addr(ITA_VIS_DCR));
        }
    }
    std::remove(path.c_str());
}

// Field `k` of width `w` of a packed port, from its MSB-first bit string.
uint64_t field(const std::string &msb_first, unsigned k, unsigned w)
{
    uint64_t x = 0;
    const size_t n = msb_first.size();
    for (unsigned i = w; i-- > 0;) x = x << 1 | static_cast<uint64_t>(msb_first[n - 1 - (k * w + i)] - '0');
    return x;
}

// The slot ports are not all read by the RTL yet; the waveform shows what reached them.
TEST(Waves, SlotPortsCarryEachSlotAtItsPosition)
{
    const std::string path = temp_path("_slots.fst");
    std::vector<ita_cycle> recs = traced_run(path, ITA_MODEL_ITANIUM2, 40, 0);
    Fst f(path);
    ASSERT_TRUE(f.ok());
    unsigned checked = 0;
    for (unsigned t = 1; t < recs.size(); t++) {
        const uint64_t at = t * kPsPerRecord;
        const std::string ip = f.bits("TOP.ita_pmu.slot_ip_i[383:0]", at);
        const std::string enc = f.bits("TOP.ita_pmu.slot_enc_i[245:0]", at);
        const std::string da = f.bits("TOP.ita_pmu.slot_daddr_i[383:0]", at);
        const std::string fl = f.bits("TOP.ita_pmu.slot_flags_i[95:0]", at);
        const std::string idx = f.bits("TOP.ita_pmu.slot_idx_i[11:0]", at);
        const std::string unit = f.bits("TOP.ita_pmu.slot_unit_i[11:0]", at);
        ASSERT_EQ(ip.size(), 384u);
        ASSERT_EQ(enc.size(), 246u);
        ASSERT_EQ(fl.size(), 96u);
        for (unsigned k = 0; k < ITA_MAX_SLOTS; k++) {
            const ita_slot &s = recs[t].slot[k];
            ASSERT_EQ(field(ip, k, 64), s.ip) << "record " << t << " slot " << k;
            ASSERT_EQ(field(da, k, 64), s.daddr) << "record " << t << " slot " << k;
            ASSERT_EQ(field(enc, k, 41), s.enc) << "record " << t << " slot " << k;
            ASSERT_EQ(field(fl, k, 16), s.flags) << "record " << t << " slot " << k;
            ASSERT_EQ(field(idx, k, 2), s.slot);
            ASSERT_EQ(field(unit, k, 2), s.unit);
            checked += s.enc != 0;
        }
    }
    EXPECT_GT(checked, 50u);  // the records really had slots
    std::remove(path.c_str());
}

TEST(Waves, TraceStartsAtTheRequestedCycle)
{
    const std::string path = temp_path("_from.fst");
    std::vector<ita_cycle> recs = traced_run(path, ITA_MODEL_ITANIUM, 300, 200);
    Fst f(path);
    ASSERT_TRUE(f.ok());
    EXPECT_GT(f.start(), 199 * kPsPerRecord);
    EXPECT_LT(f.start(), 200 * kPsPerRecord);
    EXPECT_EQ(f.value("TOP.ita_pmu.cpl_i[1:0]", 250 * kPsPerRecord), recs[250].cpl);
    // The Itanium counters are 32 bits wide.
    EXPECT_TRUE(f.has("TOP.ita_pmu.g_cnt[0].cnt[31:0]"));
    std::remove(path.c_str());
}

// Signal lines of a GTKWave save file: everything that is not a [setting], a @flag,
// a -label (group) or a comment.
std::vector<std::string> gtkw_signals(const std::string &path)
{
    std::ifstream in(path);
    std::vector<std::string> out;
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '[' || line[0] == '@' || line[0] == '-' || line[0] == '*')
            continue;
        out.push_back(line);
    }
    return out;
}

TEST(Waves, EverySignalOfTheGtkwaveSaveFileIsInTheDump)
{
    const std::string path = temp_path("_gtkw.fst");
    traced_run(path, ITA_MODEL_ITANIUM2, 20, 0);
    Fst f(path);
    ASSERT_TRUE(f.ok());
    std::vector<std::string> sigs = gtkw_signals(repo_file("docs/pmusim.gtkw"));
    EXPECT_GT(sigs.size(), 40u) << "docs/pmusim.gtkw not found or nearly empty";
    for (const std::string &s : sigs) EXPECT_TRUE(f.has(s)) << "docs/pmusim.gtkw names " << s;
    std::remove(path.c_str());
}

// The Itanium RTL has the same names, the counters excepted: they are cnt[31:0] there
// (docs/debugging.md says so).
TEST(Waves, TheGtkwaveSaveFileFitsTheItaniumDumpButForTheCounterWidth)
{
    const std::string path = temp_path("_gtkw_ita.fst");
    traced_run(path, ITA_MODEL_ITANIUM, 20, 0);
    Fst f(path);
    ASSERT_TRUE(f.ok());
    unsigned counters = 0;
    for (std::string s : gtkw_signals(repo_file("docs/pmusim.gtkw"))) {
        const size_t wide = s.find(".cnt[46:0]");
        if (wide != std::string::npos) {
            s.replace(wide, std::string(".cnt[46:0]").size(), ".cnt[31:0]");
            counters++;
        }
        EXPECT_TRUE(f.has(s)) << "docs/pmusim.gtkw names " << s;
    }
    EXPECT_EQ(counters, 4u);
    std::remove(path.c_str());
}

std::string file_text(const std::string &path)
{
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The layout compiled into pmusim is docs/pmusim.gtkw as it is now (the build remakes it).
TEST(Waves, TheLayoutRunWritesIsDocsPmusimGtkw)
{
    const pmu_family *fam = pmu_family_find("itanium");
    ASSERT_NE(fam, nullptr);
    ASSERT_NE(fam->wave_layout, nullptr);
    EXPECT_EQ(std::string(fam->wave_layout), file_text(repo_file("docs/pmusim.gtkw")));
}

// The marker: a step's mismatch at its edge (T.5 ns), a register write's or read's before
// record T at T ns, without a mismatch the last record's edge.
TEST(Waves, TheMarkerIsOnTheMismatchingClock)
{
    pmu_cosim_mismatch m;
    memset(&m, 0, sizeof m);
    m.cycle = 219;
    m.clock = PMU_COSIM_STEP;
    EXPECT_EQ(pmu_cli_wave_marker(&m, 220), 219 * kPsPerRecord + kPsPerRecord / 2);
    m.clock = PMU_COSIM_WRITE;
    EXPECT_EQ(pmu_cli_wave_marker(&m, 219), 219 * kPsPerRecord);
    EXPECT_EQ(pmu_cli_wave_marker(nullptr, 3000), 2999 * kPsPerRecord + kPsPerRecord / 2);
}

// The zoom shows the window on 3/4 of the wave pane at GTKWave's 2^-zoom / 200 ps a pixel
// (verilator/cli/tests/waves.sh checks it in GTKWave itself).
TEST(Waves, TheZoomFitsTheWindowToTheWavePane)
{
    const char *layout = "[size] 1600 1000\n[sst_width] 260\n[signals_width] 360\n";
    const double pane = pmu_cli_wave_pane(layout);
    EXPECT_GT(pane, 200.0);
    EXPECT_LT(pane, 1600.0 - 260 - 360);
    for (uint64_t from : {0ull, 19ull, 1000ull}) {
        const double z = pmu_cli_wave_zoom(layout, from, from + 201);
        EXPECT_NEAR(std::pow(2.0, -z) / 200.0 * pane * 0.75, 201.0 * kPsPerRecord, 1e-6) << "from " << from;
    }
    // A wider window: a wider pane, the same window shown larger.
    EXPECT_GT(pmu_cli_wave_pane("[size] 1900 1000\n"), pane);
    EXPECT_GT(pmu_cli_wave_zoom("[size] 1900 1000\n", 0, 201), pmu_cli_wave_zoom(layout, 0, 201));
}

TEST(Waves, AGroupTitleNamesItsRegisters)
{
    struct {
        const char *title, *reg;
        int names;
    } cases[] = {
        {"PMD4: PMC4 config, enable, increment, count", "PMD4", 1},
        {"PMD4: PMC4 config, enable, increment, count", "PMC4", 1},
        {"PMD4: PMC4 config, enable, increment, count", "PMD5", 0},
        {"PMD4: PMC4 config, enable, increment, count", "PMD40", 0},
        {"Branch trace buffer (PMC12, PMD8..PMD16)", "PMD8", 1},
        {"Branch trace buffer (PMC12, PMD8..PMD16)", "PMD16", 1},
        {"Branch trace buffer (PMC12, PMD8..PMD16)", "PMD17", 0},
        {"Qualification registers (PMC8, PMC9, PMC11, PMC13..15, IBR0..7, DBR0..7)", "PMC14", 1},
        {"Qualification registers (PMC8, PMC9, PMC11, PMC13..15, IBR0..7, DBR0..7)", "DBR7", 1},
        {"Qualification registers (PMC8, PMC9, PMC11, PMC13..15, IBR0..7, DBR0..7)", "PMC12", 0},
        {"Slot 0 tags: IBR/fine/opcode/DBR hits", "IBR3", 0},
        {"PMC0 (freeze, overflow bits) and the interrupt (pmi)", "pmi", 1},
        {"PMC0 (freeze, overflow bits) and the interrupt (pmi)", "PMC0", 1},
        {"CPU state (PSR, IPSR, DCR)", "IPSR", 1},
        {"CPU state (PSR, IPSR, DCR)", "PSR", 1},
    };
    for (const auto &c : cases)
        EXPECT_EQ(pmu_cli_wave_group_names(c.title, strlen(c.title), c.reg), c.names) << c.title << " / " << c.reg;
}

// The group titles of a save file in order, with the flags line before each opening title.
std::vector<std::pair<std::string, unsigned long>> gtkw_groups(const std::string &path)
{
    std::ifstream in(path);
    std::vector<std::pair<std::string, unsigned long>> out;
    std::string line;
    unsigned long flags = 0;
    while (std::getline(in, line)) {
        if (line[0] == '@') flags = std::stoul(line.substr(1), nullptr, 16);
        else if (line[0] == '-' && (flags & 0x800000ul)) out.emplace_back(line.substr(1), flags);
    }
    return out;
}

// After a mismatch the groups naming its register come first, open and highlighted (the
// trace flags' bit 0), every signal still there; the cycle record starts collapsed.
TEST(Waves, TheMismatchingRegistersGroupComesFirst)
{
    const pmu_family *fam = pmu_family_find("itanium");
    ASSERT_NE(fam, nullptr);
    const std::string path = temp_path("_order.gtkw");
    std::vector<std::string> sorted_layout = gtkw_signals(repo_file("docs/pmusim.gtkw"));
    std::sort(sorted_layout.begin(), sorted_layout.end());
    const auto layout_groups = gtkw_groups(repo_file("docs/pmusim.gtkw"));
    ASSERT_GT(layout_groups.size(), 10u);
    EXPECT_EQ(layout_groups[0].first, "Cycle record (stream inputs)");
    EXPECT_TRUE(layout_groups[0].second & 0x400000ul) << "the cycle record group is not closed";
    struct {
        const char *reg;
        std::vector<std::string> first;  // title prefixes of the groups expected first
    } cases[] = {
        {"PMD5", {"PMD5:"}},
        {"PMC11", {"Qualification registers", "D-EAR"}},
        {"pmi", {"PMC0 "}},
        {"PMD12", {"Branch trace buffer"}},
        {"DCR", {"CPU state"}},
    };
    for (const auto &c : cases) {
        pmu_cosim_mismatch m;
        memset(&m, 0, sizeof m);
        m.cycle = 219;
        m.clock = PMU_COSIM_STEP;
        snprintf(m.reg, sizeof m.reg, "%s", c.reg);
        FILE *f = std::fopen(path.c_str(), "w");
        ASSERT_NE(f, nullptr);
        pmu_cli_wave_layout(f, fam->wave_layout, "mismatch.fst", 19, 220, &m);
        std::fclose(f);
        const auto groups = gtkw_groups(path);
        ASSERT_EQ(groups.size(), layout_groups.size()) << c.reg;
        for (size_t i = 0; i < groups.size(); i++) {
            const bool first = i < c.first.size();
            if (first) {
                EXPECT_EQ(groups[i].first.rfind(c.first[i], 0), 0u) << c.reg << ": group " << i << " is " << groups[i].first;
                EXPECT_EQ(groups[i].second & 0x1ul, 1ul) << c.reg << ": " << groups[i].first << " not highlighted";
                EXPECT_EQ(groups[i].second & 0x401000ul, 0ul) << c.reg << ": " << groups[i].first << " closed";
            } else {
                EXPECT_EQ(groups[i].second & 0x1ul, 0ul) << c.reg << ": " << groups[i].first << " highlighted";
            }
        }
        std::vector<std::string> sorted = gtkw_signals(path);
        std::sort(sorted.begin(), sorted.end());
        EXPECT_EQ(sorted, sorted_layout) << c.reg;
    }
    // Without a mismatch the layout's order.
    FILE *f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    pmu_cli_wave_layout(f, fam->wave_layout, "sim.fst", 0, 220, nullptr);
    std::fclose(f);
    EXPECT_EQ(gtkw_groups(path), layout_groups);
    EXPECT_EQ(gtkw_signals(path), gtkw_signals(repo_file("docs/pmusim.gtkw")));
    std::remove(path.c_str());
}

// The written layout: docs/pmusim.gtkw's signals and settings unchanged, the dump file, the
// window's start and one zoom line with the marker in place of the layout's own.
TEST(Waves, TheWrittenLayoutViewsTheWindowWithTheMarker)
{
    const pmu_family *fam = pmu_family_find("itanium");
    ASSERT_NE(fam, nullptr);
    const std::string path = temp_path("_layout.gtkw");
    FILE *f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    pmu_cosim_mismatch m;
    memset(&m, 0, sizeof m);
    m.cycle = 219;
    m.clock = PMU_COSIM_STEP;
    pmu_cli_wave_layout(f, fam->wave_layout, "dir/mismatch.fst", 19, 220, &m);
    std::fclose(f);
    EXPECT_EQ(gtkw_signals(path), gtkw_signals(repo_file("docs/pmusim.gtkw")));
    std::ifstream in(path);
    std::string line;
    unsigned zoom_lines = 0, dumpfiles = 0;
    while (std::getline(in, line)) {
        if (line[0] == '*') {
            zoom_lines++;
            double z = 0;
            unsigned long long marker = 0;
            ASSERT_EQ(std::sscanf(line.c_str(), "*%lf %llu", &z, &marker), 2) << line;
            EXPECT_EQ(marker, 219500u);
            EXPECT_NEAR(z, pmu_cli_wave_zoom(fam->wave_layout, 19, 220), 1e-6);  // %.6f
        } else if (line.rfind("[dumpfile]", 0) == 0) {
            dumpfiles++;
            EXPECT_EQ(line, "[dumpfile] \"dir/mismatch.fst\"");
        } else if (line.rfind("[timestart]", 0) == 0) {
            EXPECT_EQ(line, "[timestart] 19000");
        } else if (line.rfind("[*] written by", 0) == 0) {
            EXPECT_NE(line.find("marker on the mismatch, cycle 219"), std::string::npos) << line;
        }
    }
    EXPECT_EQ(zoom_lines, 1u);
    EXPECT_EQ(dumpfiles, 1u);
    std::remove(path.c_str());
}

}  // namespace
