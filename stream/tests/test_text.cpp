// The text form: every key and default, stickiness, repeat, comments, and each parse error.
#include <map>

#include "stream/ita/ita_stream_test_util.h"

namespace {

// The slot flags as include/common/ita/ita_regs.def defines them (key, position, width).
struct DefFlag {
    const char *key;
    unsigned lsb, width;
};
const DefFlag def_flags[] = {
#define ITA_SLOT_FLAG(name, msb, lsb, key, desc) {key, lsb, (msb) - (lsb) + 1},
#include "common/ita/ita_regs.def"
#undef ITA_SLOT_FLAG
};

ita_cycle parse_one(const std::string &line)
{
    ReadResult r = read_mem(line + "\n");
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.recs.size(), 1u) << line;
    ita_cycle c;
    memset(&c, 0, sizeof c);
    if (!r.recs.empty())
        c = r.recs[0];
    return c;
}

std::string parse_error(const std::string &text, const char *name = "t.txt")
{
    ReadResult r = read_mem(text, name);
    EXPECT_EQ(r.rc, -1) << "accepted: " << text;
    return r.err;
}

} // namespace

TEST(Text, InitialCycleDefaults)
{
    ita_cycle c = parse_one("| ip=0x10");
    EXPECT_EQ(c.cpl, 3);
    EXPECT_EQ(c.is, 0);
    EXPECT_EQ(c.power, ITA_POWER_NORMAL);
    EXPECT_EQ(c.pid, 0);
    EXPECT_EQ(c.intr, ITA_INTR_NONE);
    EXPECT_EQ(c.up_we, 0);
    EXPECT_EQ(c.pp_we, 0);
    EXPECT_EQ(c.recirc, 0);
    ASSERT_EQ(c.nslots, 1);
}

TEST(Text, SlotDefaults)
{
    ita_cycle c = parse_one("cpl=0 | | ip=0x20");
    ASSERT_EQ(c.nslots, 2);
    const ita_slot &s = c.slot[0]; // "|" alone: every default
    EXPECT_EQ(s.ip, 0u);
    EXPECT_EQ(s.slot, 0);
    EXPECT_EQ(s.unit, ITA_UNIT_M);
    EXPECT_EQ(s.enc, 0u);
    EXPECT_EQ(s.daddr, 0u);
    EXPECT_EQ(s.target, 0u);
    EXPECT_EQ(s.lat, 0);
    EXPECT_EQ(s.tlb, 0);
    EXPECT_EQ(s.flags, 0);
    EXPECT_EQ(c.slot[1].ip, 0x20u);
}

TEST(Text, CycleKeys)
{
    ita_cycle c = parse_one("cpl=1 is=ia32 power=low_power pid=4711 up=0 pp=1 intr=return recirc=3");
    EXPECT_EQ(c.cpl, 1);
    EXPECT_EQ(c.is, 1);
    EXPECT_EQ(c.power, ITA_POWER_LOW_POWER);
    EXPECT_EQ(c.pid, 4711);
    EXPECT_EQ(c.up_we, 1);
    EXPECT_EQ(c.up, 0);
    EXPECT_EQ(c.pp_we, 1);
    EXPECT_EQ(c.pp, 1);
    EXPECT_EQ(c.intr, ITA_INTR_RETURN);
    EXPECT_EQ(c.recirc, 3);
    EXPECT_EQ(parse_one("intr=entry").intr, ITA_INTR_ENTRY);
    EXPECT_EQ(parse_one("power=normal").power, ITA_POWER_NORMAL);
    EXPECT_EQ(parse_one("power=light_halt").power, ITA_POWER_LIGHT_HALT);
    EXPECT_EQ(parse_one("power=halt").power, ITA_POWER_HALT);
    EXPECT_EQ(parse_one("is=ia64").is, 0);
    EXPECT_EQ(parse_one("pid=0x10").pid, 16); // hex works everywhere
    for (unsigned v = 0; v <= 3; v++)
        EXPECT_EQ(parse_one("cpl=" + std::to_string(v)).cpl, v);
    unsigned max_recirc = maxincr_of("L2_FORCE_RECIRC_ANY");
    EXPECT_EQ(parse_one("recirc=" + std::to_string(max_recirc)).recirc, max_recirc);
}

