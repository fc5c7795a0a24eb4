#!/bin/bash
# Builds an htab-torture guest kernel variant from a kernel line's Debian
# source package (vm-images/lines/LINE/line.conf: linux-source-6.1, -6.12).
#
# Why it exists: the Debian kernel already carries the seed-000 fix and keeps
# virtio/9p in modules; the kit needs the "before" behaviour, lock debugging,
# NR_CPUS >= 96 and fault injection, in a kernel that boots fast under TCG.
#
# Usage: build-kernel.sh [--FLAVOUR] [--force] [-j N] [LINE/]VARIANT
#        build-kernel.sh --list
# A variant is a directory vm-images/kernels/variants/VARIANT/ (or, for the
# planted-bug kernels of `make mutants`, vm-images/kernels/mutants/VARIANT/) holding
# variant.conf (DESCRIPTION, FRAGMENTS, PATCHES, optional SEED_TREE, optional
# LINES: the lines its patches apply to, default every line) and its
# patches in patches/. LINE is a folder of vm-images/lines/ (default: the
# line of the default distro kernel, 6.1); --list prints each variant
# plain (on the default line) and as LINE/VARIANT for each line it supports.
# The config is `make allnoconfig` + the fragments + CONFIG_LOCALVERSION=
# "-htab-VARIANT", then `make olddefconfig`; a fragment is taken from
# vm-images/lines/LINE/ when that line has its own, else vm-images/kernels/;
# a line's LINE_FRAGMENTS (line.conf) follow every variant's own (6.12-rt:
# rt.config, PREEMPT_RT).
#
# Layout under vm-images/build/ (gitignored), <name> = LINE-VARIANT:
#   src-<srcversion>/        pristine source, extracted once
#   tree-<name>/             in-tree build: a hard-linked copy of the pristine
#                            source with the variant's patches applied (patch
#                            replaces files, so links to the pristine copy
#                            break only where a patch writes). It is the KDIR
#                            for out-of-tree modules.
#   <name>-<hash12>/         bzImage, System.map, .config, build.info
# <name> is LINE-VARIANT, or LINE-VARIANT-SUFFIX with a build flavour,
# one of vm-images/kernels/flavours (OPTION SUFFIX FRAGMENTS): --btf
# (btf.config), --debug-info (debug.config: DWARF line tables for decoded
# crash reports; --btf has them too), --sanitizers (sanitizers.config +
# debug.config: KASAN, KFENCE, UBSAN, DEBUG_LIST).
# The hash covers: the source package version, the fragments' content, the
# patches' content, the name (it is in CONFIG_LOCALVERSION) and RECIPE below.
# The same hash with an up-to-date tree returns at once; a changed patch set
# rebuilds incrementally in the same tree (only the touched files recompile).
#
# Last line on stdout (shell-assignable, for the Makefile/harness):
#   KERNEL_IMAGE=... KERNEL_RELEASE=... KDIR=... HASH=... LINE=...
# Progress goes to stderr; the full make log is in tree-<name>/.htab-build.log.
# Exit: 0 ok, 1 build failed, 2 usage error / unknown variant.
#
# Environment: HTAB_JOBS (default nproc), HTAB_NICE (default 10),
#   HTAB_KSRC_TAR, HTAB_KSRC_PKG (default: the line's SOURCE_TAR and
#   SOURCE_PKG), HTAB_KBUILD (default vm-images/build), HTAB_VARIANT_DIRS
#   (directories, ':'-separated, searched for VARIANT/variant.conf after
#   the kit's two: variants made outside the repo, as `htab-torture bisect`
#   makes one per step under its output directory; the name, fragments and
#   patches make the hash there as here, so they are cached alike).
set -euo pipefail

# Bump when the way a tree is configured or built changes, to miss old caches.
RECIPE=1

here=$(cd "$(dirname "$0")" && pwd)
kdir_conf=$here/kernels
vdir_roots=("$kdir_conf/variants" "$kdir_conf/mutants")
if [ -n "${HTAB_VARIANT_DIRS:-}" ]; then
	IFS=: read -r -a extra_roots <<< "$HTAB_VARIANT_DIRS"
	for r in "${extra_roots[@]}"; do
		[ -n "$r" ] && vdir_roots+=("$r")
	done
