#!/bin/bash
# No tracked text file may quote the absolute path of a checkout: a figure
# pasted from a run (`ours: <run dir>` of a seed table, a bench's "run:"
# line) names one machine's tree, which no reader has; the bench scripts
# print run directories relative to the checkout's root (bench/lib/relpath.sh).
# Flagged: a path starting with the /work, /root or /home directories (at
# the start of a line or after a character that cannot be part of a path,
# so ".../x/home/y" in a URL is not), and this checkout's own absolute path
# wherever it is. System paths the code uses (/usr/src, /boot, /lib/modules,
# /dev, /proc, /sys, /tmp ...) are not flagged. Binary files are skipped.
# Exit 0 none found, 1 found (each printed as file:line:text), 77 not in a
# git checkout (a tarball has no list of tracked files).
. "$(dirname "$0")/../lib.sh"
command -v git > /dev/null || { echo "skip: no git"; exit 77; }
top=$(git -C "$ROOT" rev-parse --show-toplevel 2> /dev/null) ||
	{ echo "skip: $(basename "$ROOT") is not a git checkout"; exit 77; }
cd "$top" || exit 2

# The prefixes are spelled with [/] so that this file does not match itself.
re='(^|[^A-Za-z0-9_.~/-])[/](work|root|home)[/]'
found=$(git grep -I -n -E -e "$re" -- . 2> /dev/null)
# This checkout's own path, as git and as the shell see it (a symlink).
for p in "$top" "$ROOT" "$(cd "$top" && pwd -P)"; do
	[ "$p" = / ] && continue
	found+=$'\n'$(git grep -I -n -F -e "$p" -- . 2> /dev/null)
done
found=$(sort -u <<< "$found" | grep .)

files=$(git ls-files | wc -l)
if [ -n "$found" ]; then
	echo "$found"
	fail "$(wc -l <<< "$found") line(s) of tracked files quote a checkout's absolute path;" \
		"print or quote it relative to the checkout's root"
fi
echo "ok: none of the $files tracked files quotes a checkout's absolute path"