TEST(Text, SlotKeys)
{
    ita_cycle c = parse_one("| ip=0x4000000000001230 s=2 u=F enc=0x1ffffffffff da=0x6000000000000100 "
                            "lat=65535 tlb=3 load");
    const ita_slot &s = c.slot[0];
    EXPECT_EQ(s.ip, 0x4000000000001230ull);
    EXPECT_EQ(s.slot, 2);
    EXPECT_EQ(s.unit, ITA_UNIT_F);
    EXPECT_EQ(s.enc, 0x1ffffffffffull);
    EXPECT_EQ(s.daddr, 0x6000000000000100ull);
    EXPECT_EQ(s.lat, 65535);
    EXPECT_EQ(s.tlb, 3);
    EXPECT_EQ(parse_one("| u=M").slot[0].unit, ITA_UNIT_M);
    EXPECT_EQ(parse_one("| u=I").slot[0].unit, ITA_UNIT_I);
    EXPECT_EQ(parse_one("| u=B").slot[0].unit, ITA_UNIT_B);
    EXPECT_EQ(parse_one("| u=B br=1 tgt=4096").slot[0].target, 4096u);
}

// Every flag key of the .def sets exactly its own bits (with the companions the
// validation rules need).
TEST(Text, EveryFlagKey)
{
    const std::map<std::string, std::string> companions = {
        {"nop", ""},        {"squashed", ""}, {"load", ""},         {"store", ""},
        {"fp", ""},         {"l1d_miss", "load"}, {"l2_ref", "load"}, {"l2_miss", "load l2_ref"},
        {"rse", "load"},    {"br", "u=B"},    {"pred", "u=B br=1"}, {"taken", "u=B br=1"},
        {"alat_miss", "load"},
    };
    ASSERT_GT(sizeof def_flags / sizeof def_flags[0], 0u);
    for (const DefFlag &f : def_flags) {
        auto it = companions.find(f.key);
        ASSERT_NE(it, companions.end()) << "flag '" << f.key << "' has no test";
        std::string extra = it->second;
        unsigned mask = ((1u << f.width) - 1u) << f.lsb;
        for (unsigned v = 1; v < (1u << f.width); v++) {
            std::string tok = f.width == 1 ? std::string(f.key) : std::string(f.key) + "=" + std::to_string(v);
            ita_cycle c = parse_one("| " + extra + " " + tok);
            ita_cycle without = parse_one("| " + extra);
            EXPECT_EQ(c.slot[0].flags & mask, v << f.lsb) << tok;
            EXPECT_EQ(c.slot[0].flags & ~mask, without.slot[0].flags & ~mask) << tok;
        }
    }
}

TEST(Text, StickyFieldsKeepTheirValue)
{
    ReadResult r = read_mem("cpl=0 is=ia32 power=low_power pid=7 up=1 pp=0 intr=entry recirc=2\n"
                            "| ip=0x11\n"
                            "cpl=2 is=ia64 power=normal pid=8\n"
                            "cpl=1\n");
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 4u);
    const ita_cycle &second = r.recs[1];
    EXPECT_EQ(second.cpl, 0);
    EXPECT_EQ(second.is, 1);
    EXPECT_EQ(second.power, ITA_POWER_LOW_POWER);
    EXPECT_EQ(second.pid, 7);
    // per-line fields do not stick
    EXPECT_EQ(second.up_we, 0);
    EXPECT_EQ(second.pp_we, 0);
    EXPECT_EQ(second.intr, ITA_INTR_NONE);
    EXPECT_EQ(second.recirc, 0);
    EXPECT_EQ(r.recs[2].cpl, 2);
    EXPECT_EQ(r.recs[2].is, 0);
    EXPECT_EQ(r.recs[2].pid, 8);
    EXPECT_EQ(r.recs[3].cpl, 1);
    EXPECT_EQ(r.recs[3].pid, 8);
}

