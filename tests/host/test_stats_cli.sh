#!/bin/bash
# `htab-torture stats` end to end: NDJSON samples on stdin -> the table (mean
# ± sd, ratio to the base, Welch p, the bootstrap CI compare prints, paired
# per-rep ratios), --json, a file argument, and bad input -> exit 2 with one
# line naming the problem.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir stats_cli)

samples() {	# group rep value ...
	while [ $# -ge 3 ]; do
		printf '{"group": "%s", "rep": %s, "value": %s}\n' "$1" "$2" "$3"
		shift 3
	done
}
samples "time_ops=0 time_sample=1" 1 100 "time_ops=0 time_sample=1" 2 102 "time_ops=0 time_sample=1" 3 98 \
	"time_ops=1 time_sample=1" 1 90 "time_ops=1 time_sample=1" 2 93 "time_ops=1 time_sample=1" 3 87 \
	"time_ops=1 time_sample=64" 1 99 "time_ops=1 time_sample=64" 2 101 "time_ops=1 time_sample=64" 3 96 \
	> "$d/samples.ndjson"

out=$("$HT" stats --base "time_ops=0 time_sample=1" < "$d/samples.ndjson") || fail "stats exited $?"
echo "$out" > "$d/table.txt"
for want in "stats: 9 samples in 3 groups, base 'time_ops=0 time_sample=1'" \
	"CI: 95% percentile bootstrap of mean/base mean, 10000 resamples, seed 0x5eed000"; do
	[[ $out == *"$want"* ]] || fail "table lacks '$want' (see $d/table.txt)"
	echo "ok: table has '$want'"
done
for want in "time_ops=0 time_sample=1  3     100.0 ± 2                 1          (base)" \
	"time_ops=1 time_sample=1  3     90.0 ± 3                  0.900      0.012     [0.868, 0.932]        0.900 ± 0.012 (3)" \
	"time_ops=1 time_sample=64 3     98.7 ± 2.52               0.987      0.514     [0.957, 1.017]        0.987 ± 0.006 (3)" \
	"units                     1     value                     1          1         1                     1"; do
	grep -qxF -- "$want" <<< "$out" || fail "table lacks the line '$want' (see $d/table.txt)"
	echo "ok: table has the line '$want'"
done

# The same samples from a file, as JSON; the base defaults to the first group.
"$HT" stats --json "$d/samples.ndjson" > "$d/stats.json" || fail "stats --json exited $?"
expect_eq "json base" "$(jq -r .base "$d/stats.json")" "time_ops=0 time_sample=1"
expect_eq "json paired" "$(jq -r .paired "$d/stats.json")" true
expect_eq "json ratio" "$(jq '.groups[1].ratio * 1000 | round' "$d/stats.json")" 900
expect_eq "json CI" "$(jq -c '.groups[1].ratio_ci | map(. * 1000 | round)' "$d/stats.json")" "[868,932]"
expect_eq "json p" "$(jq '.groups[1].welch.p * 1000 | round' "$d/stats.json")" 12
expect_eq "json paired sd" "$(jq '.groups[2].paired.sd * 1000 | round' "$d/stats.json")" 6
expect_eq "json base has no ratio" "$(jq '.groups[0] | has("ratio")' "$d/stats.json")" false

# Without a rep on every sample there is no paired column.
out=$(grep -v '"rep": 3' "$d/samples.ndjson" | sed 's/"rep": 1, //' | "$HT" stats) || fail "stats exited $?"
[[ $out == *"paired"* ]] && fail "paired ratios printed without a rep on every sample: $out"
echo "ok: no paired column without reps"

# Bad input: exit 2, one line naming it.
bad() {	# name, content
	printf '%s\n' "$2" > "$d/$1.ndjson"
}
bad notjson '{"group": "a", "value": 1}
{"group": "a", "value": oops}'
bad nogroup '{"value": 1}'
bad novalue '{"group": "a", "rep": 1}'
bad strvalue '{"group": "a", "value": "1"}'
bad one '{"group": "a", "value": 1}
{"group": "a", "value": 2}
{"group": "b", "value": 3}'
bad dup '{"group": "a", "rep": 1, "value": 1}
{"group": "a", "rep": 1, "value": 2}'
usage_error "$d/notjson.ndjson line 2: not JSON" stats "$d/notjson.ndjson"
usage_error "line 1: missing field \"group\"" stats "$d/nogroup.ndjson"
usage_error "line 1: missing field \"value\"" stats "$d/novalue.ndjson"
usage_error "\"value\" is not a finite number" stats "$d/strvalue.ndjson"
usage_error "group 'b': 1 sample, need at least 2" stats "$d/one.ndjson"
usage_error "group 'a': rep 1 twice" stats "$d/dup.ndjson"
usage_error "--base 'nosuch': not a group" stats --base nosuch "$d/samples.ndjson"
usage_error "no samples" stats /dev/null
usage_error "/nonexistent.ndjson" stats /nonexistent.ndjson
usage_error "--alpha '2'" stats --alpha 2 "$d/samples.ndjson"
usage_error "--bogus" stats --bogus
err=$(echo 'nope' | "$HT" stats 2>&1 >/dev/null); rc=$?
expect_eq "exit of bad stdin" "$rc" 2
expect_eq "bad stdin message" "$err" "error: stdin line 1: not JSON: '[' or '{' expected near 'nope'"
"$HT" stats --help | grep -q -- "--base GROUP" || fail "stats --help lacks --base"
echo "ok: stats --help"
