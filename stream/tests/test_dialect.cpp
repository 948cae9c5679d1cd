// Streams are generic over a family's record dialect (include/common/pmu_dialect.h): the
// Itanium dialect's functions round-trip records (text and binary), and the generic
// reader, writer, sources and generator work with another dialect (a toy one defined
// here) while refusing a binary stream of a dialect other than the one they read.
#include <cstdlib>

#include "common/pmu_num.h"
#include "stream/ita/ita_stream_test_util.h"

namespace {

// ---- a toy dialect: a record is one 32-bit value, "v=N" in text -------------------------
struct ToyRec {
    uint32_t v;
    uint32_t unused; // canon zeroes it
};

int toy_validate(const void *rec, const char *where, pmu_err *err)
{
    const ToyRec *r = static_cast<const ToyRec *>(rec);
    if (r->v == 0xdeadbeef)
        return pmu_dialect_errf(err, where, "field 'v': 0xdeadbeef is not a value");
    return 0;
}

size_t toy_format(const void *rec, char *buf, size_t size)
{
    int k = snprintf(buf, size, "v=%u", static_cast<const ToyRec *>(rec)->v);
    return k < 0 ? 0 : static_cast<size_t>(k);
}

void toy_canon(const void *in, void *out)
{
    ToyRec r = {static_cast<const ToyRec *>(in)->v, 0};
    memcpy(out, &r, sizeof r);
}

int toy_equal(const void *a, const void *b)
{
    return static_cast<const ToyRec *>(a)->v == static_cast<const ToyRec *>(b)->v;
}

void toy_state_init(void *state) { *static_cast<uint32_t *>(state) = 0; }

int toy_parse(void *, const char *line, size_t len, const char *where, void *rec, pmu_err *err)
{
    std::string s(line, len);
    size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
    if (a == std::string::npos || s.compare(a, 2, "v=") != 0)
        return pmu_dialect_errf(err, where, "field 'v': expected v=N");
    uint64_t v = 0;
    std::string what = std::string(where) + ": field 'v'";
    if (pmu_parse_u64n(line + a + 2, b - a - 1, 0, UINT32_MAX, what.c_str(), &v, err))
        return -1;
    ToyRec r = {static_cast<uint32_t>(v), 0};
    memcpy(rec, &r, sizeof r);
    return toy_validate(rec, where, err);
}

size_t toy_format_line(void *, const void *rec, char *buf, size_t size)
{
    return toy_format(rec, buf, size);
}

// One record: the value (4 bytes) and the repeat count (8 bytes), little-endian.
size_t toy_encode(void *, const void *rec, uint64_t repeat, uint8_t *out)
{
    uint32_t v = static_cast<const ToyRec *>(rec)->v;
    for (int i = 0; i < 4; i++)
        out[i] = static_cast<uint8_t>(v >> (8 * i));
    for (int i = 0; i < 8; i++)
        out[4 + i] = static_cast<uint8_t>(repeat >> (8 * i));
    return 12;
}

int toy_decode(void *, pmu_getc_fn get, void *ctx, const char *where, void *rec,
               uint64_t *repeat, pmu_err *err)
{
    uint8_t b[12];
    for (int i = 0; i < 12; i++) {
        int c = get(ctx);
        if (c < 0 && i == 0)
            return 0;
        if (c < 0)
            return pmu_dialect_errf(err, where, "field 'v': truncated record");
        b[i] = static_cast<uint8_t>(c);
    }
    ToyRec r = {0, 0};
    *repeat = 0;
    for (int i = 0; i < 4; i++)
        r.v |= static_cast<uint32_t>(b[i]) << (8 * i);
    for (int i = 0; i < 8; i++)
        *repeat |= static_cast<uint64_t>(b[4 + i]) << (8 * i);
    memcpy(rec, &r, sizeof r);
    return 1;
}

// Counts 1, 2, 3, ... from the seed.
struct ToyGen {
    uint32_t next;
};

void *toy_gen_create(const pmu_gen_opts *o, pmu_err *)
{
    ToyGen *g = static_cast<ToyGen *>(malloc(sizeof(ToyGen)));
    if (g)
        g->next = static_cast<uint32_t>(o->seed);
    return g;
}

int toy_gen_next(void *gen, void *rec)
{
    ToyRec r = {static_cast<ToyGen *>(gen)->next++, 0};
    memcpy(rec, &r, sizeof r);
    return 1;
}

unsigned toy_gen_nfuncs(const void *) { return 0; }
int toy_gen_func(const void *, unsigned, uint64_t *, uint64_t *, const char **) { return -1; }
void toy_gen_destroy(void *gen) { free(gen); }

pmu_dialect make_toy()
{
    pmu_dialect d{};
    d.name = "toy";
    d.record_size = sizeof(ToyRec);
    d.validate = toy_validate;
    d.format = toy_format;
    d.canon = toy_canon;
    d.equal = toy_equal;
    d.state_size = sizeof(uint32_t);
    d.state_init = toy_state_init;
    d.parse_line = toy_parse;
    d.format_line = toy_format_line;
    d.max_encoded = 12;
    d.encode = toy_encode;
    d.decode = toy_decode;
    d.gen_create = toy_gen_create;
    d.gen_next = toy_gen_next;
    d.gen_nfuncs = toy_gen_nfuncs;
    d.gen_func = toy_gen_func;
    d.gen_destroy = toy_gen_destroy;
    return d;
}

const pmu_dialect toy = make_toy();

std::vector<uint32_t> toy_read(pmu_stream_reader *r, std::string *err)
{
    std::vector<uint32_t> out;
    ToyRec rec;
    pmu_err e;
    int rc;
    while ((rc = pmu_stream_next(r, &rec, &e)) == 1)
        out.push_back(rec.v);
    if (rc < 0)
        *err = e.msg;
    pmu_stream_close(r);
    return out;
}

std::vector<uint32_t> toy_read_mem(const std::string &data, std::string *err)
{
    pmu_err e;
    pmu_stream_reader *r = pmu_stream_open_mem(&toy, data.data(), data.size(), "toy.txt", &e);
    if (!r) {
        *err = e.msg;
        return {};
    }
    return toy_read(r, err);
}

void toy_write(const std::string &path, pmu_stream_form form, const std::vector<uint32_t> &vals)
{
    pmu_err err;
    pmu_stream_writer *w = pmu_stream_create(&toy, path.c_str(), form, &err);
    ASSERT_NE(w, nullptr) << err.msg;
    for (uint32_t v : vals) {
        ToyRec r = {v, 0x5555}; // the writer makes it canonical
        ASSERT_EQ(pmu_stream_write(w, &r, &err), 0) << err.msg;
    }
    ASSERT_EQ(pmu_stream_finish(w, &err), 0) << err.msg;
}

} // namespace