TEST(Text, RepeatYieldsIdenticalRecords)
{
    ReadResult r = read_mem("cpl=1 repeat=3 up=1 | ip=0x40\ncpl=2\n", "rep.txt");
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 4u);
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(fmt(r.recs[i]), fmt(r.recs[0]));
        EXPECT_EQ(r.wheres[i], "rep.txt:1");
    }
    EXPECT_EQ(r.recs[0].up_we, 1);
    EXPECT_EQ(r.recs[3].cpl, 2);
    EXPECT_EQ(r.wheres[3], "rep.txt:2");
}

TEST(Text, CommentsBlankLinesAndLineEndings)
{
    ReadResult r = read_mem("# a comment\n"
                            "\n"
                            "   \t  \n"
                            "cpl=1 # the rest | ip=0x5 is ignored\r\n"
                            "  # indented comment\n"
                            "cpl=2 | ip=0x10\r\n"
                            "cpl=0", // no final newline
                            "c.txt");
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 3u);
    EXPECT_EQ(r.recs[0].cpl, 1);
    EXPECT_EQ(r.recs[0].nslots, 0);
    EXPECT_EQ(r.wheres[0], "c.txt:4");
    EXPECT_EQ(r.recs[1].nslots, 1);
    EXPECT_EQ(r.wheres[1], "c.txt:6");
    EXPECT_EQ(r.recs[2].cpl, 0);
    EXPECT_EQ(read_mem("").recs.size(), 0u);
    EXPECT_EQ(read_mem("# only a comment").recs.size(), 0u);
}

TEST(Text, ExampleFromTheBrief)
{
    ita_cycle c = parse_one("cpl=3 pid=2 | ip=0x4000000000001230 s=1 u=M load da=0x6000000000000100 "
                            "l1d_miss lat=12 | ip=0x4000000000001230 s=2 u=B br=1 pred=2 taken "
                            "tgt=0x4000000000001000");
    ASSERT_EQ(c.nslots, 2);
    EXPECT_EQ(ITA_SLOT_GET(&c.slot[0], L1D_MISS), 1u);
    EXPECT_EQ(ITA_SLOT_GET(&c.slot[1], BR_TYPE), 1u);
    EXPECT_EQ(ITA_SLOT_GET(&c.slot[1], BR_PRED), 2u);
    EXPECT_EQ(ITA_SLOT_GET(&c.slot[1], TAKEN), 1u);
    EXPECT_EQ(c.slot[1].target, 0x4000000000001000ull);
}

TEST(Text, FormatIsSelfContainedAndParsesBack)
{
    ita_cycle c = parse_one("cpl=0 is=ia64 power=low_power pid=99 up=1 pp=0 intr=entry recirc=1 "
                            "| ip=0xe000000000000010 s=1 u=B enc=0x123 br=3 pred=3 taken tgt=0x20 "
                            "| ip=0xe000000000000020 s=0 u=M da=0x30 lat=200 tlb=2 load l1d_miss "
                            "l2_ref l2_miss rse");
    std::string line = fmt(c);
    for (const char *field : {"cpl=0", "is=ia64", "power=low_power", "pid=99", "up=1", "pp=0",
                              "intr=entry", "recirc=1", "enc=0x123", "tgt=0x20", "tlb=2",
                              "lat=200", "rse"})
        EXPECT_CONTAINS(line, field);
    // pasted after lines that changed the sticky fields, it still means the same record
    ReadResult r = read_mem("cpl=2 is=ia32 power=halt pid=5\n" + line + "\n");
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 2u);
    EXPECT_EQ(fmt(r.recs[1]), line);
    // a default record still names the sticky fields
    ita_cycle d = parse_one("cpl=3");
    EXPECT_EQ(fmt(d), "cpl=3 is=ia64 power=normal pid=0");
    // truncation keeps a terminated string and reports what it wrote
    char small[10];
    size_t n = ita_cycle_format(&c, small, sizeof small);
    EXPECT_EQ(n, 9u);
    EXPECT_EQ(std::string(small), line.substr(0, 9));
}

