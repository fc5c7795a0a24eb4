#!/bin/bash
# --fault on the command line, without a VM: a bad value is one line naming it
# and what is wrong in the module's own words (the module's parser,
# kmod/fault_spec.h; tests/unit/test_fault_spec.c has every error), exit 2,
# nothing written, and so is a bad --modparam fault=; values are kept verbatim
# (cpus= lists keep their commas) and become cells with a -f<slug> id, the
# none cell keeping its old id (tests/vm/test_fault_axis.sh checks job.env).
. "$(dirname "$0")/../lib.sh"
d=$(fresh_dir fault_cli)
usage_error "--fault 'slow': unknown fault type \"slow\" (valid: none delay exhaust lockhold)" \
	run --cpus 2 --fault slow --out "$d/a"
usage_error "--fault 'delay': delay needs a duration (e.g. delay:__pcpu_freelist_pop:2000ns)" \
	run --cpus 2 --fault delay --out "$d/a"
usage_error "--fault 'delay:x:1us;reboot': only letters, digits and _.:=,+- are allowed" \
	run --cpus 2 --fault 'delay:x:1us;reboot' --out "$d/a"
usage_error "--fault 'exhaust+delay:1us:p=0': 'delay:1us:p=0': p=0 must be a decimal in (0, 1]" \
	run --cpus 2 --fault 'exhaust+delay:1us:p=0' --out "$d/a"
usage_error "--modparam fault=delay:2ms: duration 2ms must be 1..1000000 ns, written N, Nns or Nus" \
	run --cpus 2 --modparam fault=delay:2ms --out "$d/a"
usage_error "--fault: 'none' appears twice" run --cpus 2 --fault none --fault none --out "$d/a"
usage_error "give the fault one way" run --cpus 2 --fault exhaust --modparam fault=exhaust --out "$d/a"
usage_error "option '--fault' needs a value" run --cpus 2 --out "$d/a" --fault
[ -z "$(ls "$d")" ] || fail "a refused command wrote into $d: $(ls "$d")"
spec='delay:__pcpu_freelist_pop:2000ns:p=0.01:cpus=0-1,3'
expect_eq "plan" "$("$HT" run --plan-only --cpus 2 --fault none --fault "$spec" --fault exhaust:p=0.1 | tr '\n' ' ')" \
	"v2-full_update-distro-none-r0 v2-full_update-distro-none-r0-fdelay___pcpu_freelist_pop_2000ns_p_0_01_e36f1f5f v2-full_update-distro-none-r0-fexhaust_p_0_1 "
"$HT" run --help | grep -q -- '--fault SPEC' || fail "--help lacks --fault"
