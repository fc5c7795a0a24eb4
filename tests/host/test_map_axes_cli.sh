#!/bin/bash
# --map-type, --prealloc, --max-entries and --value-size are matrix axes (comma lists),
# without a VM: a bad value of each is one line naming the option and what
# it may be, exit 2, nothing written; a --modparam of the same parameter
# beside the option is refused, and so is one the module does not have or
# out of its bounds (kmod/params.h); a cell at every default keeps its old
# id, others get -m<type>, -p<0|1>, -e<N>, -s<N> before -f<fault>.
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir map_axes_cli)
usage_error "--map-type 'array': must be one of hash, percpu_hash, lru_hash, lru_percpu_hash" \
	run --cpus 2 --map-type hash,array --out "$d/a"
usage_error "--prealloc '2': must be one of 0, 1" run --cpus 2 --prealloc 2 --out "$d/a"
usage_error "--prealloc: '0' appears twice" run --cpus 2 --prealloc 0,0 --out "$d/a"
usage_error "--max-entries '0': must be one of integers 1..2097152" run --cpus 2 --max-entries 0 --out "$d/a"
usage_error "--max-entries '04096': must be one of integers 1..2097152" run --cpus 2 --max-entries 04096 --out "$d/a"
usage_error "--max-entries '2097153': must be one of integers 1..2097152" run --cpus 2 --max-entries 2097153 --out "$d/a"
usage_error "--max-entries '1e3': must be one of integers 1..2097152" run --cpus 2 --max-entries 1e3 --out "$d/a"
usage_error "--max-entries '': empty item" run --cpus 2 --max-entries '' --out "$d/a"
usage_error "--value-size '8': must be one of integers 16..4096" run --cpus 2 --value-size 8 --out "$d/a"
usage_error "--value-size '4097': must be one of integers 16..4096" run --cpus 2 --value-size 64,4097 --out "$d/a"
usage_error "--modparam value_size=32 and --value-size: give the value_size one way (--value-size)" \
	run --cpus 2 --value-size 64 --modparam value_size=32 --out "$d/a"
usage_error "--modparam max_entries=100 and --max-entries: give the max_entries one way (--max-entries)" \
	run --cpus 2 --max-entries 1000 --modparam max_entries=100 --out "$d/a"
usage_error "--modparam map_type=hash and --map-type: give the map_type one way (--map-type)" \
	run --cpus 2 --map-type percpu_hash --modparam map_type=hash --out "$d/a"
# --modparam: a parameter of the module's list (kmod/params.h), an int in its bounds.
usage_error "--modparam value_size=5000: value_size must be an integer 16..4096 (the module's bounds)" \
	run --cpus 2 --modparam value_size=5000 --out "$d/a"
usage_error "--modparam tasks_per_cpu=65: tasks_per_cpu must be an integer 1..64 or -1, its default" \
	run --cpus 2 --modparam tasks_per_cpu=65 --out "$d/a"
usage_error "--modparam max_entry=5: the module has no parameter 'max_entry' (valid: workload, map_type," \
	run --cpus 2 --modparam max_entry=5 --out "$d/a"
usage_error "--duration '601': must be an integer 1..600" run --cpus 2 --duration 601 --out "$d/a"
[ -z "$(ls "$d")" ] || fail "a refused command wrote into $d: $(ls "$d")"
expect_eq "plan" "$("$HT" run --plan-only --cpus 2 --map-type hash,lru_hash --prealloc 1 \
	--max-entries 4096,65536 --fault none --fault exhaust | tr '\n' ' ')" \
	"v2-full_update-distro-none-r0 v2-full_update-distro-none-r0-e65536 v2-full_update-distro-none-r0-mlru_hash v2-full_update-distro-none-r0-mlru_hash-e65536 v2-full_update-distro-none-r0-fexhaust v2-full_update-distro-none-r0-e65536-fexhaust v2-full_update-distro-none-r0-mlru_hash-fexhaust v2-full_update-distro-none-r0-mlru_hash-e65536-fexhaust "
expect_eq "plan with --value-size" "$("$HT" run --plan-only --cpus 2 --max-entries 4096,1000 \
	--value-size 16,4096 --fault exhaust | tr '\n' ' ')" \
	"v2-full_update-distro-none-r0-fexhaust v2-full_update-distro-none-r0-s4096-fexhaust v2-full_update-distro-none-r0-e1000-fexhaust v2-full_update-distro-none-r0-e1000-s4096-fexhaust "
# A --modparam of a map parameter alone still works (the module reads it; ids stay).
expect_eq "plan with --modparam" "$("$HT" run --plan-only --cpus 2 --modparam max_entries=100)" \
	"v2-full_update-distro-none-r0"
for opt in --map-type --prealloc --max-entries --value-size; do
	"$HT" run --help | grep -q -- "$opt" || fail "--help lacks $opt"
done
echo "ok: --help names --map-type, --prealloc, --max-entries, --value-size"