// ---- errors -------------------------------------------------------------------------
TEST(TextErrors, UnknownKey)
{
    std::string e = parse_error("cpl=1\ncpl=1 bogus=2\n");
    EXPECT_CONTAINS(e, "t.txt:2:7:");
    EXPECT_CONTAINS(e, "field 'bogus'");
    EXPECT_CONTAINS(e, "unknown key");
    e = parse_error("| ip=0 frobnicate\n");
    EXPECT_CONTAINS(e, "t.txt:1:8:");
    EXPECT_CONTAINS(e, "field 'frobnicate'");
    EXPECT_CONTAINS(e, "unknown slot key");
}

TEST(TextErrors, FieldsOnTheWrongSide)
{
    std::string e = parse_error("ip=0x10\n");
    EXPECT_CONTAINS(e, "field 'ip'");
    EXPECT_CONTAINS(e, "before the first '|'");
    e = parse_error("| cpl=1\n");
    EXPECT_CONTAINS(e, "field 'cpl'");
    EXPECT_CONTAINS(e, "inside slot 1");
}

TEST(TextErrors, OutOfRange)
{
    const char *cases[][2] = {
        {"cpl=4", "cpl"},           {"pid=65536", "pid"},  {"up=2", "up"},
        {"pp=2", "pp"},             {"| s=3", "s"},        {"| tlb=4", "tlb"},
        {"| lat=65536", "lat"},     {"| u=B br=4", "br"},  {"| u=B br=1 pred=4", "pred"},
        {"| enc=0x20000000000", "enc"}, {"repeat=0", "repeat"},
        {"| ip=0x10000000000000000", "ip"},
    };
    for (auto &c : cases) {
        std::string e = parse_error(std::string("\n") + c[0] + "\n");
        EXPECT_CONTAINS(e, "t.txt:2:");
        EXPECT_CONTAINS(e, std::string("field '") + c[1] + "'");
        EXPECT_CONTAINS(e, "expected");
    }
    std::string e = parse_error("recirc=" + std::to_string(maxincr_of("L2_FORCE_RECIRC_ANY") + 1));
    EXPECT_CONTAINS(e, "field 'recirc'");
    EXPECT_CONTAINS(e, "L2_FORCE_RECIRC_ANY");
}

TEST(TextErrors, Malformed)
{
    const char *cases[][2] = {
        {"cpl=x", "cpl"},       {"cpl=", "cpl"},          {"cpl", "cpl"},
        {"cpl=-1", "cpl"},      {"| ip=0xZZ", "ip"},      {"| ip", "ip"},
        {"| ip=0x", "ip"},      {"is=ia48", "is"},        {"power=sleep", "power"},
        {"| u=X", "u"},         {"| u=MM", "u"},          {"intr=none", "intr"},
        {"| load=1", "load"},   {"| u=B br", "br"},       {"=5", "=5"},
        {"| da=12abc", "da"},
    };
    for (auto &c : cases) {
        std::string e = parse_error(std::string(c[0]) + "\n");
        EXPECT_CONTAINS(e, "t.txt:1:");
        EXPECT_CONTAINS(e, std::string("field '") + c[1] + "'");
    }
}

TEST(TextErrors, DuplicateKey)
{
    std::string e = parse_error("cpl=1 pid=3 cpl=2\n");
    EXPECT_CONTAINS(e, "t.txt:1:13:");
    EXPECT_CONTAINS(e, "field 'cpl'");
    EXPECT_CONTAINS(e, "twice");
    e = parse_error("| ip=0 | ip=0x10 s=1 ip=0x20\n");
    EXPECT_CONTAINS(e, "field 'ip'");
    EXPECT_CONTAINS(e, "slot 2");
    e = parse_error("| load load\n");
    EXPECT_CONTAINS(e, "field 'load'");
    // the same key in two different slots is fine
    EXPECT_EQ(parse_one("| ip=0 | ip=0x10").nslots, 2);
}

TEST(TextErrors, TooManySlots)
{
    std::string e = parse_error("| | | | | | |\n");
    EXPECT_CONTAINS(e, "t.txt:1:13:");
    EXPECT_CONTAINS(e, "at most 6");
    EXPECT_EQ(parse_one("| | | | | |").nslots, 6);
}

