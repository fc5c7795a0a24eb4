#!/bin/bash
# htab-tasks (vm-images/guest/tasks.c), the module's task callers, on this
# machine without the module: a real BPF hash map made with bpftool, and a
# directory standing in for the module's debugfs files (the contract in
# tasks, the window already open; the program appends its lines to tasks).
# Every task says ready and reports, each over its own keys with its own
# writer id: the map holds exactly the tasks' inserts minus deletes, every
# element stamped by its owner, no check failed. A writer from outside on a
# task's key is caught (stamp mismatch, a key present it never stored). A
# contract without a field is refused naming it. Skipped where this
# machine lets no BPF map be made (no root, no bpf()).
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir tasks_program)
bin=$d/htab-tasks
gcc -static -Os -Wall -Werror -o "$bin" "$ROOT/vm-images/guest/tasks.c" || fail "htab-tasks did not build"
pin=/sys/fs/bpf/htab_tasks_test_$$
trap 'rm -f "$pin"' EXIT
bpftool map create "$pin" type hash key 4 value 16 entries 1024 name htab_tasks_t 2> "$d/bpftool.err" ||
	{ echo "SKIP: no BPF map here: $(cat "$d/bpftool.err")"; exit 77; }
id=$(bpftool -j map show pinned "$pin" | jq .id)

# window DIR SECONDS TASKS: a fake debugfs directory for map $id
window() {
	local now
	mkdir -p "$1"
	now=$(python3 -c 'import time; print(time.clock_gettime_ns(time.CLOCK_MONOTONIC))')
	echo "map_id=$id value_size=16 percpu=0 possible_cpus=1 tasks=$3 key0=3271557120 key_stride=4 keys=4 writer0=50331648 keeps_full=0 verify=1" > "$1/tasks"
	echo "start_ns=$now end_ns=$((now + $2 * 1000000000)) abort=0" > "$1/window"
}
field() { sed -n "s/.* $2=\([0-9]*\).*/\1/p" "$1"; }

window "$d/clean" 1 6
"$bin" "$d/clean" > "$d/clean.out" 2>&1 || fail "htab-tasks exit $?: $(cat "$d/clean.out")"
grep '^report' "$d/clean/tasks" > "$d/clean.reports"
expect_eq "ready lines" "$(grep -c '^ready task=' "$d/clean/tasks")" 6
expect_eq "reports" "$(wc -l < "$d/clean.reports")" 6
expect_eq "tasks reported" "$(field "$d/clean.reports" task | sort -n | tr '\n' ' ')" "0 1 2 3 4 5 "
expect_eq "corrupt" "$(field "$d/clean.reports" corrupt | sort -u)" 0
expect_cmp "task 0 calls" "$(head -1 "$d/clean.reports" | field /dev/stdin calls)" ">" 0
live=$(field "$d/clean.reports" live | paste -sd+ | bc)
expect_eq "map entries = the tasks' inserts - deletes" "$(bpftool -j map dump pinned "$pin" | jq length)" "$live"
# each live element: a task's key (0xc3000000 + task * 4 + slot), stamped key, writer 3 << 24 | task
bad=$(bpftool -j map dump pinned "$pin" | jq 'def h: ltrimstr("0x") | explode | reduce .[] as $c (0;
		. * 16 + (if $c >= 97 then $c - 87 elif $c >= 65 then $c - 55 else $c - 48 end));
	[.[] | (.key | map(h)) as $k | (.value | map(h)) as $v
	| select($k != $v[0:4] or $v[7] != 3 or $v[4] != (($k[0] / 4) | floor) or $k[3] != 195)] | length')
expect_eq "elements not stamped by their owner" "$bad" 0

# Someone else writes task 0's key 1 (0xc3000001) of an empty map: its checks see it.
rm -f "$pin"
bpftool map create "$pin" type hash key 4 value 16 entries 1024 name htab_tasks_t || fail "bpftool map create"
id=$(bpftool -j map show pinned "$pin" | jq .id)
window "$d/foreign" 2 2
(for _ in $(seq 40); do
	bpftool map update pinned "$pin" key hex 01 00 00 c3 value hex 01 00 00 c3 00 00 00 03 00 00 00 00 00 00 00 00 2> /dev/null
	sleep 0.02
done) &
"$bin" "$d/foreign" > "$d/foreign.out" 2>&1
wait
r0=$(grep '^report task=0 ' "$d/foreign/tasks")
expect_cmp "foreign writes: task 0 corrupt" "$(echo " $r0" | field /dev/stdin corrupt)" ">" 0
case $(echo " $r0" | field /dev/stdin bad) in
1|3) echo "ok: first failure is a stamp mismatch or a key present it never stored" ;;
*) fail "first failure code: $r0" ;;
esac
expect_eq "foreign writes: key named" "$(echo " $r0" | field /dev/stdin bad_key)" $((0xc3000001))

mkdir -p "$d/nokeys"
echo "map_id=$id value_size=16 percpu=0 possible_cpus=1 tasks=1 key0=0 key_stride=4 writer0=0 keeps_full=0 verify=1" > "$d/nokeys/tasks"
"$bin" "$d/nokeys" 2> "$d/nokeys.err"
expect_eq "contract without keys= exit" "$?" 2
grep -q "no keys= in the contract" "$d/nokeys.err" || fail "refusal does not name keys=: $(cat "$d/nokeys.err")"
echo "ok: a contract without keys= is refused naming it"
