#!/bin/bash
# The module builds out of tree against every installed distro kernel's
# headers (vm-images/kernel-lines.sh: 6.1, 6.12, 6.12-rt) from one source,
# without warnings (vm-images/build-kmod.sh, as `run` builds it); it is for
# exactly that release, imports the BPF symbol namespace where the tree's
# Module.symvers puts bpf_map_get in one (6.12), and carries the parameters
# the harness passes.
. "$(dirname "$0")/../lib.sh"
kl=$ROOT/vm-images/kernel-lines.sh
built=0
for label in $("$kl" labels); do
	line=$("$kl" resolve "$label" 2> /dev/null) || { echo "missing: $label not installed"; continue; }
	kver=$(echo "$line" | sed 's/.* RELEASE=\([^ ]*\) .*/\1/')
	kdir=$(echo "$line" | sed 's/.* KDIR=\([^ ]*\).*/\1/')
	# Where `run --kernel LABEL` builds it (harness/run/plan/kernels.c), by
	# the same script (a copy of kmod/'s sources, kept while they are not
	# newer): a run of that kernel later uses this build, not one of its own.
	b="$ROOT/vm-images/build/kmod-$label-$kver"
	"$ROOT/vm-images/build-kmod.sh" "$b" "$kdir" || fail "$label: module build failed"
	if grep -E 'warning:' "$b/build.log"; then fail "$label: module build has warnings"; fi
	expect_eq "$label vermagic" "$(modinfo -F vermagic "$b/htab_torture.ko" | cut -d' ' -f1)" "$kver"
	ns=$(awk -F'\t' '$2 == "bpf_map_get" { print $5; exit }' "$kdir/Module.symvers")
	expect_eq "$label import_ns" "$(modinfo -F import_ns "$b/htab_torture.ko")" "$ns"
	for p in workload max_entries duration_ms cpus callers tasks_per_cpu; do
		modinfo -F parm "$b/htab_torture.ko" | grep -q "^$p:" || fail "$label: no parameter $p"
	done
	echo "ok: $label parameters"
	built=$((built + 1))
done
[ "$built" -gt 0 ] || fail "no distro kernel installed (make deps)"
# make deps fetches every line's kernels: on the kit's own machines all are tested.
expect_eq "distro kernels built for" "$built" "$("$kl" labels | wc -l)"
