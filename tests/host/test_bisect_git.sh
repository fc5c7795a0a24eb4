#!/bin/bash
# htab-torture bisect --kernel-tree DIR --range GOOD..BAD without a kernel
# or a guest: a tiny fake kernel git repo, a fake `make` first on PATH
# (olddefconfig; bzImage modules writes the files a build leaves, its
# "bzImage" the source file itself, and fails on a source that says
# BREAK; M= writes a module) and HTAB_BISECT_RUN a fake `htab-torture run`
# that checks the --kernel-image and --module it is given exist and makes
# every cell CRASH when the image says BUG. Checked: the steps listed
# from the range with commit ids and subjects, the step found, the user's
# checkout untouched (dirty, HEAD and branch as they were), a step that
# does not build UNDECIDED (never bad; 125 with --test-step) with its log
# named, resume after kill -9 without rebuilding a built step, a build
# waiting for one a killed bisect left running (OUT/tree.lock), and the
# CLI's errors.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir bisect_git)
SIG="WARNING: percpu_freelist: element reinserted"

mkdir -p "$d/bin"
cat > "$d/bin/make" <<'EOS'
#!/bin/bash
dir=. m= targets=()
while [ $# -gt 0 ]; do
	case $1 in -C) dir=$2; shift ;; M=*) m=${1#M=} ;; -j*) ;; *) targets+=("$1") ;; esac
	shift
done
cd "$dir" || exit 2
echo "make ${targets[*]}${m:+ M}" >> "$FAKE_LOG"
if [ -n "$m" ]; then
	[ -f include/config/kernel.release ] || { echo "no kernel.release" >&2; exit 2; }
	echo "module for $(cat include/config/kernel.release)" > "$m/htab_torture.ko"
	exit 0
fi
case ${targets[*]} in
olddefconfig) [ -f .config ] || { echo "no .config" >&2; exit 2; }; exit 0 ;;
"bzImage modules") ;;
*) echo "fake make: unexpected targets '${targets[*]}'" >&2; exit 2 ;;
esac
if grep -q BREAK kernel/bpf/percpu_freelist.c; then
	echo "kernel/bpf/percpu_freelist.c:1: error: BREAK" >&2
	exit 2
fi
mkdir -p arch/x86/boot include/config
cp kernel/bpf/percpu_freelist.c arch/x86/boot/bzImage
echo "ffffffff81000000 T _text" > System.map
[ -e vmlinux ] && { echo "vmlinux still there: a step's hard link would be written through" >&2; exit 2; }
cp kernel/bpf/percpu_freelist.c vmlinux
echo 6.1.0-fake > include/config/kernel.release
: > Module.symvers
EOS

cat > "$d/fake-run" <<'EOS'
#!/bin/bash
kernel= out= image= module=
while [ $# -gt 0 ]; do
	case $1 in --kernel) kernel=$2; shift ;; --out) out=$2; shift ;;
	--kernel-image) image=$2; shift ;; --module) module=$2; shift ;;
	--kernel-release) [ "$2" = 6.1.0-fake ] || exit 2; shift ;; esac
	shift
done
[ -f "$image" ] && [ -f "$module" ] || { echo "fake run: no image '$image' or module '$module'" >&2; exit 2; }
r=${out##*/round-}
echo "run $kernel $r" >> "$FAKE_LOG"
mkdir -p "$out"
for i in 1 2 3 4; do
	c=$out/v2-full_update-$kernel-none-r$((i - 1))
	[ -f "$c/cell.json" ] && continue
	sleep "${FAKE_SLEEP:-0}"
	if grep -q BUG "$image"; then v=CRASH s=$FAKE_SIG; else v=PASS s=; fi
	mkdir -p "$c"
	cp "$FAKE_MODULE" "$c/module.json"
	jq -n --arg c "${c##*/}" --arg k "$kernel" --arg v "$v" --arg s "$s" \
		'{cell: $c, vcpus: 2, workload: "full_update", kernel: $k, noise: "none",
		  repeat: 0, accel: "tcg", verdict: $v, signature: $s}' > "$c/cell.json"
