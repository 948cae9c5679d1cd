// The binary form: exact round trips with the text form, the header, and every
// decoding error (truncation, bad magic and version, out-of-range fields).
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <random>

#include "stream/ita/ita_stream_test_util.h"

namespace {

// The header: magic, version, reserved, count, dialect name.
const size_t kHeaderLen = 40;

// Every field and flag, sticky changes, IA-32, repeats, power states.
const char *const rich_text = R"(# a hand-written stream touching every field
cpl=3 is=ia64 power=normal pid=100 up=1 pp=1 | ip=0x4000000000001230 s=0 u=M enc=0x1234567 da=0x6000000000000100 lat=1 load | ip=0x4000000000001230 s=1 u=I nop | ip=0x4000000000001230 s=2 u=B enc=0x8000000001 br=1 pred=1 taken tgt=0x4000000000001000
| ip=0x4000000000001230 s=0 u=M enc=0x1234567 da=0x6000000000000108 lat=12 tlb=1 load l1d_miss l2_ref | ip=0x4000000000001000 s=1 u=F fp | ip=0x4000000000001010 s=0 u=M da=0x6000000000000040 store l2_ref l2_miss
recirc=4 repeat=3
cpl=0 intr=entry | ip=0xe000000000400000 s=0 u=M da=0xe000000010007e00 lat=300 tlb=2 load l1d_miss l2_ref l2_miss rse | ip=0xe000000000400000 s=2 u=B br=3 pred=3 taken tgt=0xe000000000500000
pid=101 | ip=0xe000000000500000 s=0 u=M squashed | ip=0xe000000000500000 s=1 u=I nop squashed | ip=0xe000000000500010 s=2 u=B br=2 pred=2 tgt=0x10
cpl=3 is=ia32 intr=return up=0 | ip=0x8048001 u=M da=0xbfff0000 lat=3 tlb=3 load | ip=0x8048004 u=B br=1 pred=1 taken tgt=0x8048000
power=low_power | ip=0x8048000 u=I
cpl=0 is=ia64 power=light_halt repeat=5
power=halt pp=0
power=normal cpl=1 pid=0 | ip=0xffffffffffffff00 s=2 u=B enc=0x1ffffffffff br=1 tgt=0x0 | ip=0x0 s=0 u=M enc=0x1ffffffffff
cpl=2 | ip=0x2000000000000000 s=1 u=M enc=0x1ffffffffff | ip=0x2000000000000010 s=0 u=M da=0x8 lat=65535 tlb=3 load | ip=0x2000000000000010 s=1 u=I | ip=0x2000000000000010 s=2 u=I | ip=0x2000000000000020 s=0 u=M | ip=0x2000000000000020 s=1 u=I
if_addr=0x4000000000001230 if_lat=5000 if_tlb=2 if_rab ev=L1I_READS,FE_BUBBLE_ALL | ip=0x4000000000001230 s=0 u=M da=0x6000000000000100 lat=7 load alat_miss ev=L2_DATA_REFERENCES_L2_ALL:3 | ip=0x4000000000001230 s=1 u=I ev=ISB_BUNPAIRS_IN
if_addr=0x10 if_tlb=3
if_rab
if_lat=65535 ev=SERIALIZATION_EVENTS | ip=0x4000000000001240 s=0 u=M ev=L1I_FILLS
)";

std::vector<ita_cycle> rich_records()
{
    ReadResult r = read_mem(rich_text, "rich.txt");
    EXPECT_EQ(r.rc, 0) << r.err;
    return r.recs;
}

std::string binary_of(const std::vector<ita_cycle> &recs, const std::string &name)
{
    std::string path = scratch(name);
    write_stream(path, PMU_STREAM_BINARY, recs);
    std::string bytes = slurp(path);
    remove(path.c_str());
    return bytes;
}

uint64_t header_count(const std::string &bin)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)(uint8_t)bin[16 + i] << (8 * i);
    return v;
}

std::string with_count(std::string bin, uint64_t count)
{
    for (int i = 0; i < 8; i++)
        bin[16 + i] = (char)(count >> (8 * i));
    return bin;
}

// A header with count 0 followed by raw record bytes.
std::string raw_stream(std::initializer_list<int> record_bytes)
{
    std::string s = binary_of({}, "empty.bin");
    for (int b : record_bytes)
        s.push_back((char)b);
    return s;
}

