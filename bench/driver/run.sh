#!/bin/bash
# bench/driver — does our in-kernel driver (htab_torture.ko full_update) push
# the seed-000 path as fast as the seed's own method (a BPF program running
# bpf_loop() map updates, here bench/libbpf/full_update_driver), and what did
# each part of the module's hot loop cost?
# One guest, REPEATS interleaved rounds of every program below
# (bench/driver/job.sh); prints per-CPU events/s of each (mean ± sd over
# rounds), each program's ratio to the driver, and the module's ratio to its
# own variants (this tree with one change undone, and the module as it was at
# BEFORE_REV), with bootstrap CIs and paired per-round ratios (`htab-torture
# stats`).
#   module ev/s: update calls / kthread run time, per bound kthread (ktime);
#     a step of 64 calls runs under one RCU read section + migrate_disable,
#     cond_resched() between steps, the deadline read every 8 steps.
#   driver ev/s: updates / ns spent inside bpf_loop() on that CPU — excludes
#     the getpgid() syscall and tracepoint entry that start each program run.
# Usage: bench/driver/run.sh [VCPUS=4] [REPEATS=5] [DURATION_S=3] [OUT]
# DRIVER_PROGS="mod0 drv ..." picks programs (default: all of the table but
# alt: ALT_KO=path of a module built elsewhere, an experiment, ALT_LABEL=text);
# BEFORE_REV=rev (default 8c28c5e^, the module before issue 13's changes).
# BENCH_REUSE=1 re-summarises OUT's last guest run without booting.
. "$(dirname "$0")/../lib/guest.sh"
vcpus=${1:-4} reps=${2:-5} dur=${3:-3} out=${4:-$BENCH_ROOT/bench/out/driver}
entries=10000
before_rev=${BEFORE_REV:-8c28c5e^}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 2	# kbuild's M= and the guest want it absolute
cell=$out/cell

# The programs: name, module (kit: this tree's; packed: this tree's built
# with -DHT_PACKED_THREADS; before: kmod/ at BEFORE_REV; -: the BPF driver),
# module parameters, label.
table="mod0	kit	time_ops=0	module time_ops=0
mod1	kit	time_ops=1	module time_ops=1 (default sampling)
op	kit	time_ops=0,per_op_rcu=1	module time_ops=0, RCU section per op
packed	packed	time_ops=0	module time_ops=0, threads packed
before	before	time_ops=0,time_sample=1	module time_ops=0 at $before_rev
drv	-	-	full_update_driver (bpf_loop)
alt	alt	time_ops=0	${ALT_LABEL:-module time_ops=0 at ALT_KO}
busy	(mod0)	-	module time_ops=0, ops per s inside steps"
label() { awk -F'\t' -v n="$1" '$1 == n { print $4 }' <<< "$table"; }

