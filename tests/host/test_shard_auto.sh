#!/bin/bash
# --shard auto without a scheduler: each scheduler's variables set by hand
# give exactly the cells of the explicit --shard I/N (--plan-only prints the
# shard's cell ids), first, middle and last shards; stderr names the source;
# missing, inconsistent or out-of-range values are one line, exit 2.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir shard_auto)
# 15 cells: N that divide it and N that do not.
matrix=(run --plan-only --cpus 1-5 --workload full_update,churn,overwrite)

# sched VAR=VALUE... -- ARGS...: htab-torture ARGS with only these scheduler
# variables (the test itself may run under Slurm or GitHub Actions).
sched() {
	local vars=()
	while [ "$1" != -- ]; do vars+=("$1"); shift; done; shift
	env -u SLURM_ARRAY_TASK_ID -u SLURM_ARRAY_TASK_MIN -u SLURM_ARRAY_TASK_MAX \
		-u SLURM_ARRAY_TASK_COUNT -u SLURM_ARRAY_TASK_STEP -u JOB_COMPLETION_INDEX \
		-u GITHUB_ACTIONS -u HTAB_SHARD_INDEX -u HTAB_SHARD_COUNT "${vars[@]}" "$HT" "$@"
}

# same_plan I N LINE VAR=VALUE...: --shard auto under VARs plans what --shard I/N does, says LINE
same_plan() {
	local i=$1 n=$2 line=$3 want got err; shift 3
	want=$(sched -- "${matrix[@]}" --shard "$i/$n") || fail "--shard $i/$n"
	[ -n "$want" ] || fail "--shard $i/$n planned nothing"
	got=$(sched "$@" -- "${matrix[@]}" --shard auto 2> "$d/err") || fail "$* --shard auto: $(cat "$d/err")"
	err=$(cat "$d/err")
	expect_eq "$* plan" "$got" "$want"
	expect_eq "$* stderr" "$err" "$line"
}

for n in 1 2 4 15; do
	for i in 1 $(((n + 1) / 2)) "$n"; do
		k=$((i - 1))
		same_plan "$i" "$n" "shard $i/$n from Kubernetes (JOB_COMPLETION_INDEX=$k, HTAB_SHARD_COUNT=$n)" \
			JOB_COMPLETION_INDEX=$k HTAB_SHARD_COUNT=$n
		same_plan "$i" "$n" "shard $i/$n from GitHub Actions (HTAB_SHARD_INDEX=$k, HTAB_SHARD_COUNT=$n)" \
			GITHUB_ACTIONS=true HTAB_SHARD_INDEX=$k HTAB_SHARD_COUNT=$n
		same_plan "$i" "$n" "shard $i/$n from the environment (HTAB_SHARD_INDEX=$k, HTAB_SHARD_COUNT=$n)" \
			HTAB_SHARD_INDEX=$k HTAB_SHARD_COUNT=$n
		# --array=1-N, --array=0-(N-1), --array=5-(5+3(N-1)):3
		same_plan "$i" "$n" "shard $i/$n from Slurm (SLURM_ARRAY_TASK_ID=$i, SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_COUNT=$n)" \
			SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=$n
		same_plan "$i" "$n" "shard $i/$n from Slurm (SLURM_ARRAY_TASK_ID=$k, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_COUNT=$n, SLURM_ARRAY_TASK_STEP=1, SLURM_ARRAY_TASK_MAX=$((n - 1)))" \
			SLURM_ARRAY_TASK_ID=$k SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=$n \
			SLURM_ARRAY_TASK_STEP=1 SLURM_ARRAY_TASK_MAX=$((n - 1))
		same_plan "$i" "$n" "shard $i/$n from Slurm (SLURM_ARRAY_TASK_ID=$((5 + 3 * k)), SLURM_ARRAY_TASK_MIN=5, SLURM_ARRAY_TASK_COUNT=$n, SLURM_ARRAY_TASK_STEP=3, SLURM_ARRAY_TASK_MAX=$((5 + 3 * (n - 1))))" \
			SLURM_ARRAY_TASK_ID=$((5 + 3 * k)) SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_COUNT=$n \
			SLURM_ARRAY_TASK_STEP=3 SLURM_ARRAY_TASK_MAX=$((5 + 3 * (n - 1)))
	done