// Text -> binary -> text: the records and the canonical text come back exactly.
void round_trip(const std::vector<ita_cycle> &recs, const std::string &tag)
{
    std::string txt1 = scratch(tag + "1.txt"), bin = scratch(tag + ".bin"),
                txt2 = scratch(tag + "2.txt"), bin2 = scratch(tag + "2.bin");
    write_stream(txt1, PMU_STREAM_TEXT, recs);
    ReadResult a = read_file(txt1);
    ASSERT_EQ(a.rc, 0) << a.err;
    ASSERT_TRUE(same_records(a.recs, recs));
    write_stream(bin, PMU_STREAM_BINARY, a.recs);
    ReadResult b = read_file(bin);
    ASSERT_EQ(b.rc, 0) << b.err;
    ASSERT_TRUE(same_records(b.recs, recs));
    write_stream(txt2, PMU_STREAM_TEXT, b.recs);
    EXPECT_EQ(slurp(txt1), slurp(txt2)) << "text -> binary -> text changed the text";
    write_stream(bin2, PMU_STREAM_BINARY, read_file(txt2).recs);
    EXPECT_EQ(slurp(bin), slurp(bin2)) << "binary -> text -> binary changed the bytes";
    EXPECT_EQ(header_count(slurp(bin)), recs.size());
    // from memory, both forms
    EXPECT_TRUE(same_records(read_mem(slurp(bin), "m.bin").recs, recs));
    EXPECT_TRUE(same_records(read_mem(slurp(txt2), "m.txt").recs, recs));
    for (const std::string &p : {txt1, bin, txt2, bin2})
        remove(p.c_str());
}

} // namespace

TEST(Binary, RoundTripHandWritten)
{
    std::vector<ita_cycle> recs = rich_records();
    ASSERT_GT(recs.size(), 15u);
    round_trip(recs, "rich");
}

TEST(Binary, RoundTripGenerated)
{
    round_trip(generate(11, 100000, PMU_GEN_WORKLOAD), "workload");
    round_trip(generate(12, 50000, PMU_GEN_RANDOM), "random");
}

TEST(Binary, IsCompact)
{
    std::vector<ita_cycle> recs = generate(5, 200000, PMU_GEN_WORKLOAD);
    std::string txt = scratch("size.txt"), bin = scratch("size.bin");
    write_stream(txt, PMU_STREAM_TEXT, recs);
    write_stream(bin, PMU_STREAM_BINARY, recs);
    size_t tsize = slurp(txt).size(), bsize = slurp(bin).size();
    EXPECT_LT(bsize * 5, tsize) << "binary " << bsize << " text " << tsize;
    EXPECT_LT(bsize, recs.size() * 12) << "more than 12 bytes a cycle";
    remove(txt.c_str());
    remove(bin.c_str());
}

TEST(Binary, WhereNamesTheRecord)
{
    std::string bin = binary_of(rich_records(), "where.bin");
    ReadResult r = read_mem(bin, "trace.bin");
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.wheres[0], "trace.bin:record 1");
    // the repeat=3 line is one record standing for three cycles
    EXPECT_EQ(r.wheres[2], "trace.bin:record 3");
    EXPECT_EQ(r.wheres[3], "trace.bin:record 3");
    EXPECT_EQ(r.wheres[4], "trace.bin:record 3");
    EXPECT_EQ(r.wheres[5], "trace.bin:record 4");
}

// The record number is advanced in place: across 9 -> 10, 99 -> 100 and 999 -> 1000 it
// reads as the decimal number, one more at each new record.
TEST(Binary, WhereCountsPastEveryDigit)
{
    std::vector<ita_cycle> recs = generate(3, 1500, PMU_GEN_RANDOM);
    std::string bin = binary_of(recs, "count.bin");
    ReadResult r = read_mem(bin, "w.bin");
    ASSERT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.wheres.size(), recs.size());
    uint64_t k = 0;
    for (const std::string &w : r.wheres) {
        if (w != "w.bin:record " + std::to_string(k)) {
            ASSERT_EQ(w, "w.bin:record " + std::to_string(++k));
        }
    }
    EXPECT_GT(k, 1000u);
}

TEST(Binary, EmptyStream)
{
    std::string bin = binary_of({}, "e.bin");
    EXPECT_EQ(bin.size(), kHeaderLen);
    ReadResult r = read_mem(bin, "e.bin");
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.recs.size(), 0u);
}