fi
build=${HTAB_KBUILD:-$here/build}
lines_dir=$here/lines
jobs=${HTAB_JOBS:-$(nproc)}
nice_lvl=${HTAB_NICE:-10}

msg() { echo "build-kernel: $*" >&2; }
die() { msg "$*"; exit 1; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

lines() { for l in "$lines_dir"/*/line.conf; do basename "$(dirname "$l")"; done | sort -V; }
default_line() { "$here/kernel-lines.sh" line distro; }

# The lines variant dir $1 supports (its LINES, or every line).
variant_lines() {
	local LINES=''
	# shellcheck source=/dev/null
	LINES=$(. "$1/variant.conf"; echo "${LINES:-}")
	echo "${LINES:-$(lines)}"
}

variants() {
	local r d l dl
	dl=$(default_line)
	for r in "${vdir_roots[@]}"; do
		for d in "$r"/*/; do
			[ -f "$d/variant.conf" ] || continue
			for l in $(variant_lines "$d"); do
				[ "$l" = "$dl" ] && basename "$d"
			done
			for l in $(variant_lines "$d"); do
				echo "$l/$(basename "$d")"
			done
		done
	done
}

# The directory of variant $1, "" when there is none.
variant_dir() {
	local r
	for r in "${vdir_roots[@]}"; do
		[ -f "$r/$1/variant.conf" ] && { echo "$r/$1"; return; }
	done
	return 0
}

usage() {
	sed -n '9,20p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

# flavour OPTION: "SUFFIX FRAGMENTS" of its vm-images/kernels/flavours line, or fails
flavour_of() { awk -v o="$1" '!/^#/ && $1 == o { gsub(",", " ", $3); print $2, $3; f = 1 } END { exit !f }' "$kdir_conf/flavours"; }
flavour_names() { awk '!/^#/ && NF { printf "%s--%s", s, $1; s = " " }' "$kdir_conf/flavours"; }
flavour= force=0 variant=
while [ $# -gt 0 ]; do
	case "$1" in
	--list) variants; exit 0 ;;
	--force) force=1 ;;
	-j) [ $# -ge 2 ] || usage; jobs=$2; shift ;;
	-j*) jobs=${1#-j} ;;
	-h|--help) usage ;;
	--*) flavour_of "${1#--}" > /dev/null ||
		{ msg "unknown option $1 (build flavours: $(flavour_names))"; usage; }
	     [ -z "$flavour" ] || { msg "one build flavour at a time: --$flavour and $1"; exit 2; }
	     flavour=${1#--} ;;
	-*) msg "unknown option $1"; usage ;;
	*) [ -z "$variant" ] || usage; variant=$1 ;;
	esac
	shift
done
[ -n "$variant" ] || usage
line=$(default_line)
case $variant in */*) line=${variant%%/*}; variant=${variant#*/} ;; esac
vdir=
[[ "$variant" =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] && vdir=$(variant_dir "$variant")
if [ -z "$vdir" ]; then
	msg "unknown variant '$variant'; valid: $(variants | tr '\n' ' ')"
	exit 2
fi
if [[ ! "$line" =~ ^[0-9][0-9.]*(-[a-z0-9]+)?$ ]] || [ ! -f "$lines_dir/$line/line.conf" ]; then
	msg "unknown kernel line '$line'; valid: $(lines | tr '\n' ' ')"
	exit 2
fi
case " $(variant_lines "$vdir" | tr '\n' ' ') " in
*" $line "*) ;;
*) msg "variant $variant does not support line $line (its LINES: $(variant_lines "$vdir" | tr '\n' ' '))"; exit 2 ;;
esac
LINE_FRAGMENTS=''
# shellcheck source=/dev/null
. "$lines_dir/$line/line.conf"