done
# Slurm before Kubernetes before GitHub Actions before HTAB_SHARD_INDEX alone.
same_plan 2 3 "shard 2/3 from Slurm (SLURM_ARRAY_TASK_ID=2, SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_COUNT=3)" \
	SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 \
	JOB_COMPLETION_INDEX=0 GITHUB_ACTIONS=true HTAB_SHARD_INDEX=0 HTAB_SHARD_COUNT=4
same_plan 1 4 "shard 1/4 from Kubernetes (JOB_COMPLETION_INDEX=0, HTAB_SHARD_COUNT=4)" \
	JOB_COMPLETION_INDEX=0 GITHUB_ACTIONS=true HTAB_SHARD_INDEX=2 HTAB_SHARD_COUNT=4

# error WANT VAR=VALUE...: --shard auto refused with one line holding WANT, nothing written
error() {
	local want=$1 err rc; shift
	err=$(sched "$@" -- run --cpus 2 --shard auto --out "$d/o" 2>&1 >/dev/null); rc=$?
	expect_eq "exit under $*" "$rc" 2
	[[ $err == "error: --shard auto: "*"$want"* ]] || fail "$*: '$err' lacks '$want'"
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "$*: more than one line: $err"
	echo "ok: $err"
}
error "none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX, GITHUB_ACTIONS=true, HTAB_SHARD_INDEX is set); valid: " \
	SLURM_JOB_ID=5 HTAB_SHARD_COUNT=3
error "Kubernetes (JOB_COMPLETION_INDEX=2): HTAB_SHARD_COUNT is not set" JOB_COMPLETION_INDEX=2
error "Kubernetes (JOB_COMPLETION_INDEX=4, HTAB_SHARD_COUNT=4): valid: 0 <= JOB_COMPLETION_INDEX < HTAB_SHARD_COUNT <= 10000" \
	JOB_COMPLETION_INDEX=4 HTAB_SHARD_COUNT=4
error "GitHub Actions (HTAB_SHARD_COUNT=4): HTAB_SHARD_INDEX is not set; the workflow sets them from" \
	GITHUB_ACTIONS=true HTAB_SHARD_COUNT=4
error "the environment (HTAB_SHARD_INDEX=1, HTAB_SHARD_COUNT=0): valid: 0 <= HTAB_SHARD_INDEX < HTAB_SHARD_COUNT" \
	HTAB_SHARD_INDEX=1 HTAB_SHARD_COUNT=0
error "HTAB_SHARD_INDEX must be an integer 0..1000000000" HTAB_SHARD_INDEX=one HTAB_SHARD_COUNT=4
error "Slurm (SLURM_ARRAY_TASK_ID=3, SLURM_ARRAY_TASK_MIN=1): SLURM_ARRAY_TASK_COUNT is not set" \
	SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=1
error "Slurm (SLURM_ARRAY_TASK_ID=0, SLURM_ARRAY_TASK_MIN=1, SLURM_ARRAY_TASK_COUNT=4): valid: SLURM_ARRAY_TASK_ID one of MIN, MIN+STEP, ..., MIN+(COUNT-1)*STEP" \
	SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=4
error "SLURM_ARRAY_TASK_STEP=4): valid: SLURM_ARRAY_TASK_ID one of" \
	SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_COUNT=4 SLURM_ARRAY_TASK_STEP=4
# --array=1,2,7: three tasks, no MIN-MAX:STEP order.
error "not an array MIN-MAX[:STEP] (MAX != MIN + (COUNT-1)*STEP): submit --array=A-B[:STEP] or give --shard I/N" \
	SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_COUNT=3 SLURM_ARRAY_TASK_STEP=1 SLURM_ARRAY_TASK_MAX=7
[ -z "$(ls "$d" | grep -v '^err$')" ] || fail "a refused command wrote into $d: $(ls "$d")"
sched -- run --help | grep -q -- '--shard I/N|auto' || fail "--help lacks --shard auto"
