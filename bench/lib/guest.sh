# Boots one guest that runs a custom job script (sourced by the guest runner,
# vm-images/guest/run-job.sh, through JOB_SCRIPT=), for benchmarks and tests
# that need several steps inside ONE VM. Sourced by bash scripts.
#
# Why not `htab-torture run`: a bench needs interleaved repeats of different
# programs in one boot; the harness runs one module load per cell. We reuse
# the harness's exact QEMU argv (from --dry-run) and write job.env ourselves,
# per harness/FORMAT.md.
#
#   boot_guest VCPUS CELL_DIR JOB_SCRIPT TIMEOUT_S [KEY=VALUE...]
# Extra KEY=VALUE pairs go into job.env, so the job script sees them.
# GUEST_APPEND="..." adds kernel command-line words (e.g. clocksource=tsc).
# Returns the runner's exit status (from the virtio-serial port), or 124 on
# host timeout, 125 when no status came back. The console is CELL_DIR/console.log.
BENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

guest_accel() { grep -qwE 'vmx|svm' /proc/cpuinfo && echo kvm || echo tcg; }

boot_guest() {
	local vcpus=$1 cell=$2 job=$3 tmo=$4 kver argv dry kv
	shift 4
	kver=$(make -s -C "$BENCH_ROOT" print-kver) || return 2
	rm -rf "$cell"; mkdir -p "$cell" || return 2
	cell=$(cd "$cell" && pwd)
	dry=$(mktemp -d)
	argv=$("$BENCH_ROOT/harness/htab-torture" run --cpus "$vcpus" --workload full_update \
		--duration 1 --bpftrace none --out "$dry" --dry-run | grep '^qemu-system' | tail -n 1) || { rm -rf "$dry"; return 2; }
	argv=${argv//"$dry/v$vcpus-full_update-distro-none-r0"/"$cell"}
	rm -rf "$dry"
	[ -n "${GUEST_APPEND:-}" ] && argv=${argv//" htab.runner="/" $GUEST_APPEND htab.runner="}
	{
		echo "KERNEL_RELEASE=$kver"
		echo "MODULE=$BENCH_ROOT/kmod/htab_torture.ko"
		echo "MODPARAMS=''"
		echo "BPFTRACE=''"
		echo "ATTACH_TIMEOUT=120"
		echo "RUN_TIMEOUT=600"
		echo "JOB_SCRIPT=$job"
		for kv in "$@"; do printf "%s='%s'\n" "${kv%%=*}" "${kv#*=}"; done
	} > "$cell/job.env"
	eval "set -- $argv"
	printf '%s\n' "$@" > "$cell/qemu.argv"
	timeout "$tmo" "$@" < /dev/null > "$cell/qemu.out" 2>&1
	[ $? -eq 124 ] && return 124
	[ -s "$cell/exit_status" ] || return 125
	return "$(head -n 1 "$cell/exit_status" | tr -dc 0-9)"
}
