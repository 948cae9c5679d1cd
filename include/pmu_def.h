/*
 * pmu_def.h - reading a named column of a row of a family's .def.
 *
 * The rows of a family's .def name their columns, e.g.
 *     PMU_EVT(CPU_CYCLES, CODE(0x12), UMASK(0x0), ...)
 * so that a column moved to another place fails the build.  An expansion reads the
 * column it expects in a place with PMU_COL(COLUMN, arg): the column's name is pasted
 * in front of the first token of what the row has in that place,
 *     PMU_COL(CODE, CODE(0x12))  ->  PMU_COL_CODE_CODE(0x12)  ->  (0x12)
 *     PMU_COL(CODE, UMASK(0x0))  ->  PMU_COL_CODE_UMASK(0x0)  ->  defined nowhere
 * and the second one is not a constant, so the family's tables (which read every column)
 * do not compile.  A family defines PMU_COL_<C>_<C>(x) for each of its columns C
 * (include/ita/ita_regs.h for the Itanium family).
 */
#ifndef PMU_DEF_H
#define PMU_DEF_H

#define PMU_COL(column, arg) PMU_COL_##column##_##arg

#endif