done
EOS
chmod +x "$d/bin/make" "$d/fake-run"
export PATH=$d/bin:$PATH HTAB_BISECT_RUN=$d/fake-run FAKE_LOG=$d/calls FAKE_SIG=$SIG \
	FAKE_MODULE=$ROOT/tests/fixtures/module/full_update_v2_tcg.json

# The fake kernel: GOOD, then h1 h2 BUG h3 on master; on branch broken: h1,
# a commit that does not build, its fix with the BUG, h3.
k=$d/linux
mkdir -p "$k/kernel/bpf"
g() { git -C "$k" -c user.name=t -c user.email=t@example.invalid "$@"; }
ci() { echo "$1" >> "$k/kernel/bpf/percpu_freelist.c"; g add -A; g commit -q -m "$2"; }
g init -q -b master
printf '.config\narch/\ninclude/\nSystem.map\nvmlinux\nModule.symvers\n' > "$k/.gitignore"
ci "// good" "GOOD: the base"
good=$(g rev-parse HEAD)
echo CONFIG_FAKE=y > "$k/.config"
ci "// h1" "bpf: a comment (h1)"
ci "// h2" "bpf: a comment (h2)"
ci "// BUG" "bpf: the bug"
bug=$(g rev-parse HEAD)
ci "// h3" "bpf: a comment (h3)"
g checkout -q -b broken "$good"
ci "// h1" "bpf: a comment (h1)"
ci "// BREAK" "bpf: does not build"
sed -i 's|^// BREAK$|// BUG|' "$k/kernel/bpf/percpu_freelist.c"; g commit -q -am "bpf: the build fix, with the bug"
ci "// h3" "bpf: a comment (h3)"
broken_step=$(g rev-parse HEAD~2)
g checkout -q master
echo "// a local edit" >> "$k/kernel/bpf/percpu_freelist.c"	# dirty: bisect never touches it
state() { echo "$(g rev-parse HEAD) $(g symbolic-ref HEAD) $(g status --porcelain | tr '\n' ' ')"; }
before=$(state)

bisect() {	# NAME ARGS...: bisect into $d/NAME, stdout NAME.out, stderr NAME.err; $? its exit
	local n=$1; shift
	: > "$d/calls"
	"$HT" bisect --kernel-tree "$k" --out "$d/$n" "$@" > "$d/$n.out" 2> "$d/$n.err"
}
builds() { grep -c '^make bzImage modules$' "$d/calls"; }
runs() { grep -c '^run ' "$d/calls"; }

# 1. The steps of the range, the first bad commit.
bisect det --range "$good..master" --signature reinserted -- --cpus 2
rc=$?
cat "$d/det.out"
expect_eq "det: exit" "$rc" 0
expect_eq "det: steps (commits of the range)" "$(jq -r '[.steps[].commit] | join(" ")' "$d/det/bisect.json")" \
	"$good $(g rev-list --reverse --first-parent "$good..master" | tr '\n' ' ' | sed 's/ $//')"
expect_eq "det: subjects" "$(jq -r '[.steps[].subject] | join("|")' "$d/det/bisect.json")" \
	"GOOD: the base|bpf: a comment (h1)|bpf: a comment (h2)|bpf: the bug|bpf: a comment (h3)"
expect_eq "det: verdict" "$(jq -c .verdict "$d/det/bisect.json")" \
	"{\"kind\":\"first_bad\",\"step\":3,\"commit\":\"$bug\",\"subject\":\"bpf: the bug\"}"
expect_eq "det: last line" "$(tail -n 1 "$d/det.out" | cut -d'(' -f1)" "bisect: first bad step 3: ${bug:0:12} bpf: the bug "
expect_eq "det: head" "$(jq -c '[.kernel_tree, .range, .good, .bad]' "$d/det/bisect.json")" \
	"[\"$k\",\"$good..master\",\"$good\",\"$(g rev-parse master)\"]"
