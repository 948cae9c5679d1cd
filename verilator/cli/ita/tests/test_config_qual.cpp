// test_config_qual.cpp - the qualification lines of configuration files: irange, drange,
// opcode, the constraint registers (PMC8, PMC9, PMC11, PMC13, PMC14, PMC15, IBR0..7,
// DBR0..7) by name, what each line derives, how a run describes the result, and every
// error with the line it names.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli/ita/ita_config.h"
#include "harness/ita/ita_harness_util.h"
#include "harness/ita/ita_family.h"
#include "csim/ita/ita_ref.h"

using harness_test::has;
using harness_test::must_fail;
using harness_test::must_parse;
using harness_test::parse_config;

namespace {

const uint64_t kMask56 = (UINT64_C(1) << 56) - 1;  // IBR/DBR odd register: mask 55:0


uint64_t reset_of(unsigned v, ita_model m) { return ita_reg_lookup(ita_vis_table[v].addr)->reset[m]; }

// The odd register of a pair: mask 55:0 and plm.
uint64_t odd_reg(uint64_t mask, unsigned plm) { return ITA_FSET(mask & kMask56, IBR_MASK, PLM, plm); }

std::string tags(const ita_config &cfg, unsigned counter)
{
    uint64_t vis[ITA_NVIS];
    ita_config_values(&cfg, vis);
    char buf[512];
    ita_config_describe_tags(vis, cfg.model, counter, buf, sizeof buf);
    return buf;
}

std::string setup(const ita_config &cfg)
{
    uint64_t vis[ITA_NVIS];
    ita_config_values(&cfg, vis);
    char buf[2048];
    ita_config_describe_setup(vis, cfg.model, buf, sizeof buf);
    return buf;
}

// ---- irange ------------------------------------------------------------------------------

TEST(ConfigIrange, BlockProgramsOnePairAndItsConstraints)
{
    ita_config cfg = must_parse("# code range\nirange 0x4000000000001000..0x4000000000002000 pair=0 plm=0x8\n");
    EXPECT_EQ(cfg.value[ITA_VIS_IBR0], UINT64_C(0x4000000000001000));
    EXPECT_EQ(cfg.value[ITA_VIS_IBR1], odd_reg(~UINT64_C(0xfff), 8));
    EXPECT_EQ(cfg.line[ITA_VIS_IBR0], 2u);
    EXPECT_EQ(cfg.line[ITA_VIS_IBR1], 2u);
    EXPECT_TRUE(cfg.derived[ITA_VIS_IBR0]);
    EXPECT_EQ(cfg.ipair[0].line, 2u);
    // PMC14: pair 0 constrains its events, the others stay unconstrained; no fine mode.
    EXPECT_TRUE(cfg.derived[ITA_VIS_PMC14]);
    const uint64_t pmc14 = cfg.value[ITA_VIS_PMC14];
    EXPECT_EQ(ITA_FGET(pmc14, PMC14, IBRP0), 0u);
    EXPECT_EQ(ITA_FGET(pmc14, PMC14, IBRP1), 1u);
    EXPECT_EQ(ITA_FGET(pmc14, PMC14, IBRP2), 1u);
    EXPECT_EQ(ITA_FGET(pmc14, PMC14, IBRP3), 1u);
    EXPECT_EQ(ITA_FGET(pmc14, PMC14, FINE), 0u);
    EXPECT_EQ(pmc14 | ITA_FMASK(PMC14, IBRP0), reset_of(ITA_VIS_PMC14, ITA_MODEL_ITANIUM2));
    // PMC8 resets with ig_ad = 1, which would ignore the range on pair 0: cleared, with inv.
    EXPECT_TRUE(cfg.derived[ITA_VIS_PMC8]);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC8], PMC_OPC, IG_AD), 0u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC8], PMC_OPC, INV), 0u);
    EXPECT_EQ(cfg.value[ITA_VIS_PMC8] | ITA_FMASK(PMC_OPC, IG_AD) | ITA_FMASK(PMC_OPC, INV),
              reset_of(ITA_VIS_PMC8, ITA_MODEL_ITANIUM2));
    // Nothing else.
    EXPECT_EQ(cfg.line[ITA_VIS_PMC13], 0u);
    EXPECT_EQ(cfg.line[ITA_VIS_PMC15], 0u);
    EXPECT_EQ(cfg.line[ITA_VIS_IBR2], 0u);
}

TEST(ConfigIrange, AddressMaskForm)
{
    ita_config cfg = must_parse("irange addr=0x4000000000001000 mask=0xfffffffffffff000 pair=1\n");
    EXPECT_EQ(cfg.value[ITA_VIS_IBR2], UINT64_C(0x4000000000001000));
    EXPECT_EQ(cfg.value[ITA_VIS_IBR3], odd_reg(~UINT64_C(0xfff), 0xf));  // plm: every level
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC14], PMC14, IBRP1), 0u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC14], PMC14, IBRP0), 1u);
    EXPECT_EQ(cfg.line[ITA_VIS_PMC8], 0u);  // an odd pair goes with PMC9, whose ig_ad does nothing
    // The mask may also be written as the register's 56-bit field; any mask is allowed.
    ita_config same = must_parse("irange addr=0x4000000000001000 mask=0xfffffffffff000 pair=1\n");
    EXPECT_EQ(same.value[ITA_VIS_IBR3], cfg.value[ITA_VIS_IBR3]);
    cfg = must_parse("irange addr=0x4000000000001010 mask=0xfffffffffffff0f0 pair=3 plm=1\n");
    EXPECT_EQ(cfg.value[ITA_VIS_IBR7], odd_reg(UINT64_C(0xfffffffffff0f0), 1));
}

TEST(ConfigIrange, ItaniumClearsTagAll)
{
    ita_config cfg = must_parse("irange 0x4000000000000000..0x4000000000010000 pair=2\n", ITA_MODEL_ITANIUM);
    EXPECT_EQ(cfg.value[ITA_VIS_IBR4], UINT64_C(0x4000000000000000));
    EXPECT_EQ(cfg.value[ITA_VIS_IBR5], odd_reg(~UINT64_C(0xffff), 0xf));
    EXPECT_TRUE(cfg.derived[ITA_VIS_PMC13]);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC13], PMC13, TA), 0u);
    EXPECT_EQ(cfg.value[ITA_VIS_PMC13] | ITA_FMASK(PMC13, TA), reset_of(ITA_VIS_PMC13, ITA_MODEL_ITANIUM));
    EXPECT_EQ(cfg.line[ITA_VIS_PMC14], 0u);  // not an Itanium register
    EXPECT_EQ(cfg.line[ITA_VIS_PMC8], 0u);
}

TEST(ConfigIrange, FineRangeUsesTwoPairs)
{
    ita_config cfg = must_parse("\nirange 0x4000000000001230..0x4000000000001560 fine pair=0 plm=8\n");
    EXPECT_EQ(cfg.value[ITA_VIS_IBR0], UINT64_C(0x4000000000001230));
    EXPECT_EQ(cfg.value[ITA_VIS_IBR4], UINT64_C(0x4000000000001550));  // the last bundle, inclusive
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_IBR1], IBR_MASK, PLM), 8u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_IBR5], IBR_MASK, PLM), 8u);
    EXPECT_EQ(cfg.ipair[0].fine, 1u);
    EXPECT_EQ(cfg.ipair[2].fine, 2u);
    EXPECT_EQ(cfg.ipair[2].line, 2u);
    const uint64_t pmc14 = cfg.value[ITA_VIS_PMC14];
    EXPECT_EQ(ITA_FGET(pmc14, PMC14, FINE), 1u);
    EXPECT_EQ(ITA_FGET(pmc14, PMC14, IBRP0), 0u);
    EXPECT_EQ(ITA_FGET(pmc14, PMC14, IBRP2), 0u);
    EXPECT_EQ(ITA_FGET(pmc14, PMC14, IBRP1), 1u);
    // Range B: pairs 1 and 3; a whole page is one range too.
    cfg = must_parse("irange 0x4000000000001000..0x4000000000002000 fine pair=1\n");
    EXPECT_EQ(cfg.value[ITA_VIS_IBR2], UINT64_C(0x4000000000001000));
    EXPECT_EQ(cfg.value[ITA_VIS_IBR6], UINT64_C(0x4000000000001ff0));
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC14], PMC14, IBRP3), 0u);
    EXPECT_EQ(cfg.line[ITA_VIS_PMC8], 0u);
    // Two fine ranges.
    cfg = must_parse("irange 0x1000..0x1100 fine pair=0\nirange 0x3000..0x3010 fine pair=1\n");
    EXPECT_EQ(cfg.value[ITA_VIS_IBR6], UINT64_C(0x3000));
}

