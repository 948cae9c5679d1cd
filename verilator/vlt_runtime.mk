# vlt_runtime.mk - run inside a Verilated object directory (make -C <dir> -f this
# VM_MK=<prefix>.mk): compiles the Verilator runtime that the generated makefile lists
# (VK_GLOBAL_OBJS) with the same settings as the model, into one archive.  Both PMU
# variants are built with the same tracing options, so they share it; so do the sv_tests
# testbenches (sv_tests/run.sh), whose runtime-key must be the archive's own.
include $(VM_MK)

libverilated.a: $(VK_GLOBAL_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

# What the runtime's objects are compiled from and with (the command of verilated.mk's rule
# for them): two models whose keys are the same can link one archive.
.PHONY: runtime-key
runtime-key:
	@echo '$(CXX) $(CXXFLAGS) $(CPPFLAGS) $(OPT_GLOBAL) | $(VK_GLOBAL_OBJS) | $(VERILATOR_ROOT)'
