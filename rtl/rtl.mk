# rtl fragment: every family's RTL.  Each family's rtl/<family>/family.mk gives its sources,
# generated includes, lint and synthesis, and adds
#   RTL_LINT, RTL_SYNTH   its lint and synthesis targets (run by `make lint`, `make synth`)
#   GEN_VH, GEN_TOOLS     its generated includes and generator (built before the RTL and tests)
#   DOCS_GEN              its `make docs` target (the register map)
#   SV_FAMILY_LINES       its sv_tests folder line (sv_tests/sv_tests.mk)

RTL_WAIVERS     := rtl/lint/waivers.vlt
RTL_LINT  :=
RTL_SYNTH :=
SV_FAMILY_LINES :=

include $(sort $(wildcard rtl/*/family.mk))

.PHONY: lint synth
lint: $(RTL_LINT)
synth: $(RTL_SYNTH)
