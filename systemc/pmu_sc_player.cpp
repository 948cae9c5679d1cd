// pmu_sc_player.cpp - the stream player (sc/pmu_sc_player.h).
#include "sc/pmu_sc_player.h"

pmu_sc_player::pmu_sc_player(sc_core::sc_module_name name, pmu_source *src)
    : sc_core::sc_module(name), fetch("fetch"), src_(src)
{
    fetch.bind(*this);
}

int pmu_sc_player::next(void *rec, pmu_err *err)
{
    int got = pmu_source_next(src_, rec, err);
    if (got > 0)
        played_++;
    return got;
}
