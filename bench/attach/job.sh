# Job for bench/attach/run.sh (sourced by the guest runner through
# bench/lib/guest.sh): how long an observer takes to go live in a guest
# just restored, run after run. Writes $cell/attach.ndjson.
#   ENGINE=bpftrace  SCRIPT: bpftrace (LLVM) on SCRIPT with argument 1
#   ENGINE=aot       PROG: bpftrace-aotrt on a program bpftrace --aot compiled
#   ENGINE=compile   SCRIPT: compile SCRIPT ($1 as 1) to $cell/aot.prog, once
#   MODE=preread     first read the engine's binary and libraries over the
#                    9p host root (into the page cache), without running them
#   RUNS             runs after the restore (default 2)
# Live = the process sleeps in epoll_wait (its probes attached, as the
# runner's bt_live), timed on the guest clock; 60 s without: live null.
res=$cell/attach.ndjson
up() { cut -d' ' -f1 /proc/uptime; }
since() { echo "$(up) - $1" | bc; }

if [ "$ENGINE" = compile ]; then
	sed 's/\$1\([^0-9]\|$\)/1\1/g' "$SCRIPT" > /run/tmp/aot.bt
	a=$(up)
	bpftrace --aot "$cell/aot.prog" /run/tmp/aot.bt > "$cell/aot.log" 2>&1 || return 1
	echo "{\"compile_s\": $(since "$a")}" >> "$res"
	return 0
fi
case $ENGINE in
bpftrace) bin=/usr/bin/bpftrace ;;
aot) bin=/usr/bin/bpftrace-aotrt ;;
*) echo "bench/attach: ENGINE '$ENGINE': bpftrace, aot or compile" >&2; return 2 ;;
esac
if [ "$MODE" = preread ]; then
	files="$bin $(ldd "$bin" | awk '$2 == "=>" { print $3 }')"
	a=$(up)
	cat $files > /dev/null
	echo "{\"preread_s\": $(since "$a"), \"preread_kib\": $(du -cLk $files | tail -n 1 | cut -f1)}" >> "$res"
fi
i=0
while [ $i -lt "${RUNS:-2}" ]; do
	i=$((i + 1))
	o=/run/tmp/run$i
	a=$(up)
	if [ "$ENGINE" = aot ]; then
		bpftrace-aotrt -f json "$PROG" > $o.out 2> $o.err &
	else
		bpftrace -f json -o $o.out "$SCRIPT" 1 2> $o.err &
	fi
	p=$!
	n=0 w=
	until [ "$w" = do_epoll_wait ]; do
		sleep 0.02
		n=$((n + 1))
		# (wchan ends without a newline: read's status is 1 even when it read)
		read -r w < /proc/$p/wchan 2> /dev/null
		[ -d /proc/$p ] || break
		[ $n -lt 3000 ] || break
	done
	live=null
	[ "$w" = do_epoll_wait ] && live=$(since "$a")
	[ "$live" != null ] || echo "bench/attach: run $i of $ENGINE never live: $(head -c 300 $o.err)" >&2
	echo "{\"run\": $i, \"live_s\": $live}" >> "$res"
	kill -KILL $p
	wait $p 2> /dev/null
done
return 0
