#!/bin/bash
# vm-images/kernel-lines.sh fetch: a label's image and headers packages,
# and the kernel packages they depend on (the first of alternatives apt
# has), unpacked into the kit's root, not installed on the host. apt is a
# stub here that serves packages built with the real dpkg-deb: the headers'
# Makefile then includes its common part from the kit's root, a second
# fetch downloads nothing, the packages are deleted once unpacked, `root`
# finds a release by its modules alone, a failed download leaves no half kernel, and an
# unknown label is refused before anything is fetched, and so is a fetch
# into the host's root (HTAB_SYSROOT=/), which would go past dpkg.
. "$(dirname "$0")/../lib.sh"
kl=$ROOT/vm-images/kernel-lines.sh
d=$(fresh_dir kernel_fetch)
R=6.12.999+deb12-amd64
C=linux-headers-6.12.999+deb12-common
RT=6.12.999+deb12-rt-amd64

deb() {	# name, then files as path=content
	local name=$1 p; shift
	mkdir -p "$d/pkg/$name/DEBIAN"
	printf 'Package: %s\nVersion: 1.0\nArchitecture: amd64\nMaintainer: t <t@t>\nDescription: t\n' "$name" \
		> "$d/pkg/$name/DEBIAN/control"
	for p in "$@"; do
		mkdir -p "$d/pkg/$name/$(dirname "${p%%=*}")"
		printf '%s\n' "${p#*=}" > "$d/pkg/$name/${p%%=*}"
	done
	dpkg-deb --build -Zgzip "$d/pkg/$name" "$d/repo/${name}_1.0_amd64.deb" > /dev/null || fail "dpkg-deb --build $name"
}
mkdir -p "$d/repo" "$d/bin"
deb linux-image-6.12-amd64
deb linux-headers-6.12-amd64
deb linux-image-$R boot/vmlinuz-$R=image lib/modules/$R/modules.order=
deb linux-headers-$R usr/src/linux-headers-$R/Makefile="include /usr/src/$C/Makefile"
deb $C usr/src/$C/Makefile=common
deb linux-kbuild-6.12.999 usr/lib/linux-kbuild-6.12.999/scripts/fixdep=fixdep
deb linux-image-6.12-rt-amd64
deb linux-headers-6.12-rt-amd64
deb linux-image-$RT boot/vmlinuz-$RT=image lib/modules/$RT/modules.order=
deb linux-headers-$RT usr/src/linux-headers-$RT/Makefile="include /usr/src/$C/Makefile"

cat > "$d/bin/apt-cache" <<EOF
#!/bin/bash
# depends/show/policy of the packages in $d/repo
repo=$d/repo
case \$1 in
depends) p=\${!#}
	echo "\$p"
	case \$p in
	linux-image-6.12-amd64) echo "  Depends: linux-image-$R" ;;
	linux-headers-6.12-amd64) echo "  Depends: linux-headers-$R" ;;
	linux-headers-$R) printf '%s\n' "  Depends: linux-base" "  Depends: $C" \\
		" |Depends: linux-image-$R-unsigned" "  Depends: linux-image-$R" \\
		"  Depends: <linux-initramfs-tool>" "    initramfs-tools" "  Depends: linux-kbuild-6.12.999" ;;
	linux-image-6.12-rt-amd64) echo "  Depends: linux-image-$RT" ;;
	linux-headers-6.12-rt-amd64) echo "  Depends: linux-headers-$RT" ;;
	linux-headers-$RT) printf '%s\n' "  Depends: $C" "  Depends: linux-kbuild-6.12.999" ;;
	esac ;;
show) ls "\$repo/\${!#}"_1.0_amd64.deb > /dev/null 2>&1 ;;
policy) echo "\$2:"; echo "  Candidate: 1.0" ;;
esac
EOF
cat > "$d/bin/apt-get" <<EOF
#!/bin/bash
# download: copies from $d/repo; HTAB_TEST_APT_FAIL makes it fail
[ "\$1" = download ] || exit 100
echo "\$*" >> "$d/apt-get.log"
[ -z "\${HTAB_TEST_APT_FAIL:-}" ] || exit 100
shift
for a; do case \$a in -*|APT::*) continue ;; esac; cp "$d/repo/\${a}_1.0_amd64.deb" . || exit 100; done
EOF
chmod +x "$d/bin/apt-cache" "$d/bin/apt-get"
export PATH="$d/bin:$PATH" HTAB_SYSROOT="$d/root"

