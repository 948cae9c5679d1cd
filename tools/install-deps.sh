#!/usr/bin/env bash
# install-deps.sh [fuzz] - make sure the Debian packages pmusim builds with are present.
# Called first by `make sim` and `make test`.  Does nothing when all are there.
#   fuzz   also clang and its sanitizer and libFuzzer runtimes, for `make fuzz` only
#          (docs/fuzzing.md): `make test` builds with gcc alone.
set -euo pipefail

PKGS=(make gcc g++ verilator iverilog yosys libsystemc-dev libgtest-dev zlib1g-dev valgrind)
# The docs' examples are run by tests/doc_test.py.
PKGS+=(python3)
# xmllint: make test validates conform's JUnit reports against tests/junit/junit.xsd.
PKGS+=(libxml2-utils)
# Real programs (pmusim record, make real; docs/real-programs.md): QEMU user mode and the
# cross compilers with their C libraries (recommended, not depended on, by the compilers;
# the Alpha's glibc is libc6.1).
PKGS+=(qemu-user gcc-alpha-linux-gnu libc6.1-dev-alpha-cross gcc-i686-linux-gnu libc6-dev-i386-cross)
# Waveforms: the viewer, and a virtual X server (xvfb-run) on which the layout test opens
# GTKWave to check where its view and marker fall (docs/debugging.md).
PKGS+=(gtkwave xvfb xauth)
# The installed kit (docs/kit.md): pkg-config builds against it, python3-yaml reads the
# FuseSoC cores in its test (FuseSoC itself is not in Debian).
PKGS+=(pkgconf python3-yaml)
# make fpga (docs/fpga.md): iCE40 place and route, and the chip databases it reads.
PKGS+=(nextpnr-ice40 fpga-icestorm)
# make formal (docs/formal.md): yosys-smtbmc (in the yosys package) with the z3 solver.
PKGS+=(z3)
# --plot (docs/plots.md): counter timelines and profiles drawn with cairo (SVG, PNG, PDF),
# PNGs written with libpng.
PKGS+=(libcairo2-dev libpng-dev)
case "${1:-}" in
    "") ;;
    fuzz) PKGS+=(clang-14 libclang-rt-14-dev) ;;
    *) echo "install-deps.sh: unknown package group '$1' (expected fuzz)" >&2; exit 2 ;;
esac

missing=()
for p in "${PKGS[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
    echo "pmusim needs these Debian packages: ${missing[*]}" >&2
    echo "run as root:  apt-get update && $line" >&2
    exit 1
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