TEST(ConfigIrange, ExplicitConstraintRegistersWin)
{
    // PMC14 given: its value stands (here pair 0 stays unconstrained), whatever the order.
    ita_config cfg = must_parse("irange 0x1000..0x2000 pair=0\nPMC14 ibrp1=0\n");
    EXPECT_FALSE(cfg.derived[ITA_VIS_PMC14]);
    EXPECT_EQ(cfg.line[ITA_VIS_PMC14], 2u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC14], PMC14, IBRP0), 1u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC14], PMC14, IBRP1), 0u);
    // PMC8 given: kept, ig_ad included.
    cfg = must_parse("PMC8 ig_ad=1\nirange 0x1000..0x2000 pair=2\n");
    EXPECT_FALSE(cfg.derived[ITA_VIS_PMC8]);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC8], PMC_OPC, IG_AD), 1u);
    // Itanium PMC13 given.
    cfg = must_parse("PMC13 ta=1\nirange 0x1000..0x2000 pair=0\n", ITA_MODEL_ITANIUM);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC13], PMC13, TA), 1u);
    // A fine range with an explicit PMC14 that has fine=1.
    cfg = must_parse("PMC14 fine=1 ibrp0=0\nirange 0x1000..0x1100 fine pair=0\n");
    EXPECT_EQ(cfg.value[ITA_VIS_IBR4], UINT64_C(0x10f0));
}

// The registers an irange, drange or opcode line derives are the event library's
// encodings (include/sw/ita/ita_encode.h): the values below are what the library wrote for
// the same range or pattern before the encodings were shared (sw/ita/tests/
// lib_dispatch_test.cpp and lib_range_test.cpp, the test named in each comment).
TEST(ConfigShared, SameRegistersAsTheEventLibrary)
{
    // Dispatch.SinglePairCodeRange: a 2 KB block at 0x4000 on pair 0, plm 8.
    ita_config cfg = must_parse("irange 0x4000..0x4800 pair=0 plm=8\n");
    EXPECT_EQ(cfg.value[ITA_VIS_IBR0], UINT64_C(0x4000));
    EXPECT_EQ(cfg.value[ITA_VIS_IBR1], UINT64_C(0x08fffffffffff800));
    EXPECT_EQ(cfg.value[ITA_VIS_PMC14], UINT64_C(0x0db60db60db60db6) & ~UINT64_C(0x2));
    EXPECT_EQ(cfg.value[ITA_VIS_PMC8], UINT64_C(0xffffffff3ffffffc));  // ig_ad = inv = 0
    // Dispatch.DataRanges: 256 bytes at 0x10000 on DBR pair 0 (cfg 2), plm 8.
    cfg = must_parse("drange 0x10000..0x10100 pair=0 plm=8\n");
    EXPECT_EQ(cfg.value[ITA_VIS_DBR1], UINT64_C(0x08ffffffffffff00));
    EXPECT_EQ(cfg.value[ITA_VIS_PMC13], UINT64_C(0x00002078fefefef6));
    // Dispatch.OpcodeMatcher: br.cloop on B slots (ig_ad = 1 as the library writes it
    // without a code range), and on Itanium; pairs 1 and 3 tied to PMC9, 0 and 2 not.
    cfg = must_parse("opcode PMC8 match=0x2000140 mask=0x07ffe3f slots=b ig_ad=1\n");
    EXPECT_EQ(cfg.value[ITA_VIS_PMC8], UINT64_C(0x1400028103fff1fd));
    cfg = must_parse("opcode PMC8 match=0x2000140 mask=0x07ffe3f slots=b\n", ITA_MODEL_ITANIUM);
    EXPECT_EQ(cfg.value[ITA_VIS_PMC8], UINT64_C(0x1400028003fff1f8));
    cfg = must_parse("opcode PMC9 match=0 mask=0x7ffffff slots=mi tie=ibrp1,ibrp3\n"
                     "opcode PMC8 class=nop tie=none\n");
    EXPECT_EQ(cfg.value[ITA_VIS_PMC15], UINT64_C(0xfffffff5));
    // RangeLibpfm.FineMode: the bounds of a fine range (the last bundle inclusive).
    cfg = must_parse("irange 0x40001010..0x40001100 fine pair=0\n");
    EXPECT_EQ(cfg.value[ITA_VIS_IBR0], UINT64_C(0x40001010));
    EXPECT_EQ(cfg.value[ITA_VIS_IBR4], UINT64_C(0x400010f0));
}

// ---- drange -------------------------------------------------------------------------------

TEST(ConfigDrange, Itanium2ProgramsPairAndPmc13)
{
    ita_config cfg = must_parse("drange 0x6000000000000100..0x6000000000000200 pair=1\n");
    EXPECT_EQ(cfg.value[ITA_VIS_DBR2], UINT64_C(0x6000000000000100));
    EXPECT_EQ(cfg.value[ITA_VIS_DBR3], odd_reg(~UINT64_C(0xff), 0xf));  // r = w = 0
    EXPECT_EQ(cfg.dpair[1].line, 1u);
    EXPECT_TRUE(cfg.derived[ITA_VIS_PMC13]);
    const uint64_t pmc13 = cfg.value[ITA_VIS_PMC13];
    EXPECT_EQ(ITA_FGET(pmc13, PMC13, CFG_DBRP1), 2u);  // DBR only
    EXPECT_EQ(ITA_FGET(pmc13, PMC13, ENA_DBRP1), 1u);
    const uint64_t pair1 = ITA_FMASK(PMC13, CFG_DBRP1) | ITA_FMASK(PMC13, ENA_DBRP1);
    EXPECT_EQ(pmc13 & ~pair1, reset_of(ITA_VIS_PMC13, ITA_MODEL_ITANIUM2) & ~pair1);
    EXPECT_EQ(cfg.line[ITA_VIS_PMC14], 0u);
    EXPECT_EQ(cfg.line[ITA_VIS_PMC11], 0u);

    cfg = must_parse("drange 0x6000000000000100..0x6000000000000101 pair=0 cfg=0 plm=1\n");
    EXPECT_EQ(cfg.value[ITA_VIS_DBR1], odd_reg(kMask56, 1));  // one byte: every bit compared
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC13], PMC13, CFG_DBRP0), 0u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC13], PMC13, ENA_DBRP0), 1u);
    cfg = must_parse("drange addr=0x6000000000000104 mask=0xff00000000000ff4 pair=3 cfg=1\n");
    EXPECT_EQ(cfg.value[ITA_VIS_DBR6], UINT64_C(0x6000000000000104));
    EXPECT_EQ(cfg.value[ITA_VIS_DBR7], odd_reg(UINT64_C(0xff4), 0xf));
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC13], PMC13, CFG_DBRP3), 1u);
}

TEST(ConfigDrange, ItaniumClearsPassTags)
{
    ita_config cfg = must_parse("drange 0x6000000000000000..0x6000000000001000 pair=0\n", ITA_MODEL_ITANIUM);
    EXPECT_EQ(cfg.value[ITA_VIS_DBR1], odd_reg(~UINT64_C(0xfff), 0xf));
    EXPECT_TRUE(cfg.derived[ITA_VIS_PMC11]);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC11], PMC11, PT), 0u);
    EXPECT_EQ(cfg.line[ITA_VIS_PMC13], 0u);
    // PMC11 given: kept.
    cfg = must_parse("PMC11 pt=1\ndrange 0x0..0x1000 pair=0\n", ITA_MODEL_ITANIUM);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC11], PMC11, PT), 1u);
}