TEST(Binary, EveryTruncationIsAnError)
{
    std::string bin = binary_of(rich_records(), "trunc.bin");
    for (size_t cut = 1; cut < bin.size(); cut++) {
        ReadResult r = read_mem(bin.substr(0, cut), "cut.bin");
        ASSERT_EQ(r.rc, -1) << "cut at " << cut << " accepted";
        EXPECT_CONTAINS(r.err, "cut.bin");
        if (cut < kHeaderLen) {
            EXPECT_CONTAINS(r.err, "field 'header'");
        } else {
            EXPECT_CONTAINS(r.err, "cut.bin:record ");
            EXPECT_CONTAINS(r.err, "truncated");
        }
    }
    // without a count in the header a cut inside a record is still caught
    ReadResult r = read_mem(with_count(bin, 0).substr(0, bin.size() - 1), "nc.bin");
    EXPECT_EQ(r.rc, -1);
    EXPECT_CONTAINS(r.err, "truncated record");
    EXPECT_CONTAINS(r.err, "field '");
}

TEST(Binary, HeaderCountChecked)
{
    std::vector<ita_cycle> recs = rich_records();
    std::string bin = binary_of(recs, "count.bin");
    ASSERT_EQ(header_count(bin), recs.size());
    ReadResult more = read_mem(with_count(bin, recs.size() + 1), "c.bin");
    EXPECT_EQ(more.rc, -1);
    EXPECT_CONTAINS(more.err, "field 'count'");
    ReadResult fewer = read_mem(with_count(bin, 1), "c.bin");
    EXPECT_EQ(fewer.rc, -1);
    EXPECT_CONTAINS(fewer.err, "c.bin:record 2: field 'count'");
    ReadResult unknown = read_mem(with_count(bin, 0), "c.bin");
    EXPECT_EQ(unknown.rc, 0) << unknown.err;
    EXPECT_EQ(unknown.recs.size(), recs.size());
}

TEST(Binary, BadMagicVersionReserved)
{
    std::string bin = binary_of(rich_records(), "magic.bin");
    std::string bad = bin;
    bad[3] = 'X';
    ReadResult r = read_mem(bad, "m.bin");
    EXPECT_FALSE(r.opened);
    EXPECT_CONTAINS(r.err, "m.bin: field 'magic'");
    r = read_mem(std::string("\x01\x02\x03", 3), "junk.bin");
    EXPECT_FALSE(r.opened);
    EXPECT_CONTAINS(r.err, "junk.bin: field 'magic'");
    bad = bin;
    bad[8] = 5;
    r = read_mem(bad, "v.bin");
    EXPECT_FALSE(r.opened);
    EXPECT_CONTAINS(r.err, "v.bin: field 'version': format version 5, expected 4");
    // the version before the slot cache and the groups
    bad[8] = 3;
    r = read_mem(bad, "v3.bin");
    EXPECT_FALSE(r.opened);
    EXPECT_CONTAINS(r.err, "v3.bin: field 'version': format version 3, expected 4");
    bad = bin;
    bad[12] = 1;
    r = read_mem(bad, "r.bin");
    EXPECT_CONTAINS(r.err, "r.bin: field 'reserved'");
    // a version 1 stream (before the header named its dialect) says why it is refused
    bad = bin;
    bad[8] = 1;
    r = read_mem(bad, "v1.bin");
    EXPECT_FALSE(r.opened);
    EXPECT_CONTAINS(r.err, "v1.bin: field 'version': format version 1, expected 4");
    EXPECT_CONTAINS(r.err, "does not name its record dialect");
}

// A writer that fails leaves the file that was there, and no temporary file.
TEST(Binary, FailedWriteKeepsTheFileThatWasThere)
{
    std::string path = scratch("keep.bin");
    spit(path, "precious");
    pmu_err err;
    pmu_stream_writer *w = pmu_stream_create(ITA, path.c_str(), PMU_STREAM_BINARY, &err);
    ASSERT_NE(w, nullptr) << err.msg;
    ita_cycle c = base_cycle();
    ASSERT_EQ(pmu_stream_write(w, &c, &err), 0) << err.msg;
    EXPECT_EQ(slurp(path), "precious"); // the stream is written elsewhere until it is whole
    c.cpl = 9;
    EXPECT_NE(pmu_stream_write(w, &c, &err), 0);
    EXPECT_NE(std::string(err.msg).find(": record 2: "), std::string::npos) << err.msg; // where it was refused
    EXPECT_NE(pmu_stream_finish(w, &err), 0);
    EXPECT_EQ(slurp(path), "precious");
    std::string dir = path.substr(0, path.rfind('/') + 1), base = path.substr(dir.size());
    DIR *dp = opendir(dir.c_str());
    ASSERT_NE(dp, nullptr);
    unsigned seen = 0;
    while (const dirent *e = readdir(dp)) { // include/stream/pmu_tmpfiles.h names them .NAME.pmusim-XXXXXX
        seen += std::string(e->d_name) == base;
        EXPECT_NE(std::string(e->d_name).rfind("." + base + ".pmusim-", 0), 0u) << "left behind: " << e->d_name;
    }
    closedir(dp);
    EXPECT_EQ(seen, 1u);
    // a writer that succeeds replaces it
    write_stream(path, PMU_STREAM_BINARY, {base_cycle()});
    EXPECT_EQ(read_file(path).recs.size(), 1u);
    remove(path.c_str());
}