// ---- the generic code with another dialect -------------------------------------------
TEST(Dialect, AnotherDialectsTextLines)
{
    std::string err;
    // comments, blank lines, every line end, repeat anywhere on the line
    std::vector<uint32_t> v =
        toy_read_mem("# toy\r\nv=1 repeat=3\rrepeat=2 v=0x10\n\n  # more\rv=7", &err);
    EXPECT_EQ(err, "");
    EXPECT_EQ(v, (std::vector<uint32_t>{1, 1, 1, 16, 16, 7}));
    // the dialect's own errors and the generic ones name the line
    toy_read_mem("v=1\nv=012\n", &err);
    EXPECT_CONTAINS(err, "toy.txt:2: field 'v'");
    EXPECT_CONTAINS(err, "leading zeros");
    toy_read_mem("v=1\rv=2 repeat=0\n", &err);
    EXPECT_CONTAINS(err, "toy.txt:2:5: field 'repeat'");
    toy_read_mem("v=0xdeadbeef\n", &err);
    EXPECT_CONTAINS(err, "toy.txt:1: field 'v': 0xdeadbeef is not a value");
}

TEST(Dialect, AnotherDialectsStreamsRoundTrip)
{
    const std::vector<uint32_t> vals = {5, 5, 5, 6, 0, 0, 4294967295u};
    for (pmu_stream_form form : {PMU_STREAM_TEXT, PMU_STREAM_BINARY}) {
        std::string path = scratch(form == PMU_STREAM_TEXT ? "toy.txt" : "toy.bin");
        toy_write(path, form, vals);
        std::string bytes = slurp(path);
        if (form == PMU_STREAM_TEXT) {
            EXPECT_CONTAINS(bytes, "repeat=3 v=5\n"); // merged by the generic writer
        } else {
            EXPECT_EQ(bytes.substr(24, 4), std::string("toy\0", 4)); // the header names it
            EXPECT_EQ(bytes.size(), 40u + 4 * 12u);                   // four records
        }
        pmu_err e;
        std::string err;
        EXPECT_EQ(toy_read(pmu_stream_open(&toy, path.c_str(), &e), &err), vals);
        EXPECT_EQ(err, "");
        remove(path.c_str());
    }
}