// ---- opcode --------------------------------------------------------------------------------

TEST(ConfigOpcode, ClassSetsMatchMaskAndSlots)
{
    ita_config cfg = must_parse("PSR up=1\nopcode PMC8 class=br.ret\n");
    const ita_opcode_class *ret = nullptr;
    for (unsigned i = 0; i < ita_opcode_nclasses; i++)
        if (std::string(ita_opcode_classes[i].name) == "br.ret") ret = &ita_opcode_classes[i];
    ASSERT_NE(ret, nullptr);
    const uint64_t pmc8 = cfg.value[ITA_VIS_PMC8];
    EXPECT_EQ(cfg.line[ITA_VIS_PMC8], 2u);
    EXPECT_EQ(cfg.opcode_line[0], 2u);
    EXPECT_FALSE(cfg.derived[ITA_VIS_PMC8]);
    EXPECT_EQ(ITA_FGET(pmc8, PMC_OPC, MATCH), ita_opcode_bits(ret->enc));
    EXPECT_EQ(ITA_FGET(pmc8, PMC_OPC, MASK), ~static_cast<uint64_t>(ita_opcode_bits(ret->care)) & 0x7ffffff);
    EXPECT_EQ(ITA_FGET(pmc8, PMC_OPC, B), 1u);
    EXPECT_EQ(ITA_FGET(pmc8, PMC_OPC, M) + ITA_FGET(pmc8, PMC_OPC, I) + ITA_FGET(pmc8, PMC_OPC, F), 0u);
    EXPECT_EQ(ITA_FGET(pmc8, PMC_OPC, IG_AD), 0u);
    EXPECT_EQ(ITA_FGET(pmc8, PMC_OPC, INV), 0u);
    EXPECT_EQ(cfg.line[ITA_VIS_PMC15], 0u);  // PMC15 keeps its reset value: every pair tied
    // slots= narrows a class.
    cfg = must_parse("opcode PMC9 class=nop slots=m\n");
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC9], PMC_OPC, M), 1u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC9], PMC_OPC, I), 0u);
}

TEST(ConfigOpcode, MatchMaskForm)
{
    // libpfm's br.cloop example: opcode 4 in field bits 26:23, btype 5 in 8:6.
    ita_config cfg = must_parse("opcode PMC8 match=0x2000140 mask=0x7ffe3f slots=b inv=1 ig_ad=0\n");
    const uint64_t pmc8 = cfg.value[ITA_VIS_PMC8];
    EXPECT_EQ(ITA_FGET(pmc8, PMC_OPC, MATCH), 0x2000140u);
    EXPECT_EQ(ITA_FGET(pmc8, PMC_OPC, MASK), 0x7ffe3fu);
    EXPECT_EQ(ITA_FGET(pmc8, PMC_OPC, INV), 1u);
    EXPECT_EQ(pmc8 >> 60, 0x1u);  // b only
    // Itanium: no ig_ad/inv; slot enables and fields as on Itanium 2.
    cfg = must_parse("opcode PMC9 match=0x2000 mask=0 slots=MIF\n", ITA_MODEL_ITANIUM);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC9], PMC_OPC, MATCH), 0x2000u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC9], PMC_OPC, B), 0u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC9], PMC_OPC, F), 1u);
}

TEST(ConfigOpcode, TiesProgramPmc15)
{
    ita_config cfg = must_parse("opcode PMC8 class=br.ret tie=ibrp2\n");
    EXPECT_TRUE(cfg.derived[ITA_VIS_PMC15]);
    uint64_t pmc15 = cfg.value[ITA_VIS_PMC15];
    EXPECT_EQ(ITA_FGET(pmc15, PMC15, IBRP0_PMC8), 1u);
    EXPECT_EQ(ITA_FGET(pmc15, PMC15, IBRP2_PMC8), 0u);
    // PMC9's pairs keep their reset value.
    EXPECT_EQ(ITA_FGET(pmc15, PMC15, IBRP1_PMC9), ITA_FGET(reset_of(ITA_VIS_PMC15, ITA_MODEL_ITANIUM2), PMC15, IBRP1_PMC9));
    cfg = must_parse("opcode PMC8 class=br.ret tie=none\nopcode PMC9 class=nop tie=ibrp1,ibrp3\n");
    pmc15 = cfg.value[ITA_VIS_PMC15];
    EXPECT_EQ(ITA_FGET(pmc15, PMC15, IBRP0_PMC8), 1u);
    EXPECT_EQ(ITA_FGET(pmc15, PMC15, IBRP2_PMC8), 1u);
    EXPECT_EQ(ITA_FGET(pmc15, PMC15, IBRP1_PMC9), 0u);
    EXPECT_EQ(ITA_FGET(pmc15, PMC15, IBRP3_PMC9), 0u);
    EXPECT_EQ(cfg.line[ITA_VIS_PMC15], 1u);
}

// ---- the constraint registers by name -----------------------------------------------------

TEST(ConfigConstraintRegisters, FieldForms)
{
    ita_config cfg = must_parse(
        "PMC14 ibrp0=0 fine=1\n"
        "PMC13 cfg_dbrp1=0 ena_dbrp1=1\n"
        "PMC15 ibrp0_pmc8=0 ibrp1_pmc9=1\n"
        "PMC9 match=0x123 mask=0 m=0\n"
        "IBR0 addr=0x4000000000001000\n"
        "IBR1 mask=0xfffffffffff000 plm=8\n"
        "DBR5 = 0x08ffffffffffff00\n");
    EXPECT_EQ(cfg.value[ITA_VIS_PMC14],
              ITA_FSET(ITA_FSET(reset_of(ITA_VIS_PMC14, ITA_MODEL_ITANIUM2), PMC14, IBRP0, 0), PMC14, FINE, 1));
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC13], PMC13, CFG_DBRP1), 0u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC13], PMC13, ENA_DBRP1), 1u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC15], PMC15, IBRP1_PMC9), 1u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC9], PMC_OPC, MATCH), 0x123u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC9], PMC_OPC, M), 0u);
    EXPECT_EQ(cfg.value[ITA_VIS_IBR0], UINT64_C(0x4000000000001000));
    EXPECT_EQ(cfg.value[ITA_VIS_IBR1], odd_reg(~UINT64_C(0xfff), 8));
    EXPECT_EQ(cfg.value[ITA_VIS_DBR5], UINT64_C(0x08ffffffffffff00));
    EXPECT_FALSE(cfg.derived[ITA_VIS_IBR0]);
    // Itanium's own: ta and pt.
    cfg = must_parse("PMC13 ta=0\nPMC11 pt=0\n", ITA_MODEL_ITANIUM);
    EXPECT_EQ(cfg.value[ITA_VIS_PMC13], reset_of(ITA_VIS_PMC13, ITA_MODEL_ITANIUM) & ~ITA_FMASK(PMC13, TA));
    EXPECT_EQ(cfg.value[ITA_VIS_PMC11], 0u);
}

TEST(ConfigConstraintRegisters, ApplyWritesEveryDerivedRegister)
{
    ita_config cfg = must_parse(
        "irange 0x4000000000001000..0x4000000000002000 pair=0\n"
        "drange 0x6000000000000000..0x6000000000000040 pair=2\n"
        "opcode PMC9 class=nop tie=ibrp1\n"
        "PMC4 event=IA64_INST_RETIRED\n");
    pmu_backend *b = ita_ref_create(nullptr);
    ASSERT_NE(b, nullptr);
    ita_config_apply(&cfg, b);
    uint64_t vis[ITA_NVIS];
    ita_config_values(&cfg, vis);
    for (unsigned v = 0; v < ITA_NVIS; v++) {
        if (v >= ITA_VIS_PMD4 && v <= ITA_VIS_PMD7) continue;
        EXPECT_EQ(pmu_read(b, ita_vis_table[v].addr), vis[v]) << ita_vis_table[v].name;
    }
    EXPECT_EQ(pmu_read(b, ita_vis_table[ITA_VIS_IBR0].addr), UINT64_C(0x4000000000001000));
    EXPECT_EQ(ITA_FGET(pmu_read(b, ita_vis_table[ITA_VIS_PMC14].addr), PMC14, IBRP0), 0u);
    EXPECT_EQ(ITA_FGET(pmu_read(b, ita_vis_table[ITA_VIS_PMC13].addr), PMC13, ENA_DBRP2), 1u);
    EXPECT_EQ(ITA_FGET(pmu_read(b, ita_vis_table[ITA_VIS_PMC15].addr), PMC15, IBRP1_PMC9), 0u);
    pmu_destroy(b);
}