// A new stream file gets the mode open(2) would give it (0666 less the umask), not its
// temporary file's 0600.
TEST(Binary, NewFileGetsTheUsualMode)
{
    std::string path = scratch("mode.bin");
    remove(path.c_str());
    const mode_t old = umask(022);
    write_stream(path, PMU_STREAM_BINARY, {base_cycle()});
    umask(old);
    struct stat st;
    ASSERT_EQ(stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0644u);
    remove(path.c_str());
}

namespace {

// A record's bytes that the reader refuses, and the message it gives.
struct BadRecord {
    std::initializer_list<int> bytes;
    const char *expect;
};
const BadRecord bad_records[] = {
    {{0x07}, "record 1: field 'group': truncated"},
    {{0x07, 0x07, 0x00}, "record 1: field 'group': a group of 7 slots, expected at most 6"},
    {{0x07, 0x00, 0x20}, "record 1: field 'group': reserved bits 15:13 set (0x2000)"},
    {{0x07, 0x08, 0x00}, "record 1: field 'group': the record refers to group 1, but none was sent"},
    {{0x07, 0x01, 0x00}, "record 1: field 'slot': truncated"}, // a definition of 1 slot
    {{0x01, 0x80}, "record 1: field 'slot': slot 1 is sent as the slot that came next after "
                   "the previous one, but no slot was sent before it"},
    {{0x01, 0x84}, "record 1: field 'slot': slot 1 is sent as the slot that came next (bit 7) "
                   "with reserved bits set (0x84)"},
    {{0x01, 0xbf}, "record 1: field 'slot': slot 1 is sent as the slot that came next (bit 7) "
                   "with reserved bits set (0xbf)"},
    // a slot at ip 0x10 s=2 (sent in full), then "the slot that came next" after it
    {{0x01, 0x08, 0x00, 0x20, 0x01, 0x80}, "record 2: field 'slot': slot 1 is sent as the "
                                           "slot that came next after ip 0x10 s=2, but none "
                                           "was sent after that one"},
    {{0x02, 0x08, 0x00, 0x20, 0xc0}, "record 1: field 'slot': slot 2 is sent as the slot that "
                                     "came next after ip 0x10 s=2, but none"},
    {{0x40}, "record 1: field 'if_addr'"},                   // truncated
    {{0x40, 0x00, 0x80, 0x80, 0x20}, "record 1: field 'if_lat'"}, // 65536
    {{0x40, 0x10, 0x00}, "record 1: field 'if_addr'"},       // no fetch event: validation
    {{0x80, 0x00}, "record 1: field 'ev': 0 general events"},
    {{0x80, 0x05}, "record 1: field 'ev': 5 general events"},
    {{0x80, 0x01, 0xff, 0x7f, 0x01, 0xff}, "record 1: field 'ev': event id 16383"},
    {{0x80, 0x01}, "record 1: field 'ev': truncated"},
    {{0x08, 0x60, 0x00}, "record 1: field 'intr'"},
    {{0x08, 0x80, 0x00}, "record 1: field 'ctl'"},
    {{0x08, 0x00, 0x70}, "record 1: field 'recirc'"},   // 7 > maxincr: validation
    {{0x10, 0x80, 0x80, 0x04}, "record 1: field 'pid'"}, // 65536
    {{0x10, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02}, "field 'pid': varint"},
    {{0x20, 0x00}, "record 1: field 'repeat'"},
    {{0x20, 0x81, 0xc2, 0xd7, 0x2f}, "record 1: field 'repeat': 100000001 cycles, expected at most 100000000"},
    {{0x01, 0x0c, 0x00, 0x00}, "record 1: field 's'"},   // syllable 3
    {{0x01, 0x20, 0x00, 0x00}, "record 1: field 'enc'"}, // cached encoding never sent
    {{0x01, 0x30, 0x00, 0x00}, "record 1: field 'enc'"}, // reserved mode
    {{0x01, 0x10, 0x00, 0x00, 0x00}, "record 1: field 'enc'"}, // explicit 0
    {{0x01, 0x80, 0x00, 0x00}, "record 1: field 'slot'"},
    {{0x01, 0x00, 0xff, 0xff, 0x07, 0x00}, "record 1: field 'flags'"},
    {{0x01, 0x40, 0x00, 0x00, 0x80, 0x80, 0x10}, "record 1: field 'lat'"},
    {{0x01, 0x00, 0x00, 0x02}, "record 1: field 'ip'"},  // ip 1: not 16-byte aligned
    {{0x00, 0x07, 0x10, 0x00}, "record 2: field 'group': the record refers to group 2, but none was sent"},
};

} // namespace

