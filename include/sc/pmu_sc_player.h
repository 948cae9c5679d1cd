// sc/pmu_sc_player.h - the stream player of the SystemC platform (docs/systemc.md): a module
// that plays a stream file or the generator (a pmu_source, include/stream/pmu_stream.h) to the
// processor, one cycle record per fetch.  The processor pulls records through the
// player's `fetch` export, so a record is read when it is executed and a report's "where"
// (pmu_source_where) names the record being stepped.
#ifndef PMU_SC_PLAYER_H
#define PMU_SC_PLAYER_H

#include <systemc>

#include "common/pmu_err.h"
#include "stream/pmu_stream.h"

// The record interface between the player and a processor.
struct pmu_sc_fetch_if : virtual sc_core::sc_interface {
    // The next record into rec (the dialect's record_size bytes): 1, 0 at the end, or -1
    // with err filled (a bad record).
    virtual int next(void *rec, pmu_err *err) = 0;
};

class pmu_sc_player : public sc_core::sc_module, public pmu_sc_fetch_if {
public:
    sc_core::sc_export<pmu_sc_fetch_if> fetch;

    // src: a stream file or the generator (not owned; it must outlive the player).
    pmu_sc_player(sc_core::sc_module_name name, pmu_source *src);
    int next(void *rec, pmu_err *err) override;
    uint64_t played() const { return played_; }

private:
    pmu_source *src_;
    uint64_t played_ = 0;
};

#endif