// ---- descriptions ---------------------------------------------------------------------------

TEST(ConfigDescribe, TagsOfEachCounter)
{
    ita_config cfg = must_parse(
        "PMC4 event=CPU_CYCLES\n"
        "PMC5 event=IA64_INST_RETIRED\n"
        "PMC6 event=IA64_TAGGED_INST_RETIRED_IBRP1_PMC9\n"
        "PMC7 event=L1D_READ_MISSES_ALL\n"
        "irange 0x4000000000001000..0x4000000000002000 pair=1\n"
        "opcode PMC9 class=nop\n"
        "drange 0x6000000000000000..0x6000000000000100 pair=3\n");
    EXPECT_EQ(tags(cfg, 0), "");  // cycles: no instruction to tag
    EXPECT_EQ(tags(cfg, 1), "");  // pair 0: unconstrained, PMC8 matches everything
    EXPECT_EQ(tags(cfg, 2), "irange[1]=0x4000000000001000..0x4000000000002000 opcode=PMC9(nop)");
    EXPECT_EQ(tags(cfg, 3), "mem:drange[3]=0x6000000000000000..0x6000000000000100");

    // PMC15 untied: pair 1 no longer needs PMC9.  cfg=0 memory: pair 3's tag and its DBR.
    cfg = must_parse(
        "PMC6 event=IA64_TAGGED_INST_RETIRED_IBRP1_PMC9\n"
        "PMC7 event=LOADS_RETIRED\n"
        "irange 0x4000000000001000..0x4000000000002000 pair=1\n"
        "irange 0x4000000000000000..0x4000000000000010 pair=3\n"
        "opcode PMC9 class=nop tie=ibrp3\n"
        "drange 0x6000000000000000..0x6000000000000100 pair=3 cfg=0\n");
    EXPECT_EQ(tags(cfg, 2), "irange[1]=0x4000000000001000..0x4000000000002000");
    EXPECT_EQ(tags(cfg, 3), "mem:irange[3]=0x4000000000000000..0x4000000000000010&opcode=PMC9(nop)"
                            "&drange[3]=0x6000000000000000..0x6000000000000100");
}

TEST(ConfigDescribe, FineInvertedAndItanium)
{
    ita_config cfg = must_parse(
        "PMC5 event=IA64_INST_RETIRED\n"
        "PMC6 event=IA64_TAGGED_INST_RETIRED_IBRP2_PMC8\n"
        "irange 0x4000000000001230..0x4000000000001560 fine pair=0\n"
        "opcode PMC8 match=0x2000140 mask=0x7ffe3f slots=b inv=1\n");
    EXPECT_EQ(tags(cfg, 1), "!irange[0]=fine:0x4000000000001230..0x4000000000001560 opcode=PMC8");
    EXPECT_EQ(tags(cfg, 2), "!irange[0]=fine:0x4000000000001230..0x4000000000001560 opcode=PMC8");
    // Itanium: every pair's tag is the OR of all programmed pairs; the modelled events
    // use PMC8 (their umask 0 is even), so PMC9 constrains none of them.
    cfg = must_parse(
        "PMC4 event=NOPS_RETIRED\n"
        "PMC5 event=IA64_INST_RETIRED\n"
        "PMC6 event=L2_MISSES\n"
        "irange 0x1000..0x2000 pair=0\n"
        "irange 0x8000..0x8010 pair=3\n"
        "opcode PMC9 class=br.ret\n"
        "drange 0x6000..0x6040 pair=1\n",
        ITA_MODEL_ITANIUM);
    EXPECT_EQ(tags(cfg, 0), "irange[0]=0x1000..0x2000|irange[3]=0x8000..0x8010");
    EXPECT_EQ(tags(cfg, 1), "irange[0]=0x1000..0x2000|irange[3]=0x8000..0x8010");
    EXPECT_EQ(tags(cfg, 2), "irange[0]=0x1000..0x2000|irange[3]=0x8000..0x8010 drange[1]=0x6000..0x6040");
    cfg = must_parse("PMC5 event=IA64_INST_RETIRED\nopcode PMC8 class=br.ret\nopcode PMC9 class=nop\n",
                     ITA_MODEL_ITANIUM);
    EXPECT_EQ(tags(cfg, 1), "opcode=PMC8(br.ret)");
    // Itanium with ta=0 but no pair programmed: nothing matches.
    cfg = must_parse("PMC4 event=NOPS_RETIRED\nPMC13 ta=0\n", ITA_MODEL_ITANIUM);
    EXPECT_EQ(tags(cfg, 0), "irange=none");
}

TEST(ConfigDescribe, SetupLines)
{
    ita_config cfg = must_parse(
        "irange 0x4000000000001000..0x4000000000002000 pair=1 plm=8\n"
        "drange addr=0x6000000000000104 mask=0xff00000000000ff4 pair=3 cfg=1\n"
        "opcode PMC9 class=nop tie=ibrp1\n");
    EXPECT_EQ(setup(cfg),
              "irange[1] 0x4000000000001000..0x4000000000002000 plm=user (IBR2, IBR3)\n"
              "drange[3] addr=0x6000000000000104,mask=0xff4 plm=0,1,2,3 (DBR6, DBR7; PMC13 cfg_dbrp3=1 ena_dbrp3=1)\n"
              "opcode PMC9 nop: match=0x2000 mask=0x0 slots=mif tie=ibrp1\n");
    cfg = must_parse("irange 0x4000000000001230..0x4000000000001560 fine pair=1 plm=1\n");
    EXPECT_EQ(setup(cfg),
              "irange[1] fine:0x4000000000001230..0x4000000000001560 plm=kernel (IBR2, IBR3; upper bound IBR6, IBR7)\n");
    EXPECT_EQ(setup(must_parse("PMC4 event=CPU_CYCLES\n")), "");
}

// ---- errors -----------------------------------------------------------------------------------

TEST(ConfigQualErrors, RangeSyntax)
{
    std::string e = must_fail("PMC4 = 0\nirange = 0x1000..0x2000 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:2: irange: expected no '=' after irange (e.g. 'irange 0x1000..0x2000 pair=0')")) << e;
    e = must_fail("irange pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: irange: expected a range START..END or addr=A mask=M")) << e;
    e = must_fail("irange 0x1000..0x2000\n");
    EXPECT_TRUE(has(e, "test.cfg:1: pair: expected pair=0..3 (the IBR pair to program)")) << e;
    e = must_fail("drange 0x1000..0x2000\n");
    EXPECT_TRUE(has(e, "test.cfg:1: pair: expected pair=0..3 (the DBR pair to program)")) << e;
    e = must_fail("irange 0x1000..0x2000 pair=4\n");
    EXPECT_TRUE(has(e, "test.cfg:1: pair: expected 0..3, found 4")) << e;
    e = must_fail("irange 0x1000..0x20g0 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: range: expected START..END, two addresses (decimal or 0x hex), found '0x1000..0x20g0'")) << e;
    e = must_fail("irange 0x1000 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: irange: expected START..END, fine or name=value, found '0x1000'")) << e;
    e = must_fail("irange 0x1000..0x2000 pair=0 colour=1\n");
    EXPECT_TRUE(has(e, "test.cfg:1: colour: unknown field of irange; expected one of pair, plm, addr, mask, fine")) << e;
    e = must_fail("drange 0x1000..0x2000 pair=0 fine\n");
    EXPECT_TRUE(has(e, "test.cfg:1: drange: expected START..END or name=value, found 'fine' (fields: pair, plm, addr, mask, cfg)")) << e;
    e = must_fail("irange 0x1000..0x2000 pair=0 pair=1\n");
    EXPECT_TRUE(has(e, "test.cfg:1: pair: given twice on this line")) << e;
    e = must_fail("irange 0x1000..0x2000 0x3000..0x4000 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: range: given twice on this line")) << e;
    e = must_fail("irange 0x1000..0x2000 pair=0 plm=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: plm: expected 1..15 (bit k: the pair matches at cpl k), found 0")) << e;
    e = must_fail("irange 0x1000..0x2000 addr=0x1000 mask=0 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: addr: expected either START..END or addr=/mask=, not both")) << e;
    e = must_fail("irange addr=0x1000 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: mask: expected mask=M with addr=")) << e;
    e = must_fail("irange mask=0x1000 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: addr: expected addr=A with mask=")) << e;
    e = must_fail("irange 0x1000..0x2000 pair=\n");
    EXPECT_TRUE(has(e, "test.cfg:1: pair: expected a value after '='")) << e;
}