TEST(TextErrors, ValidationFailureNamesLineAndField)
{
    std::string e = parse_error("# header\n| ip=0x4000000000000008\n", "v.txt");
    EXPECT_CONTAINS(e, "v.txt:2: field 'ip'");
    EXPECT_CONTAINS(e, "16-byte aligned");
    e = parse_error("power=halt\n| ip=0x10\n", "v.txt");
    EXPECT_CONTAINS(e, "v.txt:2: field 'power'");
    // sticky values reach the validation of later lines
    e = parse_error("is=ia32\n| s=1\n", "v.txt");
    EXPECT_CONTAINS(e, "v.txt:2: field 's'");
}

TEST(TextErrors, NonAsciiByte)
{
    std::string e = parse_error(std::string("cpl=1 \x01\n"));
    EXPECT_CONTAINS(e, "t.txt:1:7:");
    EXPECT_CONTAINS(e, "0x01");
    // anything goes inside a comment
    EXPECT_EQ(read_mem("cpl=1 # caf\xc3\xa9\n").recs.size(), 1u);
}

TEST(TextErrors, ReaderStaysFailed)
{
    std::string text = "cpl=1\ncpl=9\ncpl=2\n";
    pmu_err err;
    pmu_stream_reader *r = pmu_stream_open_mem(ITA, text.data(), text.size(), "s.txt", &err);
    ASSERT_NE(r, nullptr);
    ita_cycle c;
    EXPECT_EQ(pmu_stream_next(r, &c, &err), 1);
    EXPECT_EQ(pmu_stream_next(r, &c, &err), -1);
    std::string first = err.msg;
    EXPECT_CONTAINS(first, "s.txt:2:");
    EXPECT_EQ(std::string(pmu_stream_where(r)), "s.txt:2");
    err.msg[0] = '\0';
    EXPECT_EQ(pmu_stream_next(r, &c, &err), -1);
    EXPECT_EQ(std::string(err.msg), first);
    pmu_stream_close(r);
}

TEST(TextErrors, MissingFile)
{
    ReadResult r = read_file(scratch("does_not_exist.txt"));
    EXPECT_FALSE(r.opened);
    EXPECT_CONTAINS(r.err, "does_not_exist.txt");
    EXPECT_CONTAINS(r.err, "cannot open");
}

// ---- line ends, repeat=N, the number syntax ------------------------------------------------
// A file with old-Macintosh line ends (\r only) is as many lines as it has: before, the
// whole file was one comment line and read as no cycles at all.
TEST(TextLines, CarriageReturnsEndLines)
{
    ReadResult r = read_mem("# written on a classic Mac\rcpl=1\r| ip=0x10\r\rcpl=2", "cr.txt");
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 3u);
    EXPECT_EQ(r.recs[0].cpl, 1);
    EXPECT_EQ(r.recs[1].nslots, 1);
    EXPECT_EQ(r.wheres[0], "cr.txt:2");
    EXPECT_EQ(r.wheres[1], "cr.txt:3");
    EXPECT_EQ(r.wheres[2], "cr.txt:5"); // the empty line counts
    // mixed: \r\n is one line end, \n\r two
    r = read_mem("cpl=1\r\ncpl=2\n\rcpl=0\r\n", "mix.txt");
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 3u);
    EXPECT_EQ(r.wheres[2], "mix.txt:4");
    // an error names the line counted with \r
    r = read_mem("cpl=1\rcpl=9\r", "bad.txt");
    EXPECT_EQ(r.rc, -1);
    EXPECT_CONTAINS(r.err, "bad.txt:2:5: field 'cpl'");
}

// \r\n split between two reads of the file is still one line end.
TEST(TextLines, CarriageReturnAtTheEndOfARead)
{
    const size_t chunk = 1u << 16; // the reader's buffer
    std::string text = "#" + std::string(chunk - 2, 'a') + "\r\ncpl=2\n";
    ASSERT_EQ(text[chunk - 1], '\r');
    std::string path = scratch("chunk.txt");
    spit(path, text);
    ReadResult r = read_file(path);
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 1u);
    EXPECT_CONTAINS(r.wheres[0], "chunk.txt:2");
    remove(path.c_str());
}