TEST(Binary, OutOfRangeFields)
{
    for (const BadRecord &c : bad_records) {
        ReadResult r = read_mem(raw_stream(c.bytes), "o.bin");
        EXPECT_EQ(r.rc, -1) << c.expect;
        EXPECT_CONTAINS(r.err, "o.bin:record ");
        EXPECT_CONTAINS(r.err, c.expect);
    }
}

namespace {

// A stream from memory, through pmu_stream_next (view_max 0) or pmu_stream_view (drain),
// limited to `limit` cycles when limit is not 0.
ReadResult read_limited(const std::string &data, uint64_t limit, unsigned view_max)
{
    pmu_err err;
    err.msg[0] = '\0';
    pmu_stream_reader *r = pmu_stream_open_mem(ITA, data.data(), data.size(), "v.bin", &err);
    if (r && limit)
        pmu_stream_limit(r, limit);
    return drain(r, err, view_max);
}

// pmu_stream_view at several run lengths gives what pmu_stream_next gives.
void expect_view_as_next(const std::string &data, uint64_t limit, const std::string &what)
{
    const ReadResult want = read_limited(data, limit, 0);
    for (unsigned max : {1u, 2u, 7u, (unsigned)PMU_STREAM_MAX_REPEAT}) {
        SCOPED_TRACE(what + ", at most " + std::to_string(max) + " a call, limit " +
                     std::to_string(limit));
        const ReadResult got = read_limited(data, limit, max);
        EXPECT_EQ(got.rc, want.rc);
        EXPECT_EQ(got.err, want.err);
        EXPECT_TRUE(same_records(got.recs, want.recs));
        EXPECT_EQ(got.wheres, want.wheres);
    }
}

} // namespace

// pmu_stream_view decodes the records after the first on a path of its own (the loop's):
// it must hand out the records, the where texts, the end and every error that
// pmu_stream_next does.  The streams are long enough for the decoder's in-place path.
TEST(Binary, ViewReadsWhatNextReads)
{
    const std::string rich = binary_of(rich_records(), "view.bin");
    const std::string work = binary_of(generate(5, 3000, PMU_GEN_WORKLOAD), "work.bin");
    const std::string rand = binary_of(generate(6, 1500, PMU_GEN_RANDOM), "rand.bin");
    ASSERT_GT(work.size(), 2000u);
    for (uint64_t limit : {0, 1, 4, 9, 2500})
        expect_view_as_next(work, limit, "workload");
    expect_view_as_next(rand, 0, "random");
    expect_view_as_next(rich, 0, "rich");
    // the header's count too high, too low
    expect_view_as_next(with_count(work, header_count(work) + 1), 0, "count + 1");
    expect_view_as_next(with_count(work, 100), 0, "count 100");
    // a cut in every record of a stretch of the workload
    for (size_t cut = work.size() - 200; cut < work.size(); cut++)
        expect_view_as_next(work.substr(0, cut), 0, "cut at " + std::to_string(cut));
    // each refused record after 600 idle records, with room behind it
    for (const BadRecord &c : bad_records) {
        std::string data = raw_stream({}) + std::string(600, '\0');
        for (int byte : c.bytes)
            data.push_back((char)byte);
        expect_view_as_next(data + std::string(1000, '\0'), 0, c.expect);
        expect_view_as_next(data, 0, std::string(c.expect) + ", at the end");
    }
}

