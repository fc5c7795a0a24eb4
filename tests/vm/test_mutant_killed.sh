#!/bin/bash
# Issue 11: `make check` keeps one planted-bug kernel, the fastest to kill:
# mut-lost-push drops a push onto an empty freelist. It builds seeded from
# fixed's tree (vm-images/kernels/mutants/), and one full_update cell on it
# FAILs, naming the loss (the end-of-run conservation checks), while the
# same cell on fixed PASSes (zero false alarms). `make mutants` is the full
# kill table.
# run-tests: needs fixed mut-lost-push
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir mutant_killed)
"$HT" run "${RESTORE[@]}" --cpus 2 --workload full_update --duration 1 --bpftrace none \
	--kernel fixed,mut-lost-push --out "$d"
expect_eq "harness exit (a FAIL cell)" $? 1
s="$d/summary.json"
c=$(jq -c '.cells[] | select(.kernel == "fixed")' "$s")
expect_eq "fixed verdict" "$(jq -r .verdict <<< "$c")" PASS
c=$(jq -c '.cells[] | select(.kernel == "mut-lost-push")' "$s")
expect_eq "mutant verdict" "$(jq -r .verdict <<< "$c")" FAIL
m=$(ls "$d"/*-mut-lost-push-*/module.json) || fail "no module.json from the mutant"
expect_eq "mutant guest kernel" "$(jq -r .kernel_release "$m")" "6.1.192-htab-mut-lost-push"
expect_cmp "mutant reinserted" "$(jq .verdict.reinserted "$m")" "<" "$(jq .verdict.capacity "$m")"
sig=$(jq -r .signature <<< "$c")
[[ $sig == *"reinserted"* || $sig == *"live elements"* ]] || fail "signature does not name the loss: $sig"
