// harness/pmu_vlt_glue.h - what every family's Verilated backend (verilator/<family>/rtl_backend.cpp)
// shares: clocking a Verilated PMU top, its register port, reset, FST waveforms and the
// pmu_backend operation table.  C++ glue, for the harness only.
//
// The top must have the ports clk_i, rst_ni, reg_we_i, reg_addr_i, reg_wdata_i, reg_rdata_o
// and cyc_valid_i (the step strobe).  A family's model derives from Core<Top> and adds
//   void step(const Record *r)       drive the record's ports, then clock(true)
//   void snapshot(pmu_state *s)      the visible registers and the interrupt line
// and Backend<Model, Record> gives its pmu_backend.  Every operation except read() is exactly
// one clock of clk_i:
//   reset  rst_ni low for one clock
//   write  reg_we_i = 1, cyc_valid_i = 0
//   step   cyc_valid_i = 1 with the record on the record ports
// read() sets reg_addr_i and evaluates the combinational read port, with no clock.
#ifndef PMU_VLT_GLUE_H
#define PMU_VLT_GLUE_H

#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#include <sys/statvfs.h>

#include <verilated.h>
#include <verilated_fst_c.h>

#include "common/pmu_backend.h"

namespace pmu_vlt {

// Verilator 5 sees a posedge by comparing clk_i with the value it had at the previous
// eval (the generated member __Vtrigrprev__TOP__clk_i), and every eval re-runs all the
// input-combinational logic.  Evaluating the falling edge on its own therefore costs a full
// evaluation that changes nothing (no logic is sensitive to the fall).  Where the generated
// model has that member (Verilator 5.006, the version the project installs) the fall is
// recorded there directly; with another layout it is evaluated.
template <typename Root>
auto record_fall(Root *root, int) -> decltype(root->__Vtrigrprev__TOP__clk_i = 0, bool())
{
    root->__Vtrigrprev__TOP__clk_i = 0;
    return true;
}
template <typename Root>
bool record_fall(Root *, long)
{
    return false;
}

// A clock edge without Verilator's scheduler.  Top::eval() runs the scheduler's loops: the
// input-combinational region, the active triggers (clk_i's posedge, rst_ni's negedge) until
// they settle, then the non-blocking region; on a PMU top whose only trigger is the clock
// (and reset) that is always the input region once and the clock's region once, and the
// loops, their trigger vectors and eval_step's bookkeeping were about 200 host instructions
// a clock of the Itanium 2 top (docs/bench-history.md, "Sixteenth round").  A family's glue
// that knows its generated model (Verilator 5.006's root functions) specializes DirectEdge
// for its top (PMU_VLT_DIRECT_EDGE below): run() evaluates one posedge of clk_i with rst_ni
// high, exactly as eval() would, and leaves the trigger state as eval() leaves it.  Without a specialization, or
// while a waveform is open (the trace needs eval_step's activity flags), clock() evaluates.
template <class Top>
struct DirectEdge {
    static constexpr bool kOn = false;
    static void run(Top *) {}
};

// PMU_VLT_DIRECT_EDGE(TOP), at file scope in the family's glue (which includes TOP's root
// header), after this header: DirectEdge<TOP> for Verilator 5.006, which generates, for each
// top, the input region (_eval_ico) and the clock's region (_eval_nba) as functions of the
// root.  eval() with a rising clk_i (rst_ni high) runs the first once and the second once:
// the clock's region changes neither clk_i nor rst_ni, so nothing triggers again, and the
// active region between them is empty on a top whose one trigger is the clock and reset (the
// static_asserts).  run() calls the two in that order and records the clock's and reset's
// values as eval()'s trigger check would.  With another Verilator version it expands to
// nothing, and clock() evaluates.
#if defined(VERILATOR_VERSION_INTEGER) && VERILATOR_VERSION_INTEGER == 5006000
#define PMU_VLT_DIRECT_EDGE(TOP)                                                              \
    void TOP##___024root___eval_ico(TOP##___024root *vlSelf);                                 \
    void TOP##___024root___eval_nba(TOP##___024root *vlSelf);                                 \
    namespace pmu_vlt {                                                                       \
    template <>                                                                               \
    struct DirectEdge<TOP> {                                                                  \
        static constexpr bool kOn = true;                                                     \
        static void run(TOP *t)                                                               \
        {                                                                                     \
            TOP##___024root *const r = t->rootp;                                              \
            static_assert(sizeof r->__VicoTriggered == sizeof(bool), "one input trigger");    \
            static_assert(sizeof r->__VactTriggered == sizeof(bool), "one clock trigger");    \
            static_assert(sizeof r->__VnbaTriggered == sizeof(bool), "one clock trigger");    \
            r->__VicoTriggered.at(0) = true;                                                  \
            TOP##___024root___eval_ico(r);                                                    \
            r->__VnbaTriggered.at(0) = true;                                                  \
            TOP##___024root___eval_nba(r);                                                    \
            r->__Vtrigrprev__TOP__clk_i = t->clk_i;                                           \
            r->__Vtrigrprev__TOP__rst_ni = t->rst_ni;                                         \
        }                                                                                     \
    };                                                                                        \
    }
#else
#define PMU_VLT_DIRECT_EDGE(TOP)
#endif

// Verilator's FST writer (gtkwave/fstapi.c) keeps its hierarchy and value tables in files it
// extends with ftruncate() or unchecked fwrite() and then reads and writes through mmap(); on
// a full file system touching such a page raises SIGBUS, and the process dies with no message
// and its temporary files left behind.  Space cannot be reserved ahead (the writer's files,
// beside the FST and in /tmp, and their sizes are its own), so every call into the writer
// runs under FstGuard: a SIGBUS handler, installed while any waveform is open, siglongjmp()s
// back to the call, and the waveform is abandoned — the writer's state is half-updated and
// closing or deleting it would fault again, so it is leaked — and reported unwritable.  The
// writer runs on the calling thread (the model is built without --trace-threads), so the
// signal arrives on the thread that set the jump.  A SIGBUS outside a writer's call is the
// crash it is: the default action, re-raised.  The writer also drops the errors of its
// fwrite() calls, so a disk that fills while it writes the FST itself leaves a truncated
// file and no fault: trace_close() therefore opens the finished file with the writer's own
// reader, which refuses a file whose header is cut short, and walks its blocks (fst_complete),
// which finds the rest: the header is rewritten in place at close and reads whole over a
// value-change section that was never written (its length 0).
struct FstGuard {
    static inline thread_local sigjmp_buf *jump = nullptr;
    static inline unsigned users = 0;
    static inline struct sigaction saved;