out=$("$kl" fetch distro-6.12 2>&1) || fail "fetch distro-6.12: $out"
expect_eq "resolve after fetch" "$("$kl" resolve distro-6.12)" \
	"LABEL=distro-6.12 LINE=6.12 RELEASE=$R IMAGE=$d/root/boot/vmlinuz-$R KDIR=$d/root/usr/src/linux-headers-$R"
expect_eq "headers include their common part from the kit's root" \
	"$(cat "$d/root/usr/src/linux-headers-$R/Makefile")" "include $d/root/usr/src/$C/Makefile"
[ -f "$d/root/usr/lib/linux-kbuild-6.12.999/scripts/fixdep" ] || fail "kbuild not unpacked"
expect_eq "downloaded: the packages and their kernel dependencies, one of the alternatives" \
	"$(tr ' ' '\n' < "$d/apt-get.log" | grep '^linux-' | sort | tr '\n' ' ')" \
	"linux-headers-6.12-amd64 linux-headers-$R $C linux-image-6.12-amd64 linux-image-$R linux-kbuild-6.12.999 "
[ ! -e "$d/root/.stage-distro-6.12" ] || fail "the staging directory was left behind"
expect_eq "the packages deleted once unpacked" "$(ls "$d/root/.debs")" ""
expect_eq "root of the release" "$("$kl" root "$R")" "$d/root"

out=$("$kl" fetch distro-6.12 2>&1) || fail "second fetch: $out"
expect_eq "second fetch downloads nothing" "$(wc -l < "$d/apt-get.log")" 1
case $out in *"distro-6.12: $d/root/boot/vmlinuz-$R is there"*) echo "ok: says it is there" ;;
*) fail "second fetch said: $out" ;; esac

out=$("$kl" fetch distro-6.12-rt 2>&1) || fail "fetch distro-6.12-rt beside distro-6.12 (they share packages): $out"
expect_eq "resolve distro-6.12-rt" "$("$kl" release distro-6.12-rt)" "$RT"
expect_eq "distro-6.12 still there" "$("$kl" release distro-6.12)" "$R"
# mkinitramfs.sh asks only for the modules: a release without its headers
# is still found there.
mv "$d/root/usr/src/linux-headers-$RT" "$d/hdr-rt"
expect_eq "root of a release with modules only" "$("$kl" root "$RT")" "$d/root"
mv "$d/hdr-rt" "$d/root/usr/src/linux-headers-$RT"
err=$("$kl" root 9.9-none 2>&1); rc=$?
expect_eq "root of an absent release: exit" "$rc" 1
case $err in *"no lib/modules/9.9-none in $d/root"*) echo "ok: names the release and the root" ;;
*) fail "root of an absent release said: $err" ;; esac
: > "$d/apt-get.log"

rm -rf "$d/root"
err=$(HTAB_TEST_APT_FAIL=1 "$kl" fetch distro-6.12 2>&1); rc=$?
expect_eq "failed download: exit" "$rc" 1
case $err in *"fetching distro-6.12 (linux-image-6.12-amd64 linux-headers-6.12-amd64) into $d/root: apt-get download"*"failed"*)
	echo "ok: names the label and the download" ;;
*) fail "failed download said: $err" ;; esac
"$kl" resolve distro-6.12 2> /dev/null; expect_eq "no half kernel after a failed fetch" "$?" 1

err=$("$kl" fetch distro-6.12 distro-9.9 2>&1); rc=$?
expect_eq "unknown label: exit" "$rc" 2
case $err in *"unknown distro kernel 'distro-9.9' (valid: distro distro-6.1"*) echo "ok: names the valid labels" ;;
*) fail "unknown label said: $err" ;; esac
expect_eq "nothing fetched for a list with an unknown label" "$(wc -l < "$d/apt-get.log")" 1

# Into the host's root, past dpkg: refused (unless the host has the label).
if ! HTAB_SYSROOT=/ "$kl" resolve distro-6.12 > /dev/null 2>&1; then
	err=$(HTAB_SYSROOT=/ "$kl" fetch distro-6.12 2>&1); rc=$?
	expect_eq "fetch into /: exit" "$rc" 2
	case $err in *"HTAB_SYSROOT is the host's root"*) echo "ok: says why" ;; *) fail "fetch into /: $err" ;; esac
	expect_eq "fetch into /: nothing downloaded" "$(wc -l < "$d/apt-get.log")" 1
fi