TEST(ConfigQualErrors, CodeRangeAlignmentAndBlocks)
{
    std::string e = must_fail("irange 0x1008..0x2000 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: range: expected both ends 16-byte aligned (code ranges are whole bundles), found 0x1008..0x2000")) << e;
    e = must_fail("\nirange 0x1000..0x1ff8 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:2: range: expected both ends 16-byte aligned")) << e;
    e = must_fail("irange addr=0x1004 mask=0xff pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: addr: expected a 16-byte aligned address (code ranges are whole bundles), found 0x1004")) << e;
    e = must_fail("irange 0x2000..0x1000 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: range: expected START < END (END is excluded), found 0x2000..0x1000")) << e;
    // Not a power-of-two block: the blocks it would need, and the covering block.
    e = must_fail("irange 0x1000..0x3000 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: range: expected an aligned power-of-two block (a pair covers one): "
                       "0x1000..0x3000 needs 2 blocks (0x1000..0x2000, 0x2000..0x3000; one pair each) "
                       "or the covering block 0x0..0x4000")) << e;
    // Power of two but not aligned to its size; a range inside one page mentions fine.
    e = must_fail("irange 0x4000000000001800..0x4000000000002800 pair=0\n");
    EXPECT_TRUE(has(e, "0x4000000000001800..0x4000000000002800 needs 2 blocks (0x4000000000001800..0x4000000000002000, "
                       "0x4000000000002000..0x4000000000002800; one pair each) or the covering block "
                       "0x4000000000000000..0x4000000000004000")) << e;
    e = must_fail("irange 0x4000000000001230..0x4000000000001560 pair=0\n");
    EXPECT_TRUE(has(e, "needs 7 blocks (0x4000000000001230..0x4000000000001240, 0x4000000000001240..0x4000000000001280, "
                       "0x4000000000001280..0x4000000000001300, 0x4000000000001300..0x4000000000001400, ...; one pair each)")) << e;
    EXPECT_TRUE(has(e, "; within one 4 KB page, 'fine' takes any bundle range")) << e;
    // Data ranges: byte granularity, same block rule, no fine hint.
    e = must_fail("drange 0x6001..0x6004 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: range: expected an aligned power-of-two block (a pair covers one): 0x6001..0x6004 "
                       "needs 2 blocks (0x6001..0x6002, 0x6002..0x6004; one pair each) or the covering block 0x6000..0x6004")) << e;
    EXPECT_FALSE(has(e, "fine")) << e;
    e = must_fail("drange 0x0..0x200000000000000 pair=0\n");  // 2^57
    EXPECT_TRUE(has(e, "test.cfg:1: range: expected at most 2^56 bytes (address bits 63:56 are always compared)")) << e;
    e = must_fail("irange addr=0x1000 mask=0x0ffffffffffff000 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: mask: expected bits 63:56 all set or all clear")) << e;
}

TEST(ConfigQualErrors, FineRanges)
{
    std::string e = must_fail("irange 0x4000000000000ff0..0x4000000000001010 fine pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: range: expected a fine range within one 4 KB page, found "
                       "0x4000000000000ff0..0x4000000000001010 (it crosses 0x4000000000001000)")) << e;
    e = must_fail("irange 0x1000..0x1100 fine pair=2\n");
    EXPECT_TRUE(has(e, "test.cfg:1: pair: expected 0 or 1 for a fine range (pairs 2 and 3 hold the upper bounds of pairs 0 and 1), found 2")) << e;
    e = must_fail("irange 0x1000..0x1100 fine pair=0\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: fine: expected no fine on Itanium: fine mode (PMC14.fine) is an Itanium 2 feature")) << e;
    e = must_fail("irange addr=0x1000 mask=0xff0 fine pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: fine: expected START..END with fine: fine mode compares bounds, the masks are not used")) << e;
    e = must_fail("irange 0x1000..0x1100 fine fine pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: fine: given twice on this line")) << e;
    // Fine mode is one bit for all pairs.
    e = must_fail("irange 0x1000..0x1100 fine pair=0\nirange 0x8000..0x9000 pair=1\n");
    EXPECT_TRUE(has(e, "test.cfg:2: fine: expected every irange fine or none (PMC14.fine switches all pairs); "
                       "the irange on line 1 is fine")) << e;
    e = must_fail("irange 0x8000..0x9000 pair=1\nirange 0x1000..0x1100 fine pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:2: fine: expected every irange fine or none")) << e;
    EXPECT_TRUE(has(e, "the irange on line 1 is not fine")) << e;
    // An explicit PMC14 must agree.
    e = must_fail("irange 0x1000..0x1100 fine pair=0\nPMC14 ibrp0=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: fine: expected PMC14 fine=1 for a fine range: PMC14 on line 2 has fine=0")) << e;
    e = must_fail("PMC14 fine=1\n\nirange 0x1000..0x2000 pair=1\n");
    EXPECT_TRUE(has(e, "test.cfg:3: fine: expected PMC14 fine=0 for a mask range: PMC14 on line 1 has fine=1")) << e;
}

TEST(ConfigQualErrors, PairUsedTwice)
{
    std::string e = must_fail("irange 0x1000..0x2000 pair=0\nirange 0x2000..0x3000 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:2: pair: IBR pair 0 is already programmed by the irange on line 1")) << e;
    e = must_fail("irange 0x1000..0x1100 fine pair=0\nirange 0x2000..0x2100 fine pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:2: pair: IBR pair 0 is already programmed by the irange on line 1")) << e;
    // The upper bound of a fine range takes pair k + 2.
    e = must_fail("irange 0x1000..0x1100 fine pair=1\nirange 0x2000..0x2100 fine pair=3\n");
    EXPECT_TRUE(has(e, "test.cfg:2: pair: expected 0 or 1 for a fine range")) << e;
    e = must_fail("irange 0x1000..0x1100 fine pair=1\nPMC4 = 0\nirange 0x2000..0x2100 fine pair=1\n");
    EXPECT_TRUE(has(e, "test.cfg:3: pair: IBR pair 1 is already programmed by the irange on line 1")) << e;
    // Data pairs are separate from code pairs.
    must_parse("irange 0x1000..0x2000 pair=0\ndrange 0x1000..0x2000 pair=0\n");
    e = must_fail("drange 0x1000..0x2000 pair=2\n# x\ndrange 0x0..0x8 pair=2\n");
    EXPECT_TRUE(has(e, "test.cfg:3: pair: DBR pair 2 is already programmed by the drange on line 1")) << e;
    // A range line and the pair's registers.
    e = must_fail("IBR1 mask=0xfff plm=1\nirange 0x1000..0x2000 pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:2: pair: IBR pair 0 is already programmed by the IBR1 line 1; give either the irange or the IBR lines")) << e;
    e = must_fail("irange 0x1000..0x2000 pair=3\nIBR6 = 0x5000\n");
    EXPECT_TRUE(has(e, "test.cfg:2: IBR6: IBR pair 3 is already programmed by the irange on line 1; give either the irange or the IBR lines")) << e;
    e = must_fail("irange 0x1000..0x1100 fine pair=0\nIBR5 = 0\n");
    EXPECT_TRUE(has(e, "test.cfg:2: IBR5: IBR pair 2 is already programmed by the irange on line 1")) << e;
    e = must_fail("IBR4 = 0x5000\nirange 0x1000..0x1100 fine pair=0\n");
    EXPECT_TRUE(has(e, "test.cfg:2: pair: IBR pair 2 (the upper bound of this fine range) is already programmed by the IBR4 line 1")) << e;
    e = must_fail("drange 0x1000..0x2000 pair=1\nDBR2 addr=0\n");
    EXPECT_TRUE(has(e, "test.cfg:2: DBR2: DBR pair 1 is already programmed by the drange on line 1")) << e;
}

