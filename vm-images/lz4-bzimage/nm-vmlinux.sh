#!/bin/bash
# NM for boot.mk: the top-level vmlinux is a stripped kernel (Debian ships no
# System.map), so the four symbols arch/x86/boot/compressed/Makefile reads
# from it (voffset.h) come from its section headers, as
# arch/x86/kernel/vmlinux.lds.S places them (6.1, 6.12): _text opens .text,
# __start_rodata .rodata, __bss_start .bss; _end is the page after .brk.
# Any other file goes to nm.
for a; do :; done
[ "${a:-}" = vmlinux ] || exec nm "$@"
readelf -SW vmlinux | sed 's/^ *\[ *[0-9]*\] *//' | {
	n=0
	while read -r name _ addr _ size _; do
		case $name in
		.text) echo "$addr T _text"; n=$((n + 1)) ;;
		.rodata) echo "$addr D __start_rodata"; n=$((n + 1)) ;;
		.bss) echo "$addr B __bss_start"; n=$((n + 1)) ;;
		.brk) printf '%016x B _end\n' $(( (0x$addr + 0x$size + 4095) & ~4095 )); n=$((n + 1)) ;;
		esac
	done
	[ $n = 4 ] || { echo "nm-vmlinux: vmlinux lacks one of .text .rodata .bss .brk" >&2; exit 1; }
}
