# qemu fragment: real programs (docs/real-programs.md).  pmusim record runs a program under
# QEMU user mode with the TCG plugin built here (qemu/pmusim_plugin.c, against the API
# declarations of qemu/qemu_plugin_api.h), and a family's timing model
# (include/stream/pmu_timing.h) turns what it ran into the family's stream.
#
# Targets:
#   qemu-plugin   build/qemu/pmusim_plugin.so (part of `make all`: pmusim record loads it
#                 from beside build/pmusim)
#   bench-real    recording speed and stream size (qemu/bench_real.sh; part of make bench)
#   real          builds the sample programs (qemu/programs/) for every family with a timing
#                 model, records each, runs it in lock-step, runs the family's software on it
#                 and prints per-function tables (qemu/real.sh); REAL_SHORT=1 is the short form
#                 make test runs
QEMU_PLUGIN := $(BUILD)/qemu/pmusim_plugin.so

.PHONY: qemu-plugin real bench-real
qemu-plugin: $(QEMU_PLUGIN)

# A shared object QEMU loads: position-independent, only qemu_plugin_* exported; its
# undefined qemu_plugin_* symbols are QEMU's, bound when QEMU loads it.
$(QEMU_PLUGIN): qemu/pmusim_plugin.c qemu/qemu_plugin_api.h include/stream/pmu_rtrace.h include/stream/pmu_timing.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(OPT) -g -Wall -Wextra -Wshadow -Iinclude -fPIC -shared -fvisibility=hidden $< -o $@

real: deps pmusim $(QEMU_PLUGIN)
	@BUILD=$(BUILD) PMUSIM=$(PMUSIM) REAL_SHORT=$(REAL_SHORT) bash qemu/real.sh

# Recording speed, stream size and the reference model's speed on a ~100 M-instruction
# recording (qemu/bench_real.sh); make bench runs it last.  BENCH_REAL_ARGS="PROGRAM ARGS".
bench-real: deps pmusim $(QEMU_PLUGIN)
	@BUILD=$(BUILD) PMUSIM=$(PMUSIM) bash qemu/bench_real.sh

# make test runs the short form: every program on every family, smaller inputs.
TEST_DEPS += $(QEMU_PLUGIN)
TEST_SCRIPTS += qemu/tests/record_cli.sh qemu/tests/real_short.sh