TEST(ConfigQualErrors, DrangeCfg)
{
    std::string e = must_fail("drange 0x1000..0x2000 pair=0 cfg=1\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: cfg: expected no cfg on Itanium: PMC13 has no per-pair memory qualification there")) << e;
    e = must_fail("drange 0x1000..0x2000 pair=0 cfg=3\n");
    EXPECT_TRUE(has(e, "test.cfg:1: cfg: expected 0 (IBR, opcode and DBR), 1 (IBR and opcode) or 2 (DBR only), found 3")) << e;
    e = must_fail("PMC13 ena_dbrp0=1\ndrange 0x1000..0x2000 pair=0 cfg=0\n");
    EXPECT_TRUE(has(e, "test.cfg:2: cfg: expected no cfg: PMC13 is given on line 1 (set cfg_dbrp0 there or drop the PMC13 line)")) << e;
    // Without cfg= an explicit PMC13 simply stands.
    ita_config cfg = must_parse("PMC13 ena_dbrp0=1 cfg_dbrp0=0\ndrange 0x1000..0x2000 pair=0\n");
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC13], PMC13, CFG_DBRP0), 0u);
}

TEST(ConfigQualErrors, Opcode)
{
    std::string e = must_fail("opcode class=nop\n");
    EXPECT_TRUE(has(e, "test.cfg:1: opcode: expected PMC8 or PMC9 after 'opcode', found 'class=nop'")) << e;
    e = must_fail("opcode\n");
    EXPECT_TRUE(has(e, "test.cfg:1: opcode: expected PMC8 or PMC9 after 'opcode', found ''")) << e;
    e = must_fail("opcode PMC8\n");
    EXPECT_TRUE(has(e, "test.cfg:1: opcode: expected class=NAME or match=M mask=M")) << e;
    e = must_fail("opcode PMC8 class=br.clop\n");
    EXPECT_TRUE(has(e, "test.cfg:1: class: unknown class 'br.clop'; expected one of nop, nop.b, ld, st,")) << e;
    e = must_fail("opcode PMC8 class=nop match=1 mask=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: class: sets match and mask itself; give either class= or match=/mask=")) << e;
    e = must_fail("opcode PMC8 match=0x100\n");
    EXPECT_TRUE(has(e, "test.cfg:1: mask: expected mask=M with match= (27 bits, 1 = don't care)")) << e;
    e = must_fail("opcode PMC8 mask=0x100\n");
    EXPECT_TRUE(has(e, "test.cfg:1: match: expected match=M with mask=")) << e;
    e = must_fail("opcode PMC8 match=0x8000000 mask=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: match: expected 0..0x7ffffff (27 bits over instruction bits {40:27,12:0}), found 0x8000000")) << e;
    e = must_fail("opcode PMC8 match=1 mask=zz\n");
    EXPECT_TRUE(has(e, "test.cfg:1: mask: expected a decimal number or 0x hex, found 'zz'")) << e;
    e = must_fail("opcode PMC8 class=nop slots=mx\n");
    EXPECT_TRUE(has(e, "test.cfg:1: slots: expected the units to match in, letters from m, i, f, b (e.g. slots=b or slots=mi), found 'mx'")) << e;
    e = must_fail("opcode PMC8 class=nop slots=mm\n");
    EXPECT_TRUE(has(e, "test.cfg:1: slots: expected the units to match in")) << e;
    e = must_fail("opcode PMC9 class=nop inv=1\n");
    EXPECT_TRUE(has(e, "test.cfg:1: inv: expected inv only on PMC8: PMC9's ig_ad and inv have no effect")) << e;
    e = must_fail("opcode PMC8 class=nop ig_ad=2\n");
    EXPECT_TRUE(has(e, "test.cfg:1: ig_ad: expected 0 or 1, found '2'")) << e;
    e = must_fail("opcode PMC8 class=nop inv=1\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: inv: expected no inv on Itanium: PMC8 has no ig_ad or inv there")) << e;
    e = must_fail("opcode PMC8 class=nop tie=ibrp0\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: tie: expected no tie on Itanium: PMC15 is an Itanium 2 register")) << e;
    e = must_fail("opcode PMC8 class=nop tie=ibrp0,ibrp1\n");
    EXPECT_TRUE(has(e, "test.cfg:1: tie: expected none or ibrp0 and/or ibrp2 for PMC8 (pairs 1 and 3 go with PMC9), found 'ibrp1'")) << e;
    e = must_fail("opcode PMC9 class=nop tie=ibrp2\n");
    EXPECT_TRUE(has(e, "test.cfg:1: tie: expected none or ibrp1 and/or ibrp3 for PMC9 (pairs 0 and 2 go with PMC8), found 'ibrp2'")) << e;
    e = must_fail("opcode PMC9 class=nop tie=ibrp1,\n");
    EXPECT_TRUE(has(e, "found ''")) << e;
    e = must_fail("opcode PMC8 class=nop tie=ibrp0,ibrp0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: tie: ibrp0 given twice")) << e;
    e = must_fail("opcode PMC8 class=nop colour=2\n");
    EXPECT_TRUE(has(e, "test.cfg:1: colour: unknown field of opcode; expected one of class, match, mask, slots, inv, ig_ad, tie")) << e;
    e = must_fail("opcode PMC8 class=nop br.ret\n");
    EXPECT_TRUE(has(e, "test.cfg:1: opcode: expected name=value, found 'br.ret'")) << e;
    // One line per matcher, whether opcode or register.
    e = must_fail("opcode PMC8 class=nop\nPMC8 = 0xffffffff3ffffffc\n");
    EXPECT_TRUE(has(e, "test.cfg:2: PMC8: duplicate register line (first at line 1, an opcode line)")) << e;
    e = must_fail("PMC9 m=0\nopcode PMC9 class=nop\n");
    EXPECT_TRUE(has(e, "test.cfg:2: PMC9: duplicate register line (first at line 1)")) << e;
    // tie= and a PMC15 line.
    e = must_fail("PMC15 ibrp0_pmc8=1\nopcode PMC8 class=nop tie=ibrp2\n");
    EXPECT_TRUE(has(e, "test.cfg:2: tie: expected no tie: PMC15 is given on line 1 (set its ibrp fields there or drop the PMC15 line)")) << e;
    e = must_fail("opcode PMC8 class=nop tie=ibrp2\nPMC15 = 0xfffffff0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: tie: expected no tie: PMC15 is given on line 2")) << e;
}

TEST(ConfigQualErrors, RegistersAndFieldsTheModelLacks)
{
    std::string e = must_fail("PMC14 ibrp0=0\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: PMC14: expected a register that Itanium implements: PMC14 reads 0 and ignores writes there")) << e;
    e = must_fail("# no PMC15\nPMC15 = 0\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:2: PMC15: expected a register that Itanium implements")) << e;
    e = must_fail("PMC13 cfg_dbrp1=0\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: cfg_dbrp1: expected a field that Itanium implements: PMC13.cfg_dbrp1 has no writable bits there")) << e;
    e = must_fail("PMC13 ta=1\n");
    EXPECT_TRUE(has(e, "test.cfg:1: ta: expected a field that Itanium 2 implements")) << e;
    e = must_fail("PMC11 pt=0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: pt: expected a field that Itanium 2 implements")) << e;
    e = must_fail("PMC8 ig_ad=0\n", ITA_MODEL_ITANIUM);
    EXPECT_TRUE(has(e, "test.cfg:1: ig_ad: expected a field that Itanium implements")) << e;
    e = must_fail("PMC14 colour=1\n");
    EXPECT_TRUE(has(e, "test.cfg:1: colour: unknown field of PMC14; expected one of ibrp0, ibrp1, ibrp2, ibrp3, fine")) << e;
}