TEST(Dialect, BinaryStreamOfAnotherDialectIsRefused)
{
    std::string toy_bin = scratch("other.bin"), ita_bin = scratch("ita.bin");
    toy_write(toy_bin, PMU_STREAM_BINARY, {1, 2});
    write_stream(ita_bin, PMU_STREAM_BINARY, {base_cycle()});
    pmu_err err;
    EXPECT_EQ(pmu_stream_open(ITA, toy_bin.c_str(), &err), nullptr);
    EXPECT_CONTAINS(err.msg, "other.bin: field 'dialect': a stream of 'toy' records, expected "
                             "'itanium' records");
    EXPECT_EQ(pmu_stream_open(&toy, ita_bin.c_str(), &err), nullptr);
    EXPECT_CONTAINS(err.msg, "field 'dialect': a stream of 'itanium' records, expected 'toy'");
    // a record source refuses it the same way
    EXPECT_EQ(pmu_source_file(ITA, toy_bin.c_str(), 0, &err), nullptr);
    EXPECT_CONTAINS(err.msg, "field 'dialect'");
    // an unprintable name is escaped, a name without its padding is refused
    std::string bytes = slurp(ita_bin);
    bytes[24] = '\x01';
    ReadResult r = read_mem(bytes, "odd.bin");
    EXPECT_CONTAINS(r.err, "odd.bin: field 'dialect': a stream of '\\x01tanium' records");
    bytes = slurp(ita_bin);
    bytes[24 + 10] = 'x';
    r = read_mem(bytes, "pad.bin");
    EXPECT_CONTAINS(r.err, "pad.bin: field 'dialect'");
    remove(toy_bin.c_str());
    remove(ita_bin.c_str());
}

TEST(Dialect, GeneratorAndSourceOfAnotherDialect)
{
    pmu_gen_opts o = {40, 3, PMU_GEN_RANDOM, 0, nullptr};
    pmu_err err;
    pmu_source *s = pmu_source_generator(&toy, &o, &err);
    ASSERT_NE(s, nullptr) << err.msg;
    ToyRec r;
    std::vector<uint32_t> got;
    while (pmu_source_next(s, &r, &err) == 1)
        got.push_back(r.v);
    EXPECT_EQ(got, (std::vector<uint32_t>{40, 41, 42}));
    EXPECT_CONTAINS(pmu_source_where(s), "seed 40), record 2");
    pmu_source_close(s);
    // a dialect without a generator says so
    pmu_dialect none = make_toy();
    none.gen_create = nullptr;
    EXPECT_EQ(pmu_gen_create(&none, &o, &err), nullptr);
    EXPECT_CONTAINS(err.msg, "the 'toy' records have no generator");
}

