#!/bin/bash
# `htab-torture bisect --kernel-tree DIR --range GOOD..BAD` on a real kernel
# (issue 26, item 2): a git repo made from a copy of an already built tree
# (GOOD: the tree as built, the kernel's own .gitignore keeping build
# products out), then four commits to kernel/bpf/percpu_freelist.c: two
# comments, mut-lost-push's patch (the planted bug), one more comment. The
# bisect must name the mutant's commit, step 3 of 4, by its FAIL signature.
# The copy's own build products are never used by the bisect: it builds in
# its clone OUT/bisect/tree, the first step cold, the others incrementally.
#
# Usage: bench/bisect_git_proof.sh (run it through htab-shared: it builds
# kernels and boots guests)
# Environment: BISECT_GIT_SRC (a built kernel tree, default
# vm-images/build/tree-6.1-fixed), BISECT_OUT (default
# results/bisect-git-proof-DATE), BISECT_ARGS (more `bisect` options).
# A rerun on the same BISECT_OUT keeps the repo and resumes the bisect.
# Exit: 0 the mutant's commit was found, 1 not, 2 the proof could not run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

src=${BISECT_GIT_SRC:-vm-images/build/tree-6.1-fixed}
out=${BISECT_OUT:-results/bisect-git-proof-$(date +%Y%m%d-%H%M%S)}
mutant=$(ls vm-images/kernels/mutants/mut-lost-push/patches/*.patch)
f=kernel/bpf/percpu_freelist.c
die() { echo "bisect-git-proof: $*" >&2; exit 2; }
[ -f "$src/arch/x86/boot/bzImage" ] && [ -f "$src/.config" ] ||
	die "$src is not a built kernel tree (no arch/x86/boot/bzImage or .config)"
[ -f "$src/$f" ] || die "$src has no $f"
g() { git -C "$out/linux" -c user.name="bisect proof" -c user.email=proof@htab-torture.invalid "$@"; }
commit() { g add -A && g commit -q -m "$1" || die "cannot commit '$1'"; }
mkdir -p "$out" || die "cannot make $out"
t0=$(date +%s)
if [ -d "$out/linux/.git" ]; then
	# a rerun on the same BISECT_OUT: the repo is kept and the bisect resumes
	[ "$(g log --format=%s | grep -c 'harmless comment\|mut-lost-push')" = 4 ] ||
		die "$out/linux is not this proof's repo: give another BISECT_OUT"
	want=$(g log --format=%H --grep='mut-lost-push' -1)
else
	[ -e "$out/linux" ] && die "$out/linux exists and is not a git repo: give another BISECT_OUT"
	cp -a --reflink=auto "$src" "$out/linux" || die "cannot copy $src"
	rm -rf "$out/linux/.git"
	g init -q || die "git init failed"
	# Debian's linux-source adds "ignore everything at the top level" for its
	# packaging: without it the kernel's own rules keep the build products out.
	sed -i '/^# Debian packaging/,/^!\/debian\/$/d' "$out/linux/.gitignore"
	commit "GOOD: $(basename "$src") as built"
	[ -n "$(g ls-files kernel/bpf/percpu_freelist.c)" ] && [ -z "$(g ls-files vmlinux .config)" ] ||
		die "the GOOD commit does not hold the sources without the build products"
	sed -i '1a // bisect proof: a harmless comment (1 of 3)' "$out/linux/$f"
	commit "bpf: percpu_freelist: a harmless comment (1 of 3)"
	sed -i '2a // bisect proof: a harmless comment (2 of 3)' "$out/linux/$f"
	commit "bpf: percpu_freelist: a harmless comment (2 of 3)"
	patch -s -p1 -d "$out/linux" < "$mutant" || die "$mutant does not apply"
	commit "bpf: percpu_freelist: mut-lost-push (the planted bug)"
	want=$(g rev-parse HEAD)
	echo '// bisect proof: a harmless comment (3 of 3)' >> "$out/linux/$f"
	commit "bpf: percpu_freelist: a harmless comment (3 of 3)"
fi
good=$(g rev-list --max-parents=0 HEAD)
echo "bisect-git-proof: $out/linux: $(g rev-list --count "$good..HEAD") commits after GOOD ${good:0:12}; want ${want:0:12} (made in $(($(date +%s) - t0)) s)"
g log --reverse --format='  %h %s' "$good..HEAD"

t1=$(date +%s)
# shellcheck disable=SC2086
./harness/htab-torture bisect --kernel-tree "$out/linux" --range "$good..HEAD" \
	--signature reinserted --out "$out/bisect" ${BISECT_ARGS:-} \
	-- --cpus 4 --workload full_update --repeat 2 --duration 3 --bpftrace none
rc=$?
wall=$(($(date +%s) - t1))
found=$(jq -r '.verdict.commit // .verdict.kind // "nothing"' "$out/bisect/bisect.json" 2> /dev/null)
echo "bisect-git-proof: bisect exit $rc, wall $wall s; expected ${want:0:12}, found ${found:0:12}"
for k in $(jq -r '.steps[].step' "$out/bisect/bisect.json" 2> /dev/null); do
	jq -r --argjson k "$k" '.steps[$k] | "  step \(.step) \(.commit[0:12]) \(.decision): \(.runs) runs, \([.rounds[].cells] | add // 0) cells, wall \(.wall_s // 0 | floor) s"' \
		"$out/bisect/bisect.json"
done
[ "$found" = "$want" ] || exit 1