DESCRIPTION='' FRAGMENTS='' PATCHES='' SEED_TREE='' LINES=''
# shellcheck source=/dev/null
. "$vdir/variant.conf"
[ -n "$FRAGMENTS" ] || die "$vdir/variant.conf: FRAGMENTS is empty"
FRAGMENTS="$FRAGMENTS${LINE_FRAGMENTS:+ $LINE_FRAGMENTS}"
name=$line-$variant
seed_variant=${SEED_TREE:+$line/$SEED_TREE}
[ -n "$SEED_TREE" ] && SEED_TREE=$line-$SEED_TREE
if [ -n "$flavour" ]; then
	read -r suffix frags <<< "$(flavour_of "$flavour")"
	name=$name-$suffix
	FRAGMENTS="$FRAGMENTS $frags"
	[ -n "$SEED_TREE" ] && SEED_TREE=$SEED_TREE-$suffix
fi
localversion=-htab-${name#"$line-"}

frag_files=()
for f in $FRAGMENTS; do
	if [ -f "$lines_dir/$line/$f" ]; then
		frag_files+=("$lines_dir/$line/$f")
	elif [ -f "$kdir_conf/$f" ]; then
		frag_files+=("$kdir_conf/$f")
	else
		die "$vdir/variant.conf: no fragment $f in $lines_dir/$line/ or $kdir_conf/"
	fi
done
patch_files=()
for p in $PATCHES; do
	[ -f "$vdir/patches/$p" ] || die "$vdir/variant.conf: no patch $vdir/patches/$p"
	patch_files+=("$vdir/patches/$p")
done

srcinfo=$("$here/kernel-source.sh" info "$line") || exit 1
eval "$srcinfo"
src_pkg=$SRC_PKG srcver=$SRC_VER src=$SRC_DIR

hash=$(
	echo "recipe $RECIPE"
	echo "source $src_pkg $srcver"
	echo "line $line"
	echo "name $name"
	for f in "${frag_files[@]}"; do echo "fragment $(basename "$f")"; cat "$f"; done
	for p in "${patch_files[@]}"; do echo "patch $(basename "$p")"; cat "$p"; done
)
hash=$(printf '%s\n' "$hash" | sha256sum | cut -c1-64)
h12=${hash:0:12}
tree=$build/tree-$name
out=$build/$name-$h12
mkdir -p "$build"

result() {
	echo "KERNEL_IMAGE=$out/bzImage KERNEL_RELEASE=$(cat "$out/kernel.release")" \
		"KDIR=$tree HASH=$h12 LINE=$line"
}

# The tree's .htab-hash is written last and removed first by a rebuild.
cached() {
	[ $force = 0 ] && [ -f "$out/build.info" ] &&
		[ "$(cat "$tree/.htab-hash" 2>/dev/null)" = "$hash" ]
}
# A finished build is answered without its lock: a variant seeded from
# this tree holds it while it copies the tree (~4 s).
if cached; then
	msg "cached: $out"
	result
	exit 0
fi
# One build per tree at a time; a second caller waits, then hits the cache.
exec 9> "$build/.lock-$name"
flock 9
if cached; then
	msg "cached: $out"
	result
	exit 0
fi
if [ -f "$out/build.info" ]; then
	msg "$out exists but $tree was rebuilt since; rebuilding the tree (KDIR must match)"
fi

t_start=$(now)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)

# --- 1. pristine source, once ------------------------------------------------
"$here/kernel-source.sh" extract "$line" > /dev/null || die "extracting the source of line $line failed"

# --- 2. the build tree --------------------------------------------------------
how=incremental
seed=$build/tree-$SEED_TREE
# A tree configured otherwise than its built seed (base.config changed since
# the tree was made) would recompile every object: seeding it again copies
# the seed's instead (minutes less per variant; `make mutants` has five).
config_body() { grep -v '^CONFIG_LOCALVERSION=' "$1" 2>/dev/null; }
if [ -n "$SEED_TREE" ] && [ -f "$tree/.htab-tree" ] && [ -f "$seed/.htab-hash" ] &&
   [ -f "$tree/.config" ] && [ "$(config_body "$tree/.config")" != "$(config_body "$seed/.config")" ]; then
	msg "$tree is configured otherwise than $seed: seeding it again"
	rm -rf "$tree"