    static void on_bus(int sig)
    {
        if (jump) siglongjmp(*jump, 1);
        signal(sig, SIG_DFL);
        raise(sig);
    }
    static void install()
    {
        if (users++) return;
        struct sigaction sa;
        std::memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_bus;
        sa.sa_flags = SA_NODEFER;  // the jump leaves the handler: SIGBUS must stay unblocked
        sigemptyset(&sa.sa_mask);
        sigaction(SIGBUS, &sa, &saved);
    }
    static void uninstall()
    {
        if (users && --users == 0) sigaction(SIGBUS, &saved, nullptr);
    }
    // Runs f(); false when the writer faulted in it.
    template <class F>
    static bool run(F &&f)
    {
        sigjmp_buf here;
        sigjmp_buf *const outer = jump;
        if (sigsetjmp(here, 0)) {  // no mask to save: SA_NODEFER left SIGBUS unblocked
            jump = outer;
            return false;
        }
        jump = &here;
        f();
        jump = outer;
        return true;
    }
    // Why the writer faulted: no room left where it writes (the FST's directory or /tmp),
    // or, with room, an I/O error on its files.
    static int cause(const char *path)
    {
        char dir[4096];
        const char *slash = std::strrchr(path, '/');
        std::snprintf(dir, sizeof dir, "%.*s", slash ? static_cast<int>(slash - path) + 1 : 1,
                      slash ? path : ".");
        for (const char *d : {static_cast<const char *>(dir), "/tmp"}) {
            struct statvfs v;
            if (statvfs(d, &v) == 0 && static_cast<uint64_t>(v.f_bavail) * v.f_frsize < (1u << 20))
                return ENOSPC;
        }
        return EIO;
    }
};

// An FST file is a sequence of blocks: a type byte, then the block's length (big-endian, 8
// bytes, counting themselves) and its data (gtkwave/fstapi.h, FST_BL_*). A file the writer
// finished is blocks end to end up to its last byte, with a geometry block and a hierarchy
// block (written last); one cut short by a full disk is not. The blocks' contents are not
// read: the writer's reader trusts them and crashes on a corrupt one.
inline bool fst_complete(const char *path)
{
    FILE *f = std::fopen(path, "rb");
    if (!f) return false;
    bool geom = false, hier = false, ok = std::fseek(f, 0, SEEK_END) == 0;
    const long end = ok ? std::ftell(f) : -1;
    ok = end >= 0 && std::fseek(f, 0, SEEK_SET) == 0;
    while (ok) {
        unsigned char h[9];
        const size_t n = std::fread(h, 1, sizeof h, f);
        if (n == 0 && std::feof(f)) break;
        if (n != sizeof h) { ok = false; break; }
        uint64_t len = 0;
        for (int i = 1; i < 9; i++) len = len << 8 | h[i];
        if (len < 8 || len - 8 > static_cast<uint64_t>(INT64_MAX)) { ok = false; break; }
        geom |= h[0] == FST_BL_GEOM;
        hier |= h[0] == FST_BL_HIER || h[0] == FST_BL_HIER_LZ4 || h[0] == FST_BL_HIER_LZ4DUO;
        const long here = std::ftell(f);
        if (here < 0 || static_cast<uint64_t>(end - here) < len - 8 ||
            std::fseek(f, here + static_cast<long>(len - 8), SEEK_SET) != 0) {
            ok = false;
            break;
        }
    }
    std::fclose(f);
    return ok && geom && hier;
}

// The waveform's time axis (FST time unit 1 ns, resolution 1 ps).
enum class Axis {
    // 1 ns per cycle record: record T is presented at T ns (clk_i low) and clocked at
    // T.5 ns; the register writes software makes before record T are short clocks (20 ps
    // apart) in the last 0.4 ns before it, so a cursor at "T ns" shows record T.
    kPerRecord,
    // 1 ns per clock, whatever it does: clock n is presented at n ns and clocked at n.5 ns.
    kPerClock,
};

constexpr int64_t kPsPerUnit = 1000;  // 1 ns per record or clock, ps resolution
constexpr int64_t kClockHigh = 500;   // posedge of a step (of any clock on kPerClock)
constexpr int64_t kWriteLead = 400;   // kPerRecord: writes start this long before the next record
constexpr int64_t kWriteSpacing = 20; // kPerRecord: one write clock every 20 ps

template <class Top>
struct Core {
    VerilatedContext ctx;
    Top *top = nullptr;
    VerilatedFstC *fst = nullptr;
    Axis axis;
    int64_t last_dump = -1;     // time of the last FST sample (ps)
    int fst_errno = 0;          // the writer faulted (FstGuard): why; the waveform is lost
    unsigned gap_clocks = 0;    // write/reset clocks since the last step
    uint64_t clocks = 0;        // clocks since the model was made
    const uint64_t *cycle = nullptr; // the backend's record count (pmu_backend.cycle)
    char path[4096] = "";       // of the open waveform