TEST(ConfigQualErrors, ReservedBits)
{
    // IBR odd registers: bits 62:60 are not writable.
    std::string e = must_fail("IBR1 = 0x1000000000000000\n");
    EXPECT_TRUE(has(e, "test.cfg:1: IBR1: expected no bits outside the writable mask 0x8fffffffffffffff on Itanium 2")) << e;
    e = must_fail("DBR3 = 0x3000000000000000\n");
    EXPECT_TRUE(has(e, "reserved bits 0x3000000000000000")) << e;
    // PMC8 bit 2 reads 1 on Itanium 2: a raw 0 would clear it.
    e = must_fail("PMC8 = 0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: PMC8: expected no bits outside the writable mask 0xffffffff3ffffffb on Itanium 2")) << e;
    e = must_fail("PMC14 = 0\n");
    EXPECT_TRUE(has(e, "test.cfg:1: PMC14: expected no bits outside the writable mask 0x2492")) << e;
    must_parse("PMC14 = 0x0db60db60db60db4\n");  // ibrp0 = 0 on the reset value
    e = must_fail("PMC15 ibrp0_pmc8=2\n");
    EXPECT_TRUE(has(e, "test.cfg:1: ibrp0_pmc8: expected 0..1 (1 bits), found 2")) << e;
}

}  // namespace

namespace {

// Every named class is the generator's exact encoding of its instructions: with the
// exact encodings (any `hot`), each workload slot matches the classes its flags say and
// no other, and every class is seen.
TEST(ConfigOpcodeClasses, MatchTheGeneratorsEncodings)
{
    pmu_gen_hot hot{};  // no edges: only the exact encodings
    pmu_gen_opts o{};
    o.seed = 11;
    o.cycles = 400000;
    o.mode = PMU_GEN_WORKLOAD;
    o.nprocs = 4;
    o.hot = &hot;
    pmu_gen *g = pmu_gen_create(&ita_dialect, &o, nullptr);
    ASSERT_NE(g, nullptr);
    static const char units[] = "mifb";  // enum ita_unit order
    auto index = [](const char *name) {
        for (unsigned i = 0; i < ita_opcode_nclasses; i++)
            if (std::string(ita_opcode_classes[i].name) == name) return static_cast<int>(i);
        return -1;
    };
    const int nop = index("nop"), nop_b = index("nop.b"), ld = index("ld"), st = index("st");
    const int ldf = index("ldf"), stf = index("stf"), loadrs = index("loadrs"), fma = index("fma");
    const int br_cond = index("br.cond"), br = index("br"), cloop = index("br.cloop"), ctop = index("br.ctop");
    const int call = index("br.call"), icall = index("br.call.ind"), ret = index("br.ret"), rfi = index("rfi");
    const int rum = index("rum"), sum = index("sum"), alu = index("alu");
    for (int i : {nop, nop_b, ld, st, ldf, stf, loadrs, fma, br_cond, br, cloop, ctop, call, icall, ret, rfi, rum, sum, alu})
        ASSERT_GE(i, 0);
    std::vector<uint64_t> seen(ita_opcode_nclasses, 0);
    ita_cycle c;
    unsigned checked = 0;
    while (pmu_gen_next(g, &c) == 1) {
        if (c.is) continue;  // IA-32 slots have no encoding
        for (unsigned s = 0; s < c.nslots; s++) {
            const ita_slot &sl = c.slot[s];
            std::vector<bool> m(ita_opcode_nclasses);
            for (unsigned i = 0; i < ita_opcode_nclasses; i++) {
                const ita_opcode_class &k = ita_opcode_classes[i];
                m[i] = std::string(k.units).find(units[sl.unit]) != std::string::npos &&
                       (sl.enc & k.care) == k.enc;
                seen[i] += m[i];
            }
            const unsigned brtype = ITA_SLOT_GET(&sl, BR_TYPE);
            const bool nopf = ITA_SLOT_GET(&sl, NOP), load = ITA_SLOT_GET(&sl, LOAD), store = ITA_SLOT_GET(&sl, STORE);
            const bool rse = ITA_SLOT_GET(&sl, RSE), fp = ITA_SLOT_GET(&sl, FP);
            char where[96];
            std::snprintf(where, sizeof where, "slot enc=0x%llx unit=%c flags=0x%x",
                          static_cast<unsigned long long>(sl.enc), units[sl.unit], sl.flags);
            const bool squashed = ITA_SLOT_GET(&sl, PRED_OFF);
            EXPECT_EQ(nopf, m[nop] || m[nop_b]) << where;
            if (nopf) {
                EXPECT_EQ(m[nop_b], sl.unit == ITA_UNIT_B) << where;
            }
            // A squashed load, store or FP operation retires without its flag.
            if (load) {
                EXPECT_TRUE(rse ? m[loadrs] : (m[ld] || m[ldf])) << where;
            }
            if (m[ld] || m[ldf] || m[loadrs]) {
                EXPECT_TRUE(load || squashed) << where;
            }
            if (store) {
                EXPECT_TRUE(m[st] || m[stf]) << where;
            }
            if (m[st] || m[stf]) {
                EXPECT_TRUE(store || squashed) << where;
            }
            if (fp) {
                EXPECT_TRUE(m[fma]) << where;
            }
            if (m[fma]) {
                EXPECT_TRUE(fp || squashed) << where;
            }
            if (brtype == 2) {
                EXPECT_TRUE(m[ret] || m[rfi]) << where;
            }
            if (brtype == 3) {
                EXPECT_TRUE(m[icall]) << where;
            }
            if (brtype == 1) {
                EXPECT_TRUE(m[br_cond] || m[cloop] || m[ctop] || m[call]) << where;
            }
            // One class per instruction, except br, which is br.cond on p0.
            unsigned n = 0;
            for (unsigned i = 0; i < ita_opcode_nclasses; i++) n += m[i];
            EXPECT_LE(n - (m[br] && m[br_cond]), 1u) << where;
            checked++;
        }
    }
    pmu_gen_destroy(g);
    EXPECT_GT(checked, 100000u);
    for (unsigned i = 0; i < ita_opcode_nclasses; i++)
        EXPECT_GT(seen[i], 0u) << "class " << ita_opcode_classes[i].name << " never seen";
    EXPECT_GT(seen[cloop], 100u);
}

}  // namespace

// ---- docs/ita-config-format.md: its examples, error tables and class table ------------------

namespace {

std::string read_doc()
{
    std::ifstream in(harness_test::repo_file("docs/ita-config-format.md"));
    std::stringstream doc;
    doc << in.rdbuf();
    return doc.str();
}

std::vector<std::string> lines_of(const std::string &text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) out.push_back(line);
    return out;
}

// The `...` spans of a table cell.
std::vector<std::string> code_spans(const std::string &cell)
{
    std::vector<std::string> spans;
    size_t at = 0;
    while ((at = cell.find('`', at)) != std::string::npos) {
        size_t end = cell.find('`', at + 1);
        if (end == std::string::npos) break;
        spans.push_back(cell.substr(at + 1, end - at - 1));
        at = end + 1;
    }
    return spans;
}

std::vector<std::string> cells(const std::string &row)
{
    std::vector<std::string> out;
    std::string cur;
    bool code = false;
    for (size_t i = 1; i < row.size(); i++) {
        char ch = row[i];
        if (ch == '`') code = !code;
        if (ch == '|' && !code && (i == 0 || row[i - 1] != '\\')) {
            out.push_back(cur);
            cur.clear();
        } else {
            cur += ch;
        }
    }
    return out;
}