namespace {

// A reader that keeps its last k records (pmu_stream_keep; the lock-step pair's batches),
// read through pmu_stream_view at random run lengths with random cycles given back
// (pmu_stream_unread) as far as allowed, must hand out the cycles pmu_stream_next reads, in
// order, each with its where text and the count of cycles handed out, and end as it ends.
void expect_kept_as_next(const std::string &data, const std::string &what, unsigned k,
                         uint64_t seed)
{
    SCOPED_TRACE(what + ", keeping " + std::to_string(k) + ", seed " + std::to_string(seed));
    const ReadResult want = read_limited(data, 0, 0);
    // record[p]: the record cycle p belongs to (a new where text starts a record);
    // start[j]: record j's first cycle
    std::vector<size_t> record, start;
    for (size_t p = 0; p < want.wheres.size(); p++) {
        if (p == 0 || want.wheres[p] != want.wheres[p - 1])
            start.push_back(p);
        record.push_back(start.size() - 1);
    }
    pmu_err err;
    pmu_stream_reader *r = pmu_stream_open_mem(ITA, data.data(), data.size(), "v.bin", &err);
    ASSERT_NE(r, nullptr) << err.msg;
    ASSERT_EQ(pmu_stream_keep(r, k, &err), 0) << err.msg;
    std::mt19937_64 rng(seed);
    size_t pos = 0;    // cycles handed out
    size_t newest = 0; // records read: the newest is newest - 1
    unsigned backs = 0, ends = 0;
    int got;
    for (;;) {
        const void *rec = nullptr;
        got = pmu_stream_view(r, &rec, 1 + (unsigned)(rng() % 9), &err);
        if (got > 0) {
            ASSERT_LE(pos + (size_t)got, want.recs.size());
            for (int i = 1; i < got; i++)
                ASSERT_EQ(record[pos + i], record[pos]) << "one record a call";
            ASSERT_TRUE(same_cycle(*static_cast<const ita_cycle *>(rec), want.recs[pos])) << pos;
            ASSERT_EQ(pmu_stream_where(r), want.wheres[pos]) << pos;
            pos += (size_t)got;
            newest = std::max(newest, record[pos - 1] + 1);
            ASSERT_EQ(pmu_stream_count(r), pos);
        } else if (got == 0 && ends++ == 0 && pos > 0) {
            /* give back at the end once, and read to the end again */
        } else {
            break;
        }
        if (rng() % 16 != 0 && got != 0) /* seldom enough for the reads to get ahead */
            continue;
        // back at most to the first cycle of the (k - 1)-th newest record read
        const size_t oldest = newest >= k - 1 ? newest - (k - 1) : 0;
        const size_t room = pos - start[oldest];
        const size_t back = room ? rng() % (room + 1) : 0;
        pmu_stream_unread(r, (unsigned)back);
        pos -= back;
        backs += back != 0;
        ASSERT_EQ(pmu_stream_count(r), pos);
        if (back && pos > 0) { /* the record of the last cycle still handed out */
            ASSERT_EQ(pmu_stream_where(r), want.wheres[pos - 1]) << "given back to " << pos;
        }
    }
    EXPECT_EQ(got, want.rc);
    EXPECT_EQ(pos, want.recs.size());
    if (got < 0) {
        EXPECT_STREQ(err.msg, want.err.c_str());
    }
    EXPECT_GT(backs, 0u);
    pmu_stream_close(r);
}

} // namespace

TEST(Binary, KeptRecordsAreHandedOutAgainAfterTheyAreGivenBack)
{
    const std::vector<ita_cycle> work = generate(5, 3000, PMU_GEN_WORKLOAD);
    const std::string bin = binary_of(work, "kept.bin");
    std::string text;
    {
        const std::string path = scratch("kept.txt");
        write_stream(path, PMU_STREAM_TEXT, work);
        text = slurp(path);
        remove(path.c_str());
    }
    for (unsigned k : {2u, 3u, 34u})
        for (uint64_t seed : {1u, 2u, 3u}) {
            expect_kept_as_next(bin, "binary", k, seed);
            expect_kept_as_next(text, "text", k, seed);
        }
    // an error after the kept records: handed out as pmu_stream_next hands it out
    expect_kept_as_next(bin.substr(0, bin.size() - 3), "cut", 34, 1);
    expect_kept_as_next(text + "bogus line\n", "text, a bad line", 34, 1);
}

TEST(Binary, WriterRejectsInvalidRecords)
{
    std::string path = scratch("reject.bin");
    pmu_err err;
    pmu_stream_writer *w = pmu_stream_create(ITA, path.c_str(), PMU_STREAM_BINARY, &err);
    ASSERT_NE(w, nullptr) << err.msg;
    ita_cycle c = base_cycle();
    ASSERT_EQ(pmu_stream_write(w, &c, &err), 0) << err.msg;
    c.slot[0].slot = 3;
    EXPECT_NE(pmu_stream_write(w, &c, &err), 0);
    EXPECT_CONTAINS(err.msg, "reject.bin: record 2: field 's'");
    EXPECT_NE(pmu_stream_finish(w, &err), 0);
    remove(path.c_str());

    pmu_stream_writer *bad = pmu_stream_create(ITA, "/nonexistent-dir/x.bin", PMU_STREAM_BINARY, &err);
    EXPECT_EQ(bad, nullptr);
    EXPECT_CONTAINS(err.msg, "/nonexistent-dir/x.bin: cannot create");
}