// ---- the Itanium dialect's functions -----------------------------------------------------
// Text -> record -> text through the dialect: the self-contained line parses back to the
// record from any state, and the writer's lines (only what changed) parse back in order.
TEST(Dialect, ItaniumTextRoundTrip)
{
    const pmu_dialect *d = ITA;
    std::vector<uint8_t> wstate(d->state_size), rstate(d->state_size);
    d->state_init(wstate.data());
    d->state_init(rstate.data());
    uint64_t n = 0;
    for (pmu_gen_mode mode : {PMU_GEN_WORKLOAD, PMU_GEN_RANDOM}) {
        for (const ita_cycle &c : generate(77, 20000, mode)) {
            char line[2048];
            ita_cycle back, canon;
            pmu_err err;
            d->canon(&c, &canon);
            size_t len = d->format(&c, line, sizeof line);
            ASSERT_LT(len, sizeof line);
            void *fresh = pmu_dialect_state_new(d);
            ASSERT_NE(fresh, nullptr);
            const int rc = d->parse_line(fresh, line, len, "self", &back, &err);
            free(fresh);
            ASSERT_EQ(rc, 0) << err.msg;
            ASSERT_TRUE(d->equal(&back, &canon)) << line;
            len = d->format_line(wstate.data(), &c, line, sizeof line);
            ASSERT_LT(len, sizeof line);
            ASSERT_EQ(d->parse_line(rstate.data(), line, len, "seq", &back, &err), 0) << err.msg;
            ASSERT_TRUE(d->equal(&back, &canon)) << line;
            n++;
        }
    }
    EXPECT_EQ(n, 40000u);
}

// A line that does not fit leaves the state as it was, so the writer can try again.
TEST(Dialect, ItaniumFormatLineThatDoesNotFit)
{
    const pmu_dialect *d = ITA;
    std::vector<uint8_t> state(d->state_size);
    d->state_init(state.data());
    ita_cycle c = base_cycle();
    c.cpl = 1;
    char small[4], big[256];
    size_t need = d->format_line(state.data(), &c, small, sizeof small);
    ASSERT_GE(need, sizeof small);
    EXPECT_EQ(d->format_line(state.data(), &c, big, sizeof big), need);
    EXPECT_EQ(std::string(big).rfind("cpl=1 ", 0), 0u) << big; // the change is still written
}

// Record -> bytes -> record with the writer's and the reader's states in step, repeats
// included.
TEST(Dialect, ItaniumBinaryRoundTrip)
{
    const pmu_dialect *d = ITA;
    std::vector<uint8_t> wstate(d->state_size), rstate(d->state_size), bytes(d->max_encoded);
    d->state_init(wstate.data());
    d->state_init(rstate.data());
    std::vector<ita_cycle> recs = generate(78, 20000, PMU_GEN_WORKLOAD);
    std::vector<ita_cycle> more = generate(79, 20000, PMU_GEN_RANDOM);
    recs.insert(recs.end(), more.begin(), more.end());
    std::string data;
    for (size_t i = 0; i < recs.size(); i++) {
        size_t n = d->encode(wstate.data(), &recs[i], 1 + i % 5, bytes.data());
        ASSERT_LE(n, d->max_encoded);
        data.append(reinterpret_cast<const char *>(bytes.data()), n);
    }
    struct Src {
        const std::string *data;
        size_t pos;
    } src = {&data, 0};
    auto get = [](void *ctx) -> int {
        Src *s = static_cast<Src *>(ctx);
        return s->pos < s->data->size() ? static_cast<uint8_t>((*s->data)[s->pos++]) : -1;
    };
    for (size_t i = 0; i < recs.size(); i++) {
        ita_cycle back, canon;
        uint64_t repeat = 0;
        pmu_err err;
        ASSERT_EQ(d->decode(rstate.data(), get, &src, "bytes", &back, &repeat, &err), 1) << err.msg;
        d->canon(&recs[i], &canon);
        ASSERT_TRUE(d->equal(&back, &canon)) << "record " << i << ": " << fmt(recs[i]);
        ASSERT_EQ(repeat, 1 + i % 5);
    }
    ita_cycle end;
    uint64_t repeat;
    EXPECT_EQ(d->decode(rstate.data(), get, &src, "bytes", &end, &repeat, nullptr), 0);
}