TEST(TextLines, RepeatHasAMaximum)
{
    const std::string max = std::to_string(PMU_STREAM_MAX_REPEAT);
    std::string e = parse_error("cpl=1\ncpl=2 repeat=" + std::to_string(PMU_STREAM_MAX_REPEAT + 1ull) + "\n",
                                "big.txt");
    EXPECT_CONTAINS(e, "big.txt:2:7: field 'repeat'");
    EXPECT_CONTAINS(e, "expected a count in 1.." + max);
    e = parse_error("repeat=99999999999999999999\n", "big.txt");
    EXPECT_CONTAINS(e, "big.txt:1:1: field 'repeat'");
    EXPECT_CONTAINS(e, "64 bits");
    // the maximum itself is fine (the reader does not expand it up front)
    std::string text = "| ip=0x10 repeat=" + max + "\n";
    pmu_err err;
    pmu_stream_reader *r = pmu_stream_open_mem(ITA, text.data(), text.size(), "max.txt", &err);
    ASSERT_NE(r, nullptr) << err.msg;
    ita_cycle c;
    for (int i = 0; i < 1000; i++)
        ASSERT_EQ(pmu_stream_next(r, &c, &err), 1) << err.msg;
    EXPECT_EQ(c.nslots, 1);
    EXPECT_EQ(std::string(pmu_stream_where(r)), "max.txt:1");
    pmu_stream_close(r);
}

TEST(TextLines, RepeatIsAWordOfTheLine)
{
    // anywhere on the line, once
    ReadResult r = read_mem("| ip=0x10 repeat=2 u=I\n");
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 2u);
    EXPECT_EQ(r.recs[1].slot[0].unit, ITA_UNIT_I);
    std::string e = parse_error("repeat=2 cpl=1 repeat=3\n");
    EXPECT_CONTAINS(e, "t.txt:1:16: field 'repeat': given twice");
    e = parse_error("cpl=1 repeat\n");
    EXPECT_CONTAINS(e, "t.txt:1:7: field 'repeat': expected repeat=N");
    e = parse_error("repeat=2 # repeat=0 in a comment is a comment\nrepeat=+2\n");
    EXPECT_CONTAINS(e, "t.txt:2:1: field 'repeat'");
    EXPECT_CONTAINS(e, "without a sign");
    // a line with nothing but repeat=N is that many cycles of the sticky state
    r = read_mem("cpl=1\nrepeat=3\n");
    ASSERT_EQ(r.recs.size(), 4u);
    EXPECT_EQ(r.recs[3].cpl, 1);
    EXPECT_EQ(r.recs[3].nslots, 0);
}

// Every integer field has the one syntax of include/common/pmu_num.h and its own range.
TEST(TextLines, OneNumberSyntax)
{
    const char *bad[][3] = {
        {"cpl=01", "cpl", "leading zeros"},
        {"pid=00", "pid", "leading zeros"},
        {"| ip=0x", "ip", "found '0x'"},
        {"| ip=0x1g", "ip", "hex digits after 0x"},
        {"| lat=1_000", "lat", "a decimal number or 0x hex"},
        {"| da=18446744073709551616", "da", "fits in 64 bits"},
        {"| tgt=-16", "tgt", "without a sign"},
        {"| tlb=+1", "tlb", "without a sign"},
        {"recirc=0x", "recirc", "found '0x'"},
        {"| u=B br=01", "br", "leading zeros"},
        {"| enc=0x20000000000", "enc", "expected a 41-bit encoding, found '0x20000000000'"},
        {"up=2", "up", "expected 0 or 1, found '2'"},
    };
    for (auto &b : bad) {
        std::string e = parse_error(std::string(b[0]) + "\n");
        EXPECT_CONTAINS(e, std::string("t.txt:1:"));
        EXPECT_CONTAINS(e, std::string("field '") + b[1] + "'");
        EXPECT_CONTAINS(e, b[2]);
    }
    // what is accepted: decimal, hex in either case, 0, the largest values
    ita_cycle c = parse_one("cpl=0 pid=0xFFFF | ip=0XFFFFFFFFFFFFFFF0 lat=65535 tlb=0x3 load");
    EXPECT_EQ(c.pid, 0xffff);
    EXPECT_EQ(c.slot[0].ip, 0xfffffffffffffff0ull);
    EXPECT_EQ(c.slot[0].lat, 65535);
    EXPECT_EQ(c.slot[0].tlb, 3);
}

