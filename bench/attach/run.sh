#!/bin/bash
# bench/attach — where an observer's start-up goes in a guest just restored
# (issue 27 item 3). Per vCPU count, interleaved rounds of four guests, each
# restored from the same snapshot: bpftrace (LLVM) on the pop script's
# fentry form (what Debian's kernels run) and bpftrace-aotrt on the kprobe
# form compiled ahead of time, each cold (its files first read over the 9p
# host root by the run itself) and after a preread (its binary and
# libraries read into the page cache first, not run). Each guest runs the
# engine twice. Prints per size and engine the median (min-max) seconds
# until live of the first run cold, the first run after the preread, the
# second run, the preread itself, and the preread/cold ratio of first runs
# with its bootstrap CI (`htab-torture stats`). So:
#   9p I/O of a first run   ~ first cold - first after preread
#   the rest of a first run ~ first after preread - second run (TCG
#                             translating the engine's code, first faults)
#   what stays every run    ~ second run (LLVM compile, attach)
# Usage: bench/attach/run.sh [SIZES="16 96"] [ROUNDS=3] [OUT]
# BENCH_REUSE=1 prints OUT's table again without booting.
# The guest is the default kernel (Debian's 6.1); RUN_ARGS="--kernel X"
# names another (its snapshot, its kernel: the fentry form needs BTF).
. "$(dirname "$0")/../lib/guest.sh"
sizes=${1:-16 96} rounds=${2:-3} out=${3:-$BENCH_ROOT/bench/out/attach}
case $rounds in '' | *[!0-9]* | 0*)
	echo "bench/attach: ROUNDS '$rounds': a positive integer" >&2; exit 2 ;;
esac
for n in $sizes; do
	case $n in '' | *[!0-9]* | 0*)
		echo "bench/attach: SIZES '$sizes': positive vCPU counts" >&2; exit 2 ;;
	esac
done
fe=$BENCH_ROOT/bpftrace/__pcpu_freelist_pop_fentry.bt
kp=$BENCH_ROOT/bpftrace/__pcpu_freelist_pop.bt
if [ -z "${BENCH_REUSE:-}" ]; then
	rm -rf "$out"
	mkdir -p "$out" || exit 2
	echo "$(date -u +%FT%TZ) $(cut -d' ' -f1-3 /proc/loadavg)" > "$out/started.txt"
fi
read -r t0 load0 < "$out/started.txt" || { echo "bench/attach: no run in $out" >&2; exit 2; }

# guest SIZE NAME ENGINE MODE ROUND: one restored guest; its lines into samples
guest() {
	local c=$out/$2 rc
	boot_guest "$1" "$c" "$BENCH_ROOT/bench/attach/job.sh" 600 ENGINE="$3" MODE="$4" \
		SCRIPT="$([ "$3" = compile ] && echo "$kp" || echo "$fe")" PROG="$out/aot.prog" RUNS=2
	rc=$?
	if [ $rc -ne 0 ] || [ ! -s "$c/attach.ndjson" ]; then
		echo "bench/attach: guest $2: exit $rc; see $c/console.log, $c/guest.log" >&2
		return 1
	fi
	jq -c --argjson v "$1" --arg e "$3" --arg m "$4" --argjson r "$5" \
		'. + {vcpus: $v, engine: $e, mode: $m, round: $r}' "$c/attach.ndjson" >> "$out/samples.ndjson"
	echo "  $2: $(jq -r 'to_entries | map("\(.key) \(.value)") | join(", ")' "$c/attach.ndjson" |
		paste -sd';' -) ($(host_load "$c"))"
}

[ -n "${BENCH_REUSE:-}" ] || {
echo "bench/attach: $t0, host $(nproc) cores, accel $(guest_accel), vCPUs $sizes, $rounds rounds; load $load0"
# Warm-up: the snapshot of each size, and the AOT program (compiled once).
first=1
for n in $sizes; do
	if [ -n "$first" ]; then
		guest "$n" "warmup-v$n" compile cold 0 || exit 1
		cp "$out/warmup-v$n/aot.prog" "$out/aot.prog" || exit 1
		first=
	else
		guest "$n" "warmup-v$n" bpftrace cold 0 || exit 1
	fi
done
combos=(bpftrace:cold aot:cold bpftrace:preread aot:preread)
for ((r = 1; r <= rounds; r++)); do
	for n in $sizes; do
		for ((k = 0; k < 4; k++)); do
			x=${combos[$(((k + r) % 4))]}
			guest "$n" "${x%:*}-${x#*:}-v$n-r$r" "${x%:*}" "${x#*:}" "$r" || exit 1
		done
	done
done
cut -d' ' -f1-3 /proc/loadavg > "$out/load_after.txt"
}

echo
echo "# bench/attach: $t0, host $(nproc) cores, accel $(guest_accel), $(bpftrace --version)," \
	"kernel $(jq -r .kernel_release "$out"/warmup-*/cell.json | head -n 1), load $load0 -> $(cat "$out/load_after.txt")" |
	tee "$out/summary.txt"
echo "# seconds until live in a guest just restored, median (min-max) of $rounds rounds (not the warm-ups);" \
	"bpftrace: $(basename "$fe"), aot: $(basename "$kp") compiled ahead of time" | tee -a "$out/summary.txt"
printf '| vCPUs | engine | first run, cold | first run after preread | second run | preread (KiB) | preread/cold first run, 95%% CI |\n|---|---|---|---|---|---|---|\n' |
	tee -a "$out/summary.txt"
for n in $sizes; do
	for e in bpftrace aot; do
		st=$(jq -c --argjson v "$n" --arg e "$e" \
			'select(.vcpus == $v and .engine == $e and .round > 0 and .run == 1 and .live_s != null)
			 | {group: .mode, rep: .round, value: .live_s}' "$out/samples.ndjson" |
			"$HT_BIN" stats --json --base cold 2> /dev/null)
		jq -rs --argjson v "$n" --arg e "$e" --argjson st "${st:-null}" '
			def med: sort | if length == 0 then null else .[length / 2 | floor] end;
			def f: if . == null then "-" else . * 100 | round / 100 | tostring end;
			def mm: if length == 0 then "-" else "\(med | f) (\(min | f)-\(max | f))" end;
			map(select(.vcpus == $v and .engine == $e and .round > 0)) as $s
			| [$s[] | select(.run == 1 and .mode == "cold") | .live_s | select(. != null)] as $c
			| [$s[] | select(.run == 1 and .mode == "preread") | .live_s | select(. != null)] as $p
			| [$s[] | select(.run == 2) | .live_s | select(. != null)] as $a
			| [$s[] | .preread_s | select(. != null)] as $r
			| ([$s[] | .preread_kib | select(. != null)] | max) as $kib
			| ($st.groups // [] | map(select(.group == "preread"))[0]) as $g
			| "| \($v) | \($e) | \($c | mm) | \($p | mm) | \($a | mm) | \($r | mm) (\($kib // "-")) | " +
			  (if $g == null then "-" else "\($g.ratio | f) [\($g.ratio_ci[0] | f), \($g.ratio_ci[1] | f)], p \($g.welch.p | f)" end) + " |"
		' "$out/samples.ndjson"
	done
done | tee -a "$out/summary.txt"
echo "(TCG results are emulated, not hardware)" | tee -a "$out/summary.txt"
