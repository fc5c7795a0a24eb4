# Guest job (tests/vm/test_guest_detectors.sh): what the guest kernel's lockup
# and RCU stall detectors actually use, as KEY=value lines in $cell/detectors.env.
{
	echo "watchdog_thresh=$(cat /proc/sys/kernel/watchdog_thresh)"
	echo "rcu_cpu_stall_timeout=$(cat /sys/module/rcupdate/parameters/rcu_cpu_stall_timeout)"
	echo "nproc=$(nproc)"
} > "$cell/detectors.env"
