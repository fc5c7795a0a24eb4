# Guest job (tests/vm/test_restore.sh): what a guest's random state and clock
# are, as KEY=value lines in $cell/random.env: 16 bytes of /dev/urandom, a
# kernel-made UUID (get_random_bytes, the CRNG the module's map seeds from),
# the guest's wall clock, and the module's own run (the cell is a real one).
{
	echo "urandom=$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
	echo "uuid=$(cat /proc/sys/kernel/random/uuid)"
	echo "time=$(date +%s)"
} > "$cell/random.env"
insmod "$MODULE" $MODPARAMS && sleep 1 && rmmod htab_torture