TEST(Binary, IdenticalRecordsAreCoalesced)
{
    std::vector<ita_cycle> recs(1000, base_cycle());
    std::string bin = binary_of(recs, "coal.bin");
    EXPECT_LT(bin.size(), kHeaderLen + 16u);
    ReadResult r = read_mem(bin, "coal.bin");
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.recs.size(), 1000u);
    EXPECT_EQ(fmt(r.recs[999]), fmt(recs[0]));
}

namespace {

// Raw record bytes, for the tests of the slot cache and the groups below.
struct Bytes {
    std::string s;
    Bytes &b(std::initializer_list<int> v)
    {
        for (int x : v)
            s.push_back((char)x);
        return *this;
    }
    Bytes &varint(uint64_t v)
    {
        for (; v >= 0x80; v >>= 7)
            s.push_back((char)(v | 0x80));
        s.push_back((char)v);
        return *this;
    }
    Bytes &zigzag(int64_t d) { return varint((uint64_t)d << 1 ^ (uint64_t)(d >> 63)); }
};

// A loop of `iters` iterations over the slots of `body`, `per` slots a record, the loads'
// addresses striding and their latencies varying; every 5th iteration a squashed slot.
std::vector<ita_cycle> loop_records(unsigned iters, unsigned per)
{
    std::vector<ita_slot> body;
    for (unsigned k = 0; k < 9; k++) {
        ita_slot s = {};
        s.ip = 0x4000000000002000ull + 16 * (k / 3);
        s.slot = (uint8_t)(k % 3);
        s.unit = k % 3 == 2 ? ITA_UNIT_B : ITA_UNIT_M;
        s.enc = 0x8000000ull + k;
        if (k == 1 || k == 4)
            s.flags = ITA_SF_LOAD_MASK;
        if (k == 8) {
            s.flags = (uint16_t)(1u << ITA_SF_BR_TYPE_LSB | 1u << ITA_SF_BR_PRED_LSB | ITA_SF_TAKEN_MASK);
            s.target = 0x4000000000002000ull;
        }
        body.push_back(s);
    }
    std::vector<ita_cycle> recs;
    ita_cycle c = base_cycle();
    c.nslots = 0;
    for (unsigned it = 0; it < iters; it++)
        for (unsigned k = 0; k < body.size(); k++) {
            ita_slot s = body[k];
            if (s.flags & ITA_SF_LOAD_MASK) {
                s.daddr = 0x6000000000000000ull + 0x1000 * k + 8 * it;
                s.lat = (uint16_t)(1 + it % 7);
                s.tlb = (uint8_t)(it % 3 == 0);
            }
            if (k == 3 && it % 5 == 0)
                s.flags = ITA_SF_PRED_OFF_MASK;
            c.slot[c.nslots++] = s;
            if (c.nslots == per) {
                recs.push_back(c);
                c.nslots = 0;
            }
        }
    return recs;
}

std::string binary_bytes(const std::vector<ita_cycle> &recs)
{
    return binary_of(recs, "loop.bin");
}

} // namespace

// A loop: records of the same slots are references to a group, the others' slots mostly
// "the one that came next"; both come back exactly, read in place (the long stream) and byte
// by byte (its end, and the short one).
TEST(Binary, LoopsUseGroupsAndTheSlotCache)
{
    // 9 slots in records of 3: three groups, every 5th iteration a fourth one
    std::vector<ita_cycle> grouped = loop_records(3000, 3);
    round_trip(grouped, "groups");
    round_trip(loop_records(4, 3), "groups-short");
    // a reference is 3 bytes and a load's address and latency: about 5 bytes a record
    size_t size = binary_bytes(grouped).size() - kHeaderLen;
    EXPECT_LT(size, grouped.size() * 6) << size << " bytes for " << grouped.size() << " records";

    // records of 4 slots out of 9: the groups recur every 9 records; before that (and for
    // the squashed variants) the slots are the ones that came next
    std::vector<ita_cycle> shifted = loop_records(3000, 4);
    round_trip(shifted, "next");
    round_trip(loop_records(5, 4), "next-short");
    size = binary_bytes(shifted).size() - kHeaderLen;
    EXPECT_LT(size, shifted.size() * 8) << size << " bytes for " << shifted.size() << " records";

    // in the first iterations no record can refer to a group (none recurs yet): slots sent
    // as the one that came next keep them short.  Records 5 and 6 (loop slots 7 8 0 1 and
    // 2 3 4 5, the second and third time round) are a head byte, a byte a slot and the
    // load's address and latency.
    std::vector<ita_cycle> early = loop_records(3, 4);
    ASSERT_EQ(early.size(), 6u);
    std::string four = binary_bytes(std::vector<ita_cycle>(early.begin(), early.begin() + 4));
    std::string six = binary_bytes(early);
    EXPECT_EQ(six.size() - four.size(), 2u * (1 + 4 + 2));
}