fi
# A seeded variant whose seed was never built: build the seed first (wanted
# anyway beside its variants: fixed with its mutants and coverage) and copy its
# objects, rather than a cold build of this tree alone (10 min each on 2 cores).
if [ -n "$SEED_TREE" ] && [ ! -f "$tree/.htab-tree" ] && [ ! -f "$seed/.htab-hash" ]; then
	msg "building the seed $seed_variant first"
	"$0" ${flavour:+--$flavour} -j "$jobs" "$seed_variant" > /dev/null ||
		die "building the seed $seed_variant of $variant failed"
fi
if [ ! -f "$tree/.htab-tree" ]; then
	rm -rf "$tree" "$tree.tmp"
	if [ -n "$SEED_TREE" ] && [ -f "$seed/.htab-hash" ]; then
		# Same config as the seed: copying its objects turns a cold build
		# into an incremental one. Sources the seed did not patch become
		# hard links to the pristine copy again; objects are real copies.
		how="seeded from tree-$SEED_TREE"
		msg "creating $tree from $seed"
		# The seed's sources that are the pristine copy's (the same inode) are
		# linked from it like a cold tree's (cp -al: 1.4 s); what the seed
		# holds of its own (objects, generated files, patched sources: ~5000
		# of 83000 files), its directories and symlinks are copied. rsync
		# --link-dest over the whole seed compared every file and took 11.4 s.
		(
			flock 7
			cp -al "$src" "$tree.tmp"
			rm -f "$tree.tmp/.htab-extracted"
			{
				(cd "$seed" && find . \( -type d -o -type l \) -print)
				awk -F'\t' 'NR == FNR { ino[$2] = $1; next } ino[$2] != $1 { print $2 }' \
					<(cd "$src" && find . -type f -printf '%i\t%p\n') \
					<(cd "$seed" && find . -type f -printf '%i\t%p\n')
			} | rsync -a --files-from=- "$seed/" "$tree.tmp/"
		) 7> "$build/.lock-$SEED_TREE"
		rm -f "$tree.tmp/.htab-hash" "$tree.tmp/.htab-build.log"
		# Kbuild's own records are relative, but objtool's (tools/ build)
		# name the seed's absolute path: left alone, objtool is rebuilt and,
		# as every object depends on it, so is the whole kernel.
		seed_re=$(printf '%s/' "$seed" | sed 's/[.[\*^$#]/\\&/g')
		# None is fine (a seed built elsewhere and moved): grep's 1 is not a failure.
		{ grep -rlZF --include='.*.cmd' --include='*.d' "$seed/" "$tree.tmp/tools" || [ $? -eq 1 ]; } |
			xargs -0 -r sed -i "s#$seed_re#$tree/#g" ||
			die "could not point $tree.tmp/tools at $tree (seeded from $seed)"
	else
		how=cold
		msg "creating $tree (hard links to $src)"
		cp -al "$src" "$tree.tmp"
		rm -f "$tree.tmp/.htab-extracted"
		mkdir -p "$tree.tmp/.htab-patches"
		: > "$tree.tmp/.htab-patches/series"
	fi
	touch "$tree.tmp/.htab-tree"
	mv "$tree.tmp" "$tree"
fi
rm -f "$tree/.htab-hash"