// A message never prints raw control bytes: file names are escaped.
TEST(TextLines, MessagesEscapeControlBytes)
{
    ReadResult r = read_mem("cpl=7\n", "odd\x1b[31mname\n.txt");
    EXPECT_EQ(r.rc, -1);
    EXPECT_CONTAINS(r.err, "odd\\x1b[31mname\\n.txt:1:5: field 'cpl'");
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos);
    EXPECT_EQ(r.err.find('\n'), std::string::npos);
    r = read_file(scratch("no\tsuch.txt"));
    EXPECT_CONTAINS(r.err, "no\\tsuch.txt: cannot open");
}

// ---- the fetch and the general events ---------------------------------------------------
TEST(Text, FetchFields)
{
    ita_cycle c = parse_one("if_addr=0x4000000000001230 if_lat=4096 if_tlb=3 if_rab");
    EXPECT_EQ(c.if_addr, 0x4000000000001230ull);
    EXPECT_EQ(c.if_lat, 4096u);
    EXPECT_EQ(c.if_tlb, 3u);
    EXPECT_EQ(c.if_rab, 1u);
    EXPECT_EQ(fmt(c), "cpl=3 is=ia64 power=normal pid=0 if_addr=0x4000000000001230 if_lat=4096 if_tlb=3 if_rab");
    ita_cycle none = parse_one("cpl=3");
    EXPECT_EQ(none.if_addr | none.if_lat | none.if_tlb | none.if_rab, 0u);
}

TEST(Text, GeneralEvents)
{
    ita_cycle c = parse_one("ev=L1I_READS,FE_BUBBLE_ALL:1 | ip=0x10 load da=0x8 ev=L2_DATA_REFERENCES_L2_ALL:3 "
                            "| ip=0x20 u=I ev=ISB_BUNPAIRS_IN");
    ASSERT_EQ(c.nxev, 4u);
    EXPECT_STREQ(ita_event_id_name(c.xev[0].id), "L1I_READS");
    EXPECT_EQ(c.xev[0].count, 1u);
    EXPECT_EQ(c.xev[0].slot, ITA_XEV_NO_SLOT);
    EXPECT_STREQ(ita_event_id_name(c.xev[1].id), "FE_BUBBLE_ALL");
    EXPECT_STREQ(ita_event_id_name(c.xev[2].id), "L2_DATA_REFERENCES_L2_ALL");
    EXPECT_EQ(c.xev[2].count, 3u);
    EXPECT_EQ(c.xev[2].slot, 0u);
    EXPECT_EQ(c.xev[3].slot, 1u);
    // count 1 is written without ':1'; each slot's events are in its part
    EXPECT_EQ(fmt(c), "cpl=3 is=ia64 power=normal pid=0 ev=L1I_READS,FE_BUBBLE_ALL | ip=0x10 s=0 u=M "
                      "da=0x8 load ev=L2_DATA_REFERENCES_L2_ALL:3 | ip=0x20 s=0 u=I ev=ISB_BUNPAIRS_IN");
    // an event only the Itanium table has
    ita_cycle ita = parse_one("ev=L1D_READS_RETIRED");
    ASSERT_EQ(ita.nxev, 1u);
    EXPECT_EQ(ita_event_id_row(ita.xev[0].id, ITA_MODEL_ITANIUM2), nullptr);
    EXPECT_NE(ita_event_id_row(ita.xev[0].id, ITA_MODEL_ITANIUM), nullptr);
}

