#!/usr/bin/env bash
# install.sh - `make install PREFIX=...` (tools/kit/kit.mk; the layout is docs/kit.md's):
#   install.sh PREFIX VERSION --bin "FILES" --lib "FILES" --share DIR
# copies the programs to PREFIX/bin, the libraries to PREFIX/lib, the public headers
# (include/, but the generator's and the tests' own) to PREFIX/include/pmusim, writes
# PREFIX/lib/pkgconfig/pmusim.pc and pmusim-systemc.pc from tools/kit/*.pc.in, and copies
# DIR (the FuseSoC library and the examples, built by make) to PREFIX/share/pmusim.
# $DESTDIR, when set, is prepended to every destination (a staged install).
#
# Files are sacred: each file is copied to a temporary name beside its destination and
# renamed over it, so an interrupted install leaves every earlier file whole; nothing
# else under PREFIX is touched or removed.
set -euo pipefail
die() { echo "install.sh: $*" >&2; exit 2; }

[ $# -ge 2 ] || die "usage: install.sh PREFIX VERSION --bin FILES --lib FILES --share DIR"
prefix=$1 version=$2
shift 2
bins="" libs="" share=""
while [ $# -gt 0 ]; do
    case $1 in
        --bin) bins=$2; shift 2 ;;
        --lib) libs=$2; shift 2 ;;
        --share) share=$2; shift 2 ;;
        *) die "unknown argument '$1'; expected --bin, --lib or --share" ;;
    esac
done
case $prefix in
    /*) ;;
    *) die "PREFIX '$prefix': expected an absolute directory (pkg-config files record it)" ;;
esac
[ -n "$share" ] && [ -d "$share" ] || die "--share '$share': expected the built kit directory"
root=${DESTDIR:-}$prefix

# put MODE SRC DEST: SRC to DEST through a temporary file in DEST's directory.
put() {
    local mode=$1 src=$2 dest=$3
    install -d -m 755 "${dest%/*}"
    install -m "$mode" "$src" "$dest.tmp$$"
    mv -f "$dest.tmp$$" "$dest"
}

for f in $bins; do put 755 "$f" "$root/bin/${f##*/}"; done
for f in $libs; do put 644 "$f" "$root/lib/${f##*/}"; done

here=$(cd "${BASH_SOURCE[0]%/*}" && pwd)
inc=$here/../../include
while IFS= read -r -d '' f; do
    put 644 "$f" "$root/include/pmusim/${f#"$inc"/}"
done < <(find "$inc" -path "$inc/tools" -prune -o -type f \( -name '*.h' -o -name '*.def' \) \
             ! -name '*_test_util.h' -print0)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for pc in pmusim pmusim-systemc; do
    sed -e "s|@PREFIX@|$prefix|g" -e "s|@VERSION@|$version|g" "$here/$pc.pc.in" > "$tmp/$pc.pc"
    put 644 "$tmp/$pc.pc" "$root/lib/pkgconfig/$pc.pc"
done

while IFS= read -r -d '' f; do
    put 644 "$f" "$root/share/pmusim/${f#"$share"/}"
done < <(find "$share" -type f ! -name '.*' -print0)
echo "installed pmusim $version in ${DESTDIR:+$DESTDIR}$prefix"