expect_eq "det: step 3's kernel" "$(jq -r .steps[3].kernel "$d/det/bisect.json")" "git-${bug:0:12}"
expect_eq "det: tested" "$(jq -c .tested "$d/det/bisect.json")" '["4 BAD","2 GOOD","3 BAD"]'
expect_eq "det: builds (the steps tested and GOOD)" "$(builds)" 4
for f in bzImage System.map vmlinux kernel.release config kmod/htab_torture.ko step.json; do
	[ -f "$d/det/steps/3/$f" ] || fail "det: no steps/3/$f"
done
grep -q BUG "$d/det/steps/3/bzImage" && ! grep -q BUG "$d/det/steps/2/bzImage" ||
	fail "det: the steps' images are not their commits' (a later build wrote through)"
grep -q BUG "$d/det/steps/3/vmlinux" && ! grep -q BUG "$d/det/steps/2/vmlinux" ||
	fail "det: the kept vmlinux of a step was written through"
expect_eq "det: the user's checkout" "$(state)" "$before"
[ "$(g worktree list | wc -l)" = 1 ] || fail "det: a worktree was added to the user's repo"
echo "ok: the user's tree untouched (dirty, on master)"

# 2. Resume: a third command runs and builds nothing; a kill -9 mid-way,
# then the rerun finds the same commit without rebuilding what was built.
bisect det --range "$good..master" --signature reinserted -- --cpus 2
expect_eq "rerun: exit" "$?" 0
expect_eq "rerun: builds" "$(builds)" 0
expect_eq "rerun: runs" "$(runs)" 0
: > "$d/calls"
FAKE_SLEEP=0.2 kill9_after_rounds "$d/resume" 3 "$d/resume1.out" "$d/resume1.err" \
	bisect --kernel-tree "$k" --out "$d/resume" --range "$good..master" --signature reinserted -- --cpus 2