    explicit Core(Axis a) : axis(a)
    {
        ctx.traceEverOn(true);  // a waveform may be opened at any cycle
        top = new Top(&ctx, "TOP");
        top->clk_i = 0;
        top->rst_ni = 1;
        top->eval();  // the first eval initializes; no edge is seen in it
    }
    ~Core()
    {
        trace_close();
        top->final();
        delete top;
    }
    Core(const Core &) = delete;
    Core &operator=(const Core &) = delete;

    void dump(int64_t planned)
    {
        const int64_t t = planned > last_dump ? planned : last_dump + 1;
        VerilatedFstC *const f = fst;
        if (!FstGuard::run([f, t] { f->dump(static_cast<uint64_t>(t)); })) abandon();
        last_dump = t;
    }

    // The writer faulted: stop tracing, never touch it again (FstGuard).
    void abandon()
    {
        fst_errno = FstGuard::cause(path);
        fst = nullptr;
        FstGuard::uninstall();
    }

    // Verilator sees a posedge only against the clock's value at the previous eval.
    // Without a trace the falling edge is evaluated on its own before the inputs change,
    // so the clock itself is one evaluation; with a trace both halves are evaluated and
    // sampled in clock().
    void fall()
    {
        if (fst) return;
        top->clk_i = 0;
        if (!record_fall(top->rootp, 0)) top->eval();
    }

