# Sourced by build-kernel.sh: a kernel build's progress on a terminal.
#
# build_progress EXPECTED LOG: reads make's output on stdin and writes it,
# unchanged, to LOG; on stderr keeps one status line, redrawn at most once a
# second: objects built so far (kbuild's "  CC      path.o" lines), of
# EXPECTED when known (> 0) with an ETA at the rate so far, and the elapsed
# time. Only for a terminal: elsewhere build-kernel.sh stays silent.
build_progress() {
	local expected=$1 log=$2 n=0 last=-1 t0=$SECONDS line
	while IFS= read -r line; do
		printf '%s\n' "$line"
		[[ $line =~ ^\ \ [A-Z][A-Z0-9_]*(\ \[M\])?\ +[^\ ]+\.o$ ]] || continue
		n=$((n + 1))
		[ $SECONDS -ne $last ] || continue
		last=$SECONDS
		build_progress_show "$n" "$expected" $((SECONDS - t0))
	done > "$log"
	build_progress_show "$n" "$expected" $((SECONDS - t0))
	printf '\n' >&2
}

# build_progress_show N EXPECTED ELAPSED_S: the status line (\r, no newline).
build_progress_show() {
	local n=$1 exp=$2 el=$3 of='' eta=''
	if [ "$exp" -gt 0 ] && [ "$n" -lt "$exp" ]; then
		of=$(printf '/%d (%d%%)' "$exp" $((100 * n / exp)))
		[ "$n" -eq 0 ] || [ "$el" -eq 0 ] || eta=", ETA $(build_progress_mmss $((el * (exp - n) / n)))"
	elif [ "$exp" -gt 0 ]; then
		of=" (last build: $exp)"
	fi
	printf '\rbuild-kernel: make: %d%s objects, %s elapsed%s\033[K' "$n" "$of" \
		"$(build_progress_mmss "$el")" "$eta" >&2
}

build_progress_mmss() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
