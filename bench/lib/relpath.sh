# Sourced by the bench scripts that print a run directory. root_rel PATH
# prints PATH relative to the checkout's root (this file's ../..) when it
# lies inside it, else absolute: a figure quoted from the printout (in
# bench/RESULTS.md, an issue) then names no one's checkout. A relative PATH
# is taken from the current directory; both sides are resolved (pwd -P).
relpath_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
root_rel() {
	local p=$1 d
	case $p in /*) ;; *) p=$PWD/$p ;; esac
	d=$(cd "$p" 2> /dev/null && pwd -P) || d=$p
	case $d in
	"$relpath_root") echo . ;;
	"$relpath_root"/*) echo "${d#"$relpath_root"/}" ;;
	*) echo "$d" ;;
	esac
}