# Files a patch touches, relative to the tree (-p1).
patched_paths() {
	awk '/^(---|\+\+\+) / { p = $2; sub(/\t.*/, "", p);
		if (p != "/dev/null") { sub(/^[^\/]*\//, "", p); print p } }' "$@" | sort -u
}

# --- 3. patches: bring the tree from its applied series to the wanted one ---
applied=$tree/.htab-patches
want=$(for p in "${patch_files[@]}"; do echo "$(basename "$p") $(sha256sum < "$p" | cut -c1-64)"; done)
have=$(while read -r p; do
	[ -n "$p" ] && echo "$p $(sha256sum < "$applied/$p" | cut -c1-64)"
done < "$applied/series")
if [ "$want" != "$have" ]; then
	# Undo: restore every file the old series touched from the pristine
	# source, with a fresh mtime so make recompiles it.
	old=()
	while read -r p; do [ -n "$p" ] && old+=("$applied/$p"); done < "$applied/series"
	if [ ${#old[@]} -gt 0 ]; then
		while read -r f; do
			if [ -e "$src/$f" ]; then
				cp --remove-destination "$src/$f" "$tree/$f"
			else
				rm -f "$tree/$f"
			fi
		done < <(patched_paths "${old[@]}")
		msg "reverted $(wc -l < "$applied/series") patch(es)"
	fi
	# Record the new series before applying it: if a patch fails halfway,
	# the next run restores what it touched.
	rm -rf "$applied"
	mkdir -p "$applied"
	for p in "${patch_files[@]}"; do
		cp "$p" "$applied/"
		basename "$p" >> "$applied/series"
	done
	touch "$applied/series"
	for p in "${patch_files[@]}"; do
		msg "applying $(basename "$p")"
		# patch writes a new file and renames it over the old one, so the
		# hard link to the pristine source is broken, never written through.
		patch -d "$tree" -p1 -N -s --no-backup-if-mismatch < "$p" ||
			die "patch $p does not apply to $src_pkg $srcver"
	done
fi

# --- 4. config ------------------------------------------------------------------
t_cfg=$(now)
cat > "$tree/.htab-localversion.config" <<EOF
CONFIG_LOCALVERSION="$localversion"
# CONFIG_LOCALVERSION_AUTO is not set
EOF
[ -f "$tree/.config" ] && cp -p "$tree/.config" "$tree/.config.htab-old"
# .htab-config.key: what the tree's .config was made from, but for its name.
# The same (this tree's last build, or the seed's the tree was copied from,
# which has the variant's fragments): only CONFIG_LOCALVERSION, a string no
# other symbol depends on, can differ, and it is set in place. Kconfig (11-12
# s a seeded variant: merge_config.sh 6.4 s, olddefconfig 4.9 s) runs when
# the fragments or the source changed.
config_key=$(
	echo "source $src_pkg $srcver"
	for f in "${frag_files[@]}"; do echo "fragment $(basename "$f")"; cat "$f"; done
)
config_key=$(printf '%s\n' "$config_key" | sha256sum | cut -c1-64)
if [ -f "$tree/.config" ] && [ "$(cat "$tree/.htab-config.key" 2>/dev/null)" = "$config_key" ]; then
	sed -i "s/^CONFIG_LOCALVERSION=.*/CONFIG_LOCALVERSION=\"$localversion\"/" "$tree/.config"
	echo "configured as the tree's last build, named $localversion" > "$tree/.htab-config.log"
else
	rm -f "$tree/.htab-config.key"
	(
		cd "$tree"
		nice -n "$nice_lvl" scripts/kconfig/merge_config.sh -n \
			"${frag_files[@]}" .htab-localversion.config
		nice -n "$nice_lvl" make -s olddefconfig
	) > "$tree/.htab-config.log" 2>&1 || {
		tail -20 "$tree/.htab-config.log" >&2
		die "configuration failed (log: $tree/.htab-config.log)"
	}
	echo "$config_key" > "$tree/.htab-config.key"
fi
if [ -f "$tree/.config.htab-old" ] && cmp -s "$tree/.config" "$tree/.config.htab-old"; then
	# Unchanged: keep the old mtime, so make skips syncconfig.
	mv "$tree/.config.htab-old" "$tree/.config"
else
	rm -f "$tree/.config.htab-old"
fi
# Kconfig drops what it cannot satisfy without a word: check every value the
# fragments ask for (the last fragment that sets a symbol wins).
missing=$(awk '
	/^CONFIG_[A-Za-z0-9_]+=/ { s = $0; sub(/=.*/, "", s); want[s] = $0; next }
	/^# CONFIG_[A-Za-z0-9_]+ is not set/ { want[$2] = $0; next }
	END { for (s in want) print want[s] }' "${frag_files[@]}" "$tree/.htab-localversion.config" |
	while IFS= read -r line; do
		case "$line" in
		"# "*) s=${line#\# }; s=${s%% *}
			grep -q "^$s=" "$tree/.config" && echo "  $line (got $(grep "^$s=" "$tree/.config"))" ;;
		*) grep -qxF "$line" "$tree/.config" ||
			echo "  $line (got $(grep -E "^(# )?${line%%=*}[= ]" "$tree/.config" || echo nothing))" ;;
		esac
	done)
[ -z "$missing" ] || die "config values that did not take:
$missing"
t_cfg_done=$(now)

# --- 5. build: vmlinux, bzImage and modules (so Module.symvers exists) -------
msg "building $name ($how, make -j$jobs, nice $nice_lvl, log: $tree/.htab-build.log)"
# On a terminal, progress (build-progress.sh): objects built of the count the
# last build of this kind (cold, seeded, incremental) took: this tree's, else
# the latest of any tree's, with an ETA. $tree/.htab-objects keeps "KIND COUNT".
kind=${how%% *}
expected_objects() {
	local f k c
	read -r k c 2>/dev/null < "$tree/.htab-objects" && [ "$k" = "$kind" ] && { echo "$c"; return; }
	for f in $(ls -t "$build"/tree-*/.htab-objects 2>/dev/null); do
		read -r k c < "$f" && [ "$k" = "$kind" ] && { echo "$c"; return; }
	done
	echo 0
}
run_make() {
	if [ -t 2 ]; then
		# shellcheck source=vm-images/build-progress.sh
		. "$here/build-progress.sh"
		nice -n "$nice_lvl" make -C "$tree" -j"$jobs" all 2>&1 |
			build_progress "$(expected_objects)" "$tree/.htab-build.log"
	else
		nice -n "$nice_lvl" make -C "$tree" -j"$jobs" all > "$tree/.htab-build.log" 2>&1
	fi
}
t_make=$(now)
if ! run_make; then
	grep -E 'error|Error' "$tree/.htab-build.log" | head -20 >&2
	tail -5 "$tree/.htab-build.log" >&2
	die "make failed (log: $tree/.htab-build.log)"
fi
t_make_done=$(now)
[ -f "$tree/Module.symvers" ] || die "no Module.symvers after make"
n=$(grep -cE '^  [A-Z][A-Z0-9_]*( \[M\])? +[^ ]+\.o$' "$tree/.htab-build.log" || true)
echo "$kind ${n:-0}" > "$tree/.htab-objects"
release=$(cat "$tree/include/config/kernel.release")

# --- 6. publish ---------------------------------------------------------------
rm -rf "$out.tmp"
mkdir -p "$out.tmp"
cp "$tree/arch/x86/boot/bzImage" "$tree/System.map" "$tree/.config" "$out.tmp/"
echo "$release" > "$out.tmp/kernel.release"
t_end=$(now)
cat > "$out.tmp/build.info" <<EOF
variant=$variant
line=$line
name=$name
description=$DESCRIPTION
hash=$hash
hash12=$h12
recipe=$RECIPE
source_package=$src_pkg
source_version=$srcver
fragments=$FRAGMENTS
patches=$PATCHES
kernel_release=$release
kdir=$tree
build_kind=$how
jobs=$jobs
nice=$nice_lvl
host_nproc=$(nproc)
loadavg_start=$load_start
loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -d "@${t_start%.*}" -Is)
finished=$(date -Is)
prepare_s=$(elapsed "$t_start" "$t_cfg")
config_s=$(elapsed "$t_cfg" "$t_cfg_done")
make_s=$(elapsed "$t_make" "$t_make_done")
total_s=$(elapsed "$t_start" "$t_end")
bzimage_bytes=$(stat -c %s "$out.tmp/bzImage")
vmlinux_bytes=$(stat -c %s "$tree/vmlinux")
EOF
rm -rf "$out"
mv "$out.tmp" "$out"
echo "$hash" > "$tree/.htab-hash"
msg "done in $(elapsed "$t_start" "$t_end") s (make $(elapsed "$t_make" "$t_make_done") s, $how): $out"
result
