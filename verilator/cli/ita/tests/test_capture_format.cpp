// test_capture_format.cpp - `pmusim profile --sample`'s side of a sample (verilator/ita/
// cmd_ear.c): the unit's registers, as the driver read them, decoded into the text lines
// and the JSON object the command prints; and the event resolution.
#include <gtest/gtest.h>

#include <string>

#include "cli/ita/ita_sample.h"
#include "sw/ita/ear_btb_sw.h"

namespace {

uint16_t vis_addr(unsigned v) { return ita_vis_table[v].addr; }

ita_drv_sample sample(ita_drv_capture kind)
{
    ita_drv_sample s{};
    s.record = 41;
    s.ip = 0x4000000000009000ull;
    s.pid = 1005;
    s.cpl = 3;
    s.capture = (uint8_t)kind;
    s.nregs = (uint8_t)ita_drv_capture_regs(kind, s.addr);
    return s;
}

TEST(CaptureFormat, DearSampleTextAndJson)
{
    ita_drv_sample s = sample(ITA_DRV_CAPTURE_DEAR);
    s.value[0] = 0x6000000000001238ull;
    s.value[1] = ITA_FSET(ITA_FSET(0, PMD3, STAT, 1), PMD3, LAT, 70);
    s.value[2] = (0x400000000000100ull << 4) | 0x8 | 0x4 | 2;
    pmu_monitor_capture c;
    ita_capture_format(ITA_MODEL_ITANIUM2, 0x40048, &s, &c);
    EXPECT_STREQ(c.text, "sample 41 pid 1005 ip 0x4000000000009000: D-EAR: instruction 0x4000000000001012 data "
                         "0x6000000000001238 latency 70\n");
    EXPECT_EQ(c.ip, 0x4000000000001012ull);  // attributed to the captured instruction
    EXPECT_STREQ(c.json, "{\"record\":41,\"pid\":1005,\"cpl\":3,\"ip\":\"0x4000000000009000\",\"unit\":\"D-EAR\","
                         "\"regs\":{\"PMD2\":\"0x6000000000001238\",\"PMD3\":\"0x4046\",\"PMD17\":"
                         "\"0x400000000000100e\"},\"valid\":true,\"mode\":\"cache\",\"iaddr\":\"0x4000000000001012\","
                         "\"daddr\":\"0x6000000000001238\",\"latency\":70,\"overflow\":false,\"tlb\":0}");
    s.value[1] = 0;  // no capture: attributed to the interrupt's address
    ita_capture_format(ITA_MODEL_ITANIUM2, 0x40048, &s, &c);
    EXPECT_STREQ(c.text, "sample 41 pid 1005 ip 0x4000000000009000: D-EAR: no capture\n");
    EXPECT_EQ(c.ip, s.ip);
}

TEST(CaptureFormat, IearAndBtbSamples)
{
    ita_drv_sample s = sample(ITA_DRV_CAPTURE_IEAR);
    s.value[0] = 0x4000000000012340ull | 3;
    s.value[1] = 0x1fff;
    pmu_monitor_capture c;
    ita_capture_format(ITA_MODEL_ITANIUM2, 0x3fe8, &s, &c);
    EXPECT_STREQ(c.text, "sample 41 pid 1005 ip 0x4000000000009000: I-EAR: fetch 0x4000000000012340 latency "
                         "4095+ (RAB)\n");
    EXPECT_EQ(c.ip, 0x4000000000012340ull);

    s = sample(ITA_DRV_CAPTURE_BTB);
    s.value[0] = ITA_FSET(ITA_FSET(0, BTB_ENTRY, B, 1), BTB_ENTRY, ADDR, 0x400000000000100ull);
    s.value[1] = ITA_FSET(0, BTB_ENTRY, ADDR, 0x400000000000200ull);
    s.value[2] = ITA_FSET(ITA_FSET(ITA_FSET(0, BTB_ENTRY, B, 1), BTB_ENTRY, MP, 1), BTB_ENTRY, SLOT, 3) |
                 (0x400000000000203ull << 4);
    s.value[3] = ITA_FSET(0, BTB_ENTRY, ADDR, 0x400000000000205ull);
    s.value[8] = ITA_FSET(0, PMD16, BBI, 4);
    ita_capture_format(ITA_MODEL_ITANIUM2, 0x3f08, &s, &c);
    EXPECT_STREQ(c.text, "sample 41 pid 1005 ip 0x4000000000009000: BTB: 2 branches, oldest first\n"
                         "  0x4000000000001000 -> 0x4000000000002000 taken predicted\n"
                         "  0x4000000000002033 -> 0x4000000000002050 not-taken mispredicted\n");
    EXPECT_EQ(c.ip, 0x4000000000002033ull);  // the newest branch
    EXPECT_NE(std::string(c.json).find("\"branches\":[{\"source\":\"0x4000000000001000\",\"target\":"
                                       "\"0x4000000000002000\",\"taken\":true"),
              std::string::npos)
        << c.json;
}

TEST(CaptureFormat, SampleEventResolution)
{
    char buf[128];
    const ita_event_row *row = nullptr;
    pmu_err err{};
    ASSERT_EQ(ita_sample_unit_resolve(ITA_MODEL_ITANIUM2, "data_ear_cache_lat64:k", buf, sizeof buf, &row, &err), 0)
        << err.msg;
    EXPECT_STREQ(buf, "DATA_EAR_EVENTS:k");
    EXPECT_STREQ(row->name, "DATA_EAR_CACHE_LAT64");
    ASSERT_EQ(ita_sample_unit_resolve(ITA_MODEL_ITANIUM, "INSTRUCTION_EAR_TLB_VHPT", buf, sizeof buf, &row, &err), 0);
    EXPECT_STREQ(buf, "INSTRUCTION_EAR_EVENTS");  // the counting event of Itanium's table
    // The unit's register at the counter's plm and ism; the counter's capture kind.
    ita_drv_config cfg{};
    cfg.reg[cfg.nregs++] = {vis_addr(ITA_VIS_PMC6), ITA_FSET(ITA_FSET(0, PMC_GEN, PLM, 9), PMC_GEN, ISM, 2)};
    ASSERT_EQ(ita_sample_unit_resolve(ITA_MODEL_ITANIUM2, "BRANCH_EVENT", buf, sizeof buf, &row, &err), 0);
    uint64_t pmc = 0;
    ASSERT_EQ(ita_sample_unit_program(ITA_MODEL_ITANIUM2, row, 1, &cfg, 2, &pmc, &err), 0) << err.msg;
    EXPECT_EQ(cfg.nregs, 2u);
    EXPECT_EQ(cfg.reg[1].addr, vis_addr(ITA_VIS_PMC12));
    EXPECT_EQ(pmc, UINT64_C(0x3f49));  // plm 9, pm 1, tm/ptm/ppm 3
    EXPECT_EQ(cfg.capture[2], ITA_DRV_CAPTURE_BTB);
    EXPECT_NE(ita_sample_unit_resolve(ITA_MODEL_ITANIUM2, "NOPS_RETIRED", buf, sizeof buf, &row, &err), 0);
    EXPECT_EQ(err.code, PMU_E_INPUT);
}

}  // namespace
