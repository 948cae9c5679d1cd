# vlt_runtime.mk - run inside a Verilated object directory (make -C <dir> -f this
# VM_MK=<prefix>.mk): compiles the Verilator runtime that the generated makefile lists
# (VK_GLOBAL_OBJS) with the same settings as the model, into one archive.  Both PMU
# variants are built with the same tracing options, so they share it.
include $(VM_MK)

libverilated.a: $(VK_GLOBAL_OBJS)
	rm -f $@
	$(AR) rcs $@ $^
