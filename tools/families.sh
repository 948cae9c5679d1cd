#!/usr/bin/env bash
# families.sh - the registered PMU families, one name a line, in the order they were
# registered: include/common/pmu_families.def read as the C reads it (the preprocessor expands each
# PMU_FAMILY(name) line to its name), so that the make fragments and test scripts that
# loop over the families need no list of their own (docs/adding-a-family.md).
#
#   bash tools/families.sh            itanium, alpha21064, ... one a line
#   bash tools/families.sh --or-list  "itanium, alpha21064 or alpha21264": the list as the
#                                     commands print it in a message (pmu_cli_or_list)
set -eu -o pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
names=$("${CC:-gcc}" -E -P -x c -D'PMU_FAMILY(name)=name' "$root/include/common/pmu_families.def" | grep -v '^[[:space:]]*$')
case ${1:-} in
"")
    printf '%s\n' "$names" ;;
--or-list)
    mapfile -t n <<<"$names"
    out=${n[0]}
    for ((i = 1; i < ${#n[@]}; i++)); do
        if ((i + 1 == ${#n[@]})); then out+=" or ${n[i]}"; else out+=", ${n[i]}"; fi
    done
    printf '%s\n' "$out" ;;
*)
    echo "families.sh: unknown option '$1': expected --or-list or none" >&2
    exit 2 ;;
esac