built_before=$(ls "$d"/resume/steps/*/step.json | wc -l)
expect_cmp "resume: steps built before the kill" "$built_before" ">=" 2
bisect resume --range "$good..master" --signature reinserted -- --cpus 2
rc=$?
cat "$d/resume.out"
expect_eq "resume: exit" "$rc" 0
expect_eq "resume: same verdict" "$(jq -c .verdict "$d/resume/bisect.json")" "$(jq -c .verdict "$d/det/bisect.json")"
expect_eq "resume: builds only the steps not built before" "$(builds)" $((4 - built_before))
grep -q 'of the runs reused from OUT' "$d/resume.out" || fail "resume: no step said its rounds were reused"

# A build still running in OUT/tree (a killed bisect's make) holds
# OUT/tree.lock: the next build waits for it.
mkdir -p "$d/locked"
flock "$d/locked/tree.lock" sh -c 'sleep 2; echo "released" >> "$FAKE_LOG"' &
lock_pid=$!
sleep 0.3
bisect locked --range "$good..master" --signature reinserted --test-step 3 -- --cpus 2
expect_eq "locked: test-step 3 bad" "$?" 1
wait $lock_pid
expect_eq "locked: the first build after the lock's release" "$(grep -m 2 '^make \|^released' "$d/calls" | tr '\n' ,)" \
	"released,make olddefconfig,"

# 3. A step that does not build: UNDECIDED with its log, never bad.
bisect broken --range "$good..broken" --signature reinserted -- --cpus 2
rc=$?
cat "$d/broken.out"
expect_eq "broken: exit (undecided)" "$rc" 1
expect_eq "broken: verdict" "$(jq -c .verdict "$d/broken/bisect.json")" '{"kind":"undecided","range":[2,3]}'
expect_eq "broken: step 2" "$(jq -c '.steps[2] | [.commit, .decision, .runs, .build_failed]' "$d/broken/bisect.json")" \
	"[\"$broken_step\",\"UNDECIDED\",0,\"$d/broken/steps/2/build.log\"]"
grep -q "^step 2/4 (${broken_step:0:12} bpf: does not build): UNDECIDED: it does not build (log: $d/broken/steps/2/build.log)$" \
	"$d/broken.out" || fail "broken: step 2's line: $(grep '^step 2' "$d/broken.out")"
grep -q "error: BREAK" "$d/broken/steps/2/build.log" || fail "broken: the log lacks make's error"
grep -q "bisect: step 2 (${broken_step:0:12} bpf: does not build) does not build (exit 2; log: $d/broken/steps/2/build.log): UNDECIDED" \
	"$d/broken.err" || fail "broken: stderr does not name the step and its log"
bisect broken-ts --range "$good..broken" --signature reinserted --test-step 2 -- --cpus 2
expect_eq "test-step of a step that does not build: skip" "$?" 125
bisect broken-ts --range "$good..broken" --signature reinserted --test-step 3 -- --cpus 2
expect_eq "test-step 3: bad" "$?" 1
bisect broken-ts --range "$good..broken" --signature reinserted --test-step 1 -- --cpus 2
expect_eq "test-step 1: good" "$?" 0
bisect broken-ts --range "$good..broken" --signature reinserted --test-step 5 -- --cpus 2
expect_eq "test-step out of range: skip" "$?" 125
grep -q "error: --test-step 5: the range has steps 1..4" "$d/broken-ts.err" || fail "test-step 5: $(cat "$d/broken-ts.err")"
# GOOD that does not build: nothing to compare with, a setup error.
bisect badbase --range "$broken_step..broken" --signature reinserted -- --cpus 2
expect_eq "GOOD does not build: exit" "$?" 2
grep -q "error: step 0 (GOOD, ${broken_step:0:12} bpf: does not build) does not build" "$d/badbase.err" ||
	fail "GOOD does not build: $(cat "$d/badbase.err")"

# 4. Bad input: one line naming the value and what is valid, exit 2.
o=(--out "$d/bad" --signature x)
plain=$(mktemp -d)	# outside the kit's own checkout
trap 'rm -rf "$plain"' EXIT
mkdir -p "$k/sub"
usage_error "--kernel-tree '$plain': not a git work tree" bisect --kernel-tree "$plain" --range a..b "${o[@]}"
usage_error "--kernel-tree '$k/sub': not the top of its git work tree (that is $k)" bisect --kernel-tree "$k/sub" --range a..b "${o[@]}"
usage_error "--range 'master': must be GOOD..BAD" bisect --kernel-tree "$k" --range master "${o[@]}"
usage_error "--range '$good...master': must be GOOD..BAD" bisect --kernel-tree "$k" --range "$good...master" "${o[@]}"
usage_error "--range 'nope..master': 'nope' is not a commit of $k" bisect --kernel-tree "$k" --range nope..master "${o[@]}"
usage_error "--range 'master..master': empty" bisect --kernel-tree "$k" --range master..master "${o[@]}"
usage_error "--range 'master..broken': master is not an ancestor of broken" bisect --kernel-tree "$k" --range master..broken "${o[@]}"
usage_error "--series '$d' and --kernel-tree '$k': give one" bisect --series "$d" --kernel-tree "$k" --range a..b "${o[@]}"
usage_error "--base-variant 'fixed' goes with --series" bisect --kernel-tree "$k" --range a..b --base-variant fixed "${o[@]}"
usage_error "--range 'a..b' goes with --kernel-tree DIR" bisect --range a..b "${o[@]}"
usage_error "--kernel-tree '$k' needs --range GOOD..BAD" bisect --kernel-tree "$k" "${o[@]}"
usage_error "run option '--module' after --: bisect --kernel-tree builds each step's module itself" \
	bisect --kernel-tree "$k" --range a..b "${o[@]}" -- --module /x.ko
usage_error "run option '--kernel-image' after --" bisect --kernel-tree "$k" --range a..b "${o[@]}" -- --kernel-image /x
mv "$k/.config" "$k/.config.away"
usage_error "--kernel-tree '$k': no .config" bisect --kernel-tree "$k" --range "$good..master" "${o[@]}"
mv "$k/.config.away" "$k/.config"
bisect det --range "$good..broken" --signature reinserted -- --cpus 2
expect_eq "another range on the same OUT: refused" "$?" 2
grep -q "holds a bisect of" "$d/det.err" || fail "another range: $(cat "$d/det.err")"
expect_eq "the user's checkout at the end" "$(state)" "$before"