// At each multiplicity limit the record is accepted (the counts are not off by one).
TEST(Text, MultiplicitiesAtTheirLimits)
{
    for (const char *line : {"| ip=0x10 load | ip=0x20 load | ip=0x30 load | ip=0x40 load",
                             "| ip=0x10 store | ip=0x20 store",
                             "| ip=0x10 load l1d_miss | ip=0x20 load l1d_miss | ip=0x30 load",
                             "| ip=0x10 load l2_ref l2_miss | ip=0x20 load l2_ref"}) {
        ReadResult r = read_mem(std::string(line) + "\n", "ok.txt");
        EXPECT_EQ(r.rc, 0) << line << ": " << r.err;
        EXPECT_EQ(r.recs.size(), 1u) << line;
    }
}

TEST(Text, NewFieldErrors)
{
    struct Case {
        const char *line, *expect;
    } cases[] = {
        {"ev=L1I_REEDS", "field 'ev': unknown event 'L1I_REEDS', did you mean 'L1I_READS'?"},
        {"ev=QQQQQQQQQQQQQQQQQQQQQQQQ", "field 'ev': unknown event 'QQQQQQQQQQQQQQQQQQQQQQQQ' (expected"},
        {"ev=L2_DATA_REFERENCES_L2_ALL:3,L2_DATA_REFERENCES_L2_ALL:2",
         "field 'ev': L2_DATA_REFERENCES_L2_ALL count 5 in one cycle, expected 1..4 (its maxincr)"},
        {"ev=L1I_READS:0", "field 'ev'"},
        {"ev=LOADS_RETIRED", "field 'ev': LOADS_RETIRED is counted from the record, not as a general event: use "
                             "the slot flag 'load'"},
        {"ev=L1D_READ_MISSES_RETIRED", "use the slot flag 'l1d_miss'"}, // Itanium's modelled row
        {"ev=DATA_EAR_CACHE_LAT4", "field 'ev': DATA_EAR_CACHE_LAT4 is an EAR/BTB configuration event, not a "
                                   "counter event"},
        {"ev=L1I_READS,FE_BUBBLE_ALL,L1I_FILLS,ISB_BUNPAIRS_IN,SERIALIZATION_EVENTS",
         "field 'ev': more than 4 general events in one cycle"},
        {"ev=", "field 'ev': expected ev=NAME"},
        {"ev=,L1I_READS", "field 'ev': expected an event name"},
        {"| ip=0x10 ev", "field 'ev': expected ev=NAME"},
        {"if_tlb=4", "field 'if_tlb': expected 0..3"},
        {"if_lat=65536", "field 'if_lat': expected 0..65535"},
        {"if_rab=1", "field 'if_rab': a flag takes no value"},
        {"if_addr=0x10", "field 'if_addr': a fetch address without a fetch event"},
        {"| ip=0x10 u=I lat=3", "field 'lat': slot 1 has a memory latency without load or store"},
        {"| ip=0x10 u=I tlb=1", "field 'tlb': slot 1 has a memory TLB outcome without load or store"},
        {"| ip=0x10 store alat_miss", "field 'alat_miss': slot 1 has alat_miss without load"},
        // the per-cycle multiplicities: one slot over each event's maxincr
        {"| ip=0x10 load | ip=0x20 load | ip=0x30 load | ip=0x40 load | ip=0x50 load",
         "field 'load': 5 loads in one cycle, expected at most 4 (maxincr of LOADS_RETIRED)"},
        {"| ip=0x10 store | ip=0x20 store | ip=0x30 store",
         "field 'store': 3 stores in one cycle, expected at most 2"},
        {"| ip=0x10 load l1d_miss | ip=0x20 load l1d_miss | ip=0x30 load l1d_miss",
         "field 'l1d_miss': 3 L1D read misses in one cycle, expected at most 2"},
        {"| ip=0x10 load l2_ref l2_miss | ip=0x20 load l2_ref l2_miss",
         "field 'l2_miss': 2 L2 misses in one cycle, expected at most 1 (maxincr of L2_MISSES)"},
    };
    for (const Case &k : cases) {
        ReadResult r = read_mem(std::string(k.line) + "\n", "e.txt");
        EXPECT_EQ(r.rc, -1) << k.line;
        EXPECT_CONTAINS(r.err, "e.txt:1");
        EXPECT_CONTAINS(r.err, k.expect);
    }
}
