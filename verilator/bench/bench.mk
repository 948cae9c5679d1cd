# bench fragment: `make bench`, the simulation-speed benchmark (docs/bench.md).  It is
# not a test: `make test` never runs it.
#
# Overrides (make bench VAR=...):
#   BENCH_CYCLES          records of the workload stream for the pmusim runs (5000000)
#   BENCH_SEED            generator seed (1)
#   BENCH_REPEAT          runs of each pmusim backend, interleaved; the median is reported (3)
#   BENCH_ICARUS_RECORDS  prefix of the stream simulated by Icarus and cross-checked (50000)
#   BENCH_ICARUS_BASE     records of the short Icarus run subtracted from it (1000)
#   BENCH_CONFIG          the PMU configuration (verilator/bench/bench.cfg)
#   BENCH_QUAL_CONFIG     the same with every qualification unit in use (verilator/bench/bench_qual.cfg)
# Everything goes to build/bench/ (results.txt holds the last report).
#
# The instruction-count regression check (verilator/bench/ir_per_cycle.sh against
# IR_BASELINE) is also part of `make test`: callgrind counts do not depend on the load.

BENCH_OUT            := $(BUILD)/bench
BENCH_CYCLES         ?= 5000000
BENCH_SEED           ?= 1
BENCH_REPEAT         ?= 3
BENCH_ICARUS_RECORDS ?= 50000
BENCH_ICARUS_BASE    ?= 1000
BENCH_CONFIG         ?= verilator/bench/bench.cfg
BENCH_QUAL_CONFIG    ?= verilator/bench/bench_qual.cfg

IR_BASELINE          := verilator/bench/ir_baseline.txt
# Every family but the default one (the first registered, which the check above runs with
# the qualification configuration): verilator/bench/ir_baseline_<family>.txt each.
IR_OTHER_FAMILIES    := $(wordlist 2,$(words $(PMU_FAMILIES)),$(PMU_FAMILIES))
IR_CHECK := bash verilator/bench/ir_per_cycle.sh --pmusim $(PMUSIM) --config $(BENCH_QUAL_CONFIG) --out $(BUILD)/ir
# Callgrind (valgrind) cannot run a program built with AddressSanitizer, and an instrumented
# program's instruction counts say nothing of the normal build's: under SAN=1 both checks are
# listed as skipped (tests/run_all.sh --skipped).
ifeq ($(SAN),1)
TEST_SKIPPED += instructions-per-cycle-within-baseline instructions-per-cycle-check-catches-growth \
                $(foreach f,$(IR_OTHER_FAMILIES),instructions-per-cycle-within-baseline-$(f))
else
TEST_CHECKS += instructions-per-cycle-within-baseline=$(IR_CHECK) --baseline $(IR_BASELINE);
# The other families, each with its built-in configuration and its own baseline.
TEST_CHECKS += $(foreach f,$(IR_OTHER_FAMILIES),instructions-per-cycle-within-baseline-$(f)=bash verilator/bench/ir_per_cycle.sh --pmusim $(PMUSIM) --family $(f) --out $(BUILD)/ir-$(f) --baseline verilator/bench/ir_baseline_$(f).txt;)
# A baseline of 1 instruction a cycle must be reported as a regression, with a failing exit.
# (No double quotes or $$? here: the checks are passed to run_all.sh in one quoted argument.)
# Its own output folder: make test runs the checks at once, and this one's stream (300
# records) must not replace the 40000-record stream of the check above while it runs.
TEST_CHECKS += instructions-per-cycle-check-catches-growth=( $(IR_CHECK)-growth --backends ref --records 100,300 --baseline <(echo 'ref 1') || echo exit-nonzero ) | tr '\n' ' ' | grep -q 'ir: ref [0-9]* *REGRESSED.*exit-nonzero';
endif

BENCH_VMEM := $(BENCH_OUT)/vmem
BENCH_TB   := $(BENCH_OUT)/tb_icarus.vvp

# vmem parses and applies the configuration with pmusim's own code (HARNESS_LIB), and
# records the writes through the reference model (REF_LIB).
$(BENCH_VMEM): $(BUILD)/obj/verilator/bench/vmem.o $(PMUSIM_LIBS) $(COMMON_OBJS)
	@mkdir -p $(dir $@)
	$(CXX) $(OPT) -g $^ -o $@ $(RTL_LDLIBS) $(LDLIBS)

# The testbench holds the whole $readmemh file: one line per register write (vmem makes at
# most 64) and per record.  The size is a compile-time parameter, so it is kept in a file
# that changes only when the size does, and the testbench is rebuilt then.
BENCH_ICARUS_MAX_LINES = $(shell echo $$(( $(BENCH_ICARUS_RECORDS) + 64 )))
$(BENCH_OUT)/tb_icarus.params: bench-params-check
	@mkdir -p $(dir $@)
	@echo "MaxLines=$(BENCH_ICARUS_MAX_LINES)" | cmp -s - $@ || \
	  echo "MaxLines=$(BENCH_ICARUS_MAX_LINES)" > $@

$(BENCH_TB): verilator/bench/tb_icarus.sv $(RTL_SRCS) $(GEN_VH) $(BENCH_OUT)/tb_icarus.params
	@mkdir -p $(dir $@)
	$(IVERILOG) -g2012 -Wall $(RTL_INC) -s tb_icarus -Ptb_icarus.MaxLines=$(BENCH_ICARUS_MAX_LINES) \
	  -o $@ verilator/bench/tb_icarus.sv $(RTL_SRCS)

# make bench-plot: what --plot costs a run of BENCH_PLOT_CYCLES records (docs/bench.md, "The
# cost of --plot"): callgrind instructions on the reference, wall time on each backend.
BENCH_PLOT_CYCLES ?= 10000000
.PHONY: bench-plot
bench-plot: deps
	@$(MAKE) --no-print-directory pmusim
	@bash verilator/bench/plot_cost.sh --pmusim $(PMUSIM) --out $(BENCH_OUT) --cycles $(BENCH_PLOT_CYCLES) \
	  --repeat $(BENCH_REPEAT)

.PHONY: bench-build bench-params-check
bench-params-check:
bench-build: $(PMUSIM) $(PMUSIM_SC) $(BENCH_VMEM) $(BENCH_TB)

bench: deps
	@$(MAKE) --no-print-directory bench-build
	@bash verilator/bench/run_bench.sh --pmusim $(PMUSIM) --vmem $(BENCH_VMEM) --tb $(BENCH_TB) \
	  --config $(BENCH_CONFIG) --qual-config $(BENCH_QUAL_CONFIG) --out $(BENCH_OUT) --cycles $(BENCH_CYCLES) --seed $(BENCH_SEED) \
	  --repeat $(BENCH_REPEAT) --icarus-records $(BENCH_ICARUS_RECORDS) \
	  --icarus-base $(BENCH_ICARUS_BASE) --vvp $(VVP) --pmusim-sc $(PMUSIM_SC) \
	  --baseline $(IR_BASELINE)
	@$(MAKE) --no-print-directory bench-real