    // One clock of clk_i; the inputs are already on the ports.
    void clock(bool step)
    {
        // Without a waveform (every clock of a run without --waves) the edge alone; the
        // sampling is a branch of its own, so that the common case carries none of it
        // (docs/bench-history.md, "Eighteenth round").
        if (fst) {
            clock_sampled(step);
        } else {
            top->clk_i = 0;
            top->clk_i = 1;
            if (DirectEdge<Top>::kOn && top->rst_ni)
                DirectEdge<Top>::run(top);
            else
                top->eval();
        }
        gap_clocks = step ? 0 : gap_clocks + 1;
        clocks++;
    }

    // The clock with a waveform open: both halves evaluated and sampled.
    void clock_sampled(bool step)
    {
        int64_t t0, t1;
        if (axis == Axis::kPerClock) {
            t0 = static_cast<int64_t>(clocks) * kPsPerUnit;
            t1 = t0 + kClockHigh;
        } else {
            const int64_t rec = static_cast<int64_t>(*cycle) * kPsPerUnit;
            t0 = step ? rec : rec - kWriteLead + kWriteSpacing * static_cast<int64_t>(gap_clocks);
            t1 = step ? t0 + kClockHigh : t0 + kWriteSpacing / 2;
        }
        top->clk_i = 0;
        top->eval();
        dump(t0);
        top->clk_i = 1;
        top->eval();  // (the trace needs eval_step's activity flags)
        if (fst) dump(t1);  // (dump(t0) may have abandoned the waveform)
    }

    void reset()
    {
        fall();
        top->reg_we_i = 0;
        top->cyc_valid_i = 0;
        top->rst_ni = 0;
        clock(false);
        top->rst_ni = 1;
        top->eval();
    }

    void write(uint16_t addr, uint64_t value)
    {
        fall();
        top->cyc_valid_i = 0;
        top->reg_we_i = 1;
        top->reg_addr_i = addr;
        top->reg_wdata_i = value;
        clock(false);
        top->reg_we_i = 0;
    }

    uint64_t read(uint16_t addr)
    {
        top->reg_addr_i = addr;
        top->eval();
        return top->reg_rdata_o;
    }

    // 0, or an errno value.
    int trace_open(const char *file)
    {
        trace_close();
        // VerilatedFstC does not report an unwritable path; check it here.
        FILE *probe = std::fopen(file, "wb");
        if (!probe) return errno;
        std::fclose(probe);
        std::snprintf(path, sizeof path, "%s", file);
        fst_errno = 0;
        VerilatedFstC *const f = new VerilatedFstC;
        f->set_time_unit("1ns");
        f->set_time_resolution("1ps");
        top->trace(f, 99);
        FstGuard::install();
        fst = f;
        if (!FstGuard::run([f, file] { f->open(file); })) {
            abandon();
            return fst_errno;
        }
        if (!fst->isOpen()) {
            delete fst;
            fst = nullptr;
            FstGuard::uninstall();
            return EIO;
        }
        top->eval();
        // The first sample shows the state at the point the trace starts, just before the
        // next clock.
        const int64_t next = axis == Axis::kPerClock ? static_cast<int64_t>(clocks) * kPsPerUnit - 1
                                                     : static_cast<int64_t>(*cycle) * kPsPerUnit -
                                                           kWriteLead - kWriteSpacing;
        dump(next);
        return fst_errno;
    }

    // The visible registers as the read port returns them (obs_vis_o: register v in words
    // 2v and 2v+1, in the family's visible-register order) and the interrupt line.
    void snapshot_obs(pmu_state *s, unsigned nvis) const
    {
        const Top &t = *top;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        // Entry v is words 2v (low) and 2v+1 of the port: on a little-endian host the port's
        // words are the entries' bytes in order, and one copy takes them all (it runs every
        // lock-step cycle; docs/bench.md).
        static_assert(sizeof s->reg[0] == 2 * sizeof t.obs_vis_o[0], "two port words per entry");
        std::memcpy(s->reg, &t.obs_vis_o[0], nvis * sizeof s->reg[0]);
#else
        for (unsigned v = 0; v < nvis; v++)
            s->reg[v] = static_cast<uint64_t>(t.obs_vis_o[2 * v]) | static_cast<uint64_t>(t.obs_vis_o[2 * v + 1]) << 32;
#endif
        s->pmi = t.pmi_o;
    }

