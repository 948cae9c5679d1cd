// The header every GoogleTest source of the build reads, precompiled once (the Makefile's
// GTEST_PCH) and given to each of them with -include.
#include <gtest/gtest.h>