# build_module KIND DIR: a copy of kmod/ (KIND packed: with
# -DHT_PACKED_THREADS; before: from git at BEFORE_REV) built in DIR
build_module() {
	local kind=$1 dir=$2 kdir flags
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	case $kind in
	packed) cp "$BENCH_ROOT"/kmod/*.[ch] "$BENCH_ROOT"/kmod/Kbuild "$BENCH_ROOT"/kmod/Makefile "$dir"/ ;;
	before) git -C "$BENCH_ROOT" archive "$before_rev" kmod | tar -x -C "$dir" --strip-components=1 ||
		{ echo "bench/driver: no kmod/ at BEFORE_REV=$before_rev (a git checkout is needed)" >&2; return 1; } ;;
	esac
	kdir=/usr/src/linux-headers-$(make -s -C "$BENCH_ROOT" print-kver)
	flags=
	[ "$kind" = packed ] && flags=-DHT_PACKED_THREADS
	make -s -C "$kdir" M="$dir" KCFLAGS="$flags" modules > "$dir/build.log" 2>&1 ||
		{ echo "bench/driver: building the $kind module failed: $dir/build.log" >&2; return 1; }
}

if [ -z "${BENCH_REUSE:-}" ]; then
	names=${DRIVER_PROGS:-$(cut -f1 <<< "$table" | grep -vxE 'alt|busy' | paste -sd' ')}
	progs=
	for n in $names; do
		row=$(awk -F'\t' -v n="$n" '$1 == n' <<< "$table")
		[ -n "$row" ] || { echo "bench/driver: unknown program '$n' in DRIVER_PROGS; valid: $(cut -f1 <<< "$table" | paste -sd' ')" >&2; exit 2; }
		kind=$(cut -f2 <<< "$row") params=$(cut -f3 <<< "$row")
		case $kind in
		kit) ko=$BENCH_ROOT/kmod/htab_torture.ko ;;
		alt) ko=${ALT_KO:?alt needs ALT_KO=path of a built htab_torture.ko (an experiment)} ;;
		-) ko=- ;;
		*) build_module "$kind" "$out/kmod-$kind" || exit 1; ko=$out/kmod-$kind/htab_torture.ko ;;
		esac
		progs="$progs $n:$ko:$params"
	done
	boot_guest "$vcpus" "$cell" "$BENCH_ROOT/bench/driver/job.sh" $((120 + reps * dur * 6 * 8)) \
		REPEATS="$reps" DURATION="$dur" ENTRIES="$entries" LIBBPF_DIR="$BENCH_ROOT/bench/libbpf" \
		PROGS="${progs# }"
	rc=$?
	[ $rc -eq 0 ] || { echo "bench/driver: guest exit $rc; see $cell/console.log $cell/guest.log" >&2; exit 1; }
fi
# samples: {prog, rep, cpu, evs}
{
	for f in "$cell"/r*_*.json; do
		b=$(basename "$f" .json)
		r=${b%%_*}
		jq -c --arg p "${b#*_}" --argjson r "${r#r}" \
			'.per_cpu[] | {prog: $p, rep: $r, cpu, evs: .ops_per_sec}' "$f"
		# mod0 also by the driver's own measure: ops per second inside
		# the steps (the time yielded to other tasks left out)
		[ "${b#*_}" = mod0 ] && jq -c --argjson r "${r#r}" \
			'.per_cpu[] | select(.ops_per_busy_sec) | {prog: "busy", rep: $r, cpu, evs: .ops_per_busy_sec}' "$f"
	done
	for f in "$cell"/r*_*.out; do
		b=$(basename "$f" .out)
		r=${b%%_*}
		sed -nE 's/^([0-9]+):hash_map_full_perf ([0-9]+) events per sec$/\1 \2/p' "$f" |
		while read -r c e; do echo "{\"prog\":\"${b#*_}\",\"rep\":${r#r},\"cpu\":$c,\"evs\":$e}"; done
	done
} > "$out/samples.ndjson"
progs=$(jq -rs 'map(.prog) | unique | .[]' "$out/samples.ndjson" |
	awk 'NR == FNR { o[$1] = NR; next } { print (o[$1] ? o[$1] : 99), $1 }' <(cut -f1 <<< "$table") - |
	sort -n | cut -d' ' -f2 | paste -sd' ')
kernel=$(jq -r .kernel_release "$(ls "$cell"/r1_*.json | head -n 1)")
echo "# bench/driver: $(date -u -r "$cell/exit_status" +%FT%TZ), host $(nproc) cores, accel $(guest_accel), $vcpus vCPUs, kernel $kernel, $(host_load "$cell")" | tee "$out/summary.txt"
echo "# map hash prealloc max_entries $entries value 16 B, full; updates of absent keys (all E2BIG); $reps interleaved rounds of $dur s each" | tee -a "$out/summary.txt"
labels=$(for p in $progs; do jq -n --arg p "$p" --arg l "$(label "$p")" '{($p): (if $l == "" then $p else $l end)}'; done | jq -sc add)
# the numbers: htab-torture stats over rounds (the mean over CPUs of a round),
# and per CPU over rounds
round_means() { jq -sc 'group_by(.prog, .rep)[] | {group: .[0].prog, rep: .[0].rep, value: (map(.evs) | add / length)}' "$out/samples.ndjson"; }
base=drv
[[ " $progs " == *" drv "* ]] || base=${progs%% *}
round_means | "$HT_BIN" stats --json --base "$base" > "$out/stats.json" || exit 1
jq -c '{group: "\(.prog) \(.cpu)", rep, value: .evs}' "$out/samples.ndjson" |
	"$HT_BIN" stats --json > "$out/stats_per_cpu.json" || exit 1
# mod0 against each of its variants: stats with that variant as the base
for v in op packed before alt; do
	[[ " $progs " == *" $v "* && " $progs " == *" mod0 "* ]] || continue
	round_means | jq -c --arg v "$v" 'select(.group == $v or .group == "mod0")' |
		"$HT_BIN" stats --json --base "$v" > "$out/stats_vs_$v.json" || exit 1
done
jq -r --slurpfile percpu "$out/stats_per_cpu.json" --argjson L "$labels" --arg progs "$progs" --arg base "$base" '
	def f: if . == null then "-" else . * 1000 | round / 1000 end;
	def ms: "\(.mean | round) ± \(.sd | round)";
	def pad(n): . + " " * ([n - length, 1] | max);
	def byname: map({key: .group, value: .}) | from_entries;
	($progs | split(" ")) as $P | (.ci_level * 100 | round) as $ci
	| (.groups | byname) as $R | ($percpu[0].groups | byname) as $C
	| ($C | keys | map(select(startswith($P[0] + " ")) | ltrimstr($P[0] + " ") | tonumber) | sort) as $cpus
	| "program                                         per-CPU ev/s (mean ± sd over rounds)",
	  "units                                           updates/s per CPU",
	  ($P[] | "\($L[.] | pad(48))\($R[.] | ms)"),
	  "",
	  "per CPU (mean ± sd over rounds), updates/s",
	  ("cpu   " + ($P | map(pad(22)) | join(""))),
	  ($cpus[] as $c | "\($c)     " + ($P | map($C["\(.) \($c)"] | ms | pad(22)) | join(""))),
	  "",
	  ($P[] | select(. != $base) as $o | $R[$o] as $q
	   | "ratio \($L[$o]) / \($L[$base]): \($q.ratio | f) (\($ci)% bootstrap CI \($q.ratio_ci[0] | f) .. \($q.ratio_ci[1] | f)); paired per round \($q.paired.mean | f) ± \($q.paired.sd | f)")
	' "$out/stats.json" | tee -a "$out/summary.txt"
for v in op packed before alt; do
	[ -e "$out/stats_vs_$v.json" ] || continue
	jq -r --argjson L "$labels" --arg v "$v" '
		def f: if . == null then "-" else . * 1000 | round / 1000 end;
		(.groups[] | select(.group == "mod0")) as $q
		| "ratio \($L.mod0) / \($L[$v]): \($q.ratio | f) (\(.ci_level * 100 | round)% bootstrap CI \($q.ratio_ci[0] | f) .. \($q.ratio_ci[1] | f)); paired per round \($q.paired.mean | f) ± \($q.paired.sd | f)"
		' "$out/stats_vs_$v.json" | tee -a "$out/summary.txt"
done
