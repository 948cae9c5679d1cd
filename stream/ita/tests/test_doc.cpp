// docs/ita-stream-format.md stays true: every ```stream example parses, and the annotated
// binary example is what the writer produces for the text above it.
#include "stream/ita/ita_stream_test_util.h"

#ifndef STREAM_DOC
#error "STREAM_DOC (the path of docs/ita-stream-format.md) is set by stream/stream.mk"
#endif

namespace {

struct Block {
    std::string lang, body, before; // `before`: the text between the previous block and this one
};

std::vector<Block> fenced_blocks(const std::string &doc)
{
    std::vector<Block> out;
    std::istringstream in(doc);
    std::string line, prose;
    Block cur;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.rfind("```", 0) == 0) {
            if (!inside) {
                cur = Block();
                cur.lang = line.substr(3);
                cur.before = prose;
                prose.clear();
            } else {
                out.push_back(cur);
            }
            inside = !inside;
            continue;
        }
        (inside ? cur.body : prose) += line + "\n";
    }
    return out;
}

} // namespace

TEST(Doc, StreamExamplesParse)
{
    std::string doc = slurp(STREAM_DOC);
    ASSERT_FALSE(doc.empty()) << "cannot read " << STREAM_DOC;
    int examples = 0;
    for (const Block &b : fenced_blocks(doc)) {
        if (b.lang != "stream")
            continue;
        examples++;
        ReadResult r = read_mem(b.body, "doc example");
        EXPECT_EQ(r.rc, 0) << r.err << "\n" << b.body;
        EXPECT_FALSE(r.recs.empty()) << b.body;
    }
    EXPECT_GE(examples, 4);
}

TEST(Doc, BinaryExampleMatchesTheWriter)
{
    std::vector<Block> blocks = fenced_blocks(slurp(STREAM_DOC));
    for (size_t i = 1; i < blocks.size(); i++) {
        if (blocks[i].before.find("in binary:") == std::string::npos)
            continue;
        ASSERT_EQ(blocks[i - 1].lang, "stream");
        // the bytes: leading two-digit hex tokens of each line
        std::string documented;
        std::istringstream lines(blocks[i].body);
        std::string line;
        while (std::getline(lines, line)) {
            std::istringstream toks(line);
            std::string t;
            while (toks >> t && t.size() == 2 && isxdigit((unsigned char)t[0]) &&
                   isxdigit((unsigned char)t[1]))
                documented.push_back((char)std::stoi(t, nullptr, 16));
        }
        ReadResult r = read_mem(blocks[i - 1].body, "doc example");
        ASSERT_EQ(r.rc, 0) << r.err;
        std::string path = scratch("doc.bin");
        write_stream(path, PMU_STREAM_BINARY, r.recs);
        std::string actual = slurp(path);
        remove(path.c_str());
        EXPECT_EQ(actual.size(), documented.size());
        EXPECT_TRUE(actual == documented) << "the documented bytes differ from the writer's";
        return;
    }
    FAIL() << "no binary example found";
}

// The "Encodings" table is what the workload emits with `hot` given: every IA-64 slot
// falls in a row (its MATCH/CARE, on one of the row's units), and every row is seen.
TEST(Doc, EncodingTableMatchesTheWorkload)
{
    struct Row {
        std::string name;
        uint64_t match, care;
        unsigned units; // bit per enum ita_unit
        uint64_t seen;
    };
    std::vector<Row> rows;
    std::istringstream in(slurp(STREAM_DOC));
    std::string line;
    bool inside = false;
    while (std::getline(in, line)) {
        if (line.rfind("### ", 0) == 0)
            inside = line == "### Encodings";
        if (!inside || line.rfind("| ", 0) != 0)
            continue;
        std::vector<std::string> cols;
        std::istringstream cells(line.substr(1));
        std::string cell;
        while (std::getline(cells, cell, '|'))
            cols.push_back(cell);
        if (cols.size() < 5)
            continue;
        unsigned long long m, c;
        if (sscanf(cols[3].c_str(), " `0x%llx/0x%llx`", &m, &c) != 2)
            continue; // the header
        Row r = {cols[0], m, c, 0, 0};
        for (char u : cols[2])
            r.units |= u == 'M' ? 1u << ITA_UNIT_M : u == 'I' ? 1u << ITA_UNIT_I
                     : u == 'F' ? 1u << ITA_UNIT_F : u == 'B' ? 1u << ITA_UNIT_B : 0u;
        EXPECT_NE(r.units, 0u) << line;
        EXPECT_EQ(r.match & ~r.care, 0u) << line;
        rows.push_back(r);
    }
    ASSERT_GE(rows.size(), 15u) << "the Encodings table was not found";

    pmu_gen_hot none = {nullptr, 0, nullptr, 0, nullptr, nullptr, 0, nullptr, 0, nullptr, 0};
    uint64_t slots = 0, outside = 0;
    std::string first;
    for (uint64_t seed : {1ull, 2ull}) {
        pmu_gen_opts o = {seed, 300000, PMU_GEN_WORKLOAD, 4, &none};
        pmu_gen *g = pmu_gen_create(ITA, &o, nullptr);
        ASSERT_NE(g, nullptr);
        ita_cycle c;
        while (pmu_gen_next(g, &c) == 1) {
            for (int k = 0; !c.is && k < c.nslots; k++, slots++) {
                bool found = false;
                for (Row &r : rows) {
                    if (((c.slot[k].enc ^ r.match) & r.care) == 0 && (r.units >> c.slot[k].unit & 1)) {
                        r.seen++;
                        found = true;
                    }
                }
                if (!found && !outside++)
                    first = "slot " + std::to_string(k + 1) + ": " + fmt(c);
            }
        }
        pmu_gen_destroy(g);
    }
    EXPECT_GT(slots, 500000u);
    EXPECT_EQ(outside, 0u) << "an encoding in no row of the table: " << first;
    for (const Row &r : rows)
        EXPECT_GT(r.seen, 0u) << "row never seen:" << r.name;
}
