#!/bin/bash
# --callers is a matrix axis (issue 28), without a VM: each value is caller
# kinds of kmod/callers.h joined with '+' in that list's order, kthread
# first; a bad value is one line naming it and what is valid, exit 2,
# nothing written; nmi/irq on an LRU or non-preallocated map, and task on
# an LRU map, are crossings the plan leaves out (the module would refuse
# the cell), and a callers value that no crossing of the run allows is
# refused; a --modparam callers= beside the
# option is refused; the default (kthread) keeps every old cell id, other
# values get -c<value> after the map's suffixes and before -f<fault>
# (tests/vm/test_callers.sh checks job.env); task callers (user-space
# tasks) need a hash or percpu_hash map, --tasks-per-cpu 1..64 a callers
# value with task and a guest (tests/vm/test_callers_tasks.sh runs them).
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir callers_cli)
valid="must be one of kinds kthread, nmi, irq, task joined with '+' in that order, kthread first (e.g. kthread, kthread+nmi)"
usage_error "--callers 'nmi': $valid" run --cpus 2 --callers nmi --out "$d/a"
usage_error "--callers 'nmi+kthread': $valid" run --cpus 2 --callers nmi+kthread --out "$d/a"
usage_error "--callers 'kthread+nmi+nmi': $valid" run --cpus 2 --callers kthread+nmi+nmi --out "$d/a"
usage_error "--callers 'kthread+softirq': $valid" run --cpus 2 --callers kthread+softirq --out "$d/a"
usage_error "--callers 'kthread+': $valid" run --cpus 2 --callers kthread+ --out "$d/a"
usage_error "--callers: 'kthread' appears twice" run --cpus 2 --callers kthread,kthread --out "$d/a"
usage_error "--callers kthread+nmi: no --map-type and --prealloc of this run has a cell for it: nmi and irq callers need a hash or percpu_hash map" \
	run --cpus 2 --callers kthread,kthread+nmi --map-type lru_hash,lru_percpu_hash --out "$d/a"
usage_error "--callers kthread+irq: no --map-type and --prealloc of this run has a cell for it: nmi and irq callers need a preallocated map (valid: --prealloc 1)" \
	run --cpus 2 --callers kthread+irq --prealloc 0 --out "$d/a"
usage_error "--modparam callers=kthread+nmi and --callers: give the callers one way (--callers)" \
	run --cpus 2 --callers kthread+nmi --modparam callers=kthread+nmi --out "$d/a"
usage_error "--callers 'kthread+task+irq': $valid" run --cpus 2 --callers kthread+task+irq --out "$d/a"
usage_error "--callers kthread+task: no --map-type and --prealloc of this run has a cell for it: task callers need a hash or percpu_hash map (an LRU map evicts the keys whose presence they check)" \
	run --cpus 2 --callers kthread+task --map-type lru_percpu_hash --out "$d/a"
usage_error "--tasks-per-cpu '0': must be an integer 1..64" run --cpus 2 --callers kthread+task --tasks-per-cpu 0 --out "$d/a"
usage_error "--tasks-per-cpu '65': must be an integer 1..64" run --cpus 2 --callers kthread+task --tasks-per-cpu 65 --out "$d/a"
usage_error "--tasks-per-cpu '4x': must be an integer 1..64" run --cpus 2 --callers kthread+task --tasks-per-cpu 4x --out "$d/a"
usage_error "--tasks-per-cpu 8: no --callers value has task (valid: with --callers kthread+task, ...)" \
	run --cpus 2 --callers kthread,kthread+nmi --tasks-per-cpu 8 --out "$d/a"
usage_error "--modparam tasks_per_cpu=2 and --tasks-per-cpu: give it one way (--tasks-per-cpu)" \
	run --cpus 2 --callers kthread+task --tasks-per-cpu 8 --modparam tasks_per_cpu=2 --out "$d/a"
usage_error "--callers with task and --target host: the task callers' program is in the guest's initramfs (valid: --target vm)" \
	run --cpus 2 --callers kthread+task --target host --out "$d/a"
[ -z "$(ls "$d")" ] || fail "a refused command wrote into $d: $(ls "$d")"
expect_eq "plan" "$("$HT" run --plan-only --cpus 2 --callers kthread,kthread+nmi,kthread+nmi+irq \
	--map-type hash,percpu_hash --fault none --fault exhaust | tr '\n' ' ')" \
	"v2-full_update-distro-none-r0 v2-full_update-distro-none-r0-ckthread+nmi v2-full_update-distro-none-r0-ckthread+nmi+irq v2-full_update-distro-none-r0-mpercpu_hash v2-full_update-distro-none-r0-mpercpu_hash-ckthread+nmi v2-full_update-distro-none-r0-mpercpu_hash-ckthread+nmi+irq v2-full_update-distro-none-r0-fexhaust v2-full_update-distro-none-r0-ckthread+nmi-fexhaust v2-full_update-distro-none-r0-ckthread+nmi+irq-fexhaust v2-full_update-distro-none-r0-mpercpu_hash-fexhaust v2-full_update-distro-none-r0-mpercpu_hash-ckthread+nmi-fexhaust v2-full_update-distro-none-r0-mpercpu_hash-ckthread+nmi+irq-fexhaust "
expect_eq "default id" "$("$HT" run --plan-only --cpus 2 --callers kthread)" "v2-full_update-distro-none-r0"
expect_eq "plan json" "$("$HT" run --plan-only --json --cpus 2 --callers kthread,kthread+irq | jq -c '[.[].callers]')" \
	'["kthread","kthread+irq"]'
"$HT" run --help | grep -q -- "--callers" || fail "--help lacks --callers"
echo "ok: --help names --callers"
# The task kind takes --prealloc 0 (nmi and irq do not), beside nmi too
# only where the map is preallocated.
expect_eq "task plan" "$("$HT" run --plan-only --cpus 2 --callers kthread,kthread+task \
	--prealloc 1,0 --tasks-per-cpu 8 | tr '\n' ' ')" \
	"v2-full_update-distro-none-r0 v2-full_update-distro-none-r0-ckthread+task v2-full_update-distro-none-r0-p0 v2-full_update-distro-none-r0-p0-ckthread+task "
usage_error "--callers kthread+nmi+task: no --map-type and --prealloc of this run has a cell for it: nmi and irq callers need a preallocated map (valid: --prealloc 1)" \
	run --cpus 2 --callers kthread+nmi+task --prealloc 0 --out "$d/a"
# Every caller mix on every map in one run: the refused crossings left out, with a note.
expect_eq "mixed plan" "$("$HT" run --plan-only --cpus 2 --callers kthread,kthread+nmi,kthread+task \
	--map-type hash,lru_hash --prealloc 1,0 2> "$d/plan.err" | tr '\n' ' ')" \
	"v2-full_update-distro-none-r0 v2-full_update-distro-none-r0-ckthread+nmi v2-full_update-distro-none-r0-ckthread+task v2-full_update-distro-none-r0-p0 v2-full_update-distro-none-r0-p0-ckthread+task v2-full_update-distro-none-r0-mlru_hash "
grep -q "^note: 3 cell(s) of nmi/irq callers on an LRU or --prealloc 0 map, or of task callers on an LRU map, left out" "$d/plan.err" ||
	fail "no note of the left-out caller cells: $(cat "$d/plan.err")"
"$HT" run --help | grep -q -- "--tasks-per-cpu" || fail "--help lacks --tasks-per-cpu"
echo "ok: --help names --tasks-per-cpu"
