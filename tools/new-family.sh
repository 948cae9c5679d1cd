#!/usr/bin/env bash
# new-family.sh NAME - scaffold a minimal, working PMU family called NAME (docs/adding-a-family.md,
# "What the scaffold writes"): one counter in RTL, its reference model, a record dialect, a
# driver, the Verilated backend, the descriptor and command hooks, the SystemC part, the
# instruction-count baseline, tests beside each part and the family's page in docs/.
#
# Every file it writes is new, from the templates under tools/new-family/ (each <path>.in,
# with NAME in the path and @NAME@ / @UNAME@ in the text replaced).  The one existing file it
# changes is the registry: it appends PMU_FAMILY(NAME) to include/common/pmu_families.def.  It
# refuses a NAME that is not a lower-case C identifier (it names the files, the C symbols
# pmu_family_NAME and pmu_vsc_NAME, the Verilog module NAME_pmu and the --family value), a
# name longer than a dialect name may be (16), a family already registered, and any file it
# would write that exists: it writes nothing then.
#
# Then: make -j2 pmusim, and `pmusim run --family NAME` runs it in lock-step.
set -eu -o pipefail

# ---- where things are (paths relative to the repository root) ----------------------------
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
templates=tools/new-family         # <path with NAME>.in for each file of the family
registry=include/common/pmu_families.def  # the one line-set the scaffold appends to
name_max=16                        # PMU_DIALECT_NAME_MAX (include/common/pmu_dialect.h)

die() {
    echo "new-family.sh: $*" >&2
    exit 2
}

[ $# -eq 1 ] || die "usage: tools/new-family.sh NAME (a lower-case C identifier, e.g. toy)"
name=$1
[[ $name =~ ^[a-z][a-z0-9_]*$ ]] ||
    die "'$name': expected a lower-case C identifier ([a-z][a-z0-9_]*): it names the family's files, its C symbols and its Verilog module"
[ ${#name} -le $name_max ] || die "'$name': at most $name_max characters (a dialect name, include/common/pmu_dialect.h)"
uname=${name^^}

cd "$root"
[ -f "$registry" ] || die "$registry: not found"
if bash tools/families.sh | grep -qxF -- "$name"; then
    die "'$name': a family of that name is registered already ($registry)"
fi

# Every file to write, and none may exist (nor may the family's folders).
mapfile -t srcs < <(cd "$templates" && find . -type f -name '*.in' | sed 's|^\./||' | sort)
[ ${#srcs[@]} -gt 0 ] || die "$templates: no templates"
dests=()
for s in "${srcs[@]}"; do
    d=${s%.in}
    dests+=("${d//NAME/$name}")
done
for d in "${dests[@]}"; do
    [ ! -e "$d" ] || die "'$name': $d exists already (the scaffold never overwrites a file)"
done
for d in "${dests[@]}"; do
    dir=${d%/*}
    case "$dir" in */"$name" | */"$name"/*)
        top=${dir%%/"$name"*}/$name
        [ ! -e "$top" ] || die "'$name': $top exists already (the family's folders must be new)" ;;
    esac
done

# Written under temporary names first, then renamed: an interrupted scaffold leaves no
# half-written file under a real name.  Until the registry line is in, a failure or a signal
# takes back everything this run made (its files and the folders it created), so that it can
# be run again.
tmps=() placed=() made_dirs=()
cleanup() {
    [ ${#tmps[@]} -eq 0 ] || rm -f -- "${tmps[@]}"
    [ ${#placed[@]} -eq 0 ] || rm -f -- "${placed[@]}"
    for ((k = ${#made_dirs[@]} - 1; k >= 0; k--)); do rmdir -- "${made_dirs[k]}" 2>/dev/null; done
    return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
for i in "${!srcs[@]}"; do
    d=${dests[i]}
    dir=${d%/*} new_dirs=()
    while [ ! -d "$dir" ]; do
        new_dirs=("$dir" "${new_dirs[@]}")
        dir=${dir%/*}
    done
    for dir in "${new_dirs[@]}"; do
        mkdir -- "$dir"
        made_dirs+=("$dir")
    done
    t=$(mktemp "$d.XXXXXX")
    tmps+=("$t")
    sed -e "s/@NAME@/$name/g" -e "s/@UNAME@/$uname/g" "$templates/${srcs[i]}" >"$t"
    case "$d" in *.sh) chmod 755 "$t" ;; *) chmod 644 "$t" ;; esac
done
for i in "${!dests[@]}"; do
    [ ! -e "${dests[i]}" ] || die "${dests[i]} appeared while the scaffold ran: nothing written"
    mv -n -- "${tmps[i]}" "${dests[i]}"
    placed+=("${dests[i]}")
done
tmps=()

# The registration line, last: the family's files are all there when it is registered.
t=$(mktemp "$registry.XXXXXX")
tmps+=("$t")
cat "$registry" >"$t"
[ -z "$(tail -c1 "$t")" ] || echo >>"$t"
echo "PMU_FAMILY($name)" >>"$t"
chmod --reference="$registry" "$t"
mv -- "$t" "$registry"
tmps=() placed=() made_dirs=()

echo "new-family.sh: family $name: ${#dests[@]} new files and PMU_FAMILY($name) in $registry"
printf '  %s\n' "${dests[@]}"
echo "next: make -j2 pmusim && build/pmusim run --family $name; docs/adding-a-family.md says what to fill in"