// What the slot cache and the groups hold is validated with the copy: a record a rule
// refuses is refused (with the rule's message), whether its slots come from the cache or a
// group, whatever the path.
TEST(Binary, CopiedSlotsAreStillValidated)
{
    const uint64_t ia32_ip = 0x8048001, ia64_ip = 0x4000000000001000ull;
    const char *ip_msg = "field 'ip': slot 1 ip 0x8048001 is not 16-byte aligned";
    // an IA-32 slot defines group 0; the same slots in IA-64 cycles are refused
    Bytes g;
    g.b({0x0f, 0x07, 0x00, 0x01, 0x00, 0x00, 0x00}).zigzag((int64_t)ia32_ip);
    Bytes with_ctl = g;
    with_ctl.b({0x0f, 0x03, 0x00, 0x00, 0x00}); // CTL is=ia64, a reference to group 0
    ReadResult r = read_mem(raw_stream({}) + with_ctl.s, "g.bin");
    EXPECT_EQ(r.rc, -1);
    EXPECT_EQ(r.recs.size(), 1u);
    EXPECT_CONTAINS(r.err, std::string("g.bin:record 2: ") + ip_msg);
    // the plain reference (no fields of its own) after an IA-64 record: the sticky is
    Bytes plain = g;
    plain.b({0x09, 0x03, 0x00, 0x00, 0x00}).zigzag((int64_t)(ia64_ip - ia32_ip));
    plain.b({0x07, 0x00, 0x00});
    const std::string plain_bytes = raw_stream({}) + plain.s;
    r = read_mem(plain_bytes, "p.bin");
    EXPECT_EQ(r.rc, -1);
    EXPECT_CONTAINS(r.err, std::string("p.bin:record 3: ") + ip_msg);
    // ... read in place too: padded by valid records after it, far beyond its end
    std::string padded = plain_bytes + std::string(1000, '\0');
    r = read_mem(padded, "q.bin");
    EXPECT_EQ(r.rc, -1);
    EXPECT_EQ(r.recs.size(), 2u);
    EXPECT_CONTAINS(r.err, std::string("q.bin:record 3: ") + ip_msg);
    // a group of slots in a halt state
    Bytes halt;
    halt.b({0x07, 0x01, 0x00, 0x00, 0x00}).zigzag((int64_t)ia64_ip);
    halt.b({0x0f, 0x1b, 0x00, 0x00, 0x00}); // CTL power=halt, a reference to group 0
    r = read_mem(raw_stream({}) + halt.s, "h.bin");
    EXPECT_EQ(r.rc, -1);
    EXPECT_CONTAINS(r.err, "h.bin:record 2: field 'power': 1 slots retire in power=halt");

    // IA-32 slots X, Y, X again (each in full); then in an IA-64 cycle, the slot that came
    // after X: Y, refused
    Bytes next;
    next.b({0x09, 0x07, 0x00, 0x00, 0x00}).zigzag((int64_t)ia32_ip);
    next.b({0x01, 0x00, 0x00}).zigzag(3);
    next.b({0x01, 0x00, 0x00}).zigzag(-3);
    next.b({0x09, 0x03, 0x00, 0x80});
    for (size_t pad : {0, 1000}) {
        r = read_mem(raw_stream({}) + next.s + std::string(pad, '\0'), "n.bin");
        EXPECT_EQ(r.rc, -1);
        EXPECT_EQ(r.recs.size(), 3u);
        EXPECT_CONTAINS(r.err, "n.bin:record 4: field 'ip': slot 1 ip 0x8048004 is not 16-byte aligned");
    }
    // the same slots in IA-32 cycles pass
    Bytes ok;
    ok.b({0x09, 0x07, 0x00, 0x00, 0x00}).zigzag((int64_t)ia32_ip);
    ok.b({0x01, 0x00, 0x00}).zigzag(3);
    ok.b({0x01, 0x00, 0x00}).zigzag(-3);
    ok.b({0x01, 0x80});
    r = read_mem(raw_stream({}) + ok.s, "ok.bin");
    EXPECT_EQ(r.rc, 0) << r.err;
    ASSERT_EQ(r.recs.size(), 4u);
    EXPECT_EQ(r.recs[3].slot[0].ip, 0x8048004u);
}