TEST(ConfigDoc, ExamplesParse)
{
    const std::vector<std::string> doc = lines_of(read_doc());
    unsigned blocks = 0;
    for (size_t i = 0; i < doc.size(); i++) {
        if (doc[i] != "```") continue;
        std::string text;
        size_t j = i + 1;
        for (; j < doc.size() && doc[j].rfind("```", 0) != 0; j++) text += doc[j] + "\n";
        i = j;
        // Synopses, messages and run output are not configurations.
        if (has(text, "START") || has(text, "[") || has(text, "cfg:") || has(text, "configuration:")) continue;
        // The first block is a whole file; the others show lines on their own.
        ita_config cfg;
        if (blocks == 0) {
            EXPECT_EQ(parse_config(text, ITA_MODEL_ITANIUM2, &cfg), "") << text;
        }
        for (const std::string &line : lines_of(text))
            EXPECT_EQ(parse_config(line + "\n", ITA_MODEL_ITANIUM2, &cfg), "") << line;
        blocks++;
    }
    EXPECT_GE(blocks, 7u);
}

// Every error row whose example is one line in backticks (with "(Itanium)" for that
// model) gives the message the row shows; "..." ends a prefix.
TEST(ConfigDoc, ErrorTablesMatchTheParser)
{
    unsigned checked = 0;
    for (const std::string &row : lines_of(read_doc())) {
        if (row.rfind("| ", 0) != 0) continue;
        std::vector<std::string> c = cells(row);
        if (c.size() < 3) continue;
        std::vector<std::string> ex = code_spans(c[1]), msg = code_spans(c[2]);
        if (ex.size() != 1 || msg.empty() || msg[0].rfind("cfg:", 0) != 0) continue;
        std::string rest = c[1];
        rest.erase(rest.find('`'), ex[0].size() + 2);
        while (!rest.empty() && rest.back() == ' ') rest.pop_back();
        while (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
        if (ex[0].find("...") != std::string::npos || (!rest.empty() && rest != "(Itanium)")) continue;
        const ita_model m = rest.empty() ? ITA_MODEL_ITANIUM2 : ITA_MODEL_ITANIUM;
        const std::string text = ex[0] + "\n";
        ita_config cfg;
        pmu_err err;
        ASSERT_NE(ita_config_parse(text.data(), text.size(), "cfg", m, 1, &cfg, &err), 0) << row;
        EXPECT_EQ(err.code, PMU_E_INPUT) << row;  // every bad line is bad input
        std::string want = msg[0];
        const size_t dots = want.find("...");
        if (dots != std::string::npos) {
            EXPECT_EQ(std::string(err.msg).substr(0, dots), want.substr(0, dots)) << row;
        } else {
            EXPECT_EQ(std::string(err.msg), want) << row;
        }
        checked++;
    }
    EXPECT_GE(checked, 45u);
}

TEST(ConfigDoc, ClassTableIsTheParsersTable)
{
    const std::string doc = read_doc();
    for (unsigned i = 0; i < ita_opcode_nclasses; i++) {
        const ita_opcode_class &c = ita_opcode_classes[i];
        char row[256];
        std::snprintf(row, sizeof row, "| `%s` | %s | `0x%x` | `0x%x` | %s |", c.name, c.units,
                      ita_opcode_bits(c.enc), ~ita_opcode_bits(c.care) & 0x7ffffffu, c.desc);
        EXPECT_TRUE(has(doc, row)) << "not in docs/ita-config-format.md: " << row;
    }
}

}  // namespace

namespace {

// make sim's configurations: one counter is range- (Itanium 2, PMC6) or opcode-qualified
// (Itanium, PMC5); the EAR and BTB counters show their unit; the others stay unconstrained.
TEST(ConfigBuiltIn, ShowsQualification)
{
    ita_config cfg = must_parse(ita_config_default_text(ITA_MODEL_ITANIUM2));
    EXPECT_EQ(tags(cfg, 0), "");
    EXPECT_EQ(tags(cfg, 1), "btb=PMC12(tm=3,ptm=3,ppm=3,brt=0,plm=user,pm=0)");
    EXPECT_EQ(tags(cfg, 2), "irange[1]=fine:0x4000000000000000..0x4000000000000120");
    EXPECT_EQ(tags(cfg, 3), "dear=PMC11(cache,lat>=16,plm=kernel,pm=1)");
    EXPECT_EQ(cfg.ipair[1].fine, 1u);
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC6], PMC_GEN, ISM), 2u);  // IA-64 only
    // Itanium: PMC8 qualifies every instruction event, the EAR and BTB among them.
    cfg = must_parse(ita_config_default_text(ITA_MODEL_ITANIUM), ITA_MODEL_ITANIUM);
    EXPECT_EQ(tags(cfg, 0), "");
    EXPECT_EQ(tags(cfg, 1), "opcode=PMC8");
    EXPECT_EQ(tags(cfg, 2), "opcode=PMC8 btb=PMC12(tm=3,ptm=3,ppm=3,plm=user,pm=0)");
    EXPECT_EQ(tags(cfg, 3), "opcode=PMC8 dear=PMC11(cache,lat>=16,plm=kernel,pm=1)");
    EXPECT_EQ(ITA_FGET(cfg.value[ITA_VIS_PMC5], PMC_GEN, ISM), 2u);
}

TEST(ConfigHot, EdgesFromTheQualification)
{
    ita_config cfg = must_parse(
        "irange 0x4000000000001000..0x4000000000002000 pair=0\n"
        "irange addr=0x4000000000008000 mask=0xfffffffffff0f0 pair=3\n"
        "drange 0x6000000000000100..0x6000000000000200 pair=2\n"
        "opcode PMC9 class=br.cloop\n");
    uint64_t vis[ITA_NVIS];
    ita_config_values(&cfg, vis);
    ita_config_hot h;
    ita_config_hot_edges(vis, cfg.model, &h);
    ASSERT_EQ(h.hot.ncode, 3u);
    EXPECT_EQ(h.hot.code[0], UINT64_C(0x4000000000001000));
    EXPECT_EQ(h.hot.code[1], UINT64_C(0x4000000000002000));
    EXPECT_EQ(h.hot.code[2], UINT64_C(0x4000000000008000));  // a mask with holes: its address
    ASSERT_EQ(h.hot.ndata, 2u);
    EXPECT_EQ(h.hot.data[0], UINT64_C(0x6000000000000100));
    EXPECT_EQ(h.hot.data[1], UINT64_C(0x6000000000000200));
    ASSERT_EQ(h.hot.nopc, 1u);  // PMC8 matches everything: no pattern
    // The class's pattern back over the 41 encoding bits.
    const ita_opcode_class *cloop = nullptr;
    for (unsigned i = 0; i < ita_opcode_nclasses; i++)
        if (std::string(ita_opcode_classes[i].name) == "br.cloop") cloop = &ita_opcode_classes[i];
    ASSERT_NE(cloop, nullptr);
    EXPECT_EQ(h.hot.opc_match[0], cloop->enc);
    EXPECT_EQ(h.hot.opc_care[0], cloop->care);
    // Fine ranges: the bounds; nothing programmed: no edges.
    cfg = must_parse("irange 0x4000000000001230..0x4000000000001560 fine pair=1\n");
    ita_config_values(&cfg, vis);
    ita_config_hot_edges(vis, cfg.model, &h);
    ASSERT_EQ(h.hot.ncode, 2u);
    EXPECT_EQ(h.hot.code[0], UINT64_C(0x4000000000001230));
    EXPECT_EQ(h.hot.code[1], UINT64_C(0x4000000000001560));
    cfg = must_parse("PMC4 event=CPU_CYCLES\n");
    ita_config_values(&cfg, vis);
    ita_config_hot_edges(vis, cfg.model, &h);
    EXPECT_EQ(h.hot.ncode + h.hot.ndata + h.hot.nopc, 0u);
    EXPECT_NE(h.hot.code, nullptr);  // a generator still gets arrays
}

}  // namespace
