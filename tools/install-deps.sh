#!/usr/bin/env bash
# install-deps.sh - make sure the Debian packages pmusim builds with are present.
# Called first by `make sim` and `make test`.  Does nothing when all are there.
set -euo pipefail

PKGS=(make gcc g++ verilator iverilog yosys libsystemc-dev libgtest-dev zlib1g-dev valgrind)

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
