#!/bin/bash
# The harness's layers (harness/Makefile): every #include of a layer's file
# names a folder it may use, so run/, report/, compare/, scan/, repro/ and bisect/ use
# rundir/, parse/ and lib/ and never each other; rundir/ uses parse/ and
# lib/, parse/ uses lib/, lib/ nothing of the kit; stats/ (samples from anywhere, the
# bench scripts' too) uses lib/ only. Inside run/ one way down: run/plan/
# (a cell planned, nothing started) uses none of the others, run/guest/
# (ways of running a guest) the plan, run/record/ (verdict and cell.json)
# the guest and the plan, and run/ itself (the scheduler, merge) all three.
# An include without a folder is refused too (it would slip past the rule).
# The check is also run on a copy with one forbidden include planted, which
# it must refuse.
. "$(dirname "$0")/../lib.sh"

allowed() {	# layer -> the folders its files may include from
	case $1 in
	lib) echo "lib" ;;
	parse) echo "parse lib" ;;
	rundir) echo "rundir parse lib" ;;
	run/plan) echo "run/plan rundir parse lib" ;;
	run/guest) echo "run/guest run/plan rundir parse lib" ;;
	run/record) echo "run/record run/guest run/plan rundir parse lib" ;;
	run) echo "run run/record run/guest run/plan rundir parse lib" ;;
	report | compare | scan | repro | bisect) echo "$1 rundir parse lib" ;;
	stats) echo "stats lib" ;;
	esac
}

# check_layers DIR: one line per forbidden include on stdout; exit 1 if any.
check_layers() {
	local dir=$1 bad=0 layer ok f inc folder
	for layer in lib parse rundir run/plan run/guest run/record run report compare stats scan repro bisect; do
		ok=" $(allowed "$layer") "
		# every include of the layer's files, one sed: "path:include"
		while IFS=: read -r f inc; do
			case $inc in ../kmod/*) continue ;; esac
			folder=${inc%%/*}
			case $inc in run/plan/* | run/guest/* | run/record/*) folder=${inc%/*} ;; esac
			if [ "$folder" = "$inc" ] || [[ $ok != *" $folder "* ]]; then
				echo "$layer/${f##*/}: #include \"$inc\""
				bad=1
			fi
		done < <(compgen -G "$dir/$layer/*.[ch]" > /dev/null &&
			sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p; T; F' \
				"$dir/$layer"/*.[ch] | paste -d: - - | awk -F: '{ print $2 ":" $1 }')
	done
	return $bad
}

bad=$(check_layers "$ROOT/harness") || fail "forbidden includes: $bad"
echo "ok: every include of harness/{lib,parse,rundir,run/{plan,guest,record},run,report,compare,stats,scan,repro,bisect} keeps to its layer"

# The check itself: each kind of forbidden include is found.
d=$(fresh_dir layers)
for plant in "report/report.c:run/plan/cli.h" \
	"run/plan/matrix.c:run/guest/cell.h" "run/plan/kernels.c:run/record/verdict.h" \
	"run/guest/cell.c:run/record/cell_json.h" "run/guest/boot.c:run/run.h" \
	"run/record/verdict.c:run/progress.h" "run/plan/cli.c:cli.h" "compare/compare.c:report/report.h" \
	"run/run.c:compare/compare.h" "rundir/summary.c:run/guest/cell.h" "parse/module_json.c:rundir/summary.h" \
	"lib/util.c:parse/console_scan.h" "stats/stats.c:rundir/run_load.h" \
	"stats/stats_cli.c:compare/compare.h" "scan/scan.c:run/record/verdict.h" \
	"repro/repro.c:run/plan/cli.h" "bisect/bisect.c:run/run.h" "bisect/decide.c:compare/compare.h"; do
	rm -rf "$d/harness"; mkdir -p "$d/harness"
	# the sources only (the build's objects are not the check's)
	(cd "$ROOT/harness" && find lib parse rundir run report compare stats scan repro bisect \
		-name '*.[ch]' -print0 | cpio -0pdm --quiet "$d/harness")
	file=${plant%%:*} inc=${plant#*:}
	echo "#include \"$inc\"" >> "$d/harness/$file"
	got=$(check_layers "$d/harness") && fail "planted '#include \"$inc\"' in $file not refused"
	expect_eq "refusal of $inc in $file" "$got" "$file: #include \"$inc\""
done