    // The port itself where its words are the entries' bytes in order (a little-endian
    // host), and pmi_o: the lock-step checker compares them in place, without a copy.
    const void *visible_obs(const uint8_t **pmi_line) const
    {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        static_assert(sizeof top->pmi_o == 1, "pmi_o is one byte");
        *pmi_line = reinterpret_cast<const uint8_t *>(&top->pmi_o);
        return &top->obs_vis_o[0];
#else
        (void)pmi_line;
        return nullptr;
#endif
    }

    // 0, or an errno value: the writer faulted while the waveform was open.
    int trace_close()
    {
        if (fst) {
            VerilatedFstC *const f = fst;
            if (FstGuard::run([f] { f->close(); })) {
                delete fst;
                fst = nullptr;
                FstGuard::uninstall();
                void *reader = fstReaderOpen(path);  // complete? (FstGuard)
                if (reader) fstReaderClose(reader);
                if (!reader || !fst_complete(path)) fst_errno = FstGuard::cause(path);
            } else {
                abandon();
            }
        }
        const int e = fst_errno;
        fst_errno = 0;
        return e;
    }
};

// The C side holds &base; impl points to the family's model.
struct Handle {
    pmu_backend base;
    void *impl;
};

// The pmu_backend operations of a family's Model (a Core<Top> with step and snapshot)
// stepping Records.
template <class Model, class Record>
struct Backend {
    static Model *of(pmu_backend *b) { return static_cast<Model *>(reinterpret_cast<Handle *>(b)->impl); }

    static void reset(pmu_backend *b)
    {
        of(b)->reset();
        b->cycle = 0;
    }
    static void write(pmu_backend *b, uint16_t addr, uint64_t value) { of(b)->write(addr, value); }
    static uint64_t read(pmu_backend *b, uint16_t addr) { return of(b)->read(addr); }
    static void step(pmu_backend *b, const void *record)
    {
        of(b)->step(static_cast<const Record *>(record));
        b->cycle++;
    }
    static void snapshot(pmu_backend *b, pmu_state *s) { of(b)->snapshot(s); }
    static uint8_t pmi(pmu_backend *b) { return static_cast<uint8_t>(of(b)->top->pmi_o); }
    static const void *visible(pmu_backend *b, const uint8_t **pmi_line) { return of(b)->visible_obs(pmi_line); }
    static void destroy(pmu_backend *b)
    {
        Handle *h = reinterpret_cast<Handle *>(b);
        delete of(b);
        delete h;
    }
    static int trace_open(pmu_backend *b, const char *path, pmu_err *err)
    {
        const int e = of(b)->trace_open(path);
        if (e == 0) return 0;
        return pmu_errf(err, PMU_E_IO, "%s: cannot write the waveform: %s", path, std::strerror(e));
    }
    static int trace_close(pmu_backend *b, pmu_err *err)
    {
        const int e = of(b)->trace_close();
        if (e == 0) return 0;
        return pmu_errf(err, PMU_E_IO, "%s: cannot write the waveform: %s", of(b)->path, std::strerror(e));
    }

    static constexpr pmu_backend_ops ops = {reset,       write,   read,    step,
                                            snapshot,    destroy, nullptr, trace_open,
                                            trace_close, nullptr, nullptr, pmi,
                                            visible};

    // A reset backend around m (which it owns from here on), or nullptr with err filled.
    static pmu_backend *create(Model *m, unsigned model, unsigned nvis, pmu_err *err)
    {
        Handle *h = new (std::nothrow) Handle();
        if (!h) {
            delete m;
            pmu_errf(err, PMU_E_NOMEM, "rtl backend: out of memory");
            return nullptr;
        }
        h->base.ops = &ops;
        h->base.name = "rtl";
        h->base.model = model;
        h->base.nvis = nvis;
        h->base.cycle = 0;
        h->impl = m;
        m->cycle = &h->base.cycle;
        pmu_reset(&h->base);
        return &h->base;
    }
};

}  // namespace pmu_vlt

#endif
